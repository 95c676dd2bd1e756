"""creation.py - generated end-to-end cases for the Creation family:
zeros/ones/full/empty with static and runtime sizes and dtypes, the *_like
and new_* forms, fill_/zero_ (made functional), tensors from (nested) lists
and scalars, arange in all its overloads with int and float bounds,
linspace, eye and one_hot. `empty` values are garbage in torch, so the
empty cases overwrite them."""

from typing import List

import torch
import torch.nn.functional as F

from op_case import Case

torch.manual_seed(0)


def r(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


def zeros_ones(x):
    return torch.zeros(2, 3), torch.ones([4], dtype=torch.int64), \
        torch.zeros(2, 3, dtype=torch.bool) | (x > 0)


def full(n: int):
    return torch.full([2, n], 1.5), torch.full([3], 7, dtype=torch.int64), \
        torch.full([2], 1, dtype=torch.bool)


def runtime_sizes(x):
    return torch.zeros(x.size(0), 2) + 1, torch.ones(x.shape)


def empty_shape(x):
    return torch.empty(2, 3).zero_() + 1, torch.empty_like(x).fill_(2.0)


def like(x):
    return torch.zeros_like(x), torch.ones_like(x), torch.full_like(x, -2.0), \
        torch.zeros_like(x, dtype=torch.int64)


def like_i64(x):
    return torch.ones_like(x), torch.full_like(x, 3)


def new(x):
    return x.new_zeros(2, 3), x.new_ones([4]), x.new_full([2, 2], 0.25)


def fill(x, v: float):
    y = x.clone()
    y.fill_(v)
    z = x.clone()
    z.zero_()
    return y, z


def fill_tensor(x, v):
    y = x.clone()
    y.fill_(v)
    return y


def from_list(n: int, f: float):
    return torch.tensor([[1.0, 2.0], [3.0, f]]), torch.tensor([n, 2, 3]), \
        torch.tensor([True, False])


def from_scalar(n: int, f: float):
    return torch.tensor(f), torch.tensor(n), torch.tensor(n > 2), \
        torch.scalar_tensor(n), torch.as_tensor(f)


def as_tensor(x):
    return torch.as_tensor(x, dtype=torch.float64)


def arange(n: int):
    return torch.arange(5), torch.arange(n), torch.arange(2, 9), \
        torch.arange(1, 10, 3), torch.arange(10, 1, -2)


def arange_float(e: float):
    return torch.arange(0.5, 3.0, 0.25), torch.arange(e), \
        torch.arange(1, 2.5, 0.5), torch.arange(0.0, 1.0, 0.1)


def arange_dtype():
    return torch.arange(6, dtype=torch.float32), \
        torch.arange(0, 5, 2, dtype=torch.float64)


def linspace(n: int):
    return torch.linspace(0, 1, 5), torch.linspace(-3.0, 7.5, n), \
        torch.linspace(2, 2, 1), torch.linspace(0, 10, 4, dtype=torch.int64)


def eye(n: int):
    return torch.eye(3), torch.eye(n, dtype=torch.int64)


def one_hot(i):
    return F.one_hot(i, 5)


CASES = [
    Case(zeros_ones, [r(2, 3)], op="zeros"),
    Case(full, [3]),
    Case(runtime_sizes, [r(3, 4)], op="zeros"),
    Case(empty_shape, [r(3, 4)], op="empty.memory_format"),
    Case(like, [r(2, 3)], op="zeros_like"),
    Case(like_i64, [torch.randint(0, 5, (3,))], op="ones_like"),
    Case(new, [r(2)], op="new_zeros"),
    Case(fill, [r(2, 3), 0.5], op="fill_.Scalar"),
    Case(fill_tensor, [r(2, 3), torch.tensor(4.0)], op="fill_.Tensor",
         xfail="tsir-value-semantics has no functional form of fill_.Tensor"),
    Case(from_list, [4, 2.5], op="tensor"),
    Case(from_scalar, [4, 2.5], op="tensor.float"),
    Case(as_tensor, [torch.randint(0, 5, (3,))]),
    Case(arange, [7]),
    Case(arange_float, [3.5], op="arange.start_step"),
    Case(arange_dtype, [], op="arange"),
    Case(linspace, [6]),
    Case(eye, [4]),
    Case(one_hot, [torch.tensor([[0, 4], [2, 2]])]),
]
