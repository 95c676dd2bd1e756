//===- Statistics.cpp - convert-aten-to-linalg: var/std/logsumexp/cumsum --===//
//
// The reductions that take more than one pass: var/std (a mean, then the
// sum of squared deviations divided by max(N - correction, 0)), logsumexp
// (a max, then log(sum(exp(x - max))) + max, with torch's guard for
// infinite maxima), and cumsum, a loop along its dim carrying the running
// sum.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseFamily.h"
#include "ReductionBuilder.h"

#include "../Common/ConfiguredPattern.h"
#include "../Common/Utils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {
template <typename OpTy>
using DimAccessor = decltype(std::declval<OpTy>().getDim());
template <typename OpTy>
using CorrectionAccessor = decltype(std::declval<OpTy>().getCorrection());

/// The constant number var/std's divisor N - correction takes away:
/// `unbiased` (1 or 0), or `correction` (None: 1).
template <typename OpTy> std::optional<double> matchCorrection(OpTy op) {
  if constexpr (llvm::is_detected<CorrectionAccessor, OpTy>::value) {
    if (isa<prim::NoneType>(op.getCorrection().getType()))
      return 1.0;
    std::optional<int64_t> correction = matchConstantInt(op.getCorrection());
    if (!correction)
      return std::nullopt;
    return static_cast<double>(*correction);
  } else {
    std::optional<bool> unbiased = matchConstantBool(op.getUnbiased());
    if (!unbiased)
      return std::nullopt;
    return *unbiased ? 1.0 : 0.0;
  }
}

/// var/std, of every element or over dims, unbiased or not, or with a
/// given correction.
template <typename OpTy>
class VariancePattern : public ConfiguredPattern<OpTy, bool> {
public:
  using ConfiguredPattern<OpTy, bool>::ConfiguredPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value dim, keepdim;
    if constexpr (llvm::is_detected<DimAccessor, OpTy>::value) {
      dim = op.getDim();
      keepdim = op.getKeepdim();
    }
    std::optional<double> correction = matchCorrection(op);
    if (!correction)
      return rewriter.notifyMatchFailure(
          op, "unbiased or correction is not a constant");
    FailureOr<ReductionOperands> operands = getReductionOperands(
        rewriter, op, *this->getTypeConverter(), adaptor.getSelf(),
        op.getSelf(), dim, keepdim, op.getResult());
    if (failed(operands))
      return failure();
    Type accType = getComputeType(operands->resultType.getElementType());
    if (!isa<FloatType>(accType))
      return rewriter.notifyMatchFailure(op, "var/std of an integer dtype");
    Location loc = op.getLoc();
    Value mean = buildMean(rewriter, loc, operands->input, operands->dims,
                           accType, operands->inputUnsigned);
    Value variance =
        buildVariance(rewriter, loc, operands->input, mean, operands->dims,
                      accType, operands->inputUnsigned, *correction);
    Value result = finishReduction(
        rewriter, loc, variance, *operands,
        [&](OpBuilder &b, Location l, Value v) -> Value {
          bool isStd = this->config;
          return isStd ? math::SqrtOp::create(b, l, v).getResult() : v;
        });
    if (!result)
      return rewriter.notifyMatchFailure(op, "result shape mismatch");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// logsumexp(self, dim, keepdim): log(sum(exp(x - m))) + m, where m is the
/// max over dim, or 0 where that max is infinite (torch's guard, so that
/// all -inf gives -inf and an inf gives inf).
class LogsumexpPattern : public OpConversionPattern<aten::LogsumexpOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::LogsumexpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ReductionOperands> operands = getReductionOperands(
        rewriter, op, *getTypeConverter(), adaptor.getSelf(), op.getSelf(),
        op.getDim(), op.getKeepdim(), op.getResult());
    if (failed(operands))
      return failure();
    Type accType = getComputeType(operands->resultType.getElementType());
    if (!isa<FloatType>(accType))
      return rewriter.notifyMatchFailure(op, "logsumexp to an integer dtype");
    Location loc = op.getLoc();
    bool inputUnsigned = operands->inputUnsigned;
    Value max = buildMaxOverDims(rewriter, loc, operands->input, operands->dims,
                                 accType, inputUnsigned);
    auto maxType = cast<RankedTensorType>(max.getType());
    ElementwiseOperand maxOperand{max, Type(), false};
    Value shift = buildElementwiseOp(
        rewriter, loc, maxType, maxOperand,
        [&](OpBuilder &b, Location l, ValueRange e) -> Value {
          Value inf = createScalarConstant(
              b, l, accType, std::numeric_limits<double>::infinity());
          Value infinite =
              arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                    math::AbsFOp::create(b, l, e[0]), inf);
          return arith::SelectOp::create(
              b, l, infinite, createScalarConstant(b, l, accType, 0), e[0]);
        });
    Value sum = buildShiftedExpSum(rewriter, loc, operands->input, shift,
                                   operands->dims, accType, inputUnsigned);
    ElementwiseOperand operands2[] = {{sum, Type(), false},
                                      {shift, Type(), false}};
    Value logsum = buildElementwiseOp(
        rewriter, loc, maxType, operands2,
        [&](OpBuilder &b, Location l, ValueRange e) -> Value {
          return arith::AddFOp::create(b, l, math::LogOp::create(b, l, e[0]),
                                       e[1]);
        });
    Value result = finishReduction(rewriter, loc, logsum, *operands);
    if (!result)
      return rewriter.notifyMatchFailure(op, "result shape mismatch");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// cumsum(self, dim, dtype): an scf.for along `dim` whose iteration i adds
