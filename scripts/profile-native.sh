#!/bin/sh
# The CPU a build really spends, by what spends it: the release binary run natively (no valgrind)
# under `perf record -e cpu-clock` on ROWS generated orders (default 10,000), a full build, an
# unchanged rerun and the one-order reruns named by PROFILE_KINDS (bench.py's short names, as for
# scripts/profile.sh), each with its user and system CPU time; scripts/profile-native-report.py
# turns each into shares. What callgrind cannot show: the kernel's part (page faults, file system
# calls) is not counted under valgrind, and valgrind hides the SHA extensions of the CPU, so
# BoringSSL's SHA-256 takes its AVX path there, several times slower than natively.
# CPU shares do not depend on the machine's load; wall times do. See docs/benchmarks.md.
set -eu
rows=${1:-10000}
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${ORDERPRESS_BINARY:-$root/.build/release/orderpress}
folder=$(python3 "$root/scripts/bench.py" --generate-only "$rows")
# A folder of its own, so that it can run beside `make profile` on the same data.
work="$folder/native"
rm -rf "$work"
mkdir -p "$work"
cp -r "$folder/data" "$folder/orderpress.toml" "$work/"
cp "$work/data/orders.base.json" "$work/data/orders.json"
run() {
  SOURCE_DATE_EPOCH=1795262400 /usr/bin/time -f "%U %S %M" -o "$work/time.$1" \
    perf record -q -e cpu-clock -F 5000 -g -o "$work/perf.$1.data" \
    "$binary" build --progress never --config "$work/orderpress.toml" > /dev/null 2> "$work/build.$1.log" \
    || { tail -5 "$work/build.$1.log"; exit 1; }
}
(cd "$work" && run full && run rerun)
runs="full rerun"
for kind in ${PROFILE_KINDS:-price option}; do
  python3 - "$root/scripts" "$work/data" "$kind" <<'PY'
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
  (cd "$work" && run "$kind")
  runs="$runs $kind"
done
python3 "$root/scripts/profile-native-report.py" "$work" $runs | tee "$work/report.md"
