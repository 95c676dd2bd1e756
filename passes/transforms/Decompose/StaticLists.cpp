//===- StaticLists.cpp - Split ops into lists of slices -------------------===//
//
// populateStaticListDecompositionPatterns (Decompositions.h): chunk, split,
// unbind, tensor_split and the h/v/dsplits with statically known pieces become a prim.ListConstruct of
// aten.slice.Tensor/aten.select.int results, so that no `Tensor[]` value is
// left for the lowering where the optimizer can fold the list away.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Decompositions.h"

#include "tsir/Transforms/ConstantMatchers.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include <algorithm>

using namespace mlir;
using namespace tsir;

namespace {

/// One element of the list: `length` elements from `start` along the dim.
struct Piece {
  int64_t start, length;
};

/// Pieces of `step` elements each (the last one shorter), at least one.
SmallVector<Piece> fixedPieces(int64_t size, int64_t step) {
  SmallVector<Piece> pieces;
  for (int64_t start = 0; start < size; start += step)
    pieces.push_back({start, std::min(step, size - start)});
  if (pieces.empty())
    pieces.push_back({0, 0});
  return pieces;
}

/// The pieces `op` cuts a dim of `size` into, as torch 1.13 computes them;
/// failure when they depend on values that are not constants.
FailureOr<SmallVector<Piece>> cut(Operation *op, int64_t size) {
  if (auto chunk = dyn_cast<aten::ChunkOp>(op)) {
    std::optional<int64_t> chunks = matchConstantInt(chunk.getChunks());
    if (!chunks || *chunks <= 0)
      return failure();
    // An empty dim gives `chunks` empty pieces.
    if (size == 0)
      return SmallVector<Piece>(*chunks, Piece{0, 0});
    return fixedPieces(size, (size + *chunks - 1) / *chunks);
  }
  if (isa<aten::SplitTensorOp>(op)) {
    std::optional<int64_t> step = matchConstantInt(op->getOperand(1));
    if (!step || *step <= 0)
      return failure();
    return fixedPieces(size, *step);
  }
  // tensor_split and the h/v/dsplits: n sections, the first size % n one
  // element longer (hsplit and friends require n to divide the size), or
  // the pieces between sorted indices, clamped to the dim.
  if (isa<aten::TensorSplitSectionsOp, aten::HsplitIntOp, aten::VsplitIntOp,
          aten::DsplitIntOp>(op)) {
    std::optional<int64_t> sections = matchConstantInt(op->getOperand(1));
    if (!sections || *sections <= 0)
      return failure();
    if (!isa<aten::TensorSplitSectionsOp>(op) && size % *sections != 0)
      return failure();
    SmallVector<Piece> pieces;
    int64_t start = 0;
    for (int64_t i = 0; i < *sections; ++i) {
      int64_t length = size / *sections + (i < size % *sections ? 1 : 0);
      pieces.push_back({start, length});
      start += length;
    }
    return pieces;
  }
  if (isa<aten::TensorSplitIndicesOp, aten::HsplitArrayOp,
          aten::VsplitArrayOp, aten::DsplitArrayOp>(op)) {
    std::optional<SmallVector<int64_t>> indices =
        matchConstantIntList(op->getOperand(1));
    if (!indices)
      return failure();
    SmallVector<Piece> pieces;
    int64_t start = 0;
    for (int64_t index : *indices) {
      int64_t end = std::clamp<int64_t>(index, start, size);
      pieces.push_back({start, end - start});
      start = end;
    }
    pieces.push_back({start, size - start});
    return pieces;
  }
  if (isa<aten::UnbindIntOp>(op)) {
    SmallVector<Piece> pieces;
    for (int64_t i = 0; i < size; ++i)
      pieces.push_back({i, 1});
    return pieces;
  }
  std::optional<SmallVector<int64_t>> lengths =
      matchConstantIntList(op->getOperand(1));
  if (!lengths)
    return failure();
  SmallVector<Piece> pieces;
  int64_t start = 0;
  for (int64_t length : *lengths) {
    if (length < 0)
      return failure();
    pieces.push_back({start, length});
    start += length;
  }
  if (start != size)
    return failure();
  return pieces;
}

/// The dim `op` splits along: its `dim` operand, or the fixed one of the
/// h/v/dsplits (hsplit splits a vector along 0, anything else along 1).
template <typename OpTy>
std::optional<int64_t> splitDim(OpTy op, int64_t rank) {
  if constexpr (std::is_same_v<OpTy, aten::HsplitIntOp> ||
                std::is_same_v<OpTy, aten::HsplitArrayOp>)
    return rank == 1 ? 0 : (rank >= 2 ? std::optional<int64_t>(1) : std::nullopt);
  else if constexpr (std::is_same_v<OpTy, aten::VsplitIntOp> ||
                     std::is_same_v<OpTy, aten::VsplitArrayOp>)
    return rank >= 2 ? std::optional<int64_t>(0) : std::nullopt;
  else if constexpr (std::is_same_v<OpTy, aten::DsplitIntOp> ||
                     std::is_same_v<OpTy, aten::DsplitArrayOp>)
    return rank >= 3 ? std::optional<int64_t>(2) : std::nullopt;
  else {
    std::optional<int64_t> dim = matchConstantInt(op.getDim());
    return dim ? normalizeDim(*dim, rank) : std::nullopt;
  }
}

template <typename OpTy> struct DecomposeStaticSplit : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<prim::TensorType>(op.getSelf().getType());
    if (!type || !type.getDtype() || !type.getHasSizes() ||
        type.getSizes().empty())
      return rewriter.notifyMatchFailure(op, "input shape is not refined");
    std::optional<int64_t> dim = splitDim(op, type.getSizes().size());
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim is not a valid constant");
    int64_t size = type.getSizes()[*dim];
    if (size == prim::TensorType::kUnknownSize)
      return rewriter.notifyMatchFailure(op, "size along dim is unknown");
    FailureOr<SmallVector<Piece>> pieces = cut(op, size);
    if (failed(pieces))
      return rewriter.notifyMatchFailure(op, "pieces are not constant");

