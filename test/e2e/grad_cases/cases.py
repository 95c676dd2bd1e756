"""grad_cases/cases.py - functions whose gradients tsir computes, with torch's
autograd as the oracle (test/e2e/run_grad_cases.py).

Each case is a Python function torch.jit.script accepts and its inputs;
the runner differentiates with respect to every floating-point tensor
input. `grad` gives the output gradients (default: ones for a scalar
output, a seeded random tensor otherwise). A case whose derivative tsir
does not have yet gives `error`: a piece of the message it must fail with
.
"""

from typing import List

import torch
import torch.nn.functional as F

from op_case import family


class GradCase:
    def __init__(self, fn, inputs, name=None, rtol=1e-4, atol=1e-5,
                 error=None, constant=(), finite_differences=False):
        self.fn = fn
        # Also checked against central differences in float64.
        self.finite_differences = finite_differences
        # Positions of float inputs that are not differentiated (torch
        # refuses some: nll_loss's class weights).
        self.constant = constant
        self.inputs = inputs
        self.name = name or fn.__name__
        self.rtol = rtol
        self.atol = atol
        self.error = error


torch.manual_seed(0)


def r(*sizes):
    return torch.randn(*sizes)


def pos(*sizes):
    return torch.rand(*sizes) + 0.5


# ---------------------------------------------------------------- arithmetic

def add_broadcast(x, y):
    return x + 2.5 * y


def sub_alpha(x, y):
    return torch.sub(x, y, alpha=3)


def mul_broadcast(x, y):
    return x * y


def div_broadcast(x, y):
    return x / y


def scalar_ops(x):
    return (x * 3 + 1) / 2 - 0.5


def rsub_scalar(x):
    return 1 - x


def neg_pow_square(x):
    return -(x ** 3) + torch.square(x)


# ---------------------------------------------------------------- pointwise

def exp_log(x):
    return torch.exp(x) + torch.log(x)


def sqrt_rsqrt(x):
    return torch.sqrt(x) * torch.rsqrt(x + 1)


def trig_abs(x):
    return torch.sin(x) * torch.cos(x) + torch.abs(x)


def activations(x):
    return (torch.relu(x) + torch.sigmoid(x) + torch.tanh(x) + F.silu(x)
            + F.leaky_relu(x, 0.2) + F.hardtanh(x, -0.5, 0.5))


def gelu_both(x):
    return F.gelu(x) + F.gelu(x, approximate="tanh")


# ---------------------------------------------------------------- products

# The forward cases' own functions (test/e2e/op_cases/linear.py), here
# differentiated: mm, bmm, matmul, linear (and linear_nobias).
_linear = family("linear")
mm, bmm, matmul, linear = _linear.mm, _linear.bmm, _linear.matmul, _linear.linear


def addmm(b, x, y):
    return torch.addmm(b, x, y, beta=0.5, alpha=2.0)


# ---------------------------------------------------------------- views

def views(x):
    y = x.reshape(6, 4).t().unsqueeze(0)
    z = y.view(4, 6).transpose(0, 1).flatten()
    return z.reshape(2, 12).squeeze(0).contiguous() * 2


def expand(x):
    return x.expand(3, 4, 5) * torch.arange(60.).reshape(3, 4, 5)


# ---------------------------------------------------------------- reductions

def sum_mean(x):
    return x.sum() + x.mean()


def sum_mean_dims(x):
    return x.sum(dim=1) * 2 + x.mean(dim=[0, 2], keepdim=True).sum()


def softmaxes(x):
    return torch.softmax(x, dim=1) * torch.log_softmax(x, dim=-1)


def logsumexp(x):
    return torch.logsumexp(x, dim=1)


# ---------------------------------------------------------------- losses

def mse(x, y):
    return F.mse_loss(x, y)


def mse_sum(x, y):
    return F.mse_loss(x, y, reduction="sum")


def nll(x, t):
    return F.nll_loss(F.log_softmax(x, dim=1), t, ignore_index=2)


