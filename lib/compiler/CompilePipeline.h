//===- CompilePipeline.h - From an imported graph to a plan -----*- C++ -*-===//
//
// The steps the executor runs for one argument spec: specialize and
// optimize, externalize the weights, lower to linalg (where the plan's
// signature is read), lower to LLVM, and JIT-compile. The first half
// (specializeGraph) stays on prim/aten, where the executor decides whether
// the whole graph lowers or needs the interpreter (Segments.h); the second
// half (lowerSpecializedGraph) turns a specialized graph into a plan.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_COMPILEPIPELINE_H
#define TSIR_LIB_COMPILER_COMPILEPIPELINE_H

#include "Plan.h"
#include "Signature.h"

#include "tsir/Compiler/Diagnostics.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/Timing.h"

#include <chrono>
#include <deque>
#include <functional>
#include <optional>

namespace mlir {
class PassManager;
} // namespace mlir

namespace tsir {

class PassManagerPool;

/// Where compiled segment plans outlive the process (the executor's
/// persistent plan cache): Plan::compile's saved bytes, by a key of
/// everything the code depends on.
class SegmentPlanStore {
public:
  virtual ~SegmentPlanStore() = default;
  /// The bytes saved under `key`, if any.
  virtual std::optional<std::string> load(const std::string &key) = 0;
  virtual void save(const std::string &key, const std::string &bytes) = 0;
  /// That a plan loaded from saved bytes was used instead of a compile.
  virtual void loaded() = 0;
};

/// What one compile tells as it goes: a line per finished stage with its
/// time, once the compile has taken longer than `after` seconds (a short
/// compile says nothing; a long one is never silent), and, when asked,
/// MLIR's pass timing of the whole compile, printed to stderr when this
/// object goes away.
class CompileProgress {
public:
  using Sink = std::function<void(const std::string &line)>;
  CompileProgress(Sink sink, bool timing, double after = 1.0);

  /// Marks the end of `stage` (`lower to LLVM`, ...).
  void finished(llvm::StringRef stage);
  /// Times `pm`'s passes under `stage` when pass timing is on.
  void time(mlir::PassManager &pm, llvm::StringRef stage);
  bool timesPasses() const { return timingManager != nullptr; }

private:
  using Clock = std::chrono::steady_clock;
  Sink sink;
  double after;
  Clock::time_point start, last;
  std::vector<std::string> held; // lines before `after` seconds have passed
  std::unique_ptr<mlir::DefaultTimingManager> timingManager;
  mlir::TimingScope root;
  std::deque<mlir::TimingScope> stages; // stable: the pass managers hold them
};

struct CompileOptions {
  /// The types of the graph's arguments to specialize to (weights, which
  /// come after them, keep theirs).
  ArgumentSpec spec;
  bool optimize = true;
  bool printIRAfterAll = false;
  unsigned firstCallerArgument = 0;
  /// "cpu", or "cuda" for tsir-lower-to-nvvm's lowering (the calling
  /// convention is the same: host buffers in and out).
  std::string device = "cpu";
  /// GPU only: the SM architecture, and what the kernels are embedded as
  /// (fatbin; isa for PTX text).
  std::string gpuArch = "sm_90";
  std::string gpuFormat = "fatbin";
  /// CPU only: the CPU the code is for ("host" or an LLVM CPU name); its
  /// vector width sizes the kernels' register tiles (TargetCPU.h).
  std::string targetCpu = "host";
  /// A tensor of the weights file: its name, and its type
  /// (refinedTensorType).
  struct Weight {
    std::string name;
    mlir::Type type;
  };
  /// The weights file's tensors: inline tensor constants of those names
  /// are bound to the file's exact values (tsir-externalize-weights{names}),
  /// and a weight the graph declares without a dtype or sizes takes the
  /// file's type.
  std::vector<Weight> weights;
  /// Where the stages are reported; null: nowhere.
  CompileProgress *progress = nullptr;
  /// Where a failed lowering reports the ops no conversion pattern lowered
  /// (a norm whose order is known only at run time); null: nowhere. The
  /// executor runs them by their kernels instead.
  std::vector<UnloweredOp> *unlowered = nullptr;
  /// Where the lowering pipelines come from, built once and reused by every
  /// compile on the same context (PassManagerPool.h); null: built anew.
  PassManagerPool *passManagers = nullptr;
  /// Segments only: where their CPU plans are saved and looked up across
  /// processes; null: nowhere.
  SegmentPlanStore *segmentPlans = nullptr;
};

/// A graph specialized to a spec and optimized, still on prim/aten. Its
/// `func.func @graph` takes the graph's arguments, then one argument per
/// weight (named in its `tsir.weights` attribute).
struct SpecializedGraph {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// The graph's argument count before the weights were appended.
  unsigned numGraphArguments = 0;

  mlir::func::FuncOp func() const;
};

/// Specializes `graph` (the module holding `func.func @graph` as imported,
/// which is not modified) to `options.spec` and optimizes it. Errors carry
/// the collected MLIR diagnostics.
rt::StatusOr<SpecializedGraph> specializeGraph(mlir::ModuleOp graph,
                                               const CompileOptions &options);

/// A specialized graph lowered to the LLVM dialect, and the signature of
/// its compiled function: what the JIT compiles, and what tsir-compile
/// writes into a model.
struct LoweredGraph {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  CallSignature signature;
};

/// Lowers a copy of `graph` to the LLVM dialect.
rt::StatusOr<LoweredGraph> lowerToLLVMDialect(const SpecializedGraph &graph,
                                              const CompileOptions &options);

/// Lowers a copy of `graph` to LLVM and JIT-compiles it; `saved` as
/// Plan::compile's.
rt::StatusOr<std::unique_ptr<Plan>>
lowerSpecializedGraph(const SpecializedGraph &graph,
                      const CompileOptions &options,
                      std::string *saved = nullptr);

/// Both: compiles `graph` for `options.spec`.
rt::StatusOr<std::unique_ptr<Plan>> compileGraph(mlir::ModuleOp graph,
                                                 const CompileOptions &options,
                                                 std::string *saved = nullptr);

} // namespace tsir

#endif // TSIR_LIB_COMPILER_COMPILEPIPELINE_H
