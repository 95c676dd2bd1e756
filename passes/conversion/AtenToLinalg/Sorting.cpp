//===- Sorting.cpp - convert-aten-to-linalg: sort, argsort and topk -------===//
//
// sort, argsort and topk by ranking: each element's position in the sorted
// slice along `dim` is counted by a linalg.generic (the elements that sort
// before it), scattered into a permutation by scf.for loops, and the values
// are gathered through it. This is O(n^2) per slice, which is simple and
// exact for short slices; longer ones, and slices whose length only the run
// knows, are left to the runtime kernels (OrderStatisticKernels.cpp), which
// sort in n log n.
//
// The order is torch's: NaN sorts as the largest value (last ascending,
// first descending), and equal values keep their input order (a stable
// sort), which is what torch's CPU kernels give for sort and for the ties
// of topk in practice, though torch documents neither for stable=False.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "ShapeHelpers.h"

#include "../Common/Utils.h"

#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {

/// Whether `a` sorts strictly before `b`: smaller ascending, larger
/// descending, with NaN the largest float. `isUnsigned` for ui8 and bool.
Value sortsBefore(OpBuilder &b, Location loc, Value a, Value c, bool descending,
                  bool isUnsigned) {
  if (isa<FloatType>(a.getType())) {
    // Ascending: a < c, or c is NaN and a is not. Descending mirrors it.
    Value ordered = arith::CmpFOp::create(
        b, loc,
        descending ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, a,
        c);
    Value aNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, a, a);
    Value cNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, c, c);
    Value trueValue = createScalarConstant(b, loc, b.getI1Type(), 1);
    Value nanFirst =
        descending
            ? arith::AndIOp::create(
                  b, loc, aNaN, arith::XOrIOp::create(b, loc, cNaN, trueValue))
            : arith::AndIOp::create(
                  b, loc, cNaN, arith::XOrIOp::create(b, loc, aNaN, trueValue));
    return arith::OrIOp::create(b, loc, ordered, nanFirst);
  }
  arith::CmpIPredicate predicate =
      isUnsigned
          ? (descending ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::ult)
          : (descending ? arith::CmpIPredicate::sgt
                        : arith::CmpIPredicate::slt);
  return arith::CmpIOp::create(b, loc, predicate, a, c);
}

/// Whether `a` and `c` tie: equal, or both NaN.
Value sortsEqual(OpBuilder &b, Location loc, Value a, Value c) {
  if (!isa<FloatType>(a.getType()))
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, a, c);
  Value equal = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, a, c);
  Value bothNaN = arith::AndIOp::create(
      b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, a, a),
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, c, c));
  return arith::OrIOp::create(b, loc, equal, bothNaN);
}

/// The rank of each element of `input` in its slice along `dim`: how many
/// elements of the slice sort before it, ties broken by position. An i64
/// tensor of the input's shape.
Value buildRanks(OpBuilder &b, Location loc, Value input, int64_t dim,
                 bool descending, bool isUnsigned) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  MLIRContext *context = b.getContext();
  SmallVector<AffineExpr> own, other;
  for (int64_t d = 0; d < rank; ++d) {
    own.push_back(getAffineDimExpr(d, context));
    other.push_back(getAffineDimExpr(d == dim ? rank : d, context));
  }
  AffineMap ownMap = AffineMap::get(rank + 1, 0, own, context);
  AffineMap otherMap = AffineMap::get(rank + 1, 0, other, context);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  Type i64 = b.getI64Type();
  Value init = createFilledTensor(b, loc, type.clone(i64),
                                  createScalarConstant(b, loc, i64, 0),
                                  getDynamicDimSizes(b, loc, input));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{input, input},
      ValueRange{init}, ArrayRef<AffineMap>{ownMap, otherMap, ownMap},
      iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value self = args[0], other = args[1];
        Value selfIndex = linalg::IndexOp::create(nb, l, dim);
        Value otherIndex = linalg::IndexOp::create(nb, l, rank);
        Value earlier = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ult,
                                              otherIndex, selfIndex);
        Value tieBefore = arith::AndIOp::create(
            nb, l, sortsEqual(nb, l, other, self), earlier);
        Value before = arith::OrIOp::create(
            nb, l, sortsBefore(nb, l, other, self, descending, isUnsigned),
            tieBefore);
        Value count = arith::ExtUIOp::create(nb, l, i64, before);
        linalg::YieldOp::create(
            nb, l, ValueRange{arith::AddIOp::create(nb, l, args[2], count)});
      });
  return generic.getResult(0);
}

