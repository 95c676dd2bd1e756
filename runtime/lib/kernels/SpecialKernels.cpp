//===- SpecialKernels.cpp - Builtin kernels for torch's special functions -===//
//
// aten::special_* (Bessel, Airy, error-function, normal-distribution,
// orthogonal-polynomial, zeta and entropy functions) and the gamma-family
// ops outside the namespace (digamma, polygamma, lgamma, mvlgamma, igamma,
// igammac, erfinv, i0), plus nextafter and frexp. Most are one line in the
// tables below: the scalar function from SpecialFunctions.h mapped over
// the operands by ElementwiseKernel.h, which broadcasts them and applies
// torch's result dtype (integral inputs give Float32).
//
// Each op is registered under its bare name: the interpreter falls back to
// it from any overload (`special_zeta.self_scalar`, ...), and the kernel
// accepts a number wherever the overload has a Scalar.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "ElementwiseKernel.h"
#include "KernelSupport.h"
#include "SpecialFunctions.h"
#include "tsir-runtime/Stack.h"

#include <cmath>
#include <cstring>

namespace tsir::rt {

namespace {
using namespace special;

/// An `int` argument.
StatusOr<int64_t> requireInt(const Value &value, const char *op,
                             const char *what) {
  if (!value.isInt())
    return Status::error(std::string(op) + ": expected int " + what +
                         ", got " + value.kindName());
  return value.toInt();
}

/// polygamma(int n, Tensor self): digamma for n = 0, trigamma for n = 1
/// (in float for Float32, as torch), n! zeta(n + 1, x) beyond.
Status polygammaKernel(Stack &stack, const char *op) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> args, popArgs(stack, 2));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t n, requireInt(args[0], op, "n"));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor self, requireTensor(args[1]));
  if (n < 0)
    return Status::error("polygamma(n, x) does not support negative n.");
  DType dtype = floatingResult(self.dtype());
  std::function<float(float)> fn32;
  if (n == 1)
    fn32 = trigammaF;
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor result,
      mapUnary(
          self, dtype, [n](double x) { return polygamma(n, x); }, op, fn32));
  push(stack, std::move(result));
  return Status::ok();
}

/// mvlgamma(Tensor self, int p): torch requires p >= 1 and every element
/// above (p - 1) / 2, where each lgamma term is finite.
Status mvlgammaKernel(Stack &stack, const char *op) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> args, popArgs(stack, 2));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor self, requireTensor(args[0]));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t p, requireInt(args[1], op, "p"));
  if (p < 1)
    return Status::error("p has to be greater than or equal to 1");
  Tensor values = self.to(DType::Float64);
  const double *data = values.dataAs<double>();
  double bound = 0.5 * static_cast<double>(p - 1);
  for (int64_t i = 0, n = values.numel(); i < n; ++i)
    if (!(data[i] > bound)) // NaN fails too, as in torch
      return Status::error("All elements must be greater than (p-1)/2");
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor result, mapUnary(self, floatingResult(self.dtype()),
                              [p](double x) { return mvlgamma(x, p); }, op));
  push(stack, std::move(result));
  return Status::ok();
}

/// lgamma of a tensor, or of an int or float (`lgamma.int`, `lgamma.float`,
/// `lgamma.Scalar`, which give a float).
Status lgammaKernel(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> args, popArgs(stack, 1));
  const Value &x = args[0];
  if (x.isInt() || x.isDouble()) {
    double value = x.isInt() ? static_cast<double>(x.toInt()) : x.toDouble();
    push(stack, Value(std::lgamma(value)));
    return Status::ok();
  }
  if (!x.isTensor())
    return Status::error(std::string("expected a Tensor or a number, got ") +
                         x.kindName());
  TSIR_RT_ASSIGN_OR_RETURN(DType dtype, resultType(x, "lgamma"));
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor result,
      mapUnary(x, floatingResult(dtype),
               [](double v) { return std::lgamma(v); }, "lgamma"));
  push(stack, std::move(result));
  return Status::ok();
}

