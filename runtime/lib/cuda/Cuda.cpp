//===- Cuda.cpp - The public CUDA queries ---------------------------------===//
//
// available(), the device queries, synchronize(), the allocator's
// statistics and takeError() (Cuda.h), over the driver layer.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Cuda.h"

#include "CudaDevice.h"
#include "StickyError.h"

#include <string>

namespace tsir::rt::cuda {

Status available() { return deviceState(0).status(); }

StatusOr<int> deviceCount() {
  TSIR_RT_ASSIGN_OR_RETURN(const driver::DriverApi *api, driver::driver());
  return api->deviceCount;
}

StatusOr<std::string> deviceName(int device) {
  TSIR_RT_ASSIGN_OR_RETURN(const driver::DriverApi *api, driver::driver());
  TSIR_RT_ASSIGN_OR_RETURN(DeviceState * state, deviceState(device));
  char name[256] = {};
  TSIR_RT_RETURN_IF_ERROR(driver::check(
      *api, api->cuDeviceGetName(name, sizeof(name) - 1, state->device),
      "cuDeviceGetName"));
  return std::string(name);
}

StatusOr<int> driverVersion() {
  TSIR_RT_ASSIGN_OR_RETURN(const driver::DriverApi *api, driver::driver());
  return api->driverVersion;
}

Status synchronize() {
  TSIR_RT_ASSIGN_OR_RETURN(const driver::DriverApi *api, driver::driver());
  Status first;
  forEachInitializedDevice([&](DeviceState &state) {
    ScopedContext scope(*api, state.context);
    Status status =
        scope.status().isOk()
            ? driver::check(*api, api->cuCtxSynchronize(), "cuCtxSynchronize")
            : scope.status();
    if (first.isOk())
      first = status.withContext(Device::cuda(state.index).toString());
  });
  return first;
}

Status takeError() { return detail::takePendingError(); }

StatusOr<AllocatorStats> allocatorStats(int device) {
  TSIR_RT_ASSIGN_OR_RETURN(DeviceState * state, deviceState(device));
  return state->allocator->stats();
}

Status emptyCache(int device) {
  TSIR_RT_ASSIGN_OR_RETURN(DeviceState * state, deviceState(device));
  return state->allocator->emptyCache();
}

} // namespace tsir::rt::cuda

/// takeError() for C callers: a compiled CUDA model's ABI
/// (runtime/lib/abi/ModelABI.c, which must not depend on C++) asks it after
/// each run. The message, or null when nothing failed; valid until the
/// thread's next call.
extern "C" const char *tsirCudaTakeError(void) {
  thread_local std::string message;
  tsir::rt::Status error = tsir::rt::cuda::takeError();
  if (error.isOk())
    return nullptr;
  message = error.message();
  return message.c_str();
}
