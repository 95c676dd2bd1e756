"""normalization.py - generated end-to-end cases for the Normalization
family: batch_norm (inference with running statistics, training without
them), instance_norm, layer_norm and group_norm, with and without weight and
bias, over 2-d to 5-d inputs."""

import torch
import torch.nn.functional as F
from typing import Optional

from op_case import Case

torch.manual_seed(0)


def randn(*shape):
    return torch.randn(*shape)


def var(*shape):
    return torch.rand(*shape) + 0.5


def batch_norm(x, mean, var, w, b):
    return F.batch_norm(x, mean, var, w, b, False, 0.1, 1e-5)


def batch_norm_no_affine(x, mean, var):
    return F.batch_norm(x, mean, var, None, None, False, 0.1, 1e-3)


# F.batch_norm (training) and F.instance_norm check the batch size with
# list ops before calling the aten op; these cases call the aten op itself.
def batch_norm_training(x, w, b):
    return torch.batch_norm(x, w, b, None, None, True, 0.1, 1e-5, False)


def instance_norm(x, w, b):
    return torch.instance_norm(x, w, b, None, None, True, 0.1, 1e-5, False)


def instance_norm_no_affine(x):
    return torch.instance_norm(x, None, None, None, None, True, 0.1, 1e-5,
                               False)


def instance_norm_running(x, mean, var):
    return torch.instance_norm(x, None, None, mean, var, False, 0.1, 1e-5,
                               False)


def layer_norm(x, w, b):
    return F.layer_norm(x, [x.size(-1)], w, b, 1e-5)


def layer_norm_two_dims(x, w, b):
    return F.layer_norm(x, [4, 5], w, b, 1e-6)


def layer_norm_no_affine(x):
    return F.layer_norm(x, [8])


# F.group_norm also checks sizes with list ops first.
def group_norm(x, w, b):
    return torch.group_norm(x, 2, w, b, 1e-5, False)


def group_norm_no_affine(x):
    return torch.group_norm(x, 3)


def norm_chain(x, w, b, w2, b2):
    h = F.layer_norm(x, [16], w, b, 1e-5)
    return F.gelu(h, approximate="tanh") + F.layer_norm(h, [16], w2, b2, 1e-5)


CASES = [
    Case(batch_norm, [randn(2, 3, 4, 5), randn(3), var(3), randn(3), randn(3)]),
    Case(batch_norm, [randn(4, 3), randn(3), var(3), randn(3), randn(3)],
         name="batch_norm_2d"),
    Case(batch_norm, [randn(2, 3, 5), randn(3), var(3), randn(3), randn(3)],
         name="batch_norm_1d"),
    Case(batch_norm, [randn(2, 3, 2, 3, 4), randn(3), var(3), randn(3), randn(3)],
         name="batch_norm_3d"),
    Case(batch_norm_no_affine, [randn(2, 4, 3, 3), randn(4), var(4)]),
    Case(batch_norm_training, [randn(4, 3, 2, 2), randn(3), randn(3)]),
    Case(instance_norm, [randn(2, 3, 4, 5), randn(3), randn(3)]),
    Case(instance_norm_no_affine, [randn(2, 3, 6)]),
    Case(instance_norm_running, [randn(2, 3, 4, 4), randn(3), var(3)]),
    Case(layer_norm, [randn(2, 5, 16), randn(16), randn(16)]),
    Case(layer_norm, [randn(4, 3).t(), randn(4), randn(4)], name="layer_norm_noncontiguous"),
    Case(layer_norm_two_dims, [randn(3, 4, 5), randn(4, 5), randn(4, 5)]),
    Case(layer_norm_no_affine, [randn(3, 8) * 100 + 7]),
    Case(group_norm, [randn(2, 4, 3, 3), randn(4), randn(4)]),
    Case(group_norm, [randn(3, 6), randn(6), randn(6)], name="group_norm_2d"),
    Case(group_norm_no_affine, [randn(2, 6, 5)]),
    Case(norm_chain, [randn(2, 3, 16), randn(16), randn(16), randn(16), randn(16)]),
]
