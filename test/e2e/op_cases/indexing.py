"""indexing.py - generated end-to-end cases for the Indexing family:
index_select, gather, embedding, scatter (src and value), scatter_add,
advanced indexing (index.Tensor) with one or more index tensors, None
dims, negative indices and broadcasting, and index_put with and without
accumulation (index_put_ made functional)."""

from typing import List, Optional

import torch
import torch.nn.functional as F

from op_case import Case

torch.manual_seed(0)


def r(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


def index_select(x, i):
    return torch.index_select(x, 0, i), torch.index_select(x, -1, i)


def index_select_0d(x, i):
    return torch.index_select(x, 1, i)


def gather(x, i):
    return torch.gather(x, 1, i)


def gather_dim0(x, i):
    return torch.gather(x, 0, i)


def embedding(w, i):
    return F.embedding(i, w)


def embedding_padding(w, i):
    return F.embedding(i, w, padding_idx=0)


def scatter(x, i, s):
    return torch.scatter(x, 1, i, s)


def scatter_value(x, i):
    return torch.scatter(x, 0, i, 2.5)


def scatter_add(x, i, s):
    return torch.scatter_add(x, 1, i, s)


def index_one(x, i):
    return x[i]


def index_second(x, i):
    return x[:, i]


def index_two(x, i, j):
    return x[i, j]


def index_split(x, i, j):
    return x[i, :, j]


def index_broadcast(x, i, j):
    return x[i, j]


def index_put(x, i, v):
    y = x.clone()
    y[i] = v
    return y


def index_put_accumulate(x, i, j, v):
    return torch.index_put(x, [i, j], v, accumulate=True)


def index_put_scalar(x, i):
    y = x.clone()
    y[:, i] = 0.0
    return y


def index_put_functional(x, i, v):
    return x.index_put([i], v)


perm = torch.tensor([2, 0, 1, 2])
CASES = [
    Case(index_select, [r(3, 3), perm[:3]]),
    Case(index_select, [torch.randint(0, 9, (3, 3)), perm[:3]],
         name="index_select_i64"),
    Case(index_select_0d, [r(2, 4), torch.tensor(3)], op="index_select"),
    Case(gather, [r(3, 4), torch.randint(0, 4, (3, 5))]),
    Case(gather_dim0, [r(3, 4), torch.randint(0, 3, (2, 4))], op="gather"),
    Case(embedding, [r(10, 4), torch.randint(0, 10, (2, 3))]),
    Case(embedding_padding, [r(10, 4), torch.randint(0, 10, (5,))],
         op="embedding"),
    Case(scatter, [r(3, 5), torch.tensor([[0, 1], [2, 3], [4, 0]]),
                   r(3, 2)], op="scatter.src"),
    Case(scatter_value, [r(3, 4), torch.tensor([[2, 0, 1, 2]])],
         op="scatter.value"),
    Case(scatter_add, [r(3, 5), torch.tensor([[0, 0, 1], [4, 4, 4],
                                              [2, 3, 2]]), r(3, 3)]),
    Case(index_one, [r(4, 3), torch.tensor([3, -1, 0])], op="index.Tensor"),
    Case(index_one, [r(4, 3), torch.tensor([[0, 1], [2, 3]])],
         name="index_one_2d", op="index.Tensor"),
    Case(index_second, [r(2, 5, 3), torch.tensor([4, 0])],
         op="index.Tensor"),
    Case(index_two, [r(4, 5, 2), torch.tensor([0, 3]), torch.tensor([4, 1])],
         op="index.Tensor"),
    Case(index_split, [r(4, 2, 5), torch.tensor([0, 3]),
                       torch.tensor([4, 1])], op="index.Tensor"),
    Case(index_broadcast, [r(4, 5), torch.tensor([[0], [3]]),
                           torch.tensor([4, 1, 2])], op="index.Tensor"),
    Case(index_put, [r(5, 3), torch.tensor([4, 0]), r(2, 3)],
         op="index_put_"),
    Case(index_put, [r(5, 3), torch.tensor([1, -1]), r(3)],
         name="index_put_broadcast", op="index_put_"),
    Case(index_put_accumulate, [r(3, 4), torch.tensor([0, 0, 2]),
                                torch.tensor([1, 1, 3]), r(3)],
         op="index_put"),
    Case(index_put_scalar, [r(3, 4), torch.tensor([0, 2])], op="index_put_"),
    Case(index_put_functional, [torch.randint(0, 9, (4, 2)),
                                torch.tensor([3]),
                                torch.randint(0, 9, (1, 2))],
         op="index_put"),
]
