#!/usr/bin/env python3
"""node_counts.py - nodes left by tsir-optimize vs torch's own passes.

For every graph torch can read (the corpus cases parse_ir accepts and
tsir's own cases in test/e2e/cases.py), runs torch's cleanup passes
(_jit_pass_inline, _jit_pass_constant_propagation, _jit_pass_peephole,
_jit_pass_cse, _jit_pass_dce, _jit_pass_constant_pooling, in that order)
and `tsir-opt --tsir-optimize=fuse=false` (fusion would only hide nodes in
groups; a second column also turns unrolling off, since unrolled loops have
more nodes by design), and counts the nodes each leaves, nested blocks included. Both are
counted on the printed TorchScript text with the same rule, so the numbers
are comparable. Prints a Markdown table.

With --check, exits non-zero if tsir leaves more nodes than torch on any
loop-free graph (the test suite runs it that way).

Usage: node_counts.py TSIR_TRANSLATE TSIR_OPT CORPUS_DIR [--check]
"""

import pathlib
import re
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "test" / "e2e"))
sys.path.insert(0, str(ROOT / "test" / "lib"))
import cases  # noqa: E402
from torch_cases import through_tsir  # noqa: E402

# A node line: optional outputs, `=`, then a qualified kind (`aten::add`).
NODE = re.compile(r"^\s*(%[^=]*)?=\s*[A-Za-z_]\w*::\w+", re.M)
LOOP = re.compile(r"\bprim::Loop\b")


def count(text):
    return len(NODE.findall(text))


def torch_optimized(text):
    graph = torch._C.parse_ir(text)
    torch._C._jit_pass_inline(graph)
    torch._C._jit_pass_constant_propagation(graph)
    torch._C._jit_pass_peephole(graph)
    torch._C._jit_pass_cse(graph)
    torch._C._jit_pass_dce(graph)
    torch._C._jit_pass_constant_pooling(graph)
    return str(graph)


def tsir_optimized(translate, opt, text, options="fuse=false"):
    result = through_tsir(translate, opt, text, f"'--tsir-optimize={options}'")
    result.check_returncode()
    return result.stdout


def graphs(corpus):
    for case in sorted(p.parent for p in corpus.glob("*/graph.txt")):
        yield case.name, (case / "graph.txt").read_text()
    for name, function, _ in cases.CASES:
        yield name, str(torch.jit.script(function).graph)
    for name, text, _ in cases.IR_CASES:
        yield name, text


def main():
    translate, opt, corpus = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    check = "--check" in sys.argv[4:]
    worse = []
    print("| graph | loops | original | torch passes | tsir-optimize | "
          "tsir-optimize, unroll=false |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    totals = [0, 0, 0, 0]
    for name, text in graphs(corpus):
        try:
            by_torch = torch_optimized(text)
        except Exception:
            continue  # parse_ir cannot read it: nothing to compare with
        has_loops = bool(LOOP.search(text))
        row = [count(text), count(by_torch),
               count(tsir_optimized(translate, opt, text)),
               count(tsir_optimized(translate, opt, text,
                                    "fuse=false unroll=false"))]
        totals = [t + r for t, r in zip(totals, row)]
        mark = ""
        if row[2] > row[1]:
            mark = " (more)"
            if not has_loops:
                worse.append(name)
        print(f"| {name} | {'yes' if has_loops else 'no'} | {row[0]} | "
              f"{row[1]} | {row[2]}{mark} | {row[3]} |")
    print(f"| **total** | | {totals[0]} | {totals[1]} | {totals[2]} | "
          f"{totals[3]} |")
    if worse:
        print(f"tsir leaves more nodes than torch on loop-free graphs: "
              f"{', '.join(worse)}")
    else:
        print("tsir leaves no more nodes than torch on any loop-free graph")
    return 1 if check and worse else 0


if __name__ == "__main__":
    sys.exit(main())
