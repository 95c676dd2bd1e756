//===- ConstantEvaluator.h - TorchScript's ops on constants -----*- C++ -*-===//
//
// The folding table of prim-constant-propagation: for each op TorchScript's
// interpreter would run on constant inputs, a C++ function computing its
// results the way the interpreter does (int64 wrap-around, floor division
// and modulo toward -inf, TorchScript's float printing). The aten ops are
// generated, so the table is keyed by op (TypeID), plus `prim.Generic` kinds
// that are pure (`prim::min`). An evaluator fails, and the op stays for run
// time, whenever the op would raise or its result is not portable
// (division by zero, an index out of range, a float out of int64 range).
// Private to passes/transforms.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_TRANSFORMS_CONSTANTEVALUATOR_H
#define TSIR_PASSES_TRANSFORMS_CONSTANTEVALUATOR_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

namespace tsir {

/// Computes `op`'s results (one attribute per result) from `operands`, the
/// prim.Constant values of its operands (null for an operand that is not a
/// constant, such as the tensor of `aten.size`).
using ConstantEvaluator = mlir::LogicalResult (*)(
    mlir::Operation *op, llvm::ArrayRef<mlir::Attribute> operands,
    llvm::SmallVectorImpl<mlir::Attribute> &results);

/// What an evaluator reads, which decides what must hold before it runs.
enum class EvaluatorInput {
  /// Only constant operands. The op must not touch memory anyone writes.
  Constants,
  /// The sizes in a tensor operand's type (dim, size, len, numel): the
  /// tensor must not be resized anywhere (resize_, t_, ...; other in-place
  /// ops keep its shape); the other operands are constants.
  TensorShape,
  /// The dtype or device in a tensor operand's type, which in-place ops
  /// never change.
  TensorDtypeOrDevice,
};

struct ConstantEvaluatorEntry {
  ConstantEvaluator evaluate = nullptr;
  EvaluatorInput input = EvaluatorInput::Constants;
};

class ConstantEvaluatorTable {
public:
  /// The table, built on first use (thread-safe).
  static const ConstantEvaluatorTable &get();

  /// The entry for `op` (by op, or by kind for `prim.Generic`), or null.
  const ConstantEvaluatorEntry *lookup(mlir::Operation *op) const;

  template <typename OpTy>
  void add(ConstantEvaluator evaluate,
           EvaluatorInput input = EvaluatorInput::Constants) {
    byOp[mlir::TypeID::get<OpTy>()] = {evaluate, input};
  }
  /// A `prim.Generic` kind known to be pure on immutable operands.
  void addGeneric(llvm::StringRef kind, ConstantEvaluator evaluate) {
    byKind[kind] = {evaluate, EvaluatorInput::Constants};
  }

private:
  ConstantEvaluatorTable();
  llvm::DenseMap<mlir::TypeID, ConstantEvaluatorEntry> byOp;
  llvm::StringMap<ConstantEvaluatorEntry> byKind;
};

/// int/float/bool arithmetic, comparisons and conversions (ScalarFolding.cpp).
void registerScalarEvaluators(ConstantEvaluatorTable &table);
/// Lists, strings, tuples, `str`, `is None`, casts, and tensor metadata from
/// types (ContainerFolding.cpp).
void registerContainerEvaluators(ConstantEvaluatorTable &table);
void registerTensorEvaluators(ConstantEvaluatorTable &table);

} // namespace tsir

#endif // TSIR_PASSES_TRANSFORMS_CONSTANTEVALUATOR_H