/// The sorting permutation of `input` along `dim`: an i64 tensor of its
/// shape whose element at position r of a slice is the index (along `dim`)
/// of the element of rank r.
Value buildSortPermutation(OpBuilder &b, Location loc, Value input, int64_t dim,
                           bool descending, bool isUnsigned) {
  auto type = cast<RankedTensorType>(input.getType());
  Value ranks = buildRanks(b, loc, input, dim, descending, isUnsigned);
  Type i64 = b.getI64Type();
  Value dest = createEmptyTensor(b, loc, type.clone(i64),
                                 getDynamicDimSizes(b, loc, input));
  return buildScatterLoops(
      b, loc, dest, tensor::getMixedSizes(b, loc, input),
      [&](OpBuilder &nb, Location l, ValueRange at, Value current) -> Value {
        Value r = tensor::ExtractOp::create(nb, l, ranks, at);
        SmallVector<Value> position(at.begin(), at.end());
        position[dim] = arith::IndexCastOp::create(nb, l, nb.getIndexType(), r);
        Value index = arith::IndexCastOp::create(nb, l, i64, at[dim]);
        return tensor::InsertOp::create(nb, l, index, current, position);
      });
}

/// The elements of `input` in the order of `permutation` (of the shape of
/// the result, `type`) along `dim`.
Value gatherAlongDim(OpBuilder &b, Location loc, Value input, Value permutation,
                     int64_t dim, RankedTensorType type) {
  int64_t rank = type.getRank();
  return buildGather(
      b, loc, type, tensor::getMixedSizes(b, loc, permutation), {permutation},
      {b.getMultiDimIdentityMap(rank)},
      [&](OpBuilder &nb, Location l, ValueRange args, ValueRange at) -> Value {
        SmallVector<Value> position(at.begin(), at.end());
        position[dim] =
            arith::IndexCastOp::create(nb, l, nb.getIndexType(), args[0]);
        return tensor::ExtractOp::create(nb, l, input, position);
      });
}

/// The longest slice sort, argsort and topk rank in compiled code. Ranking
/// compares every pair, n^2 per slice, at about 0.15 ns a pair (vectorized);
/// the runtime kernel sorts in n log n at a few ns a comparison, plus the
/// cost of leaving compiled code. At 1,024 elements ranking takes about
/// 0.15 ms, at SSDlite's 3,234 anchors per class 1.5 ms where the kernel
/// takes 0.1 ms (the ranking was a third of SSDlite's run). 1,024 still
/// covers a classifier's top-5 of 1,000 logits, so such a model compiles
/// whole (and ahead of time).
constexpr int64_t kLongestRankedSlice = 1024;

/// Fails the match for a slice longer than kLongestRankedSlice, or one whose
/// length is unknown until the run (a detection head's scores after a
/// threshold, up to every anchor).
LogicalResult checkRankedSliceLength(Operation *op, RankedTensorType type,
                                     int64_t dim,
                                     ConversionPatternRewriter &rewriter) {
  int64_t size = type.getDimSize(dim);
  if (ShapedType::isDynamic(size))
    return rewriter.notifyMatchFailure(
        op, "the slice's length is unknown until the run; the runtime kernel "
            "sorts it");
  if (size > kLongestRankedSlice)
    return rewriter.notifyMatchFailure(
        op, "the slice is too long to rank in compiled code; the runtime "
            "kernel sorts it");
  return success();
}

/// A sorting op's checked operands and the permutation that sorts its
/// input along dim.
struct SortedAlongDim {
  Value input;
  RankedTensorType inputType;
  int64_t dim;
  Value permutation;
};

/// The operands, checked, and the permutation in the order the constant
/// bool `descending` (sort's descending, topk's largest) asks for; fails
/// for a slice the lowering leaves to the runtime kernel
/// (checkRankedSliceLength).
FailureOr<SortedAlongDim> sortAlongDim(Operation *op, Value input,
                                       Value original, Value dimOperand,
                                       Value descendingOperand,
                                       ConversionPatternRewriter &rewriter) {
  std::optional<bool> descending = matchConstantBool(descendingOperand);
  if (!descending)
    return rewriter.notifyMatchFailure(op, "the order is not a constant");
  auto inputType = dyn_cast<RankedTensorType>(input.getType());
  if (!inputType)
    return rewriter.notifyMatchFailure(op, "unknown dtype or rank");
  std::optional<int64_t> dimValue = matchConstantInt(dimOperand);
  if (!dimValue)
    return rewriter.notifyMatchFailure(op, "dim is not a constant");
  // A 0-d tensor sorts along dim 0 or -1, as a one-element slice.
  std::optional<int64_t> dim =
      normalizeDim(*dimValue, std::max<int64_t>(inputType.getRank(), 1));
  if (!dim) {
    op->emitError() << "dim " << *dimValue
                    << " is out of range for a tensor of rank "
                    << inputType.getRank();
    return failure();
  }
  bool isUnsigned = isUnsignedDtype(original.getType()) ||
                    inputType.getElementType().isInteger(1);
  if (inputType.getRank() == 0) {
    input = tensor::ExpandShapeOp::create(
        rewriter, op->getLoc(),
        RankedTensorType::get({1}, inputType.getElementType()), input,
        ArrayRef<ReassociationIndices>{});
    inputType = cast<RankedTensorType>(input.getType());
  }
  if (failed(checkRankedSliceLength(op, inputType, *dim, rewriter)))
    return failure();
  Value permutation = buildSortPermutation(rewriter, op->getLoc(), input, *dim,
                                           *descending, isUnsigned);
  return SortedAlongDim{input, inputType, *dim, permutation};
}

