"""cpu_kernels.py - generated end-to-end cases big enough for the CPU's
GEMM kernels (tsir-cpu-contraction-kernels starts at 32768 multiply-adds),
with sizes chosen to hit every edge: rows that are not a multiple of the
register tile (8, or 4 in the dot kernel), columns that end in a masked
vector, k that is not a multiple of 16 or of the k block (256), blocks of
outputs (64 x 256) with a partial last block, batch and broadcast
dimensions around the product, a weight [n, k] packed transposed for the
broadcast kernel (64 rows or more); convolutions through im2col (strides,
dilation, padding, 1x1) and the window ops whose loops are reordered
(tsir-cpu-window-loop-order); grouped convolutions as one product per
group; depthwise convolutions along flattened rows
(tsir-cpu-depthwise-conv-rows: strides, dilation, a channel multiplier,
no padding, no bias, batch 2, rows whose flattened length is not a
multiple of the vector); a convolution with fewer output positions than
a vector (the window-innermost columns of a weight gradient); convolutions
whose columns exceed the 4 MiB budget, tiled over the batch and output
rows or frames first (a prime row count, so one row a tile; a strided
3-d one); a ReLU before a product (tsir-fuse-elementwise must not fuse
it)."""

import torch
import torch.nn.functional as F

from op_case import Case, family

# The products are linear.py's functions, here on the sizes that take the
# CPU kernels' edge, blocked and transposed paths.
_linear = family("linear")
mm, mm_t, bmm, matmul, linear = (_linear.mm, _linear.mm_t, _linear.bmm,
                                 _linear.matmul, _linear.linear)

torch.manual_seed(0)


def relu_mm(a, b):
    return torch.mm(torch.relu(a), b)


def mlp_block(x, w1, b1, w2, b2):
    return F.linear(torch.relu(F.linear(x, w1, b1)), w2, b2)


def conv2d_p1(x, w, b):
    return F.conv2d(x, w, b, padding=1)


def conv2d_s2(x, w, b):
    return F.conv2d(x, w, b, stride=2, padding=3)


def conv2d_dilated(x, w):
    return F.conv2d(x, w, None, padding=2, dilation=2)


def conv2d_1x1(x, w, b):
    return F.conv2d(x, w, b)


def conv2d_1x1_s2(x, w):
    return F.conv2d(x, w, None, stride=2)


def conv_relu_conv(x, w1, w2):
    return F.conv2d(torch.relu(F.conv2d(x, w1, None, padding=1)), w2, None,
                    padding=1)


def depthwise(x, w, b):
    return F.conv2d(x, w, b, stride=2, padding=1, groups=x.size(1))


def depthwise_5x5(x, w, b):
    return F.conv2d(x, w, b, padding=2, groups=x.size(1))


def depthwise_dilated(x, w):
    return F.conv2d(x, w, None, padding=2, dilation=2, groups=x.size(1))


def depthwise_multiplier(x, w, b):
    return F.conv2d(x, w, b, padding=1, groups=x.size(1))


def depthwise_unpadded(x, w):
    return F.conv2d(x, w, None, stride=(1, 2), groups=x.size(1))


def depthwise_relu_chain(x, w1, w2):
    return F.conv2d(torch.relu(F.conv2d(x, w1, None, padding=1,
                                        groups=x.size(1))),
                    w2, None, stride=2, padding=2, groups=x.size(1))


def grouped(x, w, b):
    return F.conv2d(x, w, b, padding=1, groups=4)


def grouped_s2(x, w):
    return F.conv2d(x, w, None, stride=2, padding=1, groups=2)


def grouped_1x1(x, w, b):
    return F.conv2d(x, w, b, groups=8)


def conv2d_few_positions(x, w):
    return F.conv2d(x, w, None, padding=1, stride=(1, 2))


def conv3d_s2(x, w, b):
    return F.conv3d(x, w, b, stride=(1, 2, 2), padding=1)


def max_pool(x):
    return F.max_pool2d(x, 3, 2, 1)


def avg_pool(x):
    return F.avg_pool2d(x, 3, 1)


def r(*shape):
    return torch.randn(*shape)


