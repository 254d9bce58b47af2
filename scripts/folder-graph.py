#!/usr/bin/env python3
"""Which folders of Sources/OrderPress use which others' types.

For each folder under Sources/OrderPress/ (Support/ counts as one), the types it declares
(top-level struct/enum/class/protocol/actor/typealias, and the types nested in its
extensions of another folder's type, as Outer.Inner) and, with comments and string
literals stripped, the other folders' types its code names. Prints each folder's
outgoing edges (how many distinct types, and which with -v), the pairs of folders that
use each other, and the cycles (strongly connected components of more than one folder).

  scripts/folder-graph.py [-v] [--root Sources/OrderPress]
  scripts/folder-graph.py --check scripts/layering.txt

--check also fails when a stage's unit tests (Tests/OrderPress<Folder>Tests/) import a stage
above their own or beside it.
--check reads a declared order of the folders, one layer a line, lowest first (folders on one
line are peers, which may not use each other either), and the upward edges still allowed
(`A -> B`), and exits 1 if a folder uses a folder above it, or a peer, by an edge not on that
list (or if a folder is in no layer).
It is a text scan, not a compiler: an extension method of another folder's type that is
called without naming the type is not seen.
"""

import argparse
import os
import re
import sys
from collections import defaultdict

DECL = re.compile(
    r"\b(?:struct|enum|class|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)")
EXTENSION = re.compile(r"\bextension\s+([A-Za-z_][A-Za-z0-9_.]*)")
PREFIX = "OrderPress"
LAYERING = os.path.join(os.path.dirname(os.path.abspath(__file__)), "layering.txt")
# Folders that share one target with another (a cycle not cut yet); read from layering.txt by main().
GROUPED = set()
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def strip(source):
    """The source with comments and string literals (interpolations too) blanked,
    newlines kept."""
    out = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            j = source.find("\n", i)
            i = n if j < 0 else j
            continue
        if source.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if source.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif source.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if source[i] == "\n":
                        out.append("\n")
                    i += 1
            continue
        m = re.match(r'(#*)("""|")', source[i:i + 12])
        if m and (m.group(1) or c == '"'):
            hashes, quote = m.group(1), m.group(2)
            close = quote + hashes
            j = i + len(m.group(0))
            while j < n:
                if source.startswith(close, j):
                    j += len(close)
                    break
                if source[j] == "\\" and not hashes:
                    j += 2
                    continue
                if source[j] == "\n":
                    out.append("\n")
                j += 1
            out.append('""')
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out)


def folder_of(path, root):
    """The stage folder of a file: Sources/OrderPress<Folder>/…, or Sources/OrderPress<Target>/<Folder>/…
    where one target holds several folders; None outside the stage targets."""
    parts = os.path.relpath(path, root).split(os.sep)
    if not parts[0].startswith(PREFIX) or parts[0] == PREFIX or len(parts) < 2:
        return None
    if len(parts) > 2 and parts[1] in GROUPED:
        return parts[1]
    return parts[0][len(PREFIX):]


def scan(root):
    files = []
    for base, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(".swift"):
                path = os.path.join(base, name)
                folder = folder_of(path, root)
                if folder is None:
                    continue
                with open(path, encoding="utf-8") as f:
                    files.append((folder, path, strip(f.read())))

    declared = {}  # type name (or Outer.Inner) -> folder
    for folder, _, text in files:
        depth = 0
        extending = []  # stack of (depth, extended type) for open extension bodies
        pending = None
        for token in re.finditer(r"[{}]|\bextension\s+[A-Za-z_][A-Za-z0-9_.]*|"
                                 r"\b(?:struct|enum|class|protocol|actor|typealias)\s+"
                                 r"[A-Za-z_][A-Za-z0-9_]*", text):
            t = token.group(0)
            if t == "{":
                depth += 1
                if pending is not None:
                    extending.append((depth, pending))
                    pending = None
            elif t == "}":
                if extending and extending[-1][0] == depth:
                    extending.pop()
                depth -= 1
            elif t.startswith("extension"):
                if depth == 0:
                    pending = EXTENSION.match(t).group(1)
            else:
                name = DECL.match(t).group(1)
                if depth == 0:
                    declared.setdefault(name, folder)
                elif extending and extending[-1][0] == depth and depth == 1:
                    declared.setdefault(extending[-1][1] + "." + name, folder)
    return files, declared


