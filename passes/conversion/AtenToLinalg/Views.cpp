//===- Views.cpp - convert-aten-to-linalg: reshapes, permutes, copies -----===//
//
// The view ops as value-producing tensor ops: reshapes (view, reshape,
// flatten, unflatten, squeeze, unsqueeze) as collapse/expand_shape,
// permutations as linalg.transpose, expand as a broadcasting linalg.generic,
// and the copies and aliases (contiguous, clone, detach, alias) as the
// value itself. Value semantics hold when this runs (in-place ops were made
// functional), so a view never has to share storage with its base.
// Slices and the other index-remapping views are in Slices.cpp.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "ShapeHelpers.h"

#include "../Common/Utils.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {

/// Whether every tensor among `operands` (converted) has a known rank: the
/// patterns here read sizes, which a tensor of unknown rank does not have
/// (the type converter leaves such a `!prim.tensor` as it is).
bool ranksKnown(ValueRange operands) {
  return llvm::all_of(operands, [](Value operand) {
    Type type = operand.getType();
    return !isa<TensorType, prim::TensorType>(type) ||
           isa<RankedTensorType>(type);
  });
}

/// The sizes of `tensor`, one OpFoldResult per dim.
SmallVector<OpFoldResult> sizesOf(OpBuilder &b, Location loc, Value tensor) {
  return tensor::getMixedSizes(b, loc, tensor);
}

/// The product of `sizes`.
Value product(IndexMath &m, ArrayRef<OpFoldResult> sizes) {
  Value result = m.constant(1);
  for (OpFoldResult size : sizes)
    result = m.mul(result, m.value(size));
  return result;
}

/// Sizes given as an int list with at most one -1, which stands for what
/// `total` elements leave over (view, reshape, unflatten). An entry known
/// only at run time (a list the graph builds from sizes) may be that -1
/// itself: it is tested where the code runs, and takes the inferred size
/// when it is. The division is by at least 1, so that a zero size never
/// divides by zero.
SmallVector<OpFoldResult> inferMinusOne(IndexMath &m, ArrayRef<Value> ints,
                                        Value total) {
  SmallVector<OpFoldResult> sizes;
  std::optional<size_t> inferred;
  SmallVector<std::pair<size_t, Value>> maybeInferred;
  Value known = m.constant(1);
  for (auto [i, v] : llvm::enumerate(ints)) {
    std::optional<int64_t> constant = matchConstantInt(v);
    if (constant == -1) {
      inferred = i;
      sizes.push_back(OpFoldResult());
      continue;
    }
    Value size = m.fromInt(v);
    sizes.push_back(IndexMath::fold(size));
    if (!constant) {
      Value isInferred =
          arith::CmpIOp::create(m.b, m.loc, arith::CmpIPredicate::eq, size,
                                m.constant(-1));
      maybeInferred.push_back({i, isInferred});
      size = arith::SelectOp::create(m.b, m.loc, isInferred, m.constant(1),
                                     size);
    }
    known = m.mul(known, size);
  }
  if (!inferred && maybeInferred.empty())
    return sizes;
  Value rest = m.div(total, m.max(known, m.constant(1)));
  if (inferred)
    sizes[*inferred] = IndexMath::fold(rest);
  for (auto [i, isInferred] : maybeInferred)
    sizes[i] = arith::SelectOp::create(m.b, m.loc, isInferred, rest,
                                       m.value(sizes[i]))
                   .getResult();
  return sizes;
}

/// The patterns of this file apply once every tensor operand has a known
/// rank and the result a known rank and dtype; they rewrite with the
/// converted result type in hand.
template <typename OpTy> struct ViewPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (!ranksKnown(adaptor.getOperands()))
      return rewriter.notifyMatchFailure(op, "an operand's rank is not known");
    RankedTensorType type = getResultTensorType(*this->getTypeConverter(), op);
    if (!type)
      return rewriter.notifyMatchFailure(op, "unknown result dtype or rank");
    return rewriteView(op, adaptor, type, rewriter);
  }
  virtual LogicalResult
  rewriteView(OpTy op, OpAdaptor adaptor, RankedTensorType type,
              ConversionPatternRewriter &rewriter) const = 0;
};

