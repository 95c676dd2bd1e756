//===- PrimScalarOps.cpp - convert-aten-to-arith: abs, min and max --------===//
//
// Python's builtin abs(), min() and max() on ints and floats, which
// TorchScript records as `prim::abs`/`prim::min`/`prim::max` nodes (kept by
// tsir as prim.Generic, having no typed op), as arith/math with
// TorchScript's semantics: min(a, b) is `a < b ? a : b` and max(a, b)
// `a > b ? a : b`, so a NaN second operand wins and a NaN first one loses;
// an int and a float compare as floats; abs of INT64_MIN wraps.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "../Common/Utils.h"
#include "tsir/Conversion/Passes.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tsir;
using tsir::conversion::castScalar;
using tsir::conversion::isBuiltinScalarType;

bool tsir::isLoweredPrimScalarOp(Operation *op) {
  auto generic = dyn_cast<prim::GenericOp>(op);
  if (!generic || generic->getNumRegions() != 0 ||
      generic->getNumResults() != 1 ||
      !isBuiltinScalarType(generic->getResult(0).getType()) ||
      !llvm::all_of(generic.getInputs().getTypes(), isBuiltinScalarType))
    return false;
  StringRef kind = generic.getKind();
  size_t arity = generic.getInputs().size();
  return (kind == "prim::abs" && arity == 1) ||
         ((kind == "prim::min" || kind == "prim::max") && arity == 2);
}

namespace {

struct PrimScalarOpPattern : OpConversionPattern<prim::GenericOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(prim::GenericOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isLoweredPrimScalarOp(op))
      return rewriter.notifyMatchFailure(op, "not abs/min/max on scalars");
    Location loc = op.getLoc();
    Type resultType = op->getResult(0).getType();
    ValueRange inputs = adaptor.getInputs();
    Value result;
    if (op.getKind() == "prim::abs") {
      Value x = inputs.front();
      if (isa<FloatType>(x.getType())) {
        result = math::AbsFOp::create(rewriter, loc, x);
      } else {
        // Bools are ints here; INT64_MIN stays itself (0 - x wraps).
        x = castScalar(rewriter, loc, x, rewriter.getI64Type());
        Value zero = arith::ConstantOp::create(rewriter, loc,
                                               rewriter.getI64IntegerAttr(0));
        Value negative = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::slt, x, zero);
        Value negated = arith::SubIOp::create(rewriter, loc, zero, x);
        result = arith::SelectOp::create(rewriter, loc, negative, negated, x);
      }
    } else {
      bool isMin = op.getKind() == "prim::min";
      Value a = inputs[0], b = inputs[1];
      bool isFloat = isa<FloatType>(a.getType()) || isa<FloatType>(b.getType());
      Type type =
          isFloat ? Type(rewriter.getF64Type()) : Type(rewriter.getI64Type());
      a = castScalar(rewriter, loc, a, type);
      b = castScalar(rewriter, loc, b, type);
      Value pickA =
          isFloat
              ? Value(arith::CmpFOp::create(rewriter, loc,
                                            isMin ? arith::CmpFPredicate::OLT
                                                  : arith::CmpFPredicate::OGT,
                                            a, b))
              : Value(arith::CmpIOp::create(rewriter, loc,
                                            isMin ? arith::CmpIPredicate::slt
                                                  : arith::CmpIPredicate::sgt,
                                            a, b));
      result = arith::SelectOp::create(rewriter, loc, pickA, a, b);
    }
    rewriter.replaceOp(op, castScalar(rewriter, loc, result, resultType));
    return success();
  }
};

} // namespace

void tsir::conversion::populatePrimScalarOpPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<PrimScalarOpPattern>(typeConverter, patterns.getContext());
}
