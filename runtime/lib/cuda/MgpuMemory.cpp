//===- MgpuMemory.cpp - mgpu* allocation, copies and fills ----------------===//
//
// The memory entry points of MLIR 22's gpu-to-llvm ABI. Device memory
// (gpu.alloc) comes from the default device's caching allocator, tagged
// with the stream it is freed on (see CachingAllocator.h); host-shared
// memory (gpu.alloc host_shared) is managed memory straight from the
// driver. Copies and fills are skipped while a sticky error is pending, as
// launches are. Host pointers cannot be checked: a copy from a garbage
// host address faults in the driver, as memcpy would.
//
//===----------------------------------------------------------------------===//

#include "MgpuSupport.h"

#include <cstdint>

using namespace tsir::rt;
using namespace tsir::rt::cuda;
using namespace tsir::rt::cuda::detail;
using driver::CUdeviceptr;
using driver::CUstream;

namespace {

CUdeviceptr devicePointer(void *ptr) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(ptr));
}

CachingAllocator::StreamId streamId(CUstream stream) {
  return reinterpret_cast<CachingAllocator::StreamId>(stream);
}

StatusOr<void *> allocate(uint64_t sizeBytes, CUstream stream,
                          bool isHostShared) {
  TSIR_RT_ASSIGN_OR_RETURN(DeviceCall call, enterStream(stream));
  if (!isHostShared)
    return call.state->allocator->allocate(sizeBytes, streamId(stream));
  ScopedContext scope(*call.api, call.state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  CUdeviceptr ptr = 0;
  TSIR_RT_RETURN_IF_ERROR(
      driver::check(*call.api,
                    call.api->cuMemAllocManaged(&ptr, sizeBytes ? sizeBytes : 1,
                                                driver::kMemAttachGlobal),
                    "cuMemAllocManaged"));
  void *pointer = reinterpret_cast<void *>(static_cast<uintptr_t>(ptr));
  addHandle(HandleKind::ManagedMemory, pointer, call.state->index);
  return pointer;
}

Status free(void *ptr, CUstream stream) {
  if (!ptr)
    return Status::ok();
  if (handleDevice(HandleKind::ManagedMemory, ptr).ok()) {
    TSIR_RT_ASSIGN_OR_RETURN(int device,
                             removeHandle(HandleKind::ManagedMemory, ptr));
    TSIR_RT_ASSIGN_OR_RETURN(DeviceCall call, enterDevice(device));
    ScopedContext scope(*call.api, call.state->context);
    TSIR_RT_RETURN_IF_ERROR(scope.status());
    return driver::check(*call.api, call.api->cuMemFree(devicePointer(ptr)),
                         "cuMemFree");
  }
  if (stream)
    TSIR_RT_RETURN_IF_ERROR(handleDevice(HandleKind::Stream, stream).status());
  DeviceState *owner = nullptr;
  forEachInitializedDevice([&](DeviceState &state) {
    if (!owner && state.allocator->owns(ptr))
      owner = &state;
  });
  if (!owner)
    return Status::error(
        "pointer was not allocated by mgpuMemAlloc (or was freed already)");
  if (!stream) {
    // Work on the null stream is not ordered with MLIR's non-blocking
    // streams, so only an idle device makes the block safe to reuse.
    TSIR_RT_ASSIGN_OR_RETURN(DeviceCall call, enterDevice(owner->index));
    ScopedContext scope(*call.api, owner->context);
    TSIR_RT_RETURN_IF_ERROR(scope.status());
    TSIR_RT_RETURN_IF_ERROR(driver::check(
        *call.api, call.api->cuCtxSynchronize(), "cuCtxSynchronize"));
  }
  return owner->allocator->deallocate(ptr, streamId(stream));
}

Status copy(void *dst, void *src, size_t sizeBytes, CUstream stream) {
  if (errorPending() || sizeBytes == 0)
    return Status::ok();
  if (!dst || !src)
    return Status::error("null " + std::string(dst ? "source" : "destination") +
                         " of a " + std::to_string(sizeBytes) + "-byte copy");
  TSIR_RT_ASSIGN_OR_RETURN(DeviceCall call, enterStream(stream));
  ScopedContext scope(*call.api, call.state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  // With unified addressing the driver tells host from device pointers.
  return driver::check(*call.api,
                       call.api->cuMemcpyAsync(devicePointer(dst),
                                               devicePointer(src), sizeBytes,
                                               stream),
                       "cuMemcpyAsync");
}

/// Fills `count` elements of 16 or 32 bits.
template <class Fill>
Status fill(void *dst, size_t count, CUstream stream, const char *call,
            Fill fillOp) {
  if (errorPending() || count == 0)
    return Status::ok();
  if (!dst)
    return Status::error("null destination of a " + std::to_string(count) +
                         "-element fill");
  TSIR_RT_ASSIGN_OR_RETURN(DeviceCall entered, enterStream(stream));
  ScopedContext scope(*entered.api, entered.state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  return driver::check(*entered.api, fillOp(*entered.api), call);
}

/// The first element and byte size of a contiguous ranked memref
/// descriptor {allocated, aligned, offset, sizes[rank], strides[rank]}.
StatusOr<std::pair<void *, size_t>>
denseMemRef(int64_t rank, const void *descriptor, int64_t elementSizeBytes) {
  if (!descriptor)
    return Status::error("null memref descriptor");
  if (rank < 0 || rank > 64)
    return Status::error("memref rank " + std::to_string(rank) +
                         " is not in [0, 64]");
  if (elementSizeBytes <= 0)
    return Status::error("element size " + std::to_string(elementSizeBytes) +
                         " is not positive");
  const auto *pointers = static_cast<char *const *>(descriptor);
  const auto *fields = reinterpret_cast<const int64_t *>(pointers + 2);
  int64_t offset = fields[0];
  const int64_t *sizes = fields + 1;
  const int64_t *strides = sizes + rank;
  int64_t expected = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (sizes[d] < 0)
      return Status::error("negative memref size");
    if (sizes[d] != 1 && strides[d] != expected)
      return Status::error("only contiguous memrefs can be registered");
    if (sizes[d] != 0 && expected > INT64_MAX / sizes[d] / elementSizeBytes)
      return Status::error("memref size overflows");
    expected *= sizes[d];
  }
  if (offset < 0)
    return Status::error("negative memref offset");
  char *first = pointers[1] + offset * elementSizeBytes;
  return std::make_pair(static_cast<void *>(first),
                        static_cast<size_t>(expected * elementSizeBytes));
}

Status hostRegister(void *ptr, uint64_t sizeBytes) {
  if (!ptr)
    return Status::error("null host pointer");
  TSIR_RT_ASSIGN_OR_RETURN(DeviceCall call, enterDevice(defaultDevice()));
  ScopedContext scope(*call.api, call.state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  return driver::check(*call.api,
                       call.api->cuMemHostRegister(ptr, sizeBytes, 0),
                       "cuMemHostRegister");
}

Status hostUnregister(void *ptr) {
  if (!ptr)
    return Status::error("null host pointer");
  TSIR_RT_ASSIGN_OR_RETURN(DeviceCall call, enterDevice(defaultDevice()));
  ScopedContext scope(*call.api, call.state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  return driver::check(*call.api, call.api->cuMemHostUnregister(ptr),
                       "cuMemHostUnregister");
}

} // namespace

TSIR_MGPU_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, CUstream stream,
                                    bool isHostShared) {
  return valueOrRecord("mgpuMemAlloc",
                       allocate(sizeBytes, stream, isHostShared));
}

TSIR_MGPU_EXPORT void mgpuMemFree(void *ptr, CUstream stream) {
  recordError("mgpuMemFree", free(ptr, stream));
}

TSIR_MGPU_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                 CUstream stream) {
  recordError("mgpuMemcpy", copy(dst, src, sizeBytes, stream));
}

TSIR_MGPU_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                                   CUstream stream) {
  recordError("mgpuMemset32",
              fill(dst, count, stream, "cuMemsetD32Async",
                   [&](const driver::DriverApi &api) {
                     return api.cuMemsetD32Async(devicePointer(dst), value,
                                                 count, stream);
                   }));
}

