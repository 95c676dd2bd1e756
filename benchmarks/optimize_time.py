#!/usr/bin/env python3
"""optimize_time.py - tsir-optimize's time against torch's passes.

Generates straight-line graphs with duplicated work (gen_straight_line.py
--redundant: repeated nodes for CSE, scalar arithmetic on constants for
constant propagation, values nothing uses for DCE) at 10k and 100k nodes.
Times, in the same run and interleaved:

- torch: _jit_pass_cse + _jit_pass_dce + _jit_pass_constant_propagation on
  a graph fresh from parse_ir (only the passes are timed);
- tsir: the whole `tsir-opt --tsir-optimize` process on the imported module
  (start-up, parsing the MLIR, the passes, printing), from MLIR text and
  from MLIR bytecode, and the same process with no passes, to show what the
  passes themselves cost.

Prints a Markdown table of medians, the torch/tsir ratio (above 1: tsir is
faster) and the growth from 10k to 100k nodes (10 means linear).

Usage: optimize_time.py [--sizes 10000 100000] [--repeats 5] [--keep DIR]
"""

import argparse
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import torch

HERE = pathlib.Path(__file__).resolve().parent
BIN = HERE.parent / "build" / "bin"
sys.path.insert(0, str(HERE))
import gen_straight_line  # noqa: E402


def run_timed(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def torch_passes(text):
    graph = torch._C.parse_ir(text)
    start = time.perf_counter()
    torch._C._jit_pass_cse(graph)
    torch._C._jit_pass_dce(graph)
    torch._C._jit_pass_constant_propagation(graph)
    elapsed = time.perf_counter() - start
    return elapsed, sum(1 for _ in graph.nodes())


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10000, 100000])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--keep", help="write the generated files here")
    args = ap.parse_args(argv)
    work = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="tsir-opt-bench"))
    work.mkdir(parents=True, exist_ok=True)
    opt, translate = str(BIN / "tsir-opt"), str(BIN / "tsir-translate")

    rows = {}
    for n in args.sizes:
        text = gen_straight_line.generate(n, seed=0, redundant=True)
        graph_txt = work / f"g{n}.txt"
        graph_txt.write_text(text)
        mlir = work / f"g{n}.mlir"
        bytecode = work / f"g{n}.mlirbc"
        subprocess.run([translate, "--import-torchscript", str(graph_txt),
                        "-o", str(mlir)], check=True)
        subprocess.run([opt, str(mlir), "--emit-bytecode", "-o",
                        str(bytecode)], check=True)
        optimized = subprocess.run(
            [opt, "--tsir-optimize", str(mlir)], check=True,
            capture_output=True, text=True).stdout
        tsir_ops = optimized.count(" = aten.") + optimized.count(" = prim.")
        times = {"torch": [], "text": [], "bytecode": [], "parse+print": []}
        torch_nodes = 0
        for _ in range(args.repeats):
            elapsed, torch_nodes = torch_passes(text)
            times["torch"].append(elapsed)
            times["text"].append(run_timed(
                [opt, "--tsir-optimize", str(mlir), "-o", "/dev/null"]))
            times["bytecode"].append(run_timed(
                [opt, "--tsir-optimize", str(bytecode), "-o", "/dev/null"]))
            times["parse+print"].append(run_timed(
                [opt, str(mlir), "-o", "/dev/null"]))
        medians = {k: statistics.median(v) for k, v in times.items()}
        rows[n] = (medians, torch_nodes, tsir_ops)

    print("| nodes | torch CSE+DCE+constprop | tsir-opt --tsir-optimize (text) "
          "| (bytecode) | tsir-opt, no passes (text) | torch / tsir (text) "
          "| nodes left: torch / tsir |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n, (m, torch_nodes, tsir_ops) in rows.items():
        print(f"| {n} | {m['torch']:.3f} s | {m['text']:.3f} s | "
              f"{m['bytecode']:.3f} s | {m['parse+print']:.3f} s | "
              f"{m['torch'] / m['text']:.2f} | {torch_nodes} / {tsir_ops} |")
    if len(args.sizes) == 2:
        small, big = args.sizes
        factor = big / small
        for key in ("torch", "text", "bytecode", "parse+print"):
            growth = rows[big][0][key] / rows[small][0][key]
            print(f"growth {small} -> {big} ({factor:.0f}x nodes), {key}: "
                  f"{growth:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