/// Replaces a reshaping op by `input` reshaped to its result type, whose
/// dynamic dims take their sizes from `computed` (one entry per dim).
LogicalResult replaceWithReshape(ConversionPatternRewriter &rewriter,
                                 Operation *op, RankedTensorType type,
                                 Value input, ArrayRef<OpFoldResult> computed) {
  if (computed.size() != static_cast<size_t>(type.getRank()))
    return rewriter.notifyMatchFailure(op, "result rank mismatch");
  auto inType = cast<RankedTensorType>(input.getType());
  if (inType.hasStaticShape() && type.hasStaticShape() &&
      inType.getNumElements() != type.getNumElements())
    return rewriter.notifyMatchFailure(op, "element counts differ");
  Value result = reshapeTo(rewriter, op->getLoc(), input, type,
                           mixResultSizes(type, computed));
  rewriter.replaceOp(op, result);
  return success();
}

/// view/reshape: sizes from the int list, one of which may be -1.
template <typename OpTy> struct ConvertViewLike : ViewPattern<OpTy> {
  using ViewPattern<OpTy>::ViewPattern;
  LogicalResult
  rewriteView(OpTy op, typename OpTy::Adaptor adaptor, RankedTensorType type,
              ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getSelf();
    auto ints = getIntListValues(rewriter, loc, op->getOperand(1));
    if (!ints)
      return rewriter.notifyMatchFailure(op, "size is not a list of ints");
    IndexMath m{rewriter, loc};
    Value total = product(m, sizesOf(rewriter, loc, input));
    return replaceWithReshape(rewriter, op, type, input,
                              inferMinusOne(m, *ints, total));
  }
};

/// view_as/reshape_as: the sizes of `other`.
template <typename OpTy> struct ConvertViewAsLike : ViewPattern<OpTy> {
  using ViewPattern<OpTy>::ViewPattern;
  LogicalResult
  rewriteView(OpTy op, typename OpTy::Adaptor adaptor, RankedTensorType type,
              ConversionPatternRewriter &rewriter) const override {
    return replaceWithReshape(
        rewriter, op, type, adaptor.getSelf(),
        sizesOf(rewriter, op.getLoc(), adaptor.getOther()));
  }
};

struct ConvertFlatten : ViewPattern<aten::FlattenUsingIntsOp> {
  using ViewPattern::ViewPattern;
  LogicalResult
  rewriteView(aten::FlattenUsingIntsOp op, OpAdaptor adaptor,
              RankedTensorType type,
              ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> start = matchConstantInt(op.getStartDim());
    std::optional<int64_t> end = matchConstantInt(op.getEndDim());
    if (!start || !end)
      return rewriter.notifyMatchFailure(op, "needs a typed result and "
                                             "constant dims");
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> in = sizesOf(rewriter, loc, adaptor.getSelf());
    int64_t rank = in.size();
    if (rank == 0)
      return replaceWithReshape(rewriter, op, type, adaptor.getSelf(),
                                {rewriter.getIndexAttr(1)});
    std::optional<int64_t> first = normalizeDim(*start, rank);
    std::optional<int64_t> last = normalizeDim(*end, rank);
    if (!first || !last || *first > *last)
      return rewriter.notifyMatchFailure(op, "invalid dims");
    IndexMath m{rewriter, loc};
    SmallVector<OpFoldResult> sizes(in.begin(), in.begin() + *first);
    sizes.push_back(IndexMath::fold(
        product(m, ArrayRef(in).slice(*first, *last - *first + 1))));
    sizes.append(in.begin() + *last + 1, in.end());
    return replaceWithReshape(rewriter, op, type, adaptor.getSelf(), sizes);
  }
};

