"""reduction.py - generated end-to-end cases for the Reduction family: sum,
mean, prod (all elements, over dims, with keepdim and dtype), amax/amin,
max/min (all elements and .dim with indices), argmax/argmin, any/all,
var/std, norm, logsumexp, cumsum, softmax and log_softmax, over several
dtypes, 0-d, empty and non-contiguous inputs."""

import torch
import torch.nn.functional as F
from typing import List

from op_case import Case

torch.manual_seed(0)


def randn(*shape):
    return torch.randn(*shape)


def ints(*shape, low=-10, high=10, dtype=torch.int64):
    return torch.randint(low, high, shape, dtype=dtype)


def with_nan(*shape):
    x = torch.randn(*shape).flatten()
    x[3] = float("nan")
    return x.reshape(shape)


def sum_all(x):
    return torch.sum(x)


def sum_dim(x):
    return torch.sum(x, 1)


def sum_dims_keepdim(x):
    return torch.sum(x, [0, -1], keepdim=True)


def sum_dtype(x):
    return torch.sum(x, dtype=torch.float64)


def sum_dim_dtype(x):
    return torch.sum(x, [1], dtype=torch.float32)


def sum_empty_list(x):
    dims: List[int] = []
    return torch.sum(x, dims)


def mean_all(x):
    return torch.mean(x)


def mean_dim(x):
    return torch.mean(x, -1)


def mean_dims_keepdim(x):
    return torch.mean(x, [0, 2], keepdim=True)


def mean_dtype(x):
    return torch.mean(x, [1], dtype=torch.float32)


def prod_all(x):
    return torch.prod(x)


def prod_dim(x):
    return torch.prod(x, 1, keepdim=True)


def amax(x):
    return torch.amax(x, [0, 2])


def amin_keepdim(x):
    return torch.amin(x, 1, keepdim=True)


def max_all(x):
    return torch.max(x)


def min_all(x):
    return torch.min(x)


def max_dim(x):
    values, indices = torch.max(x, 1)
    return values, indices


def min_dim_keepdim(x):
    values, indices = torch.min(x, -1, keepdim=True)
    return values, indices


def argmax(x):
    return torch.argmax(x, 1)


def argmax_flat(x):
    return torch.argmax(x)


def argmax_flat_keepdim(x):
    return torch.argmax(x, None, True)


def argmin_keepdim(x):
    return torch.argmin(x, 0, keepdim=True)


def any_all(x):
    return torch.any(x)


def any_dim(x):
    return torch.any(x, 1)


def all_all(x):
    return torch.all(x)


def all_dim_keepdim(x):
    return torch.all(x, 0, keepdim=True)


def var_all(x):
    return torch.var(x)


def var_biased(x):
    return torch.var(x, unbiased=False)


def var_dim(x):
    return torch.var(x, [1], unbiased=True, keepdim=True)


def std_all(x):
    return torch.std(x)


def std_dim(x):
    return torch.std(x, [0, 2], False)


# correction= is aten::var.correction / std.correction (None means 1).
def var_correction(x):
    return torch.var(x, 1, correction=2)


def std_correction_whole(x):
    return torch.std(x, None, correction=0, keepdim=True)


# Tensor.norm is aten::norm.Scalar; torch.norm is a Python function that
# TorchScript calls as such.
def norm_2(x):
    return x.norm()


def norm_1(x):
    return x.norm(1)


def norm_3(x):
    return x.norm(3)


def norm_0(x):
    return x.norm(0)


def norm_inf(x):
    return x.norm(float("inf"))


def logsumexp(x):
    return torch.logsumexp(x, [1])


def logsumexp_keepdim(x):
    return torch.logsumexp(x, [0, 1], keepdim=True)


def cumsum(x):
    return torch.cumsum(x, 1)


def cumsum_dtype(x):
    return torch.cumsum(x, 0, dtype=torch.float64)


def softmax(x):
    return torch.softmax(x, -1)


def softmax_dim0(x):
    return F.softmax(x, 0)


