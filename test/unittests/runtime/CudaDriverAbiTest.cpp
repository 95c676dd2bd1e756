//===- CudaDriverAbiTest.cpp - Declared driver types against cuda.h -------===//
//
// The runtime declares the driver's types and constants itself
// (CudaDriverTypes.h) so that it needs no CUDA headers. Built only where
// the toolkit's cuda.h is found, this checks each declaration against it:
// a wrong value or layout would make the driver misread a launch.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaDriverTypes.h"

#include <cuda.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace {

namespace ours = tsir::rt::cuda::driver;

static_assert(sizeof(ours::CUresult) == sizeof(CUresult));
static_assert(sizeof(ours::CUdevice) == sizeof(CUdevice));
static_assert(std::is_same_v<ours::CUdeviceptr, CUdeviceptr>);
static_assert(ours::kCudaSuccess == CUDA_SUCCESS);
static_assert(ours::kCudaErrorNotReady == CUDA_ERROR_NOT_READY);
static_assert(ours::kStreamNonBlocking == CU_STREAM_NON_BLOCKING);
static_assert(ours::kEventDefault == CU_EVENT_DEFAULT);
static_assert(ours::kEventDisableTiming == CU_EVENT_DISABLE_TIMING);
static_assert(ours::kMemAttachGlobal == CU_MEM_ATTACH_GLOBAL);
static_assert(ours::kJitInfoLogBuffer == CU_JIT_INFO_LOG_BUFFER);
static_assert(ours::kJitErrorLogBuffer == CU_JIT_ERROR_LOG_BUFFER);
static_assert(ours::kJitErrorLogBufferSizeBytes ==
              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
static_assert(ours::kJitOptimizationLevel == CU_JIT_OPTIMIZATION_LEVEL);
static_assert(ours::kFuncAttributeMaxDynamicSharedSizeBytes ==
              CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
static_assert(ours::kFuncAttributeNonPortableClusterSizeAllowed ==
              CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED);
static_assert(ours::kDeviceAttributeMaxSharedMemoryPerBlockOptin ==
              CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
static_assert(ours::kLaunchAttributeClusterDimension ==
              CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION);
static_assert(ours::kLaunchAttributeClusterSchedulingPolicyPreference ==
              CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE);
static_assert(ours::kClusterSchedulingPolicySpread ==
              CU_CLUSTER_SCHEDULING_POLICY_SPREAD);

#define SAME_LAYOUT(Ours, Theirs, field)                                       \
  static_assert(offsetof(Ours, field) == offsetof(Theirs, field),              \
                #field " is misplaced")
static_assert(sizeof(ours::LaunchAttributeValue) ==
              sizeof(CUlaunchAttributeValue));
static_assert(alignof(ours::LaunchAttributeValue) ==
              alignof(CUlaunchAttributeValue));
static_assert(sizeof(ours::LaunchAttribute) == sizeof(CUlaunchAttribute));
SAME_LAYOUT(ours::LaunchAttribute, CUlaunchAttribute, id);
SAME_LAYOUT(ours::LaunchAttribute, CUlaunchAttribute, value);
static_assert(sizeof(ours::LaunchConfig) == sizeof(CUlaunchConfig));
SAME_LAYOUT(ours::LaunchConfig, CUlaunchConfig, gridDimX);
SAME_LAYOUT(ours::LaunchConfig, CUlaunchConfig, blockDimZ);
SAME_LAYOUT(ours::LaunchConfig, CUlaunchConfig, sharedMemBytes);
SAME_LAYOUT(ours::LaunchConfig, CUlaunchConfig, hStream);
SAME_LAYOUT(ours::LaunchConfig, CUlaunchConfig, attrs);
SAME_LAYOUT(ours::LaunchConfig, CUlaunchConfig, numAttrs);

TEST(CudaDriverAbi, ClusterDimensionsLieWhereTheDriverReadsThem) {
  ours::LaunchAttribute attribute = {};
  attribute.value.clusterDim.x = 2;
  attribute.value.clusterDim.y = 3;
  attribute.value.clusterDim.z = 4;
  attribute.id = ours::kLaunchAttributeClusterDimension;
  CUlaunchAttribute theirs;
  static_assert(sizeof(theirs) == sizeof(attribute));
  std::memcpy(&theirs, &attribute, sizeof(theirs));
  EXPECT_EQ(theirs.id, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION);
  EXPECT_EQ(theirs.value.clusterDim.x, 2u);
  EXPECT_EQ(theirs.value.clusterDim.y, 3u);
  EXPECT_EQ(theirs.value.clusterDim.z, 4u);
}

} // namespace
