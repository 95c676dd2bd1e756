//===- ConstantBuilders.h - The constants decompositions build --*- C++ -*-===//
//
// A decomposition replaces an op by others that take constant operands
// (dims, sizes, flags, None); these build them as prim constants.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_DECOMPOSE_CONSTANTBUILDERS_H
#define TSIR_PASSES_CONVERSION_DECOMPOSE_CONSTANTBUILDERS_H

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/PatternMatch.h"

namespace tsir::decompose {

inline mlir::Value intConstant(mlir::PatternRewriter &rewriter,
                               mlir::Location loc, int64_t value) {
  return prim::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                  rewriter.getI64IntegerAttr(value));
}

inline mlir::Value floatConstant(mlir::PatternRewriter &rewriter,
                                 mlir::Location loc, double value) {
  return prim::ConstantOp::create(rewriter, loc, rewriter.getF64Type(),
                                  rewriter.getF64FloatAttr(value));
}

inline mlir::Value boolConstant(mlir::PatternRewriter &rewriter,
                                mlir::Location loc, bool value) {
  return prim::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                  rewriter.getBoolAttr(value));
}

inline mlir::Value noneConstant(mlir::PatternRewriter &rewriter,
                                mlir::Location loc) {
  return prim::ConstantOp::create(rewriter, loc,
                                  prim::NoneType::get(rewriter.getContext()),
                                  rewriter.getUnitAttr());
}

inline mlir::Value intList(mlir::PatternRewriter &rewriter, mlir::Location loc,
                           llvm::ArrayRef<int64_t> values) {
  llvm::SmallVector<mlir::Value> elements;
  for (int64_t value : values)
    elements.push_back(intConstant(rewriter, loc, value));
  return prim::ListConstructOp::create(
      rewriter, loc,
      prim::ListType::get(rewriter.getContext(), rewriter.getI64Type()),
      elements);
}

} // namespace tsir::decompose

#endif // TSIR_PASSES_CONVERSION_DECOMPOSE_CONSTANTBUILDERS_H
