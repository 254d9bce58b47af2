#!/usr/bin/env python3
"""Functions and initialisers declared under Sources/ that only Tests/ call.

Production should not carry code that only tests run: a test of such a helper tests a composition
the tool never uses. For every `func` and `init` under Sources/ (comments and string literals
stripped, string interpolations kept), the script looks for a call whose argument labels fit the
declaration (labels in order; a parameter with a default, a variadic one or a trailing closure may
be left out) elsewhere under Sources/, then under Tests/. A bare mention of the name
(`map(Self.inOrder)`) counts as a use of every overload of it. Prints the declarations with no use
under Sources/ but one under Tests/ (with --dead, also those used nowhere), one a line:

  path:line  Type.name(label:label:)  tests: N files

and exits 1 when it printed any (--check), 0 otherwise. It is a text scan, not a compiler: two
types' methods of one name and labels count as one, so it can miss a test-only function (never
report a used one, except through dynamic dispatch it does not know, listed in WITNESSES).

  scripts/unused-apis.py [--dead] [--check] [--root .]
"""

import argparse
import os
import re
import sys
from collections import defaultdict

# Called by a protocol or a framework, never by name in the code.
WITNESSES = {
    "hash(into:)", "encode(to:)", "init(from:)", "makeIterator()", "next()", "run()", "validate()",
    "main()", "callAsFunction", "index(after:)", "index(before:)", "write(_:)", "init(argument:)",
    "init(rawValue:)", "init(stringLiteral:)", "init(integerLiteral:)", "init(floatLiteral:)",
    "init(arrayLiteral:)", "init(dictionaryLiteral:)", "init(extendedGraphemeClusterLiteral:)",
    "init(unicodeScalarLiteral:)", "init(booleanLiteral:)", "handleRequest(_:)", "completionKinds()",
    "defaultValueDescription()", "allValueStrings()", "init(stringInterpolation:)",
    "appendLiteral(_:)", "appendInterpolation(_:)", "encode(to:)", "hash(into:)",
}

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip(source):
    """`source` with comments and string literals blanked (newlines kept); the code inside a
    string's interpolations `\\( … )` is kept, so a call made there counts."""
    out = []
    i, n = 0, len(source)

    def string(i, close, raw_hashes):
        # Returns the index after the literal's end, appending interpolated code to out.
        interp = "\\" + raw_hashes + "("
        while i < n:
            if source.startswith(close, i):
                return i + len(close)
            if source.startswith(interp, i):
                i += len(interp)
                depth, start = 1, i
                while i < n and depth:
                    ch = source[i]
                    if ch == '"':  # a literal inside the interpolation
                        out.append(" " + source[start:i] + " ")
                        m = re.match(r'("""|")', source[i:i + 3])
                        i = string(i + len(m.group(1)), m.group(1), "")
                        start = i
                        continue
                    if ch == "(":
                        depth += 1
                    elif ch == ")":
                        depth -= 1
                    i += 1
                out.append(" " + source[start:i - 1] + " ")
                continue
            if source[i] == "\\" and not raw_hashes:
                i += 2
                continue
            if source[i] == "\n":
                out.append("\n")
            i += 1
        return i

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
            out.append('""')
            i = string(i + len(m.group(0)), quote + hashes, hashes)
            continue
        out.append(c)
        i += 1
    return "".join(out)


def balanced(text, start):
    """The text between the parenthesis at `start` and its match, and the index after it."""
    depth, i = 0, start
    while i < len(text):
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return text[start + 1:i], i + 1
        i += 1
    return text[start + 1:], len(text)


def top_level_split(text):
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>" and not (ch == ">" and i > 0 and text[i - 1] == "-"):
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:])
    return parts


def parameters(text):
    """[(external label, may be left out)] of a declaration's parameter list."""
    result = []
    for part in top_level_split(text):
        head, _, rest = part.partition(":")
        words = head.split()
        if not words:
            continue
        label = words[0]
        optional = "=" in rest or "..." in rest or "->" in rest
        result.append((label, optional))
    return result


