//===- SpecialFunctions.cpp - torch's special functions on doubles --------===//
//
// See SpecialFunctions.h. Every function takes and returns double; the
// kernels round the result to the tensor's dtype. Where torch's value at an
// edge is a convention (a pole, a domain boundary, an infinity) the code
// says so next to the check; where it is an algorithm whose rounding shows
// in the output (the polynomial recurrences) the same algorithm is used.
//
// libstdc++'s C++17 special functions (std::cyl_bessel_k, cyl_bessel_j,
// cyl_neumann) report bad arguments by throwing std::domain_error, which
// under -fno-exceptions aborts the process, so they are only called with
// finite positive arguments.
//
//===----------------------------------------------------------------------===//

#include "SpecialFunctions.h"

#include <cmath>
#include <limits>

namespace tsir::rt::special {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 3.14159265358979323846264338327950288;
constexpr double kSqrtPi = 1.77245385090551602729816748334114518;
constexpr double kSqrt2 = 1.41421356237309504880168872420969808;
constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

bool isEven(int64_t n) { return n % 2 == 0; }
} // namespace

//===----------------------------------------------------------------------===//
// Gamma family
//===----------------------------------------------------------------------===//

double digamma(double x) {
  // C++ and SciPy: psi(+-0) = -+inf; psi(negative integer) = NaN.
  if (x == 0)
    return std::copysign(kInf, -x);
  if (x < 0) {
    if (x == std::trunc(x))
      return kNaN;
    // Reflection psi(x) = psi(1 - x) - pi / tan(pi x), with tan taken of the
    // fractional part: pi * x itself rounds badly for large |x|.
    double whole;
    double fraction = std::modf(x, &whole);
    return digamma(1 - x) - kPi / std::tan(kPi * fraction);
  }
  // psi(x) = psi(x + 1) - 1/x moves x to where the asymptotic series
  // ln x - 1/2x - sum B_2k / (2k x^2k) is accurate to double (x >= 10:
  // the first omitted term is below 1e-16).
  double result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  double z = 1 / (x * x);
  double series =
      z * (1.0 / 12 -
           z * (1.0 / 120 -
                z * (1.0 / 252 -
                     z * (1.0 / 240 -
                          z * (1.0 / 132 - z * (691.0 / 32760 - z / 12))))));
  return result + std::log(x) - 0.5 / x - series;
}

double trigamma(double x) {
  // Reflection psi'(x) = pi^2 / sin^2(pi x) - psi'(1 - x) below 1/2, as
  // torch does (so x = 0 gives +inf).
  double result = 0;
  double sign = 1;
  if (x < 0.5) {
    double s = std::sin(kPi * x);
    result = -(kPi * kPi) / (s * s);
    sign = -1;
    x = 1 - x;
  }
  while (x < 10) {
    result += 1 / (x * x);
    x += 1;
  }
  // psi'(x) ~ 1/x + 1/2x^2 + sum B_2k / x^(2k+1).
  double z = 1 / (x * x);
  double series =
      1 + 0.5 / x +
      z * (1.0 / 6 -
           z * (1.0 / 30 -
                z * (1.0 / 42 -
                     z * (1.0 / 30 -
                          z * (5.0 / 66 - z * (691.0 / 2730 - z * 7.0 / 6))))));
  result += series / x;
  return sign * result;
}

float trigammaF(float x) {
  // torch's float evaluation, step for step: near the poles of negative x
  // its float sin(pi x) is what sets the value, not the mathematics.
  constexpr float pi = static_cast<float>(kPi);
  float sign = 1;
  float result = 0;
  if (x < 0.5f) {
    sign = -1;
    float s = std::sin(pi * x);
    result -= (pi * pi) / (s * s);
    x = 1 - x;
  }
  for (int i = 0; i < 6; ++i) {
    result += 1 / (x * x);
    x += 1;
  }
  float ixx = 1 / (x * x);
  result += (1 + 1 / (2 * x) +
             ixx * (1.f / 6 - ixx * (1.f / 30 - ixx * (1.f / 42)))) /
            x;
  return sign * result;
}

