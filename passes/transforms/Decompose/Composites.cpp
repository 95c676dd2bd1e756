//===- Composites.cpp - Composite view ops as the aten ops that lower -----===//
//
// populateCompositeDecompositionPatterns (Decompositions.h): ops that
// PyTorch defines as another op with other arguments (`mT` is
// `transpose(-2, -1)`, `swapaxes` is `transpose`, `ravel` is `reshape(-1)`, `flipud` is `flip([0])`,
// `vstack` is `cat` of `atleast_2d`s)
// are rewritten into that op, so that one lowering serves them all. Each
// replacement takes the replaced op's refined type: the two agree by
// definition, and nothing needs refining again.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Decompositions.h"

#include "tsir/Transforms/ConstantMatchers.h"
#include "ConstantBuilders.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::decompose;

namespace {

/// Builds the constants a replacement op takes (ConstantBuilders.h).
struct Constants {
  PatternRewriter &rewriter;
  Location loc;

  Value integer(int64_t value) { return intConstant(rewriter, loc, value); }
  Value intList(ArrayRef<int64_t> values) {
    return decompose::intList(rewriter, loc, values);
  }
};

/// The rank of a refined tensor value, if known.
std::optional<int64_t> rankOf(Value value) {
  auto type = dyn_cast<prim::TensorType>(value.getType());
  if (!type || !type.getHasSizes())
    return std::nullopt;
  return static_cast<int64_t>(type.getSizes().size());
}

/// mT, mH and adjoint: the last two dims swapped (mH and adjoint also
/// conjugate, which real dtypes do not see); matrix_H: dims 0 and 1 of a
/// matrix.
template <typename OpTy>
struct DecomposeMatrixTranspose : OpRewritePattern<OpTy> {
  DecomposeMatrixTranspose(MLIRContext *context, int64_t dim0, int64_t dim1)
      : OpRewritePattern<OpTy>(context), dim0(dim0), dim1(dim1) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    // torch lets a 0-d tensor through unchanged.
    std::optional<int64_t> rank = rankOf(op.getSelf());
    Constants c{rewriter, op.getLoc()};
    if (rank && *rank == 0) {
      rewriter.replaceOpWithNewOp<aten::ReshapeOp>(
          op, op.getType(), op.getSelf(), c.intList({}));
      return success();
    }
    rewriter.replaceOpWithNewOp<aten::TransposeIntOp>(
        op, op.getType(), op.getSelf(), c.integer(dim0), c.integer(dim1));
    return success();
  }

  int64_t dim0, dim1;
};

/// swapaxes and swapdims: transpose by other names.
template <typename OpTy> struct DecomposeSwap : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<aten::TransposeIntOp>(
        op, op.getType(), op->getOperand(0), op->getOperand(1),
        op->getOperand(2));
    return success();
  }
};

/// numpy_T: all dims reversed.
struct DecomposeNumpyT : OpRewritePattern<aten::NumpyTOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::NumpyTOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> rank = rankOf(op.getSelf());
    if (!rank)
      return rewriter.notifyMatchFailure(op, "rank is unknown");
    SmallVector<int64_t> dims;
    for (int64_t d = *rank - 1; d >= 0; --d)
      dims.push_back(d);
    Constants c{rewriter, op.getLoc()};
    rewriter.replaceOpWithNewOp<aten::PermuteOp>(op, op.getType(), op.getSelf(),
                                                 c.intList(dims));
    return success();
  }
};

