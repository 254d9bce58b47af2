#!/bin/sh
# Counts the instructions of one full build of ROWS generated orders (default 10,000) under
# callgrind, which is repeatable on a shared, noisy machine, then of an unchanged rerun and of
# reruns with one order changed (its price, then another's option, as `make bench` does), and writes the top functions,
# inclusive and exclusive, demangled, beside the data: .build/bench/<ROWS>/profile/.
# All three run under valgrind: the page keys hold the running binary's stamp (`Version`), which
# valgrind's /proc/self/exe changes, so a rerun outside it would render every page afresh.
# Run by `make profile` after a release build; see docs/benchmarks.md.
set -eu
rows=${1:-10000}
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${ORDERPRESS_BINARY:-$root/.build/release/orderpress}
folder=$(python3 "$root/scripts/bench.py" --generate-only "$rows")
out="$folder/profile"
mkdir -p "$out"
# Valgrind 3.19 gives up on the DWARF 5 forms Swift's compiler emits ("unhandled dwarf2 abbrev
# form"); a copy without debug sections keeps the symbol table, which is all a per-function
# profile needs.
objcopy --strip-debug "$binary" "$out/orderpress"
binary="$out/orderpress"
# Valgrind 3.19 also dies (SIGSEGV inside valgrind) when a program calls sigsuspend with a mask in
# read-only memory, as libdispatch's dispatch_main does: it writes into the mask. This preloaded
# sigsuspend passes a copy on the stack instead; it changes nothing else.
cat > "$out/sigsuspend.c" <<'C'
#define _GNU_SOURCE
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, 8);
}
C
cc -O2 -shared -fPIC -o "$out/sigsuspend.so" "$out/sigsuspend.c"
export LD_PRELOAD="$out/sigsuspend.so"
cp "$folder/data/orders.base.json" "$folder/data/orders.json"
rm -rf "$folder/output"
# One thread's worth of counts: the build's tasks run on a small pool, and per-thread files would
# split each function across them.
SOURCE_DATE_EPOCH=1795262400 valgrind --tool=callgrind --separate-threads=no \
  --callgrind-out-file="$out/callgrind.full" \
  "$binary" build --progress never --config "$folder/orderpress.toml" 2> "$out/valgrind.full.log" \
  || { tail -5 "$out/valgrind.full.log"; exit 1; }
# The unchanged rerun on the state the full build left.
SOURCE_DATE_EPOCH=1795262400 valgrind --tool=callgrind --separate-threads=no \
  --callgrind-out-file="$out/callgrind.rerun" \
  "$binary" build --progress never --config "$folder/orderpress.toml" 2> "$out/valgrind.rerun.log" \
  || { tail -5 "$out/valgrind.rerun.log"; exit 1; }
# One order's price changed, as the bench changes it; then, on that build, one order's option
# (its sugar level), as the bench's second kind of change: each is one order's change against the
# build before it. Other kinds: PROFILE_KINDS="price option note paid time quantity person newperson delete"
# (the short names of bench.py's KINDS), in that order.
runs="full rerun"
for kind in ${PROFILE_KINDS:-price option}; do
  python3 - "$root/scripts" "$folder/data" "$kind" <<'PY'
import pathlib, sys
sys.path.insert(0, sys.argv[1])
import bench
data, kind = pathlib.Path(sys.argv[2]), sys.argv[3]
_, name, offset, field, change = next(k for k in bench.KINDS if k[0] == kind)
text = (data / "orders.json").read_text(encoding="utf-8")
middle = (data / "orders.base.json").read_text(encoding="utf-8").count('{"id": "') // 2
text, old, new = bench.change_field(text, middle + offset, field, change) if field else bench.delete_order(text, middle + offset)
(data / "orders.json").write_text(text, encoding="utf-8")
print(f"{kind}: order {middle + offset}: {field} {old} -> {new}")
PY
  SOURCE_DATE_EPOCH=1795262400 valgrind --tool=callgrind --separate-threads=no \
    --callgrind-out-file="$out/callgrind.$kind" \
    "$binary" build --progress never --config "$folder/orderpress.toml" 2> "$out/valgrind.$kind.log" \
    || { tail -5 "$out/valgrind.$kind.log"; exit 1; }
  runs="$runs $kind"
done
for run in $runs; do
  python3 "$root/scripts/profile-report.py" "$out/callgrind.$run" > "$out/report.$run.md"
done
grep -m1 'Collected' "$out/valgrind.full.log" || true
echo "stage tables in $out/report.<run>.md for $runs (callgrind_annotate $out/callgrind.full for more)"
