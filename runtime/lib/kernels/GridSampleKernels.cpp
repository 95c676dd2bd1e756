//===- GridSampleKernels.cpp - grid_sample in every mode, 2-d and 3-d -----===//
//
// The cases of F.grid_sample that the decomposition (decompositions.txt:
// bilinear or nearest, zeros or border padding, 2-d) does not compile:
// bicubic interpolation and reflection padding in 2-d
// (`_grid_sampler_2d_cpu_fallback`, ATen's name for its scalar CPU path),
// and every mode of `grid_sampler_3d`. They follow ATen's GridSampler.h /
// GridSampler.cpp to the formula, computed in the input's element type: a
// grid coordinate in [-1, 1] is unnormalized (align_corners: -1 and 1 are
// the corner pixels' centres; otherwise their outer edges), then clipped to
// the border or reflected off it; bilinear weighs the 4 (8 in 3-d)
// neighbours, nearest rounds half to even, bicubic runs the cubic
// convolution (A = -0.75) over the 4x4 neighbours, each padded as the mode
// says. Points that fall outside read 0.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"
#include "KernelSupport.h"
#include "tsir-runtime/Stack.h"

#include <cmath>

namespace tsir::rt {

using namespace data;

namespace {

enum class Interpolation { Bilinear = 0, Nearest = 1, Bicubic = 2 };
enum class Padding { Zeros = 0, Border = 1, Reflection = 2 };

template <typename T> T unnormalize(T coord, int64_t size, bool alignCorners) {
  if (alignCorners)
    return ((coord + 1) / 2) * static_cast<T>(size - 1);
  return ((coord + 1) * static_cast<T>(size) - 1) / 2;
}

template <typename T> T clip(T coord, int64_t size) {
  return std::min(static_cast<T>(size - 1), std::max(coord, static_cast<T>(0)));
}

/// `coord` reflected into [low, high] given as twice their values.
template <typename T> T reflect(T coord, int64_t twiceLow, int64_t twiceHigh) {
  if (twiceLow == twiceHigh)
    return static_cast<T>(0);
  T low = static_cast<T>(twiceLow) / 2;
  T span = static_cast<T>(twiceHigh - twiceLow) / 2;
  coord = std::fabs(coord - low);
  T extra = std::fmod(coord, span);
  int flips = static_cast<int>(std::floor(coord / span));
  return flips % 2 == 0 ? extra + low : span - extra + low;
}

/// A coordinate in pixels, padded as the mode says (ATen's
/// compute_coordinates); NaN and infinities land far outside.
template <typename T>
T padded(T coord, int64_t size, Padding padding, bool alignCorners) {
  if (padding == Padding::Border) {
    coord = clip(coord, size);
  } else if (padding == Padding::Reflection) {
    coord = alignCorners ? reflect(coord, 0, 2 * (size - 1))
                         : reflect(coord, -1, 2 * size - 1);
    coord = clip(coord, size);
  }
  if (!std::isfinite(coord) || coord > static_cast<T>(INT32_MAX) ||
      coord < static_cast<T>(INT32_MIN))
    return static_cast<T>(-100);
  return coord;
}

template <typename T> T cubicNear(T x, T a) {
  return ((a + 2) * x - (a + 3)) * x * x + 1;
}
template <typename T> T cubicFar(T x, T a) {
  return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
}
/// The cubic convolution of 4 samples at fraction t between the middle two.
template <typename T> T cubic(const T (&v)[4], T t) {
  const T a = static_cast<T>(-0.75);
  return v[0] * cubicFar<T>(t + 1, a) + v[1] * cubicNear<T>(t, a) +
         v[2] * cubicNear<T>(1 - t, a) + v[3] * cubicFar<T>(2 - t, a);
}

/// One sampling: `spatial` (2 or 3) dims of the input plane, sizes in
/// `sizes` (D, H, W or H, W), the grid point's coordinates in grid order
/// (x, y[, z]).
template <typename T> struct Sampler {
  std::vector<int64_t> sizes;
  Interpolation interpolation;
  Padding padding;
  bool alignCorners;

  /// The plane's value at integer position `at` (in sizes' order), 0
  /// outside.
  T read(const T *plane, const std::vector<int64_t> &at) const {
    int64_t offset = 0;
    for (size_t d = 0; d < sizes.size(); ++d) {
      if (at[d] < 0 || at[d] >= sizes[d])
        return 0;
      offset = offset * sizes[d] + at[d];
    }
    return plane[offset];
  }

  T sample(const T *plane, const T *coords) const {
    size_t dims = sizes.size();
    // Grid coordinates run from the last dim (x is W) to the first.
    std::vector<T> position(dims);
    for (size_t d = 0; d < dims; ++d) {
      T coord = unnormalize(coords[dims - 1 - d], sizes[d], alignCorners);
      position[d] = interpolation == Interpolation::Bicubic
                        ? coord
                        : padded(coord, sizes[d], padding, alignCorners);
    }
    std::vector<int64_t> at(dims);
    if (interpolation == Interpolation::Nearest) {
      for (size_t d = 0; d < dims; ++d)
        at[d] = static_cast<int64_t>(std::nearbyint(position[d]));
      return read(plane, at);
    }
    if (interpolation == Interpolation::Bilinear) {
      T total = 0;
      for (int corner = 0; corner < (1 << dims); ++corner) {
        T weight = 1;
        for (size_t d = 0; d < dims; ++d) {
          T low = std::floor(position[d]);
          bool high = corner & (1 << d);
          at[d] = static_cast<int64_t>(low) + (high ? 1 : 0);
          T fraction = position[d] - low;
          weight *= high ? fraction : 1 - fraction;
        }
        total += read(plane, at) * weight;
      }
      return total;
    }
    // Bicubic (2-d): 4 rows of 4 samples, each coordinate padded.
    T y = position[0], x = position[1];
    T yLow = std::floor(y), xLow = std::floor(x);
    T rows[4];
    for (int i = 0; i < 4; ++i) {
      T row[4];
      for (int j = 0; j < 4; ++j) {
        T ry = padded(yLow - 1 + i, sizes[0], padding, alignCorners);
        T rx = padded(xLow - 1 + j, sizes[1], padding, alignCorners);
        row[j] = read(plane, {static_cast<int64_t>(ry),
                              static_cast<int64_t>(rx)});
      }
      rows[i] = cubic(row, x - xLow);
    }
    return cubic(rows, y - yLow);
  }
};

template <typename T>
void sampleAll(const Tensor &input, const Tensor &grid,
               const Sampler<T> &sampler, Tensor &out) {
  size_t dims = sampler.sizes.size();
  int64_t batch = input.size(0), channels = input.size(1);
  int64_t plane = 1, points = 1;
  for (int64_t size : sampler.sizes)
    plane *= size;
  for (size_t d = 0; d < dims; ++d)
    points *= grid.size(1 + d);
  const T *in = input.dataAs<T>();
  const T *coords = grid.dataAs<T>();
  T *result = out.dataAs<T>();
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t p = 0; p < points; ++p)
        result[(n * channels + c) * points + p] =
            sampler.sample(in + (n * channels + c) * plane,
                           coords + (n * points + p) * dims);
}

/// grid_sampler_{2d fallback,3d}(input, grid, interpolation_mode,
/// padding_mode, align_corners).
StatusOr<Tensor> gridSample(const Tensor &input, const Tensor &grid,
                            int64_t mode, int64_t pad, bool alignCorners,
                            size_t dims, const char *name) {
  std::string prefix = std::string(name) + "(): ";
  int64_t rank = static_cast<int64_t>(dims) + 2;
  if (input.dim() != rank || grid.dim() != rank)
    return Status::error(prefix + "expected " + std::to_string(rank) +
                         "D input and grid, but got input with sizes " +
                         sizesToString(input.sizes()) +
                         " and grid with sizes " +
                         sizesToString(grid.sizes()));
  if (input.size(0) != grid.size(0))
    return Status::error(prefix + "expected grid and input to have same "
                                  "batch size, but got input with sizes " +
                         sizesToString(input.sizes()) +
                         " and grid with sizes " + sizesToString(grid.sizes()));
  if (grid.size(-1) != static_cast<int64_t>(dims))
    return Status::error(prefix + "expected grid to have size " +
                         std::to_string(dims) + " in last dimension, but got "
                         "grid with sizes " + sizesToString(grid.sizes()));
  if (mode < 0 || mode > 2 || pad < 0 || pad > 2)
    return Status::error(prefix + "unknown interpolation or padding mode");
  if (mode == 2 && dims != 2)
    return Status::error("grid_sampler(): bicubic interpolation only "
                         "supports 4D input");
  if (input.dtype() != DType::Float32 && input.dtype() != DType::Float64)
    return Status::error(prefix + "expected a Float or Double input, got " +
                         input.toString());
  for (size_t d = 0; d < dims; ++d)
    if (input.size(2 + d) <= 0)
      return Status::error(prefix + "expected input to have non-empty "
                                    "spatial dimensions, but input has sizes " +
                           sizesToString(input.sizes()));
  std::vector<int64_t> resultSizes = {input.size(0), input.size(1)};
  for (size_t d = 0; d < dims; ++d)
    resultSizes.push_back(grid.size(1 + d));
  TSIR_RT_ASSIGN_OR_RETURN(Tensor out,
                           Tensor::tryEmpty(resultSizes, input.dtype()));
  Tensor dense = input.contiguous();
  Tensor points = grid.to(input.dtype());
  std::vector<int64_t> sizes(input.sizes().begin() + 2, input.sizes().end());
  auto interpolation = static_cast<Interpolation>(mode);
  auto padding = static_cast<Padding>(pad);
  if (input.dtype() == DType::Float32)
    sampleAll<float>(dense, points,
                     {sizes, interpolation, padding, alignCorners}, out);
  else
    sampleAll<double>(dense, points,
                      {sizes, interpolation, padding, alignCorners}, out);
  return out;
}

StatusOr<Tensor> gridSampler2dCpuFallback(Tensor input, Tensor grid,
                                          int64_t interpolationMode,
                                          int64_t paddingMode,
                                          bool alignCorners) {
  return gridSample(input, grid, interpolationMode, paddingMode, alignCorners,
                    2, "grid_sampler_2d");
}

StatusOr<Tensor> gridSampler3d(Tensor input, Tensor grid,
                               int64_t interpolationMode, int64_t paddingMode,
                               bool alignCorners) {
  return gridSample(input, grid, interpolationMode, paddingMode, alignCorners,
                    3, "grid_sampler_3d");
}

} // namespace

void registerGridSampleKernels(KernelRegistry &registry) {
  registerKernelTable(registry,
                      {
                          {"aten::_grid_sampler_2d_cpu_fallback(Tensor input, "
                           "Tensor grid, int interpolation_mode, int "
                           "padding_mode, bool align_corners) -> Tensor",
                           bindKernel(gridSampler2dCpuFallback)},
                          {"aten::grid_sampler_3d(Tensor input, Tensor grid, "
                           "int interpolation_mode, int padding_mode, bool "
                           "align_corners) -> Tensor",
                           bindKernel(gridSampler3d)},
                      });
}

} // namespace tsir::rt
