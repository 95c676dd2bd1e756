//===- SubgraphOutlining.h - Ops moved into a subgraph op -------*- C++ -*-===//
//
// tsir-create-fusion-groups and tsir-create-autodiff-subgraphs both move a
// set of ops of one block into the body of a new subgraph op
// (`prim.FusionGroup`, `prim.DifferentiableGraph`), as TorchScript's
// SubgraphUtils::mergeNodeIntoSubgraph does: values from outside become
// the body's arguments, named as they are named outside; constants are
// cloned in rather than passed (immutable ones with the same value share a
// clone); values used after the ops become the op's results, in the order
// the ops define them.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_TRANSFORMS_SUBGRAPHOUTLINING_H
#define TSIR_TRANSFORMS_SUBGRAPHOUTLINING_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SetVector.h"

namespace tsir {

/// Builds the subgraph op before the builder's insertion point, with no
/// region body yet: `(builder, loc, resultTypes, inputs) -> op`.
using SubgraphBuilder = llvm::function_ref<mlir::Operation *(
    mlir::OpBuilder &, mlir::Location, mlir::TypeRange, mlir::ValueRange)>;

/// Moves `members` (ops of one block, in block order; nested regions move
/// with their op) into the one-block body of a subgraph op that `create`
/// builds before `anchor`, ending the body in `prim.Return`. The op is
/// located at the last member's place and named as the values it returns.
/// The constants cloned into the body are added to `clonedConstants`: the
/// caller erases those that end up unused. Returns the op.
mlir::Operation *
outlineSubgraph(llvm::ArrayRef<mlir::Operation *> members,
                mlir::Operation *anchor, SubgraphBuilder create,
                llvm::SetVector<mlir::Operation *> &clonedConstants);

} // namespace tsir

#endif // TSIR_TRANSFORMS_SUBGRAPHOUTLINING_H
