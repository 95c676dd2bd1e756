//===- Slices.cpp - convert-aten-to-linalg: slices and index remaps -------===//
//
// The Views family's ops that pick or reorder elements: slice.Tensor,
// select.int and narrow as tensor.extract_slice (with Python's clamping of
// slice bounds, which may be SSA values), slice_scatter and select_scatter
// as tensor.insert_slice at the same places, flip and roll as gathers, and
// repeat and tile as a broadcast into interleaved dims that one collapse
// merges. An index known only at run time is checked there, as torch
// does, and used clamped (IndexChecks.h).
//
//===----------------------------------------------------------------------===//

#include "IndexChecks.h"
#include "PopulatePatterns.h"
#include "ShapeHelpers.h"

#include "../Common/Utils.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {

/// The index operand of select/select_scatter at `dim` of `input`:
/// negative counts from the end; one out of range fails at run time with
/// torch's message (which also names the index), and is clamped.
Value selectIndex(ConversionPatternRewriter &rewriter, Location loc,
                  Value index, Value input, int64_t dim) {
  IndexMath m{rewriter, loc};
  auto type = cast<RankedTensorType>(input.getType());
  Value size = getDimSize(rewriter, loc, input, dim);
  std::string message = "select(): index out of range";
  if (type.hasStaticShape()) {
    message += " for tensor of size [";
    llvm::raw_string_ostream os(message);
    llvm::interleaveComma(type.getShape(), os);
    os << "]";
  }
  message += " at dimension " + std::to_string(dim);
  Value raw = m.fromInt(index);
  checkIndexInRange(rewriter, loc, raw, m.sub(m.constant(0), size), size,
                    message);
  return clampIndex(rewriter, loc, m.wrapNegative(raw, size), size);
}

/// The dim operand of `op` as a dim of a tensor of `rank`.
std::optional<int64_t> constantDim(Value dim, int64_t rank) {
  std::optional<int64_t> d = matchConstantInt(dim);
  return d ? normalizeDim(*d, rank) : std::nullopt;
}

/// An optional int operand: null for None, the remapped i64 otherwise.
FailureOr<Value> optionalInt(ConversionPatternRewriter &rewriter, Value v) {
  if (isNone(v))
    return Value();
  if (!v.getType().isInteger(64))
    return failure();
  return rewriter.getRemappedValue(v);
}

/// Where `input[start:end:step]` along `dim` lies, as slice.Tensor and
/// slice_scatter take it: a constant dim and positive step, and Python's
/// clamped offset and length (with the dim's size).
struct SliceBounds {
  int64_t dim, step;
  Value offset, length, size;
};

template <typename OpT>
FailureOr<SliceBounds> sliceBounds(OpT op, Value input, int64_t rank,
                                   ConversionPatternRewriter &rewriter) {
  std::optional<int64_t> dim = constantDim(op.getDim(), rank);
  std::optional<int64_t> step = matchConstantInt(op.getStep());
  FailureOr<Value> start = optionalInt(rewriter, op.getStart());
  FailureOr<Value> end = optionalInt(rewriter, op.getEnd());
  if (!dim || !step || *step <= 0 || failed(start) || failed(end))
    return rewriter.notifyMatchFailure(
        op, "needs a constant dim, a constant positive step and int or None "
            "bounds");
  IndexMath m{rewriter, op.getLoc()};
  Value size = getDimSize(rewriter, op.getLoc(), input, *dim);
  auto [offset, length] =
      pythonSlice(m, size, *start ? m.fromInt(*start) : Value(),
                  *end ? m.fromInt(*end) : Value(), *step);
  return SliceBounds{*dim, *step, offset, length, size};
}

