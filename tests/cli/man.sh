# The manual pages (docs/man) against what they describe: both are clean
# man(7) for groff and mandoc; every command, option and environment variable
# the command's help lists, and every variable the code reads, is in ucopy.1
# (an option in its own command's section); every function, macro and type
# of include/ucopy.h and every symbol libucopy.so exports is in libucopy.3;
# make install puts them where man finds them, and make uninstall removes
# them.
. tests/cli/lib.sh

man1=docs/man/ucopy.1
man3=docs/man/libucopy.3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

# check NAME MISSING: PASS when MISSING is empty, else FAIL naming it.
check() {
	if [ -z "$2" ]; then
		echo "PASS $1"
	else
		echo "FAIL $1: missing$2"
	fi
}

# (a) Lint.
for p in $man1 $man3; do
	# And as man shows it on 80 columns (a 78n line), where a word too long
	# for its line shows.
	for dev in "-Tps" "-Tutf8 -rLL=78n"; do
		groff -man -ww -z $dev "$p" >"$out" 2>"$err"
		rc=$?
		expect "man: groff -man -ww -z $dev $p warns of nothing" sh -c "[ $rc -eq 0 ] && [ ! -s '$err' ]"
	done
	if command -v mandoc >/dev/null; then
		mandoc -T lint "$p" >"$out" 2>"$err"
		rc=$?
		expect "man: mandoc -T lint $p reports nothing" sh -c "[ $rc -eq 0 ] && [ ! -s '$out' ] && [ ! -s '$err' ]"
	else
		echo "SKIP man: mandoc -T lint $p: mandoc is not installed"
	fi
done

# A page's text as words a reader sees: no comments, font changes or
# escapes, \- as -.
text() {
	sed -e '/^\.\\"/d' -e 's/\\f[BIRP]//g' -e 's/\\[&%]//g' -e 's/\\-/-/g' -e 's/\\e/\\/g' "$1"
}
text $man1 >"$tmp/ucopy.1.txt"
text $man3 >"$tmp/libucopy.3.txt"

# section FILE MACRO TITLE: the lines of FILE's .SH or .SS TITLE, up to the
# next heading of the same level or higher.
section() {
	awk -v m="$2" -v t="$3" '
		/^\.S[HS] / {
			if (f && ($1 == ".SH" || m == ".SS")) exit
			h = $0; sub(/^\.S[HS] +/, "", h); gsub(/"/, "", h)
			if ($1 == m && h == t) { f = 1; next }
		}
		f' "$1"
}

# has FILE WORD: WORD is in FILE as a whole token (options end at anything
# but a letter, digit or hyphen; names at anything but a word character).
has() {
	case $2 in
	-*) grep -qE -- "(^|[^A-Za-z0-9-])$2([^A-Za-z0-9-]|\$)" "$1" ;;
	*) grep -qE "(^|[^A-Za-z0-9_])$2([^A-Za-z0-9_]|\$)" "$1" ;;
	esac
}

# The options a help text lists: --long tokens, and -x alone (not the
# -avx512f of a feature list).
options() {
	grep -oE "(^|[][ (|'\`])--?[A-Za-z][A-Za-z0-9-]*" "$1" | sed -e 's/^[^-]*//' -e 's/-*$//' |
		grep -E '^(--..*|-[A-Za-z])$' | sort -u
}

# (b) Drift: ucopy.1 against the command.  Both pages name its version.
for p in $man1 $man3; do
	v=$(sed -n 's/^\.TH .*"ucopy \([0-9.]*\)".*/\1/p' "$p")
	run --version
	expect "man: $p is the page of $(head -n 1 "$out")" [ "ucopy $v" = "$(head -n 1 "$out")" ]
done

run help
cp "$out" "$tmp/help"
commands=$(awk '/^commands:/ { f = 1; next } f && /^$/ { exit } f { print $1 }' "$tmp/help")
expect "man: ucopy help lists commands" [ -n "$commands" ]
missing=
for c in $commands; do
	section "$tmp/ucopy.1.txt" .SS "ucopy $c" >"$tmp/sec"
	[ -s "$tmp/sec" ] || missing="$missing $c"
