//===- CudaDriver.h - The CUDA driver API, opened at run time ---*- C++ -*-===//
//
// Private to the runtime. The driver (libcuda.so.1) is opened with dlopen
// on first use, not linked, so the runtime builds and runs its CPU paths on
// machines with no GPU, driver or CUDA toolkit; every function the runtime
// calls is resolved into DriverApi. A missing library, a missing symbol, a
// failing cuInit or a machine with no device makes the driver unavailable
// with a message saying which.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_CUDA_CUDADRIVER_H
#define TSIR_RUNTIME_LIB_CUDA_CUDADRIVER_H

#include "CudaDriverTypes.h"

#include "tsir-runtime/Status.h"

#include <string>

namespace tsir::rt::cuda::driver {

/// The driver's entry points. The names are the API's; where cuda.h maps a
/// name to a versioned symbol (cuMemAlloc to cuMemAlloc_v2) the versioned
/// one is resolved.
struct DriverApi {
  void *library = nullptr;
  int deviceCount = 0;
  int driverVersion = 0;

  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int *version) = nullptr;
  CUresult (*cuGetErrorName)(CUresult error, const char **name) = nullptr;
  CUresult (*cuGetErrorString)(CUresult error, const char **text) = nullptr;

  CUresult (*cuDeviceGetCount)(int *count) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal) = nullptr;
  CUresult (*cuDeviceGetName)(char *name, int length,
                              CUdevice device) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute,
                                   CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context,
                                       CUdevice device) = nullptr;
  CUresult (*cuCtxPushCurrent)(CUcontext context) = nullptr;
  CUresult (*cuCtxPopCurrent)(CUcontext *context) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;

  CUresult (*cuModuleLoadData)(CUmodule *module, const void *image) = nullptr;
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image,
                                 unsigned numOptions, int *options,
                                 void **optionValues) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule module) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module,
                                  const char *name) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute,
                                 int value) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX,
                             unsigned gridY, unsigned gridZ, unsigned blockX,
                             unsigned blockY, unsigned blockZ,
                             unsigned sharedMemBytes, CUstream stream,
                             void **params, void **extra) = nullptr;
  /// Null on drivers older than CUDA 11.8 (cluster launches then fail).
  CUresult (*cuLaunchKernelEx)(const LaunchConfig *config, CUfunction function,
                               void **params, void **extra) = nullptr;

  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream stream) = nullptr;
  CUresult (*cuStreamDestroy)(CUstream stream) = nullptr;
  CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event,
                                unsigned flags) = nullptr;
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags) = nullptr;
  CUresult (*cuEventRecord)(CUevent event, CUstream stream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent event) = nullptr;
  CUresult (*cuEventElapsedTime)(float *milliseconds, CUevent start,
                                 CUevent end) = nullptr;
  CUresult (*cuEventDestroy)(CUevent event) = nullptr;

  CUresult (*cuMemAlloc)(CUdeviceptr *pointer, size_t bytes) = nullptr;
  CUresult (*cuMemAllocManaged)(CUdeviceptr *pointer, size_t bytes,
                                unsigned flags) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr pointer) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src,
                           size_t bytes) = nullptr;
  CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes) = nullptr;
  CUresult (*cuMemcpyAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                            CUstream stream) = nullptr;
  CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned value, size_t count,
                               CUstream stream) = nullptr;
  CUresult (*cuMemsetD16Async)(CUdeviceptr dst, unsigned short value,
                               size_t count, CUstream stream) = nullptr;
  CUresult (*cuMemHostRegister)(void *pointer, size_t bytes,
                                unsigned flags) = nullptr;
  CUresult (*cuMemHostUnregister)(void *pointer) = nullptr;
};

/// Opens the driver library `libraryName` (a dlopen name or path), resolves
/// its functions, calls cuInit and counts the devices. Not cached: each call
/// opens the library again (dlopen counts references), which lets tests try
/// libraries that fail. A machine with no device is an error.
StatusOr<DriverApi> openDriver(const char *libraryName);

/// The process's driver: openDriver("libcuda.so.1") on the first call,
/// thread-safely, and its result (or its error) from then on.
StatusOr<const DriverApi *> driver();

/// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)", or "CUresult <n>" when the
/// driver cannot name the code.
std::string errorText(const DriverApi &api, CUresult result);

/// Ok for CUDA_SUCCESS, else "<call>: <errorText>".
Status check(const DriverApi &api, CUresult result, const char *call);

} // namespace tsir::rt::cuda::driver

#endif // TSIR_RUNTIME_LIB_CUDA_CUDADRIVER_H
