# Data flows one way (docs/design.md, "Layers"): read from the objects which
# module uses a symbol another defines (nm), with one architecture's
# assembly counted as one module; the graph, less the back edges that
# docs/design.md names with their reasons, has no loop; each named back edge
# closes a loop of at most three modules; a named edge is one the objects
# still have; programs/ has none.
. tests/cli/lib.sh

if ! command -v nm >/dev/null; then
	echo "SKIP modules: nm is not installed"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out" "$err"' EXIT

# graph ROOT DESIGN: the verdicts, one a line ("ok ..." or "bad ...").
graph() {
	python3 - "$1" "$2" <<'PY'
import collections, glob, os, re, subprocess, sys
root, design = sys.argv[1], sys.argv[2]
PORTS = ('x86_64', 'aarch64', 'generic')

def module(obj):
    parts = os.path.relpath(obj, root)[:-2].split('/')
    if parts[0] == 'lib' and len(parts) > 2 and parts[1] == 'kernels':
        return 'lib/kernels/<port>'
    if parts[0] == 'lib' and len(parts) > 2 and parts[1] in PORTS:
        parts[1] = '<port>'
    return '/'.join(parts)

defs, uses = {}, collections.defaultdict(set)
objs = sorted(glob.glob(root + '/lib/**/*.o', recursive=True) +
              glob.glob(root + '/programs/**/*.o', recursive=True))
for o in objs:
    m = module(o)
    text = subprocess.run(['nm', o], capture_output=True, text=True, check=True).stdout
    for line in text.splitlines():
        f = line.split()
        if len(f) == 2 and f[0] in 'Uw':
            uses[m].add(f[1])
        elif len(f) == 3 and f[1] in 'TDBRVWGS':
            defs.setdefault(f[2], m)
edges = collections.defaultdict(dict)
for m, syms in uses.items():
    for s in sorted(syms):
        d = defs.get(s)
        if d and d != m:
            edges[m].setdefault(d, []).append(s)
nodes = sorted(set(edges) | {d for m in edges for d in edges[m]} | set(defs.values()))

named = []
text = open(design).read() if os.path.exists(design) else ''
for a, b, why in re.findall(r'^- `([^`]+)` → `([^`]+)`: (.+)$', text, re.M):
    named.append((a, b))

def sccs(adj):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
        for w in adj.get(v, {}):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out

def shortest(adj, a, b):
    prev, todo = {a: None}, collections.deque([a])
    while todo:
        v = todo.popleft()
        if v == b:
            path = []
            while v is not None:
                path.append(v); v = prev[v]
            return path[::-1]
        for w in adj.get(v, {}):
            if w not in prev:
                prev[w] = v; todo.append(w)
    return None

print('ok %d modules, %d edges, %d named back edges' %
      (len(nodes), sum(len(v) for v in edges.values()), len(named)))
rest = {m: {d: s for d, s in ds.items() if (m, d) not in named} for m, ds in edges.items()}
for comp in sccs(rest):
    inner = ['%s -> %s (%s)' % (a, b, ' '.join(rest[a][b][:3]))
             for a in comp for b in sorted(rest.get(a, {})) if b in comp]
    print('bad a loop of %d modules that docs/design.md does not name: %s' %
          (len(comp), '; '.join(inner)))
for a, b in named:
    if a.startswith('programs/'):
        print('bad programs/ keeps no loop, but docs/design.md names %s -> %s' % (a, b))
    if b not in edges.get(a, {}):
        if a in nodes:
            print('bad docs/design.md names %s -> %s, which the objects no longer have' % (a, b))
        continue
    back = shortest(edges, b, a)
    if back and len(back) > 3:
        print('bad %s -> %s closes a loop of %d modules (%s), more than three' %
              (a, b, len(back), ' -> '.join(back + [b])))
PY
}

graph "$B" docs/design.md >"$out" 2>"$err"
rc=$?
name="modules: the objects of $B ($(sed -n 's/^ok //p' "$out")) have no loop but those docs/design.md names"
if [ $rc -eq 0 ] && grep -q '^ok ' "$out" && ! grep -q '^bad ' "$out"; then
	echo "PASS $name"
else
	echo "FAIL $name:"
	sed -n 's/^bad /  /p' "$out"
	sed 's/^/  stderr: /' "$err" | head -5
fi

# The check finds a loop: two objects that call each other, under lib/.
if command -v cc >/dev/null; then
	mkdir -p "$tmp/lib"
	echo 'void b(void); void a(void) { b(); }' >"$tmp/a.c"
	echo 'void a(void); void b(void) { a(); }' >"$tmp/b.c"
	cc -c -o "$tmp/lib/a.o" "$tmp/a.c" && cc -c -o "$tmp/lib/b.o" "$tmp/b.c"
	graph "$tmp" "$tmp/none.md" >"$out" 2>"$err"
	expect "modules: two objects that call each other are a loop" \
		grep -q '^bad a loop of 2 modules.*lib/a -> lib/b' "$out"
fi
