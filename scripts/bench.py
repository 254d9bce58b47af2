#!/usr/bin/env python3
"""Generates a SheetDB-shaped orders file of N rows (default 1,000,000: a full Google Sheet) in a
bench folder with a configuration, then builds it twice with the release binary (cold, then a rerun
on unchanged input) and prints each step's time and the peak memory. Run by `make bench`."""
import json, os, random, subprocess, sys, time, pathlib, re

root = pathlib.Path(__file__).resolve().parent.parent
rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
bench = root / ".build" / "bench"
data = bench / "data"
data.mkdir(parents=True, exist_ok=True)
binary = root / ".build" / "release" / "orderpress"

rng = random.Random(42)
groups = [f"團購{g:03d}" for g in range(200)]
people = [f"Person {p:05d}" for p in range(20000)]
drinks = ["熟成紅茶", "珍珠奶茶", "四季春青茶", "冬瓜檸檬", "芒果綠茶", "波霸鮮奶"]
orders = bench / "data" / "orders.json"
if not orders.exists() or orders.stat().st_size == 0 or json.loads((bench / "rows.json").read_text() if (bench / "rows.json").exists() else "0") != rows:
    with open(orders, "w", encoding="utf-8") as out:
        out.write("[")
        for i in range(rows):
            row = {
                "id": str(i + 1), "group": rng.choice(groups), "orderer": rng.choice(people),
                "drink": rng.choice(drinks), "size": rng.choice(["L", "M"]), "sugar": rng.choice(["無糖", "半糖", "全糖"]),
                "ice": rng.choice(["去冰", "少冰"]), "quantity": str(rng.randint(1, 3)), "price": str(rng.choice([30, 35, 45, 55])),
                "currency": "", "time": f"2026-11-21 {9 + i % 8:02d}:{i % 60:02d}:00", "note": "", "editCode": f"c{i:07d}x",
            }
            out.write(("," if i else "") + json.dumps(row, ensure_ascii=False))
        out.write("]")
    (bench / "rows.json").write_text(str(rows))
(bench / "data" / "rates.json").write_text(json.dumps({"USDTWD": {"Exrate": 32.125, "UTC": "2026-11-21 08:00:00"}, "USDJPY": {"Exrate": 154.32, "UTC": "2026-11-21 08:00:00"}}))
(bench / "orderpress.toml").write_text('title = "Bench"\nbase_currency = "TWD"\ndisplay_currencies = ["USD", "JPY"]\ntimezone = "Asia/Taipei"\n[orders]\npath = "data/orders.json"\n[rates]\npath = "data/rates.json"\n[minor_units]\nTWD = 0\n[guard]\nmax_deleted_fraction = 1.0\n')

env = dict(os.environ, SOURCE_DATE_EPOCH="1795255200")
for label in ["cold build", "rerun, unchanged input"]:
    started = time.time()
    result = subprocess.run(["/usr/bin/time", "-f", "peak memory %M KiB", str(binary), "build", "-v", "--config", str(bench / "orderpress.toml")],
                            capture_output=True, text=True, env=env)
    elapsed = time.time() - started
    print(f"== {label}: {rows} orders, {elapsed:.2f} s wall, exit {result.returncode}")
    for line in result.stderr.splitlines():
        m = re.search(r"(\w+): ([0-9.]+ s)$", line)
        if m: print(f"   {m.group(1):10s} {m.group(2)}")
        elif "peak memory" in line: print("   " + line.strip())
        elif result.returncode: print("   " + line)
    print("   " + result.stdout.strip())
