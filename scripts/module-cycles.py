#!/usr/bin/env python3
"""Lists the cycles between the crate's modules (one module per file):
module A depends on module B when A's `use` lines name an item of B.

    scripts/module-cycles.py [--strict] [SRC]   (default: src)

A module's use of its own ancestors (`super::X` for an item of the parent)
is how Rust modules share a parent's vocabulary and is not counted; every
other dependency is. With --strict, so is a child module named without
`self::` (`use cause::X;` in `verdict/mod.rs`), which Rust resolves as
`self::cause::X`. Prints each cycle, one per line, and exits 1 if there
is one; prints "no cycles" and exits 0 otherwise.
"""
import pathlib
import re
import sys

args = sys.argv[1:]
strict = "--strict" in args
args = [a for a in args if a != "--strict"]
root = pathlib.Path(args[0] if args else "src")
modules = {}
for path in sorted(root.rglob("*.rs")):
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    if path.name == "main.rs" and len(parts) == 0:
        continue  # the binary is its own crate
    modules[tuple(parts)] = path

USE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", re.M | re.S)


def paths(tree, prefix=()):
    """The full paths a use tree names: `a::{b, c::d}` -> a::b, a::c::d."""
    tree = tree.strip()
    depth, start, out = 0, 0, []
    if "{" not in tree:
        return [prefix + tuple(p.strip().split(" as ")[0] for p in tree.split("::"))]
    head, _, rest = tree.partition("{")
    head = tuple(p for p in head.strip().rstrip(":").split("::") if p)
    body = rest[: rest.rfind("}")]
    for i, ch in enumerate(body + ","):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            part = body[start:i].strip()
            if part:
                out += paths(part, prefix + head)
            start = i + 1
    return out


def target(module, path):
    """The module of the crate that `path` (used in `module`) names."""
    if path[0] == "crate":
        base, rest = (), path[1:]
    elif path[0] in ("super", "self"):
        base, rest = module, path
        while rest and rest[0] in ("super", "self"):
            if rest[0] == "super":
                base = base[:-1]
            rest = rest[1:]
    elif strict and module + (path[0],) in modules:
        base, rest = module, path
    else:
        return None
    full = base + tuple(rest)
    while full and full not in modules:
        full = full[:-1]
    return full


graph = {m: set() for m in modules}
for module, path in modules.items():
    text = re.sub(r"#\[cfg\(test\)\]\s*mod tests \{.*", "", path.read_text(), flags=re.S)
    for tree in USE.findall(text):
        for p in paths(re.sub(r"\s+", " ", tree)):
            t = target(module, p)
            if t is None or t == module or module[: len(t)] == t:
                continue
            graph[module].add(t)

# Tarjan's strongly connected components.
index, low, on, stack, sccs, counter = {}, {}, set(), [], [], [0]


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in graph[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        scc = []
        while True:
            w = stack.pop()
            on.discard(w)
            scc.append(w)
            if w == v:
                break
        if len(scc) > 1:
            sccs.append(scc)


sys.setrecursionlimit(10000)
for v in graph:
    if v not in index:
        visit(v)
name = lambda m: "::".join(("crate",) + m)
for scc in sccs:
    print("cycle: " + " <-> ".join(sorted(name(m) for m in scc)))
if not sccs:
    print(f"no cycles among {len(modules)} modules")
sys.exit(1 if sccs else 0)