struct ConvertUnflatten : ViewPattern<aten::UnflattenIntOp> {
  using ViewPattern::ViewPattern;
  LogicalResult
  rewriteView(aten::UnflattenIntOp op, OpAdaptor adaptor, RankedTensorType type,
              ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> dim = matchConstantInt(op.getDim());
    Location loc = op.getLoc();
    auto ints = getIntListValues(rewriter, loc, op.getSizes());
    if (!dim || !ints)
      return rewriter.notifyMatchFailure(op, "needs a typed result, a "
                                             "constant dim and a size list");
    SmallVector<OpFoldResult> in = sizesOf(rewriter, loc, adaptor.getSelf());
    std::optional<int64_t> d = normalizeDim(*dim, in.size());
    if (!d || in.empty())
      return rewriter.notifyMatchFailure(op, "invalid dim");
    IndexMath m{rewriter, loc};
    SmallVector<OpFoldResult> sizes(in.begin(), in.begin() + *d);
    llvm::append_range(sizes, inferMinusOne(m, *ints, m.value(in[*d])));
    sizes.append(in.begin() + *d + 1, in.end());
    return replaceWithReshape(rewriter, op, type, adaptor.getSelf(), sizes);
  }
};

/// squeeze, squeeze.dim and their in-place forms: the result type says which
/// dims went (a dynamic dim is only squeezed if refinement proved it 1).
template <typename OpTy> struct ConvertSqueeze : ViewPattern<OpTy> {
  using ViewPattern<OpTy>::ViewPattern;
  LogicalResult
  rewriteView(OpTy op, typename OpTy::Adaptor adaptor, RankedTensorType type,
              ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getSelf();
    SmallVector<OpFoldResult> in = sizesOf(rewriter, loc, input);
    auto inType = cast<RankedTensorType>(input.getType());
    std::optional<int64_t> onlyDim;
    if (op->getNumOperands() == 2) {
      std::optional<int64_t> dim = matchConstantInt(op->getOperand(1));
      if (!dim)
        return rewriter.notifyMatchFailure(op, "dim is not a constant");
      onlyDim = normalizeDim(*dim, inType.getRank());
      if (!onlyDim)
        return rewriter.notifyMatchFailure(op, "invalid dim");
    }
    SmallVector<OpFoldResult> sizes;
    for (int64_t dim = 0; dim < inType.getRank(); ++dim) {
      bool candidate = !onlyDim || *onlyDim == dim;
      if (!(candidate && inType.getDimSize(dim) == 1))
        sizes.push_back(in[dim]);
    }
    if (sizes.size() != static_cast<size_t>(type.getRank()))
      return rewriter.notifyMatchFailure(
          op, "cannot tell which dynamic dims are squeezed");
    return replaceWithReshape(rewriter, op, type, input, sizes);
  }
};

template <typename OpTy> struct ConvertUnsqueeze : ViewPattern<OpTy> {
  using ViewPattern<OpTy>::ViewPattern;
  LogicalResult
  rewriteView(OpTy op, typename OpTy::Adaptor adaptor, RankedTensorType type,
              ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> dim = matchConstantInt(op.getDim());
    if (!dim)
      return rewriter.notifyMatchFailure(op, "needs a typed result and a "
                                             "constant dim");
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> sizes = sizesOf(rewriter, loc, adaptor.getSelf());
    std::optional<int64_t> d = normalizeDim(*dim, sizes.size() + 1);
    if (!d)
      return rewriter.notifyMatchFailure(op, "invalid dim");
    sizes.insert(sizes.begin() + *d, rewriter.getIndexAttr(1));
    return replaceWithReshape(rewriter, op, type, adaptor.getSelf(), sizes);
  }
};

