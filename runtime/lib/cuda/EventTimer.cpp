//===- EventTimer.cpp - Timing GPU work with CUDA events ------------------===//
//
// EventTimer (Cuda.h): two events created with timing enabled (the mgpu*
// events are not), recorded around the work and read with
// cuEventElapsedTime.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Cuda.h"

#include "CudaDevice.h"

#include <utility>

namespace tsir::rt::cuda {

using driver::CUevent;
using driver::CUstream;

StatusOr<EventTimer> EventTimer::create(int device) {
  TSIR_RT_ASSIGN_OR_RETURN(const driver::DriverApi *api, driver::driver());
  TSIR_RT_ASSIGN_OR_RETURN(DeviceState * state, deviceState(device));
  ScopedContext scope(*api, state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  CUevent start = nullptr;
  CUevent stop = nullptr;
  TSIR_RT_RETURN_IF_ERROR(
      driver::check(*api, api->cuEventCreate(&start, driver::kEventDefault),
                    "cuEventCreate"));
  Status status = driver::check(
      *api, api->cuEventCreate(&stop, driver::kEventDefault), "cuEventCreate");
  if (!status.isOk()) {
    api->cuEventDestroy(start);
    return status;
  }
  return EventTimer(device, start, stop);
}

EventTimer::EventTimer(EventTimer &&other) noexcept
    : device(other.device),
      startEvent(std::exchange(other.startEvent, nullptr)),
      stopEvent(std::exchange(other.stopEvent, nullptr)),
      started(other.started), stopped(other.stopped) {}

EventTimer &EventTimer::operator=(EventTimer &&other) noexcept {
  if (this != &other) {
    destroy();
    device = other.device;
    startEvent = std::exchange(other.startEvent, nullptr);
    stopEvent = std::exchange(other.stopEvent, nullptr);
    started = other.started;
    stopped = other.stopped;
  }
  return *this;
}

EventTimer::~EventTimer() { destroy(); }

void EventTimer::destroy() {
  if (!startEvent)
    return;
  // Events exist only where the driver opened, so these cannot fail.
  StatusOr<const driver::DriverApi *> api = driver::driver();
  DeviceState *state = initializedDeviceState(device);
  if (api.ok() && state) {
    ScopedContext scope(**api, state->context);
    (*api)->cuEventDestroy(static_cast<CUevent>(startEvent));
    (*api)->cuEventDestroy(static_cast<CUevent>(stopEvent));
  }
  startEvent = stopEvent = nullptr;
}

namespace {
Status record(int device, void *event, void *stream) {
  if (!event)
    return Status::error("EventTimer used after it was moved from");
  TSIR_RT_ASSIGN_OR_RETURN(const driver::DriverApi *api, driver::driver());
  TSIR_RT_ASSIGN_OR_RETURN(DeviceState * state, deviceState(device));
  ScopedContext scope(*api, state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  return driver::check(*api,
                       api->cuEventRecord(static_cast<CUevent>(event),
                                          static_cast<CUstream>(stream)),
                       "cuEventRecord");
}
} // namespace

Status EventTimer::start(void *stream) {
  TSIR_RT_RETURN_IF_ERROR(record(device, startEvent, stream));
  started = true;
  stopped = false;
  return Status::ok();
}

Status EventTimer::stop(void *stream) {
  if (!started)
    return Status::error("EventTimer::stop before start");
  TSIR_RT_RETURN_IF_ERROR(record(device, stopEvent, stream));
  stopped = true;
  return Status::ok();
}

StatusOr<float> EventTimer::elapsedMilliseconds() {
  if (!started || !stopped)
    return Status::error("EventTimer::elapsedMilliseconds needs start() and "
                         "stop() first");
  TSIR_RT_ASSIGN_OR_RETURN(const driver::DriverApi *api, driver::driver());
  TSIR_RT_ASSIGN_OR_RETURN(DeviceState * state, deviceState(device));
  ScopedContext scope(*api, state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  auto stopHandle = static_cast<CUevent>(stopEvent);
  TSIR_RT_RETURN_IF_ERROR(driver::check(
      *api, api->cuEventSynchronize(stopHandle), "cuEventSynchronize"));
  float milliseconds = 0;
  TSIR_RT_RETURN_IF_ERROR(driver::check(
      *api,
      api->cuEventElapsedTime(&milliseconds, static_cast<CUevent>(startEvent),
                              stopHandle),
      "cuEventElapsedTime"));
  return milliseconds;
}

} // namespace tsir::rt::cuda
