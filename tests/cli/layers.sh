# The house's rules, checked: the generic library names no architecture's
# kernel, feature or register (docs/design.md, "Ports"), and the library
# includes nothing from the command above it; the command's own layers include
# only downward (programs/format, core, writers, commands).
. tests/cli/lib.sh

rc=0
x86=$(grep -nEi 'avx|sse[0-9]|movs[bq]|erms|fsrm|rep_good|unrolled|%?\b(rax|rdx|rip)\b|[xyz]mm[0-9]|cpuid|xgetbv|GenuineIntel|AuthenticAMD|__x86_64__' \
	lib/*.c lib/*.h 2>/dev/null | grep -v 'lib/arch.h:.*lib/x86_64/')
expect "layers: the generic library names no x86-64 kernel, feature or register${x86:+ (found: $(echo "$x86" | head -3 | tr '\n' ' '))}" \
	[ -z "$x86" ]
up=$(grep -nE '#include "(\.\./)*programs/|#include "(cli|bench|report|measure|output|stats|dist|workload)[a-z_]*\.h"' \
	lib/*.c lib/*.h lib/*/*.c lib/*/*.h 2>/dev/null)
expect "layers: lib/ includes no header of programs/${up:+ (found: $up)}" [ -z "$up" ]
gen=$(grep -ln 'x86_64\.h\|cpuid' lib/generic/*.c 2>/dev/null)
expect "layers: the generic port uses nothing of the x86-64 port${gen:+ ($gen)}" [ -z "$gen" ]

# The command's layers (Makefile, PRG_DIRS), each including only from the
# layers before it: programs/format/ (text, CSV, JSON, HTML, SVG), then
# programs/core/ (the measuring core), programs/writers/ (the report's page,
# JSON and output files), programs/commands/.  A header is included by its
# name alone, so a file's layer is where that name lives.
layers="format core writers commands"
above=$layers
for l in $layers; do
	above=${above#"$l"}
	above=${above# }
	names=$(for a in $above; do ls programs/"$a"/*.h 2>/dev/null; done | sed -e 's|.*/||' -e 's|\.|\\.|' | tr '\n' '|')
	names=${names%|}
	up=
	[ -n "$names" ] && up=$(grep -nE "#include \"([^\"]*/)?($names)\"" programs/"$l"/*.c programs/"$l"/*.h 2>/dev/null)
	expect "layers: programs/$l/ includes nothing from a layer above it${up:+ (found: $(echo "$up" | head -3 | tr '\n' ' '))}" \
		[ -z "$up" ]
done
