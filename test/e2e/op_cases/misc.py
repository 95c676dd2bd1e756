"""misc.py - generated end-to-end cases for the Misc family: the losses
(mse_loss, nll_loss, cross_entropy, binary_cross_entropy_with_logits) with
each reduction, ignore_index and unbatched or spatial inputs; dropout in
inference and, checked on what every mask satisfies, in training; equal;
stride; cpu."""

import torch
import torch.nn.functional as F

from op_case import Case

torch.manual_seed(0)


# F.mse_loss and F.binary_cross_entropy_with_logits compare size lists
# before calling the op, and F.nll_loss calls aten::nll_loss_nd (no typed
# op: tsir-decompose makes it nll_loss); most cases call the aten ops
# directly, one case of each goes through torch.nn.functional.
def functional_mse_loss(x, y):
    return F.mse_loss(x, y)


def mse_loss_mean(x, y):
    return torch._C._nn.mse_loss(x, y, 1)


def mse_loss_sum(x, y):
    return torch._C._nn.mse_loss(x, y, 2)


def mse_loss_none(x, y):
    return torch._C._nn.mse_loss(x, y, 0)


def mse_loss_broadcast(x, y):
    return torch._C._nn.mse_loss(x, y, 0), torch._C._nn.mse_loss(x, y, 1)


def functional_nll_loss(x, t):
    return F.nll_loss(x, t)


def nll_loss_mean(x, t):
    return torch._C._nn.nll_loss(torch.log_softmax(x, 1), t, None, 1, -100)


def nll_loss_sum(x, t):
    return torch._C._nn.nll_loss(x, t, None, 2, -100)


def nll_loss_none(x, t):
    return torch._C._nn.nll_loss(x, t, None, 0, -100)


def nll_loss_ignore(x, t):
    return torch._C._nn.nll_loss(x, t, None, 1, 2), \
        torch._C._nn.nll_loss(x, t, None, 2, 2), \
        torch._C._nn.nll_loss(x, t, None, 0, 2)


def nll_loss_weighted(x, t, w):
    # Class weights: the mean divides by the weights of the targets kept.
    return F.nll_loss(x, t, w), F.nll_loss(x, t, w, reduction="sum"), \
        F.nll_loss(x, t, w, reduction="none"), \
        F.nll_loss(x, t, w, ignore_index=1)


def nll_loss_nd_spatial(x, t):
    return F.nll_loss(x, t), F.nll_loss(x, t, reduction="none")


def cross_entropy_weighted(x, t, w):
    return F.cross_entropy(x, t, w), F.cross_entropy(x, t, w, reduction="none")


def cross_entropy_smoothing(x, t, w):
    return F.cross_entropy(x, t, label_smoothing=0.2), \
        F.cross_entropy(x, t, w, label_smoothing=0.3, reduction="sum"), \
        F.cross_entropy(x, t, w, ignore_index=1, label_smoothing=0.1), \
        F.cross_entropy(x, t, label_smoothing=0.5, reduction="none")


def cross_entropy_smoothing_spatial(x, t):
    return F.cross_entropy(x, t, label_smoothing=0.25)


def nll_loss_unbatched(x, t):
    return torch._C._nn.nll_loss(x, t, None, 1, -100)


def cross_entropy(x, t):
    return F.cross_entropy(x, t)


def cross_entropy_sum(x, t):
    return F.cross_entropy(x, t, reduction="sum")


def cross_entropy_none(x, t):
    return F.cross_entropy(x, t, reduction="none")


def cross_entropy_ignore(x, t):
    return F.cross_entropy(x, t, ignore_index=0)


def cross_entropy_spatial(x, t):
    return F.cross_entropy(x, t)


def cross_entropy_unbatched(x, t):
    return F.cross_entropy(x, t)


def functional_bce_with_logits(x, y):
    return F.binary_cross_entropy_with_logits(x, y)


def bce_with_logits(x, y):
    return torch.binary_cross_entropy_with_logits(x, y, None, None, 1)


def bce_with_logits_sum(x, y):
    return torch.binary_cross_entropy_with_logits(x, y, None, None, 2)


def bce_with_logits_none(x, y):
    return torch.binary_cross_entropy_with_logits(x, y, None, None, 0)


def dropout_eval(x):
    return F.dropout(x, 0.3, False) * 2.0


def dropout_eval_inplace(x):
    y = x + 1.0
    return F.dropout(y, 0.5, False, True)


def functional_dropout2d_eval(x):
    return F.dropout2d(x, 0.5, False)


def feature_dropout_eval(x):
    return torch.feature_dropout(x, 0.5, False)


# Training-mode dropout draws its mask from tsir's own generator, so the
# cases check what holds for every mask: each element is dropped (0) or
# kept and scaled by 1 / (1 - p); the feature forms drop whole channels;
# alpha dropout gives one of its two values; p = 1 drops everything.
def dropout_train_values(x):
    y = F.dropout(x, 0.5, True)
    return torch.all((y == 0) | (y == 2 * x))


def dropout_train_all(x):
    return F.dropout(x, 1.0, True)


def dropout2d_train_channels(x):
    y = F.dropout2d(x, 0.25, True)
    return torch.all(y.amax((2, 3)) == y.amin((2, 3)))


def alpha_dropout_train_values(x):
    p = 0.5
    alpha = 1.7580993408473766
    a = ((alpha * alpha * p + 1) * (1 - p)) ** -0.5
    y = F.alpha_dropout(x, p, True)
    kept = torch.isclose(y, x * a + alpha * a * p)
    dropped = torch.isclose(y, torch.full_like(y, -alpha * a + alpha * a * p))
    return torch.all(kept | dropped)


