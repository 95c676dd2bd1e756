"""scalars.py - generated end-to-end cases for convert-aten-to-arith and the
ScalarTensor family: TorchScript's int/float/bool arithmetic with negative
operands (floor division and modulo round toward negative infinity, int
arithmetic wraps, `int / int` is a float), mixed int/float overloads,
comparisons, bool logic, math functions and casts, and the traffic between
tensors and scalars (size, dim, numel, len, item, Int/Float/Bool of a
tensor).

The oracle is eager Python, so the cases stay where TorchScript computes
what Python does: not where torch raises (a zero divisor; tsir gives 0, see
AtenToArith/ScalarArithmetic.cpp), nor where TorchScript's C++ differs from
Python (int overflow wraps, `1.0 // 0.1` is floor(1.0 / 0.1) = 10.0, `**` of
ints and round() give floats); test/Conversion/convert-aten-to-arith/
semantics.mlir checks those against TorchScript's values."""

import math

import torch

from op_case import Case

torch.manual_seed(0)


def int_arith(a: int, b: int):
    return a + b, a - b, a * b, a // b, a % b, a / b, -a


def float_arith(x: float, y: float):
    return x + y, x - y, x * y, x / y, x // y, x % y, -x


def mixed_arith(a: int, x: float):
    return a + x, x - a, x * a, a / x, a // x, x % a, x ** a


def powers(a: int, b: int, x: float):
    # `int ** int` is a float in TorchScript (an int in Python, so the
    # float() here keeps eager Python, the oracle, in step). A negative
    # float to a fractional power is NaN in TorchScript, complex in Python,
    # hence the square.
    return float(a ** b), x ** b, float(a * a) ** x


def comparisons(a: int, b: int, x: float):
    # Not `x != x`: TorchScript's executor (the oracle) folds it to False,
    # while IEEE (and eager Python, and tsir) says True for NaN.
    return (a < b, a <= b, a > b, a >= b, a == b, a != b,
            a < x, x <= a, x > b, a == x, x != float(b))


def bool_logic(p: bool, q: bool):
    return p and q, p or q, not p, p != q, p == q, p ^ q


def bitwise(a: int, b: int):
    return a & b, a | b, a ^ b


def casts(a: int, x: float, p: bool):
    return int(x), float(a), bool(a), bool(x), int(p), float(p)


def math_functions(x: float, n: int):
    # round() is a float in TorchScript and an int in Python.
    return (math.sqrt(n), math.exp(x), math.log(n), math.floor(x),
            math.ceil(x), float(round(x)), math.sqrt(x * x))


def ranges(a: int, b: int):
    n = 0
    for i in range(a, b, 3):
        n = n * 7 + i
    m = 0
    for j in range(b, a, -2):
        m = m * 5 + j
    return n, m


def tensor_metadata(x, d: int):
    return x.size(0), x.size(-1), x.size(d), x.dim(), x.numel(), len(x)


def tensor_to_scalar(x):
    s = x.sum()
    return (float(s), int(s), bool(s > 0), float(s.item()),
            int(x[0, 0] * 10.0), s.item() * 2 < 1.0)


def scalar_into_tensor(x, n: int, f: float):
    k = n // 2 - 1
    return x * k + f, x.size(1) * x


CASES = [
    Case(int_arith, [-7, 2], name="int_arith_neg_pos"),
    Case(int_arith, [7, -2], name="int_arith_pos_neg"),
    Case(int_arith, [-7, -2], name="int_arith_neg_neg"),
    Case(int_arith, [0, 5], name="int_arith_zero"),
    Case(int_arith, [6, 3], name="int_arith_exact"),
    Case(float_arith, [-7.5, 2.0], name="float_arith_neg_pos"),
    Case(float_arith, [7.5, -2.0], name="float_arith_pos_neg"),
    Case(float_arith, [1.0, 0.25], name="float_arith_fraction"),
    Case(float_arith, [-0.5, -0.25], name="float_arith_neg_neg"),
    Case(mixed_arith, [-3, 2.5], name="mixed_arith_neg"),
    Case(mixed_arith, [4, -1.5], name="mixed_arith_neg_float"),
    Case(powers, [2, 10, 0.5], name="powers"),
    Case(powers, [-3, 3, 1.5], name="powers_neg_base_int"),
    Case(powers, [2, -2, -0.5], name="powers_neg_exponent"),
    Case(comparisons, [-3, 2, -3.0], name="comparisons_lt"),
    Case(comparisons, [5, 5, 4.5], name="comparisons_eq"),
    Case(comparisons, [-1, -4, float("nan")], name="comparisons_nan"),
    Case(bool_logic, [True, False], name="bool_logic_tf"),
    Case(bool_logic, [True, True], name="bool_logic_tt"),
    Case(bitwise, [-6, 13], name="bitwise"),
    Case(casts, [-3, -2.7, True], name="casts_neg"),
    Case(casts, [0, 0.0, False], name="casts_zero"),
    Case(casts, [7, 3.9, True], name="casts_pos"),
    Case(math_functions, [2.5, 9], name="math_half_even"),
    Case(math_functions, [-1.5, 2], name="math_neg"),
    Case(math_functions, [3.5, 100], name="math_half_odd"),
    Case(ranges, [-5, 11], name="ranges"),
    Case(ranges, [4, 4], name="ranges_empty"),
    Case(ranges, [10, -3], name="ranges_reversed"),
    Case(tensor_metadata, [torch.randn(4, 3, 2), 1], name="tensor_metadata"),
    Case(tensor_metadata, [torch.randn(5, 2), -2], name="tensor_metadata_neg_dim"),
    Case(tensor_to_scalar, [torch.randn(3, 4)], name="tensor_to_scalar"),
    Case(tensor_to_scalar, [-torch.rand(2, 2) - 1.0],
         name="tensor_to_scalar_negative"),
    Case(scalar_into_tensor, [torch.randn(2, 3), -3, 0.5],
         name="scalar_into_tensor"),
]
