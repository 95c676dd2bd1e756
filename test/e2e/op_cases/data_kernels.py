"""data_kernels.py - generated end-to-end cases for the runtime kernels of
ops whose output shape depends on the data, or that have no compiled form:
masked_select, argwhere, unique (sorted, with inverse and counts),
unique_consecutive, searchsorted, bucketize, histc, histogram, isin,
count_nonzero, scatter_reduce (every reduction, with and without self),
index_reduce/add/copy/fill, take, put, take_along_dim, masked_scatter,
median/nanmedian (whole tensor and along a dim, ties and NaN), mode,
kthvalue, quantile/nanquantile, cummax/cummin, cumprod, logcumsumexp, diff,
trapezoid, cumulative_trapezoid, combinations, cartesian_prod,
repeat_interleave, and the random multinomial and normal (shape only).
Multi-result ops are unpacked (named_tuples_enums.py returns such a named
tuple whole)."""

from typing import List

import torch

from op_case import Case

torch.manual_seed(0)


def masked_select(x, mask):
    return torch.masked_select(x, mask)


def argwhere(x):
    return torch.argwhere(x)


def unique_all(x):
    values, inverse, counts = torch._unique2(x, True, True, True)
    return values, inverse, counts


def unique_consecutive(x):
    values, inverse, counts = torch.unique_consecutive(
        x, return_inverse=True, return_counts=True)
    return values, inverse, counts


def unique_consecutive_dim(x):
    values, inverse, counts = torch.unique_consecutive(
        x, return_inverse=True, return_counts=True, dim=0)
    return values, inverse, counts


def searchsorted(seq, x):
    return torch.searchsorted(seq, x), torch.searchsorted(seq, x, right=True)


def bucketize(x, boundaries):
    return torch.bucketize(x, boundaries, right=True, out_int32=True)


def histc(x):
    return torch.histc(x, bins=7, min=-2.0, max=2.0)


def histc_auto(x):
    return torch.histc(x, bins=5)


def histogram(x):
    hist, edges = torch.histogram(x, bins=6)
    return hist, edges


def histogram_edges(x, edges):
    hist, out_edges = torch.histogram(x, edges, density=True)
    return hist, out_edges


def isin(x, y):
    return torch.isin(x, y), torch.isin(x, y, invert=True)


def count_nonzero(x):
    return torch.count_nonzero(x), torch.count_nonzero(x, dim=1)


def scatter_reduce_sum(x, index, src, include_self: bool):
    return torch.scatter_reduce(x, 1, index, src, "sum",
                                include_self=include_self)


def scatter_reduce_prod(x, index, src, include_self: bool):
    return torch.scatter_reduce(x, 1, index, src, "prod",
                                include_self=include_self)


def scatter_reduce_mean(x, index, src, include_self: bool):
    return torch.scatter_reduce(x, 1, index, src, "mean",
                                include_self=include_self)


def scatter_reduce_amax(x, index, src, include_self: bool):
    return torch.scatter_reduce(x, 1, index, src, "amax",
                                include_self=include_self)


def scatter_reduce_amin(x, index, src, include_self: bool):
    return torch.scatter_reduce(x, 1, index, src, "amin",
                                include_self=include_self)


def index_reduce_prod(x, index, src, include_self: bool):
    return x.index_reduce(0, index, src, "prod", include_self=include_self)


def index_reduce_mean(x, index, src, include_self: bool):
    return x.index_reduce(0, index, src, "mean", include_self=include_self)


def index_reduce_amax(x, index, src, include_self: bool):
    return x.index_reduce(0, index, src, "amax", include_self=include_self)


def index_reduce_amin(x, index, src, include_self: bool):
    return x.index_reduce(0, index, src, "amin", include_self=include_self)



def index_add(x, index, src):
    return torch.index_add(x, 1, index, src, alpha=2.0)


def index_copy(x, index, src):
    return torch.index_copy(x, 0, index, src)


def index_fill(x, index):
    return torch.index_fill(x, 1, index, -1.5)


def take(x, index):
    return torch.take(x, index)


def put(x, index, src):
    return x.put(index, src), x.put(index, src, accumulate=True)


def take_along_dim(x, index):
    return torch.take_along_dim(x, index, dim=1)


def masked_scatter(x, mask, src):
    return x.masked_scatter(mask, src)


def median_all(x):
    return torch.median(x), torch.nanmedian(x)


def median_dim(x):
    values, indices = torch.median(x, 1)
    nan_values, nan_indices = torch.nanmedian(x, 1, keepdim=True)
    return values, indices, nan_values, nan_indices


def mode(x):
    values, indices = torch.mode(x, 1)
    return values, indices


def kthvalue(x):
    values, indices = torch.kthvalue(x, 3, 1)
    return values, indices


def quantile(x, q):
    return (torch.quantile(x, q, dim=1, keepdim=True),
            torch.quantile(x, 0.3, interpolation="nearest"),
            torch.nanquantile(x, q, dim=0, interpolation="midpoint"))


def cummax_cummin(x):
    a, i = torch.cummax(x, 1)
    b, j = torch.cummin(x, 0)
    return a, i, b, j


def cumprod(x):
    return torch.cumprod(x, 1)


def logcumsumexp(x):
    return torch.logcumsumexp(x, 0)


def diff(x, pre):
    return torch.diff(x, n=2, dim=1, prepend=pre)


def trapezoid(y, x):
    return torch.trapezoid(y, x, dim=1), torch.cumulative_trapezoid(y, dx=0.5)


def combinations(x):
    return torch.combinations(x, 3), torch.combinations(x, 2, True)


