//===- Comparison.cpp - convert-aten-to-linalg: comparisons and logic -----===//
//
// eq/ne/lt/le/gt/ge (Tensor and Scalar), logical_and/or/xor/not and the
// bitwise ops (__and__/__or__/__xor__, bitwise_not) as broadcasting
// linalg.generics. Comparisons compute in torch's promoted dtype of their
// operands (an int tensor against 2.5 compares in float) and produce bool;
// the logical ops test each operand for non-zero first.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseFamily.h"

#include "../Common/ConfiguredPattern.h"
#include "../Common/Utils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {
using Comparison = scalar::CompareOp;

/// eq/ne/lt/le/gt/ge, Tensor and Scalar overloads.
template <typename OpTy>
class ComparisonPattern : public ConfiguredPattern<OpTy, Comparison> {
public:
  using ConfiguredPattern<OpTy, Comparison>::ConfiguredPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ElementwiseTypes> types = getPromotedComputeTypes(
        rewriter, op, *this->getTypeConverter(), {op.getSelf(), op.getOther()});
    if (failed(types))
      return failure();
    bool isUnsigned = types->isUnsigned || types->computeType.isInteger(1);
    return replaceWithElementwise(
        rewriter, op, *types, {adaptor.getSelf(), adaptor.getOther()},
        {op.getSelf(), op.getOther()},
        [&](OpBuilder &b, Location loc, ValueRange e) -> Value {
          if (isa<FloatType>(e[0].getType()))
            return arith::CmpFOp::create(b, loc, floatPredicate(this->config),
                                         e[0], e[1]);
          return arith::CmpIOp::create(
              b, loc, intPredicate(this->config, isUnsigned), e[0], e[1]);
        });
  }
};

enum class Logic { And, Or, Xor };

Value buildLogic(OpBuilder &b, Location loc, Logic logic, Value lhs,
                 Value rhs) {
  switch (logic) {
  case Logic::And:
    return arith::AndIOp::create(b, loc, lhs, rhs);
  case Logic::Or:
    return arith::OrIOp::create(b, loc, lhs, rhs);
  case Logic::Xor:
    return arith::XOrIOp::create(b, loc, lhs, rhs);
  }
  llvm_unreachable("unknown logic op");
}

/// logical_and/or/xor: each operand is `!= 0` first (NaN is true).
template <typename OpTy>
class LogicalPattern : public ConfiguredPattern<OpTy, Logic> {
public:
  using ConfiguredPattern<OpTy, Logic>::ConfiguredPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ElementwiseTypes> types = getResultComputeTypes(
        rewriter, op, *this->getTypeConverter(), BoolCompute::AsI1);
    if (failed(types))
      return failure();
    ElementwiseTypes asBool = *types;
    asBool.computeType = rewriter.getI1Type();
    asBool.isUnsigned = false;
    return replaceWithElementwise(
        rewriter, op, asBool, adaptor.getOperands(), op->getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange e) {
          return buildLogic(b, loc, this->config, e[0], e[1]);
        });
  }
};

/// __and__/__or__/__xor__.Tensor: bitwise in the result dtype (bool or
/// integer).
template <typename OpTy>
class BitwisePattern : public ConfiguredPattern<OpTy, Logic> {
public:
  using ConfiguredPattern<OpTy, Logic>::ConfiguredPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ElementwiseTypes> types = getResultComputeTypes(
        rewriter, op, *this->getTypeConverter(), BoolCompute::AsI1);
    if (failed(types))
      return failure();
    if (types->isFloat())
      return rewriter.notifyMatchFailure(op, "bitwise op on a float dtype");
    return replaceWithElementwise(
        rewriter, op, *types, adaptor.getOperands(), op->getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange e) {
          return buildLogic(b, loc, this->config, e[0], e[1]);
        });
  }
};
} // namespace

/// logical_not: x == 0.
static Value logicalNotBody(OpBuilder &b, Location loc, ValueRange e,
                            const ElementwiseTypes &) {
  Value trueValue = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  return arith::XOrIOp::create(b, loc, e[0], trueValue);
}

