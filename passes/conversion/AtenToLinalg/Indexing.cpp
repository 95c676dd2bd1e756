//===- Indexing.cpp - convert-aten-to-linalg: gathers and scatters --------===//
//
// Ops that read or write a tensor at indices held in another tensor:
// index_select, gather and embedding as linalg.generics that
// tensor.extract at the computed index; scatter (src and value) and
// scatter_add as scf.for loops over the index tensor threading the result
// through tensor.insert (value semantics: the input is not written).
// nonzero, and where with one argument, have data-dependent shapes and are
// not lowered. Advanced indexing (index.Tensor, index_put) is in
// AdvancedIndexing.cpp. Each checks its indices at run time, as torch does,
// and reads and writes clamped to bounds (IndexChecks.h).
//
//===----------------------------------------------------------------------===//

#include "IndexChecks.h"
#include "PopulatePatterns.h"
#include "ShapeHelpers.h"

#include "../Common/Utils.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {

/// An index element (any integer type) as an `index` value.
Value toIndex(OpBuilder &b, Location loc, Value element) {
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), element);
}

/// The dim operand as a dim of a tensor of `rank` (0-d tensors have dim 0).
std::optional<int64_t> constantDim(Value dim, int64_t rank) {
  std::optional<int64_t> d = matchConstantInt(dim);
  return d ? normalizeDim(*d, rank) : std::nullopt;
}

