//===- CudaDevice.h - Per-device driver state -------------------*- C++ -*-===//
//
// Private to the runtime. Each device the runtime touches gets, on first
// use, its primary context (retained, shared with any other library in the
// process that uses the primary context, as the CUDA runtime does) and its
// caching allocator; device 0's is installed as allocatorFor(Device::CUDA).
// Driver calls run with the device's context pushed on the calling thread
// for their duration (ScopedContext), so the runtime leaves the thread's
// current context as it found it.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_CUDA_CUDADEVICE_H
#define TSIR_RUNTIME_LIB_CUDA_CUDADEVICE_H

#include "CachingAllocator.h"
#include "CudaDriver.h"

#include <memory>

namespace tsir::rt::cuda {

/// The state of one device. Never destroyed (tensors and compiled code's
/// global destructors may use it at exit).
struct DeviceState {
  int index = 0;
  driver::CUdevice device = 0;
  driver::CUcontext context = nullptr;
  std::unique_ptr<CachingAllocatorBackend> backend;
  std::unique_ptr<CachingAllocator> allocator;
};

/// Device `index`'s state, made on the first call. Errors when the driver
/// is unavailable or `index` is not a device.
StatusOr<DeviceState *> deviceState(int index);

/// The number of device slots deviceState can fill.
inline constexpr int kMaxDevices = 64;
/// The state of device `index` when it exists, else nullptr; never
/// initializes anything.
DeviceState *initializedDeviceState(int index);

/// Calls `fn(state)` for each device whose state exists.
template <class Fn> void forEachInitializedDevice(Fn fn) {
  for (int index = 0; index < kMaxDevices; ++index)
    if (DeviceState *state = initializedDeviceState(index))
      fn(*state);
}

/// Pushes `context` as the thread's current context for its lifetime.
class ScopedContext {
public:
  ScopedContext(const driver::DriverApi &api, driver::CUcontext context);
  ~ScopedContext();
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;

  /// Whether the push failed (then nothing is popped).
  const Status &status() const { return pushStatus; }

private:
  const driver::DriverApi &api;
  Status pushStatus;
};

} // namespace tsir::rt::cuda

#endif // TSIR_RUNTIME_LIB_CUDA_CUDADEVICE_H