CASES = [
    Case(mm, [r(37, 83), r(83, 45)], name="mm_edges", op="mm"),
    Case(mm, [r(70, 300), r(300, 290)], name="mm_blocks", op="mm",
         rtol=1e-4, atol=1e-4),
    Case(mm_t, [r(37, 100), r(45, 100)], name="mm_transposed_b", op="mm"),
    # 64 rows or more: B [n, k] is packed transposed, 16 x 16 at a time,
    # for the broadcast kernel (k 50 and 300 end in a partial vector, n 100
    # and 290 in a partial panel, 300 spans two k blocks, 290 two blocks of
    # columns).
    Case(mm_t, [r(97, 50), r(100, 50)], name="mm_transposing_pack", op="mm"),
    Case(linear, [r(2, 131, 300), r(290, 300), r(290)],
         name="linear_transposing_pack", op="linear", rtol=1e-4, atol=1e-4),
    Case(bmm, [r(3, 40, 33), r(3, 33, 70)], name="bmm_kernel", op="bmm"),
    Case(matmul, [r(2, 1, 40, 30), r(3, 30, 50)], name="matmul_broadcast_kernel",
         op="matmul"),
    Case(linear, [r(3, 50, 70), r(33, 70), r(33)], name="linear_3d_kernel",
         op="linear"),
    Case(relu_mm, [r(40, 64), r(64, 48)], op="mm"),
    # Two products of 128 and 96 terms: the sums' order differs from
    # torch's by a few ulp of their larger partial sums.
    Case(mlp_block, [r(16, 128), r(96, 128), r(96), r(40, 96), r(40)],
         op="linear", atol=5e-4),
    Case(conv2d_p1, [r(2, 16, 15, 13), r(24, 16, 3, 3), r(24)],
         op="conv2d"),
    Case(conv2d_s2, [r(1, 3, 31, 29), r(16, 3, 7, 7), r(16)], op="conv2d"),
    Case(conv2d_dilated, [r(1, 8, 17, 19), r(12, 8, 3, 3)], op="conv2d"),
    Case(conv2d_1x1, [r(1, 32, 9, 11), r(40, 32, 1, 1), r(40)],
         op="conv2d"),
    Case(conv2d_1x1_s2, [r(1, 32, 14, 14), r(48, 32, 1, 1)], op="conv2d"),
    Case(conv_relu_conv, [r(1, 8, 12, 12), r(16, 8, 3, 3), r(8, 16, 3, 3)],
         op="conv2d"),
    Case(depthwise, [r(1, 24, 21, 19), r(24, 1, 3, 3), r(24)], op="conv2d"),
    Case(depthwise_5x5, [r(1, 40, 7, 7), r(40, 1, 5, 5), r(40)],
         op="conv2d"),
    Case(depthwise_dilated, [r(2, 12, 13, 11), r(12, 1, 3, 3)],
         op="conv2d"),
    Case(depthwise_multiplier, [r(1, 8, 14, 14), r(24, 1, 3, 3), r(24)],
         op="conv2d"),
    Case(depthwise_unpadded, [r(1, 16, 10, 17), r(16, 1, 3, 3)],
         op="conv2d"),
    Case(depthwise_relu_chain, [r(1, 32, 28, 28), r(32, 1, 3, 3),
                                r(32, 1, 5, 5)], op="conv2d"),
    Case(grouped, [r(1, 64, 14, 14), r(64, 16, 3, 3), r(64)], op="conv2d"),
    Case(grouped_s2, [r(2, 32, 15, 15), r(48, 16, 3, 3)], op="conv2d"),
    Case(grouped_1x1, [r(1, 128, 9, 9), r(64, 16, 1, 1), r(64)],
         op="conv2d"),
    # A 3x2 output of a 12x12 window: the weight gradient's correlation
    # shape, whose columns are laid out window-innermost.
    Case(conv2d_few_positions, [r(2, 8, 12, 14), r(5, 8, 12, 12)],
         op="conv2d"),
    # Columns of 10 MB (2 x 144 x 131*67 floats): one image at a time, and
    # 131 rows (a prime) one row a tile.
    Case(conv2d_p1, [r(2, 16, 131, 67), r(24, 16, 3, 3), r(24)],
         name="conv2d_tiled_columns", op="conv2d", rtol=1e-4, atol=1e-4),
    # Columns of 15 MB (216 x 16*33*33): four frames a tile.
    Case(conv3d_s2, [r(1, 8, 16, 66, 66), r(8, 8, 3, 3, 3), r(8)],
         name="conv3d_tiled_columns", op="conv3d", rtol=1e-4, atol=1e-4),
    Case(max_pool, [r(1, 16, 21, 23)], op="max_pool2d"),
    Case(avg_pool, [r(2, 8, 13, 17)], op="avg_pool2d"),
]
