//===- FunctionalVariants.h - In-place aten ops and their functional forms -*- C++ -*-===//
//
// TorchScript's mapping from an in-place op to the functional op that
// computes the same value (`add_.Tensor` -> `add.Tensor`, `pow_.Scalar` ->
// `pow.Tensor_Scalar`, `zero_` -> `zeros_like`, `fill_.Scalar` ->
// `full_like`), shared by prim-remove-mutation and tsir-value-semantics so
// both pick the same op.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_TRANSFORMS_FUNCTIONALVARIANTS_H
#define TSIR_TRANSFORMS_FUNCTIONALVARIANTS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace tsir {

/// The typed functional op taking the same arguments as in-place `op`: the
/// same overload name if it takes the same argument types, else the first
/// typed overload in TorchScript's order that does. nullopt if `op` is not
/// an in-place op on its first argument or none matches.
std::optional<mlir::OperationName> lookupFunctionalVariant(mlir::Operation *op);

/// Whether `op` has a functional form (createFunctionalVariant succeeds).
bool hasFunctionalVariant(mlir::Operation *op);

/// Creates, before `op`, the functional op computing what in-place `op`
/// writes, with the ops computing its extra operands (TorchScript's special
/// cases `zero_` and `fill_.Scalar`); `onCreate` sees every op created.
/// Returns null if there is none.
mlir::Operation *createFunctionalVariant(
    mlir::OpBuilder &builder, mlir::Operation *op,
    llvm::function_ref<void(mlir::Operation *)> onCreate = {});

} // namespace tsir

#endif // TSIR_TRANSFORMS_FUNCTIONALVARIANTS_H