def call_labels(text):
    labels = []
    for part in top_level_split(text):
        m = re.match(r"\s*(" + IDENT + r")\s*:(?!:)", part)
        labels.append(m.group(1) if m else "_")
    return labels


def fits(params, labels, trailing_closure):
    """Whether a call with `labels` (and maybe a trailing closure) can call `params`."""
    i = 0
    for label in labels:
        while i < len(params) and params[i][0] != label and params[i][1]:
            i += 1
        if i == len(params) or params[i][0] != label:
            return False
        i += 1
    rest = params[i:]
    if trailing_closure and rest:
        rest = rest[:-1] if not rest[-1][1] or "->" else rest
    return all(optional for _, optional in rest)


DECL = re.compile(r"\b(?:func\s+(" + IDENT + r")|(init)[?!]?)\s*(<[^>{]*>)?\s*\(")
TYPE = re.compile(r"\b(?:struct|enum|class|actor|protocol|extension)\s+(" + IDENT + r"(?:\." + IDENT + r")*)[^{;]*\{")


def declarations(path, text):
    """(name, params, line, owner type, span of the declaration's head) per func and init."""
    found = []
    owners = []  # (depth at which the body opened, type name)
    pending = []
    depth = 0
    events = sorted([(m.start(), "type", m) for m in TYPE.finditer(text)] +
                    [(m.start(), "decl", m) for m in DECL.finditer(text)] +
                    [(i, ch, None) for i, ch in enumerate(text) if ch in "{}"],
                    key=lambda e: (e[0], e[1] != "type"))
    for pos, kind, m in events:
        if kind == "type":
            pending.append(m.group(1).split(".")[-1])
        elif kind == "{":
            depth += 1
            if pending:
                owners.append((depth, pending.pop()))
        elif kind == "}":
            if owners and owners[-1][0] == depth:
                owners.pop()
            depth -= 1
        else:
            before = text[max(0, pos - 200):pos]
            line_start = before.rfind("\n")
            prefix = before[line_start + 1:]
            if re.search(r"\b(override|@objc)\b", prefix):
                continue
            if m.group(2) == "init" and not re.match(r"(\s|@\w+|public|internal|private|fileprivate|package|"
                                                    r"convenience|required|nonisolated|override)*$", prefix):
                continue  # `.init(` or `self.init(` calls, not a declaration
            name = m.group(1) or "init"
            params_text, end = balanced(text, m.end() - 1)
            owner = owners[-1][1] if owners else ""
            found.append((name, parameters(params_text), text.count("\n", 0, pos) + 1, owner, (pos, end)))
    return found


def receiver_type(text, start):
    """The type of what a call at `start` is made on, when the text says it: `Type.name(`, or
    `value.name(` where the file declares `value: Type` or `value = Type(`; None otherwise."""
    m = re.search(r"(?<![A-Za-z0-9_.])(" + IDENT + r")\s*\.\s*$", text[max(0, start - 80):start])
    if not m:
        return None
    value = m.group(1)
    if value[0].isupper():
        return value if value != "Self" else None
    if value in ("self", "super"):
        return None
    d = re.search(r"\b" + re.escape(value) + r"\s*(?::\s*|=\s*(?:try\s+)?)(" + IDENT + r")\s*[(.,)\n{=]", text)
    return d.group(1) if d else None


