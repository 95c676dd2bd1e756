//===- AdvancedIndexing.cpp - convert-aten-to-linalg: x[idx], x[idx] = v --===//
//
// NumPy-style advanced indexing with a list of optional integer index
// tensors, one per leading dim (None keeps a dim whole): index.Tensor as a
// gather and index_put (accumulating or not) as scf.for loops of
// tensor.insert. The index tensors broadcast together to a shape B; the
// result has B where the indexed dims were if they are adjacent, else B
// first, then the dims kept whole. Negative indices count from the end;
// indices are checked at run time and used clamped (IndexChecks.h).
// Boolean masks select a data-dependent number of elements and are refused.
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

/// Where the index tensors and the dims of `self` go in the indexed result.
struct IndexLayout {
  /// Per self dim, its index tensor, or null where the dim is kept whole.
  SmallVector<Value> indices;
  /// Per self dim, the result dim it becomes (-1 for indexed dims).
  SmallVector<int64_t> resultDim;
  /// The broadcast index shape B: its rank and first result dim.
  int64_t broadcastRank = 0, broadcastStart = 0, resultRank = 0;
  /// The sizes of the indexed result.
  SmallVector<OpFoldResult> sizes;

  /// Dim `dim` (of rank `rank`) of an index tensor as a dim of B.
  int64_t broadcastDim(int64_t dim, int64_t rank) const {
    return broadcastStart + broadcastRank - rank + dim;
  }
};

FailureOr<IndexLayout> analyze(ConversionPatternRewriter &rewriter,
                               Location loc, Value list, Value self) {
  std::optional<SmallVector<Value>> elements = getListElements(list);
  auto selfType = cast<RankedTensorType>(self.getType());
  int64_t rank = selfType.getRank();
  if (!elements || static_cast<int64_t>(elements->size()) > rank)
    return failure();
  IndexLayout layout;
  layout.indices.assign(rank, Value());
  SmallVector<int64_t> indexed;
  for (auto [dim, element] : llvm::enumerate(*elements)) {
    if (isNone(element))
      continue;
    Value index = rewriter.getRemappedValue(element);
    auto type = index ? dyn_cast<RankedTensorType>(index.getType()) : nullptr;
    if (!type || type.getElementType().isInteger(1) ||
        isUnsignedDtype(element.getType()))
      return failure();
    layout.indices[dim] = index;
    indexed.push_back(dim);
    layout.broadcastRank = std::max(layout.broadcastRank, type.getRank());
  }
  if (indexed.empty())
    return failure();
  bool adjacent = indexed.back() - indexed.front() + 1 ==
                  static_cast<int64_t>(indexed.size());
  layout.broadcastStart = adjacent ? indexed.front() : 0;
  layout.resultRank = rank - indexed.size() + layout.broadcastRank;
  layout.sizes.assign(layout.resultRank, rewriter.getIndexAttr(1));
  SmallVector<OpFoldResult> selfSizes =
      tensor::getMixedSizes(rewriter, loc, self);
  int64_t next = 0;
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (next == layout.broadcastStart)
      next += layout.broadcastRank;
    if (layout.indices[dim]) {
      layout.resultDim.push_back(-1);
      continue;
    }
    layout.resultDim.push_back(next);
    layout.sizes[next++] = selfSizes[dim];
  }
  // Each dim of B takes its size from an index tensor that does not
  // broadcast along it.
  for (Value index : layout.indices) {
    if (!index)
      continue;
    auto type = cast<RankedTensorType>(index.getType());
    for (int64_t dim = 0; dim < type.getRank(); ++dim)
      if (type.getDimSize(dim) != 1)
        layout.sizes[layout.broadcastDim(dim, type.getRank())] =
            tensor::getMixedSize(rewriter, loc, index, dim);
  }
  return layout;
}

/// The indices into an index tensor of `type` for the result index `at`.
SmallVector<Value> indexTensorPosition(OpBuilder &b, Location loc,
                                       const IndexLayout &layout,
                                       RankedTensorType type, ValueRange at) {
  SmallVector<Value> position;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    position.push_back(type.getDimSize(dim) == 1
                           ? arith::ConstantIndexOp::create(b, loc, 0)
                           : at[layout.broadcastDim(dim, type.getRank())]);
  return position;
}

/// The self index for result index `at`, given each index tensor's element
/// there (`elements`, one per indexed dim in order) and the self sizes.
SmallVector<Value> selfPosition(OpBuilder &b, Location loc,
                                const IndexLayout &layout, ValueRange elements,
                                ArrayRef<Value> selfSizes, ValueRange at) {
  SmallVector<Value> position;
  IndexMath m{b, loc};
  auto element = elements.begin();
  for (auto [dim, result] : llvm::enumerate(layout.resultDim)) {
    if (result >= 0) {
      position.push_back(at[result]);
      continue;
    }
    Value index =
        arith::IndexCastOp::create(b, loc, b.getIndexType(), *element++);
    position.push_back(clampIndex(b, loc, m.wrapNegative(index, selfSizes[dim]),
                                  selfSizes[dim]));
  }
  return position;
}

