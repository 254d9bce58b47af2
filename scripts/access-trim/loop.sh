#!/bin/sh
# Run from the repository's root after `trim --aggressive`. Build, put `package` back where the compiler asks, until the build is green (or a round restores nothing).
T="$(dirname "$0")/.build/release/trim"
round=0
while :; do
    round=$((round + 1))
    swift build --build-tests > /tmp/trim-round.log 2>&1 && { echo "round $round: green"; exit 0; }
    python3 - > /tmp/trim-locations.txt <<'PY'
import re
lines = open('/tmp/trim-round.log').read().splitlines()
locs = []
pending = False
for line in lines:
    m = re.match(r'^(/[^:]+):(\d+):(\d+): (error|note): (.*)$', line)
    if not m: continue
    path, l, c, kind, text = m.groups()
    if kind == 'error':
        pending = 'inaccessible due to' in text
        if 'cannot be declared package because' in text or 'must be declared package' in text or 'must be as accessible' in text or ('must be declared' in text and 'because it matches a requirement' in text):
            locs.append(f'{path}:{l}:{c}')
    elif kind == 'note' and pending and 'declared here' in text:
        locs.append(f'{path}:{l}:{c}')
print('\n'.join(sorted(set(locs))))
# Calls that now miss an overload: the callee's name, from the source line left of the column.
names = set()
for line in lines:
    m = re.match(r'^(/[^:]+):(\d+):(\d+): error: (extraneous argument label|extra argument|cannot convert value|missing argument|incorrect argument label|no exact matches|argument passed to call)', line)
    if not m: continue
    path, l, c = m.group(1), int(m.group(2)), int(m.group(3))
    text = open(path).read().splitlines()[l - 1][:c]
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        ch = text[i]
        if ch == ')': depth += 1
        elif ch == '(':
            if depth == 0:
                callee = re.search(r'([A-Za-z_][A-Za-z0-9_]*)\s*$', text[:i])
                if callee: names.add(callee.group(1))
                break
            depth -= 1
for line in lines:
    m = re.match(r"^/[^:]+:\d+:\d+: error: .*has no (dynamic )?member '([A-Za-z0-9_]+)'", line)
    if m: names.add(m.group(2))
    m = re.match(r"^/[^:]+:\d+:\d+: error: (?:cannot find '|use of local variable ')([A-Za-z0-9_]+)'", line)
    if m: names.add(m.group(1))
open('/tmp/trim-names.txt', 'w').write(','.join(sorted(names)))
PY
    n=$(grep -c . /tmp/trim-locations.txt)
    names=$(cat /tmp/trim-names.txt)
    [ -n "$names" ] && { echo "names: $names"; $T --restore-names "$names"; n=$((n + 1)); }
    [ $round -ge 12 ] && { echo "too many rounds"; exit 1; }
    echo "round $round: $(grep -c ' error: ' /tmp/trim-round.log) errors, $n locations"
    [ "$n" -eq 0 ] && { grep ' error: ' /tmp/trim-round.log | sort -u | head -20; exit 1; }
    [ -s /tmp/trim-locations.txt ] && $T --restore $(cat /tmp/trim-locations.txt)
done
