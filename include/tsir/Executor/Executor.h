//===- Executor.h - Compile and run a graph, a plan per input spec -*- C++
//-*-===//
//
// tsir's GraphExecutor. Like TorchScript's, it keeps the graph as imported;
// the first call with a new argument spec (dtype and sizes of each tensor
// input, the type of each scalar) specializes the graph to it, optimizes,
// lowers it to LLVM and compiles it with MLIR's ExecutionEngine, and caches
// the plan; later calls with the same spec reuse it.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_EXECUTOR_EXECUTOR_H
#define TSIR_EXECUTOR_EXECUTOR_H

#include "tsir/Compiler/ModelCompiler.h"

#include "tsir-runtime/Status.h"
#include "tsir-runtime/Tensor.h"
#include "tsir-runtime/Value.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tsir {

struct ExecutorOptions {
  /// A safetensors file with the graph's `<Tensor>` constants, by name.
  std::string weightsPath;
  /// Weights held in memory (an embedder's, or Python's), by value name
  /// without `%`; they take precedence over `weightsPath`'s.
  std::vector<std::pair<std::string, rt::Tensor>> weights;
  /// Print the IR after every pass of the compile pipeline to stderr.
  bool printIRAfterAll = false;
  /// Run tsir-optimize before lowering.
  bool optimize = true;
  /// Where compiled code runs: "cpu", or "cuda" (kernels through NVVM;
  /// inputs and outputs stay host tensors, copied at the graph's edges).
  std::string device = "cpu";
  /// How many threads the parallel loops of compiled code run on (OpenMP,
  /// docs/lowering.md "Threads"); 0 is $OMP_NUM_THREADS if set, else the
  /// number of hardware threads. The count applies to the thread that
  /// calls run(); it does not change the compiled code, so changing it
  /// compiles nothing.
  int threads = 0;
  /// Where a compile that takes longer than about a second reports each
  /// stage as it finishes (a line each, with its time); unset: nowhere.
  std::function<void(const std::string &line)> progress;
  /// How long a compile runs before `progress` hears of it (0: always).
  double progressAfterSeconds = 1.0;
  /// Print MLIR's pass timing of each compile to stderr.
  bool timing = false;
  /// The persistent plan cache (docs/plan-cache.md): a directory where each
  /// plan that compiles whole is kept as the model.so tsir-compile would
  /// write, so that another process with the same graph and spec loads it
  /// instead of compiling. Empty: no cache. defaultPlanCacheDirectory()
  /// gives the usual place.
  std::string planCacheDirectory;
  /// The cache's bound: least recently used plans go beyond it.
  uint64_t planCacheMaxBytes = uint64_t(1) << 30;
  /// Where libTsirModelABI.a and libTsirRuntime.so are (the `lib` beside a
  /// tool's `bin`), which the cache's libraries are linked with; the cache
  /// is off without it.
  std::string libraryDirectory;
};

/// The plan cache's directory as the environment says: $TSIR_CACHE_DIR
/// (empty, `0` or `off`: no cache), else $XDG_CACHE_HOME/tsir, else
/// ~/.cache/tsir.
std::string defaultPlanCacheDirectory();
/// The cache's bound: $TSIR_CACHE_SIZE_MB megabytes, else 1 GiB.
uint64_t defaultPlanCacheMaxBytes();

/// What the last call did.
struct ExecutionStats {
  std::string spec;      ///< the argument spec, as tsir-refine-types reads it
  bool compiled = false; ///< whether this call compiled a new plan
  double compileSeconds = 0; ///< the time that compile took
  double runSeconds = 0;     ///< the compiled code alone
  /// Whether the plan this call compiled came from the persistent plan
  /// cache (loaded, not compiled).
  bool fromPlanCache = false;
  /// A graph run by the interpreter: how many of the segment plans this
  /// call needed were loaded from the persistent plan cache.
  int segmentPlansFromCache = 0;
};

class GraphExecutor {
public:
  ~GraphExecutor();

  /// Reads a graph: TorchScript text, or MLIR (prim/aten) when the path ends
  /// in `.mlir`. Errors name the file, line and column.
  static rt::StatusOr<std::unique_ptr<GraphExecutor>>
  fromFile(const std::string &path, const ExecutorOptions &options = {});
  /// The same for text held in memory; `bufferName` names it in errors, and
  /// a name ending in `.mlir` reads the text as MLIR.
  static rt::StatusOr<std::unique_ptr<GraphExecutor>>
  fromSource(const std::string &text, const std::string &bufferName,
             const ExecutorOptions &options = {});

  /// The graph's inputs, as the caller supplies them (a frozen module's
  /// `self` excluded): their TorchScript types and value names.
  std::vector<std::string> inputTypes() const;
  std::vector<std::string> inputNames() const;

  /// Runs the graph on `inputs`, compiling a plan for their spec on first
  /// use. Outputs are fresh runtime values owned by the caller, tuples
  /// flattened depth-first. Tensor inputs the graph writes in place are
  /// written, as PyTorch would have written them.
  rt::StatusOr<std::vector<rt::Value>>
  run(const std::vector<rt::Value> &inputs);

  /// Compiles the graph ahead of time for `options.spec` into a model the
  /// runtime alone runs (tsir-compile). The graph must compile whole: ops
  /// that only the interpreter runs are an error naming the first one.
  rt::Status compileModel(const ModelCompileOptions &options);
  /// The spec of `inputs` for compileModel (which it checks like run does):
  /// `Float(2, 3), int`.
  rt::StatusOr<std::string> specOf(const std::vector<rt::Value> &inputs) const;

  /// Changes ExecutorOptions::threads for the following runs.
  void setThreads(int threads);
  int threads() const;

  const ExecutionStats &lastStats() const;
  size_t numCachedPlans() const;
  /// The argument specs of the cached plans, in the form lastStats().spec
  /// gives, sorted.
  std::vector<std::string> cachedSpecs() const;

  struct Impl;

private:
  explicit GraphExecutor(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace tsir

#endif // TSIR_EXECUTOR_EXECUTOR_H
