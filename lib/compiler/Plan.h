//===- Plan.h - A graph compiled for one argument spec ----------*- C++ -*-===//
//
// A plan is the JIT-compiled code of one specialization and what it takes
// to call it: which caller input or weight each argument is, and how to
// turn each result (a memref descriptor or a scalar, returned through MLIR's
// C interface) into a runtime value.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_PLAN_H
#define TSIR_LIB_COMPILER_PLAN_H

#include "tsir-runtime/Status.h"
#include "tsir-runtime/Value.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
}

namespace tsir {

/// One argument or result of the compiled function.
struct PlanSlot {
  enum class Kind { Tensor, Int, Float, Bool } kind = Kind::Tensor;
  int rank = 0;
  rt::DType dtype = rt::DType::Float32;
  /// For arguments: the caller input (>= 0) or the weight (-1 - index).
  int64_t source = 0;
};

/// What the compiled function looks like, read off the lowered module
/// before it goes to LLVM.
struct PlanSignature {
  std::vector<PlanSlot> arguments;
  std::vector<PlanSlot> results;
  std::vector<std::string> weightNames;
  /// The caller inputs the graph writes in place, in the order of the
  /// trailing results that hold their new values.
  std::vector<int64_t> writeback;
};

/// The runtime dtype of a TorchScript dtype (`f32`, `si64`, `ui8`, `i1`).
std::optional<rt::DType> runtimeDtypeOf(mlir::Type dtype);

/// Reads the signature of the finalized `graph` (after tsir-lower-to-linalg).
/// `numGraphArguments` is the graph's argument count before weights were
/// appended; `firstCallerArgument` is 1 when argument 0 is a module's `self`.
rt::StatusOr<PlanSignature> readPlanSignature(mlir::func::FuncOp graph,
                                              unsigned numGraphArguments,
                                              unsigned firstCallerArgument);

class Plan {
public:
  ~Plan();

  /// JIT-compiles `module` (in the LLVM dialect).
  static rt::StatusOr<std::unique_ptr<Plan>> compile(mlir::ModuleOp module,
                                                     PlanSignature signature);

  /// Calls the compiled graph. `weights` maps names to tensors.
  rt::StatusOr<std::vector<rt::Value>>
  call(const std::vector<rt::Value> &inputs,
       const std::map<std::string, rt::Tensor> &weights) const;

private:
  Plan() = default;
  std::unique_ptr<mlir::ExecutionEngine> engine;
  PlanSignature signature;
};

} // namespace tsir

#endif // TSIR_LIB_COMPILER_PLAN_H
