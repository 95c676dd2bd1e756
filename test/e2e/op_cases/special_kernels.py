"""special_kernels.py - generated end-to-end cases for the runtime kernels of
torch.special and the gamma family (runtime/lib/kernels/SpecialKernels.cpp):
Bessel, Airy, normal-distribution and error functions, the orthogonal
polynomials (broadcast x against n, and with n or x a Python number), zeta,
xlog1py, entr, digamma/polygamma/lgamma/mvlgamma, igamma/igammac,
nextafter and frexp; in float32 and float64, and with integer inputs, which
compute in float32 as torch's do."""

import math

import torch

from op_case import Case

torch.manual_seed(0)


def r(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


def u(low, high, *shape, dtype=torch.float32):
    return (low + (high - low) * torch.rand(*shape)).to(dtype)


def bessel_family(x):
    a = x.abs() + 0.1
    s = torch.special
    return s.bessel_j0(x), s.bessel_j1(x), s.bessel_y0(a), s.bessel_y1(a), \
        s.modified_bessel_i0(x), s.modified_bessel_i1(x), \
        s.modified_bessel_k0(a), s.modified_bessel_k1(a), \
        s.scaled_modified_bessel_k0(a), s.scaled_modified_bessel_k1(a), \
        s.spherical_bessel_j0(x), s.airy_ai(x)


def bessel_i(x):
    return torch.i0(x), torch.special.i0e(x), torch.special.i1(x), \
        torch.special.i1e(x), torch.special.i0(x)


def normal_family(x):
    s = torch.special
    return s.ndtr(x), s.log_ndtr(x), s.ndtri(torch.sigmoid(x)), s.erfcx(x), \
        torch.erfinv(torch.tanh(x)), s.erfinv(torch.tanh(x))


def polynomials(x, n):
    s = torch.special
    return s.chebyshev_polynomial_t(x, n), s.chebyshev_polynomial_u(x, n), \
        s.chebyshev_polynomial_v(x, n), s.chebyshev_polynomial_w(x, n), \
        s.hermite_polynomial_h(x, n), s.hermite_polynomial_he(x, n), \
        s.laguerre_polynomial_l(x, n), s.legendre_polynomial_p(x, n)


def shifted_polynomials(x, n):
    s = torch.special
    return s.shifted_chebyshev_polynomial_t(x, n), \
        s.shifted_chebyshev_polynomial_u(x, n), \
        s.shifted_chebyshev_polynomial_v(x, n), \
        s.shifted_chebyshev_polynomial_w(x, n)


def polynomial_scalars(x, n):
    s = torch.special
    return s.chebyshev_polynomial_t(x, 9), s.legendre_polynomial_p(x, 4), \
        s.hermite_polynomial_h(0.5, n), s.laguerre_polynomial_l(2.0, n)


def polynomial_endpoints(n):
    s = torch.special
    one = torch.ones(3)
    return s.chebyshev_polynomial_t(-one, n), s.chebyshev_polynomial_u(-one, n), \
        s.chebyshev_polynomial_v(-one, n), s.chebyshev_polynomial_w(one, n), \
        s.legendre_polynomial_p(-one, n)


def gamma_family(x):
    p = x.abs() + 1.5
    return torch.digamma(x), torch.lgamma(x), torch.polygamma(1, p), \
        torch.polygamma(2, p), torch.polygamma(3, x), torch.mvlgamma(p, 1), \
        torch.mvlgamma(p + 1, 3), torch.special.gammaln(p), \
        torch.special.psi(p), torch.special.multigammaln(p + 2, 4), \
        torch.special.polygamma(0, p)


def zeta_ops(x, q):
    s = torch.special
    return s.zeta(x, q), s.zeta(x, 2.0), s.zeta(3.0, q), \
        s.xlog1py(x, q), s.xlog1py(x, 0.5), s.xlog1py(2.0, q), s.entr(q - 1.0)


def igamma_ops(a, x):
    return torch.igamma(a, x), torch.igammac(a, x), \
        torch.special.gammainc(a, x), torch.special.gammaincc(a, x)


def nextafter_frexp(x, y):
    m, e = torch.frexp(x)
    return torch.nextafter(x, y), torch.nextafter(y, x), m, e


def integer_inputs(k, n):
    s = torch.special
    return s.ndtr(k), s.i0e(k), torch.digamma(n), s.zeta(n + 1, n), \
        s.chebyshev_polynomial_t(k, n), s.entr(n), torch.lgamma(k)


def scalar_math(v: float):
    m, e = math.frexp(v)
    return math.lgamma(v), m, e


CASES = [
    Case(bessel_family, [u(-6, 6, 4, 5)], op="special_bessel_j0"),
    Case(bessel_family, [u(-6, 6, 12, dtype=torch.float64)],
         name="bessel_family_f64", op="special_bessel_j0"),
    Case(bessel_i, [u(-12, 12, 3, 4)], op="special_i0e"),
    Case(normal_family, [r(4, 6)], op="special_ndtri"),
    Case(normal_family, [r(10, dtype=torch.float64) * 3],
         name="normal_family_f64", op="special_ndtri"),
    Case(polynomials, [u(-1.5, 1.5, 4, 1), torch.tensor([0., 1., 2., 5., 9.])],
         op="special_chebyshev_polynomial_t"),
    Case(polynomials, [u(-1, 1, 3, 1, dtype=torch.float64),
                       torch.tensor([3., 7., 12.], dtype=torch.float64)],
         name="polynomials_f64", op="special_chebyshev_polynomial_t"),
    Case(shifted_polynomials, [u(-0.2, 1.2, 6, 1), torch.tensor([0., 1., 3., 6., 8.])],
         op="special_shifted_chebyshev_polynomial_t"),
    Case(polynomial_scalars, [u(-1, 1, 5), torch.tensor([0., 2., 4.])],
         op="special_chebyshev_polynomial_t.n_scalar"),
    Case(polynomial_endpoints, [torch.tensor([2., 3., 10.])],
         op="special_chebyshev_polynomial_u"),
    Case(gamma_family, [u(0.2, 6, 3, 5)], op="polygamma"),
    Case(gamma_family, [u(0.2, 6, 8, dtype=torch.float64)],
         name="gamma_family_f64", op="polygamma"),
    Case(zeta_ops, [u(1.5, 5, 3, 1), u(0.5, 4, 4)], op="special_zeta"),
    Case(igamma_ops, [u(0.1, 8, 4, 4), u(0.1, 12, 4, 4)], op="igamma"),
    Case(igamma_ops, [u(20, 40, 6, dtype=torch.float64),
                      u(20, 40, 6, dtype=torch.float64)],
         name="igamma_ops_large_a", op="igamma"),
    Case(nextafter_frexp, [r(3, 4) * 100, r(3, 4)], op="nextafter"),
    Case(nextafter_frexp, [r(5, dtype=torch.float64), r(5, dtype=torch.float64)],
         name="nextafter_frexp_f64", op="frexp.Tensor"),
    Case(integer_inputs, [torch.tensor([0, 1, 3, 7]), torch.tensor([1, 2, 5, 9])],
         op="special_ndtr"),
    Case(scalar_math, [7.5], op="lgamma.float"),
]