done
check "man: ucopy.1 has a section for every command ucopy help lists" "$missing"

missing=
for o in $(options "$tmp/help"); do
	has "$tmp/ucopy.1.txt" "$o" || missing="$missing $o"
done
check "man: ucopy.1 has every option ucopy help lists" "$missing"

for c in $commands; do
	run "$c" --help
	if [ "$rc" -ne 0 ] || [ ! -s "$out" ]; then
		expect "man: ucopy $c --help prints its help" false
		continue
	fi
	cp "$out" "$tmp/help.$c"
	section "$tmp/ucopy.1.txt" .SS "ucopy $c" >"$tmp/sec"
	n=0 missing=
	for o in $(options "$tmp/help.$c"); do
		n=$((n + 1))
		has "$tmp/sec" "$o" || missing="$missing $o"
	done
	check "man: ucopy.1's ucopy $c section has all $n options of ucopy $c --help" "$missing"
done

# absent FILE NAME...: the NAMEs FILE does not have, each after a space.
absent() {
	f=$1; shift
	for e in "$@"; do
		has "$f" "$e" || printf ' %s' "$e"
	done
}

section "$tmp/ucopy.1.txt" .SH ENVIRONMENT >"$tmp/env1"
section "$tmp/libucopy.3.txt" .SH ENVIRONMENT >"$tmp/env3"
vars=$(awk '/^environment:/ { f = 1; next } f && !/^  [A-Z]/ { exit } f { print $1 }' "$tmp/help")
expect "man: ucopy help lists environment variables" [ -n "$vars" ]
check "man: ucopy.1's ENVIRONMENT has all $(echo $vars | wc -w) variables ucopy help lists" \
	"$(absent "$tmp/env1" $vars)"

# What the code reads, whether or not a help text says so.
getenvs() {
	grep -rhoE '(secure_)?getenv\("[A-Za-z_][A-Za-z0-9_]*"\)' "$@" | sed 's/.*("\(.*\)")/\1/' | sort -u
}
vars=$(getenvs lib programs preload)
expect "man: the code reads environment variables (found: $(echo $vars))" [ -n "$vars" ]
check "man: ucopy.1's ENVIRONMENT has all $(echo $vars | wc -w) variables lib/, programs/ and preload/ read" \
	"$(absent "$tmp/env1" $vars)"
check "man: libucopy.3's ENVIRONMENT has every variable lib/ reads" \
	"$(absent "$tmp/env3" $(getenvs lib))"

# (b) Drift: libucopy.3 against the header and the library.
h=include/ucopy.h
section "$tmp/libucopy.3.txt" .SH SYNOPSIS >"$tmp/synopsis"
funcs=$(grep -oE '(^|[^A-Za-z0-9_])ucopy_[a-z0-9_]+\(' $h | sed 's/^[^u]*//; s/($//' | sort -u)
missing=
for f in $funcs; do
	grep -qE "(^|[^A-Za-z0-9_])$f\(" "$tmp/synopsis" || missing="$missing $f"
done
check "man: libucopy.3's SYNOPSIS declares all $(echo $funcs | wc -w) functions of $h" "$missing"

names=$( {
	sed -n 's/^#[[:space:]]*define[[:space:]]\{1,\}\(UCOPY_[A-Z0-9_]*\).*/\1/p' $h | grep -vx UCOPY_H
	grep -oE '(struct|enum) ucopy_[a-z0-9_]+' $h | sed 's/.* //'
	grep -oE '\(\*ucopy_[a-z0-9_]+\)' $h | tr -d '(*)'
	grep -oE '^[[:space:]]+UCOPY_[A-Z0-9_]+' $h | tr -d ' \t'
} | sort -u)
missing=
for n in $names; do
	has "$tmp/libucopy.3.txt" "$n" || missing="$missing $n"
done
check "man: libucopy.3 names all $(echo $names | wc -w) macros, types and enumerators of $h" "$missing"

