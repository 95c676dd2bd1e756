#!/usr/bin/env python3
# benchmarks/scaling.py - does every pass stay linear on large inputs?
#
# Generates graphs of the shapes that hide quadratic behaviour, each at two
# sizes (10k and 100k by default), and times `tsir-translate` (import) and
# `tsir-opt --tsir-optimize` (the whole optimizer) on both. Prints the
# growth factor of each: about 10 for linear work, 100 for quadratic. A
# benchmark, not a test: these machines are noisy.
#
#   /usr/bin/python3 benchmarks/scaling.py [--build build] [--small 10000]
#       [--factor 10] [--shape NAME] [--timeout 600]
#   /usr/bin/python3 benchmarks/scaling.py --emit NAME N   (prints one graph;
#       test/Transforms/scaling-shapes.test uses it)
import argparse
import os
import subprocess
import sys
import tempfile
import time


def names(prefix, n, suffix=""):
    """`%{prefix}0{suffix}, ..., %{prefix}{n-1}{suffix}`: the operand (or,
    with a type suffix, result) lists every shape below spells out."""
    return ", ".join(f"%{prefix}{i}{suffix}" for i in range(n))


def int_constants(n):
    """n int constants %c0 .. %c{n-1} of values 0 .. n-1: the inputs that
    make a list, tuple or loop n values wide."""
    return [f"  %c{i} : int = prim::Constant[value={i}]()" for i in range(n)]


def chain(n):
    """n ops of one kind, each using the last."""
    lines = ["graph(%x : Float(4)):", "  %one : int = prim::Constant[value=1]()"]
    prev = "%x"
    for i in range(n):
        lines.append(f"  %v{i} : Float(4) = aten::add(%x, {prev}, %one)")
        prev = f"%v{i}"
    lines.append(f"  return ({prev})")
    return lines


def long_list(n):
    """One ListConstruct of n ints, indexed once."""
    return ["graph(%x : int):",
            *int_constants(n),
            f"  %l : int[] = prim::ListConstruct({names('c', n)})",
            "  %r : int = aten::__getitem__(%l, %x)",
            "  return (%r)"]


def appends(n):
    """n appends to one list (remove-mutation folds each into the literal)."""
    return ["graph(%x : int):", "  %l : int[] = prim::ListConstruct()",
            *(f"  %a{i} : int[] = aten::append(%l, %x)" for i in range(n)),
            "  %r : int = aten::len(%l)",
            "  return (%r)"]


def many_uses(n):
    """One value used by n ops whose results all reach the output."""
    lines = ["graph(%x : Float(4)):", "  %one : int = prim::Constant[value=1]()"]
    for i, constant in enumerate(int_constants(n)):
        lines += [constant, f"  %u{i} : Float(4) = aten::add(%x, %x, %c{i})"]
    lines.append(f"  %l : Tensor[] = prim::ListConstruct({names('u', n)})")
    lines.append("  return (%l)")
    return lines


def wide_tuple(n):
    """A tuple of n values, built, unpacked and rebuilt."""
    types = ", ".join("int" for _ in range(n))
    return ["graph(%x : int):",
            *int_constants(n),
            f"  %t : ({types}) = prim::TupleConstruct({names('c', n)})",
            f"  {names('o', n, ' : int')} = prim::TupleUnpack(%t)",
            f"  %t2 : ({types}) = prim::TupleConstruct({names('o', n)})",
            "  return (%t2)"]


def loop_carried(n):
    """A loop carrying n values, each updated from the input."""
    types = ", ".join("int" for _ in range(n))
    return ["graph(%x : int, %trip : int):",
            "  %true : bool = prim::Constant[value=1]()",
            *int_constants(n),
            f"  {names('r', n, ' : int')} = prim::Loop(%trip, %true, "
            f"{names('c', n)})",
            f"    block0(%i : int, {names('p', n, ' : int')}):",
            *(f"      %n{i} : int = aten::add(%p{i}, %x)" for i in range(n)),
            f"      -> (%true, {names('n', n)})",
            f"  %t : ({types}) = prim::TupleConstruct({names('r', n)})",
            "  return (%t)"]


def nested_ifs(n):
    """Ifs nested as deep as the parser allows, repeated to n nodes."""
    depth = 200  # below the parser's nesting cap (256)
    lines = ["graph(%x : int, %c : bool):"]
    count = 0
    k = 0
    while count < n:
        indent = "  "
        prev = "%x"
        for d in range(depth):
            lines.append(f"{indent}%i{k}_{d} : int = prim::If(%c)")
            lines.append(f"{indent}  block0():")
            indent += "    "
        lines.append(f"{indent}%s{k} : int = aten::add({prev}, %x)")
        inner = f"%s{k}"
        for d in reversed(range(depth)):
            indent = indent[:-4]
            lines.append(f"{indent}    -> ({inner})")
            lines.append(f"{indent}  block1():")
            lines.append(f"{indent}    -> (%x)")
            inner = f"%i{k}_{d}"
        count += depth
        k += 1
    lines.append(f"  %l : int[] = prim::ListConstruct({names('i', k, '_0')})")
    lines.append("  return (%l)")
    return lines


SHAPES = {
    "chain": chain,
    "long-list": long_list,
    "appends": appends,
    "many-uses": many_uses,
    "wide-tuple": wide_tuple,
    "loop-carried": loop_carried,
    "nested-ifs": nested_ifs,
}


def timed(cmd, timeout):
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        return None, proc.stderr.decode(errors="replace").strip()[-300:]
    return elapsed, ""


def main():
    parser = argparse.ArgumentParser(
        description="time import and tsir-optimize at two sizes per shape")
    parser.add_argument("--build", default=os.path.join(
        os.path.dirname(__file__), "..", "build"))
    parser.add_argument("--small", type=int, default=10000)
    parser.add_argument("--factor", type=int, default=10)
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES))
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--emit", nargs=2, metavar=("NAME", "N"),
                        help="print the graph of shape NAME at size N")
    args = parser.parse_args()
    if args.emit:
        print("\n".join(SHAPES[args.emit[0]](int(args.emit[1]))))
        return
    translate = os.path.join(args.build, "bin", "tsir-translate")
    opt = os.path.join(args.build, "bin", "tsir-opt")
    sizes = [args.small, args.small * args.factor]

    print(f"| shape | stage | {sizes[0]:,} (s) | {sizes[1]:,} (s) | growth |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.shape or SHAPES:
            times = {"import": [], "tsir-optimize": []}
            errors = []
            for n in sizes:
                text = os.path.join(tmp, f"{name}-{n}.txt")
                mlir = os.path.join(tmp, f"{name}-{n}.mlir")
                with open(text, "w") as f:
                    f.write("\n".join(SHAPES[name](n)) + "\n")
                t, err = timed([translate, "--import-torchscript", text,
                                "-o", mlir], args.timeout)
                times["import"].append(t)
                if err:
                    errors.append(f"import {n}: {err}")
                    times["tsir-optimize"].append(None)
                    continue
                t, err = timed([opt, "--tsir-optimize", mlir], args.timeout)
                times["tsir-optimize"].append(t)
                if err:
                    errors.append(f"optimize {n}: {err}")
            for stage, (a, b) in times.items():
                fmt = lambda t: "-" if t is None else f"{t:.3f}"
                growth = f"{b / a:.1f}x" if a and b else "-"
                print(f"| {name} | {stage} | {fmt(a)} | {fmt(b)} | {growth} |",
                      flush=True)
            for e in errors:
                print(f"  {name}: {e}", file=sys.stderr)


if __name__ == "__main__":
    main()
