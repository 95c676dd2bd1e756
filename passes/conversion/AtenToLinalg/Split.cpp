//===- Split.cpp - convert-aten-to-linalg: chunk, split, unbind -----------===//
//
// The ops that return a `Tensor[]`: chunk, split.Tensor, split.sizes,
// split_with_sizes and unbind.int. A list of tensors has no builtin form,
// so these lower only where every use of the list takes its elements out:
// `prim.ListUnpack`, or `aten.__getitem__.t` with a constant index. Those
// users are replaced by extract_slices of the input; any other use is
// refused (the lists of a loop want populateStaticListDecompositionPatterns
// before optimization).
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "ShapeHelpers.h"

#include "../Common/Utils.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {

/// One element of the result list: its offset and length along the dim.
struct Piece {
  Value offset, length;
};

/// Pieces of `chunk` elements each, the last one shorter.
SmallVector<Piece> fixedPieces(IndexMath &m, Value size, Value chunk,
                               int64_t count) {
  SmallVector<Piece> pieces;
  for (int64_t i = 0; i < count; ++i) {
    Value offset = m.min(m.mul(m.constant(i), chunk), size);
    pieces.push_back({offset, m.min(chunk, m.sub(size, offset))});
  }
  return pieces;
}

/// The number of pieces of a split op, when the input's size along the dim
/// is static; nullopt when only the users can tell.
std::optional<int64_t> staticCount(Operation *op, int64_t size) {
  auto ceilDiv = [](int64_t a, int64_t b) {
    return b <= 0 ? -1 : (a + b - 1) / b;
  };
  if (auto chunk = dyn_cast<aten::ChunkOp>(op)) {
    std::optional<int64_t> chunks = matchConstantInt(chunk.getChunks());
    if (!chunks || *chunks <= 0)
      return std::nullopt;
    // An empty dim gives `chunks` empty pieces.
    return size == 0 ? *chunks : ceilDiv(size, ceilDiv(size, *chunks));
  }
  if (isa<aten::SplitTensorOp>(op)) {
    std::optional<int64_t> step = matchConstantInt(op->getOperand(1));
    if (!step || *step <= 0)
      return std::nullopt;
    return size == 0 ? 1 : ceilDiv(size, *step);
  }
  if (isa<aten::UnbindIntOp>(op))
    return size;
  if (auto sizes = matchConstantIntList(op->getOperand(1)))
    return sizes->size();
  return std::nullopt;
}

