//===- FourierKernelsTest.cpp - The transforms to a real signal -----------===//
//
// The irfft/hfft kernels (FourierKernels.cpp) on inputs whose transforms are
// known by hand, their norms, and torch's errors for a norm it does not know
// and a signal of no points. test/e2e/op_cases/fourier_kernels.py compares
// every variant with torch.
//
//===----------------------------------------------------------------------===//

#include "TestUtils.h"
#include "tsir-runtime/KernelRegistry.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tsir::rt;
using namespace tsir::rt::test;

namespace {

std::vector<double> run(const char *name, std::vector<Value> inputs) {
  StatusOr<std::vector<Value>> out = callKernel(name, std::move(inputs));
  EXPECT_TRUE(out.ok()) << name << ": " << out.status().message();
  if (!out.ok() || out->size() != 1 || !(*out)[0].isTensor())
    return {};
  return valuesOf((*out)[0].toTensor());
}

std::string errorOf(const char *name, std::vector<Value> inputs) {
  StatusOr<std::vector<Value>> out = callKernel(name, std::move(inputs));
  return out.ok() ? "" : out.status().message();
}

void expectValues(const std::vector<double> &got,
                  const std::vector<double> &expected) {
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], expected[i], 1e-6) << "at " << i;
}

TEST(FourierKernelsTest, AnImpulseSpectrumIsAConstantSignal) {
  // Three coefficients are a signal of 2 * (3 - 1) = 4 points; the inverse
  // transform divides by 4, hfft (a forward transform) does not.
  Tensor impulse = makeTensor({1, 0, 0}, {3}, DType::Float32);
  expectValues(run("aten::fft_irfft", {impulse, Value(), Value(int64_t{-1}),
                                       Value()}),
               {0.25, 0.25, 0.25, 0.25});
  expectValues(run("aten::fft_hfft", {impulse, Value(), Value(int64_t{-1}),
                                      Value()}),
               {1, 1, 1, 1});
  expectValues(run("aten::fft_irfft", {impulse, Value(), Value(int64_t{-1}),
                                       Value(std::string("ortho"))}),
               {0.5, 0.5, 0.5, 0.5});
}

TEST(FourierKernelsTest, ACoefficientIsACosineCountedTwice) {
  // X = [0, 1] with n = 4 pads to [0, 1, 0]: x_t = 2 cos(pi t / 2) / 4.
  Tensor spectrum = makeTensor({0, 1}, {2}, DType::Float32);
  expectValues(run("aten::fft_irfft", {spectrum, Value(int64_t{4}),
                                       Value(int64_t{0}), Value()}),
               {0.5, 0, -0.5, 0});
}

TEST(FourierKernelsTest, TorchsErrors) {
  Tensor x = makeTensor({1, 2, 3}, {3}, DType::Float32);
  EXPECT_EQ(errorOf("aten::fft_irfft", {x, Value(), Value(int64_t{-1}),
                                        Value(std::string("sideways"))}),
            "Invalid normalization mode: \"sideways\"");
  EXPECT_EQ(errorOf("aten::fft_irfft", {x, Value(int64_t{0}),
                                        Value(int64_t{-1}), Value()}),
            "Invalid number of data points (0) specified");
  EXPECT_NE(errorOf("aten::fft_irfft2", {x, Value(), Value::list({Value(int64_t{0}), Value(int64_t{0})}), Value()}),
            "");
}

} // namespace
