#!/usr/bin/env python3
"""Shares of the CPU time of native runs recorded by scripts/profile-native.sh (see docs/benchmarks.md).

    python3 scripts/profile-native-report.py .build/bench/10000/native full rerun price

CPU time is the number of cpu-clock samples over the sampling rate (all threads, user and kernel).
Exclusive shares are grouped by where the time is spent; inclusive shares are taken at functions
each step calls (mangled names: perf does not demangle Swift)."""
import re, subprocess, sys

RATE = 5000  # perf record -F in profile-native.sh

# (label, test on (dso, kind, symbol)) for exclusive samples.
EXCLUSIVE = [
    ("kernel: all", lambda dso, kind, symbol: kind == "k"),
    ("kernel: zeroing fresh pages (clear_page)", lambda dso, kind, symbol: kind == "k" and symbol.startswith("clear_page")),
    ("dynamic linker (start-up symbol binding)", lambda dso, kind, symbol: "ld-linux" in dso),
    ("SHA-256 (BoringSSL, SHA-NI where the CPU has it)", lambda dso, kind, symbol: "sha256" in symbol.lower()),
    ("libcmark-gfm", lambda dso, kind, symbol: "cmark" in dso),
    ("retain/release", lambda dso, kind, symbol: symbol.startswith(("swift_retain", "swift_release", "swift_bridgeObjectR"))),
    ("malloc/free (jemalloc)", lambda dso, kind, symbol: "jemalloc" in dso),
]

# (label, a piece of the mangled name) for inclusive samples; the first row whose symbol holds it. The
# pieces leave out the module (each stage is a target of its own, `OrderPressValidate` and so on,
# and a type of its module's own name is mangled with a substitution: `PublishSession` is `0C7Session`).
INCLUSIVE = [
    ("fetch: parse the sheet (SheetParser.parse)", "11SheetParserO5parse_"),
    ("fetch: SHA-256 fingerprint of the sources", "17SourceFingerprintV3add"),
    ("validate (Validator.validateSheet)", "9ValidatorV13validateSheet6orders6groups"),
    ("aggregate (Aggregator.aggregate)", "10AggregatorO9aggregate_"),
    ("diff: records and their digests (Differ.recordsAndDigests)", "6DifferV17recordsAndDigests"),
    ("diff: HMAC of secret cells (SecretHasher.hash)", "12SecretHasherV4hash"),
    ("diff: reading the state's index (StateDatabase.readIndex)", "13StateDatabaseO9readIndex"),
    ("render: pages (PlanRunner.run(page:): model, Markdown, HTML)", "10PlanRunnerV3run4page"),
    ("exports: summary.json, orders.csv streamed (PublishSession.publishStreamed)", "SessionC15publishStreamed"),
    ("publish: SHA-256 of streamed files (FileStream.append)", "10FileStreamC6append"),
]


def report(args):
    return subprocess.run(["perf", "report", "-i", args[0], "--stdio", "-n", "-g", "none"] + args[1:],
                          capture_output=True, text=True, check=True).stdout


def rows(text):
    for line in text.splitlines():
        match = re.match(r"\s+([\d.]+)%\s+(?:([\d.]+)%\s+)?(\d+)\s+(\S+)?\s*\[(.)\]\s+(.*)", line)
        if match:
            yield match


def main():
    folder, runs = sys.argv[1], sys.argv[2:]
    table = {}
    for run in runs:
        data = f"{folder}/perf.{run}.data"
        flat = list(rows(report([data, "--no-children", "--sort", "dso,symbol"])))
        total = sum(int(m.group(3)) for m in flat)
        shares = {}
        for label, test in EXCLUSIVE:
            shares[label] = sum(int(m.group(3)) for m in flat if test(m.group(4) or "", m.group(5), m.group(6))) / total
        children = report([data, "--children", "--sort", "symbol"])
        for label, piece in INCLUSIVE:
            share = 0.0
            for line in children.splitlines():
                if piece in line + " ":
                    share = float(line.split("%")[0]) / 100
                    break
            shares[label] = share
        peak = open(f"{folder}/time.{run}").read().split()[-1]
        table[run] = (total / RATE, int(peak) // 1024, shares)
    print("| native, share of CPU time | " + " | ".join(runs) + " |")
    print("|---|" + "--:|" * len(runs))
    print("| CPU time (user + system, s) | " + " | ".join(f"{table[r][0]:.2f}" for r in runs) + " |")
    print("| peak RSS (MiB) | " + " | ".join(str(table[r][1]) for r in runs) + " |")
    for label, _ in EXCLUSIVE + INCLUSIVE:
        print(f"| {label} | " + " | ".join(f"{100 * table[r][2][label]:.1f} %" for r in runs) + " |")


main()
