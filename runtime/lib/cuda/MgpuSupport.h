//===- MgpuSupport.h - Shared helpers of the mgpu* entry points -*- C++ -*-===//
//
// Private to the runtime. The mgpu* functions are thin extern "C" shells:
// each calls a Status-returning implementation and records its error as
// the sticky error (StickyError.h) under its own name.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_CUDA_MGPUSUPPORT_H
#define TSIR_RUNTIME_LIB_CUDA_MGPUSUPPORT_H

#include "CudaDevice.h"
#include "MgpuHandles.h"
#include "StickyError.h"

/// Exported from libTsirRuntime.so whatever the build's default visibility,
/// since compiled code resolves these by name.
#define TSIR_MGPU_EXPORT extern "C" __attribute__((visibility("default")))

namespace tsir::rt::cuda::detail {

/// The device mgpu* calls on this thread use (mgpuSetDefaultDevice).
int &defaultDevice();

/// The driver and a device's state, for one call.
struct DeviceCall {
  const driver::DriverApi *api = nullptr;
  DeviceState *state = nullptr;
};
StatusOr<DeviceCall> enterDevice(int device);
/// The call for work on `stream`: its device, or the default device for
/// the null stream. An error for a stream mgpuStreamCreate did not make.
StatusOr<DeviceCall> enterStream(driver::CUstream stream);

/// The value of `result`, or `T{}` after recording its error.
template <class T> T valueOrRecord(const char *function, StatusOr<T> result) {
  if (!result.ok()) {
    recordError(function, result.status());
    return T{};
  }
  return std::move(result).value();
}

} // namespace tsir::rt::cuda::detail

#endif // TSIR_RUNTIME_LIB_CUDA_MGPUSUPPORT_H
