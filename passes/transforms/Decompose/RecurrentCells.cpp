//===- RecurrentCells.cpp - The fused RNN cells as the ops that define them -===//
//
// populateRecurrentCellDecompositionPatterns (Decompositions.h).
// nn.RNNCell, nn.GRUCell and nn.LSTMCell call ATen's fused cells
// (rnn_tanh_cell, rnn_relu_cell, gru_cell; lstm_cell, which has no typed op
// and so is a prim.Generic node): each is one step of CellBuilder.h, for
// x and h of static shapes of one rank (batched or not).
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Decompositions.h"

#include "tsir/Transforms/ConstantMatchers.h"
#include "CellBuilder.h"
#include "GenericPattern.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::decompose;

namespace {

/// A builder for a cell of input `x` whose hidden state is `h`, when both
/// have static shapes of one rank.
std::optional<CellBuilder> cellBuilder(Value x, Value h, Location loc,
                                       PatternRewriter &rewriter) {
  std::optional<Shape> input = Shape::of(x);
  std::optional<Shape> hidden = Shape::of(h);
  if (!input || !hidden || hidden->sizes.empty() ||
      input->sizes.size() != hidden->sizes.size())
    return std::nullopt;
  return CellBuilder{rewriter, loc, *hidden};
}

/// The cell's operands (input, hx, w_ih, w_hh, b_ih, b_hh) from index 2.
CellWeights cellWeights(ValueRange operands) {
  return {operands[2], operands[3], operands[4], operands[5]};
}

template <typename OpTy, bool relu>
struct DecomposeRNNCell : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<CellBuilder> c = cellBuilder(
        op->getOperand(0), op->getResult(0), op.getLoc(), rewriter);
    if (!c)
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    rewriter.replaceOp(op, c->rnnStep(op->getOperand(0), op->getOperand(1),
                                      cellWeights(op->getOperands()), relu,
                                      op.getType()));
    return success();
  }
};

struct DecomposeGRUCell : OpRewritePattern<aten::GruCellOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::GruCellOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<CellBuilder> c = cellBuilder(
        op->getOperand(0), op->getResult(0), op.getLoc(), rewriter);
    if (!c)
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    rewriter.replaceOp(op, c->gruStep(op->getOperand(0), op->getOperand(1),
                                      cellWeights(op->getOperands()),
                                      op.getType()));
    return success();
  }
};

/// lstm_cell(input, hx, w_ih, w_hh, b_ih, b_hh) with hx a list literal
/// [h, c]. The two results take the node's types.
struct DecomposeLSTMCell : GenericKindPattern {
  DecomposeLSTMCell(MLIRContext *context)
      : GenericKindPattern(context, "aten::lstm_cell", 6, 2) {}

  LogicalResult rewriteNode(prim::GenericOp op,
                            PatternRewriter &rewriter) const override {
    ValueRange in = op.getInputs();
    std::optional<SmallVector<Value>> hx = getListElements(in[1]);
    if (!hx || hx->size() != 2)
      return rewriter.notifyMatchFailure(op, "hx is not a list of two");
    std::optional<CellBuilder> c =
        cellBuilder(in[0], (*hx)[0], op.getLoc(), rewriter);
    if (!c)
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    auto [h, cell] =
        c->lstmStep(in[0], (*hx)[0], (*hx)[1], cellWeights(in),
                    op->getResult(0).getType(), op->getResult(1).getType());
    rewriter.replaceOp(op, {h, cell});
    return success();
  }
};

} // namespace

void tsir::populateRecurrentCellDecompositionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeRNNCell<aten::RnnTanhCellOp, false>,
               DecomposeRNNCell<aten::RnnReluCellOp, true>, DecomposeGRUCell,
               DecomposeLSTMCell>(patterns.getContext());
}
