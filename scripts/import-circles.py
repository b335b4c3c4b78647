#!/usr/bin/env python3
"""Lists the import circles among src/ files: groups of files that reach each other through
`use` lines (`use crate::...`, `use super::...`, `use self::...`). A circle means no file of it
can be read first. Both `use` lines and paths written out in code count. Usage: scripts/import-circles.py [SRC_DIR]   (default: src)"""
import os
import re
import sys

SRC = sys.argv[1] if len(sys.argv) > 1 else "src"

def module_of(path):
    rel = os.path.relpath(path, SRC)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return rel

def file_of(parts):
    """The file of the longest module prefix of `parts`."""
    for n in range(len(parts), -1, -1):
        base = os.path.join(SRC, *parts[:n]) if n else SRC
        for candidate in (base + ".rs", os.path.join(base, "mod.rs")) if n else (os.path.join(SRC, "lib.rs"),):
            if os.path.isfile(candidate):
                return candidate
    return None

INLINE = re.compile(r"\b(?:crate|super|self)(?:::[a-z_][a-z0-9_]*)+")
USE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", re.M)

def paths(tree):
    """Every path a use tree names, as lists of segments (braces expanded)."""
    tree = re.sub(r"\s+", "", tree)
    out = []
    def walk(prefix, t):
        depth, start, items = 0, 0, []
        if "{" in t:
            head, rest = t.split("{", 1)
            inner = rest[: rest.rfind("}")]
            for i, c in enumerate(inner):
                depth += c == "{"
                depth -= c == "}"
                if c == "," and depth == 0:
                    items.append(inner[start:i])
                    start = i + 1
            items.append(inner[start:])
            for item in items:
                if item:
                    walk(prefix + [s for s in head.split("::") if s], item)
        else:
            out.append(prefix + [s for s in t.split(" as ")[0].split("as")[0].split("::") if s])
    walk([], tree)
    return out

edges = {}
for root, _, files in os.walk(SRC):
    for name in files:
        if not name.endswith(".rs"):
            continue
        path = os.path.join(root, name)
        here = module_of(path)
        text = open(path, encoding="utf-8").read()
        # Test modules may use anything of their file's parent; they are not the file's design.
        text = text.split("#[cfg(test)]")[0]
        # Comments (doc links among them) name paths without using them.
        text = re.sub(r"//[^\n]*", "", text)
        # `use` lines, and paths written out in the code (`crate::harness::verify::decide(..)`).
        found = [p for tree in USE.findall(text) for p in paths(tree)]
        found += [m.split("::") for m in INLINE.findall(USE.sub("", text))]
        for p in found:
            if True:
                if not p:
                    continue
                if p[0] == "crate":
                    target = p[1:]
                elif p[0] == "super":
                    base = here[:]
                    while p and p[0] == "super":
                        base, p = base[:-1], p[1:]
                    target = base + p
                elif p[0] == "self":
                    target = here + p[1:]
                else:
                    continue
                dest = file_of(target)
                if dest and os.path.normpath(dest) != os.path.normpath(path):
                    edges.setdefault(os.path.normpath(path), set()).add(os.path.normpath(dest))

# Tarjan's strongly connected components.
index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)
def strong(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in edges.get(v, ()):
        if w not in index:
            strong(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            comps.append(sorted(comp))
for v in list(edges):
    if v not in index:
        strong(v)
for comp in sorted(comps):
    print(" <-> ".join(os.path.relpath(c, SRC) for c in comp))
print(f"{len(comps)} circles")