/// A result computed at rank 1 for a 0-d input, back at rank 0.
Value restoreRank(OpBuilder &b, Location loc, Value value,
                  RankedTensorType type) {
  if (type.getRank() != 0)
    return castToType(b, loc, value, type);
  return tensor::CollapseShapeOp::create(b, loc, type, value,
                                         ArrayRef<ReassociationIndices>{});
}

/// The result types of a values + indices op, checked.
FailureOr<std::pair<RankedTensorType, RankedTensorType>>
readResultTypes(Operation *op, const TypeConverter &converter,
                ConversionPatternRewriter &rewriter) {
  auto values = dyn_cast_or_null<RankedTensorType>(
      converter.convertType(op->getResult(0).getType()));
  auto indices = dyn_cast_or_null<RankedTensorType>(
      converter.convertType(op->getResult(1).getType()));
  if (!values || !indices)
    return rewriter.notifyMatchFailure(op, "unknown result dtype or rank");
  return std::make_pair(values, indices);
}

struct ConvertSort : OpConversionPattern<aten::SortOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::SortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto types = readResultTypes(op, *getTypeConverter(), rewriter);
    if (failed(types))
      return failure();
    auto sorted = sortAlongDim(op, adaptor.getSelf(), op.getSelf(), op.getDim(),
                               op.getDescending(), rewriter);
    if (failed(sorted))
      return failure();
    Location loc = op.getLoc();
    Value values =
        gatherAlongDim(rewriter, loc, sorted->input, sorted->permutation,
                       sorted->dim, sorted->inputType);
    rewriter.replaceOp(
        op, {restoreRank(rewriter, loc, values, types->first),
             restoreRank(rewriter, loc, sorted->permutation, types->second)});
    return success();
  }
};

struct ConvertArgsort : OpConversionPattern<aten::ArgsortOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::ArgsortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    if (!type)
      return rewriter.notifyMatchFailure(op, "unknown result dtype or rank");
    auto sorted = sortAlongDim(op, adaptor.getSelf(), op.getSelf(), op.getDim(),
                               op.getDescending(), rewriter);
    if (failed(sorted))
      return failure();
    rewriter.replaceOp(
        op, restoreRank(rewriter, op.getLoc(), sorted->permutation, type));
    return success();
  }
};

/// topk: the first k of the sort permutation (descending for the largest),
/// always in sorted order, which sorted=False permits.
struct ConvertTopk : OpConversionPattern<aten::TopkOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::TopkOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto types = readResultTypes(op, *getTypeConverter(), rewriter);
    if (failed(types))
      return failure();
    auto sorted = sortAlongDim(op, adaptor.getSelf(), op.getSelf(), op.getDim(),
                               op.getLargest(), rewriter);
    if (failed(sorted))
      return failure();
    Location loc = op.getLoc();
    int64_t dim = sorted->dim;
    Value input = sorted->input;
    std::optional<int64_t> constK = matchConstantInt(op.getK());
    int64_t size = sorted->inputType.getDimSize(dim);
    if (constK &&
        (*constK < 0 || (!ShapedType::isDynamic(size) && *constK > size)))
      return op.emitError()
             << "k = " << *constK << " is out of range for a dim of " << size
             << " elements";
    IndexMath m{rewriter, loc};
    OpFoldResult k = constK ? OpFoldResult(rewriter.getIndexAttr(*constK))
                            : IndexMath::fold(m.fromInt(adaptor.getK()));
    Value first = extractAlongDim(rewriter, loc, sorted->permutation, dim,
                                  rewriter.getIndexAttr(0), k, 1,
                                  /*dropDim=*/false);
    auto firstType = cast<RankedTensorType>(first.getType());
    Value values =
        gatherAlongDim(rewriter, loc, input, first, dim,
                       firstType.clone(sorted->inputType.getElementType()));
    rewriter.replaceOp(op, {restoreRank(rewriter, loc, values, types->first),
                            restoreRank(rewriter, loc, first, types->second)});
    return success();
  }
};

} // namespace

void tsir::conversion::populateSortingPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<ConvertSort, ConvertArgsort, ConvertTopk>(typeConverter,
                                                         patterns.getContext());
}
