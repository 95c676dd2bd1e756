"""linalg_kernels.py - generated end-to-end cases for the LAPACK-backed
linear algebra kernels (runtime/lib/kernels/Linalg*.cpp): det, slogdet,
logdet, inv, solve (left/right, vector, broadcast batches), Cholesky and
its solve/inverse, LU factor/unpack/solve, triangular solves, QR in every
mode, SVD and svdvals, eigh/eigvalsh, lstsq with each driver, pinv and
matrix_rank (plain and hermitian), householder_product/geqrf/ormqr, the
vector/matrix norms and aten::norm, cond, cross, vecdot, multi_dot,
matrix_power, matrix_exp, tensorinv and tensorsolve. Decompositions are
compared element by element: tsir calls the same LAPACK routines as torch,
so signs and orders agree."""


import torch

from op_case import Case

torch.manual_seed(0)


def r(*shape):
    return torch.randn(*shape)


def spd(*shape):
    a = torch.randn(*shape)
    return a @ a.transpose(-2, -1) + shape[-1] * torch.eye(shape[-1])


def sym(*shape):
    a = torch.randn(*shape)
    return a + a.transpose(-2, -1)


def well(*shape):
    return torch.randn(*shape) + 3 * torch.eye(shape[-1])


def det(a):
    return torch.linalg.det(a)


def slogdet(a):
    s, l = torch.linalg.slogdet(a)
    return s, l


def logdet(a):
    return torch.logdet(a)


def inv(a):
    return torch.linalg.inv(a)


def inv_ex(a):
    x, info = torch.linalg.inv_ex(a)
    return x, info


def solve(a, b):
    return torch.linalg.solve(a, b)


def solve_right(a, b):
    return torch.linalg.solve(a, b, left=False)


def cholesky(a):
    return torch.linalg.cholesky(a), torch.linalg.cholesky(a, upper=True)


def cholesky_ex(a):
    l, info = torch.linalg.cholesky_ex(a)
    return l, info


def cholesky_solve(b, a):
    l = torch.linalg.cholesky(a)
    return torch.cholesky_solve(b, l), torch.cholesky_inverse(l)


def lu(a):
    p, l, u = torch.linalg.lu(a)
    return p, l, u


def lu_factor_solve(a, b):
    lu_, piv = torch.linalg.lu_factor(a)
    return lu_, piv, torch.linalg.lu_solve(lu_, piv, b)


def lu_unpack(a):
    lu_, piv = torch.linalg.lu_factor(a)
    p, l, u = torch.lu_unpack(lu_, piv)
    return p, l, u


def solve_triangular(a, b):
    u = torch.triu(a)
    return (torch.linalg.solve_triangular(u, b, upper=True),
            torch.linalg.solve_triangular(u.transpose(-2, -1), b.transpose(-2, -1),
                                          upper=False, left=False))


def triangular_solve(b, a):
    x, m = torch.triangular_solve(b, a, upper=False)
    return x, m


def qr(a):
    q, r_ = torch.linalg.qr(a)
    return q, r_


def qr_complete(a):
    q, r_ = torch.linalg.qr(a, mode="complete")
    return q, r_


def qr_r(a):
    q, r_ = torch.linalg.qr(a, mode="r")
    return r_


def svd(a):
    u, s, vh = torch.linalg.svd(a, full_matrices=False)
    return u, s, vh


def svdvals(a):
    return torch.linalg.svdvals(a)


def eigh(a):
    w, v = torch.linalg.eigh(a)
    return w, v


def eigvalsh(a):
    return torch.linalg.eigvalsh(a, UPLO="U")


def lstsq(a, b):
    x = torch.linalg.lstsq(a, b)
    return x.solution, x.rank


def lstsq_gelsd(a, b):
    x = torch.linalg.lstsq(a, b, driver="gelsd")
    return x.solution, x.residuals, x.rank, x.singular_values


def pinv(a):
    return torch.linalg.pinv(a)


def pinv_hermitian(a):
    return torch.linalg.pinv(a, hermitian=True)


def matrix_rank(a):
    return torch.linalg.matrix_rank(a)


def householder(a):
    g, tau = torch.geqrf(a)
    return torch.linalg.householder_product(g, tau)


def ormqr(a, c):
    g, tau = torch.geqrf(a)
    return torch.ormqr(g, tau, c)


def vector_norm(x):
    return (torch.linalg.vector_norm(x), torch.linalg.vector_norm(x, 1, dim=1),
            torch.linalg.vector_norm(x, float("inf"), dim=(0, 2), keepdim=True))