/// slice i of the input to the running sum and stores it as slice i.
class CumsumPattern : public OpConversionPattern<aten::CumsumOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::CumsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
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
    Location loc = op.getLoc();
    Type accType = getComputeType(resultType.getElementType());
    bool inputUnsigned = isUnsignedDtype(op.getSelf().getType());
    // The input in the accumulation type and the result's shape.
    auto accTensorType = RankedTensorType::get(resultType.getShape(), accType);
    ElementwiseOperand operand{input, accType, inputUnsigned};
    Value values = buildElementwiseOp(
        rewriter, loc, accTensorType, operand,
        [](OpBuilder &, Location, ValueRange e) { return e[0]; });
    if (!values)
      return rewriter.notifyMatchFailure(op, "result shape mismatch");
    if (rank == 0) {
      rewriter.replaceOp(op, finishCast(rewriter, loc, values, resultType));
      return success();
    }

    // Slices along `dim`: every other dim whole, rank-reduced.
    SmallVector<int64_t> sliceShape;
    SmallVector<Value> sliceDynamic;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == *dim)
        continue;
      sliceShape.push_back(accTensorType.getDimSize(d));
      if (accTensorType.isDynamicDim(d))
        sliceDynamic.push_back(getDimSize(rewriter, loc, values, d));
    }
    auto sliceType = RankedTensorType::get(sliceShape, accType);
    Value zero = createScalarConstant(rewriter, loc, accType, 0);
    Value running =
        createFilledTensor(rewriter, loc, sliceType, zero, sliceDynamic);
    Value init = createEmptyTensor(rewriter, loc, accTensorType,
                                   getDynamicDimSizes(rewriter, loc, values));
    Value lower = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value upper = getDimSize(rewriter, loc, values, *dim);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto loop = scf::ForOp::create(
        rewriter, loc, lower, upper, step, ValueRange{init, running},
        [&](OpBuilder &b, Location l, Value i, ValueRange iterArgs) {
          SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
          SmallVector<OpFoldResult> sizes, strides(rank, b.getIndexAttr(1));
          for (int64_t d = 0; d < rank; ++d)
            sizes.push_back(d == *dim ? OpFoldResult(b.getIndexAttr(1))
                                      : tensor::getMixedSize(b, l, values, d));
          offsets[*dim] = i;
          Value slice = tensor::ExtractSliceOp::create(b, l, sliceType, values,
                                                       offsets, sizes, strides);
          // The running sum is updated in place (its own generic's output),
          // so the loop carries one buffer.
          AffineMap identity = b.getMultiDimIdentityMap(rank - 1);
          SmallVector<utils::IteratorType> parallel(
              rank - 1, utils::IteratorType::parallel);
          Value next = linalg::GenericOp::create(
                           b, l, TypeRange{sliceType}, ValueRange{slice},
                           ValueRange{iterArgs[1]},
                           ArrayRef<AffineMap>{identity, identity}, parallel,
                           [](OpBuilder &nb, Location nl, ValueRange args) {
                             linalg::YieldOp::create(
                                 nb, nl, buildAdd(nb, nl, args[1], args[0]));
                           })
                           .getResult(0);
          Value stored = tensor::InsertSliceOp::create(b, l, next, iterArgs[0],
                                                       offsets, sizes, strides);
          scf::YieldOp::create(b, l, ValueRange{stored, next});
        });
    rewriter.replaceOp(
        op, finishCast(rewriter, loc, loop.getResult(0), resultType));
    return success();
  }

private:
  /// `values` (accumulation type) cast to the result's element type.
  static Value finishCast(OpBuilder &b, Location loc, Value values,
                          RankedTensorType resultType) {
    if (values.getType() == resultType)
      return values;
    ElementwiseOperand operand{values, Type(), false};
    return buildElementwiseOp(
        b, loc, resultType, operand,
        [](OpBuilder &, Location, ValueRange e) { return e[0]; });
  }
};
} // namespace

void conversion::populateStatisticsPatterns(const TypeConverter &typeConverter,
                                            RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<VariancePattern<aten::VarOp>, VariancePattern<aten::VarDimOp>,
               VariancePattern<aten::VarCorrectionOp>>(typeConverter, context,
                                                       /*isStd=*/false);
  patterns.add<VariancePattern<aten::StdOp>, VariancePattern<aten::StdDimOp>,
               VariancePattern<aten::StdCorrectionOp>>(typeConverter, context,
                                                       /*isStd=*/true);
  patterns.add<LogsumexpPattern, CumsumPattern>(typeConverter, context);
}