struct ConvertSlice : OpConversionPattern<aten::SliceTensorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::SliceTensorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    if (!type || type.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "unknown result dtype or rank");
    Location loc = op.getLoc();
    Value input = adaptor.getSelf();
    FailureOr<SliceBounds> b = sliceBounds(op, input, type.getRank(), rewriter);
    if (failed(b))
      return failure();
    // x[:] and friends take the whole dim: no slice.
    if (b->step == 1 && matchPattern(b->offset, m_Zero()) &&
        (b->length == b->size ||
         getConstantIntValue(IndexMath::fold(b->length)) ==
             getConstantIntValue(IndexMath::fold(b->size)))) {
      rewriter.replaceOp(op, castToType(rewriter, loc, input, type));
      return success();
    }
    Value slice = extractAlongDim(rewriter, loc, input, b->dim,
                                  IndexMath::fold(b->offset),
                                  IndexMath::fold(b->length), b->step,
                                  /*dropDim=*/false);
    rewriter.replaceOp(op, castToType(rewriter, loc, slice, type));
    return success();
  }
};

struct ConvertSelect : OpConversionPattern<aten::SelectIntOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::SelectIntOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    Value input = adaptor.getSelf();
    auto inType = cast<RankedTensorType>(input.getType());
    if (!type || inType.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "unknown result type, or 0-d");
    std::optional<int64_t> dim = constantDim(op.getDim(), inType.getRank());
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim is not a valid constant");
    Location loc = op.getLoc();
    Value index = selectIndex(rewriter, loc, adaptor.getIndex(), input, *dim);
    Value slice =
        extractAlongDim(rewriter, loc, input, *dim, IndexMath::fold(index),
                        rewriter.getIndexAttr(1), 1,
                        /*dropDim=*/true);
    rewriter.replaceOp(op, castToType(rewriter, loc, slice, type));
    return success();
  }
};

struct ConvertNarrow : OpConversionPattern<aten::NarrowOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::NarrowOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    if (!type || type.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "unknown result dtype or rank");
    std::optional<int64_t> dim = constantDim(op.getDim(), type.getRank());
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim is not a valid constant");
    Location loc = op.getLoc();
    Value input = adaptor.getSelf();
    IndexMath m{rewriter, loc};
    Value start = m.wrapNegative(m.fromInt(adaptor.getStart()),
                                 getDimSize(rewriter, loc, input, *dim));
    Value slice = extractAlongDim(
        rewriter, loc, input, *dim, IndexMath::fold(start),
        IndexMath::fold(m.fromInt(adaptor.getLength())), 1, false);
    rewriter.replaceOp(op, castToType(rewriter, loc, slice, type));
    return success();
  }
};

/// slice_scatter(self, src, dim, start, end, step): self with `src`
/// written where slice.Tensor with the same arguments reads.
struct ConvertSliceScatter : OpConversionPattern<aten::SliceScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::SliceScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    auto srcType = dyn_cast<RankedTensorType>(adaptor.getSrc().getType());
    if (!type || type.getRank() == 0 || !srcType ||
        srcType.getRank() != type.getRank() ||
        srcType.getElementType() != type.getElementType())
      return rewriter.notifyMatchFailure(
          op, "needs ranked self and src of the same rank and dtype");
    Location loc = op.getLoc();
    Value self = castToType(rewriter, loc, adaptor.getSelf(), type);
    FailureOr<SliceBounds> b = sliceBounds(op, self, type.getRank(), rewriter);
    if (failed(b))
      return failure();
    rewriter.replaceOp(op, insertAlongDim(rewriter, loc, self, adaptor.getSrc(),
                                          b->dim, IndexMath::fold(b->offset),
                                          IndexMath::fold(b->length), b->step,
                                          /*dropDim=*/false));
    return success();
  }
};

/// select_scatter(self, src, dim, index): self with `src` (one dim fewer)
/// written at `index` along `dim`.
struct ConvertSelectScatter : OpConversionPattern<aten::SelectScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::SelectScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    auto srcType = dyn_cast<RankedTensorType>(adaptor.getSrc().getType());
    if (!type || type.getRank() == 0 || !srcType ||
        srcType.getRank() + 1 != type.getRank() ||
        srcType.getElementType() != type.getElementType())
      return rewriter.notifyMatchFailure(
          op, "needs src of one dim fewer than self, of the same dtype");
    std::optional<int64_t> dim = constantDim(op.getDim(), type.getRank());
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim is not a valid constant");
    Location loc = op.getLoc();
    Value self = castToType(rewriter, loc, adaptor.getSelf(), type);
    Value index = selectIndex(rewriter, loc, adaptor.getIndex(), self, *dim);
    rewriter.replaceOp(op, insertAlongDim(rewriter, loc, self, adaptor.getSrc(),
                                          *dim, IndexMath::fold(index),
                                          rewriter.getIndexAttr(1), 1,
                                          /*dropDim=*/true));
    return success();
  }
};

