//===- CudaTestSupport.h - Shared pieces of the CUDA tests ------*- C++ -*-===//
//
// The mgpu* entry points as compiled code declares them (MLIR 22's
// gpu-to-llvm ABI, with opaque pointers for the driver's handles), a
// hand-written PTX kernel that adds one to a float array, and a fixture
// that starts each test with no sticky error pending.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_TEST_UNITTESTS_RUNTIME_CUDATESTSUPPORT_H
#define TSIR_TEST_UNITTESTS_RUNTIME_CUDATESTSUPPORT_H

#include "tsir-runtime/Cuda.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

extern "C" {
void *mgpuModuleLoad(void *data, size_t gpuBlobSize);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra);
void *mgpuStreamCreate();
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate();
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream);
void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
void mgpuMemHostUnregister(void *ptr);
void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes);
void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes);
void mgpuSetDefaultDevice(int32_t device);
}

namespace tsir::rt::test {

/// add_one(float *data, uint64_t n): data[i] += 1 for i < n, one thread
/// per element.
inline constexpr const char *kAddOnePtx = R"(.version 8.0
.target sm_90
.address_size 64

.visible .entry add_one(
    .param .u64 data,
    .param .u64 n
)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<7>;
    .reg .f32 %f<3>;

    ld.param.u64 %rd1, [data];
    ld.param.u64 %rd2, [n];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mul.wide.u32 %rd3, %r1, %r2;
    cvt.u64.u32 %rd4, %r3;
    add.s64 %rd3, %rd3, %rd4;
    setp.ge.u64 %p1, %rd3, %rd2;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd5, %rd1;
    shl.b64 %rd6, %rd3, 2;
    add.s64 %rd5, %rd5, %rd6;
    ld.global.f32 %f1, [%rd5];
    add.f32 %f2, %f1, 0f3F800000;
    st.global.f32 [%rd5], %f2;
DONE:
    ret;
}
)";

/// Clears the process-wide sticky error before and after each test, so one
/// test's failure does not show in the next.
class CudaTest : public ::testing::Test {
protected:
  void SetUp() override { cuda::takeError().ignoreError(); }
  void TearDown() override { cuda::takeError().ignoreError(); }
};

} // namespace tsir::rt::test

#endif // TSIR_TEST_UNITTESTS_RUNTIME_CUDATESTSUPPORT_H