namespace {
/// (2j)! / B_2j for j = 1..12: the Euler-Maclaurin remainder of the Hurwitz
/// zeta sum is sum_j B_2j/(2j)! x(x+1)..(x+2j-2) a^(-x-2j+1).
struct EulerMaclaurinDivisors {
  double values[12];
  EulerMaclaurinDivisors() {
    // Bernoulli numbers B_2 .. B_24 as numerator / denominator.
    const double numerators[12] = {1,     -1,      1,      -1,
                                   5,     -691,    7,      -3617,
                                   43867, -174611, 854513, -236364091};
    const double denominators[12] = {6, 30, 42, 30, 66, 2730,
                                     6, 510, 798, 330, 138, 2730};
    double factorial = 1;
    for (int j = 1; j <= 12; ++j) {
      factorial *= (2.0 * j - 1) * (2.0 * j);
      values[j - 1] = factorial * denominators[j - 1] / numerators[j - 1];
    }
  }
};

const double *eulerMaclaurinDivisors() {
  static const EulerMaclaurinDivisors divisors;
  return divisors.values;
}
} // namespace

double zeta(double x, double q) {
  // torch's (Cephes') domain: a pole at x == 1, NaN below it; q at a
  // non-positive integer is a pole of a term; for negative q the terms are
  // only real when x is an integer.
  if (x == 1)
    return kInf;
  if (x < 1)
    return kNaN;
  if (q <= 0) {
    if (q == std::floor(q))
      return kInf;
    if (x != std::floor(x))
      return kNaN;
  }
  if (std::isnan(x) || std::isnan(q))
    return kNaN;
  // Direct summation until the terms are negligible or a > 9, then the
  // Euler-Maclaurin tail from a. The stopping test is torch's: it never
  // fires while the partial sum is negative.
  double sum = std::pow(q, -x);
  double a = q;
  double b = 0;
  int i = 0;
  while (i < 9 || a <= 9) {
    ++i;
    a += 1;
    b = std::pow(a, -x);
    sum += b;
    if (-kEpsilon / 2 * sum < b && b < kEpsilon / 2 * sum)
      return sum;
  }
  double w = a;
  sum += b * w / (x - 1) - 0.5 * b;
  const double *divisors = eulerMaclaurinDivisors();
  double rising = 1; // x (x + 1) ... (x + 2j - 2)
  double k = 0;
  for (int j = 0; j < 12; ++j) {
    rising *= x + k;
    b /= w;
    double term = rising * b / divisors[j];
    sum += term;
    if (std::fabs(term / sum) < kEpsilon / 2)
      break;
    k += 1;
    rising *= x + k;
    b /= w;
    k += 1;
  }
  return sum;
}

double polygamma(int64_t n, double x) {
  if (n == 0)
    return digamma(x);
  if (n == 1)
    return trigamma(x);
  // psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x).
  double factorial = std::exp(std::lgamma(static_cast<double>(n) + 1));
  return (n % 2 ? 1.0 : -1.0) * factorial *
         zeta(static_cast<double>(n) + 1, x);
}

double mvlgamma(double x, int64_t p) {
  // log Gamma_p(x) = p(p-1)/4 log pi + sum_{j<p} log Gamma(x - j/2).
  double sum = static_cast<double>(p) * static_cast<double>(p - 1) / 4 *
               std::log(kPi);
  for (int64_t j = 0; j < p; ++j)
    sum += std::lgamma(x - static_cast<double>(j) / 2);
  return sum;
}

