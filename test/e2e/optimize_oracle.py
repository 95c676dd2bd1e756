#!/usr/bin/env python3
"""optimize_oracle.py - tsir-optimize keeps what every graph computes.

Differential test with Debian's python3-torch as the oracle. Each case is a
TorchScript graph plus inputs: the corpus cases whose graph torch's
parse_ir accepts, and tsir's own cases (test/e2e/cases.py: scripted Python
functions and graphs written as text). For each, tsir imports the graph,
runs `--tsir-optimize` (fusion groups are inlined back afterwards, since
torch cannot run tsir's fusion groups), exports it, and torch runs the
export on the case's inputs. The outputs must match the reference (the
corpus's recorded outputs, the eager function, or torch running the
original text), and so must every input the graph mutates.

Usage: optimize_oracle.py TSIR_TRANSLATE TSIR_OPT CORPUS_DIR [-v]
"""

import copy
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "lib"))
import needs_torch  # noqa: E402,F401 (skips the test without torch)
import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch_cases import flatten, parses, through_tsir, to_input  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import cases  # noqa: E402

PIPELINE = "--tsir-optimize --prim-inline-subgraphs"


def close(o, e, rtol, atol):
    if o.dtype == object or e.dtype == object:  # None, strings
        return o.tolist() == e.tolist()
    return o.shape == e.shape and np.allclose(o, e, rtol=rtol, atol=atol,
                                              equal_nan=True)


def same(outputs, expected, rtol=1e-5, atol=1e-6):
    return len(outputs) == len(expected) and all(
        close(o, e, rtol, atol) for o, e in zip(outputs, expected))


def count_nodes(block):
    return sum(1 + sum(count_nodes(b) for b in node.blocks())
               for node in block.nodes())


class Oracle:
    def __init__(self, translate, opt, verbose):
        self.translate, self.opt, self.verbose = translate, opt, verbose
        self.checked = self.failures = self.skipped = 0

    def optimize(self, name, text):
        """The exported text of the optimized graph, or None on failure."""
        result = through_tsir(self.translate, self.opt, text, PIPELINE)
        if result.returncode:
            self.fail(name, f"tsir failed:\n{result.stderr}")
            return None
        return result.stdout

    def fail(self, name, why):
        print(f"FAIL {name}: {why}")
        self.failures += 1

    def check(self, name, text, input_sets, reference, tolerances=(1e-5, 1e-6)):
        """`reference(inputs)` returns the expected outputs (flattened)."""
        exported = self.optimize(name, text)
        if exported is None:
            return
        if not parses(text):
            # torch 1.13's parse_ir cannot read zero-output nodes
            # (` = prim::If(...)`), Function constants or class types, so
            # it could not read the export either: tsir's run is all we
            # can check.
            self.skipped += 1
            print(f"skip {name}: torch's parse_ir rejects the original "
                  f"(tsir optimized it)")
            return
        try:
            graph = torch._C.parse_ir(exported)
        except Exception as error:
            self.fail(name, f"parse_ir rejects the export: {error}\n{exported}")
            return
        function = torch._C._create_function_from_graph(name, graph)
        self.checked += 1
        for index, inputs in enumerate(input_sets):
            expected_inputs = copy.deepcopy(inputs)
            expected = reference(expected_inputs)
            actual_inputs = copy.deepcopy(inputs)
            try:
                actual = flatten(function(*actual_inputs))
            except Exception as error:
                self.fail(name, f"input set {index}: torch could not run the "
                                f"export: {error}\n{exported}")
                return
            if not same(actual, expected, *tolerances):
                self.fail(name, f"input set {index}: outputs differ\n"
                                f"expected {expected}\nactual {actual}\n{exported}")
                return
            if not same(flatten(list(actual_inputs)),
                        flatten(list(expected_inputs)), *tolerances):
                self.fail(name, f"input set {index}: mutated inputs differ")
                return
        before = count_nodes(torch._C.parse_ir(text)) if parses(text) else "?"
        print(f"OK {name} ({len(input_sets)} input sets, nodes {before} -> "
              f"{count_nodes(graph)})")
        if self.verbose:
            print(exported)


def run_corpus(oracle, corpus):
    for case in sorted(p.parent for p in corpus.glob("*/meta.json")):
        meta = json.loads((case / "meta.json").read_text())
        text = (case / "graph.txt").read_text()
        if "parse-only" in meta.get("tags", []):
            oracle.check(case.name, text, [], None)
            continue
        if not parses(text):
            oracle.check(case.name, text, [], None)
            continue
        inputs = [to_input(np.load(case / f"in{i}.npy"), t)
                  for i, t in enumerate(meta["input_types"])]
        expected = [np.load(case / f"out{i}.npy")
                    for i in range(meta["num_outputs"])]
        oracle.check(case.name, text, [inputs], lambda _: expected,
                     (meta["rtol"], meta["atol"]))


def run_cases(oracle):
    for name, function, input_sets in cases.CASES:
        scripted = torch.jit.script(function)
        oracle.check(name, str(scripted.graph), [list(i) for i in input_sets],
                     lambda inputs, f=function: flatten(f(*inputs)))
    for name, text, input_sets in cases.IR_CASES:
        original = torch._C._create_function_from_graph(
            name, torch._C.parse_ir(text))
        oracle.check(name, text, [list(i) for i in input_sets],
                     lambda inputs, f=original: flatten(f(*inputs)))


def main():
    translate, opt, corpus = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    # Run graphs as given: torch's executor would optimize them first (and
    # its constant pooling merges -0. with 0.), which is not what is tested.
    torch._C._set_graph_executor_optimize(False)
    oracle = Oracle(translate, opt, "-v" in sys.argv[4:])
    run_corpus(oracle, corpus)
    run_cases(oracle)
    print(f"{oracle.checked - oracle.failures} optimized graphs run by torch "
          f"as the originals, {oracle.skipped} optimized but not runnable "
          f"by torch, {oracle.failures} failures")
    return 1 if oracle.failures or oracle.checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