def uses(text, names):
    """name -> list of (labels, trailing closure, receiver type) of its calls, and the names
    mentioned bare."""
    calls = defaultdict(list)
    bare = set()
    for m in re.finditer(r"(?<![A-Za-z0-9_])(" + IDENT + r")(\s*(?:<[^<>(){}]*>)?\s*)(\()?", text):
        name = m.group(1)
        if name not in names:
            continue
        prev = text[max(0, m.start() - 12):m.start()]
        if re.search(r"\bfunc\s+$", prev) or (name == "init" and not re.search(r"\.\s*$", prev)):
            continue  # a declaration, not a use
        if m.group(3):
            args, after = balanced(text, m.end() - 1)
            trailing = re.match(r"\s*\{", text[after:]) is not None
            calls[name].append((call_labels(args), trailing, receiver_type(text, m.start())))
        else:
            follow = re.match(r"\s*\{", text[m.end():]) is not None
            if follow and m.group(2).strip() == "":
                # `name { … }`: a call with only a trailing closure
                calls[name].append(([], True, receiver_type(text, m.start())))
            else:
                bare.add(name)
    return calls, bare


def swift_files(root):
    for base, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(base, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=".")
    parser.add_argument("--dead", action="store_true", help="also list what nothing calls")
    parser.add_argument("--check", action="store_true", help="exit 1 when something is listed")
    args = parser.parse_args()
    sources = {p: strip(open(p, encoding="utf-8").read()) for p in swift_files(os.path.join(args.root, "Sources"))}
    tests = {p: strip(open(p, encoding="utf-8").read()) for p in swift_files(os.path.join(args.root, "Tests"))}

    decls = []
    for path, text in sources.items():
        for name, params, line, owner, span in declarations(path, text):
            decls.append((path, name, params, line, owner, span))
    names = {d[1] for d in decls}
    owners_of = defaultdict(set)
    for d in decls:
        owners_of[d[1]].add(d[4])
    # A bare mention of a name that is also a case or a property is taken for that, not the function.
    values = set()
    for text in sources.values():
        values |= set(re.findall(r"\b(?:let|var)\s+(" + IDENT + r")", text))
        for cases in re.findall(r"\bcase\s+(" + IDENT + r"(?:\s*,\s*" + IDENT + r")*)", text):
            values |= set(re.split(r"\s*,\s*", cases))
    type_names = {d[4] for d in decls if d[1] == "init"}

    def index(files):
        result = {}
        for path, text in files.items():
            calls, bare = uses(text, names | type_names | {"Self", "init"})
            result[path] = (calls, bare)
        return result

    source_uses, test_uses = index(sources), index(tests)

    def used(decl, files_uses, skip_span=None):
        path, name, params, _, owner, span = decl
        callers = set()
        spellings = [name] if name != "init" else [owner, "Self", "init"]
        for file, (calls, bare) in files_uses.items():
            for spelling in spellings:
                if name != "init" and spelling in bare and name not in values:
                    callers.add(file)
                for labels, trailing, receiver in calls.get(spelling, []):
                    if name != "init" and receiver in owners_of[name] and receiver != owner:
                        continue  # another type's method of that name
                    if fits(params, labels, trailing):
                        callers.add(file)
        return callers

    listed = 0
    for decl in decls:
        path, name, params, line, owner, span = decl
        signature = name + "(" + "".join(label + ":" for label, _ in params) + ")"
        if signature in WITNESSES or name in WITNESSES:
            continue
        in_sources = used(decl, source_uses)
        # The declaration itself is not a use: count its own file only if a call there fits.
        if in_sources == {path}:
            text = sources[path]
            own = text[:span[0]] + " " * (span[1] - span[0]) + text[span[1]:]
            calls, bare = uses(own, {name, owner, "Self", "init"})
            in_sources = used(decl, {path: (calls, bare)})
        if in_sources:
            continue
        in_tests = used(decl, test_uses)
        if in_tests or args.dead:
            qualified = (owner + "." if owner else "") + signature
            where = f"tests: {len(in_tests)} files" if in_tests else "unused"
            print(f"{os.path.relpath(path, args.root)}:{line}  {qualified}  {where}")
            listed += 1
    return 1 if args.check and listed else 0


if __name__ == "__main__":
    sys.exit(main())
