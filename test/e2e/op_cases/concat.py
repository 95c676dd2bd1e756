"""concat.py - generated end-to-end cases for the Concat family: cat (with
negative dims, mixed dtypes, skipped 1-D empty tensors), stack, and the
list-producing chunk, split (by size and by sizes), split_with_sizes and
unbind whose lists are unpacked or indexed with constants, as the LSTM
cell's gates are."""

from typing import List

import torch

from op_case import Case

torch.manual_seed(0)


def r(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


def cat(a, b):
    return torch.cat([a, b]), torch.cat([a, b, a], 1), torch.cat([b, a], -1)


def cat_one(a):
    return torch.cat([a], 0)


def cat_promote(a, b):
    return torch.cat([a, b], 0)


def cat_skip_empty(a, e):
    return torch.cat([e, a, e], 1)


def cat_empty_part(a, e):
    return torch.cat([a, e], 0)


def stack(a, b):
    return torch.stack([a, b]), torch.stack([a, b, a], 1), \
        torch.stack([a, b], -1)


def stack_0d(a, b):
    return torch.stack([a, b])


def chunk(x):
    a, b = torch.chunk(x, 2, 1)
    return a * 2 + b


def chunk_uneven(x):
    a, b, c = x.chunk(3, 0)
    return a, b, c


def chunk_fewer(x):
    # 5 rows in chunks of 2: only three pieces.
    return x.chunk(3, 0)[2], x.chunk(3, 0)[-1]


def lstm_gates(x, w, h, c):
    gates = torch.mm(x, w)
    i, f, g, o = gates.chunk(4, 1)
    c2 = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c2), c2


def split(x):
    a, b, c = torch.split(x, 2, -1)
    return a, b, c


def split_sizes(x):
    a, b = torch.split(x, [1, 3], 0)
    return a, b


def split_with_sizes(x):
    a, b, c = x.split_with_sizes([2, 0, 3], 1)
    return a, b, c


def unbind(x):
    a, b, c = torch.unbind(x, 1)
    return a + b + c


def unbind_index(x):
    return torch.unbind(x)[0], torch.unbind(x)[-1]


CASES = [
    Case(cat, [r(2, 3), r(2, 3)]),
    Case(cat, [torch.randint(0, 9, (2, 3)), torch.randint(0, 9, (2, 3))],
         name="cat_i64"),
    Case(cat_one, [r(2, 3)], op="cat"),
    Case(cat_promote, [r(2, 3), torch.randint(0, 9, (1, 3))], op="cat"),
    Case(cat_skip_empty, [r(2, 3), torch.zeros(0)], op="cat"),
    Case(cat_empty_part, [r(2, 3), r(0, 3)], op="cat"),
    Case(stack, [r(2, 3), r(2, 3)]),
    Case(stack_0d, [r(()), r(())], op="stack"),
    Case(chunk, [r(3, 8)]),
    Case(chunk_uneven, [r(7, 2)], op="chunk"),
    Case(chunk_fewer, [r(5, 2)], op="chunk"),
    Case(lstm_gates, [r(2, 3), r(3, 16), r(2, 4), r(2, 4)], op="chunk"),
    Case(split, [r(2, 5)], op="split.Tensor"),
    Case(split_sizes, [r(4, 2)], op="split.sizes"),
    Case(split_with_sizes, [r(2, 5)]),
    Case(unbind, [r(2, 3, 4)], op="unbind.int"),
    Case(unbind_index, [r(3, 2)], op="unbind.int"),
]
