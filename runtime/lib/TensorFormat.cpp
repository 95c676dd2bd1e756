//===- TensorFormat.cpp - Printing tensor data as torch's C++ API does ----===//
//
// formatTensorData, the layout prim::Print uses for tensors: right-aligned
// columns, one matrix per leading index ("(1,.,.) = "), then the type and
// shape in brackets ("[ CPUFloatType{2,3} ]").
//
//===----------------------------------------------------------------------===//

#include "DTypeDispatch.h"
#include "tsir-runtime/Value.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tsir::rt {

namespace {
/// How every element of one tensor is written, chosen from all of them so
/// that columns line up.
struct ElementStyle {
  bool integral = true; // No fractional digits needed.
  bool scientific = false;
};

ElementStyle chooseStyle(const std::vector<double> &values, DType dtype) {
  ElementStyle style;
  if (!isFloating(dtype))
    return style;
  double largest = 0, smallest = INFINITY;
  for (double value : values) {
    if (!std::isfinite(value))
      continue;
    if (value != std::trunc(value))
      style.integral = false;
    double magnitude = std::fabs(value);
    largest = std::max(largest, magnitude);
    if (magnitude != 0)
      smallest = std::min(smallest, magnitude);
  }
  if (!style.integral)
    style.scientific = largest >= 1e8 || smallest < 1e-4;
  else
    style.scientific = largest >= 1e8;
  return style;
}

std::string formatElement(double value, ElementStyle style) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  char buffer[64];
  if (style.scientific)
    std::snprintf(buffer, sizeof buffer, "%.4e", value);
  else if (style.integral)
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  else
    std::snprintf(buffer, sizeof buffer, "%.4f", value);
  return buffer;
}

std::string typeTrailer(const Tensor &tensor) {
  std::string text = "[ ";
  text += tensor.device().isCPU() ? "CPU" : "CUDA";
  text += dtypeTorchName(tensor.dtype());
  text += "Type{";
  for (int64_t d = 0; d < tensor.dim(); ++d)
    text += (d ? "," : "") + std::to_string(tensor.sizes()[d]);
  return text + "} ]";
}
} // namespace

std::string formatTensorData(const Tensor &tensor) {
  if (!tensor.defined())
    return "[ Tensor (undefined) ]";
  if (!tensor.device().isCPU())
    return typeTrailer(tensor);
  Tensor dense = tensor.contiguous();
  int64_t numel = dense.numel();
  std::vector<double> values(static_cast<size_t>(numel));
  const char *base = static_cast<const char *>(dense.data());
  for (int64_t i = 0; i < numel; ++i)
    values[i] =
        detail::loadAsDouble(base + i * dense.elementSize(), dense.dtype());
  ElementStyle style = chooseStyle(values, dense.dtype());
  std::vector<std::string> texts;
  size_t width = 0;
  for (double value : values) {
    texts.push_back(formatElement(value, style));
    width = std::max(width, texts.back().size());
  }
  auto cell = [&](int64_t i) {
    return std::string(width + 1 - texts[i].size(), ' ') + texts[i];
  };

  std::string out;
  if (numel == 0)
    return typeTrailer(tensor);
  int64_t rank = dense.dim();
  if (rank <= 1) {
    for (int64_t i = 0; i < numel; ++i)
      out += cell(i) + "\n";
    return out + typeTrailer(tensor);
  }
  int64_t rows = dense.sizes()[rank - 2], columns = dense.sizes()[rank - 1];
  int64_t matrices = numel / (rows * columns);
  for (int64_t m = 0; m < matrices; ++m) {
    if (rank > 2) {
      // The 1-based leading indices of this matrix, as torch labels them.
      std::vector<int64_t> index(rank - 2);
      for (int64_t rest = m, d = rank - 3; d >= 0; --d) {
        index[d] = rest % dense.sizes()[d] + 1;
        rest /= dense.sizes()[d];
      }
      if (m)
        out += "\n";
      out += "(";
      for (int64_t d = 0; d < rank - 2; ++d)
        out += std::to_string(index[d]) + ",";
      out += ".,.) = \n";
    }
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < columns; ++c)
        out += (c ? " " : "") + cell((m * rows + r) * columns + c);
      out += "\n";
    }
  }
  return out + typeTrailer(tensor);
}

} // namespace tsir::rt
