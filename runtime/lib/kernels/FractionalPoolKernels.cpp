//===- FractionalPoolKernels.cpp - fractional_max_pool2d and 3d -----------===//
//
// Fractional max pooling (Graham, 2014) as ATen's
// FractionalMaxPool2d.cpp / FractionalMaxPool3d.cpp compute it: each plane's
// windows start at pseudo-random offsets drawn from its `random_samples`
// (one sample per pooled dim, in [0, 1)), spread so that the windows cover
// the input; the max of each window and its index in the plane (the first
// maximum, or the last NaN, as torch scans). The offsets are computed in
// the input's element type, as torch's are, since they are truncated to
// ints.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"
#include "KernelSupport.h"
#include "tsir-runtime/Stack.h"

#include <cmath>
#include <limits>
#include <tuple>

namespace tsir::rt {

using namespace data;

namespace {

/// Where each of `outputSize` windows of `poolSize` starts along a dim of
/// `inputSize`, from the plane's sample (torch's generate_intervals).
template <typename T>
std::vector<int64_t> windowStarts(T sample, int64_t inputSize,
                                  int64_t outputSize, int64_t poolSize) {
  std::vector<int64_t> starts(outputSize);
  if (outputSize > 1) {
    T alpha = static_cast<T>(inputSize - poolSize) /
              static_cast<T>(outputSize - 1);
    for (int64_t i = 0; i + 1 < outputSize; ++i)
      starts[i] = static_cast<int64_t>((static_cast<T>(i) + sample) * alpha) -
                  static_cast<int64_t>(sample * alpha);
  }
  starts[outputSize - 1] = inputSize - poolSize;
  return starts;
}

/// Pools `planes` planes of `inSizes` (the pooled dims) into `outSizes`
/// with windows of `pool`, each plane by its samples (one per pooled dim,
/// at `samples + plane * dims`: time, height, width in 3-d, but width
/// first in 2-d, as torch reads them).
template <typename T>
void poolPlanes(const T *input, const T *samples, int64_t planes,
                const std::vector<int64_t> &inSizes,
                const std::vector<int64_t> &outSizes,
                const std::vector<int64_t> &pool, T *values,
                int64_t *indices) {
  size_t dims = inSizes.size();
  int64_t inPlane = 1, outPlane = 1;
  for (size_t d = 0; d < dims; ++d) {
    inPlane *= inSizes[d];
    outPlane *= outSizes[d];
  }
  for (int64_t p = 0; p < planes; ++p) {
    std::vector<std::vector<int64_t>> starts(dims);
    for (size_t d = 0; d < dims; ++d) {
      T sample = samples[p * dims + (dims == 2 ? 1 - d : d)];
      starts[d] = windowStarts<T>(sample, inSizes[d], outSizes[d], pool[d]);
    }
    const T *plane = input + p * inPlane;
    for (int64_t o = 0; o < outPlane; ++o) {
      // The output position, and the window's first input position.
      std::vector<int64_t> first(dims);
      int64_t rest = o;
      for (size_t d = dims; d-- > 0;) {
        first[d] = starts[d][rest % outSizes[d]];
        rest /= outSizes[d];
      }
      int64_t best = 0;
      for (size_t d = 0; d < dims; ++d)
        best = best * inSizes[d] + first[d];
      T bestValue = -std::numeric_limits<T>::infinity();
      // Every position of the window, in row-major order.
      int64_t windowSize = 1;
      for (int64_t size : pool)
        windowSize *= size;
      for (int64_t w = 0; w < windowSize; ++w) {
        int64_t at = 0, offsets = w;
        std::vector<int64_t> offset(dims);
        for (size_t d = dims; d-- > 0;) {
          offset[d] = offsets % pool[d];
          offsets /= pool[d];
        }
        for (size_t d = 0; d < dims; ++d)
          at = at * inSizes[d] + first[d] + offset[d];
        T value = plane[at];
        if (value > bestValue || std::isnan(value)) {
          bestValue = value;
          best = at;
        }
      }
      values[p * outPlane + o] = bestValue;
      indices[p * outPlane + o] = best;
    }
  }
}

/// fractional_max_pool{2,3}d(self, kernel_size, output_size,
///                           random_samples) -> (values, indices).
StatusOr<std::tuple<Tensor, Tensor>>
fractionalMaxPool(const Tensor &self, const std::vector<int64_t> &pool,
                  const std::vector<int64_t> &outSizes, const Tensor &samples,
                  size_t dims, const char *name) {
  std::string prefix = std::string(name) + "(): ";
  if (pool.size() != dims || outSizes.size() != dims)
    return Status::error(prefix + "kernel_size and output_size must have " +
                         std::to_string(dims) + " elements");
  int64_t rank = self.dim();
  if (rank != static_cast<int64_t>(dims) + 1 &&
      rank != static_cast<int64_t>(dims) + 2)
    return Status::error(prefix + "Expected " + std::to_string(dims + 1) +
                         "D or " + std::to_string(dims + 2) +
                         "D tensor, but got: " + sizesToString(self.sizes()));
  if (self.dtype() != DType::Float32 && self.dtype() != DType::Float64)
    return Status::error(prefix + "expected a Float or Double input, got " +
                         self.toString());
  std::vector<int64_t> inSizes(self.sizes().end() - dims, self.sizes().end());
  static const char *kDimNames[] = {"time", "height", "width"};
  for (size_t d = 0; d < dims; ++d) {
    const char *dimName = kDimNames[3 - dims + d];
    if (pool[d] <= 0 || outSizes[d] <= 0)
      return Status::error(prefix + "kernel_size and output_size must be "
                                    "greater than zero");
    if (outSizes[d] + pool[d] - 1 > inSizes[d])
      return Status::error(prefix + "pool " + dimName + " " +
                           std::to_string(pool[d]) +
                           " too large relative to input " + dimName + " " +
                           std::to_string(inSizes[d]));
  }
  int64_t planes = 1;
  for (int64_t i = 0; i < rank - static_cast<int64_t>(dims); ++i)
    planes *= self.size(i);
  if (samples.numel() != planes * static_cast<int64_t>(dims) ||
      samples.dtype() != self.dtype())
    return Status::error(prefix + "expected random_samples of " +
                         std::to_string(planes * dims) + " elements of " +
                         dtypeTorchName(self.dtype()) + ", got " +
                         samples.toString());

  std::vector<int64_t> resultSizes(self.sizes().begin(),
                                   self.sizes().end() - dims);
  resultSizes.insert(resultSizes.end(), outSizes.begin(), outSizes.end());
  TSIR_RT_ASSIGN_OR_RETURN(Tensor values,
                           Tensor::tryEmpty(resultSizes, self.dtype()));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor indices,
                           Tensor::tryEmpty(resultSizes, DType::Int64));
  Tensor input = self.contiguous(), drawn = samples.contiguous();
  if (self.dtype() == DType::Float32)
    poolPlanes<float>(input.dataAs<float>(), drawn.dataAs<float>(), planes,
                      inSizes, outSizes, pool, values.dataAs<float>(),
                      indices.dataAs<int64_t>());
  else
    poolPlanes<double>(input.dataAs<double>(), drawn.dataAs<double>(), planes,
                       inSizes, outSizes, pool, values.dataAs<double>(),
                       indices.dataAs<int64_t>());
  return std::make_tuple(std::move(values), std::move(indices));
}

StatusOr<std::tuple<Tensor, Tensor>>
fractionalMaxPool2d(Tensor self, std::vector<int64_t> kernelSize,
                    std::vector<int64_t> outputSize, Tensor randomSamples) {
  return fractionalMaxPool(self, kernelSize, outputSize, randomSamples, 2,
                           "fractional_max_pool2d");
}

StatusOr<std::tuple<Tensor, Tensor>>
fractionalMaxPool3d(Tensor self, std::vector<int64_t> kernelSize,
                    std::vector<int64_t> outputSize, Tensor randomSamples) {
  return fractionalMaxPool(self, kernelSize, outputSize, randomSamples, 3,
                           "fractional_max_pool3d");
}

} // namespace

void registerFractionalPoolKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::fractional_max_pool2d(Tensor self, int[2] kernel_size, "
           "int[2] output_size, Tensor random_samples) -> (Tensor, Tensor)",
           bindKernel(fractionalMaxPool2d)},
          {"aten::fractional_max_pool3d(Tensor self, int[3] kernel_size, "
           "int[3] output_size, Tensor random_samples) -> (Tensor, Tensor)",
           bindKernel(fractionalMaxPool3d)},
      });
}

} // namespace tsir::rt
