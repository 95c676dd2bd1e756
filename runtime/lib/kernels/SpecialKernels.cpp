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
#include "tsir-runtime/KernelArguments.h"
#include "tsir-runtime/Stack.h"

#include <cmath>
#include <string>
#include <string_view>
#include <tuple>

namespace tsir::rt {

namespace {
using namespace special;

/// polygamma(int n, Tensor self): digamma for n = 0, trigamma for n = 1
/// (in float for Float32, as torch), n! zeta(n + 1, x) beyond.
StatusOr<Tensor> polygammaOf(int64_t n, const Tensor &self, const char *op) {
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
  return result;
}

StatusOr<Tensor> polygammaKernel(int64_t n, Tensor self) {
  return polygammaOf(n, self, "polygamma");
}

StatusOr<Tensor> specialPolygammaKernel(int64_t n, Tensor self) {
  return polygammaOf(n, self, "special_polygamma");
}

/// mvlgamma(Tensor self, int p): torch requires p >= 1 and every element
/// above (p - 1) / 2, where each lgamma term is finite.
StatusOr<Tensor> mvlgammaOf(const Tensor &self, int64_t p, const char *op) {
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
  return result;
}

StatusOr<Tensor> mvlgammaKernel(Tensor self, int64_t p) {
  return mvlgammaOf(self, p, "mvlgamma");
}

StatusOr<Tensor> specialMultigammalnKernel(Tensor self, int64_t p) {
  return mvlgammaOf(self, p, "special_multigammaln");
}

/// lgamma of a tensor, or of an int or float (`lgamma.int`, `lgamma.float`,
/// `lgamma.Scalar`, which give a float).
StatusOr<Value> lgammaKernel(Value self) {
  if (self.isInt() || self.isDouble()) {
    double value =
        self.isInt() ? static_cast<double>(self.toInt()) : self.toDouble();
    return Value(std::lgamma(value));
  }
  if (!self.isTensor())
    return Status::error(std::string("expected a Tensor or a number, got ") +
                         self.kindName());
  TSIR_RT_ASSIGN_OR_RETURN(DType dtype, resultType(self, "lgamma"));
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor result, mapUnary(
                         self, floatingResult(dtype),
                         [](double v) { return std::lgamma(v); }, "lgamma"));
  return Value(std::move(result));
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
/// floating (torch has no integral nextafter). Either operand may be a
/// number.
StatusOr<Tensor> nextafterKernel(Value self, Value other) {
  const char *op = "nextafter";
  TSIR_RT_ASSIGN_OR_RETURN(DType dtype, resultType(self, other, op));
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
  return mapBinary(self, other, dtype, fn, op);
}

/// frexp(Tensor self) -> (mantissa, exponent): the mantissa in self's
/// dtype, the exponent as Int32. frexp(float a) -> (float, int) too. The
/// double frexp of a value of a narrower float type gives that type's
/// mantissa (exactly representable) and exponent.
StatusOr<std::tuple<Value, Value>> frexpKernel(Value self) {
  if (self.isDouble() || self.isInt()) {
    int exponent = 0;
    double value =
        self.isInt() ? static_cast<double>(self.toInt()) : self.toDouble();
    double mantissa = std::frexp(value, &exponent);
    return std::tuple<Value, Value>(Value(mantissa),
                                    Value(static_cast<int64_t>(exponent)));
  }
  TSIR_RT_ASSIGN_OR_RETURN(Tensor tensor, requireTensor(self));
  if (!isFloating(tensor.dtype()))
    return Status::error("torch.frexp() only supports floating-point dtypes");
  Tensor values = tensor.to(DType::Float64);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor mantissas,
                           Tensor::tryEmpty(tensor.sizes(), DType::Float64));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor exponents,
                           Tensor::tryEmpty(tensor.sizes(), DType::Int32));
  const double *in = values.dataAs<double>();
  double *m = mantissas.dataAs<double>();
  int32_t *e = exponents.dataAs<int32_t>();
  for (int64_t i = 0, n = values.numel(); i < n; ++i) {
    int exponent = 0;
    m[i] = std::frexp(in[i], &exponent);
    e[i] = exponent;
  }
  return std::tuple<Value, Value>(Value(mantissas.to(tensor.dtype())),
                                  Value(std::move(exponents)));
}
} // namespace