/// The next value after `from` toward `to` in a 16-bit float format,
/// stepping its bit pattern (toBits/fromBits convert).
template <class ToBits, class FromBits>
double nextafter16(double from, double to, ToBits toBits, FromBits fromBits) {
  if (std::isnan(from) || std::isnan(to))
    return std::nan("");
  if (from == to)
    return to;
  if (from == 0) // the smallest subnormal, with the sign of the direction
    return fromBits(static_cast<uint16_t>(to > 0 ? 0x0001 : 0x8001));
  uint16_t bits = toBits(static_cast<float>(from));
  // Away from zero is +1 on the magnitude bits, toward zero is -1.
  bool awayFromZero = (to > from) == (from > 0);
  return fromBits(static_cast<uint16_t>(awayFromZero ? bits + 1 : bits - 1));
}

/// nextafter(Tensor self, Tensor other): in the result dtype, which must be
/// floating (torch has no integral nextafter).
Status nextafterKernel(Stack &stack) {
  const char *op = "nextafter";
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> args, popArgs(stack, 2));
  TSIR_RT_ASSIGN_OR_RETURN(DType dtype, resultType(args[0], args[1], op));
  BinaryFn fn;
  switch (dtype) {
  case DType::Float64:
    fn = [](double a, double b) { return std::nextafter(a, b); };
    break;
  case DType::Float32:
    fn = [](double a, double b) {
      return static_cast<double>(
          std::nextafter(static_cast<float>(a), static_cast<float>(b)));
    };
    break;
  case DType::Float16:
    fn = [](double a, double b) {
      return nextafter16(a, b, floatToHalf,
                         [](uint16_t bits) { return halfToFloat(bits); });
    };
    break;
  case DType::BFloat16:
    fn = [](double a, double b) {
      return nextafter16(a, b, floatToBFloat16,
                         [](uint16_t bits) { return bfloat16ToFloat(bits); });
    };
    break;
  default:
    return Status::error(std::string("\"nextafter_cpu\" not implemented for '") +
                         dtypeTorchName(dtype) + "'");
  }
  TSIR_RT_ASSIGN_OR_RETURN(Tensor result,
                           mapBinary(args[0], args[1], dtype, fn, op));
  push(stack, std::move(result));
  return Status::ok();
}

/// frexp(Tensor self) -> (mantissa, exponent): the mantissa in self's
/// dtype, the exponent as Int32. frexp(float a) -> (float, int) too. The
/// double frexp of a value of a narrower float type gives that type's
/// mantissa (exactly representable) and exponent.
Status frexpKernel(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> args, popArgs(stack, 1));
  const Value &x = args[0];
  if (x.isDouble() || x.isInt()) {
    int exponent = 0;
    double value = x.isInt() ? static_cast<double>(x.toInt()) : x.toDouble();
    double mantissa = std::frexp(value, &exponent);
    push(stack, Value(mantissa));
    push(stack, Value(static_cast<int64_t>(exponent)));
    return Status::ok();
  }
  TSIR_RT_ASSIGN_OR_RETURN(Tensor self, requireTensor(x));
  if (!isFloating(self.dtype()))
    return Status::error("torch.frexp() only supports floating-point dtypes");
  Tensor values = self.to(DType::Float64);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor mantissas,
                           Tensor::tryEmpty(self.sizes(), DType::Float64));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor exponents,
                           Tensor::tryEmpty(self.sizes(), DType::Int32));
  const double *in = values.dataAs<double>();
  double *m = mantissas.dataAs<double>();
  int32_t *e = exponents.dataAs<int32_t>();
  for (int64_t i = 0, n = values.numel(); i < n; ++i) {
    int exponent = 0;
    m[i] = std::frexp(in[i], &exponent);
    e[i] = exponent;
  }
  push(stack, mantissas.to(self.dtype()));
  push(stack, std::move(exponents));
  return Status::ok();
}
} // namespace

