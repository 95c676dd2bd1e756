//===- PlanCache.h - Compiled plans kept on disk across processes -*- C++ -*-=//
//
// Private to lib/executor. The persistent plan cache (docs/plan-cache.md):
// a directory of the model.so files tsir-compile would write, one per
// graph and spec, so that a second process running the same graph on the
// same spec loads the plan in milliseconds instead of compiling it. A
// graph that runs in the interpreter keeps its specialized graph there
// instead (SpecializedGraphCache.h), and its segments' plans as saved
// plans (SavedPlan.h) linked in memory.
//
// An entry's name is a SHA-256 of everything the machine code depends on:
// the graph's text, the spec, the weights' names, dtypes and sizes (not
// their values: weights stay outside the library and are bound at load),
// the device, the host CPU and its features, whether the optimizer runs,
// and tsir itself (its version and the identity of the binary that holds
// the compiler, so a rebuilt tsir never reads an older one's code).
//
// Writers compile into a temporary file and rename it into place, so
// concurrent processes see a whole library or none. After each write the
// least recently used entries go until the cache is within its size.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_EXECUTOR_PLANCACHE_H
#define TSIR_LIB_EXECUTOR_PLANCACHE_H

#include "compiler/CompilePipeline.h"

#include "tsir-runtime/Status.h"

#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace tsir {

class PlanCache {
public:
  PlanCache(std::string directory, uint64_t maxBytes)
      : directory(std::move(directory)), maxBytes(maxBytes) {}

  /// The entry name for `parts` (the graph, the spec, ...) and tsir's own
  /// identity.
  static std::string key(const std::vector<std::string> &parts);

  /// The entry stored under `key` (a library; `.plan`: a segment's saved
  /// plan; `.mlir`: a specialized graph), marked as just used; none if
  /// absent.
  std::optional<std::string> lookup(const std::string &key,
                                    llvm::StringRef suffix = ".so") const;
  /// Whether `key` is recorded as a graph that does not compile whole
  /// (it runs in the interpreter), so no library is tried for it again.
  bool isInterpreted(const std::string &key) const;
  void markInterpreted(const std::string &key) const;

  /// Stores the library `write` produces (it is given a temporary path in
  /// the cache's directory) under `key`; returns its path. Evicts the
  /// least recently used entries beyond the size bound.
  rt::StatusOr<std::string>
  store(const std::string &key,
        const std::function<rt::Status(const std::string &path)> &write,
        llvm::StringRef suffix = ".so") const;

  /// The same for an entry of bytes: stores `bytes` under `key`, and
  /// reads them back (marked as just used; none if absent or unreadable).
  void storeBytes(const std::string &key, llvm::StringRef suffix,
                  llvm::StringRef bytes) const;
  std::optional<std::string> readBytes(const std::string &key,
                                       llvm::StringRef suffix) const;

private:
  void evict() const;

  std::string directory;
  uint64_t maxBytes;
};

/// The cache as the segments of an interpreted graph see it: each
/// segment plan's saved bytes (SavedPlan.h) under its key, tsir's identity
/// and the host CPU's added.
class SegmentPlanCache : public SegmentPlanStore {
public:
  SegmentPlanCache(const PlanCache &cache, std::string hostIdentity)
      : cache(cache), hostIdentity(std::move(hostIdentity)) {}

  std::optional<std::string> load(const std::string &key) override;
  void save(const std::string &key, const std::string &bytes) override;
  void loaded() override;

  /// How many plans were loaded rather than compiled, so far.
  int loadedPlans() const { return loadedCount; }

private:
  std::string fullKey(const std::string &key) const;

  const PlanCache &cache;
  std::string hostIdentity;
  std::atomic<int> loadedCount{0};
};

} // namespace tsir

#endif // TSIR_LIB_EXECUTOR_PLANCACHE_H
