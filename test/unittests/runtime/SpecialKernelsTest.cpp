//===- SpecialKernelsTest.cpp - Tests of the special-function kernels -----===//
//
// The builtin kernels for torch.special and the gamma family, called by
// name through the global registry: known values of each function (from
// mpmath, to double precision), torch's conventions at poles and domain
// edges, broadcasting of two operands, the result dtype (integers promote
// to Float32, Float64 stays, a Python number does not widen a tensor), and
// the errors torch raises.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"
#include "tsir-runtime/KernelRegistry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tsir::rt;
using namespace tsir::rt::test;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

Tensor doubles(std::vector<double> values) {
  int64_t n = static_cast<int64_t>(values.size());
  return makeTensor(values, {n}, DType::Float64);
}

/// The single tensor `name` returns for `inputs`.
Tensor call(const std::string &name, std::vector<Value> inputs) {
  StatusOr<std::vector<Value>> outputs = callKernel(name, std::move(inputs));
  EXPECT_TRUE(outputs.ok()) << name << ": " << outputs.status().message();
  if (!outputs.ok() || outputs->empty() || !(*outputs)[0].isTensor())
    return Tensor();
  return (*outputs)[0].toTensor();
}

/// `name` applied to each of `inputs` (a Float64 tensor) compared with
/// `expected`, relative 1e-12 (exact for infinities, NaN for NaN).
void expectUnary(const std::string &name, std::vector<double> inputs,
                 std::vector<double> expected) {
  Tensor result = call(name, {doubles(inputs)});
  ASSERT_TRUE(result.defined()) << name;
  EXPECT_EQ(result.dtype(), DType::Float64) << name;
  std::vector<double> got = valuesOf(result);
  ASSERT_EQ(got.size(), expected.size()) << name;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(expected[i]))
      EXPECT_TRUE(std::isnan(got[i])) << name << "(" << inputs[i] << ") = "
                                      << got[i];
    else if (std::isinf(expected[i]))
      EXPECT_EQ(got[i], expected[i]) << name << "(" << inputs[i] << ")";
    else
      EXPECT_NEAR(got[i], expected[i], 1e-12 * std::max(1.0, std::fabs(expected[i])))
          << name << "(" << inputs[i] << ")";
  }
}

std::string errorOf(const std::string &name, std::vector<Value> inputs) {
  return callKernel(name, std::move(inputs)).status().message();
}
} // namespace

TEST(SpecialKernelsTest, GammaFamily) {
  const double nan = std::nan("");
  expectUnary("aten::digamma", {1, 0.5, 10.5, -0.5, 0, -2},
              {-0.57721566490153286, -1.9635100260214235, 2.3030010342976865,
               0.036489973978576520, -kInf, nan});
  expectUnary("aten::special_psi", {1}, {-0.57721566490153286});
  expectUnary("aten::lgamma", {0.5, 3, 100}, {0.57236494292470009,
                                              0.69314718055994531,
                                              359.13420536957540});
  expectUnary("aten::erfinv", {0.5, -0.9, 1e-10, 1, 1.5},
              {0.47693627620446987, -1.1630871536766741, 8.8622692545275801e-11,
               kInf, nan});
  // polygamma(n, x) = (-1)^(n+1) n! zeta(n+1, x).
  Tensor trigamma = call("aten::polygamma", {Value(1), doubles({1, 0.25})});
  EXPECT_NEAR(valuesOf(trigamma)[0], 1.6449340668482264, 1e-13);
  EXPECT_NEAR(valuesOf(trigamma)[1], 17.197329154507113, 1e-12);
  Tensor tetragamma = call("aten::polygamma", {Value(2), doubles({1})});
  EXPECT_NEAR(valuesOf(tetragamma)[0], -2.4041138063191886, 1e-13);
  // mvlgamma(x, 1) is lgamma; p = 3 adds 3/2 log pi and two shifted terms.
  Tensor mv = call("aten::mvlgamma", {doubles({2.5, 4}), Value(3)});
  EXPECT_NEAR(valuesOf(mv)[0], 1.8809954616117741, 1e-12);
  EXPECT_NEAR(valuesOf(mv)[1], 5.402975080909175, 1e-12);
}

