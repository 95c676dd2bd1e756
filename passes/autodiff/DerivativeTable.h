//===- DerivativeTable.h - The derivative formulas, read once ---*- C++ -*-===//
//
// tsir-differentiate's formulas (derivatives.txt, compiled into the
// library) imported through the prim dialect's TorchScript reader: one
// func.func per differentiable op, named by its schema
// (`aten::mul.Tensor`), whose arguments are the op's inputs, results and
// result gradients and whose results are the input gradients; and the
// decompositions that replace an op before differentiating (training-mode
// batch_norm and dropout); and the ops whose results carry no gradient.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_AUTODIFF_DERIVATIVETABLE_H
#define TSIR_PASSES_AUTODIFF_DERIVATIVETABLE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace tsir::autodiff {

class DerivativeTable {
public:
  /// Reads the formulas into `context`; an error (a formula that does not
  /// import, or a schema named twice) is reported there, and fails.
  static mlir::FailureOr<DerivativeTable> load(mlir::MLIRContext *context);

  /// The formula of `op`, or null when it has none.
  mlir::func::FuncOp lookup(mlir::Operation *op) const;
  /// The graph that takes `op`'s place before differentiating (its inputs
  /// and results the op's), or null.
  mlir::func::FuncOp lookupDecomposition(mlir::Operation *op) const;
  /// Whether `op`'s results carry no gradient whatever its inputs do
  /// (comparisons, `rand_like`): they stay inactive.
  bool isNondifferentiable(mlir::Operation *op) const;

private:
  std::shared_ptr<mlir::OwningOpRef<mlir::ModuleOp>> formulas;
  llvm::StringMap<mlir::func::FuncOp> bySchema, decompositions;
  llvm::StringSet<> nondifferentiable;
};

/// Whether tsir-differentiate differentiates `op` itself, without a
/// formula: lists are plumbing, not math (ListConstruct, ListUnpack, and
/// the ops over a list literal: broadcast_tensors, cat, stack; and einsum,
/// whose gradients are einsums of rewritten equations, EinsumGradient.h).
bool isListPlumbing(mlir::Operation *op);

} // namespace tsir::autodiff

#endif // TSIR_PASSES_AUTODIFF_DERIVATIVETABLE_H