def equal_same(x):
    return torch.equal(x, x.clone())


def equal_different(x, y):
    return torch.equal(x, y)


def equal_shapes(x, y):
    return torch.equal(x, y)


def equal_nan(x):
    y = x / 0.0 * 0.0
    return torch.equal(y, y)


def stride(x):
    return x.stride(0), x.stride(1), x.stride(-1)


def stride_dynamic(x, d: int):
    return x.stride(d)


def cpu(x):
    return x.cpu() + 1


a = torch.randn(3, 5)
CASES = [
    Case(functional_mse_loss, [torch.randn(3, 5), torch.randn(3, 5)]),
    Case(mse_loss_mean, [torch.randn(3, 5), torch.randn(3, 5)]),
    Case(mse_loss_broadcast, [torch.randn(3, 5), torch.randn(5)]),
    Case(mse_loss_sum, [torch.randn(2, 3, 4), torch.randn(2, 3, 4)]),
    Case(mse_loss_none, [torch.randn(4, 3), torch.randn(4, 3)]),
    Case(functional_nll_loss, [torch.randn(4, 5), torch.tensor([0, 4, 2, 2])],
         op="nll_loss_nd"),
    Case(nll_loss_weighted, [torch.randn(5, 4), torch.tensor([0, 3, 1, 1, 2]),
                             torch.rand(4) + 0.5], op="nll_loss_nd"),
    Case(nll_loss_nd_spatial, [torch.randn(2, 3, 4, 5),
                               torch.randint(0, 3, (2, 4, 5))],
         op="nll_loss_nd"),
    Case(cross_entropy_smoothing, [torch.randn(5, 4),
                                   torch.tensor([0, 3, 1, 1, 2]),
                                   torch.rand(4) + 0.5],
         op="cross_entropy_loss"),
    Case(cross_entropy_smoothing_spatial, [torch.randn(2, 3, 4, 5),
                                           torch.randint(0, 3, (2, 4, 5))],
         op="cross_entropy_loss"),
    Case(cross_entropy_weighted, [torch.randn(4, 6), torch.tensor([5, 1, 0, 5]),
                                  torch.rand(6) + 0.5], op="cross_entropy_loss"),
    Case(nll_loss_mean, [torch.randn(4, 5), torch.tensor([0, 4, 2, 2])]),
    Case(nll_loss_sum, [torch.randn(3, 7), torch.tensor([6, 0, 3])]),
    Case(nll_loss_none, [torch.randn(3, 7), torch.tensor([6, 0, 3])]),
    Case(nll_loss_ignore, [torch.randn(5, 3), torch.tensor([2, 0, 2, 1, 0])]),
    Case(nll_loss_unbatched, [torch.randn(5), torch.tensor(3)]),
    Case(cross_entropy, [torch.randn(4, 5), torch.tensor([0, 4, 2, 2])]),
    Case(cross_entropy_sum, [torch.randn(3, 6), torch.tensor([5, 1, 0])]),
    Case(cross_entropy_none, [torch.randn(3, 6), torch.tensor([5, 1, 0])]),
    Case(cross_entropy_ignore, [torch.randn(5, 4),
                                torch.tensor([0, 3, 0, 1, 2])]),
    Case(cross_entropy_ignore, [torch.randn(2, 4), torch.tensor([0, 0])],
         name="cross_entropy_all_ignored"),
    Case(cross_entropy_spatial, [torch.randn(2, 3, 5),
                                 torch.randint(0, 3, (2, 5))]),
    Case(cross_entropy_unbatched, [torch.randn(7), torch.tensor(4)]),
    Case(functional_bce_with_logits, [torch.randn(3, 5), torch.rand(3, 5)]),
    Case(bce_with_logits, [torch.randn(3, 5) * 10, torch.rand(3, 5)]),
    Case(bce_with_logits_sum, [torch.randn(2, 7), torch.rand(2, 7)]),
    Case(bce_with_logits_none, [torch.randn(4, 3) * 30,
                                torch.randint(0, 2, (4, 3)).float()]),
    Case(dropout_eval, [torch.randn(3, 5)]),
    Case(dropout_eval_inplace, [torch.randn(3, 5)]),
    Case(functional_dropout2d_eval, [torch.randn(2, 3, 4, 5)]),
    Case(feature_dropout_eval, [torch.randn(2, 3, 4, 5)]),
    Case(dropout_train_values, [torch.randn(8, 16)]),
    Case(dropout_train_all, [torch.randn(3, 5)]),
    Case(dropout2d_train_channels, [torch.ones(2, 6, 4, 5)]),
    Case(alpha_dropout_train_values, [torch.randn(8, 16)]),
    Case(equal_same, [torch.randn(3, 5)]),
    Case(equal_different, [a, a + 1e-3]),
    Case(equal_different, [a, a.clone()], name="equal_copies"),
    Case(equal_different, [torch.arange(6).reshape(2, 3),
                           torch.arange(6).reshape(2, 3)], name="equal_int"),
    Case(equal_shapes, [torch.zeros(2, 3), torch.zeros(3, 2)]),
    Case(equal_shapes, [torch.zeros(2, 3), torch.zeros(2, 3, 1)],
         name="equal_ranks"),
    Case(equal_nan, [torch.randn(3)]),
    Case(stride, [torch.randn(3, 4, 5)]),
    Case(stride_dynamic, [torch.randn(3, 4, 5), 0]),
    Case(stride_dynamic, [torch.randn(3, 4, 5), -2], name="stride_dynamic_neg"),
    Case(cpu, [torch.randn(3, 5)]),
]