TEST(SpecialKernelsTest, ZetaAndIncompleteGamma) {
  Tensor zeta = call("aten::special_zeta",
                     {doubles({2, 3, 1, 0.5, 2}), doubles({1, 2, 1, 1, -1})});
  std::vector<double> z = valuesOf(zeta);
  EXPECT_NEAR(z[0], 1.6449340668482264, 1e-14);
  EXPECT_NEAR(z[1], 0.20205690315959429, 1e-14);
  EXPECT_EQ(z[2], kInf);          // the pole at x == 1
  EXPECT_TRUE(std::isnan(z[3]));  // x < 1
  EXPECT_EQ(z[4], kInf);          // q at a non-positive integer
  Tensor p = call("aten::igamma", {doubles({1, 0.5, 150, 0}), doubles({1, 2, 140, 3})});
  std::vector<double> pv = valuesOf(p);
  EXPECT_NEAR(pv[0], 0.63212055882855767, 1e-14);
  EXPECT_NEAR(pv[1], 0.95449973610364158, 1e-14);
  EXPECT_NEAR(pv[2], 0.20954362391860706, 1e-12);
  EXPECT_EQ(pv[3], 1.0); // igamma(0, x > 0) = 1 (SciPy's boundary)
  Tensor q = call("aten::igammac", {doubles({1, 5}), doubles({1, 30})});
  EXPECT_NEAR(valuesOf(q)[0], 0.36787944117144233, 1e-14);
  EXPECT_NEAR(valuesOf(q)[1], 3.6243009520614882e-09, 1e-21);
}

TEST(SpecialKernelsTest, NormalDistributionAndErrorFunction) {
  expectUnary("aten::special_ndtr", {0, 1.96, -40},
              {0.5, 0.97500210485177952, 0});
  expectUnary("aten::special_ndtri", {0.975, 0.5, 1e-300, 0, 1, -0.5},
              {1.9599639845400540, 0, -37.0470962993612, -kInf, kInf,
               std::nan("")});
  expectUnary("aten::special_log_ndtr", {-10, 0, 3},
              {-53.231285150512470, -0.69314718055994531,
               -0.0013508099647481938});
  expectUnary("aten::special_erfcx", {1, 30, -1, 1e10, -30},
              {0.42758357615580700, 0.018795888861416751, 5.008980080762283,
               5.6418958354775629e-11, kInf});
}

TEST(SpecialKernelsTest, BesselAndAiry) {
  const double nan = std::nan("");
  expectUnary("aten::special_bessel_j0", {1, -1, 0}, {0.76519768655796655,
                                                      0.76519768655796655, 1});
  expectUnary("aten::special_bessel_y1", {1, 0, -1},
              {-0.78121282130028872, -kInf, nan});
  expectUnary("aten::i0", {1, -40}, {1.2660658777520082, 14894774793419899.});
  expectUnary("aten::special_i0e", {1, 1000}, {0.46575960759364043,
                                               0.012617240455891256});
  expectUnary("aten::special_i1", {1, -1}, {0.56515910399248503,
                                           -0.56515910399248503});
  expectUnary("aten::special_i1e", {-2}, {-0.21526928924893765});
  expectUnary("aten::special_modified_bessel_k0", {1, 0, -1, 50},
              {0.42102443824070834, kInf, nan, 3.4101677497894956e-23});
  expectUnary("aten::special_scaled_modified_bessel_k1", {1, 100},
              {1.6361534862632582, 0.12579995047957854});
  expectUnary("aten::special_airy_ai", {0, 1, -5, 10, 200, kInf},
              {0.35502805388781724, 0.13529241631288141, 0.35076100902411431,
               1.1047532552898687e-10, 0, nan});
  expectUnary("aten::special_spherical_bessel_j0", {0, 2, kInf},
              {1, 0.45464871341284085, 0});
}