template <typename OpTy> struct ConvertSplitLike : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  static constexpr bool unbind = std::is_same_v<OpTy, aten::UnbindIntOp>;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getSelf();
    auto inType = dyn_cast<RankedTensorType>(input.getType());
    if (!inType || inType.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "input has no dtype or rank");
    std::optional<int64_t> dim = matchConstantInt(op.getDim());
    if (dim)
      dim = normalizeDim(*dim, inType.getRank());
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim is not a valid constant");

    // Which elements the users take, and how many the list has.
    std::optional<int64_t> count;
    if (!inType.isDynamicDim(*dim))
      count = staticCount(op, inType.getDimSize(*dim));
    SmallVector<prim::ListUnpackOp> unpacks;
    SmallVector<std::pair<aten::DunderGetitemTOp, int64_t>> getitems;
    for (Operation *user : op->getResult(0).getUsers()) {
      if (auto unpack = dyn_cast<prim::ListUnpackOp>(user)) {
        int64_t n = unpack.getNumResults();
        if (count && *count != n)
          return rewriter.notifyMatchFailure(op, "unpacked to a wrong count");
        count = n;
        unpacks.push_back(unpack);
        continue;
      }
      auto getitem = dyn_cast<aten::DunderGetitemTOp>(user);
      std::optional<int64_t> index =
          getitem ? matchConstantInt(getitem.getIdx()) : std::nullopt;
      if (!index)
        return rewriter.notifyMatchFailure(
            op, "the list has a use other than prim.ListUnpack or "
                "__getitem__ with a constant index");
      getitems.emplace_back(getitem, *index);
    }
    int64_t needed = count.value_or(0);
    for (auto &[getitem, index] : getitems) {
      if (index < 0 && !count)
        return rewriter.notifyMatchFailure(op, "negative index into a list "
                                               "of unknown length");
      if (index < 0)
        index += *count;
      if (index < 0 || (count && index >= *count))
        return rewriter.notifyMatchFailure(op, "index out of range");
      needed = std::max(needed, index + 1);
    }

    // The builtin type of each value that replaces a user's result, checked
    // before anything is built.
    auto convert = [&](Value v) {
      return dyn_cast_or_null<RankedTensorType>(
          this->getTypeConverter()->convertType(v.getType()));
    };
    for (Operation *user : op->getResult(0).getUsers())
      if (!llvm::all_of(user->getResults(), convert))
        return rewriter.notifyMatchFailure(op, "untyped list element");

    Location loc = op.getLoc();
    IndexMath m{rewriter, loc};
    Value size = getDimSize(rewriter, loc, input, *dim);
    FailureOr<SmallVector<Piece>> pieces = cut(op, rewriter, m, size, needed);
    if (failed(pieces))
      return rewriter.notifyMatchFailure(op, "sizes are not ints");
    auto extract = [&](Value replaced, int64_t index) -> Value {
      Piece piece = (*pieces)[index];
      Value slice = extractAlongDim(
          rewriter, loc, input, *dim, IndexMath::fold(piece.offset),
          IndexMath::fold(piece.length), 1, /*dropDim=*/unbind);
      return castToType(rewriter, loc, slice, convert(replaced));
    };
    for (prim::ListUnpackOp unpack : unpacks) {
      SmallVector<Value> values;
      for (auto [i, result] : llvm::enumerate(unpack.getResults()))
        values.push_back(extract(result, i));
      rewriter.replaceOp(unpack, values);
    }
    for (auto [getitem, index] : getitems)
      rewriter.replaceOp(getitem, extract(getitem.getResult(), index));
    rewriter.eraseOp(op);
    return success();
  }

  /// The offsets and lengths of the first `count` elements.
  FailureOr<SmallVector<Piece>> cut(OpTy op,
                                    ConversionPatternRewriter &rewriter,
                                    IndexMath &m, Value size,
                                    int64_t count) const {
    if constexpr (unbind) {
      SmallVector<Piece> pieces;
      for (int64_t i = 0; i < count; ++i)
        pieces.push_back({m.constant(i), m.constant(1)});
      return pieces;
    } else if constexpr (std::is_same_v<OpTy, aten::ChunkOp>) {
      std::optional<int64_t> chunks = matchConstantInt(op.getChunks());
      if (!chunks || *chunks <= 0)
        return failure();
      return fixedPieces(m, size, m.ceilDiv(size, m.constant(*chunks)), count);
    } else if constexpr (std::is_same_v<OpTy, aten::SplitTensorOp>) {
      return fixedPieces(m, size, m.fromInt(op.getSplitSize()), count);
    } else {
      auto sizes = getIntListValues(rewriter, m.loc, op->getOperand(1));
      if (!sizes || static_cast<int64_t>(sizes->size()) < count)
        return failure();
      SmallVector<Piece> pieces;
      Value offset = m.constant(0);
      for (int64_t i = 0; i < count; ++i) {
        Value length = m.fromInt((*sizes)[i]);
        pieces.push_back({offset, length});
        offset = m.add(offset, length);
      }
      return pieces;
    }
  }
};

} // namespace

void tsir::conversion::populateSplitPatterns(const TypeConverter &typeConverter,
                                             RewritePatternSet &patterns) {
  patterns.add<ConvertSplitLike<aten::ChunkOp>,
               ConvertSplitLike<aten::SplitTensorOp>,
               ConvertSplitLike<aten::SplitSizesOp>,
               ConvertSplitLike<aten::SplitWithSizesOp>,
               ConvertSplitLike<aten::UnbindIntOp>>(typeConverter,
                                                    patterns.getContext());
}
