//===- CudaDevice.cpp - Per-device driver state ---------------------------===//
//
// See CudaDevice.h. States are made under a mutex and published through
// atomics, so the per-call lookup on the launch path takes no lock.
//
//===----------------------------------------------------------------------===//

#include "CudaDevice.h"

#include <atomic>
#include <mutex>

namespace tsir::rt::cuda {

namespace {

/// cuMemAlloc and cuMemFree in the device's context.
class DriverBackend final : public CachingAllocatorBackend {
public:
  DriverBackend(const driver::DriverApi &api, driver::CUcontext context)
      : api(api), context(context) {}

  StatusOr<void *> allocate(size_t nbytes) override {
    ScopedContext scope(api, context);
    TSIR_RT_RETURN_IF_ERROR(scope.status());
    driver::CUdeviceptr ptr = 0;
    TSIR_RT_RETURN_IF_ERROR(
        driver::check(api, api.cuMemAlloc(&ptr, nbytes), "cuMemAlloc"));
    return reinterpret_cast<void *>(static_cast<uintptr_t>(ptr));
  }

  Status free(void *ptr) override {
    ScopedContext scope(api, context);
    TSIR_RT_RETURN_IF_ERROR(scope.status());
    return driver::check(
        api, api.cuMemFree(reinterpret_cast<driver::CUdeviceptr>(ptr)),
        "cuMemFree");
  }

private:
  const driver::DriverApi &api;
  driver::CUcontext context;
};

std::atomic<DeviceState *> &slot(int index) {
  static std::atomic<DeviceState *> slots[kMaxDevices] = {};
  return slots[index];
}

StatusOr<DeviceState *> makeDeviceState(const driver::DriverApi &api,
                                        int index) {
  auto state = std::make_unique<DeviceState>();
  state->index = index;
  TSIR_RT_RETURN_IF_ERROR(driver::check(
      api, api.cuDeviceGet(&state->device, index), "cuDeviceGet"));
  TSIR_RT_RETURN_IF_ERROR(driver::check(
      api, api.cuDevicePrimaryCtxRetain(&state->context, state->device),
      "cuDevicePrimaryCtxRetain"));
  state->backend = std::make_unique<DriverBackend>(api, state->context);
  state->allocator =
      std::make_unique<CachingAllocator>(Device::cuda(index), *state->backend);
  if (index == 0)
    setAllocator(Device::CUDA, state->allocator.get());
  return state.release();
}

} // namespace

StatusOr<DeviceState *> deviceState(int index) {
  if (index >= 0 && index < kMaxDevices)
    if (DeviceState *state = slot(index).load(std::memory_order_acquire))
      return state;
  TSIR_RT_ASSIGN_OR_RETURN(const driver::DriverApi *api, driver::driver());
  if (index < 0 || index >= api->deviceCount || index >= kMaxDevices)
    return Status::error("no CUDA device " + std::to_string(index) + " (" +
                         std::to_string(api->deviceCount) +
                         " device(s) present)");
  static std::mutex creation;
  std::lock_guard<std::mutex> lock(creation);
  if (DeviceState *state = slot(index).load(std::memory_order_acquire))
    return state;
  TSIR_RT_ASSIGN_OR_RETURN(DeviceState * state, makeDeviceState(*api, index));
  slot(index).store(state, std::memory_order_release);
  return state;
}

DeviceState *initializedDeviceState(int index) {
  if (index < 0 || index >= kMaxDevices)
    return nullptr;
  return slot(index).load(std::memory_order_acquire);
}

ScopedContext::ScopedContext(const driver::DriverApi &api,
                             driver::CUcontext context)
    : api(api), pushStatus(driver::check(api, api.cuCtxPushCurrent(context),
                                         "cuCtxPushCurrent")) {}

ScopedContext::~ScopedContext() {
  if (!pushStatus.isOk())
    return;
  driver::CUcontext popped = nullptr;
  api.cuCtxPopCurrent(&popped);
}

} // namespace tsir::rt::cuda
