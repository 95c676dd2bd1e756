//===- CudaDriverTypes.h - The driver API's types, declared ----*- C++ -*-===//
//
// The few types, constants and structs of cuda.h that the runtime uses,
// declared here so that the runtime builds on machines with no CUDA headers
// and opens the driver with dlopen at run time. Each value is cuda.h's
// (CUDA 13); CudaDriverAbiTest checks them against cuda.h wherever the
// toolkit is installed.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_CUDA_CUDADRIVERTYPES_H
#define TSIR_RUNTIME_LIB_CUDA_CUDADRIVERTYPES_H

#include <cstddef>

namespace tsir::rt::cuda::driver {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;

// Opaque handles: pointers to incomplete structs, as in cuda.h.
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;
using CUevent = CUevent_st *;

// CUresult values the runtime tells apart.
inline constexpr CUresult kCudaSuccess = 0;
inline constexpr CUresult kCudaErrorNotReady = 600;

// Flags and enumerators (cuda.h's names in the comments).
inline constexpr unsigned kStreamNonBlocking = 0x1;  // CU_STREAM_NON_BLOCKING
inline constexpr unsigned kEventDefault = 0x0;       // CU_EVENT_DEFAULT
inline constexpr unsigned kEventDisableTiming = 0x2; // CU_EVENT_DISABLE_TIMING
inline constexpr unsigned kMemAttachGlobal = 0x1;    // CU_MEM_ATTACH_GLOBAL
inline constexpr int kJitInfoLogBuffer = 3;          // CU_JIT_INFO_LOG_BUFFER
inline constexpr int kJitErrorLogBuffer = 5;         // CU_JIT_ERROR_LOG_BUFFER
inline constexpr int kJitErrorLogBufferSizeBytes = 6;
inline constexpr int kJitOptimizationLevel = 7; // CU_JIT_OPTIMIZATION_LEVEL
// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
inline constexpr int kFuncAttributeMaxDynamicSharedSizeBytes = 8;
// CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED
inline constexpr int kFuncAttributeNonPortableClusterSizeAllowed = 14;
// CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
inline constexpr int kDeviceAttributeMaxSharedMemoryPerBlockOptin = 97;
// CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION and _SCHEDULING_POLICY_PREFERENCE
inline constexpr int kLaunchAttributeClusterDimension = 4;
inline constexpr int kLaunchAttributeClusterSchedulingPolicyPreference = 5;
inline constexpr int kClusterSchedulingPolicySpread = 1;

/// CUlaunchAttributeValue: a 64-byte union whose widest member holds a
/// pointer, so it is pointer-aligned.
union LaunchAttributeValue {
  char pad[64];
  struct {
    unsigned x;
    unsigned y;
    unsigned z;
  } clusterDim;
  int clusterSchedulingPolicyPreference;
  void *pointerAlignment;
};

/// CUlaunchAttribute.
struct LaunchAttribute {
  int id;
  char pad[8 - sizeof(int)];
  LaunchAttributeValue value;
};

/// CUlaunchConfig, cuLaunchKernelEx's first argument.
struct LaunchConfig {
  unsigned gridDimX;
  unsigned gridDimY;
  unsigned gridDimZ;
  unsigned blockDimX;
  unsigned blockDimY;
  unsigned blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};

} // namespace tsir::rt::cuda::driver

#endif // TSIR_RUNTIME_LIB_CUDA_CUDADRIVERTYPES_H