/// index_select(self, dim, index): result dim `dim` runs over `index`. A
/// 0-d self is one value, which an index of one element, 0, selects.
struct ConvertIndexSelect : OpConversionPattern<aten::IndexSelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::IndexSelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    Value self = adaptor.getSelf(), index = adaptor.getIndex();
    auto selfType = cast<RankedTensorType>(self.getType());
    auto indexType = dyn_cast<RankedTensorType>(index.getType());
    if (!type || !indexType || indexType.getRank() > 1 ||
        type.getRank() != selfType.getRank())
      return rewriter.notifyMatchFailure(op, "needs typed tensors and a 0-d "
                                             "or 1-d index");
    if (selfType.getRank() == 0) {
      if (!constantDim(op.getDim(), 0) ||
          (indexType.getRank() == 1 && indexType.getDimSize(0) != 1))
        return rewriter.notifyMatchFailure(op, "a 0-d self takes dim 0 and "
                                               "one index");
      Location loc = op.getLoc();
      checkIndicesInRange(rewriter, loc, index,
                          arith::ConstantIndexOp::create(rewriter, loc, 0),
                          arith::ConstantIndexOp::create(rewriter, loc, 1),
                          "index out of range in self");
      rewriter.replaceOp(op, self);
      return success();
    }
    std::optional<int64_t> dim = constantDim(op.getDim(), type.getRank());
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim is not a valid constant");
    Location loc = op.getLoc();
    Value size = getDimSize(rewriter, loc, self, *dim);
    checkIndicesInRange(rewriter, loc, index,
                        arith::ConstantIndexOp::create(rewriter, loc, 0), size,
                        "index out of range in self");
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, self);
    sizes[*dim] = indexType.getRank() == 0
                      ? OpFoldResult(rewriter.getIndexAttr(1))
                      : tensor::getMixedSize(rewriter, loc, index, 0);
    SmallVector<AffineExpr> exprs;
    if (indexType.getRank() == 1)
      exprs.push_back(rewriter.getAffineDimExpr(*dim));
    AffineMap map =
        AffineMap::get(type.getRank(), 0, exprs, rewriter.getContext());
    Value result = buildGather(
        rewriter, loc, type, mixResultSizes(type, sizes), index, map,
        [&](OpBuilder &b, Location l, ValueRange args, ValueRange indices) {
          SmallVector<Value> at(indices);
          at[*dim] = clampIndex(b, l, toIndex(b, l, args[0]), size);
          return tensor::ExtractOp::create(b, l, self, at);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// gather(self, dim, index): the result has the index's shape and reads
/// self at its own index with dim `dim` replaced by the index's element.
struct ConvertGather : OpConversionPattern<aten::GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    Value self = adaptor.getSelf(), index = adaptor.getIndex();
    auto indexType = dyn_cast<RankedTensorType>(index.getType());
    int64_t selfRank = cast<RankedTensorType>(self.getType()).getRank();
    // A 0-d self is read as one value of a dim of size 1 (torch's gather
    // of a scalar with a 1-d index).
    if (!type || !indexType ||
        (selfRank != type.getRank() && !(selfRank == 0 && type.getRank() == 1)))
      return rewriter.notifyMatchFailure(op, "needs typed tensors of one rank");
    std::optional<int64_t> dim = constantDim(op.getDim(), selfRank);
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim is not a valid constant");
    Location loc = op.getLoc();
    Value size;
    if (selfRank != 0) {
      size = getDimSize(rewriter, loc, self, *dim);
      checkIndicesInRange(
          rewriter, loc, index,
          arith::ConstantIndexOp::create(rewriter, loc, 0), size,
          outOfBoundsMessage(
              *dim, cast<RankedTensorType>(self.getType()).getDimSize(*dim)));
    } else if (type.getRank() != 0) {
      checkIndicesInRange(rewriter, loc, index,
                          arith::ConstantIndexOp::create(rewriter, loc, 0),
                          arith::ConstantIndexOp::create(rewriter, loc, 1),
                          outOfBoundsMessage(0, 1));
    }
    Value result = buildGather(
        rewriter, loc, type,
        mixResultSizes(type, tensor::getMixedSizes(rewriter, loc, index)),
        index, rewriter.getMultiDimIdentityMap(type.getRank()),
        [&](OpBuilder &b, Location l, ValueRange args, ValueRange indices) {
          SmallVector<Value> at;
          if (selfRank != 0) {
            at.assign(indices.begin(), indices.end());
            at[*dim] = clampIndex(b, l, toIndex(b, l, args[0]), size);
          }
          return tensor::ExtractOp::create(b, l, self, at);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// embedding(weight, indices): a row of `weight` per index (padding_idx
/// only matters to the gradient).
struct ConvertEmbedding : OpConversionPattern<aten::EmbeddingOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::EmbeddingOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    Value weight = adaptor.getWeight(), indices = adaptor.getIndices();
    auto indicesType = dyn_cast<RankedTensorType>(indices.getType());
    if (!type || !indicesType ||
        cast<RankedTensorType>(weight.getType()).getRank() != 2 ||
        type.getRank() != indicesType.getRank() + 1)
      return rewriter.notifyMatchFailure(op, "needs a 2-d weight and typed "
                                             "tensors");
    Location loc = op.getLoc();
    int64_t rank = type.getRank();
    Value rows = getDimSize(rewriter, loc, weight, 0);
    checkIndicesInRange(rewriter, loc, indices,
                        arith::ConstantIndexOp::create(rewriter, loc, 0), rows,
                        "index out of range in self");
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, indices);
    sizes.push_back(tensor::getMixedSize(rewriter, loc, weight, 1));
    AffineMap map = rewriter.getMultiDimIdentityMap(rank).dropResult(rank - 1);
    Value result = buildGather(
        rewriter, loc, type, mixResultSizes(type, sizes), indices, map,
        [&](OpBuilder &b, Location l, ValueRange args, ValueRange at) {
          return tensor::ExtractOp::create(
              b, l, weight,
              ValueRange{clampIndex(b, l, toIndex(b, l, args[0]), rows),
                         at.back()});
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// scatter.src, scatter.value and scatter_add: for each element i of
/// `index`, result[i with dim replaced by index[i]] = src[i] (or value, or
/// += src[i]). Later elements win where indices repeat, as on torch's CPU.
template <typename OpTy> struct ConvertScatter : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  static constexpr bool add = std::is_same_v<OpTy, aten::ScatterAddOp>;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*this->getTypeConverter(), op);
    Value index = adaptor.getIndex();
    auto indexType = dyn_cast<RankedTensorType>(index.getType());
    if (!type || !indexType || indexType.getRank() != type.getRank())
      return rewriter.notifyMatchFailure(op, "needs typed tensors of one rank");
    std::optional<int64_t> dim = constantDim(op.getDim(), type.getRank());
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim is not a valid constant");
    Location loc = op.getLoc();
    Type element = type.getElementType();
    Value source, scalar;
    if constexpr (std::is_same_v<OpTy, aten::ScatterValueOp>) {
      scalar = adaptor.getValue();
      if (!isa<IntegerType, FloatType>(scalar.getType()))
        return rewriter.notifyMatchFailure(op, "value is not a number");
      scalar = castScalar(rewriter, loc, scalar, element);
    } else {
      source = adaptor.getSrc();
    }
    bool srcUnsigned = source && isUnsignedDtype(op->getOperand(3).getType());
    Value dest = castToType(rewriter, loc, adaptor.getSelf(), type);
    Value size;
    if (type.getRank() != 0) {
      size = getDimSize(rewriter, loc, dest, *dim);
      checkIndicesInRange(rewriter, loc, index,
                          arith::ConstantIndexOp::create(rewriter, loc, 0),
                          size, outOfBoundsMessage(*dim, type.getDimSize(*dim)));
    }
    Value result = buildScatterLoops(
        rewriter, loc, dest, tensor::getMixedSizes(rewriter, loc, index),
        [&](OpBuilder &b, Location l, ValueRange ivs, Value into) -> Value {
          SmallVector<Value> at(ivs);
          Value position = tensor::ExtractOp::create(b, l, index, ivs);
          if (!at.empty())
            at[*dim] = clampIndex(b, l, toIndex(b, l, position), size);
          Value value =
              source ? castScalar(b, l,
                                  tensor::ExtractOp::create(b, l, source, ivs),
                                  element, srcUnsigned)
                     : scalar;
          if (add)
            value = addScalars(b, l, tensor::ExtractOp::create(b, l, into, at),
                               value);
          return tensor::InsertOp::create(b, l, value, into, at);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tsir::conversion::populateIndexingPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<ConvertIndexSelect, ConvertGather, ConvertEmbedding,
               ConvertScatter<aten::ScatterSrcOp>,
               ConvertScatter<aten::ScatterValueOp>,
               ConvertScatter<aten::ScatterAddOp>>(typeConverter,
                                                   patterns.getContext());
  populateAdvancedIndexingPatterns(typeConverter, patterns);
}
