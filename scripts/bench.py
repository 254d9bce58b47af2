#!/usr/bin/env python3
"""OrderPress benchmark, run by `make bench` (see docs/benchmarks.md).

For each size (rows of orders; default 100,000, then 100,000 as a Form, then 1,000,000) it generates a
SheetDB-shaped orders file under .build/bench/<rows>/, or with `form:ROWS` a Google Form's response
tab as CSV under .build/bench/form-<rows>/ (generate_form; fixed seeds: the same bytes every time;
about 1 group per 100 orders and 1 person per 10), then measures side by side, in one run, with the
release binary:

  - OrderPress: a full build (empty output), an unchanged rerun, and reruns after one order changed,
    one for each kind of change (KINDS, below): wall time, peak RSS (/usr/bin/time -f %M), each step's time from `build -v`, and the
    files written/unchanged from the summary line;
  - the `cmark-gfm -e table` command on the same Markdown, concatenated into one file;
  - the C floor: scripts/cfloor.c, compiled here with cc against libcmark-gfm, which renders the same
    Markdown pages with the site's extensions and options on every core and writes both trees (the
    Markdown copied, the HTML) into an empty folder: the least any tool publishing these pages must do;
  - Hugo on the same Markdown (content copied into a Hugo site with a layout that only renders
    .Content in a bare HTML shell; taxonomies, RSS, sitemap, robots.txt and 404 off);

then the ratios against the targets (docs/ARCHITECTURE.md, Performance limits: full build ≤ 1.5× the C floor, Hugo ≥ 4×
slower, unchanged rerun ≤ 5 % and any one-order rerun ≤ 15 % of a full build, peak RSS ≤ 512 MB at
100,000 orders and ≤ 1 GB at 1,000,000). All of that is
repeated BENCH_RUNS times (default 3), one
repetition after the other; each ratio is taken within its repetition, and the verdicts are on the
median of the repetitions (every repetition is in the report). Prints a table per size and writes all of it as Markdown
to .build/bench/results.md. The load average is printed next to each figure: the machine is shared.

    python3 scripts/bench.py [ROWS | form:ROWS ...]   # default: 100000 form:100000 1000000
    python3 scripts/bench.py --generate-only ROWS      # only the data and configuration (for profiling)

After the unchanged rerun come the one-order reruns, one per kind of change (KINDS: a price, an
option, a note, a paid tick, a time, a quantity, the person: someone else, someone new; the order deleted), each on the
output of the one before: the targets hold for any one-order change, so the verdict is on the worst.
"""
import json, os, pathlib, random, re, shutil, subprocess, sys, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BENCH = ROOT / ".build" / "bench"
TRASH = BENCH / "trash"
BINARY = pathlib.Path(os.environ.get("ORDERPRESS_BINARY", ROOT / ".build" / "release" / "orderpress"))  # another binary to compare
SEED = 20261121
# A fixed "now" a few hours after the rates' timestamp, so that no page says the rates are stale
# and two runs of the bench render the same pages.
ENV = dict(os.environ, SOURCE_DATE_EPOCH="1795262400")  # 2026-11-21 10:00 UTC
STEPS = ["lock", "configure", "fetch", "validate", "aggregate", "diff", "render", "publish", "snapshot"]
TARGETS = {100_000: 512, 1_000_000: 1024}  # peak RSS targets in MiB (docs/ARCHITECTURE.md, Performance limits: 512 MB, 1 GB)
PEAK_LIMIT = 1024  # any other size: the ceiling up to a million orders
FLOOR_TARGET, HUGO_TARGET, UNCHANGED_TARGET, ONE_ORDER_TARGET = 1.5, 4.0, 0.05, 0.15
RUNS = int(os.environ.get("BENCH_RUNS", "3"))  # repetitions per size; the verdicts are on their median

SURNAMES = "陳林黃張李王吳劉蔡楊許鄭謝洪郭邱曾廖賴徐周葉蘇莊呂江何蕭羅高潘簡朱鍾游彭詹胡施沈余盧".replace("", " ").split()
GIVEN = ["小明", "美玲", "志豪", "佳慧", "俊傑", "怡君", "家豪", "淑芬", "建宏", "雅婷",
         "Amy", "Ben", "Kevin", "Sarah", "Yuki", "Ken", "Mei", "Hiro", "Lily", "Tom"]
DRINKS = {
    "TWD": [("熟成紅茶", 35), ("珍珠奶茶", 55), ("四季春青茶", 30), ("冬瓜檸檬", 45), ("芒果綠茶", 50), ("波霸鮮奶", 65)],
    "JPY": [("唐揚げ定食", 980), ("さば味噌定食", 1050), ("親子丼", 890), ("カレー", 820)],
    "USD": [("Taro milk tea", "6.25"), ("Brown sugar boba", "6.75"), ("Jasmine green tea", "4.50")],
}
NOTES = ["", "", "", "", "", "", "", "", "少冰 | 加珍珠", "*不要吸管*", "幫忙代收 <3", "要收據 #42"]


