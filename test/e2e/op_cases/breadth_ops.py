"""breadth_ops.py - generated end-to-end cases for the ops added from
PyTorch's OpInfo suite (test/breadth/run_breadth.py): inverse and
hyperbolic trig, erfc/exp2/sinc/logit/frac/nan_to_num, the float tests
(signbit, isposinf, isneginf, isreal), two-operand math (xlogy, logaddexp,
hypot, copysign, fmin/fmax, heaviside, ldexp, float_power), the shrink
activations and threshold, clamp_min/clamp_max with tensor bounds, and the
composite views tsir-decompose rewrites (mT, mH, adjoint, T, H, movedim
with lists, ravel, atleast_Nd, broadcast_to, flipud/fliplr) and the ops
of several results it splits (var_mean, std_mean, aminmax,
broadcast_tensors, meshgrid); plus isclose, the alpha dropouts without
effect, the per-element losses, the diagonal family, and the stacking and
splitting helpers (hstack/vstack/dstack/column_stack, tensor_split and
the h/v/dsplits)."""

import torch
import torch.nn.functional as F

from op_case import Case

torch.manual_seed(0)


def randn(*shape):
    return torch.randn(*shape)


def unit(*shape):
    """Values in (-0.9, 0.9), inside the domain of asin/acos/atanh."""
    return torch.rand(*shape) * 1.8 - 0.9


def with_specials(*shape):
    """Random floats with NaN, +-inf and +-0 among them."""
    x = torch.randn(*shape).flatten()
    x[:6] = torch.tensor([float("nan"), float("inf"), -float("inf"), 0.0,
                          -0.0, 1.0])
    return x.reshape(shape)


def inverse_trig(x):
    return torch.acos(x), torch.asin(x), torch.atanh(x)


def hyperbolic(x):
    return torch.cosh(x), torch.sinh(x), torch.tan(x), torch.asinh(x)


def acosh(x):
    return torch.acosh(x + 2.0)


def special_math(x):
    return torch.erfc(x), torch.exp2(x), torch.sinc(x), torch.frac(x)


def angles(x):
    return torch.deg2rad(x), torch.rad2deg(x)


def int_angles(x):
    return torch.deg2rad(x), torch.sinc(x)


def logit(x):
    return torch.logit(x), torch.logit(x, 0.25)


def float_tests(x):
    return (torch.signbit(x), torch.isposinf(x), torch.isneginf(x),
            torch.isreal(x))


def int_signbit(x):
    return torch.signbit(x), torch.isreal(x)


def nan_to_num(x):
    return torch.nan_to_num(x), torch.nan_to_num(x, 1.0, 2.0, -3.0)


def identities(x):
    return torch.positive(x), torch.sgn(x), x.resolve_neg(), x.resolve_conj(), \
        torch.conj_physical(x)


def xlogy(x, y):
    return torch.xlogy(x, y), torch.xlogy(x, 2.5)


def logaddexp(x, y):
    return torch.logaddexp(x, y), torch.logaddexp2(x, y), torch.hypot(x, y)


def copysign(x, y):
    return torch.copysign(x, y), torch.copysign(x, -1.0)


def fminmax(x, y):
    return torch.fmin(x, y), torch.fmax(x, y)


def int_fminmax(x, y):
    return torch.fmin(x, y), torch.fmax(x, y), torch.heaviside(x, y)


def heaviside(x, v):
    return torch.heaviside(x, v)


def ldexp(x, e):
    return torch.ldexp(x, e)


def float_power(x, y):
    return torch.float_power(x, y), torch.float_power(x, 2)


def shrinks(x):
    return (F.softshrink(x, 0.5), F.hardshrink(x, 0.5),
            F.threshold(x, 0.1, -2.0), F.mish(x), F.celu(x, 1.5))


def int_threshold(x):
    return torch.threshold(x, 3, -7)


def clamp_tensor(x, lo, hi):
    return torch.clamp_min(x, lo), torch.clamp_max(x, hi)


def matrix_views(x):
    return x.mT, x.mH, x.adjoint(), x.mT + 1


def full_transposes(x):
    return x.T, x.H


def movedim_list(x):
    return torch.movedim(x, [0, 1], [2, 0])


def ravel(x):
    return torch.ravel(x)


def atleast(x):
    return torch.atleast_1d(x), torch.atleast_2d(x), torch.atleast_3d(x)


def broadcast_to(x):
    return torch.broadcast_to(x, [2, 3, 4])


def flips(x):
    return torch.flipud(x), torch.fliplr(x)


def stat_means(x):
    return (torch.var_mean(x), torch.var_mean(x, [1], True, True),
            torch.std_mean(x, 0, unbiased=False),
            torch.std_mean(x), torch.var_mean(x, 1, correction=0))


def aminmax(x):
    lo, hi = torch.aminmax(x)
    dim_lo, dim_hi = torch.aminmax(x, dim=1, keepdim=True)
    return lo, hi, dim_lo, dim_hi


def broadcast_tensors(a, b, c):
    return torch.broadcast_tensors(a, b, c)


def meshgrid(a, b):
    return (torch.meshgrid(a, b, indexing="ij"),
            torch.meshgrid(a, b, indexing="xy"))


def dropouts_without_effect(x):
    return (F.alpha_dropout(x, 0.5, False), F.feature_alpha_dropout(x, 0.5, False),
            F.dropout(x, 0.0, True))


