#!/bin/sh
# Builds the stage targets' sources as ONE Swift module, to measure what the walls between targets
# cost (docs/benchmarks.md, "What the stages as targets cost"): every Sources/OrderPress<Folder>/ file
# copied into one target OrderPressAll with its `import OrderPress…` lines dropped, the executable
# importing that target instead; the C targets and the packages as they are. The checkouts are copied
# from this tree's .build, so nothing is downloaded. Prints the release binary's path.
#   sh scripts/one-module.sh [FOLDER]   (default /tmp/orderpress-one-module; a git commit's sources)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/orderpress-one-module}
rm -rf "$out"
mkdir -p "$out/.build"
git -C "$root" archive HEAD | tar -x -C "$out"
for part in checkouts repositories workspace-state.json artifacts; do
  [ -e "$root/.build/$part" ] && cp -r "$root/.build/$part" "$out/.build/"
done
[ -e "$root/Package.resolved" ] && cp "$root/Package.resolved" "$out/"
mkdir "$out/Sources/OrderPressAll"
for folder in "$out"/Sources/OrderPress*/; do
  [ "$folder" = "$out/Sources/OrderPressAll/" ] && continue
  (cd "$folder" && find . -name '*.swift' | while read -r file; do
    name=$(echo "$file" | sed 's|^\./||; s|/|_|g')
    sed -E '/^((public|package) )?import OrderPress[A-Za-z]+$/d' "$file" > "$out/Sources/OrderPressAll/$name"
  done)
  rm -rf "$folder"
done
rm -rf "$out/Tests"
# The one target depends on what the stage targets depended on, read from the manifest as it is.
(cd "$root" && swift package dump-package) > "$out/.build/manifest.json"
python3 - "$out" "$root" <<'PY'
import json, pathlib, re, sys
out, root = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for path in (out / "Sources" / "orderpress").glob("*.swift"):
    lines, seen = [], False
    for line in path.read_text().split("\n"):
        if re.fullmatch(r"import OrderPress[A-Za-z]+", line):
            if not seen:
                lines.append("import OrderPressAll")
            seen = True
            continue
        lines.append(line)
    path.write_text("\n".join(lines))
manifest = json.loads((out / ".build" / "manifest.json").read_text())
stages = {t["name"] for t in manifest["targets"] if (root / "Sources" / t["name"]).is_dir() and t["name"].startswith("OrderPress")}
dependencies = []
for target in manifest["targets"]:
    if target["name"] not in stages:
        continue
    for dependency in target["dependencies"]:
        if "product" in dependency:
            name, package = dependency["product"][:2]
            entry = f'.product(name: "{name}", package: "{package}")'
        else:
            name = (dependency.get("byName") or dependency.get("target"))[0]
            if name in stages:
                continue
            entry = f'"{name}"'
        if entry not in dependencies:
            dependencies.append(entry)
one = ('        .target(\n            name: "OrderPressAll",\n            dependencies: [\n'
       + "".join(f"                {entry},\n" for entry in dependencies) + "            ]\n        ),\n")
text = (out / "Package.swift").read_text()
start = text.index("        // The stages, one target a folder")
end = text.index('        .executableTarget(\n            name: "orderpress",')
text = text[:start] + one + text[end:]
text = text.replace("dependencies: stages + [", 'dependencies: ["OrderPressAll",')
rest = text.index("        // Run by `make templates`")
text = text[:rest] + text[text.rindex("    ]\n)"):]
text = re.sub(r'\s*\.library\(name: "OrderPress", targets: \[[^\]]*\]\),', "", text)
(out / "Package.swift").write_text(text)
PY
(cd "$out" && swift build -c release --product orderpress >&2)
echo "$out/.build/release/orderpress"