TSIR_MGPU_EXPORT void mgpuMemset16(void *dst, unsigned short value,
                                   size_t count, CUstream stream) {
  recordError("mgpuMemset16",
              fill(dst, count, stream, "cuMemsetD16Async",
                   [&](const driver::DriverApi &api) {
                     return api.cuMemsetD16Async(devicePointer(dst), value,
                                                 count, stream);
                   }));
}

TSIR_MGPU_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  recordError("mgpuMemHostRegister", hostRegister(ptr, sizeBytes));
}

TSIR_MGPU_EXPORT void mgpuMemHostUnregister(void *ptr) {
  recordError("mgpuMemHostUnregister", hostUnregister(ptr));
}

TSIR_MGPU_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                                int64_t elementSizeBytes) {
  StatusOr<std::pair<void *, size_t>> memory =
      denseMemRef(rank, descriptor, elementSizeBytes);
  if (memory.ok() && memory->second == 0)
    return;
  recordError("mgpuMemHostRegisterMemRef",
              memory.ok() ? hostRegister(memory->first, memory->second)
                          : memory.status());
}

TSIR_MGPU_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                                  void *descriptor,
                                                  int64_t elementSizeBytes) {
  StatusOr<std::pair<void *, size_t>> memory =
      denseMemRef(rank, descriptor, elementSizeBytes);
  if (memory.ok() && memory->second == 0)
    return;
  recordError("mgpuMemHostUnregisterMemRef",
              memory.ok() ? hostUnregister(memory->first) : memory.status());
}
