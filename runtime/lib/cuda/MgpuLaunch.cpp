//===- MgpuLaunch.cpp - mgpu* modules and kernel launches -----------------===//
//
// Loading GPU binaries and launching their kernels, with the signatures
// MLIR 22 emits: #gpu.select_object's translation loads each gpu.binary
// once, in a global constructor (mgpuModuleLoad(blob, size) for cubin and
// fatbin, mgpuModuleLoadJIT(ptx, optLevel) for PTX) and unloads it in a
// global destructor, and each gpu.launch_func looks its kernel up with
// mgpuModuleGetFunction and calls mgpuLaunchKernel (or, with clusters,
// mgpuLaunchClusterKernel). Loads are therefore not cached here.
//
// Launches are skipped while a sticky error is pending: a kernel run after
// a failed copy or allocation may fault, and a fault poisons the context
// for the rest of the process.
//
//===----------------------------------------------------------------------===//

#include "MgpuSupport.h"

#include <climits>

using namespace tsir::rt;
using namespace tsir::rt::cuda;
using namespace tsir::rt::cuda::detail;
using driver::CUfunction;
using driver::CUmodule;
using driver::CUstream;

namespace {

/// Loads `image` on the default device. `optLevel` is the PTX JIT's
/// optimization level, or -1 to leave the driver's default.
StatusOr<CUmodule> loadModule(const void *image, int optLevel) {
  if (!image)
    return Status::error("null GPU binary");
  if (optLevel < -1 || optLevel > 4)
    return Status::error("PTX optimization level " + std::to_string(optLevel) +
                         " is not in [0, 4]");
  TSIR_RT_ASSIGN_OR_RETURN(DeviceCall call, enterDevice(defaultDevice()));
  ScopedContext scope(*call.api, call.state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  // The JIT's error log says why PTX (alone or inside a fatbin) failed.
  char errorLog[4096] = {};
  int options[3] = {driver::kJitErrorLogBuffer,
                    driver::kJitErrorLogBufferSizeBytes,
                    driver::kJitOptimizationLevel};
  void *values[3] = {errorLog, reinterpret_cast<void *>(sizeof(errorLog)),
                     reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  unsigned numOptions = optLevel < 0 ? 2 : 3;
  CUmodule module = nullptr;
  Status status = driver::check(
      *call.api,
      call.api->cuModuleLoadDataEx(&module, image, numOptions, options, values),
      "cuModuleLoadDataEx");
  if (!status.isOk())
    return errorLog[0] ? Status::error(status.message() + ": " + errorLog)
                       : status;
  addHandle(HandleKind::Module, module, call.state->index);
  return module;
}

Status unloadModule(CUmodule module) {
  if (!module)
    return Status::ok();
  TSIR_RT_ASSIGN_OR_RETURN(int device,
                           removeHandle(HandleKind::Module, module));
  TSIR_RT_ASSIGN_OR_RETURN(DeviceCall call, enterDevice(device));
  ScopedContext scope(*call.api, call.state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  return driver::check(*call.api, call.api->cuModuleUnload(module),
                       "cuModuleUnload");
}

StatusOr<CUfunction> getFunction(CUmodule module, const char *name) {
  TSIR_RT_ASSIGN_OR_RETURN(int device,
                           handleDevice(HandleKind::Module, module));
  if (!name)
    return Status::error("null kernel name");
  TSIR_RT_ASSIGN_OR_RETURN(DeviceCall call, enterDevice(device));
  ScopedContext scope(*call.api, call.state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  CUfunction function = nullptr;
  TSIR_RT_RETURN_IF_ERROR(driver::check(
      *call.api, call.api->cuModuleGetFunction(&function, module, name),
      (std::string("cuModuleGetFunction(\"") + name + "\")").c_str()));
  addHandle(HandleKind::Function, function, device, module);
  return function;
}

/// A launch's x, y, z sizes of one kind (grid, block or cluster).
struct Dims {
  intptr_t x, y, z;
};

Status checkDims(const char *what, Dims dims) {
  for (intptr_t d : {dims.x, dims.y, dims.z})
    if (d < 1 || static_cast<uintmax_t>(d) > UINT_MAX)
      return Status::error(
          std::string("invalid ") + what + " size (" + std::to_string(dims.x) +
          ", " + std::to_string(dims.y) + ", " + std::to_string(dims.z) + ")");
  return Status::ok();
}

/// Allows `smem` bytes of dynamic shared memory where it exceeds the 48 KiB
/// every kernel may use without opting in.
Status allowSharedMemory(const DeviceCall &call, CUfunction function,
                         int32_t smem) {
  constexpr int32_t kDefaultLimit = 48 * 1024;
  if (smem <= kDefaultLimit)
    return Status::ok();
  const driver::DriverApi &api = *call.api;
  int limit = 0;
  TSIR_RT_RETURN_IF_ERROR(driver::check(
      api,
      api.cuDeviceGetAttribute(
          &limit, driver::kDeviceAttributeMaxSharedMemoryPerBlockOptin,
          call.state->device),
      "cuDeviceGetAttribute"));
  if (smem > limit)
    return Status::error(std::to_string(smem) +
                         " bytes of dynamic shared memory exceed the device's "
                         "limit of " +
                         std::to_string(limit));
  return driver::check(
      api,
      api.cuFuncSetAttribute(
          function, driver::kFuncAttributeMaxDynamicSharedSizeBytes, smem),
      "cuFuncSetAttribute");
}

/// Launches `function`; `cluster` is null for an ordinary launch.
Status launch(CUfunction function, const Dims *cluster, Dims grid, Dims block,
              int32_t smem, CUstream stream, void **params, void **extra,
              size_t paramsCount) {
  if (errorPending())
    return Status::ok();
  TSIR_RT_ASSIGN_OR_RETURN(int device,
                           handleDevice(HandleKind::Function, function));
  if (stream)
    TSIR_RT_RETURN_IF_ERROR(handleDevice(HandleKind::Stream, stream).status());
  if (cluster)
    TSIR_RT_RETURN_IF_ERROR(checkDims("cluster", *cluster));
  TSIR_RT_RETURN_IF_ERROR(checkDims("grid", grid));
  TSIR_RT_RETURN_IF_ERROR(checkDims("block", block));
  if (smem < 0)
    return Status::error("negative dynamic shared memory size " +
                         std::to_string(smem));
  if (!params && !extra && paramsCount > 0)
    return Status::error(std::to_string(paramsCount) +
                         " kernel parameters but a null parameter array");
  TSIR_RT_ASSIGN_OR_RETURN(DeviceCall call, enterDevice(device));
  const driver::DriverApi &api = *call.api;
  ScopedContext scope(api, call.state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  TSIR_RT_RETURN_IF_ERROR(allowSharedMemory(call, function, smem));
  if (!cluster)
    return driver::check(api,
                         api.cuLaunchKernel(function, grid.x, grid.y, grid.z,
                                            block.x, block.y, block.z, smem,
                                            stream, params, extra),
                         "cuLaunchKernel");

  if (!api.cuLaunchKernelEx)
    return Status::error("cluster launches need cuLaunchKernelEx, which this "
                         "driver lacks (CUDA 11.8 or newer)");
  // More than 8 blocks per cluster is allowed on sm_90 only when asked.
  if (cluster->x > 8 || cluster->y > 8 || cluster->z > 8 ||
      cluster->x * cluster->y * cluster->z > 8)
    TSIR_RT_RETURN_IF_ERROR(driver::check(
        api,
        api.cuFuncSetAttribute(
            function, driver::kFuncAttributeNonPortableClusterSizeAllowed, 1),
        "cuFuncSetAttribute"));
  driver::LaunchAttribute attributes[2] = {};
  attributes[0].id = driver::kLaunchAttributeClusterDimension;
  attributes[0].value.clusterDim.x = static_cast<unsigned>(cluster->x);
  attributes[0].value.clusterDim.y = static_cast<unsigned>(cluster->y);
  attributes[0].value.clusterDim.z = static_cast<unsigned>(cluster->z);
  attributes[1].id = driver::kLaunchAttributeClusterSchedulingPolicyPreference;
  attributes[1].value.clusterSchedulingPolicyPreference =
      driver::kClusterSchedulingPolicySpread;
  driver::LaunchConfig config = {};
  config.gridDimX = static_cast<unsigned>(grid.x);
  config.gridDimY = static_cast<unsigned>(grid.y);
  config.gridDimZ = static_cast<unsigned>(grid.z);
  config.blockDimX = static_cast<unsigned>(block.x);
  config.blockDimY = static_cast<unsigned>(block.y);
  config.blockDimZ = static_cast<unsigned>(block.z);
  config.sharedMemBytes = static_cast<unsigned>(smem);
  config.hStream = stream;
  config.attrs = attributes;
  config.numAttrs = 2;
  return driver::check(api,
                       api.cuLaunchKernelEx(&config, function, params, extra),
                       "cuLaunchKernelEx");
}

} // namespace

TSIR_MGPU_EXPORT CUmodule mgpuModuleLoad(void *data, size_t gpuBlobSize) {
  if (data && gpuBlobSize == 0)
    return valueOrRecord("mgpuModuleLoad",
                         StatusOr<CUmodule>(Status::error("empty GPU binary")));
  return valueOrRecord("mgpuModuleLoad", loadModule(data, /*optLevel=*/-1));
}

TSIR_MGPU_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  return valueOrRecord("mgpuModuleLoadJIT", loadModule(data, optLevel));
}

TSIR_MGPU_EXPORT void mgpuModuleUnload(CUmodule module) {
  recordError("mgpuModuleUnload", unloadModule(module));
}

TSIR_MGPU_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module,
                                                  const char *name) {
  return valueOrRecord("mgpuModuleGetFunction", getFunction(module, name));
}

TSIR_MGPU_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                       intptr_t gridY, intptr_t gridZ,
                                       intptr_t blockX, intptr_t blockY,
                                       intptr_t blockZ, int32_t smem,
                                       CUstream stream, void **params,
                                       void **extra, size_t paramsCount) {
  recordError("mgpuLaunchKernel",
              launch(function, nullptr, {gridX, gridY, gridZ},
                     {blockX, blockY, blockZ}, smem, stream, params, extra,
                     paramsCount));
}

TSIR_MGPU_EXPORT void
mgpuLaunchClusterKernel(CUfunction function, intptr_t clusterX,
                        intptr_t clusterY, intptr_t clusterZ, intptr_t gridX,
                        intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                        intptr_t blockY, intptr_t blockZ, int32_t smem,
                        CUstream stream, void **params, void **extra) {
  Dims cluster{clusterX, clusterY, clusterZ};
  recordError("mgpuLaunchClusterKernel",
              launch(function, &cluster, {gridX, gridY, gridZ},
                     {blockX, blockY, blockZ}, smem, stream, params, extra,
                     /*paramsCount=*/0));
}
