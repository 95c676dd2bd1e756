//===- TensorCopy.cpp - Strided copies with dtype conversion --------------===//
//
// copyFrom and what is built on it (contiguous, clone, to, fill). One
// strided loop walks both layouts; its innermost dimension runs a function
// specialized for the (source, destination) dtype pair.
//
//===----------------------------------------------------------------------===//

#include "DTypeDispatch.h"
#include "tsir-runtime/Tensor.h"

#include <algorithm>
#include <cstring>

namespace tsir::rt {

namespace {
using InnerLoop = void (*)(char *dst, int64_t dstStride, const char *src,
                           int64_t srcStride, int64_t count);

template <class S, class D>
void convertLoop(char *dst, int64_t dstStride, const char *src,
                 int64_t srcStride, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    detail::convertElement<S, D>(src + i * srcStride, dst + i * dstStride);
}

template <size_t Size>
void sameTypeLoop(char *dst, int64_t dstStride, const char *src,
                  int64_t srcStride, int64_t count) {
  if (dstStride == Size && srcStride == Size) {
    std::memcpy(dst, src, Size * count);
    return;
  }
  for (int64_t i = 0; i < count; ++i)
    std::memcpy(dst + i * dstStride, src + i * srcStride, Size);
}

InnerLoop pickLoop(DType src, DType dst) {
  if (src == dst) {
    switch (dtypeSize(src)) {
    case 1:
      return sameTypeLoop<1>;
    case 2:
      return sameTypeLoop<2>;
    case 4:
      return sameTypeLoop<4>;
    default:
      return sameTypeLoop<8>;
    }
  }
  return detail::dispatchDType(src, [&](auto srcTag) {
    using S = typename decltype(srcTag)::type;
    return detail::dispatchDType(dst, [&](auto dstTag) -> InnerLoop {
      using D = typename decltype(dstTag)::type;
      return convertLoop<S, D>;
    });
  });
}

/// The byte range [first, last] a non-empty tensor touches in its storage.
std::pair<int64_t, int64_t> byteExtent(const Tensor &tensor) {
  int64_t elementSize = static_cast<int64_t>(tensor.elementSize());
  int64_t first = tensor.storageOffset(), last = first;
  for (int64_t d = 0; d < tensor.dim(); ++d)
    last += (tensor.sizes()[d] - 1) * tensor.strides()[d];
  return {first * elementSize, last * elementSize + elementSize - 1};
}

bool mayOverlap(const Tensor &a, const Tensor &b) {
  if (!a.sharesStorageWith(b))
    return false;
  auto [aFirst, aLast] = byteExtent(a);
  auto [bFirst, bLast] = byteExtent(b);
  return aFirst <= bLast && bFirst <= aLast;
}

/// Copies elements of `src` into `dst` (same sizes, non-empty, no overlap).
void stridedCopy(const Tensor &dst, const Tensor &src) {
  int64_t dstSize = static_cast<int64_t>(dst.elementSize());
  int64_t srcSize = static_cast<int64_t>(src.elementSize());
  // Byte strides, innermost last, without size-1 dimensions, and with
  // dimensions merged where both layouts are dense across them.
  std::vector<int64_t> sizes, dstStrides, srcStrides;
  for (int64_t d = 0; d < dst.dim(); ++d) {
    int64_t size = dst.sizes()[d];
    if (size == 1)
      continue;
    int64_t ds = dst.strides()[d] * dstSize, ss = src.strides()[d] * srcSize;
    if (!sizes.empty() && dstStrides.back() == ds * size &&
        srcStrides.back() == ss * size) {
      sizes.back() *= size;
      dstStrides.back() = ds;
      srcStrides.back() = ss;
      continue;
    }
    sizes.push_back(size);
    dstStrides.push_back(ds);
    srcStrides.push_back(ss);
  }
  if (sizes.empty()) {
    sizes = {1};
    dstStrides = {dstSize};
    srcStrides = {srcSize};
  }

  InnerLoop loop = pickLoop(src.dtype(), dst.dtype());
  size_t outer = sizes.size() - 1;
  std::vector<int64_t> counters(outer, 0);
  char *dstPtr = static_cast<char *>(dst.data());
  const char *srcPtr = static_cast<const char *>(src.data());
  while (true) {
    loop(dstPtr, dstStrides.back(), srcPtr, srcStrides.back(), sizes.back());
    size_t d = outer;
    for (; d-- > 0;) {
      if (++counters[d] < sizes[d]) {
        dstPtr += dstStrides[d];
        srcPtr += srcStrides[d];
        break;
      }
      counters[d] = 0;
      dstPtr -= dstStrides[d] * (sizes[d] - 1);
      srcPtr -= srcStrides[d] * (sizes[d] - 1);
    }
    if (d == static_cast<size_t>(-1))
      return;
  }
}

[[noreturn]] void fatalCopy(const char *what, const Status &status) {
  detail::fatalStatus(what, status);
}
} // namespace

Status Tensor::copyFrom(const Tensor &src) {
  if (!defined() || !src.defined())
    return Status::error(
        "copyFrom: " + std::string(defined() ? "source" : "destination") +
        " tensor is undefined");
  if (!device().isCPU() || !src.device().isCPU())
    return Status::error("copyFrom: the runtime copies CPU tensors only; got " +
                         src.device().toString() + " -> " +
                         device().toString());
  Tensor source = src;
  if (source.sizes() != sizes()) {
    StatusOr<Tensor> expanded = source.expand(sizes());
    if (!expanded.ok())
      return Status::error("copyFrom: source " + src.toString() +
                           " does not broadcast to destination " + toString());
    source = std::move(*expanded);
  }
  if (numel() == 0)
    return Status::ok();
  if (mayOverlap(*this, source))
    source = source.clone();
  stridedCopy(*this, source);
  return Status::ok();
}

Tensor Tensor::contiguous() const {
  if (!defined() || isContiguous())
    return *this;
  return clone();
}

Tensor Tensor::clone() const {
  if (!defined())
    return *this;
  Tensor copy = empty(sizeVec, type, device());
  Status status = copy.copyFrom(*this);
  if (!status.isOk())
    fatalCopy("Tensor::clone", status);
  return copy;
}

Tensor Tensor::to(DType dtype) const {
  if (!defined() || (dtype == type && isContiguous()))
    return *this;
  Tensor copy = empty(sizeVec, dtype, device());
  Status status = copy.copyFrom(*this);
  if (!status.isOk())
    fatalCopy("Tensor::to", status);
  return copy;
}

void Tensor::fill(double value) {
  if (!defined())
    return;
  Tensor source = empty({}, DType::Float64);
  *source.dataAs<double>() = value;
  Status status = copyFrom(source);
  if (!status.isOk())
    fatalCopy("Tensor::fill", status);
}

} // namespace tsir::rt