    Location loc = op.getLoc();
    auto i64 = [&](int64_t v) -> Value {
      return prim::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                      rewriter.getI64IntegerAttr(v));
    };
    auto pieceType = [&](ArrayRef<int64_t> sizes) {
      return prim::TensorType::get(op.getContext(), type.getDtype(), true,
                                   sizes, false, {}, type.getDevice(),
                                   type.getRequiresGrad(), {});
    };
    constexpr bool unbind = std::is_same_v<OpTy, aten::UnbindIntOp>;
    Value dimValue = i64(*dim);
    SmallVector<Value> elements;
    for (Piece piece : *pieces) {
      SmallVector<int64_t> sizes(type.getSizes());
      if (unbind) {
        sizes.erase(sizes.begin() + *dim);
        elements.push_back(aten::SelectIntOp::create(
            rewriter, loc, pieceType(sizes), op.getSelf(), dimValue,
            i64(piece.start)));
        continue;
      }
      sizes[*dim] = piece.length;
      elements.push_back(aten::SliceTensorOp::create(
          rewriter, loc, pieceType(sizes), op.getSelf(), dimValue,
          i64(piece.start), i64(piece.start + piece.length), i64(1)));
    }
    rewriter.replaceOpWithNewOp<prim::ListConstructOp>(
        op, op.getResult().getType(), elements);
    return success();
  }
};

} // namespace

void tsir::populateStaticListDecompositionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeStaticSplit<aten::ChunkOp>,
               DecomposeStaticSplit<aten::SplitTensorOp>,
               DecomposeStaticSplit<aten::SplitSizesOp>,
               DecomposeStaticSplit<aten::SplitWithSizesOp>,
               DecomposeStaticSplit<aten::UnbindIntOp>,
               DecomposeStaticSplit<aten::TensorSplitSectionsOp>,
               DecomposeStaticSplit<aten::TensorSplitIndicesOp>,
               DecomposeStaticSplit<aten::HsplitIntOp>,
               DecomposeStaticSplit<aten::HsplitArrayOp>,
               DecomposeStaticSplit<aten::VsplitIntOp>,
               DecomposeStaticSplit<aten::VsplitArrayOp>,
               DecomposeStaticSplit<aten::DsplitIntOp>,
               DecomposeStaticSplit<aten::DsplitArrayOp>>(patterns.getContext());
}