/// bitwise_not: all bits flipped (logical not on bool).
static Value bitwiseNotBody(OpBuilder &b, Location loc, ValueRange e,
                            const ElementwiseTypes &) {
  Value ones = createScalarConstant(b, loc, e[0].getType(), -1);
  if (e[0].getType().isInteger(1))
    ones = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  return arith::XOrIOp::create(b, loc, e[0], ones);
}

namespace {
/// logical_not computes on the operand tested for non-zero.
class LogicalNotPattern : public OpConversionPattern<aten::LogicalNotOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::LogicalNotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ElementwiseTypes> types = getResultComputeTypes(
        rewriter, op, *getTypeConverter(), BoolCompute::AsI1);
    if (failed(types))
      return failure();
    ElementwiseTypes asBool = *types;
    asBool.computeType = rewriter.getI1Type();
    asBool.isUnsigned = false;
    return replaceWithElementwise(
        rewriter, op, asBool, adaptor.getSelf(), op.getSelf(),
        [&](OpBuilder &b, Location loc, ValueRange e) {
          return logicalNotBody(b, loc, e, asBool);
        });
  }
};

/// bitwise_not on bool or an integer dtype.
class BitwiseNotPattern : public OpConversionPattern<aten::BitwiseNotOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::BitwiseNotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ElementwiseTypes> types = getResultComputeTypes(
        rewriter, op, *getTypeConverter(), BoolCompute::AsI1);
    if (failed(types))
      return failure();
    if (types->isFloat())
      return rewriter.notifyMatchFailure(op, "bitwise_not on a float dtype");
    return replaceWithElementwise(
        rewriter, op, *types, adaptor.getSelf(), op.getSelf(),
        [&](OpBuilder &b, Location loc, ValueRange e) {
          return bitwiseNotBody(b, loc, e, *types);
        });
  }
};

/// A comparison in its Tensor and Scalar overloads.
template <typename TensorOp, typename ScalarOp>
void addComparison(const TypeConverter &typeConverter,
                   RewritePatternSet &patterns, Comparison comparison) {
  patterns.add<ComparisonPattern<TensorOp>, ComparisonPattern<ScalarOp>>(
      typeConverter, patterns.getContext(), comparison);
}
} // namespace

void conversion::populateComparisonPatterns(const TypeConverter &typeConverter,
                                            RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  auto &tc = typeConverter;
  addComparison<aten::EqTensorOp, aten::EqScalarOp>(tc, patterns,
                                                    Comparison::Eq);
  addComparison<aten::NeTensorOp, aten::NeScalarOp>(tc, patterns,
                                                    Comparison::Ne);
  addComparison<aten::LtTensorOp, aten::LtScalarOp>(tc, patterns,
                                                    Comparison::Lt);
  addComparison<aten::LeTensorOp, aten::LeScalarOp>(tc, patterns,
                                                    Comparison::Le);
  addComparison<aten::GtTensorOp, aten::GtScalarOp>(tc, patterns,
                                                    Comparison::Gt);
  addComparison<aten::GeTensorOp, aten::GeScalarOp>(tc, patterns,
                                                    Comparison::Ge);
  patterns.add<LogicalPattern<aten::LogicalAndOp>>(tc, context, Logic::And);
  patterns.add<LogicalPattern<aten::LogicalOrOp>>(tc, context, Logic::Or);
  patterns.add<LogicalPattern<aten::LogicalXorOp>>(tc, context, Logic::Xor);
  patterns.add<BitwisePattern<aten::DunderAndTensorOp>>(tc, context,
                                                        Logic::And);
  patterns.add<BitwisePattern<aten::DunderOrTensorOp>>(tc, context, Logic::Or);
  patterns.add<BitwisePattern<aten::DunderXorTensorOp>>(tc, context,
                                                        Logic::Xor);
  patterns.add<LogicalNotPattern, BitwiseNotPattern>(tc, context);
}
