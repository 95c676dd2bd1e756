//===- SumToSize.cpp - sum_to_size as a sum over the broadcast dims -------===//
//
// populateSumToSizeDecompositionPatterns (Decompositions.h). sum_to_size
// (no typed op: a prim.Generic node) undoes a broadcast: it sums `x` down
// to `size`, over the leading dims `size` lacks and the dims where `size`
// has 1 and `x` does not (ATen's sum_to in ExpandUtils.h). The derivative
// formulas of tsir-differentiate use it after every broadcasting op. With
// static sizes and a constant `size` it is one keepdim sum and a reshape.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Decompositions.h"

#include "tsir/Transforms/ConstantMatchers.h"
#include "ConstantBuilders.h"
#include "GenericPattern.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::decompose;

namespace {

/// The sizes `value` holds: a constant list, or the sizes of a tensor of
/// static sizes (`aten::size(t)` of a 0-d `t` stays an op: constant
/// propagation keeps no empty list constant, as torch cannot read one).
std::optional<SmallVector<int64_t>> matchSizes(Value value) {
  if (auto size = value.getDefiningOp<aten::SizeOp>()) {
    if (std::optional<Shape> shape = Shape::of(size.getSelf()))
      return shape->sizes;
    return std::nullopt;
  }
  return matchConstantIntList(value);
}

struct DecomposeSumToSize : GenericKindPattern {
  DecomposeSumToSize(MLIRContext *context)
      : GenericKindPattern(context, "aten::sum_to_size", 2, 1) {}

  LogicalResult rewriteNode(prim::GenericOp op,
                            PatternRewriter &rewriter) const override {
    Value input = op.getInputs()[0];
    std::optional<Shape> x = Shape::of(input);
    std::optional<SmallVector<int64_t>> size = matchSizes(op.getInputs()[1]);
    if (!x || !size || size->size() > x->sizes.size())
      return rewriter.notifyMatchFailure(op, "needs static sizes and a "
                                             "constant size of lower rank");
    size_t lead = x->sizes.size() - size->size();
    SmallVector<int64_t> dims;
    for (size_t i = 0; i < x->sizes.size(); ++i) {
      if (i < lead) {
        dims.push_back(i);
        continue;
      }
      int64_t want = (*size)[i - lead], have = x->sizes[i];
      if (want == have)
        continue;
      if (want != 1)
        return rewriter.notifyMatchFailure(op, "size is not expandable");
      dims.push_back(i);
    }
    Location loc = op.getLoc();
    Value result = input;
    if (!dims.empty())
      result = aten::SumDimIntListOp::create(
          rewriter, loc, anyTensor(rewriter), input,
          intList(rewriter, loc, dims), boolConstant(rewriter, loc, true),
          noneConstant(rewriter, loc));
    // The reshape drops the leading dims (a view; none at all when the
    // sizes already agree, once it folds).
    rewriter.replaceOpWithNewOp<aten::ReshapeOp>(
        op, op->getResult(0).getType(), result, intList(rewriter, loc, *size));
    return success();
  }
};

} // namespace

void tsir::populateSumToSizeDecompositionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeSumToSize>(patterns.getContext());
}
