//===- MgpuWrappers.cpp - mgpu* streams, events and devices ---------------===//
//
// The stream, event and device entry points of the ABI that MLIR 22's
// gpu-to-llvm conversion emits calls to (mlir/lib/ExecutionEngine/
// CudaRuntimeWrappers.cpp is MLIR's own version, which tsir does not ship).
// Modules and launches are in MgpuLaunch.cpp, memory in MgpuMemory.cpp.
// Streams are created non-blocking and events without timing, as MLIR's
// wrappers make them. Null handles to release are ignored; any other
// handle the runtime did not make is an error, never passed to the driver.
//
//===----------------------------------------------------------------------===//

#include "MgpuSupport.h"

using namespace tsir::rt;
using namespace tsir::rt::cuda;
using namespace tsir::rt::cuda::detail;
using driver::CUevent;
using driver::CUstream;

int &cuda::detail::defaultDevice() {
  thread_local int device = 0;
  return device;
}

StatusOr<DeviceCall> cuda::detail::enterDevice(int device) {
  TSIR_RT_ASSIGN_OR_RETURN(const driver::DriverApi *api, driver::driver());
  TSIR_RT_ASSIGN_OR_RETURN(DeviceState * state, deviceState(device));
  return DeviceCall{api, state};
}

StatusOr<DeviceCall> cuda::detail::enterStream(CUstream stream) {
  if (!stream)
    return enterDevice(defaultDevice());
  TSIR_RT_ASSIGN_OR_RETURN(int device,
                           handleDevice(HandleKind::Stream, stream));
  return enterDevice(device);
}

namespace {

StatusOr<CUstream> createStream() {
  TSIR_RT_ASSIGN_OR_RETURN(DeviceCall call, enterDevice(defaultDevice()));
  ScopedContext scope(*call.api, call.state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  CUstream stream = nullptr;
  TSIR_RT_RETURN_IF_ERROR(driver::check(
      *call.api, call.api->cuStreamCreate(&stream, driver::kStreamNonBlocking),
      "cuStreamCreate"));
  addHandle(HandleKind::Stream, stream, call.state->index);
  return stream;
}

Status synchronizeStream(CUstream stream) {
  TSIR_RT_ASSIGN_OR_RETURN(DeviceCall call, enterStream(stream));
  ScopedContext scope(*call.api, call.state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  TSIR_RT_RETURN_IF_ERROR(driver::check(
      *call.api, call.api->cuStreamSynchronize(stream), "cuStreamSynchronize"));
  // What the stream freed is no longer read by anything.
  call.state->allocator->streamCompleted(
      reinterpret_cast<CachingAllocator::StreamId>(stream));
  return Status::ok();
}

Status destroyStream(CUstream stream) {
  if (!stream)
    return Status::ok();
  TSIR_RT_ASSIGN_OR_RETURN(int device,
                           handleDevice(HandleKind::Stream, stream));
  TSIR_RT_ASSIGN_OR_RETURN(DeviceCall call, enterDevice(device));
  auto id = reinterpret_cast<CachingAllocator::StreamId>(stream);
  // A later stream may get this one's address; blocks still tagged with it
  // would then be reused out of order. Wait for them first (MLIR
  // synchronizes before destroying, so this rarely waits).
  if (call.state->allocator->hasBlocksPendingOn(id))
    TSIR_RT_RETURN_IF_ERROR(synchronizeStream(stream));
  TSIR_RT_RETURN_IF_ERROR(removeHandle(HandleKind::Stream, stream).status());
  ScopedContext scope(*call.api, call.state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  return driver::check(*call.api, call.api->cuStreamDestroy(stream),
                       "cuStreamDestroy");
}

Status waitEvent(CUstream stream, CUevent event) {
  TSIR_RT_ASSIGN_OR_RETURN(DeviceCall call, enterStream(stream));
  TSIR_RT_RETURN_IF_ERROR(handleDevice(HandleKind::Event, event).status());
  ScopedContext scope(*call.api, call.state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  return driver::check(*call.api, call.api->cuStreamWaitEvent(stream, event, 0),
                       "cuStreamWaitEvent");
}

StatusOr<CUevent> createEvent() {
  TSIR_RT_ASSIGN_OR_RETURN(DeviceCall call, enterDevice(defaultDevice()));
  ScopedContext scope(*call.api, call.state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  CUevent event = nullptr;
  TSIR_RT_RETURN_IF_ERROR(driver::check(
      *call.api, call.api->cuEventCreate(&event, driver::kEventDisableTiming),
      "cuEventCreate"));
  addHandle(HandleKind::Event, event, call.state->index);
  return event;
}

/// `op(api, event)` in the event's context; `release` forgets it first.
template <class Op>
Status onEvent(CUevent event, bool release, const char *call, Op op) {
  if (release && !event)
    return Status::ok();
  StatusOr<int> device = release ? removeHandle(HandleKind::Event, event)
                                 : handleDevice(HandleKind::Event, event);
  TSIR_RT_RETURN_IF_ERROR(device.status());
  TSIR_RT_ASSIGN_OR_RETURN(DeviceCall entered, enterDevice(*device));
  ScopedContext scope(*entered.api, entered.state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  return driver::check(*entered.api, op(*entered.api), call);
}

Status recordEvent(CUevent event, CUstream stream) {
  if (stream)
    TSIR_RT_RETURN_IF_ERROR(handleDevice(HandleKind::Stream, stream).status());
  return onEvent(event, /*release=*/false, "cuEventRecord",
                 [&](const driver::DriverApi &api) {
                   return api.cuEventRecord(event, stream);
                 });
}

Status setDefaultDevice(int32_t device) {
  if (device < 0)
    return Status::error("invalid device " + std::to_string(device));
  // Out of range is known only where a driver is; without one the next
  // call that needs the device reports that.
  StatusOr<const driver::DriverApi *> api = driver::driver();
  if (api.ok() && device >= (*api)->deviceCount)
    return Status::error("no CUDA device " + std::to_string(device) + " (" +
                         std::to_string((*api)->deviceCount) +
                         " device(s) present)");
  defaultDevice() = device;
  return Status::ok();
}

} // namespace

TSIR_MGPU_EXPORT CUstream mgpuStreamCreate() {
  return valueOrRecord("mgpuStreamCreate", createStream());
}

TSIR_MGPU_EXPORT void mgpuStreamDestroy(CUstream stream) {
  recordError("mgpuStreamDestroy", destroyStream(stream));
}

TSIR_MGPU_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  recordError("mgpuStreamSynchronize", synchronizeStream(stream));
}

TSIR_MGPU_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  recordError("mgpuStreamWaitEvent", waitEvent(stream, event));
}

TSIR_MGPU_EXPORT CUevent mgpuEventCreate() {
  return valueOrRecord("mgpuEventCreate", createEvent());
}

TSIR_MGPU_EXPORT void mgpuEventDestroy(CUevent event) {
  recordError("mgpuEventDestroy",
              onEvent(event, /*release=*/true, "cuEventDestroy",
                      [&](const driver::DriverApi &api) {
                        return api.cuEventDestroy(event);
                      }));
}

TSIR_MGPU_EXPORT void mgpuEventSynchronize(CUevent event) {
  recordError("mgpuEventSynchronize",
              onEvent(event, /*release=*/false, "cuEventSynchronize",
                      [&](const driver::DriverApi &api) {
                        return api.cuEventSynchronize(event);
                      }));
}

TSIR_MGPU_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  recordError("mgpuEventRecord", recordEvent(event, stream));
}

TSIR_MGPU_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  recordError("mgpuSetDefaultDevice", setDefaultDevice(device));
}
