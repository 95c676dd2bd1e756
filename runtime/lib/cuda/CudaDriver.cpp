//===- CudaDriver.cpp - Opening the CUDA driver with dlopen ---------------===//
//
// See CudaDriver.h. The process's driver is opened once, by the first
// thread to ask (a function-local static), and never closed: compiled
// code's global destructors unload modules through it at exit.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include <dlfcn.h>

namespace tsir::rt::cuda::driver {

namespace {

/// Resolves `name` into `fn`, trying `fallback` (an older symbol with the
/// same signature) when given; records the first missing name in `missing`.
template <class Fn>
void resolve(void *library, Fn &fn, const char *name, std::string &missing,
             const char *fallback = nullptr) {
  void *symbol = dlsym(library, name);
  if (!symbol && fallback)
    symbol = dlsym(library, fallback);
  if (!symbol) {
    if (missing.empty())
      missing = name;
    return;
  }
  fn = reinterpret_cast<Fn>(symbol);
}

/// Resolves every function; returns the first one the library lacks.
std::string resolveAll(DriverApi &api) {
  std::string missing;
  void *lib = api.library;
  resolve(lib, api.cuInit, "cuInit", missing);
  resolve(lib, api.cuDriverGetVersion, "cuDriverGetVersion", missing);
  resolve(lib, api.cuGetErrorName, "cuGetErrorName", missing);
  resolve(lib, api.cuGetErrorString, "cuGetErrorString", missing);
  resolve(lib, api.cuDeviceGetCount, "cuDeviceGetCount", missing);
  resolve(lib, api.cuDeviceGet, "cuDeviceGet", missing);
  resolve(lib, api.cuDeviceGetName, "cuDeviceGetName", missing);
  resolve(lib, api.cuDeviceGetAttribute, "cuDeviceGetAttribute", missing);
  resolve(lib, api.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",
          missing);
  resolve(lib, api.cuCtxPushCurrent, "cuCtxPushCurrent_v2", missing);
  resolve(lib, api.cuCtxPopCurrent, "cuCtxPopCurrent_v2", missing);
  resolve(lib, api.cuCtxSynchronize, "cuCtxSynchronize", missing);
  resolve(lib, api.cuModuleLoadData, "cuModuleLoadData", missing);
  resolve(lib, api.cuModuleLoadDataEx, "cuModuleLoadDataEx", missing);
  resolve(lib, api.cuModuleUnload, "cuModuleUnload", missing);
  resolve(lib, api.cuModuleGetFunction, "cuModuleGetFunction", missing);
  resolve(lib, api.cuFuncSetAttribute, "cuFuncSetAttribute", missing);
  resolve(lib, api.cuLaunchKernel, "cuLaunchKernel", missing);
  resolve(lib, api.cuStreamCreate, "cuStreamCreate", missing);
  resolve(lib, api.cuStreamSynchronize, "cuStreamSynchronize", missing);
  resolve(lib, api.cuStreamDestroy, "cuStreamDestroy_v2", missing);
  resolve(lib, api.cuStreamWaitEvent, "cuStreamWaitEvent", missing);
  resolve(lib, api.cuEventCreate, "cuEventCreate", missing);
  resolve(lib, api.cuEventRecord, "cuEventRecord", missing);
  resolve(lib, api.cuEventSynchronize, "cuEventSynchronize", missing);
  // cuEventElapsedTime_v2 appeared in CUDA 12.8; older drivers have only
  // the unversioned symbol, with the same signature.
  resolve(lib, api.cuEventElapsedTime, "cuEventElapsedTime_v2", missing,
          "cuEventElapsedTime");
  resolve(lib, api.cuEventDestroy, "cuEventDestroy_v2", missing);
  resolve(lib, api.cuMemAlloc, "cuMemAlloc_v2", missing);
  resolve(lib, api.cuMemAllocManaged, "cuMemAllocManaged", missing);
  resolve(lib, api.cuMemFree, "cuMemFree_v2", missing);
  resolve(lib, api.cuMemcpyHtoD, "cuMemcpyHtoD_v2", missing);
  resolve(lib, api.cuMemcpyDtoH, "cuMemcpyDtoH_v2", missing);
  resolve(lib, api.cuMemcpyAsync, "cuMemcpyAsync", missing);
  resolve(lib, api.cuMemsetD32Async, "cuMemsetD32Async", missing);
  resolve(lib, api.cuMemsetD16Async, "cuMemsetD16Async", missing);
  resolve(lib, api.cuMemHostRegister, "cuMemHostRegister_v2", missing);
  resolve(lib, api.cuMemHostUnregister, "cuMemHostUnregister", missing);
  // Optional: only cluster launches need it.
  api.cuLaunchKernelEx = reinterpret_cast<decltype(api.cuLaunchKernelEx)>(
      dlsym(lib, "cuLaunchKernelEx"));
  return missing;
}

Status unavailable(const std::string &why) {
  return Status::error("CUDA is not available: " + why);
}

} // namespace

StatusOr<DriverApi> openDriver(const char *libraryName) {
  DriverApi api;
  api.library = dlopen(libraryName, RTLD_NOW | RTLD_LOCAL);
  if (!api.library) {
    const char *why = dlerror();
    return unavailable(why ? why : std::string("cannot open ") + libraryName);
  }
  auto fail = [&](const std::string &why) -> StatusOr<DriverApi> {
    dlclose(api.library);
    return unavailable(why);
  };
  std::string missing = resolveAll(api);
  if (!missing.empty())
    return fail(std::string(libraryName) + " has no " + missing +
                " (a driver older than CUDA 12?)");
  if (Status status = check(api, api.cuInit(0), "cuInit"); !status.isOk())
    return fail(status.message());
  if (Status status = check(api, api.cuDriverGetVersion(&api.driverVersion),
                            "cuDriverGetVersion");
      !status.isOk())
    return fail(status.message());
  if (Status status = check(api, api.cuDeviceGetCount(&api.deviceCount),
                            "cuDeviceGetCount");
      !status.isOk())
    return fail(status.message());
  if (api.deviceCount <= 0)
    return fail("no CUDA device (the driver found none)");
  return api;
}

StatusOr<const DriverApi *> driver() {
  // Never destroyed: global destructors of compiled code (mgpuModuleUnload)
  // may run after this function's statics would have been.
  static const StatusOr<DriverApi> *opened =
      new StatusOr<DriverApi>(openDriver("libcuda.so.1"));
  if (!opened->ok())
    return opened->status();
  return &opened->value();
}

std::string errorText(const DriverApi &api, CUresult result) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (api.cuGetErrorName && api.cuGetErrorName(result, &name) != kCudaSuccess)
    name = nullptr;
  if (api.cuGetErrorString &&
      api.cuGetErrorString(result, &text) != kCudaSuccess)
    text = nullptr;
  std::string out = name ? name : "CUresult " + std::to_string(result);
  if (text)
    out += std::string(" (") + text + ")";
  return out;
}

Status check(const DriverApi &api, CUresult result, const char *call) {
  if (result == kCudaSuccess)
    return Status::ok();
  return Status::error(std::string(call) + ": " + errorText(api, result));
}

} // namespace tsir::rt::cuda::driver
