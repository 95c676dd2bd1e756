//===- Bilinear.cpp - nn.Bilinear as a matrix product, and _trilinear -----===//
//
// populateBilinearDecompositionPatterns (Decompositions.h). nn.Bilinear
// calls aten::bilinear(x1 [.., I], x2 [.., J], W [O, I, J], b [O]?):
//
//   y[.., o] = sum_ij x1[.., i] W[o, i, j] x2[.., j] + b[o]
//
// ATen computes it with _trilinear; here it is one matrix product with W
// laid out as [I, O*J], then a product with x2 summed over j:
//
//   t = unflatten(x1 @ reshape(permute(W, [1, 0, 2]), [I, O*J]), -1, [O, J])
//   y = sum(t * unsqueeze(x2, -2), [-1]) + b
//
// _trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim),
// the op ATen builds bilinear from (and which traces of it contain), is
// its definition: each input unsqueezed at its `expand` dims (in order),
// the three multiplied, and the product summed over `sumdim`; unroll_dim
// only orders ATen's loops.
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

struct DecomposeBilinear : GenericKindPattern {
  DecomposeBilinear(MLIRContext *context)
      : GenericKindPattern(context, "aten::bilinear", 4, 1) {}

  LogicalResult rewriteNode(prim::GenericOp op,
                            PatternRewriter &rewriter) const override {
    ValueRange in = op.getInputs();
    Value x1 = in[0], x2 = in[1], weight = in[2], bias = in[3];
    std::optional<Shape> w = Shape::of(weight);
    if (!w || w->sizes.size() != 3)
      return rewriter.notifyMatchFailure(op, "needs a 3-d weight of static "
                                             "sizes");
    int64_t outputs = w->sizes[0], left = w->sizes[1], right = w->sizes[2];
    Location loc = op.getLoc();
    Type any = anyTensor(rewriter);
    Value matrix = aten::PermuteOp::create(rewriter, loc, any, weight,
                                           intList(rewriter, loc, {1, 0, 2}));
    matrix = aten::ReshapeOp::create(
        rewriter, loc, any, matrix,
        intList(rewriter, loc, {left, outputs * right}));
    Value product = aten::MatmulOp::create(rewriter, loc, any, x1, matrix);
    product = aten::UnflattenIntOp::create(
        rewriter, loc, any, product, intConstant(rewriter, loc, -1),
        intList(rewriter, loc, {outputs, right}));
    Value columns = aten::UnsqueezeOp::create(rewriter, loc, any, x2,
                                              intConstant(rewriter, loc, -2));
    Value terms = aten::MulTensorOp::create(rewriter, loc, any, product,
                                            columns);
    bool biased = !isNone(bias);
    Type resultType = op->getResult(0).getType();
    Value result = aten::SumDimIntListOp::create(
        rewriter, loc, biased ? any : resultType, terms,
        intList(rewriter, loc, {-1}), boolConstant(rewriter, loc, false),
        noneConstant(rewriter, loc));
    if (biased)
      result = aten::AddTensorOp::create(rewriter, loc, resultType, result,
                                         bias, intConstant(rewriter, loc, 1));
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct DecomposeTrilinear : GenericKindPattern {
  DecomposeTrilinear(MLIRContext *context)
      : GenericKindPattern(context, "aten::_trilinear", 8, 1) {}

  LogicalResult rewriteNode(prim::GenericOp op,
                            PatternRewriter &rewriter) const override {
    ValueRange in = op.getInputs();
    SmallVector<SmallVector<int64_t>> expands;
    for (Value list : in.slice(3, 3)) {
      std::optional<SmallVector<int64_t>> dims =
          matchConstantIntList(list);
      if (!dims)
        return rewriter.notifyMatchFailure(op, "expand dims not constant");
      expands.push_back(*dims);
    }
    std::optional<SmallVector<int64_t>> sumdim =
        matchConstantIntList(in[6]);
    if (!sumdim)
      return rewriter.notifyMatchFailure(op, "sumdim not constant");
    Location loc = op.getLoc();
    Type any = anyTensor(rewriter);
    Value product;
    for (auto [input, expand] : llvm::zip(in.take_front(3), expands)) {
      SmallVector<int64_t> dims = expand;
      llvm::sort(dims);
      Value factor = input;
      for (int64_t dim : dims)
        factor = aten::UnsqueezeOp::create(rewriter, loc, any, factor,
                                           intConstant(rewriter, loc, dim));
      product = product ? aten::MulTensorOp::create(rewriter, loc, any,
                                                    product, factor)
                        : factor;
    }
    Type resultType = op->getResult(0).getType();
    Value result =
        sumdim->empty()
            ? aten::CloneOp::create(rewriter, loc, resultType, product,
                                    noneConstant(rewriter, loc))
                  .getResult()
            : aten::SumDimIntListOp::create(
                  rewriter, loc, resultType, product,
                  intList(rewriter, loc, *sumdim),
                  boolConstant(rewriter, loc, false),
                  noneConstant(rewriter, loc))
                  .getResult();
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tsir::populateBilinearDecompositionPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeBilinear>(patterns.getContext());
  patterns.add<DecomposeTrilinear>(patterns.getContext());
}