def edges_of(files, declared):
    uses = defaultdict(lambda: defaultdict(set))  # from -> to -> {type names}
    for folder, path, text in files:
        for m in IDENT.finditer(text):
            parts = m.group(0).split(".")
            for k, part in enumerate(parts):
                # A nested type counts only as Outer.Inner: a member's name is no type's.
                name = part if k == 0 else parts[k - 1] + "." + part
                if name not in declared:
                    continue
                to = declared[name]
                if to != folder:
                    uses[folder][to].add(name)
    return uses


def components(nodes, uses):
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(uses.get(v, {})):
            if w not in index:
                visit(w)
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
            out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return [c for c in out if len(c) > 1]


def test_imports(tests, rank):
    """The imports of a stage above its own (or a peer) in each stage's unit tests,
    Tests/OrderPress<Folder>Tests/: a unit test uses its own stage and those below it."""
    bad = []
    if not os.path.isdir(tests):
        return bad
    for target in sorted(os.listdir(tests)):
        folder = target[len(PREFIX):-len("Tests")] if target.startswith(PREFIX) and target.endswith("Tests") else None
        if folder not in rank:
            continue
        for base, dirs, names in os.walk(os.path.join(tests, target)):
            dirs.sort()
            for name in sorted(names):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(base, name)
                with open(path, encoding="utf-8") as f:
                    for imported in re.findall(r"^(?:@testable )?import " + PREFIX + r"(\w+)", f.read(), re.M):
                        if imported in rank and imported != folder and rank[imported] >= rank[folder]:
                            bad.append(f"  {os.path.relpath(path, os.path.dirname(tests))} imports {PREFIX}{imported}")
    return bad


def read_layering(path):
    """The layer of each folder (0 lowest) and the allowed (from, to) edges that break the order."""
    rank, allowed = {}, set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if "->" in line:
                a, b = (s.strip() for s in line.split("->"))
                allowed.add((a, b))
            else:
                layer = len(set(rank.values()))
                for folder in line.split():
                    rank[folder] = layer
    return rank, allowed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "Sources"))
    parser.add_argument("-v", "--verbose", action="store_true", help="name the types of each edge")
    parser.add_argument("--check", metavar="LAYERING", help="fail on an upward edge not allowed")
    args = parser.parse_args()

    GROUPED.update(read_layering(args.check or LAYERING)[0])
    files, declared = scan(args.root)
    uses = edges_of(files, declared)
    folders = sorted({f for f, _, _ in files})

    if args.check:
        rank, allowed = read_layering(args.check)
        missing = [f for f in folders if f not in rank]
        if missing:
            print(f"{args.check}: folders not in the order: {', '.join(missing)}")
            return 1
        bad, stale = [], []
        for a in folders:
            for b, names in sorted(uses[a].items()):
                if rank[b] >= rank[a] and (a, b) not in allowed:
                    bad.append(f"  {a} -> {b}: {', '.join(sorted(names))}")
        for a, b in sorted(allowed):
            if not uses.get(a, {}).get(b):
                stale.append(f"  {a} -> {b}")
        if stale:
            print("allowed upward edges no longer used (remove them from "
                  f"{args.check}):\n" + "\n".join(stale))
        if bad:
            print(f"uses of a folder above or beside, not allowed by {args.check} (move the type "
                  "down, or invert the dependency):\n" + "\n".join(bad))
            return 1
        tests = test_imports(os.path.join(args.root, "..", "Tests"), rank)
        if tests:
            print("unit tests that import a stage above their own or beside it (move the test to the "
                  "highest stage's tests it uses, or to OrderPressBinaryTests):\n" + "\n".join(tests))
            return 1
        print(f"layering holds ({len(allowed) - len(stale)} edges against it still allowed; "
              "each stage's unit tests import no stage above it)")
        return 0

    print("== declared types per folder")
    for f in folders:
        print(f"{f}: {sum(1 for v in declared.values() if v == f)}")
    print("\n== edges (folder -> folder: distinct types used)")
    total = 0
    for a in folders:
        for b, names in sorted(uses[a].items()):
            total += 1
            line = f"{a} -> {b}: {len(names)}"
            if args.verbose:
                line += "  (" + ", ".join(sorted(names)) + ")"
            print(line)
    print(f"({total} edges)")
    print("\n== two-way pairs")
    pairs = 0
    for a in folders:
        for b in sorted(uses[a]):
            if a < b and a in uses.get(b, {}):
                pairs += 1
                print(f"{a} <-> {b}: {len(uses[a][b])} / {len(uses[b][a])}")
    print(f"({pairs} pairs)")
    print("\n== cycles (strongly connected components)")
    comps = components(folders, uses)
    for c in comps:
        print(f"{len(c)}: {' '.join(c)}")
    if not comps:
        print("none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
