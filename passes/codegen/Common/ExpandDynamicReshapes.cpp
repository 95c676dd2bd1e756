//===- ExpandDynamicReshapes.cpp - Multi-dynamic expand_shape as a view ---===//
//
// memref.expand_shape may split one dimension into several dynamic ones
// (`memref<?xf32> into memref<?x?xf32>`, the result of a batched matrix
// product whose batch sizes are only known at run time), but upstream's
// expand-strided-metadata assumes at most one dynamic size per group and
// dereferences a null attribute on any other (LLVM 22). This pass rewrites
// exactly those expand_shape ops as the reinterpret_cast they stand for,
// with strides computed from the output sizes; expand-strided-metadata
// then lowers the rest as usual (passes/Conversion.td).
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tsir {
#define GEN_PASS_DEF_TSIREXPANDDYNAMICRESHAPESPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {

/// `a * b`, folded when both are known (and when either is 1).
OpFoldResult multiply(OpBuilder &b, Location loc, OpFoldResult lhs,
                      OpFoldResult rhs) {
  std::optional<int64_t> l = getConstantIntValue(lhs);
  std::optional<int64_t> r = getConstantIntValue(rhs);
  if (l && r)
    return b.getIndexAttr(*l * *r);
  if (l == 1)
    return rhs;
  if (r == 1)
    return lhs;
  return arith::MulIOp::create(b, loc, getValueOrCreateConstantIndexOp(b, loc, lhs),
                               getValueOrCreateConstantIndexOp(b, loc, rhs))
      .getResult();
}

/// True when some reassociation group expands into more than one dynamic
/// size: the case expand-strided-metadata cannot lower.
bool hasMultiDynamicGroup(memref::ExpandShapeOp op) {
  MemRefType type = op.getResultType();
  return llvm::any_of(op.getReassociationIndices(),
                      [&](const ReassociationIndices &group) {
                        return llvm::count_if(group, [&](int64_t dim) {
                                 return type.isDynamicDim(dim);
                               }) > 1;
                      });
}

/// expand_shape(src) as reinterpret_cast(base(src)): the sizes are the
/// op's output shape; within a group the dimensions are row-major, so the
/// stride of each is the source dimension's stride times the sizes of the
/// dimensions after it in the group. The offset does not change.
struct ExpandShapeAsReinterpretCast
    : OpRewritePattern<memref::ExpandShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(memref::ExpandShapeOp op,
                                PatternRewriter &rewriter) const override {
    if (!hasMultiDynamicGroup(op))
      return rewriter.notifyMatchFailure(op, "expand-strided-metadata "
                                             "lowers this one");
    Location loc = op.getLoc();
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, op.getSrc());
    auto [sourceStrides, sourceOffset] =
        op.getSrcType().getStridesAndOffset();
    auto known = [&](int64_t value, Value dynamic) -> OpFoldResult {
      if (ShapedType::isDynamic(value))
        return dynamic;
      return rewriter.getIndexAttr(value);
    };

    SmallVector<OpFoldResult> sizes = op.getMixedOutputShape();
    SmallVector<OpFoldResult> strides(sizes.size());
    for (auto [groupId, group] :
         llvm::enumerate(op.getReassociationIndices())) {
      OpFoldResult stride =
          known(sourceStrides[groupId], metadata.getStrides()[groupId]);
      for (int64_t dim : llvm::reverse(group)) {
        strides[dim] = stride;
        stride = multiply(rewriter, loc, stride, sizes[dim]);
      }
    }
    rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(
        op, op.getResultType(), metadata.getBaseBuffer(),
        known(sourceOffset, metadata.getOffset()), sizes, strides);
    return success();
  }
};

struct TsirExpandDynamicReshapesPass
    : tsir::impl::TsirExpandDynamicReshapesPassBase<
          TsirExpandDynamicReshapesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandShapeAsReinterpretCast>(&getContext());
    // Only the matched ops change: no folding of anything else.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      return signalPassFailure();
  }
};

} // namespace