def nll_none(x, t):
    return F.nll_loss(torch.log_softmax(x, dim=1), t, reduction="none")


def cross_entropy(x, t):
    return F.cross_entropy(x, t)


def cross_entropy_sum(x, t):
    return F.cross_entropy(x, t, reduction="sum", ignore_index=0)


def mlp(x, w1, b1, w2, b2, t):
    h = torch.tanh(F.linear(x, w1, b1))
    return F.cross_entropy(F.linear(h, w2, b2), t)


def shared_value(x):
    y = x * x
    return y + y.sum() * x


def cat(x, y):
    return torch.cat([x, y, x], dim=1) * 2


def stack(x, y):
    return torch.stack([x, y], dim=-1)


def slicing(x):
    return x[:, 1:4:2] * x[1, 1:3] + x[-1, 2]


# ---------------------------------------------------------------- conv, norm, pool

def conv2d(x, w, b):
    return F.conv2d(x, w, b, stride=2, padding=1)


def conv2d_dilated_uneven(x, w, b):
    return F.conv2d(x, w, b, stride=(2, 3), padding=(0, 2), dilation=(2, 1))


def conv2d_groups(x, w):
    return F.conv2d(x, w, None, padding=1, groups=2)


def conv2d_depthwise(x, w, b):
    return F.conv2d(x, w, b, stride=2, padding=1, groups=4)


def traced_convolutions(x, w2, w3):
    # torch.jit.trace records every nn.Conv*d as _convolution.
    y = torch._convolution(x, w2, None, [1, 1], [1, 1], [1, 1], False,
                           [0, 0], 1, False, False, True, True)
    z = torch.convolution(y.unsqueeze(2), w3, None, [1, 1, 1], [0, 1, 1],
                          [1, 1, 1], False, [0, 0, 0], 1)
    return z


def conv_transpose2d(x, w, b):
    return F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1)


def conv_transpose2d_groups_dilated(x, w):
    return F.conv_transpose2d(x, w, None, stride=(1, 2), padding=(1, 0),
                              groups=2, dilation=(2, 1))


def conv_transpose3d(x, w, b):
    return F.conv_transpose3d(x, w, b, stride=(1, 2, 2), padding=1,
                              output_padding=(0, 1, 0))


def conv_transpose1d_traced(x, w, b):
    y = F.conv_transpose1d(x, w, b, stride=3, padding=1, output_padding=2)
    return torch.convolution(y, w.transpose(0, 1).contiguous(), None, [2],
                             [1], [1], True, [1], 1)


def conv3d(x, w, b):
    return F.conv3d(x, w, b, stride=(1, 2, 2), padding=1)


def conv3d_dilated_groups(x, w):
    return F.conv3d(x, w, None, stride=(2, 1, 3), padding=(0, 2, 1),
                    dilation=(1, 2, 1), groups=2)


def batch_norm_eval(x, w, b, mean, var):
    return F.batch_norm(x, mean, var, w, b, False, 0.1, 1e-5)


def batch_norm_no_affine(x, mean, var):
    return F.batch_norm(x, mean, var, None, None, False, 0.1, 1e-3)


def batch_norm_training(x, mean, var):
    return (F.batch_norm(x, mean, var, None, None, True, 0.1, 1e-5) * x).sum()


def global_pool(x):
    return F.adaptive_avg_pool2d(x, (1, 1)).flatten(1)


def pool_2x2(x):
    return F.adaptive_avg_pool2d(x, (2, 3))


def small_cnn(x, w1, b1, gamma, beta, w2, b2, t):
    mean = torch.zeros(4, dtype=x.dtype)
    var = torch.ones(4, dtype=x.dtype)
    h = F.conv2d(x, w1, b1, padding=1)
    h = F.relu(F.batch_norm(h, mean, var, gamma, beta, False, 0.1, 1e-5))
    h = F.adaptive_avg_pool2d(h, (1, 1)).flatten(1)
    return F.cross_entropy(F.linear(h, w2, b2), t)


