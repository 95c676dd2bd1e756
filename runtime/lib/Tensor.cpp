//===- Tensor.cpp - Tensor creation and geometry --------------------------===//
//
// Making tensors (empty, zeros, fromBlob, scalar) and the queries on their
// geometry. Views are in TensorViews.cpp, copies in TensorCopy.cpp.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Tensor.h"
#include "tsir-runtime/Cuda.h"

#include <cstring>

namespace tsir::rt {

std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t stride = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    // Zero-size dimensions still get the stride of a size-1 one, as torch.
    // The product can overflow only beside a zero-size dimension (callers
    // reject shapes whose element count overflows); such strides never
    // address an element, so the wrapped value the builtin leaves is as
    // good as any, and, unlike `*=`, defined.
    (void)__builtin_mul_overflow(stride, sizes[i] > 1 ? sizes[i] : 1, &stride);
  }
  return strides;
}

StatusOr<int64_t> checkedNumel(const std::vector<int64_t> &sizes) {
  int64_t numel = 1;
  for (int64_t size : sizes) {
    if (size < 0)
      return Status::error("negative size " + std::to_string(size) +
                           " in shape " + sizesToString(sizes));
    if (__builtin_mul_overflow(numel, size, &numel))
      return Status::error("shape " + sizesToString(sizes) +
                           " has more elements than fit in 64 bits");
  }
  return numel;
}

std::string sizesToString(const std::vector<int64_t> &sizes) {
  std::string text = "[";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i)
      text += ", ";
    text += std::to_string(sizes[i]);
  }
  return text + "]";
}

Tensor::Tensor(Ref<Storage> storage, std::vector<int64_t> sizes,
               std::vector<int64_t> strides, int64_t storageOffset, DType dtype)
    : storageRef(std::move(storage)), sizeVec(std::move(sizes)),
      strideVec(std::move(strides)), offset(storageOffset), type(dtype) {
  assert(sizeVec.size() == strideVec.size() && "one stride per size");
}

StatusOr<Tensor> Tensor::tryEmpty(std::vector<int64_t> sizes, DType dtype,
                                  Allocator &allocator) {
  StatusOr<int64_t> numel = checkedNumel(sizes);
  if (!numel.ok())
    return numel.status();
  int64_t nbytes;
  if (__builtin_mul_overflow(*numel, static_cast<int64_t>(dtypeSize(dtype)),
                             &nbytes))
    return Status::error("a " + std::string(dtypeTorchName(dtype)) +
                         " tensor of shape " + sizesToString(sizes) +
                         " needs more bytes than fit in 64 bits");
  Ref<Storage> storage =
      Storage::allocate(static_cast<size_t>(nbytes), allocator);
  if (!storage)
    return Status::error("out of memory allocating " + std::to_string(nbytes) +
                         " bytes on " + allocator.device().toString());
  std::vector<int64_t> strides = contiguousStrides(sizes);
  return Tensor(std::move(storage), std::move(sizes), std::move(strides), 0,
                dtype);
}

StatusOr<Tensor> Tensor::tryEmpty(std::vector<int64_t> sizes, DType dtype,
                                  Device device) {
  Allocator *allocator = allocatorFor(device.kind);
  // The CUDA allocator is installed when the driver is first opened: open
  // it now, or say why there is no GPU.
  if (!allocator && device.isCUDA()) {
    if (Status usable = cuda::available(); !usable.isOk())
      return usable;
    allocator = allocatorFor(device.kind);
  }
  if (!allocator)
    return Status::error("no allocator for " + device.toString() +
                         " (the device runtime is not loaded)");
  return tryEmpty(std::move(sizes), dtype, *allocator);
}

Tensor Tensor::empty(std::vector<int64_t> sizes, DType dtype, Device device) {
  StatusOr<Tensor> tensor = tryEmpty(std::move(sizes), dtype, device);
  if (!tensor.ok())
    detail::fatalStatus("Tensor::empty", tensor.status());
  return std::move(tensor).value();
}

Tensor Tensor::zeros(std::vector<int64_t> sizes, DType dtype, Device device) {
  Tensor tensor = empty(std::move(sizes), dtype, device);
  // Every dtype's zero is all-zero bits (+0.0, false, 0).
  if (device.isCPU())
    std::memset(tensor.data(), 0, tensor.nbytes());
  else
    tensor.fill(0);
  return tensor;
}

Tensor Tensor::fromBlob(const void *data, std::vector<int64_t> sizes,
                        DType dtype) {
  Tensor tensor = empty(std::move(sizes), dtype);
  if (tensor.nbytes())
    std::memcpy(tensor.data(), data, tensor.nbytes());
  return tensor;
}

Tensor Tensor::scalar(double value, DType dtype) {
  Tensor tensor = empty({}, dtype);
  tensor.fill(value);
  return tensor;
}

int64_t Tensor::numel() const {
  if (!defined())
    return 0;
  int64_t numel = 1;
  for (int64_t size : sizeVec)
    numel *= size;
  return numel;
}

int64_t Tensor::size(int64_t d) const {
  int64_t n = dim();
  assert(d >= -n && d < n && "dimension out of range");
  return sizeVec[d < 0 ? d + n : d];
}

int64_t Tensor::stride(int64_t d) const {
  int64_t n = dim();
  assert(d >= -n && d < n && "dimension out of range");
  return strideVec[d < 0 ? d + n : d];
}

Device Tensor::device() const {
  return defined() ? storageRef->device() : Device::cpu();
}

size_t Tensor::nbytes() const {
  return static_cast<size_t>(numel()) * elementSize();
}

bool Tensor::isContiguous() const {
  if (numel() == 0)
    return true;
  int64_t expected = 1;
  for (size_t i = sizeVec.size(); i-- > 0;) {
    if (sizeVec[i] == 1)
      continue;
    if (strideVec[i] != expected)
      return false;
    expected *= sizeVec[i];
  }
  return true;
}

void *Tensor::data() const {
  if (!defined())
    return nullptr;
  return static_cast<char *>(storageRef->data()) +
         offset * static_cast<int64_t>(elementSize());
}

std::string Tensor::toString() const {
  if (!defined())
    return "Undefined";
  std::string text = dtypeTorchName(type) + sizesToString(sizeVec);
  if (!device().isCPU())
    text += " " + device().toString();
  return text;
}

} // namespace tsir::rt
