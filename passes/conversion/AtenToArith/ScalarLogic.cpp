//===- ScalarLogic.cpp - convert-aten-to-arith: comparisons and logic ----===//
//
// TorchScript's scalar comparisons (every int/float/bool overload), bool
// logic, `is`/`is not` tests that the types decide, and int/float/bool
// prim.Constants and prim.Uninitialized placeholders, as arith.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "../Common/Utils.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tsir;
using tsir::conversion::castScalar;

using tsir::scalar::CompareOp;
using tsir::conversion::floatPredicate;
using tsir::conversion::intPredicate;

/// Whether a value of `type` can be None at run time; an `is None` test on
/// any other type is false whatever the value.
static bool mayBeNone(Type type) {
  return isa<prim::NoneType, prim::OptionalType, prim::AnyType,
             prim::UnionType>(type);
}

/// The answer of `a is b` when the types alone give it: None is None;
/// None is never a value of a type that excludes it; an int is never a
/// float or a bool (TorchScript's identity of scalars compares their tags
/// first).
static std::optional<bool> decideIdentity(Type a, Type b) {
  bool aNone = isa<prim::NoneType>(a), bNone = isa<prim::NoneType>(b);
  if (aNone && bNone)
    return true;
  if ((aNone && !mayBeNone(b)) || (bNone && !mayBeNone(a)))
    return false;
  if (conversion::isBuiltinScalarType(a) &&
      conversion::isBuiltinScalarType(b) && a != b)
    return false;
  return std::nullopt;
}

/// Whether `a is b` is a comparison of two scalars of one type, which
/// TorchScript answers by their values.
static bool isScalarIdentity(Type a, Type b) {
  return a == b && conversion::isBuiltinScalarType(a);
}

namespace {

class ComparePattern : public ConversionPattern {
public:
  ComparePattern(const TypeConverter &typeConverter, MLIRContext *context,
                 StringRef opName, CompareOp kind)
      : ConversionPattern(typeConverter, opName, /*benefit=*/1, context),
        kind(kind) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (operands.size() != 2 ||
        !llvm::all_of(op->getOperandTypes(), conversion::isBuiltinScalarType))
      return rewriter.notifyMatchFailure(op, "not a comparison of scalars");
    Location loc = op->getLoc();
    Value lhs = operands[0], rhs = operands[1];
    Type lhsType = lhs.getType(), rhsType = rhs.getType();
    if (isa<FloatType>(lhsType) || isa<FloatType>(rhsType)) {
      // An int compares with a float as its double does (torch's C++
      // comparison converts it the same way).
      Type f64 = rewriter.getF64Type();
      rewriter.replaceOpWithNewOp<arith::CmpFOp>(
          op, floatPredicate(kind), castScalar(rewriter, loc, lhs, f64),
          castScalar(rewriter, loc, rhs, f64));
      return success();
    }
    // Bools order as 0 < 1 (as i1 they would be signed, true = -1): widen
    // them, unless both sides are bools and only equality is asked.
    bool bothBools = lhsType.isInteger(1) && rhsType.isInteger(1);
    bool equality = kind == CompareOp::Eq || kind == CompareOp::Ne;
    if (!bothBools || !equality) {
      lhs = castScalar(rewriter, loc, lhs, rewriter.getI64Type());
      rhs = castScalar(rewriter, loc, rhs, rewriter.getI64Type());
    }
    arith::CmpIPredicate predicate = intPredicate(kind);
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(op, predicate, lhs, rhs);
    return success();
  }

private:
  CompareOp kind;
};

struct NotPattern : OpConversionPattern<aten::DunderNotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::DunderNotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value trueValue = arith::ConstantOp::create(rewriter, op.getLoc(),
                                                rewriter.getBoolAttr(true));
    rewriter.replaceOpWithNewOp<arith::XOrIOp>(op, adaptor.getSelf(),
                                               trueValue);
    return success();
  }
};