def more_activations(x):
    return (F.elu(x, 0.7) + F.softplus(x, 2.0, 1.0) + F.logsigmoid(x)
            + F.hardsigmoid(x) + F.hardswish(x))


def layer_norm(x, w, b):
    return F.layer_norm(x, [3, 4], w, b, 1e-5)


def layer_norm_no_affine(x):
    return F.layer_norm(x, [5])


def var_dim(x):
    return x.var(1) * 2 + x.var(0, keepdim=True, unbiased=False).sum()


def std_whole_and_dim(x):
    return x.std() + x.std(1).sum() + torch.std(x, [0, 1], keepdim=True)


def var_correction(x):
    return torch.var(x, 1, correction=0) + torch.var(x, 0, correction=2).sum()


def gather_repeated(x, i):
    return torch.gather(x, 1, i) * 3


def index_select_middle(x, i):
    return torch.index_select(x, 1, i) * 2


def group_norm_affine(x, w, b):
    return F.group_norm(x, 2, w, b)


def group_norm_plain(x):
    return F.group_norm(x, 3)


def instance_norm_affine(x, w, b):
    return F.instance_norm(x, weight=w, bias=b)


def instance_norm_plain(x):
    return F.instance_norm(x, eps=1e-3)


def instance_norm_running(x, w, b):
    # Eval mode with tracked statistics: the running ones, per channel.
    mean = torch.linspace(-1.0, 2.0, 3, dtype=x.dtype)
    var = torch.linspace(0.25, 4.0, 3, dtype=x.dtype)
    return F.instance_norm(x, mean, var, w, b, use_input_stats=False)


def conv1d_strided(x, w, b):
    return F.conv1d(x, w, b, stride=2, padding=1, dilation=2, groups=2)


def permute_negative(x):
    return x.permute(2, -3, 1) * torch.arange(5.0)


def embedding(w, i):
    return F.embedding(i, w, padding_idx=1)


def bce_with_logits(x, t):
    return F.binary_cross_entropy_with_logits(x, t)


def bce(x, t):
    return F.binary_cross_entropy(torch.sigmoid(x), t, reduction="sum")


def tiny_transformer_block(x, w1, b1, g, b, w2):
    h = F.layer_norm(x, [6], g, b)
    h = F.gelu(F.linear(h, w1, b1))
    return (x + F.linear(h, w2)).mean()


def max_pool_default_stride(x):
    return F.max_pool2d(x, 2)


def max_pool_overlapping(x):
    return F.max_pool2d(x, 3, stride=2, padding=1)


def max_pool_ties_dilated(x):
    return F.max_pool2d(x, (2, 3), stride=(1, 2), dilation=(2, 1))


def max_pool_nonfinite(x):
    return F.max_pool2d(x, 3, stride=2, padding=1)


def nonfinite_planes():
    # An infinity is its window's maximum, a NaN is too (torch's pooling
    # takes the first), and a plane of -inf has maxima at its padded edge.
    x = r(2, 2, 7, 7)
    x[0, 0, 1, 1] = float("inf")
    x[0, 0, 4, 5] = float("nan")
    x[0, 1] = float("-inf")
    x[1, 0, 0, 0] = float("-inf")
    x[1, 1, 6, 6] = -3.4028234663852886e38
    return x


def resnet_stem(x, w, g, b):
    h = F.conv2d(x, w, None, stride=2, padding=3)
    h = F.relu(F.batch_norm(h, None, None, g, b, True, 0.1, 1e-5))
    return F.max_pool2d(h, 3, stride=2, padding=1)


# ---------------------------------------------------------------- control flow

def branch_on_data(x, w):
    h = torch.tanh(x @ w)
    if bool(h.sum() > 0):
        y = h * x.sum() + torch.exp(h)
    else:
        y = torch.sigmoid(h) * w.sum()
    return y.mean()


