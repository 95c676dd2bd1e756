//===- CudaGpuTest.cpp - The CUDA runtime on a GPU ------------------------===//
//
// Tensors through the device, a hand-written PTX kernel loaded and launched
// through the mgpu* entry points as compiled code would, the caching
// allocator over the real driver, and event timing. Every test but the
// ptxas check skips, saying why, where no GPU is usable (CI has none).
//
//===----------------------------------------------------------------------===//

#include "CudaTestSupport.h"
#include "TestUtils.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

using namespace tsir::rt;
using tsir::rt::test::CudaTest;
using tsir::rt::test::kAddOnePtx;

namespace {

#define SKIP_WITHOUT_GPU()                                                     \
  do {                                                                         \
    Status why = cuda::available();                                            \
    if (!why.isOk())                                                           \
      GTEST_SKIP() << why.message();                                           \
  } while (false)

/// ptxas from $CUDA_HOME, /usr/local/cuda or PATH; empty when absent.
std::string findPtxas() {
  std::vector<std::string> candidates;
  if (const char *home = std::getenv("CUDA_HOME"))
    candidates.push_back(std::string(home) + "/bin/ptxas");
  candidates.push_back("/usr/local/cuda/bin/ptxas");
  if (const char *path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      candidates.push_back(dir + "/ptxas");
  }
  for (const std::string &candidate : candidates)
    if (std::ifstream(candidate))
      return candidate;
  return "";
}

/// kAddOnePtx assembled for sm_90 by ptxas; empty (with a failure) when
/// ptxas rejects it.
std::string assembleAddOne(const std::string &ptxas,
                           const test::ScratchDir &dir) {
  std::ofstream(dir.path("add_one.ptx")) << kAddOnePtx;
  std::string command = "'" + ptxas + "' -arch=sm_90 '" +
                        dir.path("add_one.ptx") + "' -o '" +
                        dir.path("add_one.cubin") + "'";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream cubin(dir.path("add_one.cubin"), std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(cubin), {});
}

TEST(CudaPtx, AddOneAssemblesForSm90) {
  std::string ptxas = findPtxas();
  if (ptxas.empty())
    GTEST_SKIP() << "no ptxas (CUDA toolkit) found";
  test::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  std::string cubin = assembleAddOne(ptxas, dir);
  ASSERT_GT(cubin.size(), 4u);
  EXPECT_EQ(cubin.substr(0, 4), "\x7f"
                                "ELF");
}

TEST_F(CudaTest, TensorsRoundTripThroughTheDevice) {
  SKIP_WITHOUT_GPU();
  StatusOr<std::string> name = cuda::deviceName();
  ASSERT_TRUE(name.ok()) << name.status().message();
  EXPECT_FALSE(name->empty());
  ASSERT_NE(allocatorFor(Device::CUDA), nullptr);

  std::vector<float> values(12);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = 0.5f * float(i) - 2;
  Tensor host = Tensor::fromBlob(values.data(), {3, 4}, DType::Float32);
  StatusOr<Tensor> device = cuda::toDevice(host);
  ASSERT_TRUE(device.ok()) << device.status().message();
  EXPECT_EQ(device->device(), Device::cuda(0));
  EXPECT_EQ(device->sizes(), host.sizes());
  EXPECT_GE(cuda::allocatorStats()->bytesInUse, host.nbytes());

  StatusOr<Tensor> back = cuda::toHost(*device);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(back->device().isCPU());
  ASSERT_EQ(back->sizes(), host.sizes());
  for (size_t i = 0; i < values.size(); ++i)
    EXPECT_EQ(back->dataAs<float>()[i], values[i]) << i;

  // A strided view with an offset comes back with its own element order.
  StatusOr<Tensor> view = device->slice(1, 1, 4, 2);
  ASSERT_TRUE(view.ok());
  StatusOr<Tensor> transposed = view->transpose(0, 1);
  ASSERT_TRUE(transposed.ok());
  StatusOr<Tensor> viewBack = cuda::toHost(*transposed);
  ASSERT_TRUE(viewBack.ok()) << viewBack.status().message();
  ASSERT_EQ(viewBack->sizes(), (std::vector<int64_t>{2, 3}));
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      EXPECT_EQ(viewBack->dataAs<float>()[i * 3 + j],
                values[j * 4 + 1 + 2 * i]);
  EXPECT_TRUE(cuda::synchronize().isOk());
}

/// Copies `values` to a device buffer, runs add_one on it through the
/// mgpu* calls with `launch`, and returns what comes back.
template <class Launch>
std::vector<float> runAddOne(void *module, const std::vector<float> &values,
                             Launch launch) {
  void *stream = mgpuStreamCreate();
  size_t bytes = values.size() * sizeof(float);
  void *data = mgpuMemAlloc(bytes, stream, /*isHostShared=*/false);
  std::vector<float> result(values.size());
  mgpuMemcpy(data, const_cast<float *>(values.data()), bytes, stream);
  void *function = mgpuModuleGetFunction(module, "add_one");
  uint64_t n = values.size();
  void *params[] = {&data, &n};
  launch(function, stream, params, n);
  mgpuMemcpy(result.data(), data, bytes, stream);
  mgpuMemFree(data, stream);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  return result;
}

TEST_F(CudaTest, MgpuLoadsAndLaunchesAPtxKernel) {
  SKIP_WITHOUT_GPU();
  std::vector<float> values(1000);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = float(i) * 0.25f;

  std::vector<void *> modules;
  modules.push_back(mgpuModuleLoadJIT(const_cast<char *>(kAddOnePtx), 2));
  std::string ptxas = findPtxas();
  test::ScratchDir dir;
  std::string cubin;
  if (!ptxas.empty() && dir.ok()) {
    cubin = assembleAddOne(ptxas, dir);
    modules.push_back(mgpuModuleLoad(cubin.data(), cubin.size()));
  }
  Status loaded = cuda::takeError();
  ASSERT_TRUE(loaded.isOk()) << loaded.message();

  for (void *module : modules) {
    ASSERT_NE(module, nullptr);
    std::vector<float> plain =
        runAddOne(module, values,
                  [](void *function, void *stream, void **params, uint64_t n) {
                    intptr_t blocks = intptr_t((n + 255) / 256);
                    mgpuLaunchKernel(function, blocks, 1, 1, 256, 1, 1, 0,
                                     stream, params, nullptr, 2);
                  });
    Status status = cuda::takeError();
    ASSERT_TRUE(status.isOk()) << status.message();
    for (size_t i = 0; i < values.size(); ++i)
      ASSERT_EQ(plain[i], values[i] + 1) << i;

    // Clusters of 2 blocks (sm_90); the grid is a multiple of the cluster.
    std::vector<float> clustered = runAddOne(
        module, values,
        [](void *function, void *stream, void **params, uint64_t n) {
          intptr_t blocks = intptr_t((n + 127) / 128 + 1) / 2 * 2;
          mgpuLaunchClusterKernel(function, 2, 1, 1, blocks, 1, 1, 128, 1, 1, 0,
                                  stream, params, nullptr);
        });
    status = cuda::takeError();
    ASSERT_TRUE(status.isOk()) << status.message();
    for (size_t i = 0; i < values.size(); ++i)
      ASSERT_EQ(clustered[i], values[i] + 1) << i;
  }
  for (void *module : modules)
    mgpuModuleUnload(module);
  EXPECT_TRUE(cuda::takeError().isOk());
  // A module unloaded twice is rejected, not passed to the driver.
  mgpuModuleUnload(modules[0]);
  EXPECT_FALSE(cuda::takeError().isOk());
}

TEST_F(CudaTest, MgpuMemoryFillsAndHostSharedMemory) {
  SKIP_WITHOUT_GPU();
  void *stream = mgpuStreamCreate();
  constexpr size_t n = 4096;
  void *device = mgpuMemAlloc(n * 4, stream, false);
  mgpuMemset32(device, 0x3f800000u, n, stream); // 1.0f
  mgpuMemset16(device, 0x4000, 2, stream);      // the upper half of 2.0f
  std::vector<float> host(n);
  mgpuMemcpy(host.data(), device, n * 4, stream);
  mgpuStreamSynchronize(stream);
  ASSERT_TRUE(cuda::takeError().isOk());
  // Element 0 is two 16-bit fills of 0x4000.
  uint32_t bits = 0;
  std::memcpy(&bits, &host[0], sizeof(bits));
  EXPECT_EQ(bits, 0x40004000u);
  for (size_t i = 1; i < n; ++i)
    ASSERT_EQ(host[i], 1.0f) << i;

  // Host-shared (managed) memory is written by the host, read on device.
  auto *shared = static_cast<float *>(mgpuMemAlloc(16, stream, true));
  ASSERT_NE(shared, nullptr) << cuda::takeError().message();
  for (int i = 0; i < 4; ++i)
    shared[i] = float(i);
  mgpuMemcpy(device, shared, 16, stream);
  mgpuMemcpy(host.data(), device, 16, stream);
  mgpuStreamSynchronize(stream);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(host[i], float(i));
  mgpuMemFree(shared, stream);
  mgpuMemFree(device, stream);
  mgpuStreamDestroy(stream);
  Status status = cuda::takeError();
  EXPECT_TRUE(status.isOk()) << status.message();
  // Freed twice is an error, not a driver crash.
  mgpuMemFree(device, nullptr);
  EXPECT_FALSE(cuda::takeError().isOk());
}

TEST_F(CudaTest, CachingAllocatorReusesDriverMemory) {
  SKIP_WITHOUT_GPU();
  ASSERT_TRUE(cuda::emptyCache().isOk());
  cuda::AllocatorStats before = *cuda::allocatorStats();
  void *stream = mgpuStreamCreate();
  void *first = mgpuMemAlloc(3 << 20, stream, false);
  mgpuMemFree(first, stream);
  void *second = mgpuMemAlloc(3 << 20, stream, false);
  EXPECT_EQ(second, first);
  mgpuMemFree(second, stream);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  ASSERT_TRUE(cuda::takeError().isOk());
  cuda::AllocatorStats after = *cuda::allocatorStats();
  EXPECT_EQ(after.driverAllocations - before.driverAllocations, 1u);
  EXPECT_GE(after.bytesCached, size_t(4) << 20);
  ASSERT_TRUE(cuda::emptyCache().isOk());
  EXPECT_EQ(cuda::allocatorStats()->bytesCached, 0u);
}

TEST_F(CudaTest, EventsTimeGpuWork) {
  SKIP_WITHOUT_GPU();
  void *module = mgpuModuleLoadJIT(const_cast<char *>(kAddOnePtx), 3);
  void *function = mgpuModuleGetFunction(module, "add_one");
  void *stream = mgpuStreamCreate();
  uint64_t n = uint64_t(1) << 24;
  void *data = mgpuMemAlloc(n * 4, stream, false);
  mgpuMemset32(data, 0, n, stream);
  void *params[] = {&data, &n};

  StatusOr<cuda::EventTimer> timer = cuda::EventTimer::create();
  ASSERT_TRUE(timer.ok()) << timer.status().message();
  EXPECT_FALSE(timer->elapsedMilliseconds().ok());
  ASSERT_TRUE(timer->start(stream).isOk());
  for (int i = 0; i < 10; ++i)
    mgpuLaunchKernel(function, intptr_t(n / 256), 1, 1, 256, 1, 1, 0, stream,
                     params, nullptr, 2);
  ASSERT_TRUE(timer->stop(stream).isOk());
  StatusOr<float> ms = timer->elapsedMilliseconds();
  ASSERT_TRUE(ms.ok()) << ms.status().message();
  EXPECT_GT(*ms, 0.0f);

  // The mgpu* events order one stream after another.
  void *event = mgpuEventCreate();
  void *other = mgpuStreamCreate();
  mgpuEventRecord(event, stream);
  mgpuStreamWaitEvent(other, event);
  float probe = 0;
  mgpuMemcpy(&probe, data, sizeof(float), other);
  mgpuEventSynchronize(event);
  mgpuStreamSynchronize(other);
  EXPECT_EQ(probe, 10.0f);
  mgpuEventDestroy(event);
  mgpuStreamDestroy(other);
  mgpuMemFree(data, stream);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  mgpuModuleUnload(module);
  Status status = cuda::takeError();
  EXPECT_TRUE(status.isOk()) << status.message();
}

} // namespace
