//===- RoiAlign.cpp - torchvision::roi_align ------------------------------===//
//
// RoIAlign (Mask R-CNN), as torchvision's CPU kernel
// (torchvision/csrc/ops/cpu/roi_align_kernel.cpp): each region of `rois`
// ([K, 5]: batch index, x1, y1, x2, y2 in input coordinates before
// `spatial_scale`) is divided into pooled_height x pooled_width bins, and
// each bin is the mean of bilinear samples on a regular grid of
// `sampling_ratio` points per side (adaptive, ceil(size / bins), when not
// positive). `aligned` shifts the boxes by half a pixel. The result is
// [K, C, pooled_height, pooled_width].
//
//===----------------------------------------------------------------------===//

#include "TorchvisionOps.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tsir::torchvision {

using rt::DType;
using rt::Status;
using rt::Tensor;

namespace {

struct Geometry {
  int64_t channels, height, width, pooledHeight, pooledWidth, samplingRatio;
  bool aligned;
};

/// One bilinear sample of a region: the four input positions it reads
/// within a channel plane and their weights (all zero outside the input).
template <typename T> struct Sample {
  int64_t positions[4];
  T weights[4];
};

/// The sample at (y, x): zero outside [-1, size], clamped at the borders,
/// as torchvision computes it.
template <typename T>
Sample<T> locate(int64_t height, int64_t width, T y, T x) {
  if (y < -1.0 || y > height || x < -1.0 || x > width)
    return {{0, 0, 0, 0}, {0, 0, 0, 0}};
  y = std::max(y, T(0));
  x = std::max(x, T(0));
  int64_t yLow = static_cast<int64_t>(y), xLow = static_cast<int64_t>(x);
  int64_t yHigh, xHigh;
  if (yLow >= height - 1) {
    yHigh = yLow = height - 1;
    y = static_cast<T>(yLow);
  } else {
    yHigh = yLow + 1;
  }
  if (xLow >= width - 1) {
    xHigh = xLow = width - 1;
    x = static_cast<T>(xLow);
  } else {
    xHigh = xLow + 1;
  }
  T ly = y - yLow, lx = x - xLow, hy = 1 - ly, hx = 1 - lx;
  return {{yLow * width + xLow, yLow * width + xHigh, yHigh * width + xLow,
           yHigh * width + xHigh},
          {hy * hx, hy * lx, ly * hx, ly * lx}};
}

/// Each region's samples are located once, bin by bin, and read from
/// every channel plane (torchvision's pre_calc): the coordinate arithmetic
/// was most of the kernel when done again per channel, and Mask R-CNN's
/// heads pool 256 channels per region.
template <typename T>
void align(const T *input, const T *rois, int64_t count, T scale,
           const Geometry &g, T *output) {
  std::vector<Sample<T>> samples;
  for (int64_t n = 0; n < count; ++n) {
    const T *roi = rois + 5 * n;
    int64_t batch = static_cast<int64_t>(roi[0]);
    T offset = g.aligned ? T(0.5) : T(0);
    T startW = roi[1] * scale - offset, startH = roi[2] * scale - offset;
    T roiWidth = roi[3] * scale - offset - startW;
    T roiHeight = roi[4] * scale - offset - startH;
    if (!g.aligned) {
      roiWidth = std::max(roiWidth, T(1));
      roiHeight = std::max(roiHeight, T(1));
    }
    T binH = roiHeight / static_cast<T>(g.pooledHeight);
    T binW = roiWidth / static_cast<T>(g.pooledWidth);
    int64_t gridH = g.samplingRatio > 0
                        ? g.samplingRatio
                        : static_cast<int64_t>(std::ceil(roiHeight / g.pooledHeight));
    int64_t gridW = g.samplingRatio > 0
                        ? g.samplingRatio
                        : static_cast<int64_t>(std::ceil(roiWidth / g.pooledWidth));
    T divisor = static_cast<T>(std::max<int64_t>(gridH * gridW, 1));
    // Bin by bin, row by row of samples within a bin.
    samples.clear();
    for (int64_t ph = 0; ph < g.pooledHeight; ++ph)
      for (int64_t pw = 0; pw < g.pooledWidth; ++pw)
        for (int64_t iy = 0; iy < gridH; ++iy) {
          T y = startH + ph * binH +
                static_cast<T>(iy + .5f) * binH / static_cast<T>(gridH);
          for (int64_t ix = 0; ix < gridW; ++ix) {
            T x = startW + pw * binW +
                  static_cast<T>(ix + .5f) * binW / static_cast<T>(gridW);
            samples.push_back(locate(g.height, g.width, y, x));
          }
        }
    int64_t perBin = gridH * gridW, bins = g.pooledHeight * g.pooledWidth;
    for (int64_t c = 0; c < g.channels; ++c) {
      const T *plane = input + (batch * g.channels + c) * g.height * g.width;
      T *out = output + (n * g.channels + c) * bins;
      const Sample<T> *sample = samples.data();
      for (int64_t bin = 0; bin < bins; ++bin) {
        T sum = 0;
        for (int64_t i = 0; i < perBin; ++i, ++sample)
          sum += sample->weights[0] * plane[sample->positions[0]] +
                 sample->weights[1] * plane[sample->positions[1]] +
                 sample->weights[2] * plane[sample->positions[2]] +
                 sample->weights[3] * plane[sample->positions[3]];
        out[bin] = sum / divisor;
      }
    }
  }
}

} // namespace

rt::StatusOr<Tensor> roiAlign(Tensor input, Tensor rois, double scale,
                              int64_t pooledHeight, int64_t pooledWidth,
                              int64_t samplingRatio, bool aligned) {
  if (input.dim() != 4)
    return Status::error("roi_align: input must be 4-d (N, C, H, W), got " +
                         input.toString());
  if (rois.dim() != 2 || rois.sizes()[1] != 5)
    return Status::error("rois must have shape as Tensor[K, 5], got " +
                         rois.toString());
  if (input.dtype() != rois.dtype())
    return Status::error("roi_align: input and rois must have the same "
                         "dtype, got " + input.toString() + " and " +
                         rois.toString());
  if (pooledHeight <= 0 || pooledWidth <= 0)
    return Status::error("roi_align: the output size must be positive");
  Geometry g{input.sizes()[1], input.sizes()[2], input.sizes()[3],
             pooledHeight,     pooledWidth,      samplingRatio, aligned};
  int64_t count = rois.sizes()[0];
  Tensor denseInput = input.contiguous(), denseRois = rois.contiguous();
  Tensor output =
      Tensor::empty({count, g.channels, pooledHeight, pooledWidth}, input.dtype());
  if (input.dtype() == DType::Float32)
    align<float>(denseInput.dataAs<float>(), denseRois.dataAs<float>(), count,
                 static_cast<float>(scale), g, output.dataAs<float>());
  else if (input.dtype() == DType::Float64)
    align<double>(denseInput.dataAs<double>(), denseRois.dataAs<double>(),
                  count, scale, g, output.dataAs<double>());
  else
    return Status::error("roi_align: input must be Float or Double, got " +
                         input.toString());
  return output;
}

} // namespace tsir::torchvision
