# CLI tests: the project alone, as a new user has it (issue 16).  The tree
# (tracked files and new ones git does not ignore) is copied into a
# temporary folder with nothing beside it and built there; its report and
# calibrate must find the distributions that ship, from any directory.  Then
# make install, staged with DESTDIR and to a real prefix: the installed
# command finds the installed files.  Builds with -O1 to stay quick.
. tests/cli/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT
src=$tmp/alone/ucopy
mkdir -p "$src" "$tmp/empty"
names='["Memcpy_0", "Memcpy_1", "Memcpy_2", "Memcpy_3", "Memcpy_4", "Memcpy_5", "Memcpy_6", "Memcpy_7", "Memcpy_8", "Memcpy_Fleet"]'

# Nothing in the project points outside it (the shared checkout beside the
# development tree is no user's; the pattern is split so it is not itself found).
pat='share''d/'
grep -rn "$pat" lib programs tests .ci Makefile README.md docs >"$out" 2>&1
rc=$?
expect "nothing refers to ../$pat" [ "$rc" -eq 1 ]

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z -c -o --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null |
		tar -xf - -C "$src"
else
	tar --exclude='./build*' --exclude=./report.html --exclude=./report.json -cf - . | tar -xf - -C "$src"
fi
# The make running these tests passes its variables (B, CFLAGS, a jobserver)
# in MAKEFLAGS: the copy is built as a user would, from scratch.
build() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$src" --no-print-directory B=b \
		CFLAGS=-O1 "$@" >"$out" 2>"$err"
	rc=$?
}
build -j2 PREFIX=/usr all
expect "the tree alone builds" sh -c "[ $rc -eq 0 ] && [ -x '$src/b/ucopy' ] &&
	cmp -s '$src/data/distributions/Memcpy_Fleet.csv' data/distributions/Memcpy_Fleet.csv"
[ "$rc" -eq 0 ] || exit 0

# From an empty directory elsewhere: the source tree beside the command.
cd "$tmp/empty"
timeout 120 "$src/b/ucopy" report --quick -q -o r.html --json r.json >"$out" 2>"$err"
rc=$?
expect "report --quick from a lone tree has the ten distributions" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["distributions"]
names = [r["name"] for r in d["rows"]]
assert names == json.loads(sys.argv[2]) and "reason" not in d, d
assert all(r["ratio"]["est"] > 0 for r in d["rows"]), d["rows"]
' r.json "$names"
timeout 120 "$src/b/ucopy" calibrate --quick -o "$tmp/profile" >"$out" 2>"$err"
rc=$?
expect "calibrate --quick from a lone tree verifies on the ten" python3 -c '
import json, sys
out, prof = open(sys.argv[1]).read(), open(sys.argv[2]).read().splitlines()
want = sys.argv[3] + "/data/distributions"
assert "verified  on 10 distributions in %s (source tree), seed 1, sizes in an order no predictor learns\n" % want in out, out
got = [l.split()[3][:-4] for l in prof if l.startswith("# verify mixed ")]
assert got == json.loads(sys.argv[4]), got
' "$out" "$tmp/profile" "$(cd "$src" && pwd -P)" "$names"
cd - >/dev/null

# Installed under /usr, staged with DESTDIR: found beside the command's bin/.
stage=$tmp/stage
build PREFIX=/usr DESTDIR="$stage" install
expect "make install DESTDIR=... PREFIX=/usr installs the distributions" sh -c "[ $rc -eq 0 ] &&
	for f in '$src'/data/distributions/*; do
		cmp -s \"\$f\" '$stage/usr/share/ucopy/distributions/'\"\${f##*/}\" || exit 1
	done && [ \$(ls '$stage/usr/share/ucopy/distributions' | wc -l) -eq 12 ]"
expect "make install puts ucopy.h and ucopy-asm.h in \$INCLUDEDIR" sh -c "
	cmp -s include/ucopy.h '$stage/usr/include/ucopy.h' &&
	cmp -s include/ucopy-asm.h '$stage/usr/include/ucopy-asm.h'"
# A routine of one's own lists its fault sites with the installed header.
asm=tests/fault_object_$(uname -m).S
if [ -e "$asm" ]; then
	cc -c -I"$stage/usr/include" -o "$tmp/fault_object.o" "$asm" >"$out" 2>"$err"
	rc=$?
	expect "$asm assembles against the installed <ucopy-asm.h>, its sites as notes" sh -c "[ $rc -eq 0 ] &&
		readelf -nW '$tmp/fault_object.o' | grep -q 'ucopy .*0x00000010.*0x55430001'"
else
	echo "SKIP standalone: <ucopy-asm.h> installed: no $asm for this machine's architecture"
fi
(cd "$tmp/empty" && "$stage/usr/bin/ucopy" bench --list-dists >"$out" 2>"$err")
rc=$?
expect "the staged command finds the installed files" sh -c "[ $rc -eq 0 ] &&
	head -1 '$out' | grep -qxF '# 10 distributions in $stage/usr/share/ucopy/distributions (installed)'"
(cd "$tmp/empty" && "$stage/usr/bin/ucopy" bench --kernels word --dist Memcpy_Fleet \
	--seconds 0.05 --format csv >"$out" 2>"$err")
rc=$?
expect "the staged command takes --dist NAME" sh -c "[ $rc -eq 0 ] && grep -q 'Memcpy_Fleet.csv' '$out'"
build PREFIX=/usr DESTDIR="$stage" uninstall
expect "make uninstall removes them, and both headers" sh -c "[ $rc -eq 0 ] && [ ! -e '$stage/usr/share/ucopy' ] &&
	[ ! -e '$stage/usr/include/ucopy.h' ] && [ ! -e '$stage/usr/include/ucopy-asm.h' ]"

# Installed to a prefix, the command copied away from it: only the
# compiled-in place is left, and a changed PREFIX rebuilt it.
build PREFIX="$tmp/prefix" install
expect "a changed PREFIX rebuilds ucopy.pc" sh -c "[ $rc -eq 0 ] &&
	grep -qxF 'prefix=$tmp/prefix' '$tmp/prefix/lib/pkgconfig/ucopy.pc' &&
	grep -qxF 'includedir=$tmp/prefix/include' '$tmp/prefix/lib/pkgconfig/ucopy.pc' &&
	grep -qxF 'libdir=$tmp/prefix/lib' '$tmp/prefix/lib/pkgconfig/ucopy.pc'"
mkdir "$tmp/elsewhere" && cp "$tmp/prefix/bin/ucopy" "$tmp/elsewhere/"
(cd "$tmp/empty" && "$tmp/elsewhere/ucopy" bench --list-dists >"$out" 2>"$err")
rc=$?
expect "the command finds the install location compiled in" sh -c "[ $rc -eq 0 ] &&
	head -1 '$out' | grep -qxF '# 10 distributions in $tmp/prefix/share/ucopy/distributions (installed)'"
rm -rf "$tmp/prefix/share"
(cd "$tmp/empty" && "$tmp/elsewhere/ucopy" bench --list-dists >"$out" 2>"$err")
rc=$?
expect "none anywhere: --list-dists says where it looked" sh -c "[ $rc -eq 1 ] && [ ! -s '$out' ] &&
	grep -qF 'no distribution directory (UCOPY_DATA_DIR is not set, and there is none in the source tree beside the command or in $tmp/prefix/share/ucopy/distributions)' '$err'"