/// Replaces `op` by `input` with its dims permuted: result dim i is input
/// dim `permutation[i]`.
LogicalResult replaceWithTranspose(ConversionPatternRewriter &rewriter,
                                   Operation *op, RankedTensorType type,
                                   Value input, ArrayRef<int64_t> permutation) {
  Location loc = op->getLoc();
  if (llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size()))) {
    rewriter.replaceOp(op, castToType(rewriter, loc, input, type));
    return success();
  }
  SmallVector<OpFoldResult> in = sizesOf(rewriter, loc, input);
  SmallVector<OpFoldResult> sizes;
  for (int64_t dim : permutation)
    sizes.push_back(in[dim]);
  Value init = createEmpty(rewriter, loc, type, sizes);
  input = castToType(rewriter, loc, input,
                     RankedTensorType::get(
                         applyPermutation(type.getShape(),
                                          invertPermutationVector(permutation)),
                         type.getElementType()));
  rewriter.replaceOp(
      op, linalg::TransposeOp::create(rewriter, loc, input, init, permutation)
              ->getResult(0));
  return success();
}

struct ConvertPermute : ViewPattern<aten::PermuteOp> {
  using ViewPattern::ViewPattern;
  LogicalResult
  rewriteView(aten::PermuteOp op, OpAdaptor adaptor, RankedTensorType type,
              ConversionPatternRewriter &rewriter) const override {
    auto dims = matchConstantIntList(op.getDims());
    if (!dims || dims->size() != static_cast<size_t>(type.getRank()))
      return rewriter.notifyMatchFailure(op, "needs a typed result and "
                                             "constant dims");
    SmallVector<int64_t> permutation;
    for (int64_t dim : *dims) {
      std::optional<int64_t> d = normalizeDim(dim, type.getRank());
      if (!d || llvm::is_contained(permutation, *d))
        return rewriter.notifyMatchFailure(op, "dims are not a permutation");
      permutation.push_back(*d);
    }
    return replaceWithTranspose(rewriter, op, type, adaptor.getSelf(),
                                permutation);
  }
};

/// transpose.int and t (t is transpose(0, 1), and the identity below 2-D).
template <typename OpTy> struct ConvertTranspose : ViewPattern<OpTy> {
  using ViewPattern<OpTy>::ViewPattern;
  LogicalResult
  rewriteView(OpTy op, typename OpTy::Adaptor adaptor, RankedTensorType type,
              ConversionPatternRewriter &rewriter) const override {
    int64_t rank = type.getRank();
    std::optional<int64_t> dim0 = 0, dim1 = rank < 2 ? 0 : 1;
    if (op->getNumOperands() == 3) {
      dim0 = matchConstantInt(op->getOperand(1));
      dim1 = matchConstantInt(op->getOperand(2));
      if (!dim0 || !dim1)
        return rewriter.notifyMatchFailure(op, "dims are not constants");
      dim0 = normalizeDim(*dim0, rank);
      dim1 = normalizeDim(*dim1, rank);
      if (!dim0 || !dim1)
        return rewriter.notifyMatchFailure(op, "invalid dims");
    }
    auto permutation = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    if (rank > 0)
      std::swap(permutation[*dim0], permutation[*dim1]);
    return replaceWithTranspose(rewriter, op, type, adaptor.getSelf(),
                                permutation);
  }
};

struct ConvertMovedim : ViewPattern<aten::MovedimIntOp> {
  using ViewPattern::ViewPattern;
  LogicalResult
  rewriteView(aten::MovedimIntOp op, OpAdaptor adaptor, RankedTensorType type,
              ConversionPatternRewriter &rewriter) const override {
    int64_t rank = type.getRank();
    std::optional<int64_t> source = matchConstantInt(op.getSource());
    std::optional<int64_t> destination = matchConstantInt(op.getDestination());
    if (source)
      source = normalizeDim(*source, rank);
    if (destination)
      destination = normalizeDim(*destination, rank);
    if (!source || !destination)
      return rewriter.notifyMatchFailure(op, "invalid or non-constant dims");
    SmallVector<int64_t> permutation;
    for (int64_t dim = 0; dim < rank; ++dim)
      if (dim != *source)
        permutation.push_back(dim);
    if (rank > 0)
      permutation.insert(permutation.begin() + *destination, *source);
    return replaceWithTranspose(rewriter, op, type, adaptor.getSelf(),
                                permutation);
  }
};

