//===- AbiValue.cpp - Runtime values across the compiled-code ABI ---------===//
//
// See AbiValue.h.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/AbiValue.h"

#include <cstring>

namespace tsir::rt {

tsir_value abiValueOfTensor(const Tensor &contiguous) {
  tsir_value value;
  std::memset(&value, 0, sizeof value);
  value.kind = TSIR_VALUE_TENSOR;
  value.dtype = int32_t(dtypeScalarType(contiguous.dtype()));
  value.rank = int32_t(contiguous.dim());
  value.data = contiguous.data();
  for (int64_t d = 0; d < contiguous.dim(); ++d) {
    value.sizes[d] = contiguous.size(d);
    value.strides[d] = contiguous.stride(d);
  }
  return value;
}

Value valueOfAbiOutput(const tsir_value &output,
                       std::function<void(void *)> release) {
  switch (output.kind) {
  case TSIR_VALUE_INT:
    return Value(int64_t(output.int_value));
  case TSIR_VALUE_FLOAT:
    return Value(output.float_value);
  case TSIR_VALUE_BOOL:
    return Value(output.int_value != 0);
  default:
    break;
  }
  DType dtype = *dtypeFromScalarType(output.dtype);
  std::vector<int64_t> sizes(output.sizes, output.sizes + output.rank);
  std::vector<int64_t> strides(output.strides, output.strides + output.rank);
  // Elements reachable from the first one: 1 + sum((size - 1) * stride),
  // none when a size is 0.
  int64_t extent = 1;
  for (int d = 0; d < output.rank; ++d)
    extent += (sizes[d] - 1) * strides[d];
  for (int64_t size : sizes)
    if (size == 0)
      extent = 0;
  Ref<Storage> storage = Storage::adopt(
      output.allocation, output.data, size_t(extent) * dtypeSize(dtype),
      Device::cpu(), std::move(release));
  return Value(Tensor(storage, sizes, strides, 0, dtype));
}

} // namespace tsir::rt
