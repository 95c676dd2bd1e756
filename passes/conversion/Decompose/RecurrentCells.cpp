//===- RecurrentCells.cpp - RNN and GRU cells as the ops that define them -===//
//
// populateRecurrentCellDecompositionPatterns (Decompositions.h).
// nn.RNNCell and nn.GRUCell call ATen's fused cells; their definitions
// (aten/src/ATen/native/RNN.cpp, the *_cell functions) are compositions of
// ops tsir lowers, with x [.., I] and h [.., H] (batched or not):
//
//   gi = linear(x, w_ih, b_ih), gh = linear(h, w_hh, b_hh)
//   rnn_tanh_cell: tanh(gi + gh)           rnn_relu_cell: relu(gi + gh)
//   gru_cell, with the gates r, z, n the thirds of gi and gh:
//     r = sigmoid(gi_r + gh_r), z = sigmoid(gi_z + gh_z)
//     n = tanh(gi_n + r * gh_n)
//     h' = n + z * (h - n)                  (= (1 - z) * n + z * h)
//   lstm_cell (hx = [h, c]; no typed op, so a prim.Generic node), with the
//   gates i, f, g, o the quarters of gi + gh:
//     c' = sigmoid(f) * c + sigmoid(i) * tanh(g)
//     h' = sigmoid(o) * tanh(c')            results (h', c')
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Decompositions.h"

#include "../Common/Utils.h"
#include "ConstantBuilders.h"
#include "GenericPattern.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::decompose;

namespace {

/// What the cells build from: x and h with static shapes, gates of `gates`
/// times H columns.
struct CellBuilder {
  PatternRewriter &rewriter;
  Location loc;
  Shape hidden;

  prim::TensorType hiddenType() const {
    return hidden.withSizes(hidden.sizes);
  }
  prim::TensorType gatesType(int64_t gates) const {
    SmallVector<int64_t> sizes = hidden.sizes;
    sizes.back() *= gates;
    return hidden.withSizes(sizes);
  }
  Value linear(Value input, Value weight, Value bias, int64_t gates) {
    return aten::LinearOp::create(rewriter, loc, gatesType(gates), input,
                                  weight, bias);
  }
  /// The `index`-th of the H-column parts of `gates` along the last dim.
  Value part(Value gates, int64_t index) {
    int64_t h = hidden.sizes.back();
    return aten::SliceTensorOp::create(
        rewriter, loc, hiddenType(), gates, intConstant(rewriter, loc, -1),
        intConstant(rewriter, loc, index * h),
        intConstant(rewriter, loc, (index + 1) * h),
        intConstant(rewriter, loc, 1));
  }
  Value add(Value a, Value b) {
    return aten::AddTensorOp::create(rewriter, loc, a.getType(), a, b,
                                     intConstant(rewriter, loc, 1));
  }
  Value sub(Value a, Value b) {
    return aten::SubTensorOp::create(rewriter, loc, a.getType(), a, b,
                                     intConstant(rewriter, loc, 1));
  }
  Value mul(Value a, Value b) {
    return aten::MulTensorOp::create(rewriter, loc, a.getType(), a, b);
  }
};

/// A builder for the cell `op` (input, hx, w_ih, w_hh, b_ih, b_hh) when
/// the input and the new hidden state have static shapes of one rank.
std::optional<CellBuilder> cellBuilder(Operation *op, PatternRewriter &rewriter) {
  std::optional<Shape> x = Shape::of(op->getOperand(0));
  std::optional<Shape> h = Shape::of(op->getResult(0));
  if (!x || !h || h->sizes.empty() || x->sizes.size() != h->sizes.size())
    return std::nullopt;
  return CellBuilder{rewriter, op->getLoc(), *h};
}

template <typename OpTy, bool relu>
struct DecomposeRNNCell : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<CellBuilder> c = cellBuilder(op, rewriter);
    if (!c)
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    Value sum = c->add(c->linear(op->getOperand(0), op->getOperand(2),
                                 op->getOperand(4), 1),
                       c->linear(op->getOperand(1), op->getOperand(3),
                                 op->getOperand(5), 1));
    if (relu)
      rewriter.replaceOpWithNewOp<aten::ReluOp>(op, op.getType(), sum);
    else
      rewriter.replaceOpWithNewOp<aten::TanhOp>(op, op.getType(), sum);
    return success();
  }
};

