//===- Ranges.cpp - convert-aten-to-linalg: arange, linspace, eye ---------===//
//
// The Creation family's ops whose elements depend on their index: arange
// and linspace (computed the way torch's CPU kernels compute them, so that
// float results match bit for bit where possible), eye and one_hot, each a
// linalg.generic over linalg.index.
//
//===----------------------------------------------------------------------===//

#include "IndexChecks.h"
#include "PopulatePatterns.h"
#include "ShapeHelpers.h"

#include "../Common/Utils.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {

bool isNumber(Value v) { return isa<IntegerType, FloatType>(v.getType()); }

/// `index` (an `index` value) as an i64.
Value indexToI64(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

/// arange(end), arange(start, end), arange(start, end, step). Like torch,
/// the length is ceil((end - start) / step) in double, and each element is
/// start + i * step in the accumulation type: double for float results,
/// int64 (start and step truncated) for integer ones.
template <typename OpTy> struct ConvertArange : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*this->getTypeConverter(), op);
    if (!type || type.getRank() != 1)
      return rewriter.notifyMatchFailure(op, "unknown result dtype or rank");
    Location loc = op.getLoc();
    auto i64 = [&](int64_t v) {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getI64IntegerAttr(v));
    };
    Value start = i64(0), end, step = i64(1);
    if constexpr (std::is_same_v<OpTy, aten::ArangeOp>) {
      end = adaptor.getEnd();
    } else {
      start = adaptor.getStart();
      end = adaptor.getEnd();
      if constexpr (std::is_same_v<OpTy, aten::ArangeStartStepOp>)
        step = adaptor.getStep();
    }
    if (!isNumber(start) || !isNumber(end) || !isNumber(step))
      return rewriter.notifyMatchFailure(op, "bounds are not numbers");
    SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(0)};
    if (type.isDynamicDim(0)) {
      Type f64 = rewriter.getF64Type();
      Value span = arith::SubFOp::create(rewriter, loc,
                                         castScalar(rewriter, loc, end, f64),
                                         castScalar(rewriter, loc, start, f64));
      Value count = math::CeilOp::create(
          rewriter, loc,
          arith::DivFOp::create(rewriter, loc, span,
                                castScalar(rewriter, loc, step, f64)));
      sizes[0] = arith::IndexCastOp::create(
                     rewriter, loc, rewriter.getIndexType(),
                     castScalar(rewriter, loc, count, rewriter.getI64Type()))
                     .getResult();
    }
    Type element = type.getElementType();
    Type acc = isa<FloatType>(element) ? Type(rewriter.getF64Type())
                                       : Type(rewriter.getI64Type());
    Value accStart = castScalar(rewriter, loc, start, acc);
    Value accStep = castScalar(rewriter, loc, step, acc);
    Value result = buildGather(
        rewriter, loc, type, sizes, {}, {},
        [&](OpBuilder &b, Location l, ValueRange, ValueRange indices) {
          Value i = castScalar(b, l, indexToI64(b, l, indices[0]), acc);
          Value v =
              isa<FloatType>(acc)
                  ? arith::AddFOp::create(
                        b, l, accStart, arith::MulFOp::create(b, l, i, accStep))
                        .getResult()
                  : arith::AddIOp::create(
                        b, l, accStart, arith::MulIOp::create(b, l, i, accStep))
                        .getResult();
          return castScalar(b, l, v, element);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// linspace as torch's CPU kernel computes it: step = (end - start) /
/// (steps - 1) in the result type (double for integer results); the first
/// half counts up from start, the second half down from end.
struct ConvertLinspace : OpConversionPattern<aten::LinspaceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::LinspaceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    if (!type || type.getRank() != 1 || !isNumber(adaptor.getStart()) ||
        !isNumber(adaptor.getEnd()) || !isNumber(adaptor.getSteps()))
      return rewriter.notifyMatchFailure(op, "needs a typed 1-D result and "
                                             "numbers");
    Location loc = op.getLoc();
    Type element = type.getElementType();
    Type acc = isa<FloatType>(element) ? element : rewriter.getF64Type();
    auto toAcc = [&](Value v) {
      return castScalar(rewriter, loc, castScalar(rewriter, loc, v, element),
                        acc);
    };
    Value start = toAcc(adaptor.getStart()), end = toAcc(adaptor.getEnd());
    Value steps = adaptor.getSteps();
    Value one =
        arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(1));
    Value step = arith::DivFOp::create(
        rewriter, loc, arith::SubFOp::create(rewriter, loc, end, start),
        castScalar(rewriter, loc,
                   arith::SubIOp::create(rewriter, loc, steps, one), acc));
    Value halfway = arith::DivSIOp::create(
        rewriter, loc, steps,
        arith::ConstantOp::create(rewriter, loc,
                                  rewriter.getI64IntegerAttr(2)));
    Value single = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::eq, steps, one);
    IndexMath m{rewriter, loc};
    SmallVector<OpFoldResult> sizes{IndexMath::fold(m.fromInt(steps))};
    Value result = buildGather(
        rewriter, loc, type, mixResultSizes(type, sizes), {}, {},
        [&](OpBuilder &b, Location l, ValueRange, ValueRange indices) {
          Value i = indexToI64(b, l, indices[0]);
          Value up = arith::AddFOp::create(
              b, l, start,
              arith::MulFOp::create(b, l, step, castScalar(b, l, i, acc)));
          Value fromEnd = arith::SubIOp::create(
              b, l, arith::SubIOp::create(b, l, steps, i), one);
          Value down = arith::SubFOp::create(
              b, l, end,
              arith::MulFOp::create(b, l, step,
                                    castScalar(b, l, fromEnd, acc)));
          Value firstHalf = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::slt, i, halfway);
          Value v = arith::SelectOp::create(b, l, firstHalf, up, down);
          // torch fills a 1-element linspace with start.
          v = arith::SelectOp::create(b, l, single, start, v);
          return castScalar(b, l, v, element);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConvertEye : OpConversionPattern<aten::EyeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::EyeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    if (!type || type.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "unknown result dtype or rank");
    Location loc = op.getLoc();
    IndexMath m{rewriter, loc};
    OpFoldResult n = IndexMath::fold(m.fromInt(adaptor.getN()));
    Type element = type.getElementType();
    Value one = createScalarConstant(rewriter, loc, element, 1);
    Value zero = createScalarConstant(rewriter, loc, element, 0);
    Value result = buildGather(
        rewriter, loc, type, mixResultSizes(type, {n, n}), {}, {},
        [&](OpBuilder &b, Location l, ValueRange, ValueRange indices) {
          Value diagonal = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                                 indices[0], indices[1]);
          return arith::SelectOp::create(b, l, diagonal, one, zero);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// one_hot with a known class count (the default -1 means max + 1, a size
/// that depends on the data: refused unless refinement knows it).
struct ConvertOneHot : OpConversionPattern<aten::OneHotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::OneHotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    if (!type || type.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "unknown result dtype or rank");
    int64_t rank = type.getRank();
    std::optional<int64_t> classes = matchConstantInt(op.getNumClasses());
    if (type.isDynamicDim(rank - 1) && (!classes || *classes < 0))
      return rewriter.notifyMatchFailure(
          op, "num_classes=-1 gives a size that depends on the data");
    Location loc = op.getLoc();
    Value input = adaptor.getSelf();
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, input);
    int64_t count = type.isDynamicDim(rank - 1) ? *classes
                                                : type.getDimSize(rank - 1);
    sizes.push_back(rewriter.getIndexAttr(count));
    // torch checks the classes (a class out of range would be a row of
    // zeros here, silently).
    IndexMath m{rewriter, loc};
    checkIndicesInRange(rewriter, loc, input, m.constant(0),
                        m.constant(std::numeric_limits<int64_t>::max()),
                        "Class values must be non-negative.");
    checkIndicesInRange(rewriter, loc, input,
                        m.constant(std::numeric_limits<int64_t>::min()),
                        m.constant(count),
                        "Class values must be smaller than num_classes.");
    AffineMap map = AffineMap::getMultiDimIdentityMap(rank, op.getContext())
                        .dropResult(rank - 1);
    Type element = type.getElementType();
    Value result = buildGather(
        rewriter, loc, type, mixResultSizes(type, sizes), input, map,
        [&](OpBuilder &b, Location l, ValueRange args, ValueRange indices) {
          Value c = castScalar(b, l, indexToI64(b, l, indices.back()),
                               args[0].getType());
          Value hit =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, args[0], c);
          return castScalar(b, l, hit, element);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tsir::conversion::populateRangePatterns(const TypeConverter &typeConverter,
                                             RewritePatternSet &patterns) {
  patterns
      .add<ConvertArange<aten::ArangeOp>, ConvertArange<aten::ArangeStartOp>,
           ConvertArange<aten::ArangeStartStepOp>, ConvertLinspace, ConvertEye,
           ConvertOneHot>(typeConverter, patterns.getContext());
}