namespace {
/// x^a e^-x / Gamma(a), the factor common to both incomplete gammas. For
/// large a the logarithm a log x - x - lgamma(a) cancels terms of size
/// a log a; written as a (log1p(d) - d) + log(a / 2pi) / 2 - (Stirling's
/// correction) with d = (x - a)/a it does not.
double gammaPrefactor(double a, double x) {
  if (a < 10)
    return std::exp(a * std::log(x) - x - std::lgamma(a));
  double d = (x - a) / a;
  double ia = 1 / a;
  double ia2 = ia * ia;
  double stirling =
      ia * (1.0 / 12 - ia2 * (1.0 / 360 - ia2 * (1.0 / 1260 - ia2 / 1680)));
  return std::exp(a * (std::log1p(d) - d) + 0.5 * std::log(a / (2 * kPi)) -
                  stirling);
}

constexpr int kMaxGammaIterations = 1000000;

/// P(a, x) by its power series (DLMF 8.7.1), for x < a + 1.
double lowerGammaSeries(double a, double x) {
  double factor = gammaPrefactor(a, x);
  if (factor == 0)
    return 0;
  double term = 1 / a;
  double sum = term;
  for (int n = 1; n < kMaxGammaIterations; ++n) {
    term *= x / (a + n);
    sum += term;
    if (term <= sum * kEpsilon / 2)
      break;
  }
  return sum * factor;
}

/// Q(a, x) by its continued fraction (DLMF 8.9.2, Lentz's method), for
/// x >= a + 1.
double upperGammaFraction(double a, double x) {
  double factor = gammaPrefactor(a, x);
  if (factor == 0)
    return 0;
  constexpr double tiny = 1e-300;
  double b = x + 1 - a;
  double c = 1 / tiny;
  double d = 1 / b;
  double h = d;
  for (int i = 1; i < kMaxGammaIterations; ++i) {
    double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < tiny)
      d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny)
      c = tiny;
    d = 1 / d;
    double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) <= kEpsilon)
      break;
  }
  return factor * h;
}

/// P(a, x) (`upper` false) or Q(a, x) = 1 - P(a, x) (`upper` true).
/// SciPy's boundary values, checked in torch's order (so igamma(NaN, 0)
/// is 0): at most one of a, x may be 0. Inside, the series converges
/// below a + 1 and the continued fraction above; the other half is the
/// complement.
double regularizedGamma(double a, double x, bool upper) {
  auto fromP = [upper](double p) { return upper ? 1 - p : p; };
  if (x < 0 || a < 0)
    return kNaN;
  if (a == 0)
    return x > 0 ? fromP(1.0) : kNaN;
  if (x == 0)
    return fromP(0.0);
  if (std::isinf(a))
    return std::isinf(x) ? kNaN : fromP(0.0);
  if (std::isinf(x))
    return fromP(1.0);
  if (std::isnan(a) || std::isnan(x))
    return kNaN;
  if (x < a + 1)
    return fromP(lowerGammaSeries(a, x));
  double q = upperGammaFraction(a, x);
  return upper ? q : 1 - q;
}
} // namespace

double igamma(double a, double x) { return regularizedGamma(a, x, false); }

double igammac(double a, double x) { return regularizedGamma(a, x, true); }

//===----------------------------------------------------------------------===//
// Error function and the normal distribution
//===----------------------------------------------------------------------===//

namespace {
/// The x >= 0 with erf(x) = a, given also c = 1 - a exactly: near 1 only
/// the complement carries the precision (ndtri of tiny p), so Halley's
/// iteration solves c - erfc(x) = 0 there and erf(x) - a = 0 elsewhere.
/// Winitzki's closed-form approximation (relative error < 2e-3) starts it;
/// three cubic steps reach double precision.
double inverseErf(double a, double c) {
  if (c == 0)
    return kInf;
  if (a == 0)
    return 0;
  constexpr double k = 0.147;
  double w = std::log(c * (1 + a)); // log(1 - a^2)
  double t = 2 / (kPi * k) + w / 2;
  double x = std::sqrt(std::sqrt(t * t - w / k) - t);
  for (int i = 0; i < 8; ++i) {
    double f = a < 0.5 ? std::erf(x) - a : c - std::erfc(x);
    double slope = 2 / kSqrtPi * std::exp(-x * x);
    if (slope == 0)
      break;
    // Halley: erf'' = -2x erf', so the step is u / (1 + x u), u = f / f'.
    double u = f / slope;
    double step = u / (1 + x * u);
    x -= step;
    if (std::fabs(step) <= kEpsilon * std::fabs(x))
      break;
  }
  return x;
}
} // namespace

double erfinv(double y) {
  if (std::isnan(y))
    return y;
  double a = std::fabs(y);
  if (a > 1)
    return kNaN;
  if (a == 1)
    return std::copysign(kInf, y);
  return std::copysign(inverseErf(a, 1 - a), y);
}