TEST(SpecialKernelsTest, Polynomials) {
  auto at = [](const char *name, double x, double n) {
    return valuesOf(call(name, {doubles({x}), doubles({n})}))[0];
  };
  EXPECT_DOUBLE_EQ(at("aten::special_chebyshev_polynomial_t", 0.5, 3), -1);
  EXPECT_NEAR(at("aten::special_chebyshev_polynomial_t", 0.3, 10),
              std::cos(10 * std::acos(0.3)), 1e-15);
  EXPECT_DOUBLE_EQ(at("aten::special_chebyshev_polynomial_u", -1, 3), -4);
  EXPECT_DOUBLE_EQ(at("aten::special_chebyshev_polynomial_v", 2, 2), 11);
  EXPECT_DOUBLE_EQ(at("aten::special_chebyshev_polynomial_w", 1, 4), 9);
  EXPECT_DOUBLE_EQ(at("aten::special_shifted_chebyshev_polynomial_t", 0, 3), -1);
  EXPECT_DOUBLE_EQ(at("aten::special_hermite_polynomial_h", 2, 3), 40);
  EXPECT_DOUBLE_EQ(at("aten::special_hermite_polynomial_he", 2, 3), 2);
  EXPECT_DOUBLE_EQ(at("aten::special_laguerre_polynomial_l", 1, 2), -0.5);
  EXPECT_DOUBLE_EQ(at("aten::special_legendre_polynomial_p", 0.5, 2), -0.125);
  // A float degree truncates; a negative one gives 0.
  EXPECT_DOUBLE_EQ(at("aten::special_hermite_polynomial_he", 2, 3.9), 2);
  EXPECT_DOUBLE_EQ(at("aten::special_legendre_polynomial_p", 0.5, -1), 0);
  // Float32 tensors compute in float as torch does: a degree whose value
  // leaves float's range ends as -inf, not the rounded double.
  Tensor x = makeTensor({-1.3}, {1}, DType::Float32);
  Tensor n = makeTensor({50}, {1}, DType::Float32);
  Tensor h = call("aten::special_hermite_polynomial_h", {x, n});
  EXPECT_EQ(h.dtype(), DType::Float32);
  EXPECT_EQ(valuesOf(h)[0], -kInf);
}

TEST(SpecialKernelsTest, EntropyNextafterFrexp) {
  expectUnary("aten::special_entr", {0.5, 0, -1}, {0.34657359027997264, 0, -kInf});
  Tensor xlog = call("aten::special_xlog1py", {doubles({2, 0, 0}), doubles({1, -1, std::nan("")})});
  std::vector<double> xv = valuesOf(xlog);
  EXPECT_NEAR(xv[0], 2 * std::log(2.0), 1e-15);
  EXPECT_EQ(xv[1], 0); // 0 * log1p(-1) is defined as 0
  EXPECT_TRUE(std::isnan(xv[2]));

  Tensor one = makeTensor({1}, {1}, DType::Float32);
  Tensor two = makeTensor({2}, {1}, DType::Float32);
  Tensor next = call("aten::nextafter", {one, two});
  EXPECT_EQ(next.dtype(), DType::Float32);
  EXPECT_EQ(valuesOf(next)[0], 1 + std::ldexp(1.0, -23));
  Tensor nextDouble = call("aten::nextafter", {doubles({1}), doubles({0})});
  EXPECT_EQ(valuesOf(nextDouble)[0], 1 - std::ldexp(1.0, -53));
  Tensor nextHalf = call("aten::nextafter", {makeTensor({1}, {1}, DType::Float16),
                                            makeTensor({2}, {1}, DType::Float16)});
  EXPECT_EQ(valuesOf(nextHalf)[0], 1 + std::ldexp(1.0, -10));

  StatusOr<std::vector<Value>> frexp =
      callKernel("aten::frexp", {makeTensor({8, -0.75, 0}, {3}, DType::Float32)});
  ASSERT_TRUE(frexp.ok()) << frexp.status().message();
  ASSERT_EQ(frexp->size(), 2u);
  EXPECT_EQ((*frexp)[0].toTensor().dtype(), DType::Float32);
  EXPECT_EQ((*frexp)[1].toTensor().dtype(), DType::Int32);
  EXPECT_EQ(valuesOf((*frexp)[0].toTensor()), (std::vector<double>{0.5, -0.75, 0}));
  EXPECT_EQ(valuesOf((*frexp)[1].toTensor()), (std::vector<double>{4, 0, 0}));
  // The scalar overload frexp(float) -> (float, int).
  StatusOr<std::vector<Value>> scalar = callKernel("aten::frexp", {Value(12.0)});
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ((*scalar)[0].toDouble(), 0.75);
  EXPECT_EQ((*scalar)[1].toInt(), 4);
  // lgamma of a number is a float, as aten::lgamma.float.
  StatusOr<std::vector<Value>> lg = callKernel("aten::lgamma", {Value(4)});
  ASSERT_TRUE(lg.ok());
  EXPECT_NEAR((*lg)[0].toDouble(), std::log(6.0), 1e-15);
}

