//===- Threads.h - How many threads compiled code runs on ------*- C++ -*-===//
//
// Compiled code runs its large loops as OpenMP worksharing loops (LLVM's
// libomp, docs/lowering.md "Threads"). The runtime sets the team size
// through the OpenMP runtime that compiled code loaded, found with dlopen
// and dlsym, so the runtime builds with no OpenMP headers or library and
// a program that runs no threaded code never loads one. The OpenMP team
// size is a per-thread setting: it applies to parallel loops started from
// the thread that sets it.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_THREADS_H
#define TSIR_RUNTIME_THREADS_H

#include "tsir-runtime/Status.h"

#include <string>
#include <vector>

namespace tsir::rt {

/// The soname of the OpenMP runtime compiled code calls (LLVM's libomp).
inline constexpr const char *kOpenMPLibrary = "libomp.so.5";

/// The thread count that 0 ("the default") stands for: $OMP_NUM_THREADS
/// when it starts with a positive number, else the hardware's thread count.
int defaultThreadCount();

/// Loads the OpenMP runtime at `path` (a path, or a soname searched the
/// usual way), with its symbols visible to the JIT (RTLD_GLOBAL). Loading
/// it again is free. An error says what could not be loaded.
Status loadOpenMPRuntime(const std::string &path);

/// Whether an OpenMP runtime (libomp) is loaded in the process: by
/// loadOpenMPRuntime, or as a dependency of a compiled model.
bool openMPRuntimeLoaded();

/// Runs the parallel loops of compiled code started from the calling
/// thread on `threads` threads (0: defaultThreadCount()), through libomp's
/// omp_set_num_threads. Returns false when no OpenMP runtime is loaded
/// (then no code with parallel loops is either): the count is kept, and
/// loadOpenMPRuntime on this thread applies it.
bool setThreadCount(int threads);

/// The team size the next parallel loop started from this thread gets
/// (omp_get_max_threads), or 1 when no OpenMP runtime is loaded.
int currentThreadCount();

/// A `--threads` value: a count ("4") or a comma-separated list of counts
/// ("1,2"), each at least 1. An error names the text.
StatusOr<std::vector<int>> parseThreadCounts(const std::string &text);

} // namespace tsir::rt

#endif // TSIR_RUNTIME_THREADS_H
