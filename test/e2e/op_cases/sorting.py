"""sorting.py - generated end-to-end cases for the Sorting family: sort
(ascending, descending, stable, on any dim), argsort and topk (largest and
smallest, sorted or not, k of 1 to the whole dim) on f32, int64 and bool,
with NaN (which torch sorts as the largest value) and ties. The cases
unpack the (values, indices) pair (named_tuples_enums.py returns it whole,
as a NamedTuple). Ties keep their
input order, as torch's CPU sort does; the topk cases with ties are checked
through sorted values only, since torch does not promise which of equal
values topk returns."""

import torch

from op_case import Case

torch.manual_seed(0)


def sort(x):
    values, indices = torch.sort(x)
    return values, indices


def sort_descending(x):
    values, indices = torch.sort(x, descending=True)
    return values, indices


def sort_dim0(x):
    values, indices = torch.sort(x, 0)
    return values, indices


def sort_stable(x):
    values, indices = torch.sort(x, dim=-1, stable=True)
    return values, indices


def sort_stable_descending(x):
    values, indices = torch.sort(x, dim=1, descending=True, stable=True)
    return values, indices


def argsort(x):
    return torch.argsort(x)


def argsort_descending(x):
    return torch.argsort(x, dim=0, descending=True)


def topk_largest(x):
    values, indices = torch.topk(x, 3)
    return values, indices


def topk_smallest(x):
    values, indices = torch.topk(x, 2, largest=False)
    return values, indices


def topk_dim0(x):
    values, indices = torch.topk(x, 2, dim=0)
    return values, indices


def topk_one(x):
    values, indices = x.topk(1, -1)
    return values, indices


def topk_all(x):
    values, indices = x.topk(5, 1)
    return values, indices


def topk_unsorted(x):
    values, indices = torch.topk(x, 3, sorted=False)
    order = torch.argsort(values, dim=-1, descending=True)
    return torch.gather(values, -1, order), torch.gather(indices, -1, order)


def topk_values_only(x):
    return torch.topk(x, 3)[0]


def sort_scalar(x):
    values, indices = torch.sort(x, 0)
    return values, indices


def with_nan(x):
    y = x.clone()
    y[1] = float("nan")
    y[4] = float("nan")
    return y


ties_f = torch.tensor([[3., 1., 3., 2., 1., 3., 0.],
                       [5., 5., 5., 5., 5., 5., 5.],
                       [2., -1., 2., -1., 7., 7., 2.]])
ties_i = torch.tensor([[4, 2, 4, 2, 9, 0, 4], [1, 1, 0, 0, 1, 1, 0]])
nan_row = torch.tensor([[1.5, float("nan"), -2., float("nan"), 0.25, 3.,
                         float("-inf"), float("inf")]])

CASES = [
    Case(sort, [torch.randn(3, 7)]),
    Case(sort, [torch.randn(2, 3, 5)], name="sort_3d"),
    Case(sort, [torch.randint(-20, 20, (4, 9))], name="sort_int"),
    Case(sort, [torch.randint(0, 2, (3, 5)).bool()], name="sort_bool"),
    Case(sort, [nan_row], name="sort_nan"),
    Case(sort, [ties_f], name="sort_ties"),
    Case(sort, [ties_i], name="sort_ties_int"),
    Case(sort_descending, [torch.randn(5, 6)]),
    Case(sort_descending, [nan_row], name="sort_descending_nan"),
    Case(sort_descending, [ties_f], name="sort_descending_ties"),
    Case(sort_dim0, [torch.randn(5, 3)]),
    Case(sort_stable, [ties_f]),
    Case(sort_stable_descending, [ties_i]),
    Case(sort_scalar, [torch.tensor(2.5)]),
    Case(argsort, [torch.randn(4, 7)]),
    Case(argsort, [torch.randint(-5, 5, (3, 8))], name="argsort_int"),
    Case(argsort_descending, [torch.randn(6, 3)]),
    Case(topk_largest, [torch.randn(4, 9)]),
    Case(topk_largest, [torch.randint(-50, 50, (3, 11))],
         name="topk_largest_int"),
    Case(topk_largest, [nan_row], name="topk_largest_nan"),
    Case(topk_smallest, [torch.randn(3, 7)]),
    Case(topk_smallest, [nan_row], name="topk_smallest_nan"),
    Case(topk_dim0, [torch.randn(5, 4)]),
    Case(topk_one, [torch.randn(2, 3, 6)]),
    Case(topk_all, [torch.randn(3, 5)]),
    Case(topk_unsorted, [torch.randn(4, 8)]),
    Case(topk_values_only, [ties_f], name="topk_ties_values"),
    # Longer than compiled code ranks (1,024): the runtime kernels sort.
    # Last, so that the cases above draw the same inputs.
    Case(argsort_descending, [torch.randperm(2 * 1500).float().reshape(2, 1500)],
         name="argsort_long"),
    Case(topk_largest, [torch.randperm(2 * 1500).float().reshape(2, 1500)],
         name="topk_long"),
]