double erfcx(double x) {
  if (std::isnan(x))
    return x;
  if (x < 0) {
    // erfcx(x) = 2 exp(x^2) - erfcx(-x), overflowing below -26.7 as torch.
    if (x < -26.7)
      return kInf;
    return 2 * std::exp(x * x) - erfcx(-x);
  }
  if (x < 12)
    return std::exp(x * x) * std::erfc(x);
  // Beyond 12 erfc nears underflow; the continued fraction
  // erfcx(x) = 1/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))
  // converges in a few dozen terms, evaluated from the tail.
  double t = x;
  for (int k = 60; k >= 1; --k)
    t = x + (k / 2.0) / t;
  return 1 / (kSqrtPi * t);
}

double ndtr(double x) { return 0.5 * std::erfc(-x / kSqrt2); }

double logNdtr(double x) {
  // SciPy's split, as torch: the lower tail through erfcx keeps log(ndtr)
  // finite far below where ndtr underflows.
  double t = x / kSqrt2;
  if (x < -1)
    return std::log(erfcx(-t) / 2) - t * t;
  return std::log1p(-std::erfc(t) / 2);
}

double ndtri(double p) {
  if (std::isnan(p) || p < 0 || p > 1)
    return kNaN;
  if (p == 0)
    return -kInf;
  if (p == 1)
    return kInf;
  // ndtri(p) = sqrt(2) erfinv(2p - 1); for p < 1/2 the complement 2p is
  // the exact quantity, for p >= 1/2 2p - 1 and 2 - 2p both are.
  if (p < 0.5)
    return -kSqrt2 * inverseErf(1 - 2 * p, 2 * p);
  return kSqrt2 * inverseErf(2 * p - 1, 2 - 2 * p);
}

//===----------------------------------------------------------------------===//
// Bessel and Airy functions
//===----------------------------------------------------------------------===//

// torch's Cephes-derived J and Y take cos/sin of x - pi/4 for large x, so
// they give NaN at +-inf where glibc gives 0.
double besselJ0(double x) { return std::isinf(x) ? kNaN : ::j0(x); }
double besselJ1(double x) { return std::isinf(x) ? kNaN : ::j1(x); }
double besselY0(double x) {
  if (x < 0)
    return kNaN;
  if (x == 0)
    return -kInf;
  return std::isinf(x) ? kNaN : ::y0(x);
}
double besselY1(double x) {
  if (x < 0)
    return kNaN;
  if (x == 0)
    return -kInf;
  return std::isinf(x) ? kNaN : ::y1(x);
}

