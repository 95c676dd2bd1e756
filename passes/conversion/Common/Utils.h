//===- Utils.h - Helpers shared by tsir's conversion patterns ---*- C++ -*-===//
//
// What the convert-* patterns share: the constant matchers of
// tsir/Transforms/ConstantMatchers.h, the original prim types of converted values, scalar
// casts with TorchScript's rules, and small tensor builders. Private to
// passes/conversion.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_COMMON_UTILS_H
#define TSIR_PASSES_CONVERSION_COMMON_UTILS_H

#include "tsir-runtime/ScalarSemantics.h"
#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Transforms/ConstantMatchers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tsir::conversion {

// The constant matchers (matchConstantInt, isNone, normalizeDim, ...) of
// tsir/Transforms/ConstantMatchers.h, which the decompositions share.
using tsir::getListElements;
using tsir::isNone;
using tsir::matchConstantBool;
using tsir::matchConstantFloat;
using tsir::matchConstantInt;
using tsir::matchConstantIntList;
using tsir::matchConstantString;
using tsir::normalizeDim;

/// Converts a scalar `value` to `type` (int/float/bool builtin types) with
/// torch's rules: float to int truncates toward zero, to bool is `!= 0`,
/// ints are sign-extended unless `srcUnsigned`.
mlir::Value castScalar(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value, mlir::Type type,
                       bool srcUnsigned = false);

/// An empty `tensor<...>` of `type` whose dynamic dims are taken, in order,
/// from `dynamicSizes`.
mlir::Value createEmptyTensor(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::RankedTensorType type,
                              mlir::ValueRange dynamicSizes = {});

/// The size of dim `dim` of a ranked tensor value, as an `index`.
mlir::Value getDimSize(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value tensor, int64_t dim);

/// The dynamic sizes of `tensor` (an `index` per `?` dim), to build a tensor
/// of the same shape.
llvm::SmallVector<mlir::Value> getDynamicDimSizes(mlir::OpBuilder &b,
                                                  mlir::Location loc,
                                                  mlir::Value tensor);

/// A `tensor<...>` of `type` filled with `fill` (a scalar of the element
/// type).
mlir::Value createFilledTensor(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::RankedTensorType type, mlir::Value fill,
                               mlir::ValueRange dynamicSizes = {});

/// A scalar constant of element type `type` (int, float or i1) with value
/// `v`.
mlir::Value createScalarConstant(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Type type, double v);

/// The arith predicate of a comparison of floats: ordered, except `!=`,
/// which holds for NaN (NaN != NaN), as in TorchScript and torch.
mlir::arith::CmpFPredicate floatPredicate(scalar::CompareOp op);

/// The arith predicate of a comparison of integers; unsigned ones also
/// serve bools (false < true).
mlir::arith::CmpIPredicate intPredicate(scalar::CompareOp op,
                                        bool isUnsigned = false);

} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_COMMON_UTILS_H