/// Checks at run time that each index tensor's elements lie in
/// [-size, size) of the dim it indexes, as torch does.
void checkIndices(OpBuilder &b, Location loc, const IndexLayout &layout,
                  ArrayRef<Value> selfSizes, RankedTensorType selfType) {
  IndexMath m{b, loc};
  for (auto [dim, index] : llvm::enumerate(layout.indices))
    if (index)
      checkIndicesInRange(
          b, loc, index, m.sub(m.constant(0), selfSizes[dim]), selfSizes[dim],
          outOfBoundsMessage(dim, selfType.getDimSize(dim)));
}

SmallVector<Value> indexSizes(OpBuilder &b, Location loc, Value self) {
  SmallVector<Value> sizes;
  IndexMath m{b, loc};
  for (OpFoldResult size : tensor::getMixedSizes(b, loc, self))
    sizes.push_back(m.value(size));
  return sizes;
}

struct ConvertIndexTensor : OpConversionPattern<aten::IndexTensorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::IndexTensorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    Location loc = op.getLoc();
    Value self = adaptor.getSelf();
    FailureOr<IndexLayout> layout =
        type ? analyze(rewriter, loc, op.getIndices(), self)
             : FailureOr<IndexLayout>(failure());
    if (failed(layout) || layout->resultRank != type.getRank())
      return rewriter.notifyMatchFailure(
          op, "needs a typed result and a list of integer index tensors "
              "(boolean masks have data-dependent shapes)");
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (Value index : layout->indices) {
      if (!index)
        continue;
      auto indexType = cast<RankedTensorType>(index.getType());
      SmallVector<AffineExpr> exprs;
      for (int64_t dim = 0; dim < indexType.getRank(); ++dim)
        exprs.push_back(indexType.getDimSize(dim) == 1
                            ? rewriter.getAffineConstantExpr(0)
                            : rewriter.getAffineDimExpr(layout->broadcastDim(
                                  dim, indexType.getRank())));
      inputs.push_back(index);
      maps.push_back(AffineMap::get(type.getRank(), 0, exprs, getContext()));
    }
    SmallVector<Value> selfSizes = indexSizes(rewriter, loc, self);
    checkIndices(rewriter, loc, *layout, selfSizes,
                 cast<RankedTensorType>(self.getType()));
    Value result = buildGather(
        rewriter, loc, type, mixResultSizes(type, layout->sizes), inputs, maps,
        [&](OpBuilder &b, Location l, ValueRange args, ValueRange at) -> Value {
          return tensor::ExtractOp::create(
              b, l, self, selfPosition(b, l, *layout, args, selfSizes, at));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// index_put and index_put_: loops over the indexed result's shape, each
/// writing (or adding) the broadcast value at its self index.
template <typename OpTy> struct ConvertIndexPut : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*this->getTypeConverter(), op);
    std::optional<bool> accumulate = matchConstantBool(op.getAccumulate());
    Location loc = op.getLoc();
    Value self = adaptor.getSelf(), values = adaptor.getValues();
    auto valuesType = dyn_cast<RankedTensorType>(values.getType());
    FailureOr<IndexLayout> layout =
        type && accumulate && valuesType
            ? analyze(rewriter, loc, op.getIndices(), self)
            : FailureOr<IndexLayout>(failure());
    if (failed(layout) || valuesType.getRank() > layout->resultRank)
      return rewriter.notifyMatchFailure(
          op, "needs typed tensors, a constant accumulate and a list of "
              "integer index tensors (boolean masks are refused)");
    Type element = type.getElementType();
    bool valuesUnsigned = isUnsignedDtype(op.getValues().getType());
    SmallVector<Value> selfSizes = indexSizes(rewriter, loc, self);
    checkIndices(rewriter, loc, *layout, selfSizes,
                 cast<RankedTensorType>(self.getType()));
    Value dest = castToType(rewriter, loc, self, type);
    Value result = buildScatterLoops(
        rewriter, loc, dest, layout->sizes,
        [&](OpBuilder &b, Location l, ValueRange at, Value into) -> Value {
          SmallVector<Value> elements;
          for (Value index : layout->indices)
            if (index)
              elements.push_back(tensor::ExtractOp::create(
                  b, l, index,
                  indexTensorPosition(b, l, *layout,
                                      cast<RankedTensorType>(index.getType()),
                                      at)));
          SmallVector<Value> target =
              selfPosition(b, l, *layout, elements, selfSizes, at);
          // values broadcast to the indexed shape, aligned on the right.
          SmallVector<Value> source;
          int64_t offset = layout->resultRank - valuesType.getRank();
          for (int64_t dim = 0; dim < valuesType.getRank(); ++dim)
            source.push_back(valuesType.getDimSize(dim) == 1
                                 ? arith::ConstantIndexOp::create(b, l, 0)
                                 : at[offset + dim]);
          Value value =
              castScalar(b, l, tensor::ExtractOp::create(b, l, values, source),
                         element, valuesUnsigned);
          if (*accumulate)
            value = addScalars(
                b, l, tensor::ExtractOp::create(b, l, into, target), value);
          return tensor::InsertOp::create(b, l, value, into, target);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tsir::conversion::populateAdvancedIndexingPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<ConvertIndexTensor, ConvertIndexPut<aten::IndexPutOp>,
               ConvertIndexPut<aten::IndexPut_Op>>(typeConverter,
                                                   patterns.getContext());
}
