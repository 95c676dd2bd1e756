//===- Segments.h - Cutting a graph into segments and steps -----*- C++ -*-===//
//
// When a specialized graph holds ops that no conversion lowers (custom
// operators, lists of dynamic length, strings, printing, exceptions), the
// executor runs it the way TorchScript's interpreter runs what its fusers
// leave: each block becomes a sequence of steps, where a step is either one
// op the interpreter runs (through a runtime kernel, or itself) or a
// segment, a maximal run of ops that lower. A segment is outlined into its
// own `func.func @graph` (arguments: the values it reads from before it;
// results: the values read after it) and compiled lazily, for the runtime
// spec of its inputs, with the same pipeline as a whole graph.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_SEGMENTS_H
#define TSIR_LIB_COMPILER_SEGMENTS_H

#include "CompilePipeline.h"
#include "OpRoles.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <memory>
#include <vector>

namespace tsir {

class Segment;

/// One step of a block: an op the interpreter runs, or a segment.
struct Step {
  mlir::Operation *op = nullptr;
  Segment *segment = nullptr;
};

/// A run of ops of one block that lowers, compiled per input spec.
class Segment {
public:
  /// The ops, in block order: Lowered ops and the Free ones between them.
  std::vector<mlir::Operation *> ops;
  /// Values defined before the segment that it reads (at any depth).
  std::vector<mlir::Value> inputs;
  /// Constants and list/tuple literals defined before the segment that it
  /// reads: copied into it rather than passed, so it sees the literals.
  std::vector<mlir::Operation *> copied;
  /// Values its ops define that are read after it, in order.
  std::vector<mlir::Value> outputs;
  /// Free ops of the segment whose results are read after it: the
  /// interpreter evaluates them again once the segment has run.
  std::vector<mlir::Operation *> replayed;

  /// The plan for `inputValues` (one runtime value per input), compiled on
  /// first use of their spec. `compiled` says whether this call compiled;
  /// a failed lowering names in `unlowered` the ops it could not lower.
  rt::StatusOr<Plan *> planFor(const std::vector<rt::Value> &inputValues,
                               const CompileOptions &options, bool &compiled,
                               std::vector<UnloweredOp> *unlowered);

  /// When planFor's compile failed with `lowerError` and neither a kernel
  /// nor the interpreter can take the ops it names: a plan compiled with
  /// the segment's int, float and bool inputs as constants of their values
  /// (the dims of `sum` given at run time), one per set of values, at most
  /// kMaxScalarValuePlans. `lowerError` where that does not lower either.
  rt::StatusOr<Plan *>
  planForScalarValues(const std::vector<rt::Value> &inputValues,
                      const CompileOptions &options,
                      const rt::Status &lowerError, bool &compiled);

  /// Runtime values of the inputs as the plan takes them: tensors and
  /// scalars, lists and tuples flattened (None and strings are constants
  /// in the compiled segment).
  static void flattenInputs(const std::vector<rt::Value> &inputValues,
                            std::vector<rt::Value> &arguments);

  size_t numCachedPlans() const {
    size_t count = plans.size();
    for (const auto &entry : scalarValuePlans)
      count += entry.second.plans.size();
    return count;
  }

  /// When the segment does not compile as a whole and holds control flow:
  /// the steps that run it with its control flow interpreted.
  std::vector<Step> fallback;
  bool interpreted = false;

private:
  /// A plan compiled with the sizes that varied between two calls left
  /// unknown, as TorchScript's profiling executor merges the shapes it
  /// sees: the same segment under a loop over data-dependent counts (a
  /// detection head's boxes per class) compiles once or twice, not once
  /// per count. `sizes` are the tensors' sizes in flattenInputs order,
  /// -1 where any size fits.
  struct GeneralPlan {
    std::vector<std::vector<int64_t>> sizes;
    std::unique_ptr<Plan> plan; // null: the general compile failed
  };