namespace {
/// Beyond this both I and K use their large-argument expansions, whose
/// smallest term (about e^-2x) is far below double precision there.
constexpr double kAsymptoticBessel = 30;

/// sum_k c_k(nu) / x^k with c_k = prod_{j<=k} (4nu^2 - (2j-1)^2) / (k! 8^k)
/// times `sign`^k: sign -1 is I's expansion, +1 is K's (DLMF 10.40.1-2).
double besselAsymptoticSum(int nu, double x, double sign) {
  double mu = 4.0 * nu * nu;
  double term = 1;
  double sum = 1;
  for (int k = 1; k < 200; ++k) {
    double next = term * sign * (mu - (2.0 * k - 1) * (2.0 * k - 1)) /
                  (8.0 * k * x);
    if (std::fabs(next) >= std::fabs(term)) // the series starts diverging
      break;
    term = next;
    sum += term;
    if (std::fabs(term) <= kEpsilon / 4 * std::fabs(sum))
      break;
  }
  return sum;
}

/// exp(-x) I_nu(x) for x >= 0 and nu in {0, 1}: the power series
/// sum (x/2)^(2k+nu) / (k! (k+nu)!) has only positive terms, so it is
/// accurate wherever it is used.
double scaledBesselI(int nu, double x) {
  if (std::isinf(x))
    return 0;
  if (x <= kAsymptoticBessel) {
    double half = x / 2;
    double term = nu == 0 ? 1.0 : half;
    double sum = term;
    for (int k = 1; k < 500; ++k) {
      term *= half * half / (k * (k + nu));
      sum += term;
      if (term <= kEpsilon / 4 * sum)
        break;
    }
    return std::exp(-x) * sum;
  }
  return besselAsymptoticSum(nu, x, -1) / std::sqrt(2 * kPi * x);
}

/// I_nu(x) for x >= 0: past the series range the exponential is folded
/// into one exp so that the overflow happens where I itself overflows.
double besselI(int nu, double x) {
  if (x <= kAsymptoticBessel)
    return std::exp(x) * scaledBesselI(nu, x);
  if (std::isinf(x))
    return kInf;
  return std::exp(x - 0.5 * std::log(2 * kPi * x)) *
         besselAsymptoticSum(nu, x, -1);
}

/// K_nu(x) for 0 < x <= 2 and nu in {0, 1} by the series of DLMF
/// 10.31.1-2, in terms of I_nu, log(x/2) and digamma values. (libstdc++'s
/// K gives up with an exception on subnormal x.)
double besselKSeries(int nu, double x) {
  constexpr double eulerGamma = 0.577215664901532860606512090082402431;
  double quarter = x * x / 4;
  // log(x) - log 2, as x / 2 would round the smallest subnormal to 0.
  double logHalf = std::log(x) - 0.693147180559945309417232121458176568;
  if (nu == 0) {
    // K0 = -(log(x/2) + gamma) I0 + sum_k>=1 H_k (x^2/4)^k / (k!)^2.
    double term = 1, harmonic = 0, sum = 0;
    for (int k = 1; k < 100; ++k) {
      term *= quarter / (static_cast<double>(k) * k);
      harmonic += 1.0 / k;
      sum += harmonic * term;
      if (harmonic * term <= kEpsilon / 4 * sum)
        break;
    }
    return -(logHalf + eulerGamma) * besselI(0, x) + sum;
  }
  // K1 = 1/x + log(x/2) I1 - x/4 sum_k>=0 (psi(k+1) + psi(k+2))
  //      (x^2/4)^k / (k! (k+1)!), with psi(k+1) = H_k - gamma.
  double term = 1, harmonic = 0;
  double sum = 1 - 2 * eulerGamma; // k = 0: psi(1) + psi(2) = 1 - 2 gamma
  for (int k = 1; k < 100; ++k) {
    term *= quarter / (static_cast<double>(k) * (k + 1));
    harmonic += 1.0 / k;
    double weight = 2 * (harmonic - eulerGamma) + 1.0 / (k + 1);
    sum += weight * term;
    if (std::fabs(weight * term) <= kEpsilon / 4 * std::fabs(sum))
      break;
  }
  return 1 / x + logHalf * besselI(1, x) - x / 4 * sum;
}

/// K_nu(x) times exp(x) when `scaled`; torch: inf at 0, NaN below.
double besselK(int nu, double x, bool scaled) {
  if (std::isnan(x) || x < 0)
    return kNaN;
  if (x == 0)
    return kInf;
  if (std::isinf(x))
    return 0;
  if (x <= 2) {
    double k = besselKSeries(nu, x);
    return scaled ? std::exp(x) * k : k;
  }
  if (x <= kAsymptoticBessel) {
    double k = std::cyl_bessel_k(static_cast<double>(nu), x);
    return scaled ? std::exp(x) * k : k;
  }
  double sum = besselAsymptoticSum(nu, x, 1);
  double logFactor = 0.5 * std::log(kPi / (2 * x));
  return std::exp(scaled ? logFactor : logFactor - x) * sum;
}
} // namespace

// torch's I0 and I1 are exp(|x|) times a series in 32/|x| over sqrt(|x|):
// inf / inf, NaN, at the infinities.
double besselI0(double x) {
  return std::isnan(x) || std::isinf(x) ? kNaN : besselI(0, std::fabs(x));
}
double besselI0e(double x) {
  return std::isnan(x) ? x : scaledBesselI(0, std::fabs(x));
}
double besselI1(double x) {
  if (std::isnan(x) || std::isinf(x))
    return kNaN;
  return std::copysign(besselI(1, std::fabs(x)), x);
}
double besselI1e(double x) {
  return std::isnan(x) ? x : std::copysign(scaledBesselI(1, std::fabs(x)), x);
}
double besselK0(double x) { return besselK(0, x, false); }
double besselK1(double x) { return besselK(1, x, false); }
double besselK0e(double x) { return besselK(0, x, true); }
double besselK1e(double x) { return besselK(1, x, true); }

