"""coverage.py - cases for typed ops no family file exercises on its own.

Small scripted functions whose graphs hold rsub, is_floating_point,
_unwrap_optional and the like, so that more typed aten ops have a case of
their own (run_op_cases.py --coverage).
"""

import math
import warnings
from typing import Optional

import torch

from op_case import Case

torch.manual_seed(0)


def rsub_tensor(x, y):
    return torch.rsub(x, y, alpha=2)


def rsub_scalar(x):
    return torch.rsub(x, 3.5)


def is_floating_point(x, y):
    if x.is_floating_point():
        return x * 2
    return y


def unwrap_optional(x: Optional[torch.Tensor]):
    return torch.jit._unwrap_optional(x) + 1


def index_with_0d_tensor(x, i):
    return x[i]


CASES = [
    Case(rsub_tensor, [torch.randn(3, 4), torch.randn(3, 4)], op="rsub.Tensor"),
    Case(rsub_scalar, [torch.randn(5)], op="rsub.Scalar"),
    Case(is_floating_point, [torch.randn(3), torch.randn(3)],
         op="is_floating_point"),
    Case(unwrap_optional, [torch.randn(2, 3)], op="_unwrap_optional"),
    Case(index_with_0d_tensor, [torch.randn(4, 3), torch.tensor(2)],
         op="index.Tensor"),
]


def mixed_arithmetic(a: int, x: float):
    return (a + x, x + a, a - x, x - a, a * x, x * a, x // a, a // x,
            x % a, a % x, a ** x, x ** a)


def mixed_comparisons(a: int, x: float):
    return (a == x, x == a, a != x, x != a, a < x, x < a, a <= x, x <= a,
            a > x, x > a, a >= x, x >= a)


CASES += [
    Case(mixed_arithmetic, [3, 2.5]),
    Case(mixed_arithmetic, [-7, 1.5], name="mixed_arithmetic_negative"),
    Case(mixed_comparisons, [2, 2.0]),
    Case(mixed_comparisons, [-1, 0.5], name="mixed_comparisons_lt"),
]


def pow_tensor_inplace(x, y):
    z = x.clone()
    z.pow_(y)
    return z


def masked_fill_tensor_inplace(x, m, v):
    z = x.clone()
    z.masked_fill_(m, v)
    return z


def to_variants(x):
    return (x.to(torch.device("cpu")), x.to(dtype=torch.float64),
            x.to(torch.float64, False, False))


def as_tensors(a: int, p: bool):
    return (torch.as_tensor([1.0, 2.5, -3.0]), torch.as_tensor(a),
            torch.as_tensor(p))


def scalar_conversions(x: float, a: int):
    return int(x), float(a), int(a), float(x)


def mixed_scalar_ops(a: int, x: float):
    return a + x, a - x, a // 2, a % 3, x % 2.0


CASES += [
    Case(pow_tensor_inplace, [torch.rand(3, 4) + 0.5, torch.rand(3, 4) * 2]),
    Case(masked_fill_tensor_inplace, [torch.randn(3, 4), torch.rand(3, 4) > 0.5,
                                      torch.tensor(7.0)]),
    Case(to_variants, [torch.randn(2, 3)]),
    Case(as_tensors, [5, True]),
    Case(scalar_conversions, [-2.7, 9]),
    Case(mixed_scalar_ops, [-7, 2.5]),
]


def float_comparisons(x: float, y: float):
    return x == y, x != y, x < y, x <= y, x > y, x >= y


def bool_or(p: bool, q: bool):
    return p | q


def scalar_math(a: int, x: float):
    return math.exp(a), math.log(x), a ** 2


def list_sums(a: int, x: float):
    return sum([a, 2, 3]), sum([x, 1.5])


def size_lists_differ(x, y):
    return x.size() != y.size()


def strings_differ(a: int):
    return str(a) != "3", str(a) != "4"


def list_index(a: int):
    return [5, a, 7].index(a)


def warns(x):
    warnings.warn("careful")
    return x + 1


CASES += [
    Case(float_comparisons, [1.5, 2.5]),
    Case(float_comparisons, [3.0, 3.0], name="float_comparisons_equal"),
    Case(bool_or, [False, True]),
    Case(scalar_math, [2, 0.5]),
    Case(list_sums, [4, 2.25]),
    Case(size_lists_differ, [torch.randn(2, 3), torch.randn(2, 4)]),
    Case(strings_differ, [4]),
    Case(list_index, [6]),
    Case(warns, [torch.randn(3)]),
]
