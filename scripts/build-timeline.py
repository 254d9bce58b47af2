#!/usr/bin/env python3
"""The wall-time timeline of one full build: each step's wall time, the CPU the process spent in it and
how busy the cores were. Usage (after `python3 scripts/bench.py --generate-only ROWS`):

    python3 scripts/build-timeline.py [BINARY] .build/bench/100000 [.build/bench/form-100000 ...]

For each bench folder it moves the last output aside (into .build/bench/trash, as bench.py does), runs
`orderpress build -v --progress always` on a copy of the generated orders, takes each step's start from
the progress lines as they arrive, and samples /proc/<pid>/stat and /proc/<pid>/task/*/stat every
INTERVAL seconds (default 0.005). Per step it prints: wall time, CPU time (user + system, every
thread), cores busy (CPU ÷ wall: at most the machine's cores, less when other processes take them),
the share of samples with at least two of the build's threads runnable (what the build offers both
cores, whatever the load), and the threads that spent the most CPU in it. With BINS=s, the cores
busy in every s seconds of the build follow.
"""
import os, pathlib, re, shutil, subprocess, sys, threading, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
INTERVAL = float(os.environ.get("INTERVAL", "0.005"))
TICK = os.sysconf("SC_CLK_TCK")


def sample(pid):
    """{tid: (name, cpu ticks, state)}, and "proc" for the whole process (exited threads included)."""
    snapshot = {}
    fields = open(f"/proc/{pid}/stat").read().rsplit(") ", 1)[1].split()
    snapshot["proc"] = ("proc", int(fields[11]) + int(fields[12]), "-")
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            text = open(f"/proc/{pid}/task/{tid}/stat").read()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        snapshot[tid] = (name, int(fields[11]) + int(fields[12]), fields[0])
    return snapshot


def timeline(binary, folder):
    folder = pathlib.Path(folder)
    data = folder / "data"
    for base in data.glob("orders.base.*"):
        shutil.copy(base, data / ("orders" + base.suffix))
    output = folder / "output"
    if output.exists():
        trash = folder.parent / "trash"
        trash.mkdir(exist_ok=True)
        output.rename(trash / f"timeline-{os.getpid()}-{time.time_ns()}")
    environment = dict(os.environ, SOURCE_DATE_EPOCH="1795262400")
    start = time.monotonic()
    process = subprocess.Popen(
        [binary, "build", "-v", "--progress", "always", "--config", "orderpress.toml"],
        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
    marks, log = [], []

    def read():
        while chunk := os.read(process.stderr.fileno(), 4096):
            now = time.monotonic() - start
            log.append(chunk)
            marks.extend((now, m.group(1).decode()) for m in re.finditer(rb"\[\d/9\] (\w+)", chunk))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    samples = []
    while process.poll() is None:
        try:
            samples.append((time.monotonic() - start, sample(process.pid)))
        except OSError:
            break
        time.sleep(INTERVAL)
    end = time.monotonic() - start
    summary = process.stdout.read().decode(errors="replace").strip()
    reader.join(1)
    marks.append((end, "end"))

    def at(t):
        last = {}
        for when, snapshot in samples:
            if when > t:
                break
            last = snapshot
        return last

    print(f"{folder.name}: {summary.splitlines()[-1] if summary else '(no summary)'}")
    print(f"| step | start (s) | wall (s) | CPU (s) | cores busy | ≥ 2 threads runnable | threads (CPU s) |")
    print(f"|---|--:|--:|--:|--:|--:|---|")
    total_cpu = 0.0
    for (begin, step), (stop, _) in zip(marks, marks[1:]):
        before, after = at(begin), at(stop)
        cpu = (after.get("proc", ("", 0, ""))[1] - before.get("proc", ("", 0, ""))[1]) / TICK
        total_cpu += cpu
        threads = {}
        for tid, (name, ticks, _) in after.items():
            if tid == "proc":
                continue
            spent = (ticks - before.get(tid, (name, 0, ""))[1]) / TICK
            if spent > 0:
                label = "main" if tid == str(process.pid) else f"{name}#{tid[-3:]}"
                threads[label] = threads.get(label, 0) + spent
        inside = [s for when, s in samples if begin <= when < stop]
        runnable = sum(1 for s in inside if sum(1 for k, v in s.items() if k != "proc" and v[2] == "R") >= 2) / max(1, len(inside))
        wall = stop - begin
        busy = cpu / wall if wall > 0 else 0
        top = ", ".join(f"{n} {v:.2f}" for n, v in sorted(threads.items(), key=lambda kv: -kv[1])[:4])
        print(f"| {step} | {begin:.2f} | {wall:.2f} | {cpu:.2f} | {busy:.2f} | {runnable:.2f} | {top} |")
    print(f"| **total** | | **{end:.2f}** | **{total_cpu:.2f}** | {total_cpu / end:.2f} | | |")
    if os.environ.get("BINS"):
        width, t, bins = float(os.environ["BINS"]), 0.0, []
        while t < end:
            spent = (at(t + width).get("proc", ("", 0, ""))[1] - at(t).get("proc", ("", 0, ""))[1]) / TICK
            bins.append(f"{t:.2f}:{spent / width:.1f}")
            t += width
        print("cores busy by time: " + " ".join(bins))
    print()


def main(argv):
    binary = str(ROOT / ".build" / "release" / "orderpress")
    if argv and not pathlib.Path(argv[0], "orderpress.toml").exists():
        binary, argv = argv[0], argv[1:]
    print(f"load average before: {os.getloadavg()[0]:.2f}\n")
    for folder in argv:
        timeline(binary, folder)


if __name__ == "__main__":
    main(sys.argv[1:])
