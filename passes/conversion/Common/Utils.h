//===- Utils.h - Helpers shared by tsir's conversion patterns ---*- C++ -*-===//
//
// What the convert-* patterns share: reading constant operands (ints,
// floats, bools, None, int lists) through prim.Constant and
// prim.ListConstruct, the original prim types of converted values, scalar
// casts with TorchScript's rules, and small tensor builders. Private to
// passes/conversion.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_COMMON_UTILS_H
#define TSIR_PASSES_CONVERSION_COMMON_UTILS_H

#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Aten/ScalarSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tsir::conversion {

/// The int a `prim.Constant` (or `arith.constant`) defining `value` holds.
std::optional<int64_t> matchConstantInt(mlir::Value value);

/// The float a constant defining `value` holds; an int constant is accepted
/// and converted, as TorchScript's Scalar arguments are.
std::optional<double> matchConstantFloat(mlir::Value value);

/// The bool a constant defining `value` holds.
std::optional<bool> matchConstantBool(mlir::Value value);

/// The string a constant defining `value` holds (a mode, an equation).
std::optional<llvm::StringRef> matchConstantString(mlir::Value value);

/// Whether `value` is TorchScript's None: a `!prim.none` value, or a None
/// constant of an Optional type.
bool isNone(mlir::Value value);

/// The ints of an `int[]` operand: a list `prim.Constant`, or a
/// `prim.ListConstruct` whose elements are all constant.
std::optional<llvm::SmallVector<int64_t>> matchConstantIntList(mlir::Value value);

/// The elements of a `prim.ListConstruct` defining `value` (tensor lists of
/// cat/stack), or nullopt for any other list.
std::optional<llvm::SmallVector<mlir::Value>> getListElements(mlir::Value value);

/// A dim index in [0, rank), with Python's negative indexing; nullopt when
/// out of range. As in torch, a 0-d tensor accepts -1 and 0, both 0.
std::optional<int64_t> normalizeDim(int64_t dim, int64_t rank);

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
