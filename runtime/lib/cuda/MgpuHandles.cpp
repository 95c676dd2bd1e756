//===- MgpuHandles.cpp - The handles the mgpu* calls gave out -------------===//
//
// See MgpuHandles.h. One map under one mutex; a lookup per launch costs
// tens of nanoseconds next to the microseconds of a launch. Never
// destroyed, since modules are unloaded by global destructors at exit.
//
//===----------------------------------------------------------------------===//

#include "MgpuHandles.h"

#include <cstdio>
#include <iterator>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

namespace tsir::rt::cuda::detail {

namespace {
struct Entry {
  HandleKind kind;
  int device;
  const void *owner;
};

struct Handles {
  std::mutex mutex;
  std::unordered_map<const void *, Entry> entries;
};

Handles &handles() {
  alignas(Handles) static unsigned char storage[sizeof(Handles)];
  static Handles *live = new (storage) Handles();
  return *live;
}

const char *kindName(HandleKind kind) {
  switch (kind) {
  case HandleKind::Module:
    return "a module loaded by mgpuModuleLoad";
  case HandleKind::Function:
    return "a function from mgpuModuleGetFunction";
  case HandleKind::Stream:
    return "a stream from mgpuStreamCreate";
  case HandleKind::Event:
    return "an event from mgpuEventCreate";
  case HandleKind::ManagedMemory:
    return "memory from mgpuMemAlloc";
  }
  return "a handle";
}

Status notA(HandleKind kind, const void *handle) {
  char address[32];
  std::snprintf(address, sizeof(address), "%p", handle);
  return Status::error(std::string(address) + " is not " + kindName(kind) +
                       " (or it was released)");
}
} // namespace

void addHandle(HandleKind kind, const void *handle, int device,
               const void *owner) {
  Handles &all = handles();
  std::lock_guard<std::mutex> lock(all.mutex);
  all.entries[handle] = Entry{kind, device, owner};
}

StatusOr<int> handleDevice(HandleKind kind, const void *handle) {
  Handles &all = handles();
  std::lock_guard<std::mutex> lock(all.mutex);
  auto it = all.entries.find(handle);
  if (!handle || it == all.entries.end() || it->second.kind != kind)
    return notA(kind, handle);
  return it->second.device;
}

StatusOr<int> removeHandle(HandleKind kind, const void *handle) {
  Handles &all = handles();
  std::lock_guard<std::mutex> lock(all.mutex);
  auto it = all.entries.find(handle);
  if (!handle || it == all.entries.end() || it->second.kind != kind)
    return notA(kind, handle);
  int device = it->second.device;
  all.entries.erase(it);
  if (kind == HandleKind::Module)
    for (auto entry = all.entries.begin(); entry != all.entries.end();)
      entry = entry->second.owner == handle ? all.entries.erase(entry)
                                            : std::next(entry);
  return device;
}

} // namespace tsir::rt::cuda::detail
