"""linear.py - generated end-to-end cases for the Linear family: mm, bmm,
matmul in every rank combination, addmm/baddbmm with beta and alpha,
linear with and without bias, dot and outer."""

import torch
import torch.nn.functional as F

from op_case import Case

torch.manual_seed(0)


def mm(a, b):
    return torch.mm(a, b)


def mm_t(x, w):
    return torch.mm(x, w.t())


def bmm(a, b):
    return torch.bmm(a, b)


def matmul(a, b):
    return torch.matmul(a, b)


def matmul_op(a, b):
    return a @ b


def addmm(s, a, b):
    return torch.addmm(s, a, b)


def addmm_scaled(s, a, b):
    return torch.addmm(s, a, b, beta=0.5, alpha=-2.0)


def addmm_beta0(s, a, b):
    return torch.addmm(s, a, b, beta=0.0, alpha=3.0)


def addmm_runtime_scalars(s, a, b, beta: float, alpha: float):
    return torch.addmm(s, a, b, beta=beta, alpha=alpha)


def baddbmm(s, a, b):
    return torch.baddbmm(s, a, b)


def baddbmm_scaled(s, a, b):
    return torch.baddbmm(s, a, b, beta=2.0, alpha=0.25)


def baddbmm_inplace(s, a, b):
    t = s.clone()
    t.baddbmm_(a, b, beta=0.5)
    return t


def linear(x, w, b):
    return F.linear(x, w, b)


def linear_nobias(x, w):
    return F.linear(x, w)


def dot(a, b):
    return torch.dot(a, b)


def outer(a, b):
    return torch.outer(a, b)


def einsum_bmm(a, b):
    return torch.einsum("bij,bjk->bik", a, b)


def einsum_attention(q, k):
    return torch.einsum("bhqd, bhkd -> bhqk", q, k)


def einsum_implicit(a, b):
    return torch.einsum("ba,ab", a, b)


def einsum_trace(a):
    return torch.einsum("ii", a)


def einsum_diagonal(a):
    return torch.einsum("ii->i", a)


def einsum_three(a, b, c):
    return torch.einsum("i,ij,j->", a, b, c)


def einsum_broadcast(a, b):
    return torch.einsum("ij,ij->ij", a, b)


def einsum_ellipsis(a, b):
    # The ellipsis broadcasts: (2, 3) batch dims against (3,), and an
    # implicit output puts them first.
    return (torch.einsum("...ij,...jk->...ik", a, b),
            torch.einsum("...ij,jk", a, b[0]))


def r(*shape, dtype=torch.float32):
    return torch.randn(*shape, dtype=dtype)


nan_self = r(5)
nan_self[2] = float("nan")

CASES = [
    Case(mm, [r(5, 3), r(3, 7)]),
    Case(mm, [r(4, 6, dtype=torch.float64), r(6, 2, dtype=torch.float64)],
         name="mm_f64"),
    Case(mm, [torch.randint(-5, 5, (3, 4)), torch.randint(-5, 5, (4, 2))],
         name="mm_i64"),
    Case(mm_t, [r(5, 3), r(7, 3)]),
    Case(bmm, [r(2, 3, 4), r(2, 4, 5)]),
    Case(matmul, [r(7), r(7)], name="matmul_1x1", op="matmul"),
    Case(matmul, [r(3, 7), r(7)], name="matmul_2x1", op="matmul"),
    Case(matmul, [r(7), r(7, 4)], name="matmul_1x2", op="matmul"),
    Case(matmul, [r(3, 7), r(7, 4)], name="matmul_2x2", op="matmul"),
    Case(matmul, [r(2, 3, 7), r(7, 4)], name="matmul_3x2", op="matmul"),
    Case(matmul, [r(2, 2, 3, 7), r(7)], name="matmul_4x1", op="matmul"),
    Case(matmul, [r(7), r(2, 7, 4)], name="matmul_1x3", op="matmul"),
    Case(matmul, [r(3, 7), r(2, 7, 4)], name="matmul_2x3", op="matmul"),
    Case(matmul, [r(2, 3, 5, 4), r(2, 3, 4, 6)], name="matmul_4x4",
         op="matmul"),
    Case(matmul, [r(2, 1, 5, 4), r(3, 4, 6)], name="matmul_broadcast",
         op="matmul"),
    Case(matmul, [r(1, 5, 4), r(3, 4, 2)], name="matmul_broadcast_1",
         op="matmul"),
    Case(matmul_op, [r(4, 5, 3, dtype=torch.float64),
                     r(4, 3, 2, dtype=torch.float64)], op="matmul"),
    Case(addmm, [r(5), r(3, 4), r(4, 5)]),
    Case(addmm, [r(3, 5), r(3, 4), r(4, 5)], name="addmm_full"),
    Case(addmm_scaled, [r(3, 1), r(3, 4), r(4, 5)], op="addmm"),
    Case(addmm_beta0, [nan_self, r(3, 4), r(4, 5)], op="addmm"),
    Case(addmm_runtime_scalars, [r(5), r(3, 4), r(4, 5), 0.5, 1.5],
         op="addmm"),
    Case(baddbmm, [r(2, 3, 5), r(2, 3, 4), r(2, 4, 5)]),
    Case(baddbmm_scaled, [r(5), r(2, 3, 4), r(2, 4, 5)], op="baddbmm"),
    Case(baddbmm_inplace, [r(2, 3, 5), r(2, 3, 4), r(2, 4, 5)],
         op="baddbmm_"),
    Case(linear, [r(4, 3), r(5, 3), r(5)]),
    Case(linear, [r(2, 3, 6), r(5, 6), r(5)], name="linear_3d"),
    Case(linear, [r(6), r(5, 6), r(5)], name="linear_1d"),
    Case(linear, [r(2, 3, 6, dtype=torch.float64),
                  r(5, 6, dtype=torch.float64), r(5, dtype=torch.float64)],
         name="linear_f64"),
    Case(linear_nobias, [r(2, 2, 3, 6), r(4, 6)], op="linear"),
    Case(dot, [r(9), r(9)]),
    Case(outer, [r(4), r(3)]),
    Case(einsum_bmm, [r(2, 3, 4), r(2, 4, 5)], op="einsum"),
    Case(einsum_attention, [r(1, 2, 3, 4), r(1, 2, 5, 4)], op="einsum"),
    Case(einsum_implicit, [r(2, 3), r(3, 2)], op="einsum"),
    Case(einsum_ellipsis, [r(2, 3, 4, 5), r(3, 5, 2)], op="einsum"),
    Case(einsum_trace, [r(4, 4, dtype=torch.float64)], op="einsum"),
    Case(einsum_diagonal, [r(3, 3)], op="einsum"),
    Case(einsum_three, [r(3), r(3, 4), r(4)], op="einsum"),
    Case(einsum_broadcast, [r(3, 1), r(1, 4)], op="einsum"),
]
