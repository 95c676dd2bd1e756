//===- DtypeConversion.cpp - convert-aten-to-linalg: to and type_as -------===//
//
// The dtype conversions (to.dtype, to.device, to.dtype_layout, to.other,
// to.prim_Device, to.prim_dtype, type_as): an elementwise cast with torch's
// rules (floats truncate toward zero into integers, anything non-zero is
// true, unsigned sources zero-extend) when the dtype changes, and the input
// itself when it does not. The device is not looked at: the lowering
// targets one device per graph.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseFamily.h"

#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {
template <typename OpTy>
class DtypeConversionPattern : public OpConversionPattern<OpTy> {
public:
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = dyn_cast_or_null<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getResult().getType()));
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result dtype or rank unknown");
    Value self = adaptor.getSelf();
    auto selfType = dyn_cast<RankedTensorType>(self.getType());
    if (!selfType)
      return rewriter.notifyMatchFailure(op, "input dtype or rank unknown");
    bool srcUnsigned = isUnsignedDtype(op.getSelf().getType());
    bool dstUnsigned = isUnsignedDtype(op.getResult().getType());
    if (selfType == resultType && srcUnsigned == dstUnsigned) {
      rewriter.replaceOp(op, self);
      return success();
    }
    Type element = resultType.getElementType();
    ElementwiseOperand operand{self, Type(), srcUnsigned};
    Value result = buildElementwiseOp(
        rewriter, op.getLoc(), resultType, operand,
        [&](OpBuilder &b, Location loc, ValueRange e) {
          return castElement(b, loc, e[0], element, srcUnsigned);
        });
    if (!result)
      return rewriter.notifyMatchFailure(op, "input shape is not the result's");
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void conversion::populateDtypeConversionPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<DtypeConversionPattern<aten::ToDtypeOp>,
               DtypeConversionPattern<aten::ToDeviceOp>,
               DtypeConversionPattern<aten::ToDtypeLayoutOp>,
               DtypeConversionPattern<aten::ToOtherOp>,
               DtypeConversionPattern<aten::ToPrimDeviceOp>,
               DtypeConversionPattern<aten::ToPrimDtypeOp>,
               DtypeConversionPattern<aten::TypeAsOp>>(typeConverter,
                                                       patterns.getContext());
}