def branch_on_input(x, y, flip: bool):
    if flip:
        z = x * y
    else:
        z = x - y.exp()
    return (z * z).sum()


def branch_yields_outer(x, y, flip: bool):
    if flip:
        z = x
    else:
        z = torch.relu(y) * 2
    return z * y


def avg_pool(x):
    return F.avg_pool2d(x, 2)


def avg_pool_padded(x):
    return F.avg_pool2d(x, 3, stride=2, padding=1)


def where_clamp(x, y):
    return torch.where(x > 0, x * 2, y) + torch.clamp(x, -0.5, 0.7) \
        + torch.clamp(y, min=0.1)


def splits(x):
    a, b = torch.split(x, [2, 3], dim=1)
    c, d, e = torch.chunk(x, 3, dim=0)
    return a.sum() * 2 + b.mean() + (c * e).sum()


def unbind(x):
    p, q, r = torch.unbind(x, dim=1)
    return p * q - r


# ---------------------------------------------------------------- losses with options

def weighted_nll(x, t, w):
    return F.nll_loss(x, t, weight=w)


def weighted_nll_ignored(x, t, w):
    return F.nll_loss(F.log_softmax(x, 1), t, weight=w, ignore_index=1)


def nll_spatial(x, t):
    return F.nll_loss(F.log_softmax(x, 1), t, reduction="none")


def cross_entropy_weighted_smoothed(x, t, w):
    return F.cross_entropy(x, t, weight=w, label_smoothing=0.2)


def cross_entropy_smoothed_sum(x, t):
    return F.cross_entropy(x, t, reduction="sum", label_smoothing=0.1,
                           ignore_index=3)


def cross_entropy_probabilities(x, p, w):
    return F.cross_entropy(x, p, weight=w, label_smoothing=0.05)


def cross_entropy_spatial(x, t):
    return F.cross_entropy(x, t)


def embedding_by_frequency(w, i):
    return F.embedding(i, w, scale_grad_by_freq=True, padding_idx=0)


# ---------------------------------------------------------------- max pooling by indices

def max_pool_ceil(x):
    return F.max_pool2d(x, 2, ceil_mode=True)


def max_pool_indices(x, v):
    a, i = F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
    b, j = F.max_pool3d(v, 2, return_indices=True)
    return a.sum() + (b * b).sum()


def adaptive_max_pools(x, y, v):
    return (F.adaptive_max_pool1d(x, 3).sum() + F.adaptive_max_pool2d(y, (2, 3)).sum()
            + F.adaptive_max_pool3d(v, 2).sum())


# ---------------------------------------------------------------- decompositions with loops

def unfold_windows(x):
    # im2col's decomposition appends windows in loops: once a silent zero.
    return (F.unfold(x, 2, padding=1) ** 2).sum()


# ---------------------------------------------------------------- loops that do not unroll

def halve_while_large(x):
    # A while loop: the data decides how often it runs.
    h = x
    while bool(h.norm() > 1.0):
        h = h * 0.5 + 0.1 * torch.tanh(h)
    return h


def recurrence_of_data_length(xs, w, u, h):
    # The step count is read from the data, so the loop stays a loop:
    # the input and the weights are read at every step, h is carried.
    steps = int((xs[:, 0] == xs[:, 0]).sum())
    for t in range(steps):
        h = torch.tanh(xs[t] @ w + h @ u)
    return h


def loop_collecting(x):
    # The loop appends to a list that stack then reads: each iteration's
    # element takes its slice of the stack's gradient.
    rounds = int((x > -100.0).sum()) % 2 + 2
    outs: List[torch.Tensor] = []
    h = x
    for i in range(rounds):
        h = torch.sin(h)
        outs.append(h)
    return torch.stack(outs).sum()


def recurrence_outputs(xs, w, u, h):
    # An RNN's outputs, one per step of a length the data gives, stacked.
    steps = int((xs[:, 0] == xs[:, 0]).sum())
    outs: List[torch.Tensor] = []
    for t in range(steps):
        h = torch.tanh(xs[t] @ w + h @ u)
        outs.append(h)
    return torch.stack(outs, 1)


