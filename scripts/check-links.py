#!/usr/bin/env python3
"""Checks that every relative link in README.md and docs/ resolves.

A link to a file must name a file or folder of the repository; a link with a
`#fragment` must name a heading of the target (GitHub's anchors: lowercased,
punctuation dropped, spaces made hyphens, repeats numbered) or an explicit
`<a id="...">`. Links to other sites (http, https, mailto) are not fetched.
Links inside code (fenced blocks, `inline`) are not links and are skipped; but a
repository path written out anywhere (`docs/cron.md`, `Sources/OrderPressRender/`)
must name something that exists, so that a moved file or folder leaves no stale name.

Usage: scripts/check-links.py [FILE.md ...]   (default: README.md and docs/**/*.md)
Exit 1 listing each broken link as file:line: target (why).
"""
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
EXPLICIT_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")
REPOSITORY_PATH = re.compile(r"(?<![\w/.])((?:docs|scripts|templates|examples|packaging|Sources|Tests|\.ci)/[\w./+-]*[\w/])")


def code_free_lines(text):
    """The file's lines, with fenced code blocks blanked and inline code removed."""
    fence = None
    for line in text.splitlines():
        stripped = line.lstrip()
        marker = re.match(r"(```+|~~~+)", stripped)
        if fence is None and marker:
            fence = marker.group(1)[0] * 3
            yield ""
            continue
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            yield ""
            continue
        yield INLINE_CODE.sub("", line)


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading keeps its text
    text = text.replace("`", "").lower()
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if char in " -_" or category[0] in "LN" or category == "Mn":
            kept.append(char)
    return "".join(kept).replace(" ", "-")


_anchors = {}


def anchors(path):
    if path not in _anchors:
        found, seen = set(), {}
        text = path.read_text(encoding="utf-8")
        for line in code_free_lines(text):
            match = HEADING.match(line)
            if match:
                base = slug(match.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                found.add(base if count == 0 else f"{base}-{count}")
        found.update(EXPLICIT_ANCHOR.findall(text))
        _anchors[path] = found
    return _anchors[path]


def check(path):
    problems = []
    for number, line in enumerate(code_free_lines(path.read_text(encoding="utf-8")), start=1):
        targets = [m.group(1) for m in LINK.finditer(line)]
        reference = REFERENCE.match(line)
        if reference:
            targets.append(reference.group(1))
        for target in targets:
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                continue  # another site, or mailto:
            file_part, _, fragment = target.partition("#")
            destination = (path.parent / file_part).resolve() if file_part else path
            where = f"{path.relative_to(ROOT)}:{number}: {target}"
            if not destination.exists():
                problems.append(f"{where} (no such file)")
            elif fragment and destination.suffix == ".md" and fragment not in anchors(destination):
                problems.append(f"{where} (no heading with that anchor in {destination.relative_to(ROOT)})")
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        for named in REPOSITORY_PATH.findall(line):
            if not (ROOT / named.rstrip("/.")).exists():
                problems.append(f"{path.relative_to(ROOT)}:{number}: {named} (names no file or folder of the repository)")
    return problems


def main(arguments):
    files = [Path(a).resolve() for a in arguments] or [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    problems = [p for f in files for p in check(f)]
    for problem in problems:
        print(problem)
    print(f"{len(files)} files checked, {len(problems)} broken links", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
