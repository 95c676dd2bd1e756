"""coverage.py - cases for typed ops no family file exercises on its own.

Small scripted functions whose graphs hold rsub, is_floating_point,
_unwrap_optional and the like, so that more typed aten ops have a case of
their own (run_op_cases.py --coverage).
"""

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
