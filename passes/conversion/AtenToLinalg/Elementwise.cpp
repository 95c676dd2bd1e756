//===- Elementwise.cpp - convert-aten-to-linalg: elementwise family -------===//
//
// The elementwise family's entry point, which registers the patterns of
// each of its files (ElementwiseFamily.h), and the helpers those share: the
// compute types of an op, the one-call lowering to a broadcasting
// linalg.generic, and scalar arithmetic in a compute type.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseFamily.h"
#include "PopulatePatterns.h"

#include "../Common/Utils.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

FailureOr<ElementwiseTypes> conversion::getResultComputeTypes(
    ConversionPatternRewriter &rewriter, Operation *op,
    const TypeConverter &typeConverter, BoolCompute boolCompute) {
  if (op->getNumResults() != 1)
    return rewriter.notifyMatchFailure(op, "expected one result");
  Type primType = op->getResult(0).getType();
  auto resultType =
      dyn_cast_or_null<RankedTensorType>(typeConverter.convertType(primType));
  if (!resultType)
    return rewriter.notifyMatchFailure(op, "result dtype or rank unknown");
  Type compute = getComputeType(resultType.getElementType());
  if (compute.isInteger(1) && boolCompute == BoolCompute::AsI8)
    compute = rewriter.getI8Type();
  return ElementwiseTypes{resultType, compute, isUnsignedDtype(primType)};
}

FailureOr<ElementwiseTypes> conversion::getPromotedComputeTypes(
    ConversionPatternRewriter &rewriter, Operation *op,
    const TypeConverter &typeConverter, ValueRange promoted) {
  auto resultType = dyn_cast_or_null<RankedTensorType>(
      typeConverter.convertType(op->getResult(0).getType()));
  if (!resultType)
    return rewriter.notifyMatchFailure(op, "result dtype or rank unknown");
  Type dtype = promoteOperandDtypes(promoted);
  Type element = signlessElementType(dtype);
  if (!element)
    return rewriter.notifyMatchFailure(op, "operand dtypes unknown");
  return ElementwiseTypes{resultType, getComputeType(element),
                          isUnsignedIntegerDtype(dtype)};
}

LogicalResult
conversion::replaceWithElementwise(ConversionPatternRewriter &rewriter,
                                   Operation *op, const ElementwiseTypes &types,
                                   ValueRange converted, ValueRange original,
                                   ElementwiseBody body) {
  SmallVector<ElementwiseOperand> operands;
  // Where each original operand went in `operands`; -1 for None.
  SmallVector<int> positions;
  for (auto [value, originalValue] : llvm::zip_equal(converted, original)) {
    if (isNone(originalValue)) {
      positions.push_back(-1);
      continue;
    }
    // A Scalar (`number`) whose producer is already converted (item(),
    // ScalarImplicit) arrives as a cast of its int or float: use that.
    if (auto cast = value.getDefiningOp<UnrealizedConversionCastOp>();
        cast && isa<prim::NumberType>(value.getType()) &&
        cast.getInputs().size() == 1 &&
        isa<IntegerType, FloatType>(cast.getInputs().front().getType()))
      value = cast.getInputs().front();
    if (!isa<RankedTensorType, IntegerType, FloatType>(value.getType()))
      return rewriter.notifyMatchFailure(
          op, "operand is not a tensor of known dtype and rank, a number or "
              "None");
    positions.push_back(operands.size());
    operands.push_back(
        {value, types.computeType, isUnsignedDtype(originalValue.getType())});
  }
  Value result = buildElementwiseOp(
      rewriter, op->getLoc(), types.resultType, operands,
      [&](OpBuilder &b, Location loc, ValueRange elements) {
        SmallVector<Value> withNone;
        for (int position : positions)
          withNone.push_back(position < 0 ? Value() : elements[position]);
        return body(b, loc, withNone);
      });
  if (!result)
    return rewriter.notifyMatchFailure(
        op, "operand shapes do not broadcast to the result's");
  rewriter.replaceOp(op, result);
  return success();
}

Value conversion::buildAdd(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType()))
    return arith::AddFOp::create(b, loc, lhs, rhs);
  return arith::AddIOp::create(b, loc, lhs, rhs);
}

Value conversion::buildSub(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType()))
    return arith::SubFOp::create(b, loc, lhs, rhs);
  return arith::SubIOp::create(b, loc, lhs, rhs);
}

Value conversion::buildMul(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType()))
    return arith::MulFOp::create(b, loc, lhs, rhs);
  return arith::MulIOp::create(b, loc, lhs, rhs);
}

Value conversion::buildMax(OpBuilder &b, Location loc, Value lhs, Value rhs,
                           bool isUnsigned) {
  if (isa<FloatType>(lhs.getType()))
    return arith::MaximumFOp::create(b, loc, lhs, rhs);
  if (isUnsigned || lhs.getType().isInteger(1))
    return arith::MaxUIOp::create(b, loc, lhs, rhs);
  return arith::MaxSIOp::create(b, loc, lhs, rhs);
}

Value conversion::buildMin(OpBuilder &b, Location loc, Value lhs, Value rhs,
                           bool isUnsigned) {
  if (isa<FloatType>(lhs.getType()))
    return arith::MinimumFOp::create(b, loc, lhs, rhs);
  if (isUnsigned || lhs.getType().isInteger(1))
    return arith::MinUIOp::create(b, loc, lhs, rhs);
  return arith::MinSIOp::create(b, loc, lhs, rhs);
}

void conversion::populateElementwisePatterns(const TypeConverter &typeConverter,
                                             RewritePatternSet &patterns) {
  populateArithmeticPatterns(typeConverter, patterns);
  populateUnaryMathPatterns(typeConverter, patterns);
  populateBinaryMathPatterns(typeConverter, patterns);
  populateActivationPatterns(typeConverter, patterns);
  populateComparisonPatterns(typeConverter, patterns);
  populateSelectionPatterns(typeConverter, patterns);
  populateDtypeConversionPatterns(typeConverter, patterns);
}