def loop_collecting_some(x):
    # Appends under a condition: which iteration an element came from is
    # not its index, and that is refused rather than guessed.
    rounds = int((x > -100.0).sum()) % 2 + 3
    outs: List[torch.Tensor] = []
    h = x
    for i in range(rounds):
        h = torch.sin(h)
        if i % 2 == 0:
            outs.append(h)
    return torch.stack(outs).sum()


def lstm_loop(x, h, c, w_ih, w_hh, b_ih, b_hh):
    # The seed's LSTM loop: one cell per step of x, weights as inputs.
    for t in range(x.size(0)):
        gates = x[t] @ w_ih.t() + h @ w_hh.t() + b_ih + b_hh
        i, f, g, o = gates.chunk(4, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
    return h.sum() + c.sum()


def branch_in_loop(x, w):
    rounds = int((x > -100.0).sum()) % 3 + 2
    acc = x
    for i in range(rounds):
        if i % 2 == 0:
            acc = acc + torch.sin(acc * w)
        else:
            acc = acc * w
    return acc


def int_powers(x):
    return (x ** 2).sum() + (x ** 3).mean()


# ---------------------------------------------------------------- more elementwise and reductions

def elementwise_more(x, y):
    a = torch.expm1(x * 0.3) + torch.log1p(x.abs()) + torch.pow(2.0, x)
    b = F.mish(x) + torch.maximum(x, y) - torch.minimum(x, y * 0.5)
    c = torch.addcmul(x, x, y, value=0.5) + torch.addcdiv(x, x, y.abs() + 1)
    d = torch.lerp(x, y, 0.3)
    return (a * b).sum() + (c * d).sum()


def shapes_more(x):
    a = x.tril(1) + x.triu(-1) + x.roll(1, 1) + x.flip(0)
    b = x.cumsum(1) * x.narrow(1, 0, 4).sum()
    return (a * a).sum() + b.sum()


def maxima_more(x):
    return x.amax(dim=1).sum() + x.amin(dim=(0, 1), keepdim=True).sum() + \
        x.max() * 2 - x.min()


# ---------------------------------------------------------------- writes through views

def zeroed_slice_of_clone(b, x):
    # Swin v2's qkv bias: k's third of a cloned bias is zeroed in place.
    qkv_bias = b.clone()
    length = qkv_bias.numel() // 3
    qkv_bias[length:2 * length].zero_()
    return (x * qkv_bias).sum()


def filled_row_of_product(x, y):
    # A select of fresh memory written in place, the rest read after.
    z = x * y
    z[1].fill_(0.5)
    z[0].mul_(y[0])
    return (z * z).sum()


def dropout_in_place_after_flatten(x, w):
    # EfficientNet's classifier: nn.Dropout(inplace=True) on a flatten.
    y = torch.flatten(F.adaptive_avg_pool2d(x * w, 1), 1)
    return F.dropout(y, 0.0, True, True)


def zeroed_slice_of_row(x):
    # A write through a view of a view: refused at the op, not
    # differentiated as if it had not happened.
    z = x * 2
    row = z[0]
    row[1:3].zero_()
    return (z * z).sum()


# ---------------------------------------------------------------- options refused once

def batch_norm_training_affine(x, mean, var, w, b):
    return F.batch_norm(x, mean, var, w, b, True, 0.1, 1e-5)


def avg_pool_ceil(x):
    return F.avg_pool2d(x, 2, ceil_mode=True).sum()


def avg_pool_options(x):
    a = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True,
                     count_include_pad=False)
    b = F.avg_pool2d(x, (2, 3), stride=(2, 2), padding=(1, 1),
                     divisor_override=4)
    c = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True)
    return (a * a).sum() + (b * b).sum() + (c * c).sum()




