//===- LaneMask.h - The mask of a vector's first lanes ----------*- C++ -*-===//
//
// The CPU passes that write vector loops (the GEMM kernels, the reduction
// loops) mask their last, partial step with the same mask: lane i is on
// when i < count.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CODEGEN_CPU_LANEMASK_H
#define TSIR_PASSES_CODEGEN_CPU_LANEMASK_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

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

} // namespace tsir::cpu

#endif // TSIR_PASSES_CODEGEN_CPU_LANEMASK_H