TEST(SpecialKernelsTest, BroadcastingAndScalars) {
  // x [2, 1] against n [3] gives [2, 3].
  Tensor x = makeTensor({0.5, 2}, {2, 1}, DType::Float32);
  Tensor n = makeTensor({0, 1, 2}, {3}, DType::Float32);
  Tensor t = call("aten::special_chebyshev_polynomial_t", {x, n});
  EXPECT_EQ(t.sizes(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(valuesOf(t), (std::vector<double>{1, 0.5, -0.5, 1, 2, 7}));
  // A non-contiguous operand reads through its strides.
  Tensor base = makeTensor({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Float64);
  Tensor transposed = *base.transpose(0, 1); // [3, 2]
  Tensor h = call("aten::special_hermite_polynomial_he", {transposed, Value(int64_t(2))});
  EXPECT_EQ(h.sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(valuesOf(h), (std::vector<double>{0, 15, 3, 24, 8, 35}));
  // Either operand may be a number (the x_scalar / n_scalar overloads).
  Tensor q = call("aten::special_zeta", {Value(2.0), doubles({1, 2})});
  EXPECT_EQ(q.dtype(), DType::Float64);
  EXPECT_NEAR(valuesOf(q)[1], 0.64493406684822644, 1e-14);
  // An empty operand gives an empty result of the broadcast shape.
  Tensor empty = makeTensor({}, {0, 3}, DType::Float32);
  Tensor e = call("aten::special_xlog1py", {empty, n});
  EXPECT_EQ(e.sizes(), (std::vector<int64_t>{0, 3}));
}

TEST(SpecialKernelsTest, ResultDTypes) {
  Tensor ints = makeTensor({1, 2}, {2}, DType::Int64);
  Tensor bools = makeTensor({1, 0}, {2}, DType::Bool);
  // Integral and bool inputs compute in the default float dtype.
  EXPECT_EQ(call("aten::special_erfcx", {ints}).dtype(), DType::Float32);
  EXPECT_EQ(call("aten::special_entr", {bools}).dtype(), DType::Float32);
  EXPECT_EQ(call("aten::polygamma", {Value(0), ints}).dtype(), DType::Float32);
  EXPECT_EQ(call("aten::special_zeta", {ints, ints}).dtype(), DType::Float32);
  // Float64 stays; a Python float does not widen a Float32 tensor, a 0-d
  // Float64 tensor does not widen a dimensioned Float32 one, but it does
  // decide the category over an integral tensor.
  Tensor f32 = makeTensor({1, 2}, {2}, DType::Float32);
  Tensor scalar64 = makeTensor({2}, {}, DType::Float64);
  EXPECT_EQ(call("aten::special_i0e", {doubles({1})}).dtype(), DType::Float64);
  EXPECT_EQ(call("aten::special_zeta", {f32, Value(2.0)}).dtype(), DType::Float32);
  EXPECT_EQ(call("aten::special_zeta", {f32, scalar64}).dtype(), DType::Float32);
  EXPECT_EQ(call("aten::special_zeta", {ints, scalar64}).dtype(), DType::Float64);
  EXPECT_EQ(call("aten::special_xlog1py", {ints, Value(2.0)}).dtype(), DType::Float32);
  // Half stays Half.
  Tensor half = makeTensor({0.5}, {1}, DType::Float16);
  Tensor halfResult = call("aten::special_ndtri", {half});
  EXPECT_EQ(halfResult.dtype(), DType::Float16);
  EXPECT_EQ(valuesOf(halfResult)[0], 0);
}

TEST(SpecialKernelsTest, Errors) {
  Tensor a = makeTensor({1, 2, 3}, {3}, DType::Float32);
  Tensor b = makeTensor({1, 2}, {2}, DType::Float32);
  EXPECT_EQ(errorOf("aten::special_zeta", {a, b}),
            "special_zeta: The size of tensor a (3) must match the size "
            "of tensor b (2) at non-singleton dimension 0");
  EXPECT_EQ(errorOf("aten::special_zeta", {a, Value("q")}),
            "special_zeta: expected a Tensor or a number, got str");
  EXPECT_EQ(errorOf("aten::special_bessel_j0", {Value(1.0)}),
            "special_bessel_j0: expected a Tensor, got float");
  EXPECT_EQ(errorOf("aten::polygamma", {Value(-1), a}),
            "polygamma(n, x) does not support negative n.");
  EXPECT_EQ(errorOf("aten::mvlgamma", {a, Value(3)}),
            "All elements must be greater than (p-1)/2");
  EXPECT_EQ(errorOf("aten::mvlgamma", {a, Value(0)}),
            "p has to be greater than or equal to 1");
  EXPECT_EQ(errorOf("aten::frexp", {makeTensor({1}, {1}, DType::Int64)}),
            "torch.frexp() only supports floating-point dtypes");
  Tensor ints = makeTensor({1}, {1}, DType::Int64);
  EXPECT_EQ(errorOf("aten::nextafter", {ints, ints}),
            "\"nextafter_cpu\" not implemented for 'Long'");
}
