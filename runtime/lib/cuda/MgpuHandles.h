//===- MgpuHandles.h - The handles the mgpu* calls gave out -----*- C++ -*-===//
//
// Private to the runtime. The driver does not check its handles: a module,
// function, stream or event pointer it never made crashes it. So the mgpu*
// entry points remember every handle they made, and the device it belongs
// to, and reject anything else with an error instead of passing it on.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_CUDA_MGPUHANDLES_H
#define TSIR_RUNTIME_LIB_CUDA_MGPUHANDLES_H

#include "tsir-runtime/Status.h"

namespace tsir::rt::cuda::detail {

enum class HandleKind { Module, Function, Stream, Event, ManagedMemory };

/// Remembers `handle` of `kind`, made on `device`. A function's `owner` is
/// its module.
void addHandle(HandleKind kind, const void *handle, int device,
               const void *owner = nullptr);

/// The device of `handle`; an error saying it is not a live handle of
/// `kind`.
StatusOr<int> handleDevice(HandleKind kind, const void *handle);

/// Forgets `handle` (a module's functions with it); its device, or the
/// error handleDevice gives.
StatusOr<int> removeHandle(HandleKind kind, const void *handle);

} // namespace tsir::rt::cuda::detail

#endif // TSIR_RUNTIME_LIB_CUDA_MGPUHANDLES_H
