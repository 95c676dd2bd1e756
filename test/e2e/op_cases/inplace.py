"""inplace.py - generated end-to-end cases for in-place ops: scripted
functions that mutate a graph input or a fresh tensor in place and return
the mutated tensor (and something computed from it). tsir-value-semantics
rewrites each in-place op to its functional form and writes mutated inputs
back; the runner compares the outputs."""

import torch

from op_case import Case

torch.manual_seed(0)


def add_(x, y):
    x.add_(y)
    return x, x * 2.0


def add_alpha_(x, y):
    x.add_(y, alpha=0.5)
    return x


def sub_(x, y):
    x.sub_(y)
    return x, x.sum()


def mul_(x):
    x.mul_(2.0)
    return x


def mul_tensor_(x, y):
    x.mul_(y)
    return x


def div_(x, y):
    x.div_(y)
    return x


def relu_(x):
    x.relu_()
    return x, x + 1.0


def clamp_(x):
    x.clamp_(0, 1)
    return x


def masked_fill_(x, m):
    x.masked_fill_(m, 0.)
    return x


def neg_(x):
    x.neg_()
    return x


def exp_(x):
    x.exp_()
    return x


def sigmoid_(x):
    x.sigmoid_()
    return x


def tanh_(x):
    x.tanh_()
    return x


def copy_(x, y):
    x.copy_(y)
    return x, x + y


def zero_(x):
    x.zero_()
    return x


def fill_(x):
    x.fill_(3.)
    return x


def pow_(x):
    x.pow_(2)
    return x


def abs_(x):
    x.abs_()
    return x


def sqrt_(x):
    x.sqrt_()
    return x


def log_(x):
    x.log_()
    return x


def unsqueeze_(x):
    x.unsqueeze_(0)
    return x


def squeeze_(x):
    x.squeeze_()
    return x


def fresh_add_(x):
    y = x * 3.0
    y.add_(1.0)
    return y


def fresh_chain_(x, y):
    z = x + y
    z.mul_(y)
    z.relu_()
    z.sub_(0.5)
    return z, z.mean()


def fresh_zero_(x):
    y = x + 1.0
    y.zero_()
    return y


def fresh_fill_(x):
    y = x.clone()
    y.fill_(2.5)
    return y + x


def int_add_(x, y):
    x.add_(y)
    x.mul_(3)
    return x


def assign_block(x):
    """Writes through a chain of slices of a fresh tensor (Swin's attention
    mask: m[a:b, c:d] = count): slice_scatter into each base."""
    m = x.new_zeros((6, 8))
    count = 0
    for h in ((0, -4), (-4, -2), (-2, None)):
        for w in ((0, -5), (-5, -1), (-1, None)):
            m[h[0]:h[1], w[0]:w[1]] = count
            count += 1
    return m + x


def assign_strided(x, y):
    """A strided slice of a graph input written with a broadcast row; the
    input is written back."""
    x[1:, ::2] = y
    return x, x.sum()


def assign_select(x, y):
    """A select then a slice: x[1, 2:4] = y[0, :2]."""
    x[1, 2:4] = y[0, :2]
    return x


def add_through_slice(x):
    """An in-place op other than copy_ on a view: x[:, 1:3] += 1."""
    z = x * 1.0
    z[:, 1:3] += 1.0
    return z


def slice_scatter(x, y):
    return torch.slice_scatter(x, y, 1, 1, 5, 2)


def select_scatter(x, y):
    return torch.select_scatter(x, y, 0, -1)


CASES = [
    Case(assign_block, [torch.randn(6, 8)]),
    Case(assign_strided, [torch.randn(3, 6), torch.randn(3)]),
    Case(assign_select, [torch.randn(3, 5), torch.randn(2, 4)]),
    Case(add_through_slice, [torch.randn(3, 5)]),
    Case(slice_scatter, [torch.randn(3, 6), torch.randn(3, 2)]),
    Case(select_scatter, [torch.randn(4, 5), torch.randn(5)]),
    Case(add_, [torch.randn(3, 5), torch.randn(3, 5)]),
    Case(add_, [torch.randn(3, 5), torch.randn(5)], name="add_broadcast"),
    Case(add_alpha_, [torch.randn(4, 3), torch.randn(4, 3)]),
    Case(sub_, [torch.randn(3, 5), torch.randn(3, 5)]),
    Case(mul_, [torch.randn(2, 7)]),
    Case(mul_tensor_, [torch.randn(2, 7), torch.randn(2, 7)]),
    Case(div_, [torch.randn(3, 4), torch.rand(3, 4) + 0.5]),
    Case(relu_, [torch.randn(3, 5)]),
    Case(clamp_, [torch.randn(4, 5)]),
    Case(masked_fill_, [torch.randn(3, 5), torch.rand(3, 5) > 0.5]),
    Case(neg_, [torch.randn(3, 5)]),
    Case(exp_, [torch.randn(3, 5)]),
    Case(sigmoid_, [torch.randn(3, 5)]),
    Case(tanh_, [torch.randn(3, 5)]),
    Case(copy_, [torch.randn(3, 5), torch.randn(3, 5)]),
    Case(zero_, [torch.randn(3, 5)]),
    Case(fill_, [torch.randn(3, 5)]),
    Case(pow_, [torch.randn(3, 5)]),
    Case(abs_, [torch.randn(3, 5)]),
    Case(sqrt_, [torch.rand(3, 5) + 0.1]),
    Case(log_, [torch.rand(3, 5) + 0.1]),
    Case(unsqueeze_, [torch.randn(3, 5)],
         xfail="tsir-value-semantics: unsqueeze_ changes the shape in place; "
               "the functional unsqueeze it makes is not legalized"),
    Case(squeeze_, [torch.randn(3, 1, 5)],
         xfail="tsir-value-semantics: squeeze_ changes the shape in place; "
               "the functional squeeze it makes is not legalized"),
    Case(fresh_add_, [torch.randn(3, 5)]),
    Case(fresh_chain_, [torch.randn(3, 5), torch.randn(3, 5)]),
    Case(fresh_zero_, [torch.randn(3, 5)]),
    Case(fresh_fill_, [torch.randn(3, 5)]),
    Case(int_add_, [torch.randint(-9, 9, (3, 5)), torch.randint(-9, 9, (3, 5))]),
]