/// The size of result dim `out` of expand for the size list's element `v`:
/// -1 keeps the input's size `in[out - leading]` (decided at run time when
/// `v` is not a constant). A size known only at run time is checked there
/// as torch checks it.
static OpFoldResult expandedSize(OpBuilder &b, Location loc, Value v,
                                 int64_t out, int64_t leading,
                                 ArrayRef<OpFoldResult> in) {
  int64_t dim = out - leading;
  std::optional<int64_t> constant = matchConstantInt(v);
  if (constant == -1 && dim >= 0)
    return in[dim];
  IndexMath m{b, loc};
  Value size = m.fromInt(v);
  if (constant)
    return IndexMath::fold(size);
  Value minusOne = m.constant(-1);
  Value keeps =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, minusOne);
  if (dim >= 0)
    size = arith::SelectOp::create(b, loc, keeps, m.value(in[dim]), size);
  Value nonNegative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                            size, m.constant(0));
  cf::AssertOp::create(
      b, loc, nonNegative,
      dim >= 0 ? "Trying to create tensor with negative dimension"
               : "The expanded size of the tensor (-1) isn't allowed in a "
                 "leading, non-existing dimension " +
                     std::to_string(out));
  // The code after a failed check runs on (it cannot unwind): it must not
  // allocate a negative size.
  return m.max(size, m.constant(0));
}

/// torch's check of an input dim expand keeps: its size must be the
/// result's (`out` is the result's dim). Returns the result's size to use,
/// which never exceeds the input's: the code after a failed check runs on
/// (it cannot unwind) and must not read past the input.
static OpFoldResult checkSizesEqual(OpBuilder &b, Location loc,
                                    OpFoldResult input, OpFoldResult result,
                                    int64_t out) {
  IndexMath m{b, loc};
  Value inputSize = m.value(input), resultSize = m.value(result);
  Value equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      inputSize, resultSize);
  cf::AssertOp::create(b, loc, equal,
                       "The expanded size of the tensor must match the "
                       "existing size at non-singleton dimension " +
                           std::to_string(out));
  return IndexMath::fold(m.min(inputSize, resultSize));
}