CASES = [
    GradCase(add_broadcast, [r(3, 4), r(4)]),
    GradCase(sub_alpha, [r(2, 3), r(1, 3)]),
    GradCase(mul_broadcast, [r(2, 1, 4), r(3, 1)]),
    GradCase(div_broadcast, [r(3, 4), pos(4)]),
    GradCase(scalar_ops, [r(5)]),
    GradCase(rsub_scalar, [r(5)]),
    GradCase(neg_pow_square, [r(6)]),
    GradCase(exp_log, [pos(3, 3)]),
    GradCase(sqrt_rsqrt, [pos(7)]),
    GradCase(trig_abs, [r(8)]),
    GradCase(activations, [r(4, 5)]),
    GradCase(gelu_both, [r(10)]),
    GradCase(mm, [r(3, 4), r(4, 5)]),
    GradCase(bmm, [r(2, 3, 4), r(2, 4, 5)]),
    GradCase(matmul, [r(2, 3, 4), r(4, 5)], name="matmul_batched_broadcast"),
    GradCase(matmul, [r(4), r(4, 5)], name="matmul_vector_matrix"),
    GradCase(matmul, [r(4), r(4)], name="matmul_dot"),
    GradCase(linear, [r(3, 4), r(5, 4), r(5)]),
    GradCase(_linear.linear_nobias, [r(2, 3, 4), r(5, 4)],
             name="linear_3d_no_bias"),
    GradCase(addmm, [r(5), r(3, 4), r(4, 5)]),
    GradCase(views, [r(4, 6)]),
    GradCase(expand, [r(4, 1)]),
    GradCase(sum_mean, [r(3, 4)]),
    GradCase(sum_mean_dims, [r(2, 3, 4)]),
    GradCase(softmaxes, [r(3, 5)]),
    GradCase(logsumexp, [r(3, 5)]),
    GradCase(mse, [r(3, 4), r(3, 4)]),
    GradCase(mse_sum, [r(3, 4), r(3, 4)]),
    GradCase(nll, [r(4, 5), torch.tensor([1, 2, 0, 4])]),
    GradCase(nll_none, [r(4, 5), torch.tensor([1, 2, 0, 4])]),
    GradCase(cross_entropy, [r(4, 5), torch.tensor([1, 2, 0, 4])]),
    GradCase(cross_entropy_sum, [r(4, 5), torch.tensor([1, 0, 0, 4])]),
    GradCase(mlp, [r(6, 4), r(8, 4), r(8), r(3, 8), r(3),
                   torch.tensor([0, 1, 2, 1, 0, 2])]),
    GradCase(shared_value, [r(5)]),
    GradCase(cat, [r(2, 3), r(2, 4)]),
    GradCase(stack, [r(2, 3), r(2, 3)]),
    GradCase(slicing, [r(3, 5)]),
    GradCase(conv2d, [r(2, 3, 7, 7), r(4, 3, 3, 3), r(4)]),
    GradCase(conv2d_dilated_uneven, [r(1, 2, 9, 8), r(3, 2, 2, 3), r(3)]),
    GradCase(conv2d_groups, [r(2, 4, 5, 5), r(6, 2, 3, 3)]),
    GradCase(conv2d_depthwise, [r(1, 4, 6, 6), r(4, 1, 3, 3), r(4)]),
    GradCase(conv3d, [r(2, 2, 4, 5, 5), r(3, 2, 3, 3, 3), r(3)]),
    GradCase(conv_transpose2d, [r(2, 3, 4, 5), r(3, 2, 3, 3), r(2)]),
    GradCase(conv_transpose2d_groups_dilated, [r(1, 4, 5, 4), r(4, 3, 3, 2)]),
    GradCase(conv_transpose1d_traced, [r(2, 3, 5), r(3, 3, 4), r(3)]),
    GradCase(conv_transpose3d, [r(1, 2, 3, 4, 3), r(2, 3, 3, 3, 2), r(3)]),
    GradCase(traced_convolutions, [r(2, 3, 5, 5), r(4, 3, 3, 3),
                                   r(2, 4, 1, 3, 3)]),
    GradCase(conv3d_dilated_groups, [r(1, 4, 5, 6, 7), r(4, 2, 2, 2, 3)]),
    GradCase(batch_norm_eval, [r(2, 3, 4, 4), r(3), r(3), r(3), pos(3)],
             constant=(3, 4)),
    GradCase(batch_norm_no_affine, [r(2, 3, 5), r(3), pos(3)],
             constant=(1, 2)),
    GradCase(global_pool, [r(2, 3, 4, 5)]),
    GradCase(pool_2x2, [r(2, 3, 4, 6)]),
    GradCase(small_cnn, [r(2, 3, 6, 6), r(4, 3, 3, 3), r(4), pos(4), r(4),
                         r(5, 4), r(5), torch.tensor([1, 4])]),
    GradCase(more_activations, [r(4, 6) * 3]),
    GradCase(layer_norm, [r(2, 3, 4), r(3, 4), r(3, 4)]),
    GradCase(layer_norm_no_affine, [r(3, 5)]),
    GradCase(embedding, [r(7, 3), torch.tensor([[0, 1, 6], [6, 2, 0]])]),
    GradCase(var_dim, [r(4, 6)]),
    GradCase(permute_negative, [r(3, 5, 4)]),
    GradCase(group_norm_affine, [r(2, 4, 3, 5), r(4), r(4)]),
    GradCase(group_norm_plain, [r(2, 6, 7)]),
    GradCase(instance_norm_affine, [r(2, 3, 4, 5), r(3), r(3)]),
    GradCase(instance_norm_plain, [r(2, 4, 7)]),
    GradCase(instance_norm_running, [r(2, 3, 4, 4), r(3), r(3)]),
    GradCase(conv1d_strided, [r(2, 4, 11), r(6, 2, 3), r(6)]),
    GradCase(std_whole_and_dim, [r(3, 5)]),
    GradCase(var_correction, [r(4, 6)]),
    # Repeated indices add up.
    GradCase(gather_repeated, [r(3, 4), torch.tensor([[0, 0, 3], [1, 2, 1],
                                                      [3, 3, 3]])]),
    GradCase(index_select_middle, [r(2, 5, 3), torch.tensor([4, 0, 4, 2])]),
    GradCase(bce_with_logits, [r(3, 4), torch.rand(3, 4)]),
    GradCase(bce, [r(3, 4), torch.rand(3, 4)]),
    GradCase(tiny_transformer_block, [r(2, 5, 6), r(8, 6), r(8), r(6), r(6),
                                      r(6, 8)]),
    GradCase(max_pool_default_stride, [r(2, 3, 6, 6)]),
    GradCase(max_pool_overlapping, [r(2, 3, 7, 9)]),
    GradCase(max_pool_ties_dilated, [torch.round(r(1, 2, 7, 8) * 2)]),
    GradCase(max_pool_nonfinite, [nonfinite_planes()]),
    GradCase(resnet_stem, [r(2, 3, 16, 16), r(8, 3, 7, 7) * 0.1, pos(8),
                           r(8)]),
    GradCase(branch_on_data, [r(3, 4), r(4, 4)], name="branch_on_data_then"),
    GradCase(branch_on_data, [r(3, 4), -r(4, 4)], name="branch_on_data"),
    GradCase(branch_on_input, [r(3, 4), r(3, 4), True], name="branch_true"),
    GradCase(branch_on_input, [r(3, 4), r(3, 4), False], name="branch_false"),
    GradCase(branch_yields_outer, [r(5), r(5), True], name="yields_outer"),
    GradCase(branch_yields_outer, [r(5), r(5), False],
             name="yields_outer_else"),
    GradCase(avg_pool, [r(2, 3, 6, 6)]),
    GradCase(avg_pool_padded, [r(2, 3, 7, 9)]),
    GradCase(where_clamp, [r(3, 4), r(4)]),
    GradCase(splits, [r(3, 5)]),
    GradCase(unbind, [r(2, 3, 4)]),
    GradCase(avg_pool_ceil, [r(1, 2, 5, 5)]),
    GradCase(avg_pool_options, [r(2, 3, 7, 6)]),
    GradCase(batch_norm_training, [r(2, 3, 4), r(3), pos(3)],
             constant=(1, 2)),
    GradCase(batch_norm_training_affine, [r(4, 3, 2, 2), r(3), pos(3),
                                          r(3), r(3)],
             constant=(1, 2)),
    GradCase(weighted_nll, [r(4, 5), torch.tensor([1, 2, 0, 4]), pos(5)],
             constant=(2,)),
    GradCase(weighted_nll_ignored, [r(5, 4), torch.tensor([1, 2, 0, 3, 1]),
                                    pos(4)], constant=(2,)),
    GradCase(nll_spatial, [r(2, 3, 4), torch.tensor([[0, 2, 1, 1],
                                                     [2, 2, 0, 1]])]),
    GradCase(cross_entropy_weighted_smoothed,
             [r(4, 5), torch.tensor([1, 2, 0, 4]), pos(5)], constant=(2,)),
    GradCase(cross_entropy_smoothed_sum, [r(5, 4),
                                          torch.tensor([1, 3, 0, 2, 3])]),
    GradCase(cross_entropy_probabilities,
             [r(3, 4), torch.softmax(r(3, 4), 1), pos(4)], constant=(1, 2)),
    GradCase(cross_entropy_spatial, [r(2, 3, 2, 2),
                                     torch.tensor([[[0, 2], [1, 1]],
                                                   [[2, 2], [0, 1]]])]),
    GradCase(max_pool_ceil, [r(1, 2, 5, 5)],
             finite_differences=True),
    GradCase(unfold_windows, [r(1, 2, 3, 4)],
             finite_differences=True),
    GradCase(halve_while_large, [r(3, 4) * 2],
             finite_differences=True),
    GradCase(recurrence_of_data_length, [r(5, 3), r(3, 4) * 0.5,
                                         r(4, 4) * 0.5, r(4)],
             finite_differences=True),
    GradCase(branch_in_loop, [r(3, 4), r(4) * 0.5],
             finite_differences=True),
    GradCase(loop_collecting, [r(3, 4)],
             finite_differences=True),
    GradCase(recurrence_outputs, [r(5, 3), r(3, 4) * 0.5, r(4, 4) * 0.5,
                                  r(2, 4)],
             finite_differences=True),
    GradCase(loop_collecting_some, [r(3, 4)],
             error="(an append in a loop that did not unroll) is not "
                   "differentiable yet"),
    GradCase(lstm_loop, [r(64, 2, 8), r(2, 16), r(2, 16), r(64, 8) * 0.2,
                         r(64, 16) * 0.2, r(64) * 0.1, r(64) * 0.1],
             name="lstm_loop_64_steps"),
    GradCase(zeroed_slice_of_clone, [r(6), r(6)]),
    GradCase(filled_row_of_product, [r(3, 4), r(3, 4)]),
    GradCase(dropout_in_place_after_flatten, [r(2, 3, 4, 4), r(3, 1, 1)]),
    GradCase(zeroed_slice_of_row, [r(3, 4)],
             error="writes in place into a tensor the gradient flows "
                   "through"),
    GradCase(int_powers, [r(3, 4)]),
    GradCase(elementwise_more, [r(3, 4), r(4)]),
    GradCase(shapes_more, [r(5, 6)]),
    GradCase(maxima_more, [r(3, 5, 4)]),
    GradCase(max_pool_indices, [r(1, 2, 6, 7), r(1, 2, 4, 4, 6)]),
    GradCase(adaptive_max_pools, [r(2, 3, 7), r(1, 2, 5, 7), r(1, 2, 4, 5, 3)]),
    GradCase(embedding_by_frequency, [r(6, 3), torch.tensor([[1, 2, 2],
                                                             [0, 5, 2]])]),
]