/// movedim.intlist: the permutation that puts each source dim at its
/// destination and the other dims, in order, in the places left.
struct DecomposeMovedimList : OpRewritePattern<aten::MovedimIntlistOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::MovedimIntlistOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> rank = rankOf(op.getSelf());
    auto sources = matchConstantIntList(op.getSource());
    auto destinations = matchConstantIntList(op.getDestination());
    if (!rank || !sources || !destinations ||
        sources->size() != destinations->size())
      return rewriter.notifyMatchFailure(op, "needs a rank and constant dims");
    SmallVector<int64_t> permutation(*rank, -1);
    SmallVector<bool> moved(*rank, false);
    for (auto [source, destination] : llvm::zip(*sources, *destinations)) {
      std::optional<int64_t> s = normalizeDim(source, *rank);
      std::optional<int64_t> d = normalizeDim(destination, *rank);
      if (!s || !d || moved[*s] || permutation[*d] != -1)
        return rewriter.notifyMatchFailure(op, "invalid or repeated dims");
      permutation[*d] = *s;
      moved[*s] = true;
    }
    int64_t next = 0;
    for (int64_t &slot : permutation) {
      if (slot != -1)
        continue;
      while (moved[next])
        ++next;
      slot = next++;
    }
    Constants c{rewriter, op.getLoc()};
    rewriter.replaceOpWithNewOp<aten::PermuteOp>(op, op.getType(), op.getSelf(),
                                                 c.intList(permutation));
    return success();
  }
};

/// ravel and atleast_{1,2,3}d: reshapes. atleast_Nd pads the input's sizes
/// as torch does ([n] -> [1, n] for 2d, [n] -> [1, n, 1] and [m, n] ->
/// [m, n, 1] for 3d, a 0-d input to all 1s) and returns an input of at
/// least the rank as it is.
template <typename OpTy, int Rank>
struct DecomposeToReshape : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    SmallVector<int64_t> sizes;
    if (Rank == 0) { // ravel
      sizes.push_back(-1);
    } else {
      auto type = dyn_cast<prim::TensorType>(op.getSelf().getType());
      if (!type || !type.getHasSizes())
        return rewriter.notifyMatchFailure(op, "input rank is unknown");
      ArrayRef<int64_t> in = type.getSizes();
      if (static_cast<int64_t>(in.size()) >= Rank) {
        // The input itself, under the type the graph gives the result.
        if (op.getSelf().getType() == op.getType())
          rewriter.replaceOp(op, op.getSelf());
        else
          rewriter.replaceOpWithNewOp<aten::AliasOp>(op, op.getType(),
                                                     op.getSelf());
        return success();
      }
      if (llvm::is_contained(in, prim::TensorType::kUnknownSize))
        return rewriter.notifyMatchFailure(op, "input sizes are dynamic");
      if (in.empty())
        sizes.assign(Rank, 1);
      else if (in.size() == 1 && Rank == 2)
        sizes = {1, in[0]};
      else if (in.size() == 1)
        sizes = {1, in[0], 1};
      else
        sizes = {in[0], in[1], 1};
    }
    Constants c{rewriter, op.getLoc()};
    rewriter.replaceOpWithNewOp<aten::ReshapeOp>(op, op.getType(), op.getSelf(),
                                                 c.intList(sizes));
    return success();
  }
};

/// broadcast_to is expand with implicit=false.
struct DecomposeBroadcastTo : OpRewritePattern<aten::BroadcastToOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::BroadcastToOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value implicit = prim::ConstantOp::create(
        rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(false));
    rewriter.replaceOpWithNewOp<aten::ExpandOp>(op, op.getType(), op.getSelf(),
                                                op.getSize(), implicit);
    return success();
  }
};

/// flipud and fliplr: flip along dim 0 or 1.
template <typename OpTy> struct DecomposeFlip : OpRewritePattern<OpTy> {
  DecomposeFlip(MLIRContext *context, int64_t dim)
      : OpRewritePattern<OpTy>(context), dim(dim) {}
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Constants c{rewriter, op.getLoc()};
    rewriter.replaceOpWithNewOp<aten::FlipOp>(op, op.getType(), op.getSelf(),
                                              c.intList({dim}));
    return success();
  }
  int64_t dim;
};

/// The sizes atleast_Nd gives a tensor of sizes `in`.
SmallVector<int64_t> atLeast(ArrayRef<int64_t> in, int64_t rank) {
  if (static_cast<int64_t>(in.size()) >= rank)
    return SmallVector<int64_t>(in);
  if (in.empty())
    return SmallVector<int64_t>(rank, 1);
  if (in.size() == 1)
    return rank == 2 ? SmallVector<int64_t>{1, in[0]}
                     : SmallVector<int64_t>{1, in[0], 1};
  return {in[0], in[1], 1};
}

enum class StackKind { H, V, D, Column };