struct DecomposeGRUCell : OpRewritePattern<aten::GruCellOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(aten::GruCellOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<CellBuilder> c = cellBuilder(op, rewriter);
    if (!c)
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    Location loc = op.getLoc();
    Value h = op->getOperand(1);
    Value gi = c->linear(op->getOperand(0), op->getOperand(2),
                         op->getOperand(4), 3);
    Value gh = c->linear(h, op->getOperand(3), op->getOperand(5), 3);
    auto gate = [&](int64_t index) {
      return aten::SigmoidOp::create(rewriter, loc, c->hiddenType(),
                                     c->add(c->part(gi, index),
                                            c->part(gh, index)))
          .getResult();
    };
    Value r = gate(0), z = gate(1);
    Value n = aten::TanhOp::create(
        rewriter, loc, c->hiddenType(),
        c->add(c->part(gi, 2), c->mul(r, c->part(gh, 2))));
    rewriter.replaceOp(op, c->add(n, c->mul(z, c->sub(h, n))));
    return success();
  }
};

/// lstm_cell(input, hx, w_ih, w_hh, b_ih, b_hh) with hx a list literal
/// [h, c] of static shapes. The two results take the node's types.
struct DecomposeLSTMCell : GenericKindPattern {
  DecomposeLSTMCell(MLIRContext *context)
      : GenericKindPattern(context, "aten::lstm_cell", 6, 2) {}

  LogicalResult rewriteNode(prim::GenericOp op,
                            PatternRewriter &rewriter) const override {
    ValueRange in = op.getInputs();
    std::optional<SmallVector<Value>> hx = conversion::getListElements(in[1]);
    if (!hx || hx->size() != 2)
      return rewriter.notifyMatchFailure(op, "hx is not a list of two");
    std::optional<Shape> x = Shape::of(in[0]);
    std::optional<Shape> h = Shape::of((*hx)[0]);
    if (!x || !h || h->sizes.empty() || x->sizes.size() != h->sizes.size())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    CellBuilder c{rewriter, op.getLoc(), *h};
    Location loc = op.getLoc();
    Value gates = c.add(c.linear(in[0], in[2], in[4], 4),
                        c.linear((*hx)[0], in[3], in[5], 4));
    auto activate = [&](int64_t index, bool sigmoid) -> Value {
      Value part = c.part(gates, index);
      if (sigmoid)
        return aten::SigmoidOp::create(rewriter, loc, c.hiddenType(), part);
      return aten::TanhOp::create(rewriter, loc, c.hiddenType(), part);
    };
    Value input = activate(0, true), forget = activate(1, true);
    Value cell = activate(2, false), output = activate(3, true);
    Value newCell = aten::AddTensorOp::create(
        rewriter, loc, op->getResult(1).getType(), c.mul(forget, (*hx)[1]),
        c.mul(input, cell), intConstant(rewriter, loc, 1));
    Value newHidden = aten::MulTensorOp::create(
        rewriter, loc, op->getResult(0).getType(), output,
        aten::TanhOp::create(rewriter, loc, c.hiddenType(), newCell));
    rewriter.replaceOp(op, {newHidden, newCell});
    return success();
  }
};

} // namespace

void tsir::populateRecurrentCellDecompositionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeRNNCell<aten::RnnTanhCellOp, false>,
               DecomposeRNNCell<aten::RnnReluCellOp, true>, DecomposeGRUCell,
               DecomposeLSTMCell>(
      patterns.getContext());
}
