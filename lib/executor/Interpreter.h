//===- Interpreter.h - Running a segmented graph ----------------*- C++ -*-===//
//
// TorchScript's interpreter, for what tsir does not compile: it walks the
// steps of a SegmentedGraph on runtime values, calling compiled segments
// (each compiled on first use of its input spec), runtime kernels by their
// TorchScript names, and running control flow, constants, list and tuple
// construction and unpacking itself, with TorchScript's semantics (a loop
// runs while its trip count and condition allow; lists are shared, so a
// kernel's `append` is seen by every holder of the list).
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_EXECUTOR_INTERPRETER_H
#define TSIR_LIB_EXECUTOR_INTERPRETER_H

#include "compiler/Segments.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

namespace tsir {

/// The state of a frozen module that its forward reads and writes
/// (`prim::GetAttr`/`prim::SetAttr` on `self`, which freezing keeps for an
/// attribute forward assigns: SSD's `self._has_warned`), by path
/// (`self._has_warned`). It outlives calls, as the module's attributes do:
/// a value is taken from the weights file under its path on first read,
/// and writes replace it.
struct ModuleState {
  std::map<std::string, rt::Value> attributes;
  const std::map<std::string, rt::Tensor> *weights = nullptr;
};

class Interpreter {
public:
  /// `segmentOptions` are the compile options of every segment (the spec
  /// is each segment's own).
  Interpreter(SegmentedGraph &graph, const CompileOptions &segmentOptions,
              const rt::KernelRegistry &kernels, ModuleState &moduleState);

  /// Runs the graph on `arguments`, one per argument of its function
  /// (`self`, the caller's inputs, the weights), and returns the values it
  /// returns.
  rt::StatusOr<std::vector<rt::Value>>
  run(const std::vector<rt::Value> &arguments);

  /// Whether the last run compiled a segment, and how long that took.
  bool compiledSegments() const { return compiled; }
  double compileSeconds() const { return compileTime; }
  /// Whether the last run failed compiling a segment.
  bool failedToCompile() const { return compileFailed; }

private:
  rt::Status runBlock(mlir::Block &block);
  rt::Status runSteps(llvm::ArrayRef<Step> steps);
  rt::Status runOp(mlir::Operation *op);
  rt::Status runSegment(Segment &segment);
  rt::Status runIf(prim::IfOp op);
  rt::Status runLoop(prim::LoopOp op);
  rt::Status runKernel(mlir::Operation *op);
  rt::Status runNative(mlir::Operation *op);
  rt::Status runAttributeAccess(mlir::Operation *op);
  rt::Status runObjectAttributeAccess(mlir::Operation *op, mlir::Value object,
                                      llvm::StringRef name);

  rt::StatusOr<rt::Value> valueOf(mlir::Value value) const;
  rt::StatusOr<std::vector<rt::Value>> valuesOf(mlir::ValueRange values) const;
  rt::Status bind(mlir::Operation *op, std::vector<rt::Value> results);

  SegmentedGraph &graph;
  CompileOptions segmentOptions;
  const rt::KernelRegistry &kernels;
  ModuleState &moduleState;
  llvm::DenseMap<mlir::Value, rt::Value> env;
  bool compiled = false;
  bool compileFailed = false;
  double compileTime = 0;
};

} // namespace tsir

#endif // TSIR_LIB_EXECUTOR_INTERPRETER_H