def softmax_dtype(x):
    return torch.softmax(x, 1, dtype=torch.float64)


def private_softmax(x):
    return torch._softmax(x, 1, False)


def log_softmax(x):
    return torch.log_softmax(x, -1)


def log_softmax_dtype(x):
    return F.log_softmax(x, 1, dtype=torch.float64)


def attention_scores(q, k):
    return torch.softmax(torch.matmul(q, k.transpose(-2, -1)) / 8.0, -1)


CASES = [
    Case(sum_all, [randn(3, 4)]),
    Case(sum_all, [ints(3, 4, dtype=torch.int32)], name="sum_all_int32"),
    Case(sum_all, [randn(5) > 0], name="sum_all_bool"),
    Case(sum_all, [torch.zeros(0, 3)], name="sum_all_empty"),
    Case(sum_all, [torch.tensor(2.5)], name="sum_all_0d"),
    Case(sum_all, [randn(3, 4).half()], name="sum_all_half", rtol=1e-3, atol=1e-3),
    Case(sum_dim, [randn(2, 3, 4)]),
    Case(sum_dim, [randn(4, 3).t()], name="sum_dim_noncontiguous"),
    Case(sum_dims_keepdim, [randn(2, 3, 4)]),
    Case(sum_dtype, [randn(3, 4)]),
    Case(sum_dim_dtype, [ints(3, 4)]),
    Case(sum_empty_list, [randn(3, 4)]),
    Case(mean_all, [randn(3, 4)]),
    Case(mean_all, [torch.zeros(0)], name="mean_all_empty"),
    Case(mean_dim, [randn(2, 3, 5)]),
    Case(mean_dims_keepdim, [randn(2, 3, 4)]),
    Case(mean_dtype, [ints(3, 4)]),
    Case(prod_all, [torch.rand(3, 4) + 0.5]),
    Case(prod_all, [ints(5, low=1, high=4)], name="prod_all_int"),
    Case(prod_dim, [torch.rand(3, 4) + 0.5]),
    Case(prod_dim, [torch.zeros(3, 0)], name="prod_dim_empty"),
    Case(amax, [randn(2, 3, 4)]),
    Case(amax, [ints(2, 3, 4)], name="amax_int"),
    Case(amin_keepdim, [randn(3, 4)]),
    Case(max_all, [randn(3, 4)]),
    Case(max_all, [with_nan(3, 4)], name="max_all_nan"),
    Case(max_all, [ints(7, low=0, high=255, dtype=torch.uint8)], name="max_all_uint8"),
    Case(min_all, [randn(3, 4)]),
    Case(min_all, [randn(6) > 0], name="min_all_bool"),
    Case(max_dim, [randn(3, 5)]),
    Case(max_dim, [with_nan(3, 5)], name="max_dim_nan"),
    Case(max_dim, [torch.tensor([[1, 3, 3, 2], [5, 5, 0, 5]])], name="max_dim_ties"),
    Case(min_dim_keepdim, [randn(2, 3, 4)]),
    Case(argmax, [randn(3, 5)]),
    Case(argmax, [ints(3, 5, low=0, high=3)], name="argmax_ties"),
    Case(argmax_flat, [randn(3, 4, 2)]),
    Case(argmax_flat, [torch.tensor(1.0)], name="argmax_0d"),
    Case(argmax_flat_keepdim, [randn(3, 4)]),
    Case(argmin_keepdim, [randn(4, 3)]),
    Case(any_all, [randn(3, 4) > 1.5]),
    Case(any_all, [torch.zeros(3, dtype=torch.bool)], name="any_all_false"),
    Case(any_dim, [ints(3, 4, low=0, high=2)]),
    Case(any_dim, [ints(3, 4, low=0, high=2, dtype=torch.uint8)], name="any_dim_uint8"),
    Case(all_all, [randn(3, 4) > -1.5]),
    Case(all_all, [torch.zeros(0, dtype=torch.bool)], name="all_all_empty"),
    Case(all_dim_keepdim, [randn(3, 4)]),
    Case(var_all, [randn(4, 5)]),
    Case(var_all, [torch.tensor([2.0])], name="var_all_single"),
    Case(var_biased, [randn(4, 5)]),
    Case(var_dim, [randn(3, 6)]),
    Case(std_all, [randn(4, 5)]),
    Case(std_dim, [randn(2, 3, 4)]),
    Case(var_correction, [randn(3, 6)]),
    Case(std_correction_whole, [randn(2, 3, 4)]),
    Case(norm_2, [randn(3, 4)]),
    Case(norm_1, [randn(3, 4)]),
    Case(norm_3, [randn(3, 4)]),
    Case(norm_inf, [randn(3, 4)]),
    Case(norm_0, [torch.tensor([0.0, 1.5, 0.0, -2.0])]),
    Case(logsumexp, [randn(3, 4) * 10]),
    Case(logsumexp, [torch.tensor([[-float("inf"), -float("inf")], [1.0, float("inf")]])],
         name="logsumexp_infinite"),
    Case(logsumexp, [ints(3, 4)], name="logsumexp_int"),
    Case(logsumexp_keepdim, [randn(2, 3, 4)]),
    Case(cumsum, [randn(3, 5)]),
    Case(cumsum, [ints(3, 5, dtype=torch.int32)], name="cumsum_int32"),
    Case(cumsum, [torch.zeros(2, 0)], name="cumsum_empty"),
    Case(cumsum_dtype, [randn(4, 3)]),
    Case(softmax, [randn(3, 7) * 5]),
    Case(softmax, [randn(2, 3, 4, 5)], name="softmax_4d"),
    Case(softmax, [torch.tensor([[1000.0, 0.0], [-1000.0, -999.0]])], name="softmax_large"),
    Case(softmax_dim0, [randn(4, 3)]),
    Case(softmax_dtype, [randn(3, 4)]),
    Case(private_softmax, [randn(3, 4)]),
    Case(log_softmax, [randn(3, 7) * 5]),
    Case(log_softmax, [torch.tensor([[1000.0, 0.0], [-1000.0, -999.0]])],
         name="log_softmax_large"),
    Case(log_softmax_dtype, [randn(3, 4)]),
    Case(attention_scores, [randn(2, 4, 8), randn(2, 4, 8)]),
    # Rows of 16 or more: tsir-cpu-vectorize-reductions keeps 32 lanes
    # (16 for 64-bit types) of partial results and masks the last step.
    # 197 = 6 * 32 + 5 (ViT's tokens); 4096 f32 sums accumulate in f64;
    # 7 x 7 windows collapse into rows of 49.
    Case(softmax, [randn(3, 197)], name="softmax_long_rows"),
    Case(log_softmax, [randn(2, 3, 100)], name="log_softmax_long_rows"),
    Case(logsumexp, [randn(5, 197)], name="logsumexp_long_rows"),
    Case(sum_dim, [randn(3, 4096)], name="sum_dim_long_rows", rtol=1e-5,
         atol=1e-4),
    Case(mean_dims_keepdim, [randn(40, 3, 49)], name="mean_long_rows"),
    Case(prod_dim, [torch.rand(3, 40) + 0.5], name="prod_long_rows"),
    Case(amax, [with_nan(3, 2, 70)], name="amax_long_rows_nan"),
    Case(std_dim, [randn(4, 3, 70)], name="std_long_rows"),
    Case(var_dim, [randn(2, 33, 2).transpose(1, 2)],
         name="var_long_rows_strided_input"),
    Case(sum_dim, [ints(3, 100)], name="sum_long_rows_int64"),
    Case(sum_dim, [ints(3, 100, dtype=torch.int32)],
         name="sum_long_rows_int32"),
    Case(max_dim, [randn(3, 100)], name="max_dim_long_rows"),
    Case(any_dim, [randn(3, 100) > 2.5], name="any_long_rows"),
]