/// A gather from `input` into a tensor of `type` (the input's shape) whose
/// input index along each dim is `remap(dim, resultIndex)`.
template <typename RemapFn>
Value buildRemap(OpBuilder &rewriter, Location loc, RankedTensorType type,
                 Value input, RemapFn remap) {
  input = castToType(rewriter, loc, input, type);
  return buildGather(
      rewriter, loc, type, tensor::getMixedSizes(rewriter, loc, input), {}, {},
      [&](OpBuilder &b, Location l, ValueRange, ValueRange indices) {
        SmallVector<Value> inputIndices;
        for (auto [dim, index] : llvm::enumerate(indices))
          inputIndices.push_back(remap(b, l, dim, index));
        return tensor::ExtractOp::create(b, l, input, inputIndices);
      });
}

struct ConvertFlip : OpConversionPattern<aten::FlipOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::FlipOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    auto dims = matchConstantIntList(op.getDims());
    if (!type || !dims)
      return rewriter.notifyMatchFailure(op, "needs a typed result and "
                                             "constant dims");
    Location loc = op.getLoc();
    Value input = adaptor.getSelf();
    // The last index of each flipped dim, computed outside the loop.
    SmallVector<Value> last(type.getRank());
    IndexMath m{rewriter, loc};
    for (int64_t dim : *dims) {
      std::optional<int64_t> d = normalizeDim(dim, type.getRank());
      if (!d)
        return rewriter.notifyMatchFailure(op, "invalid dim");
      if (type.getRank() > 0)
        last[*d] = m.sub(getDimSize(rewriter, loc, input, *d), m.constant(1));
    }
    rewriter.replaceOp(
        op,
        buildRemap(
            rewriter, loc, type, input,
            [&](OpBuilder &b, Location l, int64_t dim, Value index) {
              if (!last[dim])
                return index;
              return arith::SubIOp::create(b, l, last[dim], index).getResult();
            }));
    return success();
  }
};

struct ConvertRoll : OpConversionPattern<aten::RollOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::RollOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    auto shifts = matchConstantIntList(op.getShifts());
    auto dims = matchConstantIntList(op.getDims());
    if (!type || !shifts || !dims)
      return rewriter.notifyMatchFailure(op, "needs a typed result and "
                                             "constant shifts and dims");
    Location loc = op.getLoc();
    Value input = castToType(rewriter, loc, adaptor.getSelf(), type);
    IndexMath m{rewriter, loc};
    // Without dims, torch rolls the flattened tensor and restores its shape.
    RankedTensorType rollType = type;
    if (dims->empty()) {
      if (shifts->size() != 1)
        return rewriter.notifyMatchFailure(op, "one shift without dims");
      rollType =
          RankedTensorType::get({type.hasStaticShape() ? type.getNumElements()
                                                       : ShapedType::kDynamic},
                                type.getElementType());
      Value numel = m.constant(1);
      for (OpFoldResult s : tensor::getMixedSizes(rewriter, loc, input))
        numel = m.mul(numel, m.value(s));
      input =
          reshapeTo(rewriter, loc, input, rollType, {IndexMath::fold(numel)});
      dims->push_back(0);
    }
    if (shifts->size() != dims->size())
      return rewriter.notifyMatchFailure(op, "one shift per dim");
    // Result index i reads input index (i - shift) mod size, kept in
    // [0, size) as (i + (size - shift mod size)) mod size.
    SmallVector<Value> sizes(rollType.getRank()), offsets(rollType.getRank());
    for (auto [shift, dim] : llvm::zip(*shifts, *dims)) {
      std::optional<int64_t> d = normalizeDim(dim, rollType.getRank());
      if (!d || rollType.getRank() == 0)
        return rewriter.notifyMatchFailure(op, "invalid dim");
      sizes[*d] = getDimSize(rewriter, loc, input, *d);
      offsets[*d] = offsets[*d] ? m.add(offsets[*d], m.constant(-shift))
                                : m.constant(-shift);
    }
    for (auto [size, offset] : llvm::zip(sizes, offsets))
      if (size)
        offset = m.sub(size, m.rem(m.sub(m.constant(0), offset), size));
    Value rolled = buildRemap(
        rewriter, loc, rollType, input,
        [&](OpBuilder &b, Location l, int64_t dim, Value index) {
          if (!sizes[dim])
            return index;
          Value shifted = arith::AddIOp::create(b, l, index, offsets[dim]);
          return arith::RemSIOp::create(b, l, shifted, sizes[dim]).getResult();
        });
    if (rollType != type)
      rolled =
          reshapeTo(rewriter, loc, rolled, type,
                    tensor::getMixedSizes(rewriter, loc, adaptor.getSelf()));
    rewriter.replaceOp(op, rolled);
    return success();
  }
};

