//===- RecurrentLayers.cpp - nn.RNN, nn.GRU and nn.LSTM as their cells ----===//
//
// populateRecurrentLayerDecompositionPatterns (Decompositions.h). The
// layers call ATen's whole-sequence ops, which have no typed op (prim.Generic
// nodes):
//
//   lstm.input(input, hx [h0, c0], params, has_biases, num_layers, dropout,
//              train, bidirectional, batch_first) -> (output, h_n, c_n)
//   gru.input / rnn_tanh.input / rnn_relu.input(input, h0, params, ...)
//              -> (output, h_n)
//
// ATen runs them as its cells over time, layer after layer, each direction
// on its own (aten/src/ATen/native/RNN.cpp); so does this rewrite, unrolled
// for a sequence of static length: with input [T, B, I] (batch_first
// transposes it to that), h0 [L*D, B, H] and params, per layer and
// direction, w_ih, w_hh (and b_ih, b_hh with has_biases):
//
//   for each layer l, direction d (d = 1 runs t = T-1 .. 0):
//     h, c = h0[l*D + d], c0[l*D + d]
//     y_t = h = cell(x_t, h, c)      for each t
//     h_n[l*D + d], c_n[l*D + d] = h, c
//   x = cat(stack(y_t for each d), dim 2)   the next layer's input
//   output = x (transposed back with batch_first)
//
// An LSTM with proj_size P has a fifth (third, without biases) parameter
// per cell, w_hr [P, H]: its hidden state is projected, h = linear(h, w_hr),
// so h0 and h_n are [L*D, B, P] while c0 and c_n stay [L*D, B, H].
//
// Dropout between layers applies only when training, which tsir does not
// run; a node with train=True and a dropout stays whole. Past 4096 cell
// steps the unrolled graph would be too large to compile quickly, and the
// node stays whole too.
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

enum class CellKind { RnnTanh, RnnRelu, Gru, Lstm };

constexpr int64_t kMaxCellSteps = 4096;

/// The layer's constant arguments, read from the node.
struct LayerOptions {
  bool hasBiases, bidirectional, batchFirst;
  int64_t numLayers;
};

std::optional<LayerOptions> readOptions(ValueRange in) {
  std::optional<bool> hasBiases = matchConstantBool(in[3]);
  std::optional<int64_t> numLayers = matchConstantInt(in[4]);
  std::optional<double> dropout = matchConstantFloat(in[5]);
  std::optional<bool> train = matchConstantBool(in[6]);
  std::optional<bool> bidirectional = matchConstantBool(in[7]);
  std::optional<bool> batchFirst = matchConstantBool(in[8]);
  if (!hasBiases || !numLayers || !dropout || !train || !bidirectional ||
      !batchFirst || *numLayers < 1 || (*train && *dropout != 0.0))
    return std::nullopt;
  return LayerOptions{*hasBiases, *bidirectional, *batchFirst, *numLayers};
}

struct DecomposeRecurrentLayer : GenericKindPattern {
  DecomposeRecurrentLayer(MLIRContext *context, StringRef kind,
                          CellKind cell)
      : GenericKindPattern(context, kind, 9, cell == CellKind::Lstm ? 3 : 2,
                           "input"),
        cell(cell) {}

