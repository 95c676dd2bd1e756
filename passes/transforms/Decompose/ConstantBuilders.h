//===- ConstantBuilders.h - The constants decompositions build --*- C++ -*-===//
//
// A decomposition replaces an op by others that take constant operands
// (dims, sizes, flags, None); these build them as prim constants, and
// Shape gives the refined types of the ops they create.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_DECOMPOSE_CONSTANTBUILDERS_H
#define TSIR_PASSES_CONVERSION_DECOMPOSE_CONSTANTBUILDERS_H

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/PatternMatch.h"

#include <optional>

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

/// The static sizes and dtype of a refined tensor, if all are known.
struct Shape {
  mlir::Type dtype;
  llvm::SmallVector<int64_t> sizes;
  mlir::StringAttr device;

  static std::optional<Shape> of(mlir::Value value) {
    auto type = mlir::dyn_cast<prim::TensorType>(value.getType());
    if (!type || !type.getDtype() || !type.getHasSizes() ||
        llvm::is_contained(type.getSizes(), prim::TensorType::kUnknownSize))
      return std::nullopt;
    return Shape{type.getDtype(), llvm::SmallVector<int64_t>(type.getSizes()),
                 type.getDevice()};
  }

  /// A result of this dtype and device with other sizes.
  prim::TensorType withSizes(llvm::ArrayRef<int64_t> other) const {
    return prim::TensorType::get(dtype.getContext(), dtype, true, other, false,
                                 {}, device, {}, {});
  }
};

} // namespace tsir::decompose

#endif // TSIR_PASSES_CONVERSION_DECOMPOSE_CONSTANTBUILDERS_H
