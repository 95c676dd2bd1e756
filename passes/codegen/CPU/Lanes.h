//===- Lanes.h - Vector lanes for the CPU passes that write loops -*- C++
//-*-===//
//
// The CPU passes that write vector loops themselves (the GEMM kernels, the
// reduction loops, the window loops) share these: the mask of a partial
// last step, the element types a vector of memory holds lane by lane, the
// linalg bodies that can run on lanes as they are, the cloning of such a
// body onto lanes, and the loops that replace a linalg.generic (its loop
// sizes, counted scf.for loops, the indices an operand reads).
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CODEGEN_CPU_LANES_H
#define TSIR_PASSES_CODEGEN_CPU_LANES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
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

/// The size of each loop of `op`, as index values.
inline llvm::SmallVector<mlir::Value>
buildLoopSizes(mlir::ImplicitLocOpBuilder &b, mlir::linalg::LinalgOp op) {
  using namespace mlir;
  SmallVector<Value> sizes;
  for (Range &range : op.createLoopRanges(b, b.getLoc()))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, b.getLoc(), range.size));
  return sizes;
}

/// An scf.for from 0 to `size` by `step`, carrying `carried`. `body`
/// builds the loop's body (with `b` at its end), given the induction
/// variable and the carried values, and returns what it yields. The
/// loop's results.
inline llvm::SmallVector<mlir::Value> buildCountedLoop(
    mlir::ImplicitLocOpBuilder &b, mlir::Value size, int64_t step,
    mlir::ValueRange carried,
    llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::Value,
                                                      mlir::ValueRange)>
        body) {
  using namespace mlir;
  auto loop = scf::ForOp::create(
      b, arith::ConstantIndexOp::create(b, 0), size,
      arith::ConstantIndexOp::create(b, step), carried,
      [&](OpBuilder &nested, Location, Value i, ValueRange args) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToEnd(nested.getInsertionBlock());
        scf::YieldOp::create(b, body(i, args));
      });
  return loop.getResults();
}

/// One counted loop (step 1) per dim of `dims`, outermost first, each
/// setting iv[dim] and carrying `carried` through the ones inside it;
/// `inner` builds the innermost body from the carried values and returns
/// what it yields. The outermost loop's results (`inner`'s, with no dims).
inline llvm::SmallVector<mlir::Value> buildLoopNest(
    mlir::ImplicitLocOpBuilder &b, llvm::ArrayRef<unsigned> dims,
    llvm::ArrayRef<mlir::Value> sizes, llvm::MutableArrayRef<mlir::Value> iv,
    mlir::ValueRange carried,
    llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::ValueRange)>
        inner) {
  using namespace mlir;
  if (dims.empty())
    return inner(carried);
  unsigned dim = dims.front();
  return buildCountedLoop(
      b, sizes[dim], 1, carried, [&](Value i, ValueRange args) {
        iv[dim] = i;
        return buildLoopNest(b, dims.drop_front(), sizes, iv, args, inner);
      });
}

/// The indices `map` reads when its loop dims have the values `iv`: a dim
/// or a constant as it is, any other expression through affine.apply.
inline llvm::SmallVector<mlir::Value>
buildIndices(mlir::ImplicitLocOpBuilder &b, mlir::AffineMap map,
             mlir::ArrayRef<mlir::Value> iv) {
  using namespace mlir;
  SmallVector<Value> result;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      result.push_back(iv[dim.getPosition()]);
    else if (auto constant = dyn_cast<AffineConstantExpr>(expr))
      result.push_back(arith::ConstantIndexOp::create(b, constant.getValue()));
    else
      result.push_back(affine::AffineApplyOp::create(
          b, AffineMap::get(map.getNumDims(), 0, expr), iv));
  }
  return result;
}

} // namespace tsir::cpu

#endif // TSIR_PASSES_CODEGEN_CPU_LANES_H
