//===- ElementwiseFamily.h - The elementwise family's files -----*- C++ -*-===//
//
// The elementwise family of convert-aten-to-linalg is split by kind
// (arithmetic, unary math, activations, comparisons and logic, selection,
// dtype conversions); populateElementwisePatterns (Elementwise.cpp) calls
// the populate function of each. This header also holds what their patterns
// share: the types an op computes in and the one-call lowering of an op to a
// broadcasting linalg.generic. Private to AtenToLinalg/.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_ATENTOLINALG_ELEMENTWISEFAMILY_H
#define TSIR_PASSES_CONVERSION_ATENTOLINALG_ELEMENTWISEFAMILY_H

#include "../Common/Broadcast.h"

#include "mlir/Transforms/DialectConversion.h"

#include <optional>
#include <string>

namespace tsir::conversion {

#define TSIR_DECLARE_ELEMENTWISE_KIND(name)                                    \
  void populate##name##Patterns(const mlir::TypeConverter &typeConverter,      \
                                mlir::RewritePatternSet &patterns)

/// add/sub/mul/div/remainder/pow/lerp/maximum... (Arithmetic.cpp).
TSIR_DECLARE_ELEMENTWISE_KIND(Arithmetic);
/// exp/log/sqrt/trig/erf/rounding/sign/isnan... (UnaryMath.cpp).
TSIR_DECLARE_ELEMENTWISE_KIND(UnaryMath);
/// xlogy/logaddexp/hypot/copysign/fmin/fmax/heaviside/ldexp/float_power
/// (BinaryMath.cpp).
TSIR_DECLARE_ELEMENTWISE_KIND(BinaryMath);
/// relu/gelu/silu/elu/hardtanh/softplus/prelu... and clamp (Activations.cpp).
TSIR_DECLARE_ELEMENTWISE_KIND(Activation);
/// eq/ne/lt/le/gt/ge, logical_* and bitwise ops (Comparison.cpp).
TSIR_DECLARE_ELEMENTWISE_KIND(Comparison);
/// where and masked_fill (Selection.cpp).
TSIR_DECLARE_ELEMENTWISE_KIND(Selection);
/// to.* and type_as (DtypeConversion.cpp).
TSIR_DECLARE_ELEMENTWISE_KIND(DtypeConversion);

#undef TSIR_DECLARE_ELEMENTWISE_KIND

/// The types one elementwise op computes with.
struct ElementwiseTypes {
  /// The converted type of the op's (single) result.
  mlir::RankedTensorType resultType;
  /// The builtin type the body computes in (getComputeType of a dtype).
  mlir::Type computeType;
  /// Whether `computeType` stands for an unsigned integer dtype.
  bool isUnsigned = false;

  bool isFloat() const { return mlir::isa<mlir::FloatType>(computeType); }
};

/// How an op computes on bool: in i1 (logic, selection), or in i8 so that
/// arithmetic saturates the way torch's bool arithmetic does (true + true
/// is true) once the result is cast back with `!= 0`.
enum class BoolCompute { AsI1, AsI8 };

/// The converted result type of `op` and the compute type of its dtype; a
/// match failure (reported on `rewriter`) when the dtype or rank is unknown.
mlir::FailureOr<ElementwiseTypes>
getResultComputeTypes(mlir::ConversionPatternRewriter &rewriter,
                      mlir::Operation *op,
                      const mlir::TypeConverter &typeConverter,
                      BoolCompute boolCompute = BoolCompute::AsI8);

/// Like getResultComputeTypes, but computing in torch's promoted dtype of
/// `promoted` (original operands), as comparisons do whatever their result.
mlir::FailureOr<ElementwiseTypes> getPromotedComputeTypes(
    mlir::ConversionPatternRewriter &rewriter, mlir::Operation *op,
    const mlir::TypeConverter &typeConverter, mlir::ValueRange promoted);

/// The body of an elementwise op: elements (a null Value where the operand
/// was None) to one result.
using ElementwiseBody = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// Replaces `op` by a broadcasting linalg.generic over `converted` (tensors
/// and scalars; None operands, recognised on `original`, reach the body as
/// null Values), every element cast to `types.computeType` (unsigned where
/// the original dtype is). Fails (reported) on an operand that is neither a
/// ranked tensor, a numeric scalar nor None.
mlir::LogicalResult
replaceWithElementwise(mlir::ConversionPatternRewriter &rewriter,
                       mlir::Operation *op, const ElementwiseTypes &types,
                       mlir::ValueRange converted, mlir::ValueRange original,
                       ElementwiseBody body);

/// An op lowered by one body over all its operands, each cast to the
/// compute type of the op's result dtype (ops whose extra operands are
/// Scalars, as alpha or negative_slope, take them as elements too).
template <typename OpTy>
class ElementwiseOpPattern : public mlir::OpConversionPattern<OpTy> {
public:
  using Body = mlir::Value (*)(mlir::OpBuilder &, mlir::Location,
                               mlir::ValueRange, const ElementwiseTypes &);

  ElementwiseOpPattern(const mlir::TypeConverter &typeConverter,
                       mlir::MLIRContext *context, Body body,
                       BoolCompute boolCompute)
      : mlir::OpConversionPattern<OpTy>(typeConverter, context), body(body),
        boolCompute(boolCompute) {}

  mlir::LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    mlir::FailureOr<ElementwiseTypes> types = getResultComputeTypes(
        rewriter, op, *this->getTypeConverter(), boolCompute);
    if (mlir::failed(types))
      return mlir::failure();
    return replaceWithElementwise(
        rewriter, op, *types, adaptor.getOperands(), op->getOperands(),
        [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange elements) {
          return body(b, loc, elements, *types);
        });
  }

private:
  Body body;
  BoolCompute boolCompute;
};

/// Adds an ElementwiseOpPattern for `OpTy`.
template <typename OpTy>
void addElementwisePattern(const mlir::TypeConverter &typeConverter,
                           mlir::RewritePatternSet &patterns,
                           typename ElementwiseOpPattern<OpTy>::Body body,
                           BoolCompute boolCompute = BoolCompute::AsI8) {
  patterns.add<ElementwiseOpPattern<OpTy>>(typeConverter, patterns.getContext(),
                                           body, boolCompute);
}

//===----------------------------------------------------------------------===//
// Scalar arithmetic on one compute type (int, unsigned int or float)
//===----------------------------------------------------------------------===//

mlir::Value buildAdd(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                     mlir::Value rhs);
mlir::Value buildSub(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                     mlir::Value rhs);
mlir::Value buildMul(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                     mlir::Value rhs);
/// True division for floats; truncating division for ints, where a zero
/// divisor (torch raises) yields 0 rather than trapping.
mlir::Value buildDiv(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                     mlir::Value rhs, bool isUnsigned = false);
/// The NaN-propagating maximum/minimum of torch.maximum/minimum.
mlir::Value buildMax(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                     mlir::Value rhs, bool isUnsigned = false);
mlir::Value buildMin(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                     mlir::Value rhs, bool isUnsigned = false);
} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_ATENTOLINALG_ELEMENTWISEFAMILY_H