void registerSpecialKernels(KernelRegistry &registry) {
  struct Unary {
    const char *name;
    double (*fn)(double);
    const char *schema;
  };
  static const Unary unary[] = {
      {"aten::special_airy_ai", airyAi,
       "aten::special_airy_ai(Tensor x) -> Tensor"},
      {"aten::special_bessel_j0", besselJ0,
       "aten::special_bessel_j0(Tensor self) -> Tensor"},
      {"aten::special_bessel_j1", besselJ1,
       "aten::special_bessel_j1(Tensor self) -> Tensor"},
      {"aten::special_bessel_y0", besselY0,
       "aten::special_bessel_y0(Tensor self) -> Tensor"},
      {"aten::special_bessel_y1", besselY1,
       "aten::special_bessel_y1(Tensor self) -> Tensor"},
      {"aten::special_modified_bessel_i0", besselI0,
       "aten::special_modified_bessel_i0(Tensor self) -> Tensor"},
      {"aten::special_modified_bessel_i1", besselI1,
       "aten::special_modified_bessel_i1(Tensor self) -> Tensor"},
      {"aten::special_modified_bessel_k0", besselK0,
       "aten::special_modified_bessel_k0(Tensor self) -> Tensor"},
      {"aten::special_modified_bessel_k1", besselK1,
       "aten::special_modified_bessel_k1(Tensor self) -> Tensor"},
      {"aten::special_scaled_modified_bessel_k0", besselK0e,
       "aten::special_scaled_modified_bessel_k0(Tensor x) -> Tensor"},
      {"aten::special_scaled_modified_bessel_k1", besselK1e,
       "aten::special_scaled_modified_bessel_k1(Tensor x) -> Tensor"},
      {"aten::special_spherical_bessel_j0", sphericalBesselJ0,
       "aten::special_spherical_bessel_j0(Tensor x) -> Tensor"},
      {"aten::i0", besselI0, "aten::i0(Tensor self) -> Tensor"},
      {"aten::special_i0", besselI0, "aten::special_i0(Tensor self) -> Tensor"},
      {"aten::special_i0e", besselI0e,
       "aten::special_i0e(Tensor self) -> Tensor"},
      {"aten::special_i1", besselI1, "aten::special_i1(Tensor self) -> Tensor"},
      {"aten::special_i1e", besselI1e,
       "aten::special_i1e(Tensor self) -> Tensor"},
      {"aten::special_erfcx", erfcx,
       "aten::special_erfcx(Tensor self) -> Tensor"},
      {"aten::erfinv", erfinv, "aten::erfinv(Tensor self) -> Tensor"},
      {"aten::special_erfinv", erfinv,
       "aten::special_erfinv(Tensor self) -> Tensor"},
      {"aten::special_ndtr", ndtr, "aten::special_ndtr(Tensor self) -> Tensor"},
      {"aten::special_ndtri", ndtri,
       "aten::special_ndtri(Tensor self) -> Tensor"},
      {"aten::special_log_ndtr", logNdtr,
       "aten::special_log_ndtr(Tensor self) -> Tensor"},
      {"aten::digamma", digamma, "aten::digamma(Tensor self) -> Tensor"},
      {"aten::special_digamma", digamma,
       "aten::special_digamma(Tensor self) -> Tensor"},
      {"aten::special_psi", digamma, "aten::special_psi(Tensor self) -> Tensor"},
      {"aten::special_gammaln", [](double x) { return std::lgamma(x); },
       "aten::special_gammaln(Tensor self) -> Tensor"},
      {"aten::special_entr", entr, "aten::special_entr(Tensor self) -> Tensor"},
  };

  struct Binary {
    const char *name;
    double (*fn)(double, double);
    float (*fn32)(float, float);
    const char *schema;
  };
  static const Binary binary[] = {
      {"aten::special_chebyshev_polynomial_t", chebyshevT, chebyshevTF,
       "aten::special_chebyshev_polynomial_t(Tensor x, Tensor n) -> Tensor"},
      {"aten::special_chebyshev_polynomial_u", chebyshevU, chebyshevUF,
       "aten::special_chebyshev_polynomial_u(Tensor x, Tensor n) -> Tensor"},
      {"aten::special_chebyshev_polynomial_v", chebyshevV, chebyshevVF,
       "aten::special_chebyshev_polynomial_v(Tensor x, Tensor n) -> Tensor"},
      {"aten::special_chebyshev_polynomial_w", chebyshevW, chebyshevWF,
       "aten::special_chebyshev_polynomial_w(Tensor x, Tensor n) -> Tensor"},
      {"aten::special_shifted_chebyshev_polynomial_t", shiftedChebyshevT,
       shiftedChebyshevTF,
       "aten::special_shifted_chebyshev_polynomial_t(Tensor x, Tensor n) -> "
       "Tensor"},
      {"aten::special_shifted_chebyshev_polynomial_u", shiftedChebyshevU,
       shiftedChebyshevUF,
       "aten::special_shifted_chebyshev_polynomial_u(Tensor x, Tensor n) -> "
       "Tensor"},
      {"aten::special_shifted_chebyshev_polynomial_v", shiftedChebyshevV,
       shiftedChebyshevVF,
       "aten::special_shifted_chebyshev_polynomial_v(Tensor x, Tensor n) -> "
       "Tensor"},
      {"aten::special_shifted_chebyshev_polynomial_w", shiftedChebyshevW,
       shiftedChebyshevWF,
       "aten::special_shifted_chebyshev_polynomial_w(Tensor x, Tensor n) -> "
       "Tensor"},
      {"aten::special_hermite_polynomial_h", hermiteH, hermiteHF,
       "aten::special_hermite_polynomial_h(Tensor x, Tensor n) -> Tensor"},
      {"aten::special_hermite_polynomial_he", hermiteHe, hermiteHeF,
       "aten::special_hermite_polynomial_he(Tensor x, Tensor n) -> Tensor"},
      {"aten::special_laguerre_polynomial_l", laguerreL, laguerreLF,
       "aten::special_laguerre_polynomial_l(Tensor x, Tensor n) -> Tensor"},
      {"aten::special_legendre_polynomial_p", legendreP, legendrePF,
       "aten::special_legendre_polynomial_p(Tensor x, Tensor n) -> Tensor"},
      {"aten::special_zeta", zeta, nullptr,
       "aten::special_zeta(Tensor self, Tensor other) -> Tensor"},
      {"aten::special_xlog1py", xlog1py, nullptr,
       "aten::special_xlog1py(Tensor self, Tensor other) -> Tensor"},
      {"aten::igamma", igamma, nullptr,
       "aten::igamma(Tensor self, Tensor other) -> Tensor"},
      {"aten::special_gammainc", igamma, nullptr,
       "aten::special_gammainc(Tensor self, Tensor other) -> Tensor"},
      {"aten::igammac", igammac, nullptr,
       "aten::igammac(Tensor self, Tensor other) -> Tensor"},
      {"aten::special_gammaincc", igammac, nullptr,
       "aten::special_gammaincc(Tensor self, Tensor other) -> Tensor"},
  };

  struct Custom {
    const char *name;
    Kernel kernel;
    const char *schema;
  };
  const Custom custom[] = {
      {"aten::polygamma",
       [](Stack &s) { return polygammaKernel(s, "polygamma"); },
       "aten::polygamma(int n, Tensor self) -> Tensor"},
      {"aten::special_polygamma",
       [](Stack &s) { return polygammaKernel(s, "special_polygamma"); },
       "aten::special_polygamma(int n, Tensor self) -> Tensor"},
      {"aten::mvlgamma",
       [](Stack &s) { return mvlgammaKernel(s, "mvlgamma"); },
       "aten::mvlgamma(Tensor self, int p) -> Tensor"},
      {"aten::special_multigammaln",
       [](Stack &s) { return mvlgammaKernel(s, "special_multigammaln"); },
       "aten::special_multigammaln(Tensor self, int p) -> Tensor"},
      {"aten::lgamma", lgammaKernel, "aten::lgamma(Tensor self) -> Tensor"},
      {"aten::nextafter", nextafterKernel,
       "aten::nextafter(Tensor self, Tensor other) -> Tensor"},
      {"aten::frexp", frexpKernel,
       "aten::frexp(Tensor self) -> (Tensor mantissa, Tensor exponent)"},
  };

  // Messages name the op as torch does (`special_i0e: ...`); whoever calls
  // the kernel adds its qualified name.
  auto torchLabel = [](const char *name) { return name + strlen("aten::"); };
  for (const Unary &entry : unary)
    registry
        .registerKernel(entry.name,
                        unaryFloatKernel(torchLabel(entry.name), entry.fn),
                        entry.schema)
        .ignoreError();
  for (const Binary &entry : binary)
    registry
        .registerKernel(
            entry.name,
            binaryFloatKernel(torchLabel(entry.name), entry.fn, entry.fn32),
            entry.schema)
        .ignoreError();
  for (const Custom &entry : custom)
    registry.registerKernel(entry.name, entry.kernel, entry.schema)
        .ignoreError();
}

} // namespace tsir::rt