  std::map<std::string, std::unique_ptr<Plan>> plans;
  /// By the key of the inputs without their sizes: the sizes of the last
  /// plan compiled for it, and its general plan, once there is one.
  std::map<std::string, std::vector<std::vector<int64_t>>> lastSizes;
  std::map<std::string, GeneralPlan> generalPlans;
  /// For a spec that compiles only with its scalar inputs as constants:
  /// why it does not compile otherwise, and its plans by the values.
  struct ScalarValuePlans {
    std::string lowerError;
    std::map<std::string, std::unique_ptr<Plan>> plans;
  };
  /// By the key of the inputs.
  std::map<std::string, ScalarValuePlans> scalarValuePlans;
  static constexpr size_t kMaxScalarValuePlans = 16;
};

class SegmentedGraph {
public:
  /// Cuts `func` (specialized and optimized) into steps. With
  /// `interpretControlFlow`, every prim.If and prim.Loop is interpreted
  /// (their bodies still compile), even those whose bodies all lower.
  /// Errors, before anything runs, for the first op nothing runs.
  /// The ops of `byKernel` (kernelOpsNamed) run by their kernels.
  static rt::StatusOr<std::unique_ptr<SegmentedGraph>>
  build(mlir::func::FuncOp func, const OpRoles &roles,
        bool interpretControlFlow,
        const llvm::DenseSet<mlir::Operation *> &byKernel = {});

  /// Whether `func` needs the interpreter: it holds an op that only a
  /// runtime kernel runs, the first of which `interpreted` receives.
  /// `missing` receives the first op nothing runs.
  static bool needsInterpreter(mlir::func::FuncOp func, const OpRoles &roles,
                               mlir::Operation *&missing,
                               mlir::Operation **interpreted = nullptr);

  /// The ops of `func` that `unlowered` (its failed lowering) names and
  /// that a kernel runs.
  static llvm::DenseSet<mlir::Operation *>
  kernelOpsNamed(mlir::func::FuncOp func,
                 llvm::ArrayRef<UnloweredOp> unlowered, const OpRoles &roles);

  llvm::ArrayRef<Step> steps(mlir::Block *block) const;
  OpRole role(mlir::Operation *op) const;
  /// The kernel of a Kernel op.
  const std::string &kernelName(mlir::Operation *op) const;
  mlir::func::FuncOp func() const { return graph; }
  size_t numSegments() const { return segments.size(); }

  /// Cuts `segment` again with the prim.If and prim.Loop in it interpreted
  /// (their bodies compiled), into `segment.fallback`, for when it does not
  /// compile as a whole. False if it holds no control flow.
  bool interpretControlFlowIn(Segment &segment);

  /// Cuts `segment` again with the ops of it that `unlowered` names (its
  /// failed lowering) run by their kernels, or by the interpreter where it
  /// evaluates them (`size()`, `stack` of values only the run knows), into
  /// `segment.fallback`: a lowering that needs a constant (a norm's order)
  /// where the graph passes it at run time. False if no such op has a
  /// kernel or a native form.
  bool runByKernelsIn(Segment &segment,
                      llvm::ArrayRef<UnloweredOp> unlowered);

private:
  SegmentedGraph() = default;
  void assignRoles(const OpRoles &roles, bool interpretControlFlow,
                   const llvm::DenseSet<mlir::Operation *> &byKernel);
  /// Cuts `segment`'s ops again, with the roles as they now are, into its
  /// fallback.
  void cutAgain(Segment &segment);
  bool partition(mlir::Block *block, const OpRoles &roles);
  bool partitionOps(mlir::Block *block, llvm::ArrayRef<mlir::Operation *> ops,
                    std::vector<Step> &plan, const OpRoles &roles);
  void demote(mlir::Operation *op, const OpRoles &roles);

  mlir::func::FuncOp graph;
  const OpRoles *opRoles = nullptr;
  llvm::DenseMap<mlir::Operation *, OpRole> roles;
  llvm::DenseMap<mlir::Operation *, std::string> kernels;
  // A std::map: the interpreter iterates a block's steps while a
  // segment's fallback adds the steps of other blocks.
  std::map<mlir::Block *, std::vector<Step>> blockSteps;
  std::vector<std::unique_ptr<Segment>> segments;
};

/// An op writing in place memory that a view made in another compiled
/// segment shares: segments return copies, so the write would miss the
/// view (SegmentViews.cpp).
struct ViewAcrossSegments {
  mlir::Operation *write = nullptr;
  mlir::Operation *view = nullptr;
};
ViewAcrossSegments
findViewAcrossSegments(mlir::func::FuncOp func,
                       llvm::ArrayRef<std::unique_ptr<Segment>> segments);
std::string describeViewAcrossSegments(const ViewAcrossSegments &found);

/// An error for what tsir's dense values cannot do as torch's storage does
/// (SegmentViews.cpp): as_strided / as_strided_scatter of a value torch
/// holds as a view that reorders or offsets its storage, and an in-place
/// write to memory a view made by a runtime kernel (a copy) shares.
rt::Status checkStorageSemantics(mlir::func::FuncOp func);

} // namespace tsir

#endif // TSIR_LIB_COMPILER_SEGMENTS_H
