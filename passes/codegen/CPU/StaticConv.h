//===- StaticConv.h - A convolution the CPU passes rewrite ------*- C++ -*-===//
//
// What tsir-conv-to-matmul and tsir-cpu-depthwise-conv-rows both require
// of a linalg convolution before they rewrite it (tensors of static shape
// and one float type), and the multiply-accumulate both build.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CODEGEN_CPU_STATICCONV_H
#define TSIR_PASSES_CODEGEN_CPU_STATICCONV_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
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
