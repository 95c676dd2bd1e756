//===- CudaTest.cpp - The CUDA runtime without a GPU ----------------------===//
//
// What must hold on every machine: opening a driver that is missing or a
// stub is a clear error; without a driver every query, copy and mgpu* call
// reports "CUDA is not available"; and mgpu* calls with null or garbage
// arguments never reach the driver, leaving one sticky error that
// takeError() returns once. The tests that need no driver absent run
// everywhere; the others skip where a GPU is present (CudaGpuTest covers
// that case).
//
//===----------------------------------------------------------------------===//

#include "CudaTestSupport.h"

#include "cuda/CudaDriver.h"

#include "tsir-runtime/Allocator.h"

#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

using namespace tsir::rt;
using tsir::rt::test::CudaTest;

namespace {

bool startsWith(const std::string &text, const std::string &prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

#define SKIP_IF_GPU()                                                          \
  do {                                                                         \
    if (cuda::available().isOk())                                              \
      GTEST_SKIP() << "a GPU is present; CudaGpuTest covers this machine";     \
  } while (false)

TEST(CudaDriver, MissingLibraryIsAnError) {
  StatusOr<cuda::driver::DriverApi> api =
      cuda::driver::openDriver("/nonexistent/libcuda.so.1");
  ASSERT_FALSE(api.ok());
  EXPECT_TRUE(startsWith(api.status().message(),
                         "CUDA is not available: /nonexistent/libcuda.so.1"))
      << api.status().message();
}

TEST(CudaDriver, StubLibraryFailsInCuInit) {
  const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (!std::ifstream(stub))
    GTEST_SKIP() << "no CUDA toolkit stub at " << stub;
  // The toolkit's link-time stub exports every symbol, and cuInit says it
  // is a stub (CUDA_ERROR_STUB_LIBRARY).
  StatusOr<cuda::driver::DriverApi> api = cuda::driver::openDriver(stub);
  ASSERT_FALSE(api.ok());
  EXPECT_TRUE(
      startsWith(api.status().message(), "CUDA is not available: cuInit: "))
      << api.status().message();
}

TEST_F(CudaTest, WithoutADriverEverythingSaysWhy) {
  SKIP_IF_GPU();
  Status why = cuda::available();
  ASSERT_FALSE(why.isOk());
  EXPECT_TRUE(startsWith(why.message(), "CUDA is not available: "))
      << why.message();
  EXPECT_EQ(cuda::deviceCount().status().message(), why.message());
  EXPECT_EQ(cuda::deviceName().status().message(), why.message());
  EXPECT_EQ(cuda::driverVersion().status().message(), why.message());
  EXPECT_EQ(cuda::synchronize().message(), why.message());
  EXPECT_EQ(cuda::allocatorStats().status().message(), why.message());
  EXPECT_EQ(cuda::emptyCache().message(), why.message());
  EXPECT_EQ(cuda::EventTimer::create().status().message(), why.message());
  EXPECT_EQ(allocatorFor(Device::CUDA), nullptr);
  // A CUDA tensor says why there is none (the allocator is installed by
  // opening the driver, which Tensor does itself).
  EXPECT_EQ(Tensor::tryEmpty({2}, DType::Float32, Device::cuda())
                .status()
                .message(),
            why.message());

  Tensor host = Tensor::zeros({2, 3}, DType::Float32);
  StatusOr<Tensor> device = cuda::toDevice(host);
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.status().message(), why.message());
}

TEST_F(CudaTest, CopiesCheckTheirArguments) {
  EXPECT_EQ(cuda::toDevice(Tensor()).status().message(),
            "toDevice of an undefined tensor");
  EXPECT_EQ(cuda::toHost(Tensor()).status().message(),
            "toHost of an undefined tensor");
  Tensor host = Tensor::zeros({4}, DType::Int32);
  StatusOr<Tensor> same = cuda::toHost(host);
  ASSERT_TRUE(same.ok());
  EXPECT_TRUE(same->sharesStorageWith(host));
}

TEST_F(CudaTest, MgpuCallsWithoutADriverRecordWhy) {
  SKIP_IF_GPU();
  std::string why = cuda::available().message();
  std::vector<std::pair<std::string, std::function<void()>>> calls = {
      {"mgpuStreamCreate", [] { EXPECT_EQ(mgpuStreamCreate(), nullptr); }},
      {"mgpuEventCreate", [] { EXPECT_EQ(mgpuEventCreate(), nullptr); }},
      {"mgpuMemAlloc",
       [] { EXPECT_EQ(mgpuMemAlloc(64, nullptr, false), nullptr); }},
      {"mgpuMemAlloc",
       [] { EXPECT_EQ(mgpuMemAlloc(64, nullptr, true), nullptr); }},
      {"mgpuModuleLoadJIT",
       [] {
         EXPECT_EQ(mgpuModuleLoadJIT(const_cast<char *>(test::kAddOnePtx), 2),
                   nullptr);
       }},
      {"mgpuModuleLoad",
       [] {
         EXPECT_EQ(mgpuModuleLoad(const_cast<char *>(test::kAddOnePtx), 100),
                   nullptr);
       }},
      {"mgpuStreamSynchronize", [] { mgpuStreamSynchronize(nullptr); }},
      {"mgpuMemcpy",
       [] {
         float a = 1, b = 2;
         mgpuMemcpy(&a, &b, sizeof(float), nullptr);
       }},
      {"mgpuMemset32",
       [] {
         unsigned word = 0;
         mgpuMemset32(&word, 7, 1, nullptr);
       }},
      {"mgpuMemHostRegister",
       [] {
         float data[4] = {};
         mgpuMemHostRegister(data, sizeof(data));
       }},
  };
  for (auto &[name, call] : calls) {
    call();
    Status error = cuda::takeError();
    ASSERT_FALSE(error.isOk()) << name;
    EXPECT_EQ(error.message(), name + ": " + why);
    EXPECT_TRUE(cuda::takeError().isOk()) << name;
  }
}

TEST_F(CudaTest, MgpuCallsWithBadArgumentsRecordAnError) {
  // Runs with or without a GPU: handles the runtime did not make and null
  // pointers are rejected before any driver call.
  void *garbage = reinterpret_cast<void *>(uintptr_t(0xdead0));
  float host[4] = {};
  int64_t strided[2 + 1 + 2 * 2] = {};
  std::memcpy(&strided[0], &garbage, sizeof(void *));
  std::memcpy(&strided[1], &garbage, sizeof(void *));
  strided[3] = 2, strided[4] = 2; // sizes
  strided[5] = 1, strided[6] = 2; // column-major strides
  std::vector<std::tuple<std::string, std::string, std::function<void()>>>
      calls = {
          {"mgpuModuleLoad", "null GPU binary",
           [] { EXPECT_EQ(mgpuModuleLoad(nullptr, 16), nullptr); }},
          {"mgpuModuleLoad", "empty GPU binary",
           [&] { EXPECT_EQ(mgpuModuleLoad(host, 0), nullptr); }},
          {"mgpuModuleLoadJIT", "null GPU binary",
           [] { EXPECT_EQ(mgpuModuleLoadJIT(nullptr, 2), nullptr); }},
          {"mgpuModuleLoadJIT", "PTX optimization level 9 is not in [0, 4]",
           [&] { EXPECT_EQ(mgpuModuleLoadJIT(host, 9), nullptr); }},
          {"mgpuModuleGetFunction", "is not a module loaded by mgpuModuleLoad",
           [&] {
             EXPECT_EQ(mgpuModuleGetFunction(garbage, "add_one"), nullptr);
           }},
          {"mgpuModuleGetFunction", "is not a module loaded by mgpuModuleLoad",
           [] { EXPECT_EQ(mgpuModuleGetFunction(nullptr, nullptr), nullptr); }},
          {"mgpuModuleUnload", "is not a module loaded by mgpuModuleLoad",
           [&] { mgpuModuleUnload(garbage); }},
          {"mgpuLaunchKernel", "is not a function from mgpuModuleGetFunction",
           [&] {
             mgpuLaunchKernel(garbage, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr,
                              nullptr, 0);
           }},
          {"mgpuLaunchKernel", "is not a function from mgpuModuleGetFunction",
           [] {
             mgpuLaunchKernel(nullptr, -1, 0, 0, 0, 0, 0, -5, nullptr, nullptr,
                              nullptr, 3);
           }},
          {"mgpuLaunchClusterKernel",
           "is not a function from mgpuModuleGetFunction",
           [&] {
             mgpuLaunchClusterKernel(garbage, 2, 1, 1, 4, 1, 1, 32, 1, 1, 0,
                                     garbage, nullptr, nullptr);
           }},
          {"mgpuStreamDestroy", "is not a stream from mgpuStreamCreate",
           [&] { mgpuStreamDestroy(garbage); }},
          {"mgpuStreamSynchronize", "is not a stream from mgpuStreamCreate",
           [&] { mgpuStreamSynchronize(garbage); }},
          {"mgpuStreamWaitEvent", "is not a stream from mgpuStreamCreate",
           [&] { mgpuStreamWaitEvent(garbage, garbage); }},
          {"mgpuEventDestroy", "is not an event from mgpuEventCreate",
           [&] { mgpuEventDestroy(garbage); }},
          {"mgpuEventSynchronize", "is not an event from mgpuEventCreate",
           [] { mgpuEventSynchronize(nullptr); }},
          {"mgpuEventRecord", "is not an event from mgpuEventCreate",
           [&] { mgpuEventRecord(garbage, nullptr); }},
          {"mgpuMemAlloc", "is not a stream from mgpuStreamCreate",
           [&] { EXPECT_EQ(mgpuMemAlloc(64, garbage, false), nullptr); }},
          {"mgpuMemFree", "was not allocated by mgpuMemAlloc",
           [&] { mgpuMemFree(host, nullptr); }},
          {"mgpuMemcpy", "null destination of a 16-byte copy",
           [&] { mgpuMemcpy(nullptr, host, 16, nullptr); }},
          {"mgpuMemcpy", "null source of a 16-byte copy",
           [&] { mgpuMemcpy(host, nullptr, 16, garbage); }},
          {"mgpuMemset32", "null destination of a 4-element fill",
           [] { mgpuMemset32(nullptr, 0, 4, nullptr); }},
          {"mgpuMemset16", "null destination of a 4-element fill",
           [] { mgpuMemset16(nullptr, 0, 4, nullptr); }},
          {"mgpuMemHostRegister", "null host pointer",
           [] { mgpuMemHostRegister(nullptr, 64); }},
          {"mgpuMemHostUnregister", "null host pointer",
           [] { mgpuMemHostUnregister(nullptr); }},
          {"mgpuMemHostRegisterMemRef", "null memref descriptor",
           [] { mgpuMemHostRegisterMemRef(1, nullptr, 4); }},
          {"mgpuMemHostRegisterMemRef", "memref rank -1 is not in [0, 64]",
           [&] { mgpuMemHostRegisterMemRef(-1, strided, 4); }},
          {"mgpuMemHostRegisterMemRef",
           "only contiguous memrefs can be registered",
           [&] { mgpuMemHostRegisterMemRef(2, strided, 4); }},
          {"mgpuMemHostUnregisterMemRef", "element size 0 is not positive",
           [&] { mgpuMemHostUnregisterMemRef(2, strided, 0); }},
          {"mgpuSetDefaultDevice", "invalid device -1",
           [] { mgpuSetDefaultDevice(-1); }},
      };
  for (auto &[name, expected, call] : calls) {
    call();
    Status error = cuda::takeError();
    ASSERT_FALSE(error.isOk()) << name << " recorded nothing";
    EXPECT_TRUE(startsWith(error.message(), name + ": ")) << error.message();
    EXPECT_NE(error.message().find(expected), std::string::npos)
        << error.message();
    EXPECT_TRUE(cuda::takeError().isOk()) << name;
  }
}

TEST_F(CudaTest, ReleasingNullHandlesIsANoOp) {
  mgpuStreamDestroy(nullptr);
  mgpuEventDestroy(nullptr);
  mgpuModuleUnload(nullptr);
  mgpuMemFree(nullptr, nullptr);
  // Zero-byte copies, fills and zero-element memrefs do nothing either.
  mgpuMemcpy(nullptr, nullptr, 0, nullptr);
  mgpuMemset32(nullptr, 0, 0, nullptr);
  int64_t empty[2 + 1 + 2] = {0, 0, 0, /*size=*/0, /*stride=*/1};
  mgpuMemHostRegisterMemRef(1, empty, 4);
  EXPECT_TRUE(cuda::takeError().isOk());
}

TEST_F(CudaTest, StickyErrorKeepsTheFirstAndSkipsLaunches) {
  void *garbage = reinterpret_cast<void *>(uintptr_t(0xbad0));
  mgpuMemcpy(nullptr, garbage, 8, nullptr);
  // Pending: launches, copies and fills are skipped, so nothing is added.
  mgpuLaunchKernel(garbage, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr, 0);
  mgpuMemset32(nullptr, 0, 4, nullptr);
  // Other calls still run and their errors are counted.
  mgpuStreamDestroy(garbage);
  mgpuEventDestroy(garbage);
  Status error = cuda::takeError();
  ASSERT_FALSE(error.isOk());
  EXPECT_EQ(error.message(), "mgpuMemcpy: null destination of a 8-byte copy "
                             "(and 2 later error(s) not shown)");
  EXPECT_TRUE(cuda::takeError().isOk());

  // Once taken, launches are checked again.
  mgpuLaunchKernel(garbage, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr, 0);
  EXPECT_TRUE(startsWith(cuda::takeError().message(), "mgpuLaunchKernel: "));
}

} // namespace
