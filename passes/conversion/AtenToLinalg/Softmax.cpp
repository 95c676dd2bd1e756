//===- Softmax.cpp - convert-aten-to-linalg: softmax and log_softmax ------===//
//
// softmax.int, log_softmax.int (both with an optional dtype) and _softmax,
// numerically stable: the max along the dim is subtracted before exp, then
// exp(x - max) / sum (softmax) or x - max - log(sum) (log_softmax). The
// input is cast to the result dtype first, as the dtype argument asks;
// f16/bf16 compute in f32.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseFamily.h"
#include "ReductionBuilder.h"

#include "../Common/ConfiguredPattern.h"
#include "../Common/Utils.h"

#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

Value tsir::conversion::buildSoftmax(OpBuilder &b, Location loc, Value input,
                                     ArrayRef<int64_t> dims, Type computeType,
                                     bool inputUnsigned,
                                     RankedTensorType resultType, bool log) {
  int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
  Value max = buildMaxOverDims(b, loc, input, dims, computeType, inputUnsigned);
  Value sum =
      buildShiftedExpSum(b, loc, input, max, dims, computeType, inputUnsigned);
  // max and sum back at the input's rank (1 along dim) to broadcast.
  max = insertReducedDims(b, loc, max, dims, rank);
  sum = insertReducedDims(b, loc, sum, dims, rank);
  ElementwiseOperand operands[] = {{input, computeType, inputUnsigned},
                                   {max, Type(), false},
                                   {sum, Type(), false}};
  return buildElementwiseOp(
      b, loc, resultType, operands,
      [&](OpBuilder &nb, Location l, ValueRange e) -> Value {
        Value shifted = arith::SubFOp::create(nb, l, e[0], e[1]);
        if (log)
          return arith::SubFOp::create(nb, l, shifted,
                                       math::LogOp::create(nb, l, e[2]));
        return arith::DivFOp::create(nb, l, math::ExpOp::create(nb, l, shifted),
                                     e[2]);
      });
}

namespace {
template <typename OpTy>
class SoftmaxPattern : public ConfiguredPattern<OpTy, bool> {
public:
  using ConfiguredPattern<OpTy, bool>::ConfiguredPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = dyn_cast_or_null<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getResult().getType()));
    Value input = adaptor.getSelf();
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    if (!resultType || !inputType)
      return rewriter.notifyMatchFailure(op, "dtype or rank unknown");
    std::optional<int64_t> dimValue = matchConstantInt(op.getDim());
    int64_t rank = inputType.getRank();
    std::optional<int64_t> dim =
        dimValue ? normalizeDim(*dimValue, rank) : std::nullopt;
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim is not a constant in range");
    Type accType = getComputeType(resultType.getElementType());
    if (!isa<FloatType>(accType))
      return rewriter.notifyMatchFailure(op, "softmax to an integer dtype");
    Location loc = op.getLoc();
    bool inputUnsigned = isUnsignedDtype(op.getSelf().getType());
    SmallVector<int64_t> dims;
    if (rank > 0)
      dims.push_back(*dim);

    Value result =
        buildSoftmax(rewriter, loc, input, dims, accType, inputUnsigned,
                     resultType, /*log=*/this->config);
    if (!result)
      return rewriter.notifyMatchFailure(op, "result shape mismatch");
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void conversion::populateSoftmaxPatterns(const TypeConverter &typeConverter,
                                         RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<SoftmaxPattern<aten::SoftmaxIntOp>,
               SoftmaxPattern<aten::PrivateSoftmaxOp>>(typeConverter, context,
                                                       /*isLog=*/false);
  patterns.add<SoftmaxPattern<aten::LogSoftmaxIntOp>>(typeConverter, context,
                                                      /*isLog=*/true);
}
