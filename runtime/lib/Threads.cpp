//===- Threads.cpp - How many threads compiled code runs on ---------------===//
//
// See Threads.h. libomp is found by its soname among the loaded libraries
// (RTLD_NOLOAD), whether the JIT loaded it or a model.so brought it in as a
// dependency, and its entry points are looked up in it alone: a process
// that also holds GCC's libgomp (torch does) has a second
// omp_set_num_threads, which does not govern libomp's threads.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Threads.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <thread>
#include <utility>

namespace tsir::rt {

namespace {
using SetThreads = void (*)(int);
using GetThreads = int (*)();

struct OpenMPEntryPoints {
  SetThreads setNumThreads = nullptr;
  GetThreads getMaxThreads = nullptr;
};

/// libomp's entry points, once it is loaded; nothing before. A handle found
/// is kept open, so libomp stays loaded as long as the process.
const OpenMPEntryPoints *findOpenMP() {
  static std::atomic<const OpenMPEntryPoints *> found{nullptr};
  static std::mutex mutex;
  if (const OpenMPEntryPoints *entries = found.load(std::memory_order_acquire))
    return entries;
  std::lock_guard<std::mutex> lock(mutex);
  if (const OpenMPEntryPoints *entries = found.load(std::memory_order_acquire))
    return entries;
  void *handle = dlopen(kOpenMPLibrary, RTLD_LAZY | RTLD_NOLOAD);
  if (!handle)
    return nullptr;
  static OpenMPEntryPoints entries;
  entries.setNumThreads =
      reinterpret_cast<SetThreads>(dlsym(handle, "omp_set_num_threads"));
  entries.getMaxThreads =
      reinterpret_cast<GetThreads>(dlsym(handle, "omp_get_max_threads"));
  if (!entries.setNumThreads || !entries.getMaxThreads) {
    dlclose(handle);
    return nullptr;
  }
  found.store(&entries, std::memory_order_release);
  return &entries;
}

/// The count this thread last gave libomp (0: none yet): setting it again
/// is skipped.
thread_local int lastSet = 0;

/// The count this thread asked for while no libomp was loaded (0: none).
/// A graph interpreted with compiled segments asks before it runs, and
/// its first segment's compile loads libomp: loadOpenMPRuntime applies the
/// count then, or that segment's first run would take libomp's default
/// team, every core, whatever `--threads` said.
thread_local int pendingCount = 0;

/// Gives libomp the count this thread asked for before it was loaded.
void applyPendingCount() {
  if (int count = std::exchange(pendingCount, 0))
    setThreadCount(count);
}

/// The count at the start of `text` if it is a positive number.
int positiveCount(const char *text) {
  if (!text)
    return 0;
  errno = 0;
  char *end = nullptr;
  long count = std::strtol(text, &end, 10);
  if (end == text || errno != 0 || count < 1 || count > 1 << 16)
    return 0;
  return int(count);
}
} // namespace

int defaultThreadCount() {
  // OMP_NUM_THREADS may list counts per nesting level ("4,2"): the first
  // is the outermost's, which is the one compiled code uses.
  if (int fromEnvironment = positiveCount(std::getenv("OMP_NUM_THREADS")))
    return fromEnvironment;
  unsigned hardware = std::thread::hardware_concurrency();
  return hardware ? int(hardware) : 1;
}

Status loadOpenMPRuntime(const std::string &path) {
  // JIT-compiled code resolves __kmpc_* in the global scope. libomp may be
  // loaded already but only in a local one: as the dependency of a model.so
  // from the plan cache, which rt::Model opens RTLD_LOCAL. Reopening it
  // with RTLD_GLOBAL promotes it (RTLD_NOLOAD: only if it is loaded).
  if (dlopen(kOpenMPLibrary, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL) &&
      findOpenMP()) {
    applyPendingCount();
    return Status::ok();
  }
  if (!dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
    const char *reason = dlerror();
    return Status::error("cannot load the OpenMP runtime " + path +
                         " that compiled code with threads needs (" +
                         (reason ? reason : "unknown reason") +
                         "); install libomp (Debian: libomp-22-dev)");
  }
  if (!findOpenMP())
    return Status::error(path + " is not LLVM's OpenMP runtime (" +
                         kOpenMPLibrary + " with omp_set_num_threads)");
  applyPendingCount();
  return Status::ok();
}

bool openMPRuntimeLoaded() { return findOpenMP() != nullptr; }

bool setThreadCount(int threads) {
  int count = threads > 0 ? threads : defaultThreadCount();
  const OpenMPEntryPoints *openMP = findOpenMP();
  if (!openMP) {
    pendingCount = count;
    return false;
  }
  pendingCount = 0;
  // The setting is the calling thread's.
  if (lastSet != count) {
    openMP->setNumThreads(count);
    lastSet = count;
  }
  return true;
}

int currentThreadCount() {
  const OpenMPEntryPoints *openMP = findOpenMP();
  return openMP ? openMP->getMaxThreads() : 1;
}

StatusOr<std::vector<int>> parseThreadCounts(const std::string &text) {
  std::vector<int> counts;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(
        start, comma == std::string::npos ? std::string::npos : comma - start);
    char *end = nullptr;
    errno = 0;
    long count = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || errno != 0 || count < 1 ||
        count > 1 << 16)
      return Status::error("--threads takes a thread count of at least 1, or "
                           "a comma-separated list of them (1,2), not '" +
                           text + "'");
    counts.push_back(int(count));
    if (comma == std::string::npos)
      return counts;
    start = comma + 1;
  }
}

} // namespace tsir::rt
