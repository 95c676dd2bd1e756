//===- StickyError.cpp - The first failure of the mgpu* calls -------------===//
//
// See StickyError.h. The state lives in static storage and is never
// destroyed: module unloads in compiled code's global destructors may
// record errors at exit. An atomic flag keeps the pending check, made
// before every launch, free of the lock.
//
//===----------------------------------------------------------------------===//

#include "StickyError.h"

#include <atomic>
#include <mutex>
#include <new>
#include <string>

namespace tsir::rt::cuda::detail {

namespace {
struct ErrorState {
  std::mutex mutex;
  std::atomic<bool> pending{false};
  std::string message;
  size_t suppressed = 0;
};

ErrorState &state() {
  alignas(ErrorState) static unsigned char storage[sizeof(ErrorState)];
  static ErrorState *errorState = new (storage) ErrorState();
  return *errorState;
}
} // namespace

bool recordError(const char *function, const Status &status) {
  if (status.isOk())
    return true;
  ErrorState &error = state();
  std::lock_guard<std::mutex> lock(error.mutex);
  if (error.pending.load(std::memory_order_relaxed)) {
    ++error.suppressed;
    return false;
  }
  error.message = std::string(function) + ": " + status.message();
  error.pending.store(true, std::memory_order_release);
  return false;
}

bool errorPending() { return state().pending.load(std::memory_order_acquire); }

Status takePendingError() {
  ErrorState &error = state();
  std::lock_guard<std::mutex> lock(error.mutex);
  if (!error.pending.load(std::memory_order_relaxed))
    return Status::ok();
  std::string message = std::move(error.message);
  if (error.suppressed)
    message += " (and " + std::to_string(error.suppressed) +
               " later error(s) not shown)";
  error.message.clear();
  error.suppressed = 0;
  error.pending.store(false, std::memory_order_release);
  return Status::error(message);
}

} // namespace tsir::rt::cuda::detail
