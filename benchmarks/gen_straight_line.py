# gen_straight_line.py - writes a generated straight-line TorchScript graph of N aten elementwise nodes.
"""Generate a straight-line TorchScript graph in torch 1.13's printed format.

The graph has a few tensor inputs, a handful of `prim::Constant`s, then N
nodes of mixed aten elementwise ops (add/sub with an alpha, mul/div, add and
mul by a float scalar, tanh/sigmoid/relu/exp/neg), each consuming values
defined earlier, every node carrying a `# bench.py:L:C` source comment as
real dumps do, and a `return (...)` of the last few values. The output is
deterministic for a given N and seed, and torch._C.parse_ir accepts it.

With --redundant, about a fifth of the nodes repeat an earlier node
exactly (work for CSE) and the float scalars come from int arithmetic on
constants (work for constant propagation), as an optimizer benchmark.

Usage: gen_straight_line.py N [-o FILE] [--seed S] [--redundant]
"""

import argparse
import random
import sys

NUM_INPUTS = 4
# How far back a node looks for its operands: mostly recent values, like a
# real network body, sometimes anything defined so far.
WINDOW = 32


def generate(n, seed=0, redundant=False):
    """Return the text of a straight-line graph with n aten nodes."""
    rng = random.Random(seed)
    lines = []
    inputs = ["%%x%d.1" % i for i in range(NUM_INPUTS)]
    header = ",\n      ".join("%s : Tensor" % v for v in inputs)
    lines.append("graph(%s):" % header)

    next_id = NUM_INPUTS
    def fresh():
        nonlocal next_id
        name = "%%%d" % next_id
        next_id += 1
        return name

    alpha = fresh()
    lines.append("  %s : int = prim::Constant[value=1]()" % alpha)
    floats = []
    for lit in ("2.", "0.5", "-1.25"):
        v = fresh()
        floats.append(v)
        lines.append("  %s : float = prim::Constant[value=%s]() # bench.py:%d:%d"
                     % (v, lit, rng.randint(5, 30), rng.randint(4, 40)))

    tensors = list(inputs)

    def pick():
        if rng.random() < 0.9:
            return tensors[-1 - rng.randrange(min(WINDOW, len(tensors)))]
        return rng.choice(tensors)

    line_no = 40
    done = []  # right-hand sides so far, for --redundant repeats
    for i in range(n):
        # Mostly anonymous values; every so often a named one like `%h.7`
        # (which, as in torch's dumps, still uses up a number).
        result = fresh()
        if rng.random() < 0.15:
            result = "%%h%d.%d" % (i, rng.randint(1, 9))
        k = rng.randrange(12)
        if redundant and done and rng.random() < 0.2:
            rhs = done[-1 - rng.randrange(min(WINDOW, len(done)))]
        elif redundant and rng.random() < 0.05:
            # A scalar computed from constants, then used: foldable.
            scalar = fresh()
            lines.append("  %s : int = aten::mul(%s, %s) # bench.py:%d:%d"
                         % (scalar, alpha, alpha, line_no, rng.randint(4, 60)))
            rhs = "aten::add(%s, %s, %s)" % (pick(), pick(), scalar)
        elif k == 0:
            rhs = "aten::add(%s, %s, %s)" % (pick(), pick(), alpha)
        elif k == 1:
            rhs = "aten::sub(%s, %s, %s)" % (pick(), pick(), alpha)
        elif k == 2:
            rhs = "aten::mul(%s, %s)" % (pick(), pick())
        elif k == 3:
            rhs = "aten::div(%s, %s)" % (pick(), pick())
        elif k == 4:
            rhs = "aten::add(%s, %s, %s)" % (pick(), rng.choice(floats), alpha)
        elif k == 5:
            rhs = "aten::mul(%s, %s)" % (pick(), rng.choice(floats))
        else:
            fn = ("tanh", "sigmoid", "relu", "exp", "neg", "tanh")[k - 6]
            rhs = "aten::%s(%s)" % (fn, pick())
        line_no += rng.randint(0, 2)
        lines.append("  %s : Tensor = %s # bench.py:%d:%d"
                     % (result, rhs, line_no, rng.randint(4, 60)))
        tensors.append(result)
        done.append(rhs)

    lines.append("  return (%s)" % ", ".join(tensors[-3:]))
    return "\n".join(lines) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, help="number of aten nodes")
    ap.add_argument("-o", "--output", help="output file (default: stdout)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--redundant", action="store_true",
                    help="add repeated nodes and foldable scalar arithmetic")
    args = ap.parse_args(argv)
    text = generate(args.n, args.seed, args.redundant)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