/// `x is None` / `x is not None` where the types decide it, and `a is b`
/// on two ints, floats or bools, which compares values. An Optional
/// operand is left alone: its answer depends on the value.
template <typename OpTy, bool negated>
struct IdentityPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type selfType = op.getSelf().getType(), objType = op.getObj().getType();
    if (std::optional<bool> same = decideIdentity(selfType, objType)) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, rewriter.getBoolAttr(*same != negated));
      return success();
    }
    if (!isScalarIdentity(selfType, objType))
      return rewriter.notifyMatchFailure(op, "the types do not decide it");
    Value lhs = adaptor.getSelf(), rhs = adaptor.getObj();
    if (isa<FloatType>(selfType))
      rewriter.replaceOpWithNewOp<arith::CmpFOp>(
          op, negated ? arith::CmpFPredicate::UNE : arith::CmpFPredicate::OEQ,
          lhs, rhs);
    else
      rewriter.replaceOpWithNewOp<arith::CmpIOp>(
          op, negated ? arith::CmpIPredicate::ne : arith::CmpIPredicate::eq,
          lhs, rhs);
    return success();
  }
};

/// An int/float/bool prim.Constant holds the attribute arith.constant
/// takes.
struct ScalarConstantPattern : OpConversionPattern<prim::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(prim::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<TypedAttr>(op.getValue());
    if (!conversion::isBuiltinScalarType(op.getType()) || !value ||
        value.getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "not a scalar constant");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, value);
    return success();
  }
};

/// TorchScript's placeholder for a value a path never defines (the carried
/// values a `break` or `continue` leaves unset): nothing reads it, so any
/// value does; 0 keeps the code deterministic.
struct ScalarUninitializedPattern : OpConversionPattern<prim::UninitializedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(prim::UninitializedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!conversion::isBuiltinScalarType(type))
      return rewriter.notifyMatchFailure(op, "not a scalar");
    rewriter.replaceOp(
        op, conversion::createScalarConstant(rewriter, op.getLoc(), type, 0));
    return success();
  }
};

} // namespace

template <typename... OpTys>
static void addCompare(const TypeConverter &typeConverter,
                       RewritePatternSet &patterns, CompareOp kind) {
  (patterns.add<ComparePattern>(typeConverter, patterns.getContext(),
                                OpTys::getOperationName(), kind),
   ...);
}

void tsir::conversion::populateScalarLogicPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  using namespace aten;
  const TypeConverter &tc = typeConverter;
  addCompare<EqIntOp, EqFloatOp, EqIntFloatOp, EqFloatIntOp, EqBoolOp, EqOp>(
      tc, patterns, CompareOp::Eq);
  addCompare<NeIntOp, NeFloatOp, NeIntFloatOp, NeFloatIntOp, NeBoolOp, NeOp>(
      tc, patterns, CompareOp::Ne);
  addCompare<LtIntOp, LtFloatOp, LtIntFloatOp, LtFloatIntOp, LtOp>(
      tc, patterns, CompareOp::Lt);
  addCompare<LeIntOp, LeFloatOp, LeIntFloatOp, LeFloatIntOp, LeOp>(
      tc, patterns, CompareOp::Le);
  addCompare<GtIntOp, GtFloatOp, GtIntFloatOp, GtFloatIntOp, GtOp>(
      tc, patterns, CompareOp::Gt);
  addCompare<GeIntOp, GeFloatOp, GeIntFloatOp, GeFloatIntOp, GeOp>(
      tc, patterns, CompareOp::Ge);
  patterns.add<NotPattern, ScalarConstantPattern, ScalarUninitializedPattern>(
      typeConverter, patterns.getContext());
  populateIdentityTestPatterns(typeConverter, patterns);
}

void tsir::conversion::populateIdentityTestPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<IdentityPattern<aten::DunderIsOp, /*negated=*/false>,
               IdentityPattern<aten::DunderIsnotOp, /*negated=*/true>>(
      typeConverter, patterns.getContext());
}

bool tsir::conversion::isLowerableIdentityTest(Operation *op) {
  if (!isa<aten::DunderIsOp, aten::DunderIsnotOp>(op))
    return false;
  Type a = op->getOperand(0).getType(), b = op->getOperand(1).getType();
  return decideIdentity(a, b).has_value() || isScalarIdentity(a, b);
}