def cartesian_prod(a, b):
    return torch.cartesian_prod(a, b)


def repeat_interleave(x, repeats):
    return (torch.repeat_interleave(x, repeats, dim=0),
            torch.repeat_interleave(x, 2), torch.repeat_interleave(repeats))


def multinomial(p):
    return torch.multinomial(p, 3), torch.multinomial(p, 5, True)


def normal(mean, std):
    return torch.normal(mean, std), torch.normal(mean, 2.0)


r = torch.randn
ties = torch.tensor([[2., 1., 2., 3., 1., 2.], [5., 5., 4., 4., float("nan"), 1.],
                     [0., 0., 0., 1., 1., 1.]])
runs = torch.tensor([1., 1., 2., 2., 2., 3., 1., 1.])
rows = torch.tensor([[1., 2.], [1., 2.], [3., 4.], [1., 2.]])
index_2d = torch.tensor([[0, 2, 0, 1], [3, 3, 3, 0]])

CASES = [
    Case(masked_select, [r(3, 4), r(3, 4) > 0]),
    Case(masked_select, [r(3, 4), torch.tensor([True, False, False, True])],
         name="masked_select_broadcast"),
    Case(argwhere, [torch.tensor([[0., 1.5], [float("nan"), 0.]])]),
    Case(unique_all, [torch.randint(0, 5, (3, 4)).float()], op="_unique2"),
    Case(unique_consecutive, [runs]),
    Case(unique_consecutive_dim, [rows], op="unique_consecutive"),
    Case(searchsorted, [torch.tensor([1., 2., 2., 3., 5.]), r(2, 3) * 3]),
    Case(searchsorted, [torch.sort(r(2, 5))[0], r(2, 3)], name="searchsorted_nd"),
    Case(bucketize, [r(3, 4), torch.tensor([-1., 0., 0.5, 1.])]),
    Case(histc, [r(50)]),
    Case(histc_auto, [r(4, 5)], op="histc"),
    Case(histogram, [r(40)]),
    Case(histogram_edges, [r(40), torch.tensor([-2., -0.5, 0., 1., 3.])],
         op="histogram"),
    Case(isin, [torch.randint(0, 6, (3, 4)).float(), torch.tensor([1., 3., 4.])]),
    Case(count_nonzero, [torch.randint(0, 2, (3, 4)).float()]),
    *[Case(fn, [r(2, 4), index_2d, r(2, 4), include_self],
           name=f"{fn.__name__}_{include_self}", op="scatter_reduce.two")
      for fn in [scatter_reduce_sum, scatter_reduce_prod, scatter_reduce_mean,
                 scatter_reduce_amax, scatter_reduce_amin]
      for include_self in [True, False]],
    Case(scatter_reduce_mean, [torch.randint(0, 9, (2, 4)), index_2d,
                               torch.randint(0, 9, (2, 4)), True],
         name="scatter_reduce_mean_int", op="scatter_reduce.two"),
    *[Case(fn, [r(4, 3), torch.tensor([0, 2, 0, 3, 2]), r(5, 3), include_self],
           name=f"{fn.__name__}_{include_self}", op="index_reduce")
      for fn in [index_reduce_prod, index_reduce_mean, index_reduce_amax,
                 index_reduce_amin]
      for include_self in [True, False]],
    Case(index_add, [r(3, 5), torch.tensor([4, 0, 4]), r(3, 3)]),
    Case(index_copy, [r(5, 2), torch.tensor([4, 0, 2]), r(3, 2)]),
    Case(index_fill, [r(3, 5), torch.tensor([-1, 0])], op="index_fill.int_Scalar"),
    Case(take, [r(3, 4), torch.tensor([[0, -1], [5, 11]])]),
    Case(put, [r(3, 4), torch.tensor([1, -2, 1]), r(3)]),
    Case(take_along_dim, [r(3, 4), torch.tensor([[3], [0], [1]])]),
    Case(masked_scatter, [r(3, 4), r(3, 4) > 0, r(12)]),
    Case(median_all, [r(5, 4)], op="median"),
    Case(median_all, [torch.tensor([1., float("nan"), 3.])], name="median_all_nan",
         op="median"),
    Case(median_dim, [ties], op="median.dim"),
    Case(mode, [ties]),
    Case(kthvalue, [ties]),
    Case(kthvalue, [r(4, 7)], name="kthvalue_random"),
    Case(quantile, [ties, torch.tensor([0.0, 0.25, 0.5, 1.0])]),
    Case(cummax_cummin, [torch.tensor([[1., 3., 3., float("nan"), 2.],
                                       [0., -1., -1., 4., 4.]])], op="cummax"),
    Case(cumprod, [r(3, 4)]),
    Case(cumprod, [torch.randint(-3, 4, (3, 4))], name="cumprod_int"),
    Case(logcumsumexp, [r(4, 3)]),
    Case(diff, [r(3, 5), r(3, 1)]),
    Case(trapezoid, [r(3, 4), torch.tensor([0., 1., 3., 3.5])]),
    Case(combinations, [torch.tensor([1., 2., 3., 4.])]),
    Case(cartesian_prod, [torch.tensor([1, 2]), torch.tensor([3, 4, 5])]),
    Case(repeat_interleave, [r(3, 2), torch.tensor([2, 0, 1])],
         op="repeat_interleave.self_Tensor"),
    Case(multinomial, [torch.rand(2, 6) + 0.1], check="shape"),
    Case(normal, [r(3, 4), torch.rand(3, 4)], op="normal.Tensor_Tensor",
         check="shape"),
]
