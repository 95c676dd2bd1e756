//===- BooleanMasks.cpp - Boolean mask indices as integer indices ---------===//
//
// populateBooleanMaskDecompositionPatterns (Decompositions.h). In
// `x[mask]` and `x[mask] = v` (index.Tensor, index_put, index_put_), a
// bool or uint8 index of rank k stands, as in ATen's expandTensors
// (aten/src/ATen/native/IndexingUtils.h), for the k integer indices of its
// true elements: `mask.nonzero()` split into its columns. That is what this
// rewrite writes, leaving integer indexing, which convert-aten-to-linalg
// lowers. How many elements a mask selects is known only at run time
// (`nonzero` is a runtime kernel), so the indexing runs in a segment
// compiled for that count. torchvision's detection heads filter their
// boxes so: `scores[scores > threshold]`.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Decompositions.h"

#include "ConstantBuilders.h"
#include "GenericPattern.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::decompose;

namespace {

/// The rank of `index` if it is a bool or uint8 tensor of known rank.
std::optional<int64_t> maskRank(Value index) {
  auto type = dyn_cast<prim::TensorType>(index.getType());
  if (!type || !type.getDtype() || !type.getHasSizes())
    return std::nullopt;
  Type dtype = type.getDtype();
  bool mask = dtype.isInteger(1) || dtype.isUnsignedInteger(8);
  if (!mask)
    return std::nullopt;
  return static_cast<int64_t>(type.getSizes().size());
}

/// Rewrites the indices operand (a list literal) of index.Tensor,
/// index_put and index_put_ so that each mask becomes its nonzero columns.
template <typename OpTy> struct MaskToIndices : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto list = op.getIndices().template getDefiningOp<prim::ListConstructOp>();
    if (!list || !llvm::any_of(list.getElements(), [](Value index) {
          return maskRank(index).has_value();
        }))
      return rewriter.notifyMatchFailure(op, "no mask of known rank");
    Location loc = op.getLoc();
    Type longTensor = prim::TensorType::get(
        rewriter.getContext(), rewriter.getIntegerType(64, /*isSigned=*/true),
        false, {}, false, {}, StringAttr(), BoolAttr(), {});
    SmallVector<Value> indices;
    for (Value index : list.getElements()) {
      std::optional<int64_t> rank = maskRank(index);
      if (!rank) {
        indices.push_back(index);
        continue;
      }
      // A 0-d mask would add a dim of size 0 or 1; ATen handles it apart.
      if (*rank == 0)
        return rewriter.notifyMatchFailure(op, "0-d mask");
      Value nonzero = aten::NonzeroOp::create(rewriter, loc, longTensor, index);
      Value one = intConstant(rewriter, loc, 1);
      for (int64_t dim = 0; dim < *rank; ++dim)
        indices.push_back(aten::SelectIntOp::create(
            rewriter, loc, longTensor, nonzero, one,
            intConstant(rewriter, loc, dim)));
    }
    Value newList =
        prim::ListConstructOp::create(rewriter, loc, list.getType(), indices);
    rewriter.modifyOpInPlace(op, [&] { op.getIndicesMutable().assign(newList); });
    return success();
  }
};

} // namespace

void tsir::populateBooleanMaskDecompositionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<MaskToIndices<aten::IndexTensorOp>,
               MaskToIndices<aten::IndexPutOp>,
               MaskToIndices<aten::IndexPut_Op>>(patterns.getContext());
}