  LogicalResult rewriteNode(prim::GenericOp op,
                            PatternRewriter &rewriter) const override {
    ValueRange in = op.getInputs();
    Location loc = op.getLoc();
    std::optional<LayerOptions> options = readOptions(in);
    if (!options)
      return rewriter.notifyMatchFailure(op, "non-constant options, or "
                                             "dropout in training");
    // The initial states: h0 (and c0 for an LSTM).
    SmallVector<Value> initial;
    if (cell == CellKind::Lstm) {
      std::optional<SmallVector<Value>> hx = getListElements(in[1]);
      if (!hx || hx->size() != 2)
        return rewriter.notifyMatchFailure(op, "hx is not a list of two");
      initial = *hx;
    } else {
      initial = {in[1]};
    }
    std::optional<SmallVector<Value>> params =
        getListElements(in[2]);
    std::optional<Shape> input = Shape::of(in[0]);
    std::optional<Shape> h0 = Shape::of(initial[0]);
    // The cell state's shape is the hidden size's, projected or not.
    std::optional<Shape> state0 = Shape::of(initial.back());
    int64_t directions = options->bidirectional ? 2 : 1;
    int64_t cells = options->numLayers * directions;
    int64_t perCell = options->hasBiases ? 4 : 2;
    bool projected = cell == CellKind::Lstm && params &&
                     static_cast<int64_t>(params->size()) ==
                         cells * (perCell + 1);
    if (projected)
      ++perCell;
    if (!params || !input || !h0 || !state0 || input->sizes.size() != 3 ||
        h0->sizes.size() != 3 || state0->sizes.size() != 3 ||
        h0->sizes[0] != cells ||
        static_cast<int64_t>(params->size()) != cells * perCell)
      return rewriter.notifyMatchFailure(op, "needs a 3-d input and states "
                                             "of static shapes and a list "
                                             "literal of parameters");
    int64_t steps = input->sizes[options->batchFirst ? 1 : 0];
    if (steps * cells > kMaxCellSteps)
      return rewriter.notifyMatchFailure(op, "too many steps to unroll");

    Shape hidden = *state0;
    hidden.sizes.erase(hidden.sizes.begin()); // [B, H]
    CellBuilder c{rewriter, loc, hidden};
    Shape output = *h0;
    output.sizes.erase(output.sizes.begin()); // [B, P] when projected
    prim::TensorType outputStateType = output.withSizes(output.sizes);
    Type any = anyTensor(rewriter);
    auto constant = [&](int64_t value) {
      return intConstant(rewriter, loc, value);
    };
    auto select = [&](Value tensor, int64_t index, Type type) -> Value {
      return aten::SelectIntOp::create(rewriter, loc, type, tensor,
                                       constant(0), constant(index));
    };
    auto tensorList = [&](ArrayRef<Value> tensors) -> Value {
      return prim::ListConstructOp::create(
          rewriter, loc, prim::ListType::get(rewriter.getContext(), any),
          tensors);
    };
    auto stack = [&](ArrayRef<Value> tensors, Type type) -> Value {
      return aten::StackOp::create(rewriter, loc, type, tensorList(tensors),
                                   constant(0));
    };
    auto transposed = [&](Value tensor, Type type) -> Value {
      return aten::TransposeIntOp::create(rewriter, loc, type, tensor,
                                          constant(0), constant(1));
    };

    Value x = options->batchFirst ? transposed(in[0], any) : in[0];
    Type outputType = op->getResult(0).getType();
    SmallVector<Value> finalH, finalC;
    for (int64_t layer = 0; layer < options->numLayers; ++layer) {
      // The last layer's output is the node's output, unless batch_first
      // transposes it first.
      Type layerType = layer + 1 == options->numLayers && !options->batchFirst
                           ? outputType
                           : any;
      SmallVector<Value> directionOutputs;
      for (int64_t direction = 0; direction < directions; ++direction) {
        int64_t index = layer * directions + direction;
        CellWeights w{(*params)[index * perCell],
                      (*params)[index * perCell + 1],
                      options->hasBiases ? (*params)[index * perCell + 2]
                                         : noneConstant(rewriter, loc),
                      options->hasBiases ? (*params)[index * perCell + 3]
                                         : noneConstant(rewriter, loc)};
        Value projection =
            projected ? (*params)[index * perCell + perCell - 1] : Value();
        Value h = select(initial[0], index, outputStateType);
        Value state = cell == CellKind::Lstm
                          ? select(initial[1], index, c.hiddenType())
                          : Value();
        SmallVector<Value> outputs(steps);
        for (int64_t i = 0; i < steps; ++i) {
          int64_t t = direction == 0 ? i : steps - 1 - i;
          Value xt = select(x, t, any);
          switch (cell) {
          case CellKind::RnnTanh:
          case CellKind::RnnRelu:
            h = c.rnnStep(xt, h, w, cell == CellKind::RnnRelu);
            break;
          case CellKind::Gru:
            h = c.gruStep(xt, h, w);
            break;
          case CellKind::Lstm:
            std::tie(h, state) = c.lstmStep(xt, h, state, w);
            if (projection)
              h = aten::LinearOp::create(rewriter, loc, outputStateType, h,
                                         projection,
                                         noneConstant(rewriter, loc));
            break;
          }
          outputs[t] = h;
        }
        directionOutputs.push_back(
            stack(outputs, directions == 1 ? layerType : any));
        finalH.push_back(h);
        if (state)
          finalC.push_back(state);
      }
      x = directions == 1
              ? directionOutputs[0]
              : aten::CatOp::create(rewriter, loc, layerType,
                                    tensorList(directionOutputs), constant(2))
                    .getResult();
    }

    SmallVector<Value> results{options->batchFirst ? transposed(x, outputType)
                                                   : x};
    results.push_back(stack(finalH, op->getResult(1).getType()));
    if (cell == CellKind::Lstm)
      results.push_back(stack(finalC, op->getResult(2).getType()));
    rewriter.replaceOp(op, results);
    return success();
  }

  CellKind cell;
};

} // namespace

void tsir::populateRecurrentLayerDecompositionPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<DecomposeRecurrentLayer>(context, "aten::lstm", CellKind::Lstm);
  patterns.add<DecomposeRecurrentLayer>(context, "aten::gru", CellKind::Gru);
  patterns.add<DecomposeRecurrentLayer>(context, "aten::rnn_tanh",
                                        CellKind::RnnTanh);
  patterns.add<DecomposeRecurrentLayer>(context, "aten::rnn_relu",
                                        CellKind::RnnRelu);
}
