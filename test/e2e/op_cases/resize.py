"""resize.py - generated end-to-end cases for the Resize family:
upsample_nearest2d.vec and upsample_bilinear2d.vec by output size and by
scale factors (integer, fractional and shrinking), bilinear with and
without align_corners, on odd sizes; grid_sample (bilinear and nearest,
zeros and border padding, with and without align_corners, points inside
and outside the input); affine_grid_generator in 2-d and 3-d, alone and
feeding grid_sample; torch's CPU kernels' index arithmetic
is matched to the float (nearest follows torch's NCHW kernel, which
torch does not take for one channel: the cases have several). Most cases call the ops directly: F.interpolate's
Python body (size lists sliced with aten::slice.t, a branch per rank and
mode) is not folded away by tsir's optimizer yet, which the F.interpolate
cases mark."""

import torch
import torch.nn.functional as F

from op_case import Case

torch.manual_seed(0)


def nearest_scale2(x):
    return torch._C._nn.upsample_nearest2d(x, None, [2.0, 2.0])


def nearest_scale_frac(x):
    return torch._C._nn.upsample_nearest2d(x, None, [1.7, 1.3])


def nearest_scale_pair(x):
    return torch._C._nn.upsample_nearest2d(x, None, [3.0, 0.5])


def nearest_size(x):
    return torch._C._nn.upsample_nearest2d(x, [7, 4], None)


def nearest_size_same(x):
    return torch._C._nn.upsample_nearest2d(x, [3, 5], None)


def nearest_size_shrink(x):
    return torch._C._nn.upsample_nearest2d(x, [4, 3], None)


def bilinear_size(x):
    return torch._C._nn.upsample_bilinear2d(x, [7, 9], False, None)


def bilinear_size_align(x):
    return torch._C._nn.upsample_bilinear2d(x, [7, 9], True, None)


def bilinear_scale(x):
    return torch._C._nn.upsample_bilinear2d(x, None, False, [2.0, 2.0])


def bilinear_segmentation_head(x):
    return torch._C._nn.upsample_bilinear2d(x, [224, 223], False, None)


def bilinear_scale_frac(x):
    return torch._C._nn.upsample_bilinear2d(x, None, False, [1.5, 2.5])


def bilinear_shrink(x):
    return torch._C._nn.upsample_bilinear2d(x, [2, 3], False, None)


def bilinear_shrink_scale(x):
    return torch._C._nn.upsample_bilinear2d(x, None, False, [0.6, 0.45])


def bilinear_shrink_align(x):
    return torch._C._nn.upsample_bilinear2d(x, None, True, [0.6, 0.5])


def bilinear_to_one(x):
    return torch._C._nn.upsample_bilinear2d(x, [1, 4], True, None)


def interpolate_nearest(x):
    return F.interpolate(x, scale_factor=2.0, mode="nearest")


def grid_sample_bilinear(x, grid):
    return (F.grid_sample(x, grid, align_corners=True),
            F.grid_sample(x, grid, align_corners=False))


def grid_sample_border(x, grid):
    return (F.grid_sample(x, grid, padding_mode="border", align_corners=True),
            F.grid_sample(x, grid, padding_mode="border",
                          align_corners=False))


def grid_sample_nearest(x, grid):
    return (F.grid_sample(x, grid, mode="nearest", align_corners=True),
            F.grid_sample(x, grid, mode="nearest", padding_mode="border",
                          align_corners=False))


def affine_grid(theta):
    # A dim of one point is 0, not linspace's -1.
    return (F.affine_grid(theta, [2, 3, 4, 5], align_corners=False),
            F.affine_grid(theta, [2, 3, 1, 5], align_corners=True))


def affine_grid_3d(theta):
    return (torch.affine_grid_generator(theta, [2, 1, 3, 4, 2], False),
            torch.affine_grid_generator(theta, [2, 1, 1, 4, 3], True))


def spatial_transformer(x, theta):
    # A spatial transformer network's sampler: the grid of an affine map
    # of the output's points, then the input read at them.
    grid = F.affine_grid(theta, x.size(), align_corners=False)
    return F.grid_sample(x, grid, align_corners=False)


# Points past the edges (|coordinate| up to 1.3) read zeros or the border.
GRID = torch.rand(2, 4, 6, 2) * 2.6 - 1.3

CASES = [
    Case(nearest_scale2, [torch.randn(1, 2, 3, 5)]),
    Case(nearest_scale_frac, [torch.randn(2, 3, 5, 3)]),
    Case(nearest_scale_pair, [torch.randn(1, 2, 3, 6)]),
    Case(nearest_size, [torch.randn(2, 1, 3, 5)]),
    Case(nearest_size_same, [torch.randn(1, 3, 3, 5)]),
    Case(nearest_size_shrink, [torch.randn(1, 3, 7, 5)]),
    Case(bilinear_size, [torch.randn(1, 2, 3, 5)]),
    Case(bilinear_size_align, [torch.randn(2, 3, 3, 5)]),
    Case(bilinear_scale, [torch.randn(1, 3, 4, 5)]),
    Case(bilinear_scale_frac, [torch.randn(1, 2, 5, 3)]),
    Case(bilinear_shrink, [torch.randn(1, 2, 5, 7)]),
    Case(bilinear_shrink_scale, [torch.randn(1, 2, 5, 9)]),
    Case(bilinear_shrink_align, [torch.randn(1, 2, 5, 7)]),
    Case(bilinear_to_one, [torch.randn(1, 1, 3, 5)]),
    Case(bilinear_size, [torch.randn(1, 2, 3, 5).double()],
         name="bilinear_size_f64"),
    # A segmentation head's upsampling (LRASPP's 28 x 28 to the image): the
    # two passes, rows long enough to vectorize, a width with a remainder.
    Case(bilinear_segmentation_head, [torch.randn(1, 3, 28, 28)]),
    # F.interpolate's rank and mode branches fold once specialization
    # refines and folds to a fixpoint.
    Case(interpolate_nearest, [torch.randn(1, 2, 3, 5)],
         op="upsample_nearest2d.vec"),
    Case(grid_sample_bilinear, [torch.randn(2, 3, 5, 7), GRID],
         op="grid_sampler"),
    Case(grid_sample_border, [torch.randn(2, 3, 5, 7), GRID],
         op="grid_sampler"),
    Case(grid_sample_nearest, [torch.randn(2, 3, 5, 7), GRID],
         op="grid_sampler"),
    Case(affine_grid, [torch.randn(2, 2, 3)], op="affine_grid_generator"),
    Case(affine_grid, [torch.randn(2, 2, 3).double()], name="affine_grid_f64",
         op="affine_grid_generator"),
    Case(affine_grid_3d, [torch.randn(2, 3, 4)], op="affine_grid_generator"),
    Case(spatial_transformer, [torch.randn(2, 3, 5, 7),
                               torch.randn(2, 2, 3) * 0.5],
         op="affine_grid_generator"),
]