void registerSpecialKernels(KernelRegistry &registry) {
  struct Unary {
    const char *schema;
    double (*fn)(double);
  };
  static const Unary unary[] = {
      {"aten::special_airy_ai(Tensor x) -> Tensor", airyAi},
      {"aten::special_bessel_j0(Tensor self) -> Tensor", besselJ0},
      {"aten::special_bessel_j1(Tensor self) -> Tensor", besselJ1},
      {"aten::special_bessel_y0(Tensor self) -> Tensor", besselY0},
      {"aten::special_bessel_y1(Tensor self) -> Tensor", besselY1},
      {"aten::special_modified_bessel_i0(Tensor self) -> Tensor", besselI0},
      {"aten::special_modified_bessel_i1(Tensor self) -> Tensor", besselI1},
      {"aten::special_modified_bessel_k0(Tensor self) -> Tensor", besselK0},
      {"aten::special_modified_bessel_k1(Tensor self) -> Tensor", besselK1},
      {"aten::special_scaled_modified_bessel_k0(Tensor x) -> Tensor",
       besselK0e},
      {"aten::special_scaled_modified_bessel_k1(Tensor x) -> Tensor",
       besselK1e},
      {"aten::special_spherical_bessel_j0(Tensor x) -> Tensor",
       sphericalBesselJ0},
      {"aten::i0(Tensor self) -> Tensor", besselI0},
      {"aten::special_i0(Tensor self) -> Tensor", besselI0},
      {"aten::special_i0e(Tensor self) -> Tensor", besselI0e},
      {"aten::special_i1(Tensor self) -> Tensor", besselI1},
      {"aten::special_i1e(Tensor self) -> Tensor", besselI1e},
      {"aten::special_erfcx(Tensor self) -> Tensor", erfcx},
      {"aten::erfinv(Tensor self) -> Tensor", erfinv},
      {"aten::special_erfinv(Tensor self) -> Tensor", erfinv},
      {"aten::special_ndtr(Tensor self) -> Tensor", ndtr},
      {"aten::special_ndtri(Tensor self) -> Tensor", ndtri},
      {"aten::special_log_ndtr(Tensor self) -> Tensor", logNdtr},
      {"aten::digamma(Tensor self) -> Tensor", digamma},
      {"aten::special_digamma(Tensor self) -> Tensor", digamma},
      {"aten::special_psi(Tensor self) -> Tensor", digamma},
      {"aten::special_gammaln(Tensor self) -> Tensor",
       [](double x) { return std::lgamma(x); }},
      {"aten::special_entr(Tensor self) -> Tensor", entr},
  };

  struct Binary {
    const char *schema;
    double (*fn)(double, double);
    float (*fn32)(float, float);
  };
  static const Binary binary[] = {
      {"aten::special_chebyshev_polynomial_t(Tensor x, Tensor n) -> Tensor",
       chebyshevT, chebyshevTF},
      {"aten::special_chebyshev_polynomial_u(Tensor x, Tensor n) -> Tensor",
       chebyshevU, chebyshevUF},
      {"aten::special_chebyshev_polynomial_v(Tensor x, Tensor n) -> Tensor",
       chebyshevV, chebyshevVF},
      {"aten::special_chebyshev_polynomial_w(Tensor x, Tensor n) -> Tensor",
       chebyshevW, chebyshevWF},
      {"aten::special_shifted_chebyshev_polynomial_t(Tensor x, Tensor n) -> "
       "Tensor",
       shiftedChebyshevT, shiftedChebyshevTF},
      {"aten::special_shifted_chebyshev_polynomial_u(Tensor x, Tensor n) -> "
       "Tensor",
       shiftedChebyshevU, shiftedChebyshevUF},
      {"aten::special_shifted_chebyshev_polynomial_v(Tensor x, Tensor n) -> "
       "Tensor",
       shiftedChebyshevV, shiftedChebyshevVF},
      {"aten::special_shifted_chebyshev_polynomial_w(Tensor x, Tensor n) -> "
       "Tensor",
       shiftedChebyshevW, shiftedChebyshevWF},
      {"aten::special_hermite_polynomial_h(Tensor x, Tensor n) -> Tensor",
       hermiteH, hermiteHF},
      {"aten::special_hermite_polynomial_he(Tensor x, Tensor n) -> Tensor",
       hermiteHe, hermiteHeF},
      {"aten::special_laguerre_polynomial_l(Tensor x, Tensor n) -> Tensor",
       laguerreL, laguerreLF},
      {"aten::special_legendre_polynomial_p(Tensor x, Tensor n) -> Tensor",
       legendreP, legendrePF},
      {"aten::special_zeta(Tensor self, Tensor other) -> Tensor", zeta,
       nullptr},
      {"aten::special_xlog1py(Tensor self, Tensor other) -> Tensor", xlog1py,
       nullptr},
      {"aten::igamma(Tensor self, Tensor other) -> Tensor", igamma, nullptr},
      {"aten::special_gammainc(Tensor self, Tensor other) -> Tensor", igamma,
       nullptr},
      {"aten::igammac(Tensor self, Tensor other) -> Tensor", igammac, nullptr},
      {"aten::special_gammaincc(Tensor self, Tensor other) -> Tensor", igammac,
       nullptr},
  };

  registerKernelTable(
      registry,
      {
          {"aten::polygamma(int n, Tensor self) -> Tensor",
           bindKernel(polygammaKernel)},
          {"aten::special_polygamma(int n, Tensor self) -> Tensor",
           bindKernel(specialPolygammaKernel)},
          {"aten::mvlgamma(Tensor self, int p) -> Tensor",
           bindKernel(mvlgammaKernel)},
          {"aten::special_multigammaln(Tensor self, int p) -> Tensor",
           bindKernel(specialMultigammalnKernel)},
          {"aten::lgamma(Tensor self) -> Tensor", bindKernel(lgammaKernel)},
          {"aten::nextafter(Tensor self, Tensor other) -> Tensor",
           bindKernel(nextafterKernel)},
          {"aten::frexp(Tensor self) -> (Tensor mantissa, Tensor exponent)",
           bindKernel(frexpKernel)},
      });

  // Messages name the op as torch does (`special_i0e: ...`); whoever calls
  // the kernel adds its qualified name.
  auto torchLabel = [](std::string_view schema) {
    std::string_view name = schema.substr(0, schema.find('('));
    return std::string(name.substr(name.find("::") + 2));
  };
  for (const Unary &entry : unary)
    registry
        .registerOperator(entry.schema,
                          unaryFloatKernel(torchLabel(entry.schema), entry.fn))
        .ignoreError();
  for (const Binary &entry : binary)
    registry
        .registerOperator(
            entry.schema,
            binaryFloatKernel(torchLabel(entry.schema), entry.fn, entry.fn32))
        .ignoreError();
}

} // namespace tsir::rt
