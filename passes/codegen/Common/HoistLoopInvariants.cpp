//===- HoistLoopInvariants.cpp - Loop-invariant tensor ops out of loops ---===//
//
// MLIR's loop-invariant code motion (moveLoopInvariantCode) with two rules
// for destination-passing ops on tensors: an empty tensor moves only as
// the destination of an op that moves, and an op a loop writes into stays
// (passes/Conversion.td says why).
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRHOISTLOOPINVARIANTSPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {

/// `value` is a tensor.empty in `loop` whose sizes come from outside it:
/// it can be made again before the loop.
bool isEmptyInLoop(Value value, LoopLikeOpInterface loop) {
  auto empty = value.getDefiningOp<tensor::EmptyOp>();
  return empty && !loop.isDefinedOutsideOfLoop(value) &&
         llvm::all_of(empty->getOperands(), [&](Value size) {
           return loop.isDefinedOutsideOfLoop(size);
         });
}

/// A destination-style op writes into one of `op`'s results: were `op`
/// before the loop, bufferization would copy its result every iteration.
bool isWrittenInto(Operation *op) {
  for (Value result : op->getResults())
    for (OpOperand &use : result.getUses())
      if (auto writer = dyn_cast<DestinationStyleOpInterface>(use.getOwner()))
        if (writer.isDpsInit(&use))
          return true;
  return false;
}

struct HoistLoopInvariantsPass
    : tsir::impl::TsirHoistLoopInvariantsPassBase<HoistLoopInvariantsPass> {
  void runOnOperation() override {
    // Post-order: an inner loop's invariants reach the outer loop's body
    // first, and from there may leave it too.
    getOperation()->walk([&](LoopLikeOpInterface loop) {
      moveLoopInvariantCode(
          loop.getLoopRegions(),
          [&](Value value, Region *) {
            return loop.isDefinedOutsideOfLoop(value) ||
                   isEmptyInLoop(value, loop);
          },
          [&](Operation *op, Region *) {
            return !isa<tensor::EmptyOp>(op) && isMemoryEffectFree(op) &&
                   isSpeculatable(op) && !isWrittenInto(op);
          },
          [&](Operation *op, Region *) {
            // The op leaves with its own copies of the empty tensors it
            // uses; the loop keeps the originals for its other users.
            OpBuilder before(loop);
            op->walk([&](Operation *user) {
              for (OpOperand &operand : user->getOpOperands())
                if (!op->isAncestor(
                        operand.get().getParentBlock()->getParentOp()) &&
                    isEmptyInLoop(operand.get(), loop))
                  operand.set(before.clone(*operand.get().getDefiningOp())
                                  ->getResult(0));
            });
            loop.moveOutOfLoop(op);
          });
    });
  }
};

} // namespace