/// expand and expand_as: a linalg.generic reading the input's dim 0 where a
/// size-1 dim is broadcast. A dynamic input dim is taken to match the
/// result's (an expand that broadcasts it needs its size refined to 1).
template <typename OpTy> struct ConvertExpand : ViewPattern<OpTy> {
  using ViewPattern<OpTy>::ViewPattern;
  LogicalResult
  rewriteView(OpTy op, typename OpTy::Adaptor adaptor, RankedTensorType type,
              ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getSelf();
    auto inType = cast<RankedTensorType>(input.getType());
    int64_t rank = type.getRank(), leading = rank - inType.getRank();
    if (leading < 0)
      return rewriter.notifyMatchFailure(op, "result rank below input rank");
    // The result's sizes: from `other`, or from the size list where it is
    // not -1, else the input's.
    SmallVector<OpFoldResult> in = sizesOf(rewriter, loc, input);
    SmallVector<OpFoldResult> computed;
    if constexpr (std::is_same_v<OpTy, aten::ExpandAsOp>) {
      computed = sizesOf(rewriter, loc, adaptor.getOther());
    } else {
      auto ints = getIntListValues(rewriter, loc, op.getSize());
      if (!ints || ints->size() != static_cast<size_t>(rank))
        return rewriter.notifyMatchFailure(op, "size is not a list of ints");
      for (auto [dim, v] : llvm::enumerate(*ints))
        computed.push_back(expandedSize(rewriter, loc, v, dim, leading, in));
    }
    SmallVector<AffineExpr> exprs;
    for (int64_t dim = 0; dim < inType.getRank(); ++dim) {
      int64_t out = dim + leading;
      bool broadcast = inType.getDimSize(dim) == 1 && type.getDimSize(out) != 1;
      exprs.push_back(broadcast ? rewriter.getAffineConstantExpr(0)
                                : rewriter.getAffineDimExpr(out));
      // A dim read as it is must have the result's size: known only at run
      // time, that is checked there, before anything reads out of bounds.
      if (!broadcast && computed[out] != in[dim])
        computed[out] =
            checkSizesEqual(rewriter, loc, in[dim], computed[out], out);
    }
    AffineMap map = AffineMap::get(rank, 0, exprs, rewriter.getContext());
    Value result = buildGather(
        rewriter, loc, type, mixResultSizes(type, computed), input, map,
        [](OpBuilder &, Location, ValueRange args, ValueRange) {
          return args[0];
        },
        /*withIndices=*/false);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// contiguous, clone, detach, alias: under value semantics, the value.
template <typename OpTy> struct ConvertToSelf : ViewPattern<OpTy> {
  using ViewPattern<OpTy>::ViewPattern;
  LogicalResult
  rewriteView(OpTy op, typename OpTy::Adaptor adaptor, RankedTensorType type,
              ConversionPatternRewriter &rewriter) const override {
    auto inType = dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    if (!inType || inType.getElementType() != type.getElementType() ||
        inType.getRank() != type.getRank())
      return rewriter.notifyMatchFailure(op, "result type differs from input");
    rewriter.replaceOp(
        op, castToType(rewriter, op.getLoc(), adaptor.getSelf(), type));
    return success();
  }
};

/// view.dtype between element types of one width: a bitcast per element.
struct ConvertViewDtype : ViewPattern<aten::ViewDtypeOp> {
  using ViewPattern::ViewPattern;
  LogicalResult
  rewriteView(aten::ViewDtypeOp op, OpAdaptor adaptor, RankedTensorType type,
              ConversionPatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(adaptor.getSelf().getType());
    Type from = inType.getElementType(), to = type.getElementType();
    if (from.getIntOrFloatBitWidth() != to.getIntOrFloatBitWidth() ||
        from.isInteger(1) || to.isInteger(1) ||
        inType.getShape() != type.getShape())
      return rewriter.notifyMatchFailure(
          op, "only views between dtypes of one width (not bool) lower");
    Location loc = op.getLoc();
    AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
    Value result = buildGather(
        rewriter, loc, type, sizesOf(rewriter, loc, adaptor.getSelf()),
        adaptor.getSelf(), identity,
        [&](OpBuilder &b, Location l, ValueRange args, ValueRange) -> Value {
          if (from == to)
            return args[0];
          return arith::BitcastOp::create(b, l, to, args[0]);
        },
        /*withIndices=*/false);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tsir::conversion::populateViewsPatterns(const TypeConverter &typeConverter,
                                             RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<
      ConvertViewLike<aten::ViewOp>, ConvertViewLike<aten::ReshapeOp>,
      ConvertViewAsLike<aten::ViewAsOp>, ConvertViewAsLike<aten::ReshapeAsOp>,
      ConvertFlatten, ConvertUnflatten, ConvertSqueeze<aten::SqueezeOp>,
      ConvertSqueeze<aten::SqueezeDimOp>, ConvertSqueeze<aten::Squeeze_Op>,
      ConvertSqueeze<aten::Squeeze_DimOp>, ConvertUnsqueeze<aten::UnsqueezeOp>,
      ConvertUnsqueeze<aten::Unsqueeze_Op>, ConvertPermute,
      ConvertTranspose<aten::TransposeIntOp>, ConvertTranspose<aten::TOp>,
      ConvertMovedim, ConvertExpand<aten::ExpandOp>,
      ConvertExpand<aten::ExpandAsOp>, ConvertToSelf<aten::ContiguousOp>,
      ConvertToSelf<aten::CloneOp>, ConvertToSelf<aten::DetachOp>,
      ConvertToSelf<aten::AliasOp>, ConvertViewDtype>(typeConverter, context);
  populateSlicePatterns(typeConverter, patterns);
  populateDiagonalPatterns(typeConverter, patterns);
}
