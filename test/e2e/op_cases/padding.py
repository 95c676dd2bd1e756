"""padding.py - generated end-to-end cases for the Padding family:
constant_pad_nd and F.pad in every mode (constant with a value and with
negative pads that crop, reflect, replicate, circular) on 1, 2 and 3 padded
dims, and tril/triu with positive, zero and negative diagonals, batched,
on f32 and int64."""

import torch
import torch.nn.functional as F

from op_case import Case

torch.manual_seed(0)


def constant_pad_nd(x):
    return torch.constant_pad_nd(x, [1, 2, 0, 3], 1.5)


def constant_pad_nd_crop(x):
    return torch.constant_pad_nd(x, [-1, 2, 1, -2])


def constant_pad_nd_int(x):
    return torch.constant_pad_nd(x, [2, 1], 7)


def pad_constant(x):
    return F.pad(x, [1, 1, 2, 0], "constant", -0.5)


def pad_constant_default(x):
    return F.pad(x, [0, 3])


def pad_constant_3d(x):
    return F.pad(x, [1, 0, 0, 2, 1, 1], value=2.0)


def pad_reflect_1d(x):
    return F.pad(x, [2, 3], "reflect")


def pad_reflect_2d(x):
    return F.pad(x, [1, 2, 3, 1], "reflect")


def pad_reflect_crop(x):
    return F.pad(x, [-1, 2], "reflect")


def pad_replicate_1d(x):
    return F.pad(x, [3, 1], "replicate")


def pad_replicate_2d(x):
    return F.pad(x, [2, 2, 0, 4], "replicate")


def pad_replicate_3d(x):
    return F.pad(x, [1, 2, 2, 1, 1, 1], "replicate")


def pad_circular_1d(x):
    return F.pad(x, [2, 4], "circular")


def pad_circular_2d(x):
    return F.pad(x, [1, 3, 2, 0], "circular")


def pad_circular_crop(x):
    return F.pad(x, [-2, 1, 1, -1], "circular")


def pad_circular_crop_both(x):
    return F.pad(x, [-1, -2, 2, -2], "circular")


def tril(x):
    return torch.tril(x)


def tril_pos(x):
    return torch.tril(x, 2)


def tril_neg(x):
    return torch.tril(x, -1)


def triu(x):
    return torch.triu(x)


def triu_pos(x):
    return x.triu(1)


def triu_neg(x):
    return x.triu(-2)


def tril_dynamic_diagonal(x, d: int):
    return torch.tril(x, d), torch.triu(x, d)


CASES = [
    Case(constant_pad_nd, [torch.randn(3, 5)]),
    Case(constant_pad_nd, [torch.randn(2, 3, 4)], name="constant_pad_nd_3d"),
    Case(constant_pad_nd_crop, [torch.randn(2, 5, 4)]),
    Case(constant_pad_nd_int, [torch.randint(-9, 9, (3, 5))]),
    Case(pad_constant, [torch.randn(2, 3, 5)]),
    Case(pad_constant_default, [torch.randn(4, 3)]),
    Case(pad_constant_default, [torch.randint(-5, 5, (4, 3))],
         name="pad_constant_int"),
    Case(pad_constant_3d, [torch.randn(1, 2, 3, 4)]),
    Case(pad_reflect_1d, [torch.randn(2, 3, 5)]),
    Case(pad_reflect_2d, [torch.randn(1, 2, 5, 4)]),
    Case(pad_reflect_2d, [torch.randn(2, 5, 4)], name="pad_reflect_2d_unbatched"),
    Case(pad_reflect_crop, [torch.randn(2, 3, 5)]),
    Case(pad_replicate_1d, [torch.randn(2, 3, 5)]),
    Case(pad_replicate_2d, [torch.randn(1, 3, 3, 5)]),
    Case(pad_replicate_3d, [torch.randn(1, 2, 3, 3, 4)]),
    Case(pad_circular_1d, [torch.randn(2, 3, 5)]),
    Case(pad_circular_2d, [torch.randn(1, 2, 3, 5)]),
    Case(pad_circular_crop, [torch.randn(1, 2, 4, 5)]),
    Case(pad_circular_crop_both, [torch.randn(1, 2, 4, 6)]),
    Case(tril, [torch.randn(4, 5)]),
    Case(tril_pos, [torch.randn(2, 5, 3)]),
    Case(tril_neg, [torch.randint(-9, 9, (5, 4))]),
    Case(triu, [torch.randn(5, 5)]),
    Case(triu_pos, [torch.randn(3, 4, 6)]),
    Case(triu_neg, [torch.randint(-9, 9, (2, 6, 3))]),
    Case(tril_dynamic_diagonal, [torch.randn(4, 6), 1]),
    Case(tril_dynamic_diagonal, [torch.randn(4, 6), -2],
         name="tril_dynamic_diagonal_neg"),
]
