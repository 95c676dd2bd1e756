"""pooling.py - generated end-to-end cases for the Pooling family:
max_pool1d/2d (stride, padding, dilation, ceil_mode), avg_pool1d/2d
(count_include_pad, divisor_override, ceil_mode), adaptive_avg_pool1d/2d/3d
with even and uneven windows (and global ones over 28x28, one also
transposed), adaptive_max_pool2d with its indices, and
unbatched inputs."""

import torch
import torch.nn.functional as F

from op_case import Case

torch.manual_seed(0)


def max_pool2d(x):
    return F.max_pool2d(x, 3, 2, 1)


def max_pool2d_default_stride(x):
    return F.max_pool2d(x, 2)


def max_pool2d_ceil(x):
    return F.max_pool2d(x, kernel_size=3, stride=2, padding=1,
                        ceil_mode=True)


def max_pool2d_dilation(x):
    return F.max_pool2d(x, kernel_size=(2, 3), stride=(1, 2),
                        padding=(1, 0), dilation=(2, 1), ceil_mode=True)


def max_pool1d(x):
    return F.max_pool1d(x, 3, 2, 1, ceil_mode=True)


def max_pool1d_dilation(x):
    return F.max_pool1d(x, kernel_size=2, stride=3, dilation=3)


def avg_pool2d(x):
    return F.avg_pool2d(x, 3, 2, 1)


def avg_pool2d_exclude_pad(x):
    return F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False)


def avg_pool2d_ceil_include_pad(x):
    return F.avg_pool2d(x, (3, 2), (2, 2), (1, 1), ceil_mode=True)


def avg_pool2d_divisor(x):
    return F.avg_pool2d(x, 2, 1, 1, divisor_override=3)


def avg_pool1d(x):
    return F.avg_pool1d(x, 4, 3, 2, ceil_mode=True, count_include_pad=False)


def avg_pool1d_default(x):
    return F.avg_pool1d(x, 3)


def adaptive_avg_pool2d_global(x):
    return F.adaptive_avg_pool2d(x, (1, 1))


def max_pool2d_global(x):
    return F.max_pool2d(x, 7)


def adaptive_avg_pool2d(x):
    return F.adaptive_avg_pool2d(x, [3, 2])


def adaptive_avg_pool2d_uneven(x):
    return F.adaptive_avg_pool2d(x, [3, 4])


def adaptive_avg_pool3d(x):
    return F.adaptive_avg_pool3d(x, (1, 2, 3))


def adaptive_avg_pool3d_global(x):
    return F.adaptive_avg_pool3d(x, 1)


def adaptive_avg_pool1d(x):
    return F.adaptive_avg_pool1d(x, 4)


def adaptive_max_pool2d(x):
    return F.adaptive_max_pool2d(x, (3, 4), return_indices=True)


def adaptive_max_pool2d_values(x):
    return F.adaptive_max_pool2d(x, 2)


def r(*shape, dtype=torch.float32):
    return torch.randn(*shape, dtype=dtype)


with_nan = r(1, 2, 5, 6)
with_nan[0, 1, 2, 3] = float("nan")

CASES = [
    Case(max_pool2d, [r(2, 3, 9, 9)]),
    Case(max_pool2d, [r(1, 2, 8, 7, dtype=torch.float64)],
         name="max_pool2d_f64"),
    Case(max_pool2d, [r(3, 8, 7)], name="max_pool2d_unbatched"),
    Case(max_pool2d_default_stride, [r(1, 2, 7, 6)], op="max_pool2d"),
    Case(max_pool2d_ceil, [r(1, 2, 8, 10)], op="max_pool2d"),
    Case(max_pool2d_dilation, [r(1, 2, 9, 8)], op="max_pool2d"),
    Case(max_pool2d, [-torch.rand(1, 1, 4, 4) - 1.0],
         name="max_pool2d_negative"),
    Case(max_pool2d, [with_nan], name="max_pool2d_nan"),
    Case(max_pool1d, [r(2, 3, 10)]),
    Case(max_pool1d_dilation, [r(1, 2, 13)], op="max_pool1d"),
    Case(avg_pool2d, [r(2, 3, 9, 8)]),
    Case(avg_pool2d_exclude_pad, [r(1, 2, 8, 10)], op="avg_pool2d"),
    Case(avg_pool2d_ceil_include_pad, [r(1, 2, 8, 7)], op="avg_pool2d"),
    Case(avg_pool2d_divisor, [r(1, 2, 5, 4)], op="avg_pool2d"),
    Case(avg_pool2d, [r(2, 7, 6, dtype=torch.float64)],
         name="avg_pool2d_unbatched_f64"),
    Case(avg_pool1d, [r(2, 3, 11)]),
    Case(avg_pool1d_default, [r(1, 2, 10)], op="avg_pool1d"),
    Case(adaptive_avg_pool2d_global, [r(2, 8, 7, 7)],
         op="adaptive_avg_pool2d"),
    # Squeeze-excitation's pools: one row of H*W per channel
    # (tsir-cpu-window-loop-order makes a global window a plain reduction).
    Case(adaptive_avg_pool2d_global, [r(2, 72, 28, 28)],
         op="adaptive_avg_pool2d", name="adaptive_avg_pool2d_global_28"),
    Case(adaptive_avg_pool2d_global, [r(1, 40, 28, 28).transpose(2, 3)],
         op="adaptive_avg_pool2d",
         name="adaptive_avg_pool2d_global_transposed"),
    Case(max_pool2d_global, [r(1, 16, 7, 7)], op="max_pool2d"),
    Case(adaptive_avg_pool2d, [r(1, 3, 9, 8)]),
    Case(adaptive_avg_pool2d_uneven, [r(1, 3, 7, 10)],
         op="adaptive_avg_pool2d"),
    Case(adaptive_avg_pool2d_uneven, [r(3, 2, 3)],
         name="adaptive_avg_pool2d_upsample_unbatched",
         op="adaptive_avg_pool2d"),
    Case(adaptive_avg_pool1d, [r(2, 3, 10)]),
    Case(adaptive_avg_pool3d, [r(2, 3, 4, 5, 7)]),
    Case(adaptive_avg_pool3d, [r(3, 4, 4, 6)], name="adaptive_avg_pool3d_unbatched"),
    Case(adaptive_avg_pool3d_global, [r(1, 4, 2, 7, 7)], op="adaptive_avg_pool3d"),
    Case(adaptive_avg_pool1d, [r(2, 3, 12, dtype=torch.float64)],
         name="adaptive_avg_pool1d_even_f64"),
    Case(adaptive_max_pool2d, [r(2, 3, 7, 10)]),
    Case(adaptive_max_pool2d, [with_nan], name="adaptive_max_pool2d_nan"),
    Case(adaptive_max_pool2d_values, [r(3, 6, 5)],
         name="adaptive_max_pool2d_unbatched"),
]