/// hstack, vstack, dstack and column_stack of a list literal of statically
/// sized tensors: each tensor reshaped as torch does (atleast_1d/2d/3d, or
/// a column for column_stack's vectors) and concatenated along 0, 1 or 2.
template <typename OpTy, StackKind Kind>
struct DecomposeStack : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<Value>> elements =
        getListElements(op.getTensors());
    if (!elements || elements->empty())
      return rewriter.notifyMatchFailure(op, "needs a list literal");
    SmallVector<SmallVector<int64_t>> sizes;
    for (Value element : *elements) {
      auto type = dyn_cast<prim::TensorType>(element.getType());
      if (!type || !type.getDtype() || !type.getHasSizes() ||
          llvm::is_contained(type.getSizes(), prim::TensorType::kUnknownSize))
        return rewriter.notifyMatchFailure(op, "needs statically sized "
                                               "tensors");
      ArrayRef<int64_t> in = type.getSizes();
      switch (Kind) {
      case StackKind::H:
        sizes.push_back(atLeast(in, 1));
        break;
      case StackKind::V:
        sizes.push_back(atLeast(in, 2));
        break;
      case StackKind::D:
        sizes.push_back(atLeast(in, 3));
        break;
      case StackKind::Column:
        sizes.push_back(in.size() == 0   ? SmallVector<int64_t>{1, 1}
                        : in.size() == 1 ? SmallVector<int64_t>{in[0], 1}
                                         : SmallVector<int64_t>(in));
        break;
      }
    }
    int64_t dim = Kind == StackKind::V ? 0 : Kind == StackKind::D ? 2 : 1;
    if (Kind == StackKind::H &&
        llvm::all_of(sizes, [](const auto &s) { return s.size() == 1; }))
      dim = 0;
    Location loc = op.getLoc();
    Constants c{rewriter, loc};
    SmallVector<Value> reshaped;
    for (auto [element, target] : llvm::zip(*elements, sizes)) {
      auto type = cast<prim::TensorType>(element.getType());
      if (type.getSizes() == ArrayRef<int64_t>(target)) {
        reshaped.push_back(element);
        continue;
      }
      auto targetType = prim::TensorType::get(
          op.getContext(), type.getDtype(), true, target, false, {},
          type.getDevice(), type.getRequiresGrad(), {});
      reshaped.push_back(aten::ReshapeOp::create(rewriter, loc, targetType,
                                                 element, c.intList(target)));
    }
    Value list = prim::ListConstructOp::create(
        rewriter, loc, op.getTensors().getType(), reshaped);
    rewriter.replaceOpWithNewOp<aten::CatOp>(op, op.getType(), list,
                                             c.integer(dim));
    return success();
  }
};

} // namespace

void tsir::populateCompositeDecompositionPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<DecomposeMatrixTranspose<aten::MTOp>>(context, -2, -1);
  patterns.add<DecomposeMatrixTranspose<aten::MHOp>>(context, -2, -1);
  patterns.add<DecomposeMatrixTranspose<aten::AdjointOp>>(context, -2, -1);
  patterns.add<DecomposeMatrixTranspose<aten::MatrixHOp>>(context, 0, 1);
  patterns.add<DecomposeSwap<aten::SwapaxesOp>, DecomposeSwap<aten::SwapdimsOp>>(
      context);
  patterns.add<DecomposeFlip<aten::FlipudOp>>(context, 0);
  patterns.add<DecomposeFlip<aten::FliplrOp>>(context, 1);
  patterns.add<DecomposeNumpyT, DecomposeMovedimList, DecomposeBroadcastTo,
               DecomposeToReshape<aten::RavelOp, 0>,
               DecomposeToReshape<aten::Atleast1dOp, 1>,
               DecomposeToReshape<aten::Atleast2dOp, 2>,
               DecomposeToReshape<aten::Atleast3dOp, 3>,
               DecomposeStack<aten::HstackOp, StackKind::H>,
               DecomposeStack<aten::VstackOp, StackKind::V>,
               DecomposeStack<aten::DstackOp, StackKind::D>,
               DecomposeStack<aten::ColumnStackOp, StackKind::Column>>(context);
}
