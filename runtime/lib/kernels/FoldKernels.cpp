//===- FoldKernels.cpp - col2im (nn.Fold) ---------------------------------===//
//
// col2im, the adjoint of im2col (unfold): each column of a
// [N, C * kh * kw, L] input holds one sliding block's values, which are
// added back into a [N, C, H, W] image at the places the block covers, as
// ATen's Col2Im.cpp does (overlapping blocks add up, places in the padding
// are dropped). It is nn.Fold's op, and the gradient of unfold.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "DataKernelSupport.h"
#include "KernelSupport.h"
#include "tsir-runtime/Stack.h"

#include <string>

namespace tsir::rt {

using namespace data;

namespace {

/// Checks a pair argument of col2im (`int[2]`), named as torch names it.
Status checkPair(const std::vector<int64_t> &values, const char *what) {
  if (values.size() != 2)
    return Status::error(std::string("col2im: It is expected ") + what +
                         " equals to 2, but got size " +
                         std::to_string(values.size()));
  return Status::ok();
}

std::string pairString(const std::vector<int64_t> &pair) {
  return "(" + std::to_string(pair[0]) + ", " + std::to_string(pair[1]) + ")";
}

/// col2im(self, output_size, kernel_size, dilation, padding, stride).
StatusOr<Tensor> col2im(Tensor self, std::vector<int64_t> outputSize,
                        std::vector<int64_t> kernelSize,
                        std::vector<int64_t> dilation,
                        std::vector<int64_t> padding,
                        std::vector<int64_t> stride) {
  TSIR_RT_RETURN_IF_ERROR(checkPair(outputSize, "output_size"));
  TSIR_RT_RETURN_IF_ERROR(checkPair(kernelSize, "kernel_size"));
  TSIR_RT_RETURN_IF_ERROR(checkPair(dilation, "dilation"));
  TSIR_RT_RETURN_IF_ERROR(checkPair(padding, "padding"));
  TSIR_RT_RETURN_IF_ERROR(checkPair(stride, "stride"));
  for (int i = 0; i < 2; ++i)
    if (kernelSize[i] <= 0 || dilation[i] <= 0 || stride[i] <= 0 ||
        padding[i] < 0)
      return Status::error("col2im: kernel_size, dilation and stride should "
                           "be greater than zero and padding non-negative");
  bool batched = self.dim() == 3;
  if (self.dim() != 2 && !batched)
    return Status::error("Expected 2D or 3D (batch mode) tensor for input "
                         "with possibly 0 batch size and non-zero dimensions "
                         "for input, but got: " +
                         sizesToString(self.sizes()));
  int64_t batch = batched ? self.sizes()[0] : 1;
  int64_t rows = self.sizes()[batched ? 1 : 0];
  int64_t blocks = self.sizes()[batched ? 2 : 1];
  int64_t area = kernelSize[0] * kernelSize[1];
  if (rows % area != 0)
    return Status::error(
        "Expected size of input's dimension 1 to be divisible by the "
        "product of kernel_size, but got input.size(1)=" +
        std::to_string(rows) + " and kernel_size=" + pairString(kernelSize));
  int64_t across[2];
  for (int i = 0; i < 2; ++i)
    across[i] = (outputSize[i] + 2 * padding[i] -
                 (dilation[i] * (kernelSize[i] - 1) + 1)) /
                    stride[i] +
                1;
  if (across[0] < 1 || across[1] < 1 || across[0] * across[1] != blocks)
    return Status::error(
        "Given output_size=" + pairString(outputSize) + ", kernel_size=" +
        pairString(kernelSize) + ", dilation=" + pairString(dilation) +
        ", padding=" + pairString(padding) + ", stride=" + pairString(stride) +
        ", expected size of input's dimension 2 to match the calculated "
        "number of sliding blocks " +
        std::to_string(across[0]) + " * " + std::to_string(across[1]) + " = " +
        std::to_string(across[0] * across[1]) +
        ", but got input.size(2)=" + std::to_string(blocks) + ".");
  int64_t channels = rows / area;
  int64_t height = outputSize[0], width = outputSize[1];
  std::vector<double> columns = toDoubles(self);
  std::vector<double> image(batch * channels * height * width, 0.0);
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t row = 0; row < rows; ++row) {
      int64_t c = row / area, i = (row / kernelSize[1]) % kernelSize[0],
              j = row % kernelSize[1];
      const double *from = columns.data() + (n * rows + row) * blocks;
      double *plane = image.data() + (n * channels + c) * height * width;
      for (int64_t bh = 0; bh < across[0]; ++bh) {
        int64_t h = bh * stride[0] - padding[0] + i * dilation[0];
        if (h < 0 || h >= height)
          continue;
        for (int64_t bw = 0; bw < across[1]; ++bw) {
          int64_t w = bw * stride[1] - padding[1] + j * dilation[1];
          if (w >= 0 && w < width)
            plane[h * width + w] += from[bh * across[1] + bw];
        }
      }
    }
  std::vector<int64_t> sizes = {channels, height, width};
  if (batched)
    sizes.insert(sizes.begin(), batch);
  return fromDoubles(image, sizes, self.dtype());
}

} // namespace

void registerFoldKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::col2im(Tensor self, int[2] output_size, int[2] kernel_size, "
           "int[2] dilation, int[2] padding, int[2] stride) -> Tensor",
           bindKernel(col2im)},
      });
}

} // namespace tsir::rt
