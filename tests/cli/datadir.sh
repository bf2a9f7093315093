# CLI tests: the distributions that ship with ucopy (data/distributions):
# found without being named, in the order --dist-dir, UCOPY_DATA_DIR, the
# source tree beside the command; --dist and dist: by bare name;
# --list-dists; a bad UCOPY_DATA_DIR; FIFOs refused without waiting.
. tests/cli/lib.sh

dir=$(mktemp -d)
trap 'chmod -R u+rwx "$dir" 2>/dev/null; rm -rf "$dir" "$out" "$err"' EXIT
ucopy=$(cd "$(dirname "$UCOPY")" && pwd)/$(basename "$UCOPY")
shipped=$(pwd -P)/data/distributions
names="Memcpy_0 Memcpy_1 Memcpy_2 Memcpy_3 Memcpy_4 Memcpy_5 Memcpy_6 Memcpy_7 Memcpy_8 Memcpy_Fleet"

# The list: the source tree's directory, and each of the ten by name.
run bench --list-dists
expect "bench --list-dists: the source tree's ten" sh -c "[ $rc -eq 0 ] && [ ! -s '$err' ] &&
	head -1 '$out' | grep -qxF '# 10 distributions in $shipped (source tree)' &&
	[ \"\$(sed 1d '$out' | cut -d' ' -f1 | tr '\n' ' ')\" = '$names ' ] &&
	sed 1d '$out' | grep -q '^Memcpy_Fleet  *fleetbench, 1941 sizes'"
UCOPY_DATA_DIR= run bench --list-dists
expect "an empty UCOPY_DATA_DIR is no directory given" \
	grep -qxF "# 10 distributions in $shipped (source tree)" "$out"
run help bench
expect "help bench names --list-dists and bare names" \
	sh -c "grep -q -- '--list-dists' '$out' && grep -q -- '--dist Memcpy_Fleet' '$out'"
usage_error "bench --list-dists takes nothing else" "--list-dists takes no other option" \
	bench --list-dists --seconds 1

# Bare names, with and without .csv, for bench and compare.
run bench --kernels word --dist Memcpy_7 --seconds 0.05 --format json --seed 1
expect "bench --dist NAME reads the shipped file" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["dist"]["file"] == sys.argv[2] + "/Memcpy_7.csv", d["config"]["dist"]
assert d["config"]["dist"]["format"] == "fleetbench" and d["config"]["dist"]["sizes"] == 102
' "$out" "$shipped"
run bench --kernels word --dist Memcpy_Fleet.csv --seconds 0.05 --format json --seed 1
expect "bench --dist NAME.csv reads the shipped file" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["dist"]["file"] == sys.argv[2] + "/Memcpy_Fleet.csv", d["config"]["dist"]
' "$out" "$shipped"
run compare word word --workload dist:Memcpy_7 --runs 20 -q --json
expect "compare --workload dist:NAME" sh -c "[ $rc -eq 0 ] && grep -qF '$shipped/Memcpy_7.csv' '$out'"
run compare word word --dist Memcpy_5 --runs 20 -q --json
expect "compare --dist NAME" sh -c "[ $rc -eq 0 ] && grep -qF '$shipped/Memcpy_5.csv' '$out'"
usage_error "bench --dist: an unknown name says where it looked" \
	"bad distribution 'Memcpy_9' (expected a file, or the name of one in $shipped" \
	bench --dist Memcpy_9
usage_error "bench --dist: LICENSE is no distribution name" "bad distribution 'LICENSE'" \
	bench --dist LICENSE
# A file of that name in the current directory is the file, as any path.
printf '64 1\n' >"$dir/Memcpy_7.csv"
(cd "$dir" && "$ucopy" bench --kernels word --dist Memcpy_7.csv --seconds 0.05 --format json \
	--seed 1 >"$out" 2>"$err")
rc=$?
expect "bench --dist: a file in the current directory wins over the name" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["dist"]["file"] == "Memcpy_7.csv" and d["config"]["dist"]["format"] == "plain", d
' "$out"

# UCOPY_DATA_DIR before the source tree; --dist-dir before UCOPY_DATA_DIR.
mkdir "$dir/mine" "$dir/other"
printf '64 3\n4K 1\n' >"$dir/mine/small.csv"
printf '100 1\n' >"$dir/other/hundred.csv"
UCOPY_DATA_DIR=$dir/mine run bench --list-dists
expect "UCOPY_DATA_DIR wins over the source tree" sh -c "[ $rc -eq 0 ] &&
	head -1 '$out' | grep -qxF '# 1 distributions in $dir/mine (UCOPY_DATA_DIR)' &&
	sed -n 2p '$out' | grep -q '^small  *plain, 2 sizes'"
UCOPY_DATA_DIR=$dir/mine run bench --kernels word --dist small --seconds 0.05 --format json
expect "bench --dist NAME looks in UCOPY_DATA_DIR" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["dist"]["file"] == sys.argv[2] + "/small.csv", d["config"]["dist"]
' "$out" "$dir/mine"
UCOPY_DATA_DIR=$dir/mine usage_error "with UCOPY_DATA_DIR, the source tree's names are not looked up" \
	"bad distribution 'Memcpy_0' (expected a file, or the name of one in $dir/mine" \
	bench --dist Memcpy_0
# A file among them that is no distribution is refused, naming it, before
# anything is measured: a FIFO (without waiting for a writer), a bad line.
mkfifo "$dir/other/fifo.csv"
for cmd in "report --quick --seconds 0.5 -o $dir/r.html" "calibrate --quick --seconds 0.3 -o $dir/p"; do
	timeout 60 "$UCOPY" $cmd --dist-dir "$dir/other" >"$out" 2>"$err"
	rc=$?
	expect "${cmd%% *} --dist-dir: a FIFO among the files is refused at once" \
		is_usage_error "bad distribution file '$dir/other/fifo.csv' (expected a regular file, not a FIFO)"
done
expect "calibrate: refused, it writes no profile; report no page" sh -c "[ ! -e '$dir/p' ] && [ ! -e '$dir/r.html' ]"
mkdir "$dir/bad"
printf '64 1\n' >"$dir/bad/a.csv"
printf '8 -1\n' >"$dir/bad/b.csv"
usage_error "calibrate --dist-dir: a bad line in a file is refused" \
	"$dir/bad/b.csv:1: bad line '8 -1' (expected SIZE WEIGHT)" \
	calibrate --quick --seconds 0.3 -o "$dir/p" --dist-dir "$dir/bad"
usage_error "report --dist-dir: a bad line in a file is refused" \
	"$dir/bad/b.csv:1: bad line '8 -1' (expected SIZE WEIGHT)" \
	report --quick --seconds 0.5 -o "$dir/r.html" --dist-dir "$dir/bad"
mkdir "$dir/many"
i=0; while [ $i -le 64 ]; do printf '64 1\n' >"$dir/many/d$i.csv"; i=$((i + 1)); done
usage_error "report --dist-dir: more files than one run measures on are refused, not cut" \
	"$dir/many holds more than 64 distribution files" \
	report --quick --seconds 0.5 -o "$dir/r.html" --dist-dir "$dir/many"
UCOPY_DATA_DIR=$dir/many usage_error "calibrate: the same through UCOPY_DATA_DIR" \
	"$dir/many holds more than 64 distribution files" calibrate --quick --seconds 0.3 -o "$dir/p"
mkdir "$dir/good"
cp "$dir/other/hundred.csv" "$dir/good/"
UCOPY_DATA_DIR=$dir/mine timeout 60 "$UCOPY" report --quick --seconds 0.5 -q -o "$dir/r.html" \
	--json "$dir/r.json" --dist-dir "$dir/good" >"$out" 2>"$err"
rc=$?
expect "report --dist-dir wins over UCOPY_DATA_DIR" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["distributions"]
assert [r["name"] for r in d["rows"]] == ["hundred"], d
' "$dir/r.json"
UCOPY_DATA_DIR=$dir/other timeout 10 "$UCOPY" bench --list-dists >"$out" 2>"$err"
rc=$?
expect "bench --list-dists: a FIFO is listed as refused at once" sh -c "[ $rc -eq 0 ] &&
	grep -q '^fifo  *refused: .*not a FIFO' '$out' && grep -q '^hundred  *plain, 1 size up to 100' '$out'"

# A bad UCOPY_DATA_DIR: one line naming it, exit 2, wherever it is needed
# (and before anything is measured).
: >"$dir/file"
for bad in "$dir/missing" "$dir/file"; do
	UCOPY_DATA_DIR=$bad usage_error "bench --list-dists: bad UCOPY_DATA_DIR $bad" \
		"bad UCOPY_DATA_DIR '$bad' (expected a directory of distribution files)" bench --list-dists
done
bad=$dir/missing
msg="bad UCOPY_DATA_DIR '$bad' (expected a directory"
UCOPY_DATA_DIR=$bad usage_error "bench --dist NAME: bad UCOPY_DATA_DIR" "$msg" bench --dist Memcpy_0
UCOPY_DATA_DIR=$bad usage_error "compare dist:NAME: bad UCOPY_DATA_DIR" "$msg" \
	compare word word --workload dist:Memcpy_0
UCOPY_DATA_DIR=$bad usage_error "report: bad UCOPY_DATA_DIR" "$msg" report --quick -o "$dir/x.html"
UCOPY_DATA_DIR=$bad usage_error "calibrate: bad UCOPY_DATA_DIR" "$msg" \
	calibrate --quick -o "$dir/profile"
expect "calibrate: a bad UCOPY_DATA_DIR writes no profile" [ ! -e "$dir/profile" ]
UCOPY_DATA_DIR=$bad run bench --kernels word --dist "$dir/mine/small.csv" --seconds 0.05 -q
expect "bench --dist PATH does not need UCOPY_DATA_DIR" [ "$rc" -eq 0 ]
usage_error "report --dist-dir not a directory" "bad --dist-dir '$dir/file' (expected a directory" \
	report --dist-dir "$dir/file"
usage_error "calibrate --dist-dir not a directory" "bad --dist-dir '$dir/file' (expected a directory" \
	calibrate --dist-dir "$dir/file"

# FIFOs: refused at once with the file named, never waited on.
mkfifo "$dir/fifo"
fifo_refused() {
	name=$1; shift
	timeout 10 "$UCOPY" "$@" >"$out" 2>"$err"
	rc=$?
	expect "$name" is_usage_error "bad distribution file '$dir/fifo' (expected a regular file, not a FIFO)"
}
fifo_refused "bench --dist FIFO is refused at once" bench --dist "$dir/fifo"
fifo_refused "compare --workload dist:FIFO is refused at once" compare byte word --workload "dist:$dir/fifo"
fifo_refused "compare --dist FIFO is refused at once" compare byte word --dist "$dir/fifo"
timeout 10 "$UCOPY" bench --dist /dev/null >"$out" 2>"$err"
rc=$?
expect "bench --dist /dev/null is refused" is_usage_error "not a character device"

# A directory that cannot be read is no empty one: every command that reads
# it says so, rather than measuring without its files.  Root reads any
# directory, so as root the checks run as nobody, where runuser can.
mkdir "$dir/locked" && cp "$shipped/Memcpy_7.csv" "$dir/locked/" && chmod 000 "$dir/locked"
chmod 755 "$dir"
as=
if [ "$(id -u)" -eq 0 ]; then
	as="runuser -u nobody --"
	$as "$ucopy" --version >/dev/null 2>&1 || as=none
fi
if [ "$as" = none ]; then
	echo "SKIP datadir: an unreadable directory (root here, and nobody cannot run $ucopy)"
else
	locked() {
		name=$1; shift
		timeout 60 $as env "$@" >"$out" 2>"$err"
		rc=$?
		expect "$name" is_usage_error "cannot read .*$dir/locked.*: Permission denied"
	}
	locked "bench --list-dists: an unreadable UCOPY_DATA_DIR is refused" \
		UCOPY_DATA_DIR="$dir/locked" "$ucopy" bench --list-dists
	locked "bench --dist NAME in an unreadable UCOPY_DATA_DIR says it cannot read it" \
		UCOPY_DATA_DIR="$dir/locked" "$ucopy" bench --kernels word --dist Memcpy_7 --seconds 0.05
	locked "calibrate --dist-dir unreadable is refused before measuring" \
		"$ucopy" calibrate --quick --seconds 0.3 -o "$dir/p" --dist-dir "$dir/locked"
	locked "report --dist-dir unreadable is refused before measuring" \
		"$ucopy" report --quick --seconds 0.1 -q -o "$dir/r.html" --dist-dir "$dir/locked"
fi