/// repeat and tile: the input broadcast into a shape that interleaves a
/// repeat count before each of its dims, then the pairs collapsed.
template <typename OpTy> struct ConvertRepeat : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*this->getTypeConverter(), op);
    Location loc = op.getLoc();
    auto repeats = getIntListValues(rewriter, loc, op->getOperand(1));
    if (!type || !repeats)
      return rewriter.notifyMatchFailure(op, "needs a typed result and "
                                             "a list of repeats");
    Value input = adaptor.getSelf();
    auto inType = cast<RankedTensorType>(input.getType());
    int64_t rank = inType.getRank();
    // tile pads missing repeats with leading 1s; repeat requires them.
    if (std::is_same_v<OpTy, aten::TileOp> &&
        static_cast<int64_t>(repeats->size()) < rank) {
      Value one = arith::ConstantOp::create(rewriter, loc,
                                            rewriter.getI64IntegerAttr(1));
      repeats->insert(repeats->begin(), rank - repeats->size(), one);
    }
    int64_t leading = repeats->size() - rank;
    if (leading < 0 || static_cast<int64_t>(repeats->size()) != type.getRank())
      return rewriter.notifyMatchFailure(op, "fewer repeats than dims");
    IndexMath m{rewriter, loc};
    SmallVector<OpFoldResult> in = tensor::getMixedSizes(rewriter, loc, input);
    SmallVector<OpFoldResult> wideSizes;
    SmallVector<int64_t> wideShape, added;
    SmallVector<ReassociationIndices> groups;
    for (auto [i, repeat] : llvm::enumerate(*repeats)) {
      ReassociationIndices group;
      OpFoldResult count = IndexMath::fold(m.fromInt(repeat));
      group.push_back(wideSizes.size());
      added.push_back(wideSizes.size());
      wideSizes.push_back(count);
      if (static_cast<int64_t>(i) >= leading) {
        group.push_back(wideSizes.size());
        wideSizes.push_back(in[i - leading]);
      }
      groups.push_back(group);
    }
    for (OpFoldResult size : wideSizes)
      wideShape.push_back(
          getConstantIntValue(size).value_or(ShapedType::kDynamic));
    auto wideType = RankedTensorType::get(wideShape, type.getElementType());
    Value init = createEmpty(rewriter, loc, wideType, wideSizes);
    Value wide = linalg::BroadcastOp::create(rewriter, loc, input, init, added)
                     ->getResult(0);
    Value result = tensor::CollapseShapeOp::create(rewriter, loc, wide, groups);
    rewriter.replaceOp(op, castToType(rewriter, loc, result, type));
    return success();
  }
};

} // namespace

void tsir::conversion::populateSlicePatterns(const TypeConverter &typeConverter,
                                             RewritePatternSet &patterns) {
  patterns
      .add<ConvertSlice, ConvertSelect, ConvertNarrow, ConvertSliceScatter,
           ConvertSelectScatter, ConvertFlip, ConvertRoll,
           ConvertRepeat<aten::RepeatOp>, ConvertRepeat<aten::TileOp>>(
          typeConverter, patterns.getContext());
}
