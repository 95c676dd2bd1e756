//===- Selection.cpp - convert-aten-to-linalg: where and masked_fill ------===//
//
// where (self, ScalarSelf, ScalarOther, Scalar) and masked_fill (Scalar and
// Tensor value) as broadcasting linalg.generics around arith.select. The
// condition or mask is tested for non-zero (torch 1.13 still takes uint8
// masks); the chosen values are cast to the result dtype, which
// refine-types promoted.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseFamily.h"

#include "../Common/Utils.h"

#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

/// Replaces `op` by `select(condition, onTrue, onFalse)` over broadcast
/// operands (converted values; the originals tell unsigned dtypes).
static LogicalResult
replaceWithSelect(ConversionPatternRewriter &rewriter, Operation *op,
                  const TypeConverter &typeConverter, Value condition,
                  Value onTrue, Value onFalse, Value originalCondition,
                  Value originalTrue, Value originalFalse) {
  auto resultType = dyn_cast_or_null<RankedTensorType>(
      typeConverter.convertType(op->getResult(0).getType()));
  if (!resultType)
    return rewriter.notifyMatchFailure(op, "result dtype or rank unknown");
  for (Value value : {condition, onTrue, onFalse})
    if (!isa<RankedTensorType, IntegerType, FloatType>(value.getType()))
      return rewriter.notifyMatchFailure(
          op, "operand is not a tensor of known dtype and rank or a number");
  Type element = resultType.getElementType();
  ElementwiseOperand operands[] = {
      {condition, rewriter.getI1Type(),
       isUnsignedDtype(originalCondition.getType())},
      {onTrue, element, isUnsignedDtype(originalTrue.getType())},
      {onFalse, element, isUnsignedDtype(originalFalse.getType())}};
  Value result = buildElementwiseOp(
      rewriter, op->getLoc(), resultType, operands,
      [](OpBuilder &b, Location loc, ValueRange e) -> Value {
        return arith::SelectOp::create(b, loc, e[0], e[1], e[2]);
      });
  if (!result)
    return rewriter.notifyMatchFailure(
        op, "operand shapes do not broadcast to the result's");
  rewriter.replaceOp(op, result);
  return success();
}

namespace {
/// where.self and its Scalar overloads.
template <typename OpTy> class WherePattern : public OpConversionPattern<OpTy> {
public:
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return replaceWithSelect(rewriter, op, *this->getTypeConverter(),
                             adaptor.getCondition(), adaptor.getSelf(),
                             adaptor.getOther(), op.getCondition(),
                             op.getSelf(), op.getOther());
  }
};

/// masked_fill.Scalar and .Tensor: `value` where the mask holds.
template <typename OpTy>
class MaskedFillPattern : public OpConversionPattern<OpTy> {
public:
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return replaceWithSelect(rewriter, op, *this->getTypeConverter(),
                             adaptor.getMask(), adaptor.getValue(),
                             adaptor.getSelf(), op.getMask(), op.getValue(),
                             op.getSelf());
  }
};
} // namespace

void conversion::populateSelectionPatterns(const TypeConverter &typeConverter,
                                           RewritePatternSet &patterns) {
  patterns.add<
      WherePattern<aten::WhereSelfOp>, WherePattern<aten::WhereScalarOtherOp>,
      WherePattern<aten::WhereScalarSelfOp>, WherePattern<aten::WhereScalarOp>,
      MaskedFillPattern<aten::MaskedFillScalarOp>,
      MaskedFillPattern<aten::MaskedFillTensorOp>>(typeConverter,
                                                   patterns.getContext());
}