def matrix_norm(x):
    return (torch.linalg.matrix_norm(x), torch.linalg.matrix_norm(x, "nuc"),
            torch.linalg.matrix_norm(x, 2), torch.linalg.matrix_norm(x, -1))


def linalg_norm(x):
    return torch.linalg.norm(x), torch.linalg.norm(x, dim=1)


def legacy_norm(x):
    return torch.norm(x), torch.norm(x, p=1, dim=1)


def norm_dims(x):
    # F.normalize (Swin v2's cosine attention) is norm(x, 2, dim, keepdim);
    # norm.ScalarOpt_dim decomposes into linalg_vector_norm, which lowers.
    return (torch.nn.functional.normalize(x, dim=-1),
            torch.norm(x, p=3, dim=[0, 2], keepdim=True),
            torch.norm(x, p=float("inf"), dim=1),
            torch.norm(x, p=0, dim=2),
            torch.linalg.vector_norm(x, 2, dim=-1, dtype=torch.float64))


def cond(a):
    return torch.linalg.cond(a), torch.linalg.cond(a, 1)


def cross(a, b):
    return torch.linalg.cross(a, b)


def vecdot(a, b):
    return torch.linalg.vecdot(a, b)


def multi_dot(a, b, c):
    return torch.linalg.multi_dot([a, b, c])


def matrix_power(a):
    return torch.linalg.matrix_power(a, 5), torch.linalg.matrix_power(a, -2)


def matrix_exp(a):
    return torch.linalg.matrix_exp(a)


def tensorinv(a):
    return torch.linalg.tensorinv(a, ind=2)


def tensorsolve(a, b):
    return torch.linalg.tensorsolve(a, b)


CASES = [
    Case(det, [r(3, 3)]),
    Case(det, [r(2, 4, 4)], name="det_batched"),
    Case(slogdet, [r(2, 3, 3)]),
    Case(logdet, [spd(2, 3, 3)]),
    Case(inv, [well(2, 3, 3)]),
    Case(inv_ex, [well(4, 4)]),
    Case(solve, [well(2, 3, 3), r(2, 3, 2)]),
    Case(solve, [well(2, 3, 3), r(3)], name="solve_vector_broadcast"),
    Case(solve_right, [well(3, 3), r(2, 3)]),
    Case(cholesky, [spd(2, 3, 3)]),
    Case(cholesky_ex, [spd(4, 4)]),
    Case(cholesky_solve, [r(3, 2), spd(3, 3)]),
    Case(lu, [r(2, 3, 4)]),
    Case(lu_factor_solve, [well(2, 3, 3), r(2, 3, 2)]),
    Case(lu_unpack, [r(4, 3)]),
    Case(solve_triangular, [well(2, 3, 3), r(2, 3, 2)]),
    Case(triangular_solve, [r(2, 3, 2), well(3, 3)]),
    Case(qr, [r(2, 4, 3)]),
    Case(qr_complete, [r(4, 3)]),
    Case(qr_r, [r(3, 5)]),
    Case(svd, [r(2, 4, 3)]),
    Case(svdvals, [r(3, 5)]),
    Case(eigh, [sym(2, 4, 4)]),
    Case(eigvalsh, [sym(3, 3)]),
    Case(lstsq, [r(2, 5, 3), r(2, 5, 2)]),
    Case(lstsq_gelsd, [r(5, 3), r(5, 2)]),
    Case(pinv, [r(2, 4, 3)]),
    Case(pinv_hermitian, [sym(3, 3)]),
    Case(matrix_rank, [r(2, 4, 3)]),
    Case(householder, [r(4, 3)]),
    Case(ormqr, [r(4, 3), r(4, 2)]),
    Case(vector_norm, [r(2, 3, 4)]),
    Case(matrix_norm, [r(2, 3, 4)]),
    Case(linalg_norm, [r(3, 4)]),
    Case(legacy_norm, [r(3, 4)]),
    Case(norm_dims, [r(2, 3, 4)]),
    Case(cond, [well(2, 3, 3)], rtol=1e-3),
    Case(cross, [r(2, 3), r(2, 3)]),
    Case(vecdot, [r(2, 4), r(4)]),
    Case(multi_dot, [r(2, 3), r(3, 4), r(4)]),
    Case(matrix_power, [well(3, 3) / 3]),
    Case(matrix_exp, [r(2, 3, 3)]),
    Case(tensorinv, [well(6, 6).reshape(2, 3, 6)]),
    Case(tensorsolve, [well(6, 6).reshape(6, 2, 3), r(6)]),
]