def person_name(p):
    name = SURNAMES[p % len(SURNAMES)] + GIVEN[(p // len(SURNAMES)) % len(GIVEN)]
    cycle = p // (len(SURNAMES) * len(GIVEN))
    return name if cycle == 0 else f"{name} {cycle + 1}"


def site_settings(title, orders):
    """The start of both shapes' orderpress.toml: the site, its folders, where the orders are."""
    return f"""title = "{title}"
language = "zh-Hant"
base_currency = "TWD"
display_currencies = ["USD", "JPY"]
timezone = "Asia/Taipei"

[output]
markdown = "output/markdown"
site = "output/site"
state = "output/state"

[orders]
path = "{orders}"
"""


def generate(rows):
    """Writes orders.base.json, groups.csv, rates.json and orderpress.toml into .build/bench/<rows>/,
    unless a copy made by this very generator for this size is already there."""
    folder = BENCH / str(rows)
    data = folder / "data"
    stamp = folder / "generated"
    generator = hash_file(pathlib.Path(__file__))
    if stamp.exists() and stamp.read_text() == generator and (data / "orders.base.json").exists():
        return folder
    data.mkdir(parents=True, exist_ok=True)
    rng = random.Random(SEED)
    group_count, person_count = max(1, rows // 100), max(1, rows // 10)
    currencies = ["TWD"] * 18 + ["JPY", "USD"]
    groups = [(f"團購 {g:05d}" if g % 3 else f"Group {g:05d}", currencies[g % len(currencies)]) for g in range(group_count)]
    people = [person_name(p) for p in range(person_count)]
    with open(data / "groups.csv", "w", encoding="utf-8", newline="") as out:
        out.write("group,organizer,shop,currency,deadline\r\n")
        for g, (name, currency) in enumerate(groups):
            out.write(f"{name},{people[g % person_count]},Shop {g},{currency},2026-11-21 {12 + g % 8:02d}:00\r\n")
    dumps = lambda text: json.dumps(text, ensure_ascii=False)
    with open(data / "orders.base.json", "w", encoding="utf-8") as out:
        out.write("[\n")
        for i in range(rows):
            g = rng.randrange(group_count)
            group, currency = groups[g]
            item, price = rng.choice(DRINKS[currency])
            paid = rng.choice(("TRUE", "TRUE", "FALSE", ""))
            out.write(
                ("," if i else "")
                + f'{{"id": "{i + 1}", "group": {dumps(group)}, "orderer": {dumps(people[rng.randrange(person_count)])}, '
                + f'"drink": {dumps(item)}, "size": "{rng.choice("LM")}", "sugar": "{rng.choice(("無糖", "半糖", "全糖"))}", '
                + f'"ice": "{rng.choice(("去冰", "少冰", "正常冰"))}", "quantity": "{rng.choice("1112")}", "price": "{price}", '
                + f'"currency": "", "time": "2026-11-21 {8 + i % 9:02d}:{i % 60:02d}:{(i // 60) % 60:02d}", '
                + f'"note": {dumps(rng.choice(NOTES))}, "paid": "{paid}", "editCode": "c{rng.getrandbits(40):010x}"}}\n'
            )
        out.write("]\n")
    (data / "rates.json").write_text(json.dumps({
        "USDTWD": {"Exrate": 32.125, "UTC": "2026-11-21 08:00:00"},
        "USDJPY": {"Exrate": 154.32, "UTC": "2026-11-21 08:00:00"},
        "USDUSD": {"Exrate": 1, "UTC": "2026-11-21 08:00:00"},
    }))
    (folder / "orderpress.toml").write_text(site_settings("Bench", "data/orders.json") + """
[orders.columns]
id = "id"
group = "group"
person = "orderer"
item = "drink"
options = ["size", "sugar", "ice"]
quantity = "quantity"
price = "price"
currency = "currency"
time = "time"
note = "note"
paid = "paid"
secret = ["editCode"]

[groups]
path = "data/groups.csv"

[groups.columns]
name = "group"
organizer = "organizer"
shop = "shop"
currency = "currency"
deadline = "deadline"

[rates]
path = "data/rates.json"
format = "rter"
max_age_hours = 48

[minor_units]
TWD = 0

[guard]
max_deleted_fraction = 1.0            # the bench deletes nothing on purpose; never stop it
""")
    stamp.write_text(generator)
    return folder


# The second shape (`form:ROWS`): a Google Form's response tab exported as CSV, as most group orders
# are collected and as `orderpress init` sets a site up: question titles as headers, no id column
# (orders are matched by content), 12-hour 上午/下午 timestamps, 是/否 and TRUE for paid, an e-mail and
# an edit code as secrets, prices with grouping commas, full-width digits now and then, and a groups
# tab with fees, discounts and how to pay. Written to check what bench.py's own sheet did not show:
# this shape's one-order reruns took 0.43-0.81 of a full build before round 24.
FORM_HEADERS = ["時間戳記", "電子郵件地址", "姓名", "團購", "飲料", "大小", "甜度", "冰塊", "數量", "價格", "備註", "已付款", "編輯碼"]
FORM_MENU = [("熟成紅茶", "35"), ("麗春紅茶", "35"), ("胭脂紅茶", "50"), ("珍珠奶茶", "55"), ("波霸綠茶拿鐵", "65"), ("四季春", "30"),
             ("冬瓜檸檬", "45"), ("金萱雙Q", "60"), ("芋頭鮮奶", "75"), ("1,000元禮盒", "1,000")]
FORM_SHOPS = ["五十嵐", "清心福全", "迷客夏", "可不可熟成紅茶", "CoCo都可", "大苑子", "得正", "麻古茶坊"]


def form_time(i, rows):
    """The i-th response's timestamp as a zh-TW sheet formats it: 2026/11/20 下午 3:15:07."""
    seconds = 8 * 3600 + (i * 37) % (12 * 3600)
    hours, minutes, rest = seconds // 3600, seconds // 60 % 60, seconds % 60
    return f"2026/11/{20 + i * 7 // rows} {'上午' if hours < 12 else '下午'} {hours % 12 or 12}:{minutes:02d}:{rest:02d}"


def generate_form(rows):
    """Writes orders.base.csv, groups.csv, rates.json and orderpress.toml into .build/bench/form-<rows>/,
    unless this generator made them already."""
    import csv
    folder = BENCH / f"form-{rows}"
    data = folder / "data"
    stamp = folder / "generated"
    generator = hash_file(pathlib.Path(__file__))
    if stamp.exists() and stamp.read_text() == generator and (data / "orders.base.csv").exists():
        return folder
    data.mkdir(parents=True, exist_ok=True)
    rng = random.Random(SEED + 1)
    group_count, person_count = max(1, rows // 100), max(1, rows // 10)
    people = [person_name(p) for p in range(person_count)]
    groups = [f"{FORM_SHOPS[g % len(FORM_SHOPS)]} {g // len(FORM_SHOPS) + 1:03d}團" for g in range(group_count)]
    with open(data / "groups.csv", "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["團購名稱", "團主", "店家", "截止時間", "付款方式", "外送費", "折扣"])
        for g, name in enumerate(groups):
            writer.writerow([name, people[g * 7 % person_count], FORM_SHOPS[g % len(FORM_SHOPS)], f"2026/12/{1 + g % 28} 下午 {1 + g % 11}:30:00",
                             f"街口支付 {g:06d}", ["", "30", "50"][g % 3], ["", "", "10"][g % 3]])
    with open(data / "orders.base.csv", "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(FORM_HEADERS)
        for i in range(rows):
            person = people[rng.randrange(person_count)]
            item, price = rng.choice(FORM_MENU)
            writer.writerow([form_time(i, rows), f"u{rng.randrange(10**6)}@example.com", person, groups[rng.randrange(group_count)], item,
                             rng.choice(["L", "M", "大杯", "中杯"]), rng.choice(["無糖", "微糖", "半糖", "少糖", "全糖"]),
                             rng.choice(["去冰", "微冰", "少冰", "正常冰", "熱"]), rng.choice(["1", "1", "1", "2", "３"]), price,
                             rng.choice(["", "", "", "", "不要吸管", "加椰果 +10", f"幫 {person} 代訂"]),
                             rng.choice(["是", "否", "", "TRUE"]), f"{rng.getrandbits(48):012x}"])
    (data / "rates.json").write_text(json.dumps({"base": "USD", "date": "2026-11-21", "rates": {"TWD": "32.125", "JPY": "154.32", "USD": "1"}}))
    (folder / "orderpress.toml").write_text(site_settings("公司下午茶", "data/orders.csv") + """
[orders.columns]
group = "團購"
person = "姓名"
item = "飲料"
options = ["大小", "甜度", "冰塊"]
quantity = "數量"
price = "價格"
time = "時間戳記"
note = "備註"
paid = "已付款"
secret = ["編輯碼", "電子郵件地址"]

[groups]
path = "data/groups.csv"

[groups.columns]
name = "團購名稱"
organizer = "團主"
shop = "店家"
deadline = "截止時間"
payment = "付款方式"
fee = "外送費"
discount = "折扣"

[rates]
path = "data/rates.json"
format = "json"
max_age_hours = 48

[guard]
max_deleted_fraction = 1.0            # the bench deletes nothing on purpose; never stop it
""")
    stamp.write_text(generator)
    return folder


def hash_file(path):
    import hashlib
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load():
    return "%.2f" % os.getloadavg()[0]


def timed(command, cwd=None, env=None):
    """Runs command under /usr/bin/time: wall seconds, CPU seconds (user + system, the command and its
    children), peak RSS in MiB, stdout, stderr, and the load average before."""
    before = load()
    started = time.monotonic()
    result = subprocess.run(["/usr/bin/time", "-f", "PEAK_RSS_KIB %M CPU %U %S", *map(str, command)],
                            capture_output=True, text=True, cwd=cwd, env=env)
    wall = time.monotonic() - started
    peak = re.findall(r"PEAK_RSS_KIB (\d+) CPU ([0-9.]+) ([0-9.]+)", result.stderr)
    if result.returncode != 0:
        sys.exit(f"bench: {command[0]} exited {result.returncode}:\n{result.stdout[-2000:]}{result.stderr[-4000:]}")
    return {"wall": wall, "rss": int(peak[-1][0]) / 1024 if peak else float("nan"),
            "cpu": float(peak[-1][1]) + float(peak[-1][2]) if peak else float("nan"),
            "stdout": result.stdout, "stderr": result.stderr, "load": before}


def orderpress(folder, label):
    run = timed([BINARY, "build", "-v", "--progress", "never", "--config", folder / "orderpress.toml"], env=ENV)
    run["label"] = label
    run["steps"] = {m.group(1): float(m.group(2)) for m in re.finditer(r"\] (\w+): ([0-9.]+) s$", run["stderr"], re.M)}
    summary = next((l for l in run["stdout"].splitlines() if re.search(r" files? written", l)), "")
    m = re.search(r"(\d+) files? written, (\d+) unchanged, (\d+) removed", summary)
    run["written"], run["unchanged"], run["removed"] = map(int, m.groups()) if m else (-1, -1, -1)
    run["summary"] = summary.strip()
    print(f"  {label:24s} {run['wall']:8.2f} s  cpu {run['cpu']:8.2f} s  peak {run['rss']:7.0f} MiB  load {run['load']:>5s}  "
          f"written {run['written']}, unchanged {run['unchanged']}", flush=True)
    print("    " + " · ".join(f"{s} {run['steps'][s]:.2f}" for s in STEPS if s in run["steps"]), flush=True)
    return run


def change_one_price(source, target):
    """Copies source to target with the price of the order in the middle of the sheet changed."""
    text = source.read_text(encoding="utf-8")
    rows = text.count('{"id": "')
    order, old, new = change_field(text, rows // 2, "price", lambda price: str(int(float(price) + 1)))
    target.write_text(order, encoding="utf-8")
    return rows // 2, old, new


def change_field(text, order, field, change):
    """text with field of order (its id) replaced by change(old value): (new text, old value, new value)."""
    start = text.index(f'{{"id": "{order}", ')
    line_end = text.index("\n", start)
    line = text[start:line_end]
    value = re.search(f'"{field}": "((?:[^"\\\\]|\\\\.)*)"', line)
    new = change(value.group(1))
    return text[:start] + line[:value.start(1)] + new + line[value.end(1):] + text[line_end:], value.group(1), new


def delete_order(text, order):
    """text without order (its id): (new text, its person, "deleted")."""
    start = text.index(f'{{"id": "{order}", ')
    line_end = text.index("\n", start) + 1
    person = re.search('"orderer": "((?:[^"\\\\]|\\\\.)*)"', text[start:line_end]).group(1)
    if text[start - 1] == ",":
        start -= 1
    elif text[line_end] == ",":
        line_end += 1  # the first order: the next one loses its comma instead
    return text[:start] + text[line_end:], person, "deleted"


def next_of(values):
    return lambda value: values[(values.index(value) + 1) % len(values)] if value in values else values[0]


def later_time(value):
    """One minute later (the bench's times are 2026-11-21 08:00:00 to 16:59:59)."""
    hours, minutes = int(value[11:13]), int(value[14:16])
    minutes += 1
    hours, minutes = hours + minutes // 60, minutes % 60
    return f"{value[:11]}{hours:02d}:{minutes:02d}{value[16:]}"


# The kinds of one-order change the rerun targets hold for ("any one-order
# change"): (short name, name, offset of the order from the middle of the sheet, column, change). Each is made on
# the sheet the previous rerun built, so each rerun is one order's change against the last build;
# the orders differ, so that no change undoes another.
KINDS = [
    ("price", "price", 0, "price", lambda price: str(int(float(price) + 1))),
    ("option", "option (sugar)", 7, "sugar", next_of(["無糖", "半糖", "全糖"])),
    ("note", "note", 14, "note", lambda note: (note + " 改") if note else "改成少冰"),
    ("paid", "paid tick", 21, "paid", lambda paid: "FALSE" if paid == "TRUE" else "TRUE"),
    ("time", "time", 28, "time", later_time),
    ("quantity", "quantity", 35, "quantity", lambda quantity: str(int(quantity) % 3 + 1)),
    ("person", "person → another", 42, "orderer", lambda name: person_name(3) if name != person_name(3) else person_name(4)),
    ("newperson", "person → a new one", 49, "orderer", lambda name: "新來的 Bench"),
    # The accident OrderPress exists to expose: every row below the deleted one moves up by one.
    ("delete", "order deleted", 56, None, None),
]


# The same kinds of change on the Form's CSV (columns by FORM_HEADERS' order; rows counted from the
# first response, offsets from the middle of the sheet). Without ids, each changed order is matched
# by group, person and item; someone else's or someone new's order is a deletion and an addition.
FORM_KINDS = [
    ("price", "price", 0, "價格", lambda price: "36" if price != "36" else "37"),
    ("option", "option (sugar)", 7, "甜度", next_of(["無糖", "微糖", "半糖", "少糖", "全糖"])),
    ("note", "note", 14, "備註", lambda note: (note + " 改") if note else "改成少冰"),
    ("paid", "paid tick", 21, "已付款", lambda paid: "否" if paid in ("是", "TRUE") else "是"),
    ("time", "time", 28, "時間戳記", lambda value: value[:-2] + f"{(int(value[-2:]) + 1) % 60:02d}"),
    ("quantity", "quantity", 35, "數量", lambda quantity: "2" if quantity != "2" else "1"),
    ("person", "person → another", 42, "姓名", lambda name: person_name(3) if name != person_name(3) else person_name(4)),
    ("newperson", "person → a new one", 49, "姓名", lambda name: "新來的 Bench"),
    ("delete", "order deleted", 56, None, None),
]


def change_form_kinds(folder):
    """`change_kinds` for the Form's CSV."""
    import csv
    data = folder / "data"
    with open(data / "orders.base.csv", encoding="utf-8", newline="") as source:
        rows = list(csv.reader(source))
    middle = (len(rows) - 1) // 2
    runs = []
    for _, name, offset, column, change in FORM_KINDS:
        order = middle + offset
        if column:
            index = FORM_HEADERS.index(column)
            old = rows[order][index]
            rows[order][index] = new = change(old)
        else:
            old, new = rows.pop(order)[FORM_HEADERS.index("姓名")], "deleted"
        with open(data / "orders.csv", "w", encoding="utf-8", newline="") as target:
            csv.writer(target).writerows(rows)
        runs.append(rerun(folder, name, order, f"response {order}: {column or 'row'}", old, new))
    return runs


def change_kinds(folder):
    """The reruns after one order's change of each kind (KINDS), one after the other."""
    data = folder / "data"
    text = (data / "orders.base.json").read_text(encoding="utf-8")
    middle = text.count('{"id": "') // 2
    runs = []
    for _, name, offset, field, change in KINDS:
        order = middle + offset
        text, old, new = change_field(text, order, field, change) if field else delete_order(text, order)
        (data / "orders.json").write_text(text, encoding="utf-8")
        runs.append(rerun(folder, name, order, f"order {order}: {field or 'the order'}", old, new))
    return runs


def rerun(folder, name, order, what, old, new):
    """The rerun after one order's change, on the sheet as just written: its timings, the change, and the
    files it rewrote (by modification time; the state folder left out)."""
    before = time.time_ns()
    run = orderpress(folder, f"one order: {name}")
    run["kind"], run["order"], run["old"], run["new"] = name, order, old, new
    run["files"] = sorted(str(p.relative_to(folder / "output")) for p in (folder / "output").rglob("*")
                          if p.is_file() and p.stat().st_mtime_ns >= before and "state" not in p.parts)
    print(f"    {what} {old} → {new}; rewritten ({len(run['files'])}): " + ", ".join(run["files"]), flush=True)
    return run


def markdown_files(folder):
    return sorted(p for p in (folder / "output" / "markdown").rglob("*.md"))


# cmark-gfm holds the whole document's tree: about 47 bytes of memory per byte of Markdown (2,366 MiB
# for the 52 MB of 100,000 orders), so the concatenation is cut, at page boundaries, into files of
# at most this size, parsed one after the other in one timed command. 100,000 orders fit in one.
CMARK_CHUNK = 64 * 1024 * 1024


def cmark(folder, pages):
    chunks_folder = folder / "cmark"
    discard(chunks_folder)
    chunks_folder.mkdir()
    chunks, size, out = [], CMARK_CHUNK, None
    for page in pages:
        text = page.read_bytes() + b"\n\n"
        if size + len(text) > CMARK_CHUNK:
            if out: out.close()
            chunks.append(chunks_folder / f"all-{len(chunks):03d}.md")
            out, size = open(chunks[-1], "wb"), 0
        out.write(text)
        size += len(text)
    out.close()
    # Written to files, as OrderPress writes its pages; the redirections are inside the timed command.
    script = "; ".join(f'cmark-gfm -e table "{c}" > "{c.with_suffix(".html")}"' for c in chunks)
    run = timed(["sh", "-c", f"set -e; {script}"])
    run["bytes"] = sum(c.stat().st_size for c in chunks)
    run["chunks"] = len(chunks)
    print(f"  {'cmark-gfm -e table':24s} {run['wall']:8.2f} s  cpu {run['cpu']:8.2f} s  peak {run['rss']:7.0f} MiB  load {run['load']:>5s}  "
          f"({run['bytes'] / 1e6:.1f} MB of Markdown in {len(chunks)} file(s))", flush=True)
    return run


CFLOOR_SOURCE = ROOT / "scripts" / "cfloor.c"
CFLOOR = BENCH / "cfloor"


def build_cfloor():
    """Compiles scripts/cfloor.c with cc against libcmark-gfm (pkg-config's flags, or the two libraries
    by name where pkg-config is absent) into .build/bench/cfloor."""
    flags = ["-lcmark-gfm", "-lcmark-gfm-extensions"]
    if shutil.which("pkg-config"):
        found = subprocess.run(["pkg-config", "--cflags", "--libs", "libcmark-gfm"], capture_output=True, text=True)
        if found.returncode == 0:
            flags = found.stdout.split()
    BENCH.mkdir(parents=True, exist_ok=True)
    command = ["cc", "-O2", "-pthread", str(CFLOOR_SOURCE), *flags, "-o", str(CFLOOR)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"bench: could not build the C floor ({' '.join(command)}):\n{result.stderr[-4000:]}")


def cfloor(folder):
    """The C floor on the Markdown tree the build wrote: both trees into an empty folder, on every core."""
    out = folder / "cfloor"
    discard(out)
    run = timed([CFLOOR, folder / "output" / "markdown", out])
    files, threads = re.search(r"(\d+) files, (\d+) threads", run["stdout"]).groups()
    run["files"], run["threads"] = int(files), int(threads)
    run["same"], run["compared"] = same_bodies(folder, out)
    print(f"  {'C floor':24s} {run['wall']:8.2f} s  cpu {run['cpu']:8.2f} s  peak {run['rss']:7.0f} MiB  load {run['load']:>5s}  "
          f"({run['files']} files, {run['threads']} threads; HTML = OrderPress's page body on {run['same']} of {run['compared']} pages compared)",
          flush=True)
    return run


BODY_SAMPLE = 25


def same_bodies(folder, out):
    """How many of a sample of the C floor's pages (about BODY_SAMPLE, spread over them sorted, and the home
    page) are byte for byte the body OrderPress put in its layout (templates/layout.html.mustache:
    `<main>` newline, the body, newline `</main>`): the C floor renders what OrderPress renders."""
    pages = sorted((out / "site").rglob("*.html"))
    sample = sorted(set(pages[::max(1, len(pages) // BODY_SAMPLE)]) | {out / "site" / "index.html"})
    same = 0
    for page in sample:
        published = (folder / "output" / "site" / page.relative_to(out / "site")).read_bytes()
        start, end = published.find(b"<main>\n"), published.rfind(b"\n</main>")
        same += start >= 0 and end >= 0 and published[start + len(b"<main>\n"):end] == page.read_bytes()
    return same, len(sample)


# Hugo 0.111 peaked at 5,668 MiB on the 52 MB of Markdown of 100,000 orders; ten times that does not
# fit this shared machine, so larger inputs are skipped (and reported as not run) unless raised.
HUGO_MAX_MARKDOWN = int(os.environ.get("BENCH_HUGO_MAX_MB", "128")) * 1_000_000


def hugo(folder, markdown_bytes):
    if not shutil.which("hugo"):
        print(f"  {'hugo':24s} not run: no hugo command (Debian: apt install hugo)", flush=True)
        return None
    if markdown_bytes > HUGO_MAX_MARKDOWN:
        print(f"  {'hugo':24s} not run: {markdown_bytes / 1e6:.0f} MB of Markdown is over BENCH_HUGO_MAX_MB "
              f"({HUGO_MAX_MARKDOWN / 1e6:.0f})", flush=True)
        return None
    site = folder / "hugo"
    discard(site)
    (site / "layouts" / "_default").mkdir(parents=True)
    shutil.copytree(folder / "output" / "markdown", site / "content", ignore=shutil.ignore_patterns("*.svg", ".git"))
    # A content/index.md would make the home page a leaf bundle that swallows every other page.
    (site / "content" / "index.md").rename(site / "content" / "_index.md")
    (site / "config.toml").write_text(
        'baseURL = "http://example.org/"\n'
        'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]\n'
        "[taxonomies]\n")
    shell = '<!doctype html><html><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body>{{ .Content }}</body></html>\n'
    for name in ("single.html", "list.html"):
        (site / "layouts" / "_default" / name).write_text(shell)
    run = timed(["hugo", "--quiet", "--source", site, "--destination", site / "public", "--cacheDir", site / "cache"])
    run["pages"] = sum(1 for _ in (site / "public").rglob("*.html"))
    print(f"  {'hugo':24s} {run['wall']:8.2f} s  cpu {run['cpu']:8.2f} s  peak {run['rss']:7.0f} MiB  load {run['load']:>5s}  "
          f"({run['pages']} HTML files)", flush=True)
    return run


def discard(path):
    """Moves a folder into the bench's trash instead of deleting it: ext4 passes over the inodes of
    files deleted in the last minutes when it makes new ones (`recently_deleted`), and after deleting
    the 24,000 files of a build, a third of the next build's CPU time went there. The trash is
    emptied when every size has been measured (`empty_trash`)."""
    if path.exists():
        TRASH.mkdir(parents=True, exist_ok=True)
        path.rename(TRASH / f"{path.name}-{time.monotonic_ns()}")


def empty_trash():
    shutil.rmtree(TRASH, ignore_errors=True)


def largest_page(folder):
    pages = [(p.stat().st_size, p) for p in (folder / "output" / "site").rglob("*.html")]
    size, path = max(pages)
    return size, path.relative_to(folder / "output" / "site")


def bench(size):
    """RUNS repetitions of every measurement, one after the other (OrderPress's three runs, cmark-gfm,
    Hugo; then again): each ratio is taken within a repetition, side by side, and the verdicts are
    on the median of the repetitions, so that one slow run of a yardstick or of OrderPress does not
    decide them either way. Every repetition is printed and kept in the report."""
    shape, rows = size
    print(f"== {rows:,} orders" + (", a Google Form's response tab as CSV" if shape == "form" else ""), flush=True)
    started = time.monotonic()
    folder = generate_form(rows) if shape == "form" else generate(rows)
    print(f"  data ready in {time.monotonic() - started:.1f} s: {folder.relative_to(ROOT)}", flush=True)
    runs = []
    for run in range(RUNS):
        if RUNS > 1:
            print(f"  -- repetition {run + 1} of {RUNS}", flush=True)
        runs.append(repetition(folder, shape))
    data = folder / "data"
    largest, page = largest_page(folder)
    return {"rows": rows, "shape": shape, "runs": runs, "pages": runs[0]["pages"], "markdown_bytes": runs[0]["cmark"]["bytes"],
            "largest": (largest, str(page)), "sheet_bytes": (data / SHEETS[shape][0]).stat().st_size}


# Each shape's sheet as generated, and the file the configuration reads.
SHEETS = {"json": ("orders.base.json", "orders.json"), "form": ("orders.base.csv", "orders.csv")}


def repetition(folder, shape):
    data = folder / "data"
    base, sheet = SHEETS[shape]
    shutil.copyfile(data / base, data / sheet)
    discard(folder / "output")
    full = orderpress(folder, "full build")
    rerun = orderpress(folder, "rerun, unchanged")
    kinds = change_form_kinds(folder) if shape == "form" else change_kinds(folder)
    changed = kinds[0]
    shutil.copyfile(data / base, data / sheet)
    pages = markdown_files(folder)
    floor = cmark(folder, pages)
    c_floor = cfloor(folder)
    rival = hugo(folder, floor["bytes"])
    discard(folder / "cmark")  # hundreds of MB at 1,000,000 orders
    discard(folder / "cfloor")
    if rival: discard(folder / "hugo")
    ratios = {"floor": full["wall"] / c_floor["wall"], "cmark": full["wall"] / floor["wall"], "unchanged": rerun["wall"] / full["wall"],
              "changed": changed["wall"] / full["wall"], "hugo": rival["wall"] / full["wall"] if rival else None,
              "worst": max(run["wall"] for run in kinds) / full["wall"]}
    for run in kinds:
        run["ratio"], run["cpu_ratio"] = run["wall"] / full["wall"], run["cpu"] / full["cpu"]
    print("    ratios: " + ", ".join(f"{k} {v:.2f}" for k, v in ratios.items() if v is not None), flush=True)
    return {"full": full, "rerun": rerun, "changed": changed, "kinds": kinds, "cmark": floor, "cfloor": c_floor, "hugo": rival, "ratios": ratios,
            "order": (changed["order"], changed["old"], changed["new"]), "pages": len(pages)}


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def verdict(ok):
    return "met" if ok else "**not met**"


def table(r):
    runs = r["runs"]
    target_rss = TARGETS.get(r["rows"], PEAK_LIMIT)
    # The detailed rows are those of the repetition whose full build took the median time.
    shown = sorted(runs, key=lambda run: run["full"]["wall"])[len(runs) // 2]
    full, rerun, changed, floor, c_floor, rival = shown["full"], shown["rerun"], shown["changed"], shown["cmark"], shown["cfloor"], shown["hugo"]
    order, old, new = shown["order"]
    lines = [
        f"### {r['rows']:,} orders{', a Google Form' + chr(39) + 's response tab as CSV' if r['shape'] == 'form' else ''} "
        f"({r['pages']:,} Markdown pages, {r['markdown_bytes'] / 1e6:.1f} MB of Markdown, sheet {r['sheet_bytes'] / 1e6:.1f} MB)",
        "",
    ]
    if len(runs) > 1:
        lines += [
            f"{len(runs)} repetitions, one after the other; each ratio is taken within its repetition.",
            "",
            "| repetition | full | unchanged | one price changed | C floor | `cmark-gfm` | Hugo | full ÷ C floor | full ÷ cmark-gfm | Hugo ÷ full | unchanged ÷ full | one price changed ÷ full | worst kind of one-order change ÷ full |",
            "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
        ]
        for number, run in enumerate(runs, 1):
            q = run["ratios"]
            lines.append(
                f"| {number}{' (detailed below)' if run is shown else ''} | {run['full']['wall']:.2f} s | {run['rerun']['wall']:.2f} s | "
                f"{run['changed']['wall']:.2f} s | {run['cfloor']['wall']:.2f} s | {run['cmark']['wall']:.2f} s | "
                + (f"{run['hugo']['wall']:.2f} s" if run["hugo"] else "not run") + " | "
                f"{q['floor']:.2f} | {q['cmark']:.2f} | " + (f"{q['hugo']:.2f}" if q["hugo"] is not None else "") + f" | {q['unchanged']:.2f} | {q['changed']:.2f} | {q['worst']:.2f} |")
        lines.append("")
    lines += [
        "| run | wall | CPU (user+sys) | peak RSS | load avg | files written / unchanged | lock · configure · fetch · validate · aggregate · diff · render · publish · snapshot (s) |",
        "|---|--:|--:|--:|--:|---|---|",
    ]
    for run in (full, rerun, *shown["kinds"]):
        steps = " · ".join(f"{run['steps'].get(s, 0):.2f}" for s in STEPS)
        lines.append(f"| OrderPress {run['label']} | {run['wall']:.2f} s | {run['cpu']:.2f} s | {run['rss']:.0f} MiB | {run['load']} | "
                     f"{run['written']:,} / {run['unchanged']:,} | {steps} |")
    lines.append(f"| C floor (libcmark-gfm, {c_floor['threads']} threads, both trees written) | {c_floor['wall']:.2f} s | {c_floor['cpu']:.2f} s | "
                 f"{c_floor['rss']:.0f} MiB | {c_floor['load']} | {c_floor['files']:,} files read | |")
    lines.append(f"| `cmark-gfm -e table`, concatenated ({floor['chunks']} file(s)) | {floor['wall']:.2f} s | {floor['cpu']:.2f} s | "
                 f"{floor['rss']:.0f} MiB | {floor['load']} | | |")
    if rival:
        lines.append(f"| Hugo, minimal layout | {rival['wall']:.2f} s | {rival['cpu']:.2f} s | {rival['rss']:.0f} MiB | {rival['load']} | {rival['pages']:,} HTML | |")
    else:
        lines.append("| Hugo, minimal layout | not run (BENCH_HUGO_MAX_MB, or no hugo command) | | | | | |")
    of = lambda key: median([run["ratios"][key] for run in runs])
    # Each kind's ratios as the median of the repetitions; the target holds for each, so the verdict is on the worst.
    kinds = [{"kind": k["kind"], "order": k["order"], "old": k["old"], "new": k["new"],
              "ratio": median([run["kinds"][i]["ratio"] for run in runs]),
              "cpu_ratio": median([run["kinds"][i]["cpu_ratio"] for run in runs]),
              "wall": median([run["kinds"][i]["wall"] for run in runs]),
              "cpu": median([run["kinds"][i]["cpu"] for run in runs]),
              "written": max(run["kinds"][i]["written"] for run in runs),
              "files": k["files"], "same": all(run["kinds"][i]["files"] == k["files"] for run in runs)}
             for i, k in enumerate(shown["kinds"])]
    worst = max(kinds, key=lambda k: k["ratio"])
    worst_cpu = max(kinds, key=lambda k: k["cpu_ratio"])
    cpu = lambda a, b: median([run[a]["cpu"] / run[b]["cpu"] for run in runs])
    label = "median of the repetitions" if len(runs) > 1 else "value"
    ratios = [
        ("OrderPress full ÷ C floor", of("floor"), f"≤ {FLOOR_TARGET}", of("floor") <= FLOOR_TARGET),
    ] + ([("Hugo ÷ OrderPress full", of("hugo"), f"≥ {HUGO_TARGET:g}", of("hugo") >= HUGO_TARGET)] if rival else []) + [
        ("unchanged rerun ÷ full", of("unchanged"), f"≤ {UNCHANGED_TARGET}", of("unchanged") <= UNCHANGED_TARGET),
        ("one-order rerun ÷ full, price", of("changed"), f"≤ {ONE_ORDER_TARGET}", of("changed") <= ONE_ORDER_TARGET),
        (f"one-order rerun ÷ full, the worst kind ({worst['kind']})", worst["ratio"], f"≤ {ONE_ORDER_TARGET}", worst["ratio"] <= ONE_ORDER_TARGET),
        ("OrderPress full ÷ cmark-gfm command", of("cmark"), "", None),
        ("(CPU time) OrderPress full ÷ C floor", cpu("full", "cfloor"), "", None),
        ("(CPU time) OrderPress full ÷ cmark-gfm", cpu("full", "cmark"), "", None),
        ("(CPU time) unchanged rerun ÷ full", cpu("rerun", "full"), "", None),
        ("(CPU time) one-price-changed rerun ÷ full", cpu("changed", "full"), "", None),
        (f"(CPU time) one-order rerun ÷ full, the worst kind ({worst_cpu['kind']})", worst_cpu["cpu_ratio"], "", None),
    ]
    lines += ["", f"| measure | {label} | target | |", "|---|--:|---|---|"]
    for name, value, target, ok in ratios:
        lines.append(f"| {name} | {value:.2f} | {target} | {verdict(ok) if ok is not None else 'for reference'} |")
    written = max(run["rerun"]["written"] for run in runs)
    lines.append(f"| unchanged rerun writes (most in any repetition) | {written:,} files | 0 | {verdict(written == 0)} |")
    same = all(run["changed"]["files"] == changed["files"] for run in runs)
    lines.append(f"| one-changed rerun writes (order {order}: price {old} → {new}) | {changed['written']:,} files"
                 f"{', the same in every repetition' if len(runs) > 1 and same else ''}{'' if same else ', NOT the same in every repetition'} | "
                 f"only the pages showing it | see below |")
    peak = max(max(run["full"]["rss"], run["rerun"]["rss"], run["changed"]["rss"]) for run in runs)
    lines.append(f"| peak RSS, any OrderPress run | {peak:.0f} MiB | ≤ {target_rss} MiB | {verdict(peak <= target_rss)} |")
    size, page = r["largest"]
    lines.append(f"| largest published page ({page}) | {size:,} bytes | about ≤ 1 MB | {verdict(size <= 1_048_576)} |")
    same, compared = sum(run["cfloor"]["same"] for run in runs), sum(run["cfloor"]["compared"] for run in runs)
    lines.append(f"| C floor's HTML byte-identical to OrderPress's page body (sampled pages, every repetition) | {same:,} of {compared:,} | all | "
                 f"{'yes' if same == compared else '**no**: the floor does not render what OrderPress renders'} |")
    lines += ["", f"One-order reruns by kind of change, each on the output of the rerun before it ({label if len(runs) > 1 else 'one repetition'}; "
              "files written: the most in any repetition):", "",
              f"| kind of change | order: old → new | wall | CPU | wall ÷ full | CPU ÷ full | files written | ≤ {ONE_ORDER_TARGET} |",
              "|---|---|--:|--:|--:|--:|--:|---|"]
    for k in kinds:
        lines.append(f"| {k['kind']} | {k['order']}: {k['old']} → {k['new']} | {k['wall']:.2f} s | {k['cpu']:.2f} s | {k['ratio']:.2f} | "
                     f"{k['cpu_ratio']:.2f} | {k['written']:,}{'' if k['same'] else ' (not the same files in every repetition)'} | {verdict(k['ratio'] <= ONE_ORDER_TARGET)} |")
    lines.append("")
    for k in kinds:
        lines.append(f"Files rewritten after the {k['kind']} change: " + ", ".join(f"`{f}`" for f in k["files"]) + ".")
        lines.append("")
    return "\n".join(lines)


def parse_size(argument):
    """`100000` (bench.py's own sheet, SheetDB JSON with ids) or `form:100000` (a Form's response tab as CSV)."""
    shape, _, rows = argument.rpartition(":")
    if shape not in ("", "form"):
        sys.exit(f"bench: unknown sheet shape '{shape}' in '{argument}'; use ROWS or form:ROWS")
    return (shape or "json", int(rows))


def main(argv):
    if argv[:1] == ["--generate-only"]:
        for shape, rows in map(parse_size, argv[1:]):
            print(generate_form(rows) if shape == "form" else generate(rows))
        return
    sizes = [parse_size(a) for a in argv] or [("json", 100_000), ("form", 100_000), ("json", 1_000_000)]
    if not BINARY.exists():
        sys.exit(f"bench: {BINARY} does not exist; run swift build -c release --product orderpress")
    build_cfloor()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "Sources"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    header = (f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on commit {commit}{' (Sources modified)' if dirty else ''}, "
              f"{os.cpu_count()} cores; load average (1 min) before each run in its row.")
    results = []
    for size in sizes:
        results.append(bench(size))
        print()
    report = "\n\n".join([header] + [table(r) for r in results]) + "\n"
    print(report)
    (BENCH / "results.md").write_text(report)
    print(f"written to {(BENCH / 'results.md').relative_to(ROOT)}")
    # BENCH_KEEP_TRASH=1: the old outputs stay in the trash, so that a second run right after (another
    # binary's, side by side) does not build among freshly deleted inodes; the last run empties it.
    if os.environ.get("BENCH_KEEP_TRASH") != "1":
        empty_trash()


if __name__ == "__main__":
    main(sys.argv[1:])
