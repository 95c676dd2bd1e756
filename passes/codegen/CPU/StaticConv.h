//===- StaticConv.h - A convolution the CPU passes rewrite ------*- C++ -*-===//
//
// What tsir-conv-to-matmul and tsir-cpu-depthwise-conv-rows both require
// of a linalg convolution before they rewrite it (tensors of static shape
// and one float type), and the two ops both build from it: a copy of the
// input's windows and a multiply-accumulate.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CODEGEN_CPU_STATICCONV_H
#define TSIR_PASSES_CODEGEN_CPU_STATICCONV_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace tsir::cpu {

/// A convolution's operands and their types.
struct StaticConv {
  mlir::Value input, weight, init;
  mlir::RankedTensorType inputType, weightType, initType;
  mlir::Type elementType;
};

/// `conv`'s operands, or failure (reported to `rewriter`) unless they are
/// tensors of static shape and one float type.
inline mlir::FailureOr<StaticConv>
matchStaticConv(mlir::linalg::LinalgOp conv, mlir::PatternRewriter &rewriter) {
  using namespace mlir;
  if (!conv.hasPureTensorSemantics())
    return rewriter.notifyMatchFailure(conv, "expects tensors");
  StaticConv c;
  c.input = conv.getDpsInputs()[0];
  c.weight = conv.getDpsInputs()[1];
  c.init = conv.getDpsInits()[0];
  c.inputType = cast<RankedTensorType>(c.input.getType());
  c.weightType = cast<RankedTensorType>(c.weight.getType());
  c.initType = cast<RankedTensorType>(c.init.getType());
  if (!c.inputType.hasStaticShape() || !c.weightType.hasStaticShape() ||
      !c.initType.hasStaticShape())
    return rewriter.notifyMatchFailure(conv, "expects static shapes");
  c.elementType = c.initType.getElementType();
  if (!isa<FloatType>(c.elementType) ||
      c.inputType.getElementType() != c.elementType ||
      c.weightType.getElementType() != c.elementType)
    return rewriter.notifyMatchFailure(conv, "expects one float type");
  return c;
}

/// A new tensor of `shape` whose element at each index is `source` read
/// through `read` (the copy an im2col or a phase split is), as a
/// linalg.generic whose loops are the new tensor's dims in order.
inline mlir::Value buildWindowCopy(mlir::OpBuilder &builder,
                                   mlir::Location loc, mlir::Value source,
                                   mlir::AffineMap read,
                                   mlir::ArrayRef<int64_t> shape) {
  using namespace mlir;
  Value empty = tensor::EmptyOp::create(builder, loc, shape,
                                        getElementTypeOrSelf(source));
  unsigned rank = shape.size();
  return linalg::GenericOp::create(
             builder, loc, empty.getType(), ValueRange{source},
             ValueRange{empty},
             ArrayRef<AffineMap>{
                 read, AffineMap::getMultiDimIdentityMap(
                           rank, builder.getContext())},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [](OpBuilder &b, Location nestedLoc, ValueRange args) {
               linalg::YieldOp::create(b, nestedLoc, args[0]);
             })
      .getResult(0);
}

/// `acc[...] += lhs[...] * rhs[...]` as a linalg.generic with `maps` and
/// `iterators`: the product both passes build from a convolution.
inline mlir::Value
buildMultiplyAccumulate(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Value lhs, mlir::Value rhs, mlir::Value acc,
                        mlir::ArrayRef<mlir::AffineMap> maps,
                        mlir::ArrayRef<mlir::utils::IteratorType> iterators) {
  using namespace mlir;
  return linalg::GenericOp::create(
             builder, loc, acc.getType(), ValueRange{lhs, rhs},
             ValueRange{acc}, maps, iterators,
             [](OpBuilder &b, Location nestedLoc, ValueRange args) {
               Value mul =
                   arith::MulFOp::create(b, nestedLoc, args[0], args[1]);
               linalg::YieldOp::create(
                   b, nestedLoc,
                   arith::AddFOp::create(b, nestedLoc, args[2], mul)
                       .getResult());
             })
      .getResult(0);
}

} // namespace tsir::cpu

#endif // TSIR_PASSES_CODEGEN_CPU_STATICCONV_H
