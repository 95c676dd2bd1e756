//===- ResizeKernels.cpp - upsample_nearest2d and upsample_bilinear2d -----===//
//
// Builtin kernels for 2-d upsampling of NCHW tensors, for the calls the
// compiled form (AtenToLinalg/Resize.cpp) does not take: an output size
// known only at run time (Mask R-CNN pastes each detection's mask at the
// size of its box). The arithmetic is the lowering's, which follows
// torch's CPU kernels (UpSample.h, UpSampleKernel.cpp) to the float: the
// scale is in/out, or 1/scale_factor when one is given, computed in the
// element type (float for Float, double for Double); nearest reads
// floor(dst * scale), bilinear interpolates at (dst + 0.5) * scale - 0.5
// clamped at 0 (or dst * (in - 1) / (out - 1) with align_corners).
// Their backward ops (the derivatives' building blocks) add each output
// gradient back where that arithmetic read from.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"
#include "KernelSupport.h"
#include "tsir-runtime/Stack.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace tsir::rt {

using namespace data;

namespace {

/// How one spatial dim is resized.
struct Axis {
  int64_t in = 0, out = 0;
  std::optional<double> scaleFactor;
};

/// torch's area_pixel_compute_scale, in the compute type T.
template <typename T> T scaleOf(const Axis &axis, bool alignCorners) {
  if (alignCorners)
    return axis.out > 1
               ? static_cast<T>(axis.in - 1) / static_cast<T>(axis.out - 1)
               : T(0);
  if (axis.scaleFactor && *axis.scaleFactor > 0)
    return static_cast<T>(1.0 / *axis.scaleFactor);
  return static_cast<T>(axis.in) / static_cast<T>(axis.out);
}

/// Where output index `dst` reads along an axis: the lower source index,
/// the upper one and the upper one's weight (nearest: the one index).
template <typename T> struct Source {
  int64_t low, high;
  T highWeight;
};

template <typename T>
Source<T> sourceOf(int64_t dst, const Axis &axis, T scale, bool bilinear,
                   bool alignCorners) {
  T position = static_cast<T>(dst);
  if (!bilinear) {
    int64_t index = static_cast<int64_t>(std::floor(scale * position));
    index = std::min(index, axis.in - 1);
    return {index, index, T(0)};
  }
  T src =
      alignCorners ? scale * position : scale * (position + T(0.5)) - T(0.5);
  if (src < T(0))
    src = T(0);
  T floored = std::floor(src);
  int64_t low = std::min(static_cast<int64_t>(floored), axis.in - 1);
  int64_t high = low < axis.in - 1 ? low + 1 : low;
  T lambda = std::min(std::max(src - floored, T(0)), T(1));
  return {low, high, lambda};
}

/// Where each output index of `axis` reads from.
template <typename T>
std::vector<Source<T>> sourcesOf(const Axis &axis, bool bilinear,
                                 bool alignCorners) {
  T scale = scaleOf<T>(axis, bilinear && alignCorners);
  std::vector<Source<T>> sources;
  for (int64_t dst = 0; dst < axis.out; ++dst)
    sources.push_back(sourceOf<T>(dst, axis, scale, bilinear, alignCorners));
  return sources;
}

template <typename T>
std::vector<double> resize(const std::vector<double> &input,
                           const std::vector<int64_t> &sizes, const Axis &h,
                           const Axis &w, bool bilinear, bool alignCorners) {
  int64_t planes = sizes[0] * sizes[1];
  std::vector<double> out(planes * h.out * w.out);
  std::vector<Source<T>> rows = sourcesOf<T>(h, bilinear, alignCorners);
  std::vector<Source<T>> cols = sourcesOf<T>(w, bilinear, alignCorners);
  for (int64_t p = 0; p < planes; ++p) {
    const double *plane = input.data() + p * h.in * w.in;
    auto at = [&](int64_t y, int64_t x) {
      return static_cast<T>(plane[y * w.in + x]);
    };
    for (int64_t y = 0; y < h.out; ++y)
      for (int64_t x = 0; x < w.out; ++x) {
        const Source<T> &r = rows[y], &c = cols[x];
        T value;
        if (!bilinear) {
          value = at(r.low, c.low);
        } else {
          // h0 * (w0 * x00 + w1 * x01) + h1 * (w0 * x10 + w1 * x11), the
          // order of torch's kernel.
          T w1 = c.highWeight, w0 = T(1) - w1;
          T h1 = r.highWeight, h0 = T(1) - h1;
          auto rowSum = [&](int64_t row) {
            return w0 * at(row, c.low) + w1 * at(row, c.high);
          };
          value = h0 * rowSum(r.low) + h1 * rowSum(r.high);
        }
        out[(p * h.out + y) * w.out + x] = static_cast<double>(value);
      }
  }
  return out;
}

/// A `float[]?` argument: nullopt for None.
StatusOr<std::optional<std::vector<double>>> optionalFloats(const Value &value,
                                                            const char *what) {
  if (value.isNone())
    return std::optional<std::vector<double>>();
  if (!value.isList())
    return Status::error(std::string(what) + " must be a list of floats");
  std::vector<double> values;
  for (const Value &element : value.toList()) {
    TSIR_RT_ASSIGN_OR_RETURN(double v, scalarArg(element, what));
    values.push_back(v);
  }
  return std::optional<std::vector<double>>(std::move(values));
}

/// The two spatial axes of a resize from `inSizes` (NCHW), read as
/// torch's upsample_*2d.vec read `output_size` and `scale_factors`.
StatusOr<std::array<Axis, 2>>
readAxes(const std::string &op, const std::vector<int64_t> &inSizes,
         const std::optional<std::vector<int64_t>> &outputSize,
         const Value &scalesArg) {
  TSIR_RT_ASSIGN_OR_RETURN(auto scales,
                           optionalFloats(scalesArg, "scale_factors"));
  if (inSizes.size() != 4)
    return Status::error(op + ": expected an NCHW input of rank 4, got rank " +
                         std::to_string(inSizes.size()));
  std::array<Axis, 2> axes;
  for (int i = 0; i < 2; ++i)
    axes[i].in = inSizes[2 + i];
  if (outputSize) {
    if (outputSize->size() != 2)
      return Status::error(op + ": output_size must have 2 elements");
    for (int i = 0; i < 2; ++i)
      axes[i].out = (*outputSize)[i];
  } else if (scales && scales->size() == 2) {
    for (int i = 0; i < 2; ++i) {
      axes[i].scaleFactor = (*scales)[i];
      axes[i].out = static_cast<int64_t>(
          std::floor(static_cast<double>(axes[i].in) * (*scales)[i]));
    }
  } else {
    return Status::error(op + ": give output_size or two scale_factors");
  }
  if (axes[0].out <= 0 || axes[1].out <= 0 || axes[0].in <= 0 ||
      axes[1].in <= 0)
    return Status::error(op + ": input and output sizes should be greater "
                              "than 0");
  return axes;
}

Status requireFloating(const std::string &op, const Tensor &tensor) {
  if (tensor.dtype() != DType::Float32 && tensor.dtype() != DType::Float64)
    return Status::error(op + ": expected a Float or Double tensor");
  return Status::ok();
}

/// upsample_{nearest,bilinear}2d.vec(input, output_size, [align_corners,]
/// scale_factors).
StatusOr<Tensor>
upsample2d(const Tensor &input,
           const std::optional<std::vector<int64_t>> &outputSize, bool bilinear,
           bool alignCorners, const Value &scaleFactors) {
  std::string op = bilinear ? "upsample_bilinear2d" : "upsample_nearest2d";
  TSIR_RT_RETURN_IF_ERROR(requireFloating(op, input));
  TSIR_RT_ASSIGN_OR_RETURN(
      auto axes, readAxes(op, input.sizes(), outputSize, scaleFactors));
  std::vector<double> values = toDoubles(input);
  std::vector<double> resized =
      input.dtype() == DType::Float32
          ? resize<float>(values, input.sizes(), axes[0], axes[1], bilinear,
                          alignCorners)
          : resize<double>(values, input.sizes(), axes[0], axes[1], bilinear,
                           alignCorners);
  std::vector<int64_t> sizes = {input.sizes()[0], input.sizes()[1], axes[0].out,
                                axes[1].out};
  return fromDoubles(resized, sizes, input.dtype());
}

/// scale_factors is a float[]?.
StatusOr<Tensor>
upsampleBilinear2dVec(Tensor input,
                      std::optional<std::vector<int64_t>> outputSize,
                      bool alignCorners, Value scaleFactors) {
  return upsample2d(input, outputSize, /*bilinear=*/true, alignCorners,
                    scaleFactors);
}

StatusOr<Tensor>
upsampleNearest2dVec(Tensor input,
                     std::optional<std::vector<int64_t>> outputSize,
                     Value scaleFactors) {
  return upsample2d(input, outputSize, /*bilinear=*/false,
                    /*alignCorners=*/false, scaleFactors);
}

/// The adjoint of `resize`: each output element's gradient added to the
/// input elements it was read from, with the weights it was read with
/// (the same Source per index, so the two cannot disagree).
template <typename T>
std::vector<double> resizeBackward(const std::vector<double> &grad,
                                   int64_t planes, const Axis &h,
                                   const Axis &w, bool bilinear,
                                   bool alignCorners) {
  std::vector<double> in(planes * h.in * w.in, 0.0);
  std::vector<Source<T>> rows = sourcesOf<T>(h, bilinear, alignCorners);
  std::vector<Source<T>> cols = sourcesOf<T>(w, bilinear, alignCorners);
  for (int64_t p = 0; p < planes; ++p) {
    double *plane = in.data() + p * h.in * w.in;
    const double *from = grad.data() + p * h.out * w.out;
    for (int64_t y = 0; y < h.out; ++y)
      for (int64_t x = 0; x < w.out; ++x) {
        const Source<T> &r = rows[y], &c = cols[x];
        double g = from[y * w.out + x];
        if (!bilinear) {
          plane[r.low * w.in + c.low] += g;
          continue;
        }
        double w1 = static_cast<double>(c.highWeight), w0 = 1.0 - w1;
        double h1 = static_cast<double>(r.highWeight), h0 = 1.0 - h1;
        plane[r.low * w.in + c.low] += h0 * w0 * g;
        plane[r.low * w.in + c.high] += h0 * w1 * g;
        plane[r.high * w.in + c.low] += h1 * w0 * g;
        plane[r.high * w.in + c.high] += h1 * w1 * g;
      }
  }
  return in;
}

/// upsample_{nearest,bilinear}2d_backward.vec(grad_output, output_size,
/// input_size, [align_corners,] scale_factors): the gradient of the
/// input, as torch's backward kernels give it.
StatusOr<Tensor>
upsample2dBackward(const Tensor &grad,
                   const std::optional<std::vector<int64_t>> &outputSize,
                   const std::vector<int64_t> &inputSize, bool bilinear,
                   bool alignCorners, const Value &scaleFactors) {
  std::string op =
      bilinear ? "upsample_bilinear2d_backward" : "upsample_nearest2d_backward";
  TSIR_RT_RETURN_IF_ERROR(requireFloating(op, grad));
  TSIR_RT_ASSIGN_OR_RETURN(auto axes,
                           readAxes(op, inputSize, outputSize, scaleFactors));
  std::vector<int64_t> expected = {inputSize[0], inputSize[1], axes[0].out,
                                   axes[1].out};
  if (grad.sizes() != expected)
    return Status::error(op + ": grad_output has sizes " +
                         sizesToString(grad.sizes()) + ", expected " +
                         sizesToString(expected));
  std::vector<double> values = toDoubles(grad);
  int64_t planes = inputSize[0] * inputSize[1];
  std::vector<double> result =
      grad.dtype() == DType::Float32
          ? resizeBackward<float>(values, planes, axes[0], axes[1], bilinear,
                                  alignCorners)
          : resizeBackward<double>(values, planes, axes[0], axes[1], bilinear,
                                   alignCorners);
  return fromDoubles(result, inputSize, grad.dtype());
}

StatusOr<Tensor> upsampleBilinear2dBackwardVec(
    Tensor gradOutput, std::optional<std::vector<int64_t>> outputSize,
    std::vector<int64_t> inputSize, bool alignCorners, Value scaleFactors) {
  return upsample2dBackward(gradOutput, outputSize, inputSize,
                            /*bilinear=*/true, alignCorners, scaleFactors);
}

StatusOr<Tensor> upsampleNearest2dBackwardVec(
    Tensor gradOutput, std::optional<std::vector<int64_t>> outputSize,
    std::vector<int64_t> inputSize, Value scaleFactors) {
  return upsample2dBackward(gradOutput, outputSize, inputSize,
                            /*bilinear=*/false, /*alignCorners=*/false,
                            scaleFactors);
}

} // namespace

void registerResizeKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::upsample_bilinear2d.vec(Tensor input, int[]? output_size, "
           "bool align_corners, float[]? scale_factors) -> Tensor",
           bindKernel(upsampleBilinear2dVec)},
          {"aten::upsample_nearest2d.vec(Tensor input, int[]? output_size, "
           "float[]? scale_factors) -> Tensor",
           bindKernel(upsampleNearest2dVec)},
          {"aten::upsample_bilinear2d_backward.vec(Tensor grad_output, int[]? "
           "output_size, int[] input_size, bool align_corners, float[]? "
           "scale_factors) -> Tensor",
           bindKernel(upsampleBilinear2dBackwardVec)},
          {"aten::upsample_nearest2d_backward.vec(Tensor grad_output, int[]? "
           "output_size, int[] input_size, float[]? scale_factors) -> Tensor",
           bindKernel(upsampleNearest2dBackwardVec)},
      });
}

} // namespace tsir::rt