double airyAi(double x) {
  // torch: NaN at both infinities, exactly 0 past 103.892 (where Ai
  // underflows double anyway).
  if (std::isnan(x) || std::isinf(x))
    return kNaN;
  if (x > 103.892)
    return 0;
  if (x > 2.09) {
    // Ai(x) = sqrt(x/3) K_1/3(zeta) / pi, zeta = 2/3 x^3/2 (DLMF 9.6.1).
    double zeta = 2.0 / 3.0 * x * std::sqrt(x);
    return std::sqrt(x / 3) / kPi * std::cyl_bessel_k(1.0 / 3.0, zeta);
  }
  if (x < -2.09) {
    // Ai(-t) = sqrt(t)/2 (J_1/3(zeta) - Y_1/3(zeta) / sqrt 3) (DLMF 9.6.6
    // with J_-1/3 written through J_1/3 and Y_1/3).
    double t = -x;
    double zeta = 2.0 / 3.0 * t * std::sqrt(t);
    return std::sqrt(t) / 2 *
           (std::cyl_bessel_j(1.0 / 3.0, zeta) -
            std::cyl_neumann(1.0 / 3.0, zeta) / std::sqrt(3.0));
  }
  // Near 0 the Maclaurin series Ai = Ai(0) f(x) + Ai'(0) g(x) (DLMF 9.4.1)
  // converges quickly and cancels little.
  constexpr double ai0 = 0.355028053887817239260063186004183176;
  constexpr double aiPrime0 = -0.258819403792806798405183560189203963;
  double cube = x * x * x;
  double fTerm = 1, f = 1;
  double gTerm = x, g = x;
  for (int k = 1; k < 100; ++k) {
    fTerm *= cube / ((3.0 * k - 1) * (3.0 * k));
    gTerm *= cube / ((3.0 * k) * (3.0 * k + 1));
    f += fTerm;
    g += gTerm;
    if (std::fabs(fTerm) + std::fabs(gTerm) <=
        kEpsilon / 4 * (std::fabs(f) + std::fabs(g)))
      break;
  }
  return ai0 * f + aiPrime0 * g;
}

double sphericalBesselJ0(double x) {
  if (std::isinf(x))
    return 0;
  // sin(x)/x is accurate down to tiny x; only 0 itself needs the limit.
  if (std::fabs(x) < 1e-8)
    return 1 - x * x / 6;
  return std::sin(x) / x;
}

//===----------------------------------------------------------------------===//
// Orthogonal polynomials
//===----------------------------------------------------------------------===//
//
// torch evaluates these with a three-term recurrence, switching to the
// trigonometric closed forms inside (-1, 1) for larger n and returning the
// closed-form values at the endpoints; the recurrence stops early once a
// value is NaN. The same branches are taken here so that the values (and
// NaNs) agree. They are templates because torch runs them in the tensor's
// own type: in float a large degree overflows to inf and then inf - inf
// gives NaN, which a double evaluation would not reproduce.

