//===- Cuda.h - The runtime's CUDA side -------------------------*- C++ -*-===//
//
// What host code needs of a GPU: whether one is usable (and why not),
// copies of tensors to and from it, synchronization, an event timer for
// benchmarks, the caching allocator's statistics, and takeError(), which
// returns the first failure of the mgpu* entry points compiled code calls
// (they return no error codes; see docs/runtime.md). The driver is opened
// with dlopen on first use, so all of this builds and links without CUDA
// and reports "CUDA is not available: ..." where there is no GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_CUDA_H
#define TSIR_RUNTIME_CUDA_H

#include "tsir-runtime/Status.h"
#include "tsir-runtime/Tensor.h"

#include <cstddef>
#include <string>

namespace tsir::rt::cuda {

/// Ok when the driver opened, initialized and found a device; else why not
/// ("CUDA is not available: libcuda.so.1: cannot open shared object file:
/// ..."). The first successful call installs the CUDA caching allocator
/// (allocatorFor(Device::CUDA)) for device 0.
Status available();

StatusOr<int> deviceCount();
/// The device's name ("NVIDIA H100 80GB HBM3").
StatusOr<std::string> deviceName(int device = 0);
/// The driver's CUDA version, 1000 * major + 10 * minor (13000).
StatusOr<int> driverVersion();

/// Waits for all work on every device the runtime has used.
Status synchronize();

/// A contiguous copy of `tensor` on cuda:0 (`tensor` itself when it is on
/// cuda:0 already). Synchronous.
StatusOr<Tensor> toDevice(const Tensor &tensor);
/// A CPU copy of `tensor` with its sizes, contiguous (`tensor` itself when
/// it is on the CPU). Synchronous.
StatusOr<Tensor> toHost(const Tensor &tensor);

/// Returns the first error the mgpu* entry points recorded since the last
/// call, and clears it; ok when none failed. While an error is pending the
/// entry points that queue device work (kernel launches, copies, fills)
/// do nothing, so one failure does not cascade into faults.
Status takeError();

/// Counters of the caching allocator of one device. Sizes are of the
/// rounded blocks the allocator manages.
struct AllocatorStats {
  size_t bytesInUse = 0;
  size_t peakBytesInUse = 0;
  /// Freed blocks kept for reuse.
  size_t bytesCached = 0;
  /// Blocks obtained from (and returned to) the driver.
  size_t driverAllocations = 0;
  size_t driverFrees = 0;
  /// Requests served from the cache.
  size_t cacheHits = 0;
};

StatusOr<AllocatorStats> allocatorStats(int device = 0);
/// Returns every cached block that no stream may still use to the driver.
Status emptyCache(int device = 0);

/// GPU time between two points of a stream, measured with CUDA events
/// (cuEventElapsedTime, about 0.5 microsecond resolution). Move-only.
class EventTimer {
public:
  static StatusOr<EventTimer> create(int device = 0);
  EventTimer(EventTimer &&other) noexcept;
  EventTimer &operator=(EventTimer &&other) noexcept;
  EventTimer(const EventTimer &) = delete;
  EventTimer &operator=(const EventTimer &) = delete;
  ~EventTimer();

  /// Records the start (stop) event on `stream` (a CUstream; null is the
  /// default stream, which is ordered after work the host waited for).
  Status start(void *stream = nullptr);
  Status stop(void *stream = nullptr);
  /// Waits for the stop event; the time between start and stop.
  StatusOr<float> elapsedMilliseconds();

private:
  EventTimer(int device, void *startEvent, void *stopEvent)
      : device(device), startEvent(startEvent), stopEvent(stopEvent) {}
  void destroy();

  int device = 0;
  void *startEvent = nullptr;
  void *stopEvent = nullptr;
  bool started = false;
  bool stopped = false;
};

} // namespace tsir::rt::cuda

/// takeError() for C: the pending error's message (cleared), or null.
extern "C" const char *tsirCudaTakeError(void);

#endif // TSIR_RUNTIME_CUDA_H
