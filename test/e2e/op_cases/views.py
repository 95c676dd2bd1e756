"""views.py - generated end-to-end cases for the Views family: reshapes
(view, reshape, flatten, unflatten, squeeze, unsqueeze, view_as,
reshape_as), permutations (permute, transpose, t, movedim), expand and
expand_as, the identity copies (contiguous, clone, detach), view.dtype,
slice/select/narrow with Python's clamping, flip, roll, repeat and tile.
Inputs include non-contiguous tensors, int64 and bool, 0-d and empty
tensors."""

from typing import List

import torch

from op_case import Case

torch.manual_seed(0)


def r(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


def ints(*shape):
    return torch.randint(-9, 9, shape)


def bools(*shape):
    return torch.rand(*shape) > 0.5


def view(x):
    return x.view(3, 4) * 2


def view_minus_one(x):
    return x.view(-1, 2, 3)


def view_0d(x):
    return x.view(1, 1), x.view(-1)


def view_to_0d(x):
    return x.view([])


def reshape(x):
    return x.reshape(4, -1)


def reshape_noncontiguous(x):
    return x.reshape(-1)


def reshape_not_collapse(x):
    return x.reshape(3, 2, 4)


def reshape_runtime(x, n: int):
    return x.reshape(n, -1)


def reshape_empty(x):
    return x.reshape(0, 5, 2)


def flatten(x):
    return torch.flatten(x), torch.flatten(x, 1), torch.flatten(x, 0, -2)


def flatten_0d(x):
    return torch.flatten(x)


def unflatten(x):
    return x.unflatten(1, (2, -1))


def squeeze(x):
    return x.squeeze(), x.squeeze(1), x.squeeze(-1), x.squeeze(0)


def unsqueeze(x):
    return x.unsqueeze(0), x.unsqueeze(-1), x.unsqueeze(1)


def unsqueeze_0d(x):
    return x.unsqueeze(0)


def inplace_reshapes(x):
    y = x.clone()
    y.unsqueeze_(1)
    z = x.clone()
    z.squeeze_()
    w = x.clone()
    w.squeeze_(0)
    return y, z, w


def view_as(x, y):
    return x.view_as(y), x.reshape_as(y)


def permute(x):
    return x.permute(2, 0, 1), x.permute(-1, -2, -3)


def transpose(x):
    return x.transpose(0, 1), x.transpose(-1, 0), x.transpose(1, 1)


def t(x):
    return x.t()


def t_1d(x):
    return x.t()


def movedim(x):
    return torch.movedim(x, 0, -1), torch.movedim(x, -1, 1)


def expand(x):
    return x.expand(2, 3, 4), x.expand(-1, 3, -1)


def expand_leading(x):
    return x.expand(5, 2, 4)


def expand_0d(x):
    return x.expand(3, 2)


def expand_as(x, y):
    return x.expand_as(y)


def copies(x):
    return x.contiguous(), x.clone(), x.detach()


def slices(x):
    return x[1:], x[:, 1:3], x[:, ::2], x[-2:], x[:-1, -3:-1]


def slice_clamped(x):
    return x[2:100], x[-100:2], x[5:2], x[10:], x[:, 1:0]


def slices_of_zero_rows(x):
    # Slices of a tensor with a static dim of size 0 (Faster R-CNN's
    # remove_small_boxes with no proposals left): empty wherever they start.
    b = x[:0]
    ws, hs = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    c = b.clone()
    c[:, 1] = 0.0
    return (ws, hs, b[:, 1:3], c, torch.diagonal(x, offset=4),
            torch.cat([x, b]), x[:, 4:])


def slice_step(x):
    return x[1::3], x[::4, 1::2]


def slice_runtime(x, a: int, b: int):
    return x[a:b], x[:, a:], x[b:]


def select(x):
    return x[0], x[-1], x[:, 2], x[:, -1, 1]


def select_runtime(x, i: int):
    return x[i], x[:, i]


def narrow(x):
    return x.narrow(0, 1, 2), x.narrow(1, -3, 2)


def flip(x):
    return torch.flip(x, [0]), torch.flip(x, [-1, 0]), torch.flip(x, [])


def roll(x):
    return torch.roll(x, 1, 0), torch.roll(x, -2, 1), torch.roll(x, 5)


def roll_dims(x):
    return torch.roll(x, [1, -1], [0, 1]), torch.roll(x, [7], [2])


def repeat(x):
    return x.repeat(2, 3), x.repeat(1, 2, 1)


def repeat_0d(x):
    return x.repeat(3)


def repeat_interleave_int(x):
    return (torch.repeat_interleave(x, 2, dim=0),
            torch.repeat_interleave(x.transpose(0, 2), 3, dim=-1),
            x.repeat_interleave(2))


def tile(x):
    return torch.tile(x, [2]), torch.tile(x, [2, 1, 3])


def swapaxes(x):
    return torch.swapaxes(x, 0, 2) + 1, x.swapdims(-1, 1)


def chain(x):
    y = x.view(2, 3, 4).permute(0, 2, 1)
    z = y[:, 1:, :].contiguous().view(2, -1)
    return z.t().unsqueeze(0).expand(2, 9, 2)


def pixel_shuffle(x):
    return torch.pixel_shuffle(x, 2)


def pixel_unshuffle(x):
    return torch.pixel_unshuffle(x, 3)


def channel_shuffle(x):
    return torch.channel_shuffle(x, 3)


CASES = [
    Case(view, [r(12)]),
    Case(view, [ints(2, 6)], name="view_i64"),
    Case(view_minus_one, [r(4, 3)], op="view"),
    Case(view_0d, [r(())], op="view"),
    Case(view_to_0d, [r(1, 1)], op="view"),
    Case(reshape, [r(2, 4, 2)]),
    Case(reshape_noncontiguous, [r(4, 3).t()], op="reshape"),
    Case(reshape_not_collapse, [r(4, 6)], op="reshape"),
    Case(reshape_runtime, [r(4, 6), 3], op="reshape"),
    Case(reshape_empty, [r(10, 0)], op="reshape"),
    Case(reshape, [bools(4, 4)], name="reshape_bool"),
    Case(flatten, [r(2, 3, 4)], op="flatten.using_ints"),
    Case(flatten_0d, [r(())], op="flatten.using_ints"),
    Case(unflatten, [r(3, 8)], op="unflatten.int"),
    Case(squeeze, [r(1, 1, 3, 1)], op="squeeze.dim"),
    Case(unsqueeze, [r(2, 3)]),
    Case(unsqueeze_0d, [r(())], op="unsqueeze"),
    Case(inplace_reshapes, [r(1, 3)], op="unsqueeze_"),
    Case(view_as, [r(6), r(2, 3)], op="view_as"),
    Case(permute, [r(2, 3, 4)]),
    Case(permute, [r(3, 4, 2).transpose(0, 2)], name="permute_noncontiguous"),
    Case(transpose, [r(2, 3, 4)], op="transpose.int"),
    Case(transpose, [ints(2, 3, 4)], name="transpose_i64", op="transpose.int"),
    Case(t, [r(3, 5)]),
    Case(t_1d, [r(4)], op="t"),
    Case(movedim, [r(2, 3, 4)], op="movedim.int"),
    Case(swapaxes, [r(2, 3, 4)]),
    Case(expand, [r(2, 1, 4)]),
    Case(expand_leading, [r(2, 4)], op="expand"),
    Case(expand_0d, [r(())], op="expand"),
    Case(expand_as, [r(3, 1), r(2, 3, 4)]),
    Case(expand, [bools(2, 1, 4)], name="expand_bool"),
    Case(copies, [r(3, 4).t()], op="contiguous"),
    Case(slices, [r(4, 5)], op="slice.Tensor"),
    Case(slices, [ints(4, 5)], name="slices_i64", op="slice.Tensor"),
    Case(slice_clamped, [r(4, 5)], op="slice.Tensor"),
    Case(slices_of_zero_rows, [r(3, 4)], op="select.int"),
    Case(slice_step, [r(7, 5)], op="slice.Tensor"),
    Case(slice_runtime, [r(6, 5), 1, -2], op="slice.Tensor"),
    Case(slice_runtime, [r(6, 5), -9, 100], name="slice_runtime_clamped",
         op="slice.Tensor"),
    Case(select, [r(3, 4, 5)], op="select.int"),
    Case(select_runtime, [r(4, 5), -2], op="select.int"),
    Case(narrow, [r(4, 5)]),
    Case(flip, [r(3, 4)]),
    Case(flip, [ints(2, 3)], name="flip_i64"),
    Case(roll, [r(3, 4)]),
    Case(roll_dims, [r(3, 4, 5)], op="roll"),
    Case(repeat, [r(2, 3)]),
    Case(repeat_0d, [r(())], op="repeat"),
    Case(repeat_interleave_int, [r(2, 3, 4)],
         op="repeat_interleave.self_int"),
    Case(tile, [r(3, 4)]),
    Case(chain, [r(24)], op="view"),
    # No typed op: tsir-decompose makes them reshapes and a permute.
    Case(pixel_shuffle, [r(2, 8, 3, 5)]),
    Case(pixel_shuffle, [r(12, 2, 3)], name="pixel_shuffle_unbatched"),
    Case(pixel_unshuffle, [r(1, 2, 6, 9)]),
    Case(channel_shuffle, [r(2, 6, 4, 3)]),
    Case(channel_shuffle, [r(1, 9, 5)], name="channel_shuffle_1d"),
]