namespace {
/// torch's static_cast<int64_t> of a float degree: truncation, and (as on
/// x86) the minimum int64 for NaN and out-of-range values, which then
/// reads as a negative degree.
template <class T> int64_t degree(T n) {
  if (!(n > T(-9.2e18) && n < T(9.2e18)))
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(n);
}

template <class T> T sign(bool positive) { return positive ? T(1) : T(-1); }

/// a * b - c with the product unrounded. torch's CPU kernels are built for
/// AVX2 with floating-point contraction on, so its recurrence steps are
/// fused multiply-adds: the rounding differs from two operations, and in
/// float a step whose product alone exceeds FLT_MAX stays finite or
/// becomes -inf instead of inf - inf = NaN.
template <class T> T mulSub(T a, T b, T c) { return std::fma(a, b, -c); }

/// p_n by p_k+1 = 2y p_k - p_k-1 from p_0 = 1, p_1 = first (every
/// Chebyshev kind, shifted or not, differs only in p_1).
template <class T> T chebyshevRecurrence(T y, T first, int64_t n) {
  if (n == 0)
    return 1;
  T twoY = y + y;
  T previous = 1;
  T current = first;
  for (int64_t k = 2; k <= n && !std::isnan(current); ++k) {
    T next = mulSub(twoY, current, previous);
    previous = current;
    current = next;
  }
  return current;
}

enum class ChebyshevKind { T, U, V, W };

/// The Chebyshev polynomial of `kind` and degree n >= 0 at y, away from
/// the endpoints the callers handle: inside (-1, 1) and above degree
/// `closedAbove`, its closed form in theta = acos(y) (`degenerate` where
/// V's or W's denominator rounds to the value it cannot take); the
/// recurrence otherwise. Each polynomial has its own threshold, as torch
/// has them.
template <class T>
T chebyshev(ChebyshevKind kind, T y, int64_t n, int64_t closedAbove,
            T degenerate) {
  if (n > closedAbove && std::fabs(y) < 1) {
    T theta = std::acos(y);
    T halfOdd = static_cast<T>(n) + T(0.5);
    switch (kind) {
    case ChebyshevKind::T:
      return std::cos(static_cast<T>(n) * theta);
    case ChebyshevKind::U: {
      T count = static_cast<T>(n + 1);
      if (std::sin(theta) != 0)
        return std::sin(count * theta) / std::sin(theta);
      return count * std::cos(count * theta) / y;
    }
    case ChebyshevKind::V:
      if (std::sin(theta / 2) != 1)
        return std::cos(halfOdd * theta) / std::cos(theta / 2);
      return degenerate;
    case ChebyshevKind::W:
      if (std::cos(theta / 2) != 1)
        return std::sin(halfOdd * theta) / std::sin(theta / 2);
      return degenerate;
    }
  }
  switch (kind) {
  case ChebyshevKind::T:
    return chebyshevRecurrence<T>(y, y, n);
  case ChebyshevKind::U:
    return chebyshevRecurrence<T>(y, y + y, n);
  case ChebyshevKind::V:
    return chebyshevRecurrence<T>(y, y + y - 1, n);
  case ChebyshevKind::W:
    return chebyshevRecurrence<T>(y, y + y + 1, n);
  }
  return 0;
}

/// V_n(-1) and V*_n(0): (-1)^n (2n + 1).
template <class T> T chebyshevVAtMinusOne(int64_t n) {
  return static_cast<T>(isEven(n) ? 2 * n + 1 : -(2 * n + 1));
}

template <class T> T chebyshevTImpl(T x, int64_t n) {
  if (n < 0)
    return 0;
  if (std::fabs(x) == 1)
    return sign<T>(x > 0 || isEven(n));
  return chebyshev<T>(ChebyshevKind::T, x, n, 6, 0);
}

template <class T> T chebyshevUImpl(T x, int64_t n) {
  if (n < 0)
    return 0;
  T count = static_cast<T>(n + 1);
  if (std::fabs(x) == 1)
    return (x > 0 || isEven(n)) ? count : -count;
  return chebyshev<T>(ChebyshevKind::U, x, n, 8, 0);
}

template <class T> T chebyshevVImpl(T x, int64_t n) {
  if (n < 0)
    return 0;
  T odd = chebyshevVAtMinusOne<T>(n);
  if (std::fabs(x) == 1)
    return x > 0 ? T(1) : odd;
  return chebyshev<T>(ChebyshevKind::V, x, n, 8, odd);
}

template <class T> T chebyshevWImpl(T x, int64_t n) {
  if (n < 0)
    return 0;
  T atEnd = x > 0 ? static_cast<T>(2 * n + 1) : sign<T>(isEven(n));
  if (std::fabs(x) == 1)
    return atEnd;
  return chebyshev<T>(ChebyshevKind::W, x, n, 8, atEnd);
}

// The shifted polynomials are the unshifted ones at y = 2x - 1, with the
// endpoint values keyed on x (1 and 0) and their own thresholds for the
// closed forms, as torch has them.

template <class T> T shiftedChebyshevTImpl(T x, int64_t n) {
  if (n < 0)
    return 0;
  if (x == 1)
    return 1;
  if (x == 0)
    return sign<T>(isEven(n));
  return chebyshev<T>(ChebyshevKind::T, x + x - 1, n, 6, 0);
}

template <class T> T shiftedChebyshevUImpl(T x, int64_t n) {
  if (n < 0)
    return 0;
  T count = static_cast<T>(n + 1);
  if (x == 1)
    return count;
  if (x == 0)
    return isEven(n) ? count : -count;
  return chebyshev<T>(ChebyshevKind::U, x + x - 1, n, 6, 0);
}

template <class T> T shiftedChebyshevVImpl(T x, int64_t n) {
  if (n < 0)
    return 0;
  T odd = chebyshevVAtMinusOne<T>(n);
  if (x == 1)
    return 1;
  if (x == 0)
    return odd;
  return chebyshev<T>(ChebyshevKind::V, x + x - 1, n, 6, odd);
}

template <class T> T shiftedChebyshevWImpl(T x, int64_t n) {
  if (n < 0)
    return 0;
  if (x == 1)
    return static_cast<T>(2 * n + 1);
  if (x == 0)
    return sign<T>(isEven(n));
  return chebyshev<T>(ChebyshevKind::W, x + x - 1, n, 4, sign<T>(isEven(n)));
}

template <class T> T hermiteHImpl(T x, int64_t n) {
  if (n < 0)
    return 0;
  if (n == 0)
    return 1;
  // H_k+1 = 2x H_k - 2k H_k-1.
  T previous = 1;
  T current = x + x;
  for (int64_t k = 1; k < n; ++k) {
    T next = mulSub(x + x, current, static_cast<T>(2 * k) * previous);
    previous = current;
    current = next;
  }
  return current;
}

template <class T> T hermiteHeImpl(T x, int64_t n) {
  if (n < 0)
    return 0;
  if (n == 0)
    return 1;
  // He_k+1 = x He_k - k He_k-1.
  T previous = 1;
  T current = x;
  for (int64_t k = 1; k < n; ++k) {
    T next = mulSub(x, current, static_cast<T>(k) * previous);
    previous = current;
    current = next;
  }
  return current;
}

template <class T> T laguerreLImpl(T x, int64_t n) {
  if (n < 0)
    return 0;
  if (x == 0 || n == 0)
    return 1;
  // (k+1) L_k+1 = (2k + 1 - x) L_k - k L_k-1.
  T previous = 1;
  T current = 1 - x;
  for (int64_t k = 1; k < n && !std::isnan(current); ++k) {
    T next = mulSub(static_cast<T>(k + k) + (1 - x), current,
                    static_cast<T>(k) * previous);
    previous = current;
    current = next / static_cast<T>(k + 1);
  }
  return current;
}

template <class T> T legendrePImpl(T x, int64_t n) {
  if (n < 0)
    return 0;
  if (std::fabs(x) == 1)
    return sign<T>(x > 0 || isEven(n));
  if (n == 0)
    return 1;
  // (k+1) P_k+1 = (2k+1) x P_k - k P_k-1.
  T previous = 1;
  T current = x;
  for (int64_t k = 1; k < n && !std::isnan(current); ++k) {
    T next = mulSub(static_cast<T>(k + k + 1) * x, current,
                    static_cast<T>(k) * previous) /
             static_cast<T>(k + 1);
    previous = current;
    current = next;
  }
  return current;
}
} // namespace

#define TSIR_DEFINE_SPECIAL_POLYNOMIAL(name)                                   \
  double name(double x, double n) { return name##Impl(x, degree(n)); }         \
  float name##F(float x, float n) { return name##Impl(x, degree(n)); }
TSIR_SPECIAL_POLYNOMIALS(TSIR_DEFINE_SPECIAL_POLYNOMIAL)
#undef TSIR_DEFINE_SPECIAL_POLYNOMIAL

//===----------------------------------------------------------------------===//
// Information theory
//===----------------------------------------------------------------------===//

double entr(double x) {
  if (std::isnan(x))
    return x;
  if (x > 0)
    return -x * std::log(x);
  if (x == 0)
    return 0;
  return -kInf;
}

double xlog1py(double x, double y) {
  if (std::isnan(y))
    return kNaN;
  if (x == 0)
    return 0;
  return x * std::log1p(y);
}

} // namespace tsir::rt::special
