//===- SpecialFunctions.h - torch's special functions on doubles -*- C++ -*-===//
//
// Private to the runtime: the scalar mathematics behind torch.special and
// the gamma-family ops (digamma, polygamma, zeta, igamma, erfinv, the Bessel
// functions, the orthogonal polynomials, ...), computed in double. No
// tensors here: SpecialKernels.cpp maps these over tensors.
//
// The values are torch's (aten/src/ATen/native/Math.h), including its
// conventions at poles and domain edges (digamma(0) = -inf, zeta(1, q) =
// inf, k0(0) = inf, airy_ai(inf) = NaN, ...) and, for the polynomials, its
// exact algorithms (which recurrence, when cos(n acos x) replaces it, the
// special cases for |x| == 1), because those decide the numbers torch gives
// where the mathematics alone would not. Elsewhere the methods are chosen
// for double accuracy (power series, asymptotic expansions, Newton steps on
// libm's erf), so that the float32 results round to what torch computes.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_KERNELS_SPECIALFUNCTIONS_H
#define TSIR_RUNTIME_LIB_KERNELS_SPECIALFUNCTIONS_H

#include <cstdint>

namespace tsir::rt::special {

//===----------------------------------------------------------------------===//
// Gamma family
//===----------------------------------------------------------------------===//

/// psi(x) = d/dx log Gamma(x); -inf at +0, +inf at -0, NaN at negative
/// integers (torch's and C++'s conventions).
double digamma(double x);
/// psi'(x).
double trigamma(double x);
/// psi'(x) computed in float as torch does for float32 tensors (it differs
/// from the rounded double near the poles at negative integers).
float trigammaF(float x);
/// The n-th derivative of digamma; n >= 0 (the kernel rejects negative n).
double polygamma(int64_t n, double x);
/// Hurwitz zeta(x, q) = sum_{k>=0} (k + q)^-x: inf at x == 1, NaN for
/// x < 1, inf at non-positive integer q, NaN for q < 0 with non-integer x.
double zeta(double x, double q);
/// The multivariate log-gamma of dimension p >= 1 (the kernel checks that
/// x > (p - 1) / 2).
double mvlgamma(double x, int64_t p);
/// The regularized lower and upper incomplete gamma functions P(a, x) and
/// Q(a, x), with SciPy's values on the boundary (NaN for a < 0 or x < 0).
double igamma(double a, double x);
double igammac(double a, double x);

//===----------------------------------------------------------------------===//
// Error function and the normal distribution
//===----------------------------------------------------------------------===//

/// erf^-1(y): +-inf at +-1, NaN outside [-1, 1].
double erfinv(double y);
/// exp(x^2) erfc(x), without the overflow of computing it that way.
double erfcx(double x);
/// The standard normal CDF, its logarithm and its inverse.
double ndtr(double x);
double logNdtr(double x);
double ndtri(double p);

//===----------------------------------------------------------------------===//
// Bessel and Airy functions
//===----------------------------------------------------------------------===//

double besselJ0(double x);
double besselJ1(double x);
/// NaN for x < 0, -inf at 0.
double besselY0(double x);
double besselY1(double x);
/// I0, I1 and their exponentially scaled forms exp(-|x|) I(x).
double besselI0(double x);
double besselI0e(double x);
double besselI1(double x);
double besselI1e(double x);
/// K0, K1 and exp(x) K(x): inf at 0, NaN for x < 0.
double besselK0(double x);
double besselK1(double x);
double besselK0e(double x);
double besselK1e(double x);
/// Ai(x): 0 beyond x = 103.892 (where torch stops), NaN at +-inf.
double airyAi(double x);
/// sin(x) / x, 1 at 0, 0 at +-inf.
double sphericalBesselJ0(double x);

//===----------------------------------------------------------------------===//
// Orthogonal polynomials of degree n (a float n truncates toward zero, as
// torch's cast does; a negative degree gives 0). The ...F variants compute
// in float, as torch does for float32 tensors.
//===----------------------------------------------------------------------===//

/// The polynomials, as an X-macro: `X(name)` for each.
#define TSIR_SPECIAL_POLYNOMIALS(X)                                            \
  X(chebyshevT)                                                                \
  X(chebyshevU)                                                                \
  X(chebyshevV)                                                                \
  X(chebyshevW)                                                                \
  X(shiftedChebyshevT)                                                         \
  X(shiftedChebyshevU)                                                         \
  X(shiftedChebyshevV)                                                         \
  X(shiftedChebyshevW)                                                         \
  X(hermiteH)                                                                  \
  X(hermiteHe)                                                                 \
  X(laguerreL)                                                                 \
  X(legendreP)

#define TSIR_DECLARE_SPECIAL_POLYNOMIAL(name)                                  \
  double name(double x, double n);                                             \
  float name##F(float x, float n);
TSIR_SPECIAL_POLYNOMIALS(TSIR_DECLARE_SPECIAL_POLYNOMIAL)
#undef TSIR_DECLARE_SPECIAL_POLYNOMIAL

//===----------------------------------------------------------------------===//
// Information theory
//===----------------------------------------------------------------------===//

/// -x log x: 0 at 0, -inf for x < 0.
double entr(double x);
/// x log1p(y): 0 when x == 0 (unless y is NaN).
double xlog1py(double x, double y);

} // namespace tsir::rt::special

#endif // TSIR_RUNTIME_LIB_KERNELS_SPECIALFUNCTIONS_H