def isclose(x, y):
    return torch.isclose(x, y), torch.isclose(x, y, 0.1, 0.2, True)


def pointwise_losses(x, y, t):
    return (F.l1_loss(x, y), F.smooth_l1_loss(x, y, reduction="sum", beta=0.5),
            F.huber_loss(x, y, reduction="none", delta=0.7),
            F.soft_margin_loss(x, t), F.margin_ranking_loss(x, y, t, 0.2),
            F.hinge_embedding_loss(x, t, 0.5, reduction="sum"))


def kl_div(x, y):
    return (F.kl_div(x, y, reduction="sum"),
            F.kl_div(x, y, reduction="none", log_target=True))


def binary_cross_entropy(p, t, w):
    # F.binary_cross_entropy checks the weight's size with _infer_size;
    # the aten op itself takes it as it is.
    return (torch.ops.aten.binary_cross_entropy(p, t, None, 1),
            torch.ops.aten.binary_cross_entropy(p, t, w, 0))


def diagonals(x):
    return (torch.diagonal(x), torch.diagonal(x, 1, 0, 2), torch.diagonal(x, -1, 2, 1),
            torch.diag_embed(x), torch.diag_embed(x, -1, 0, 2))


def diag(v, m):
    return torch.diag(v), torch.diag(v, 2), torch.diag(m, -1), torch.diag(m, 3)


def stacks(a, b, v):
    return (torch.hstack([a, b]), torch.hstack([v, v]), torch.vstack([a, v[:4]]),
            torch.dstack([a, b]), torch.column_stack([v, v]),
            torch.column_stack([a, v[:3]]))


def splits(x):
    return (torch.tensor_split(x, 3), torch.tensor_split(x, [1, 3], 1),
            torch.hsplit(x, 2), torch.hsplit(x, [1]), torch.vsplit(x, [2]),
            torch.vsplit(x, 5), torch.dsplit(x.unsqueeze(2), 1),
            torch.dsplit(x.unsqueeze(2), [0]))


CASES = [
    Case(inverse_trig, [unit(3, 4)]),
    Case(hyperbolic, [randn(3, 4)]),
    Case(acosh, [torch.rand(5)]),
    Case(special_math, [with_specials(4, 5)], rtol=1e-4, atol=1e-5),
    Case(angles, [randn(6)]),
    Case(int_angles, [torch.arange(-3, 4)], name="int_angles_promote"),
    Case(logit, [torch.rand(2, 5)]),
    Case(float_tests, [with_specials(3, 4)]),
    Case(int_signbit, [torch.arange(-3, 4)]),
    Case(nan_to_num, [with_specials(2, 6)]),
    Case(identities, [with_specials(2, 6)]),
    Case(xlogy, [torch.tensor([0.0, 1.0, 2.0, 0.0]),
                 torch.tensor([float("nan"), 3.0, 0.5, 0.0])]),
    Case(logaddexp, [with_specials(2, 3), randn(2, 3)]),
    Case(logaddexp, [randn(2, 3), randn(3)], name="logaddexp_broadcast"),
    Case(copysign, [randn(3, 4), randn(3, 4)]),
    Case(fminmax, [with_specials(6), randn(6)]),
    Case(int_fminmax, [torch.arange(-3, 3), torch.tensor([2, -1, 0, 5, -4, 1])]),
    Case(heaviside, [torch.tensor([-1.5, 0.0, 2.0]), torch.tensor([0.5])]),
    Case(ldexp, [randn(4), torch.tensor([1, 2, -1, 0])]),
    Case(float_power, [torch.rand(5) + 0.5, randn(5)]),
    Case(shrinks, [randn(3, 5)]),
    Case(int_threshold, [torch.arange(-5, 6)]),
    Case(clamp_tensor, [randn(3, 4), randn(4), randn(3, 1)]),
    Case(matrix_views, [randn(2, 3, 4)]),
    Case(full_transposes, [randn(3, 5)]),
    Case(movedim_list, [randn(2, 3, 4)]),
    Case(ravel, [randn(3, 4).t()], name="ravel_noncontiguous"),
    Case(atleast, [torch.tensor(2.5)], name="atleast_0d"),
    Case(atleast, [randn(4)], name="atleast_1d_input"),
    Case(atleast, [randn(2, 3)], name="atleast_2d_input"),
    Case(broadcast_to, [randn(3, 1)]),
    Case(flips, [randn(3, 4)]),
    Case(stat_means, [randn(3, 5)]),
    Case(aminmax, [randn(3, 5)]),
    Case(broadcast_tensors, [randn(3, 1), randn(4), torch.tensor(2.0)]),
    Case(meshgrid, [randn(3), randn(2)]),
    Case(dropouts_without_effect, [randn(3, 4)]),
    Case(isclose, [with_specials(2, 6), with_specials(2, 6) + 0.05]),
    Case(pointwise_losses, [randn(3, 4), randn(3, 4),
                            torch.randint(0, 2, (3, 4)).float() * 2 - 1]),
    Case(kl_div, [randn(2, 5), torch.rand(2, 5)]),
    Case(binary_cross_entropy, [torch.rand(3, 4), torch.rand(3, 4), torch.rand(3, 4)]),
    Case(diagonals, [randn(3, 4, 5)]),
    Case(diag, [randn(4), randn(3, 5)]),
    Case(stacks, [randn(3, 4), randn(3, 4), randn(5)]),
    Case(splits, [randn(5, 4)]),
]
