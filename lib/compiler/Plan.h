//===- Plan.h - A graph compiled for one argument spec ----------*- C++ -*-===//
//
// A plan is the JIT-compiled code of one specialization and what it takes
// to call it: the signature (which caller input or weight each argument
// is, what each result is) in the form tsir's one calling convention reads
// (tsir-runtime/AbiCall.h), the same table a model.so carries.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_PLAN_H
#define TSIR_LIB_COMPILER_PLAN_H

#include "tsir-runtime/AbiCall.h"
#include "tsir-runtime/Status.h"
#include "tsir-runtime/Value.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace mlir {
class ExecutionEngine;
}

namespace tsir {

/// What the compiled function looks like, read off the lowered module
/// before it goes to LLVM: the arguments and results as the calling
/// convention's slots (kinds are tsir_value_kind, dtypes torch's
/// ScalarType numbers), which ModelCompile writes into a model's table.
struct CallSignature {
  int64_t device = 0; // TSIR_MODEL_DEVICE_CPU or _CUDA
  std::vector<tsir_abi_slot> arguments;
  std::vector<tsir_abi_slot> results;
  std::vector<std::string> weightNames;
  /// The caller inputs (>= 0) and weights (-1 - index) the graph writes
  /// in place, in the order of the trailing results that hold their new
  /// values.
  std::vector<int64_t> writeback;

  /// The view tsirAbiCall takes, valid while this signature lives.
  tsir_abi_signature abi() const;
};

/// The runtime dtype of a TorchScript dtype (`f32`, `si64`, `ui8`, `i1`).
std::optional<rt::DType> runtimeDtypeOf(mlir::Type dtype);

/// Reads the signature of the finalized `graph` (after tsir-lower-to-linalg).
/// `numGraphArguments` is the graph's argument count before weights were
/// appended; `firstCallerArgument` is 1 when argument 0 is a module's `self`.
rt::StatusOr<CallSignature> readCallSignature(mlir::func::FuncOp graph,
                                              unsigned numGraphArguments,
                                              unsigned firstCallerArgument);

class Plan {
public:
  ~Plan();

  /// JIT-compiles `module` (in the LLVM dialect). When `saved` is given, a
  /// CPU plan's machine code and signature are written there as bytes
  /// (SavedPlan.h) that `load` turns into the same plan in another process;
  /// a CUDA plan leaves it empty.
  static rt::StatusOr<std::unique_ptr<Plan>>
  compile(mlir::ModuleOp module, CallSignature signature,
          std::string *saved = nullptr);
  /// The plan `saved` holds, its objects linked into this process; an error
  /// for bytes that are not a whole saved plan.
  static rt::StatusOr<std::unique_ptr<Plan>> load(llvm::StringRef saved);

  /// Calls the compiled graph. `weights` maps names to tensors.
  rt::StatusOr<std::vector<rt::Value>>
  call(const std::vector<rt::Value> &inputs,
       const std::map<std::string, rt::Tensor> &weights) const;

private:
  Plan() = default;
  /// A CUDA module's JIT (it runs the module constructor), or
  std::unique_ptr<mlir::ExecutionEngine> engine;
  /// a CPU module's, in one partition or several (PartitionedJIT.h).
  std::unique_ptr<llvm::orc::LLJIT> jit;
  tsir_abi_entry entry = nullptr;
  CallSignature signature;
};

} // namespace tsir

#endif // TSIR_LIB_COMPILER_PLAN_H
