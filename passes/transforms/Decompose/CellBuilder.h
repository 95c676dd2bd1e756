//===- CellBuilder.h - The recurrent cells as the ops that define them -*- C++ -*-===//
//
// One step of each recurrent cell of ATen (aten/src/ATen/native/RNN.cpp),
// built from ops tsir lowers, for x [.., I] and h [.., H] of static sizes:
//
//   gi = linear(x, w_ih, b_ih), gh = linear(h, w_hh, b_hh)
//   rnn_tanh: tanh(gi + gh)                rnn_relu: relu(gi + gh)
//   gru, with the gates r, z, n the thirds of gi and gh:
//     r = sigmoid(gi_r + gh_r), z = sigmoid(gi_z + gh_z)
//     n = tanh(gi_n + r * gh_n)
//     h' = n + z * (h - n)                  (= (1 - z) * n + z * h)
//   lstm, with the gates i, f, g, o the quarters of gi + gh:
//     c' = sigmoid(f) * c + sigmoid(i) * tanh(g)
//     h' = sigmoid(o) * tanh(c')
//
// The fused cells (RecurrentCells.cpp) are one step; the whole layers
// (RecurrentLayers.cpp) are steps over time, layers and directions.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_DECOMPOSE_CELLBUILDER_H
#define TSIR_PASSES_CONVERSION_DECOMPOSE_CELLBUILDER_H

#include "ConstantBuilders.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

#include <utility>

namespace tsir::decompose {

/// The weights of one cell: biases may be None.
struct CellWeights {
  mlir::Value inputWeight, hiddenWeight, inputBias, hiddenBias;
};

/// Builds cell steps whose hidden state has the static shape `hidden`.
struct CellBuilder {
  mlir::PatternRewriter &rewriter;
  mlir::Location loc;
  Shape hidden;

  prim::TensorType hiddenType() const {
    return hidden.withSizes(hidden.sizes);
  }
  prim::TensorType gatesType(int64_t gates) const {
    llvm::SmallVector<int64_t> sizes = hidden.sizes;
    sizes.back() *= gates;
    return hidden.withSizes(sizes);
  }
  mlir::Value linear(mlir::Value input, mlir::Value weight, mlir::Value bias,
                     int64_t gates) {
    return aten::LinearOp::create(rewriter, loc, gatesType(gates), input,
                                  weight, bias);
  }
  /// The `index`-th of the H-column parts of `gates` along the last dim.
  mlir::Value part(mlir::Value gates, int64_t index) {
    int64_t h = hidden.sizes.back();
    return aten::SliceTensorOp::create(
        rewriter, loc, hiddenType(), gates, intConstant(rewriter, loc, -1),
        intConstant(rewriter, loc, index * h),
        intConstant(rewriter, loc, (index + 1) * h),
        intConstant(rewriter, loc, 1));
  }
  mlir::Value add(mlir::Value a, mlir::Value b, mlir::Type type = {}) {
    return aten::AddTensorOp::create(rewriter, loc,
                                     type ? type : a.getType(), a, b,
                                     intConstant(rewriter, loc, 1));
  }
  mlir::Value sub(mlir::Value a, mlir::Value b) {
    return aten::SubTensorOp::create(rewriter, loc, a.getType(), a, b,
                                     intConstant(rewriter, loc, 1));
  }
  mlir::Value mul(mlir::Value a, mlir::Value b, mlir::Type type = {}) {
    return aten::MulTensorOp::create(rewriter, loc,
                                     type ? type : a.getType(), a, b);
  }
  mlir::Value sigmoid(mlir::Value a) {
    return aten::SigmoidOp::create(rewriter, loc, hiddenType(), a);
  }
  mlir::Value tanh(mlir::Value a, mlir::Type type = {}) {
    return aten::TanhOp::create(rewriter, loc, type ? type : hiddenType(), a);
  }

  /// rnn_tanh / rnn_relu: the new hidden state, of type `type` (or the
  /// hidden type).
  mlir::Value rnnStep(mlir::Value x, mlir::Value h, const CellWeights &w,
                      bool relu, mlir::Type type = {}) {
    mlir::Value sum = add(linear(x, w.inputWeight, w.inputBias, 1),
                          linear(h, w.hiddenWeight, w.hiddenBias, 1));
    if (relu)
      return aten::ReluOp::create(rewriter, loc, type ? type : hiddenType(),
                                  sum);
    return tanh(sum, type);
  }

  /// gru: the new hidden state.
  mlir::Value gruStep(mlir::Value x, mlir::Value h, const CellWeights &w,
                      mlir::Type type = {}) {
    mlir::Value gi = linear(x, w.inputWeight, w.inputBias, 3);
    mlir::Value gh = linear(h, w.hiddenWeight, w.hiddenBias, 3);
    mlir::Value r = sigmoid(add(part(gi, 0), part(gh, 0)));
    mlir::Value z = sigmoid(add(part(gi, 1), part(gh, 1)));
    mlir::Value n = tanh(add(part(gi, 2), mul(r, part(gh, 2))));
    return add(n, mul(z, sub(h, n)), type);
  }

  /// lstm: the new hidden and cell states, of types `hType` and `cType`.
  std::pair<mlir::Value, mlir::Value>
  lstmStep(mlir::Value x, mlir::Value h, mlir::Value c, const CellWeights &w,
           mlir::Type hType = {}, mlir::Type cType = {}) {
    mlir::Value gates = add(linear(x, w.inputWeight, w.inputBias, 4),
                            linear(h, w.hiddenWeight, w.hiddenBias, 4));
    mlir::Value input = sigmoid(part(gates, 0));
    mlir::Value forget = sigmoid(part(gates, 1));
    mlir::Value candidate = tanh(part(gates, 2));
    mlir::Value output = sigmoid(part(gates, 3));
    mlir::Value newCell =
        add(mul(forget, c), mul(input, candidate), cType ? cType : hiddenType());
    mlir::Value newHidden = mul(output, tanh(newCell), hType);
    return {newHidden, newCell};
  }
};

} // namespace tsir::decompose

#endif // TSIR_PASSES_CONVERSION_DECOMPOSE_CELLBUILDER_H
