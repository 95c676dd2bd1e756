//===- Lanes.h - Vector lanes for the CPU passes that write loops -*- C++
//-*-===//
//
// The CPU passes that write vector loops themselves (the GEMM kernels, the
// reduction loops, the window loops) share these: the mask of a partial
// last step, the element types a vector of memory holds lane by lane, the
// linalg bodies that can run on lanes as they are, and the cloning of
// such a body onto lanes.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CODEGEN_CPU_LANES_H
#define TSIR_PASSES_CODEGEN_CPU_LANES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tsir::cpu {

/// The mask of the first `count` lanes of a `width`-lane vector (all of
/// them when count >= width). Built as lane-index < count in i32, rather
/// than vector.create_mask, which convert-to-llvm does not lower.
inline mlir::Value buildFirstLanesMask(mlir::ImplicitLocOpBuilder &b,
                                       int64_t width, mlir::Value count) {
  using namespace mlir;
  auto laneType = VectorType::get({width}, b.getI32Type());
  SmallVector<int32_t> laneIndex;
  for (int32_t lane = 0; lane < width; ++lane)
    laneIndex.push_back(lane);
  Value lanes = arith::ConstantOp::create(
      b, DenseElementsAttr::get(laneType, ArrayRef<int32_t>(laneIndex)));
  Value bound = arith::IndexCastOp::create(
      b, b.getI32Type(),
      arith::MinSIOp::create(b, count,
                             arith::ConstantIndexOp::create(b, width)));
  return arith::CmpIOp::create(b, arith::CmpIPredicate::slt, lanes,
                               vector::BroadcastOp::create(b, laneType, bound));
}

/// Element types that vectors of memory hold lane by lane (not i1, whose
/// vectors LLVM packs into bits, nor index).
inline bool isLaneType(mlir::Type type) {
  if (!type.isIntOrFloat() || type.isIndex())
    return false;
  unsigned width = type.getIntOrFloatBitWidth();
  return width >= 8 && width % 8 == 0;
}

/// Whether the body of `op` runs on vectors as it is: elementwise, pure
/// ops (or constants) on lane types, none that reads linalg.index or that
/// could trap on a masked lane (integer division). `widest` is raised to
/// the widest type the body computes in.
inline bool isLaneBody(mlir::linalg::GenericOp op, unsigned &widest) {
  using namespace mlir;
  for (Operation &bodyOp : op.getBlock()->without_terminator()) {
    if (isa<linalg::IndexOp>(bodyOp) || bodyOp.getNumRegions() ||
        !isPure(&bodyOp) ||
        isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
            arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(
            bodyOp))
      return false;
    if (!isa<arith::ConstantOp>(bodyOp) &&
        !OpTrait::hasElementwiseMappableTraits(&bodyOp))
      return false;
    for (Type type : bodyOp.getResultTypes()) {
      if (type.isInteger(1))
        continue;
      if (!isLaneType(type))
        return false;
      widest = std::max(widest, type.getIntOrFloatBitWidth());
    }
  }
  return true;
}

/// `op` (of a lane body) on `lanes` lanes when any operand is a vector,
/// the scalars broadcast; else cloned as it is.
inline void cloneOnLanes(mlir::OpBuilder &b, mlir::Operation &op,
                         mlir::IRMapping &mapping, int64_t lanes) {
  using namespace mlir;
  bool onLanes = llvm::any_of(op.getOperands(), [&](Value operand) {
    return isa<VectorType>(mapping.lookupOrDefault(operand).getType());
  });
  if (!onLanes) {
    b.clone(op, mapping);
    return;
  }
  // A scalar read by several ops on lanes is broadcast for each; LLVM
  // merges the broadcasts and hoists them with the invariant scalar.
  IRMapping operands;
  for (Value operand : op.getOperands()) {
    Value value = mapping.lookupOrDefault(operand);
    if (!isa<VectorType>(value.getType()))
      value = vector::BroadcastOp::create(
          b, op.getLoc(), VectorType::get({lanes}, value.getType()), value);
    operands.map(operand, value);
  }
  Operation *clone = b.clone(op, operands);
  for (OpResult result : clone->getResults())
    result.setType(VectorType::get({lanes}, result.getType()));
  mapping.map(op.getResults(), clone->getResults());
}

} // namespace tsir::cpu

#endif // TSIR_PASSES_CODEGEN_CPU_LANES_H