# libucopy.map exports by pattern; names it spells out count too.
exports=$(grep -oE '(^|[^A-Za-z0-9_*])ucopy_[a-z0-9_]+;' lib/libucopy.map | tr -d ' \t;' | sort -u)
if command -v readelf >/dev/null && [ -e "$B/libucopy.so" ]; then
	exports="$exports $(readelf --dyn-syms -W "$B/libucopy.so" |
		awk '$5 == "GLOBAL" && $7 != "UND" { sub(/@.*/, "", $8); print $8 }')"
	missing=
	for s in $exports; do
		has "$tmp/libucopy.3.txt" "$s" || missing="$missing $s"
	done
	check "man: libucopy.3 names every symbol $B/libucopy.so exports ($(echo $exports | wc -w))" "$missing"
else
	echo "SKIP man: the symbols libucopy.so exports: needs readelf and $B/libucopy.so"
fi

# The example compiles against the header.
if command -v cc >/dev/null; then
	section $man3 .SH EXAMPLES | sed -n '/^\.EX/,/^\.EE/p' | sed -n '2,/^\.EE/p' | sed '$d' |
		sed -e 's/\\-/-/g' -e 's/\\e/\\/g' >"$tmp/example.c"
	cc -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -Iinclude "$tmp/example.c" >"$out" 2>"$err"
	rc=$?
	expect "man: libucopy.3's example compiles against $h" sh -c "[ $rc -eq 0 ] && grep -q ucopy_try '$tmp/example.c'"
else
	echo "SKIP man: libucopy.3's example: no cc"
fi

# (c) Installed where man looks, and removed.  The install uses this run's
# build with the paths it was built with: another PREFIX would rebuild and
# relink the command in $B (it names the install paths), under the flags
# of whatever make runs this, as a test must not.
if [ "$(ucopy_arch)" != "$(uname -m)" ]; then
	echo "SKIP man: make install: $B is built for $(ucopy_arch), this machine is $(uname -m) (make check-aarch64 cross-builds)"
	exit 0
fi
if ! command -v make >/dev/null || [ ! -r "$B/paths.stamp" ]; then
	echo "SKIP man: make install: needs make and $B/paths.stamp (a build)"
	exit 0
fi
read -r prefix libdir includedir distdir <"$B/paths.stamp"
datadir=${distdir%/ucopy/distributions}
stage=$tmp/stage
mk() {
	env -u MANDIR make --no-print-directory B="$B" DESTDIR="$stage" PREFIX="$prefix" \
		LIBDIR="$libdir" INCLUDEDIR="$includedir" DATADIR="$datadir" "$@" >"$out" 2>"$err"
	rc=$?
}
mk install
mandir=$stage$datadir/man
expect "man: make install puts ucopy.1 and libucopy.3 in $datadir/man/man1 and man3" sh -c "[ $rc -eq 0 ] &&
	cmp -s $man1 '$mandir/man1/ucopy.1' && cmp -s $man3 '$mandir/man3/libucopy.3'"
for p in man1/ucopy.1 man3/libucopy.3; do
	if command -v man >/dev/null; then
		MANPAGER=cat PAGER=cat MANWIDTH=80 man -l "$mandir/$p" >"$out" 2>"$err"
	else
		groff -man -Tutf8 "$mandir/$p" >"$out" 2>"$err"
	fi
	rc=$?
	title=$(basename "$p" | sed 's/\.\([0-9]\)$/(\1)/' | tr '[:lower:]' '[:upper:]')
	expect "man: the installed $p renders" sh -c "[ $rc -eq 0 ] && head -3 '$out' | grep -qF '$title' &&
		grep -q 'ucopy_try' '$out'"
done
if command -v man >/dev/null; then
	found=$(man -M "$mandir" -w 1 ucopy 2>"$err"; man -M "$mandir" -w 3 libucopy 2>>"$err")
	rc=0
	expect "man: man finds both pages under the installed MANDIR" \
		[ "$found" = "$(printf '%s\n%s' "$mandir/man1/ucopy.1" "$mandir/man3/libucopy.3")" ]
fi
mk uninstall
expect "man: make uninstall removes both pages" sh -c "[ $rc -eq 0 ] &&
	[ ! -e '$mandir/man1/ucopy.1' ] && [ ! -e '$mandir/man3/libucopy.3' ]"
