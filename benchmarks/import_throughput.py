# import_throughput.py - benchmarks tsir-translate's TorchScript import against torch._C.parse_ir.
"""Import throughput of tsir against torch._C.parse_ir, on the same text, in the same run.

For each size (100k nodes, and 10k as a scaling check) this generates a
straight-line graph with gen_straight_line.py, then measures, REPEATS times:

  tsir       the whole `tsir-translate --import-torchscript g.txt -o /dev/null`
             process (start-up, read, parse, build and verify the MLIR module,
             print it, exit): wall time with time.perf_counter around the
             subprocess, peak RSS from /usr/bin/time -f %M; and the same
             with --mlir-disable-threading (no locking in MLIR's uniquers);
  parse_ir   torch._C.parse_ir(text) in this process (the text already read,
             torch already imported): wall time of the call alone; its peak
             RSS from a separate python process that imports torch, reads the
             file and calls parse_ir once (and, for reference, of one that
             does the same minus the parse_ir call).

It prints a markdown table of medians: ms, MB/s (file size / time), peak RSS
MB, and the ratio parse_ir time / tsir time (>1 means tsir is faster).

Usage: /usr/bin/python3 benchmarks/import_throughput.py [--tsir-translate PATH]
       [--sizes 100000,10000] [--repeats 5] [--keep DIR]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_straight_line  # noqa: E402

ROOT = os.path.dirname(HERE)
PYTHON = "/usr/bin/python3"  # Debian's python, the one with torch

PARSE_IR_CHILD = """
import sys, torch
text = open(sys.argv[1]).read()
if sys.argv[2] == "1":
    g = torch._C.parse_ir(text)
"""


def run_child(argv):
    """Run argv to completion; return (wall seconds, peak RSS in MB).

    The peak RSS comes from /usr/bin/time, not from this process's wait4:
    Linux carries a forked child's high-water mark over its exec, so a
    child of this (torch-sized) process would report at least our own RSS.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss_file:
        cmd = ["/usr/bin/time", "-f", "%M", "-o", rss_file.name] + argv
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            raise SystemExit("%s failed (%d):\n%s" % (" ".join(argv), proc.returncode,
                                                     proc.stderr.decode(errors="replace")))
        rss_kib = int(rss_file.read().split()[-1])
    return wall, rss_kib / 1024.0


def bench_size(n, tool, repeats, workdir):
    import torch

    path = os.path.join(workdir, "g%d.txt" % n)
    with open(path, "w") as f:
        f.write(gen_straight_line.generate(n))
    size_mb = os.path.getsize(path) / 1e6
    with open(path) as f:
        text = f.read()

    tsir_t, tsir_rss, torch_t = [], [], []
    nothr_t, nothr_rss = [], []
    cmd = [tool, "--import-torchscript", path, "-o", "/dev/null"]
    # Interleave the runs so that drift in the machine's load hits all.
    for _ in range(repeats):
        t, rss = run_child(cmd)
        tsir_t.append(t)
        tsir_rss.append(rss)
        t, rss = run_child(cmd + ["--mlir-disable-threading"])
        nothr_t.append(t)
        nothr_rss.append(rss)
        start = time.perf_counter()
        g = torch._C.parse_ir(text)
        torch_t.append(time.perf_counter() - start)
        del g
    torch_rss = [run_child([PYTHON, "-c", PARSE_IR_CHILD, path, "1"])[1]
                 for _ in range(repeats)]
    base_rss = [run_child([PYTHON, "-c", PARSE_IR_CHILD, path, "0"])[1]
                for _ in range(repeats)]

    med = statistics.median
    return {
        "n": n,
        "size_mb": size_mb,
        "tsir_ms": med(tsir_t) * 1e3,
        "tsir_rss": med(tsir_rss),
        "nothr_ms": med(nothr_t) * 1e3,
        "nothr_rss": med(nothr_rss),
        "torch_ms": med(torch_t) * 1e3,
        "torch_rss": med(torch_rss),
        "base_rss": med(base_rss),
        "tsir_all": tsir_t,
        "torch_all": torch_t,
    }


def table(results):
    rows = [
        "| nodes | file MB | tool | median ms | MB/s | peak RSS MB | parse_ir / tsir |",
        "| ---: | ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        ratio = r["torch_ms"] / r["tsir_ms"]
        rows.append("| %d | %.2f | tsir-translate (whole process) | %.0f | %.1f | %.0f | %.2f× |"
                    % (r["n"], r["size_mb"], r["tsir_ms"], r["size_mb"] / (r["tsir_ms"] / 1e3),
                       r["tsir_rss"], ratio))
        rows.append("| %d | %.2f | same, `--mlir-disable-threading` | %.0f | %.1f | %.0f | %.2f× |"
                    % (r["n"], r["size_mb"], r["nothr_ms"], r["size_mb"] / (r["nothr_ms"] / 1e3),
                       r["nothr_rss"], r["torch_ms"] / r["nothr_ms"]))
        rows.append("| %d | %.2f | torch._C.parse_ir (in-process) | %.0f | %.1f | %.0f (%.0f without parse_ir) | |"
                    % (r["n"], r["size_mb"], r["torch_ms"], r["size_mb"] / (r["torch_ms"] / 1e3),
                       r["torch_rss"], r["base_rss"]))
    return "\n".join(rows)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tsir-translate", default=os.path.join(ROOT, "build", "bin", "tsir-translate"))
    ap.add_argument("--sizes", default="100000,10000")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--keep", help="write the generated graphs here and keep them")
    args = ap.parse_args(argv)

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.keep or tmp
        os.makedirs(workdir, exist_ok=True)
        for n in (int(s) for s in args.sizes.split(",")):
            r = bench_size(n, args.tsir_translate, args.repeats, workdir)
            print("%d nodes: tsir %s ms; parse_ir %s ms" % (
                n, ", ".join("%.0f" % (t * 1e3) for t in r["tsir_all"]),
                ", ".join("%.0f" % (t * 1e3) for t in r["torch_all"])), file=sys.stderr)
            results.append(r)
    print(table(results))
    goal = [r for r in results if r["n"] == 100000]
    if goal:
        r = goal[0]
        print("\nGoal (tsir whole process at least 2x faster than parse_ir) at 100k nodes: %s "
              "(parse_ir / tsir = %.2f)" % ("met" if r["torch_ms"] >= 2 * r["tsir_ms"] else "NOT met",
                                           r["torch_ms"] / r["tsir_ms"]))


if __name__ == "__main__":
    main(sys.argv[1:])
