//===- Reduction.cpp - convert-aten-to-linalg: reductions -----------------===//
//
// The reduction family's entry point and its plain reductions: sum, mean,
// prod (with and without dims, with a dtype), amax/amin, max/min (of all
// elements, and .dim with indices), argmax/argmin, any/all and
// norm.Scalar, as reducing linalg.generics (ReductionBuilder.h).
// Accumulation is in the result dtype (f16/bf16 in f32); max and min
// propagate NaN as torch does, and the index of max.dim/argmax is the first
// of the extreme (or NaN) values.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseFamily.h"
#include "PopulatePatterns.h"
#include "ReductionBuilder.h"

#include "../Common/ConfiguredPattern.h"
#include "../Common/Utils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {
/// The dim and keepdim operands of a reduction op, where it has them.
template <typename OpTy>
using DimAccessor = decltype(std::declval<OpTy>().getDim());
template <typename OpTy>
using KeepdimAccessor = decltype(std::declval<OpTy>().getKeepdim());

template <typename OpTy>
FailureOr<ReductionOperands> readReduction(OpTy op, Value convertedSelf,
                                           ConversionPatternRewriter &rewriter,
                                           const TypeConverter &typeConverter) {
  Value dim, keepdim;
  if constexpr (llvm::is_detected<DimAccessor, OpTy>::value)
    dim = op.getDim();
  if constexpr (llvm::is_detected<KeepdimAccessor, OpTy>::value)
    keepdim = op.getKeepdim();
  return getReductionOperands(rewriter, op, typeConverter, convertedSelf,
                              op.getSelf(), dim, keepdim, op->getResult(0));
}

enum class Reduce { Sum, Mean, Prod, Max, Min, Any, All };

/// sum/mean/prod/amax/amin/max/min/any/all.
template <typename OpTy>
class ReducePattern : public ConfiguredPattern<OpTy, Reduce> {
public:
  using ConfiguredPattern<OpTy, Reduce>::ConfiguredPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ReductionOperands> operands = readReduction(
        op, adaptor.getSelf(), rewriter, *this->getTypeConverter());
    if (failed(operands))
      return failure();
    Location loc = op.getLoc();
    Reduce kind = this->config;
    bool logical = kind == Reduce::Any || kind == Reduce::All;
    Type accType = logical
                       ? rewriter.getI1Type()
                       : getComputeType(operands->resultType.getElementType());
    if (kind == Reduce::Sum || kind == Reduce::Mean)
      accType = getSumAccumulatorType(accType, operands->inputType,
                                      operands->dims);
    bool accUnsigned = operands->resultUnsigned;
    if (kind == Reduce::Mean && !isa<FloatType>(accType))
      return rewriter.notifyMatchFailure(op, "mean of an integer dtype");
    Value init;
    switch (kind) {
    case Reduce::Sum:
    case Reduce::Mean:
    case Reduce::Any:
      init = createScalarConstant(rewriter, loc, accType, 0);
      break;
    case Reduce::Prod:
    case Reduce::All:
      init = createScalarConstant(rewriter, loc, accType, 1);
      break;
    case Reduce::Max:
      init = buildLowest(rewriter, loc, accType, accUnsigned);
      break;
    case Reduce::Min:
      init = buildHighest(rewriter, loc, accType, accUnsigned);
      break;
    }
    bool inputUnsigned = operands->inputUnsigned;
    Value reduced = buildReduction(
        rewriter, loc, operands->input, {}, operands->dims, init,
        [&](OpBuilder &b, Location l, ValueRange e,
            ValueRange acc) -> SmallVector<Value> {
          Value x = castElement(b, l, e[0], accType, inputUnsigned);
          switch (kind) {
          case Reduce::Sum:
          case Reduce::Mean:
            return {buildAdd(b, l, acc[0], x)};
          case Reduce::Prod:
            return {buildMul(b, l, acc[0], x)};
          case Reduce::Max:
            return {buildMax(b, l, acc[0], x, accUnsigned)};
          case Reduce::Min:
            return {buildMin(b, l, acc[0], x, accUnsigned)};
          case Reduce::Any:
            return {arith::OrIOp::create(b, l, acc[0], x).getResult()};
          case Reduce::All:
            return {arith::AndIOp::create(b, l, acc[0], x).getResult()};
          }
          llvm_unreachable("unknown reduction");
        })[0];
    Value count;
    if (kind == Reduce::Mean)
      count = buildElementCount(rewriter, loc, operands->input, operands->dims,
                                accType);
    Value result = finishReduction(
        rewriter, loc, reduced, *operands,
        kind != Reduce::Mean
            ? nullptr
            : function_ref<Value(OpBuilder &, Location, Value)>(
                  [&](OpBuilder &b, Location l, Value sum) -> Value {
                    return arith::DivFOp::create(b, l, sum, count);
                  }));
    if (!result)
      return rewriter.notifyMatchFailure(op, "result shape mismatch");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Whether `candidate` replaces `best` in an arg-reduction: strictly
/// greater (or less), or the first NaN, so that the first extreme wins.
Value isBetter(OpBuilder &b, Location loc, Value candidate, Value best,
               bool isMax, bool isUnsigned) {
  if (isa<FloatType>(candidate.getType())) {
    Value better = arith::CmpFOp::create(
        b, loc, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
        candidate, best);
    Value candidateNaN = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::UNO, candidate, candidate);
    Value bestOrdered =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, best, best);
    Value firstNaN = arith::AndIOp::create(b, loc, candidateNaN, bestOrdered);
    return arith::OrIOp::create(b, loc, better, firstNaN);
  }
  arith::CmpIPredicate predicate =
      isUnsigned || candidate.getType().isInteger(1)
          ? (isMax ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::ult)
          : (isMax ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt);
  return arith::CmpIOp::create(b, loc, predicate, candidate, best);
}

/// Reduces `input` (rank >= 1) over `dim` into (values, indices): the first
/// maximum (or minimum) and its position as i64.
std::pair<Value, Value> buildArgReduction(OpBuilder &b, Location loc,
                                          Value input, int64_t dim, bool isMax,
                                          bool isUnsigned) {
  Type element = cast<RankedTensorType>(input.getType()).getElementType();
  Value initValue = isMax ? buildLowest(b, loc, element, isUnsigned)
                          : buildHighest(b, loc, element, isUnsigned);
  Value initIndex = createScalarConstant(b, loc, b.getI64Type(), 0);
  SmallVector<Value> results = buildReduction(
      b, loc, input, {}, dim, ValueRange{initValue, initIndex},
      [&](OpBuilder &nb, Location nl, ValueRange e,
          ValueRange acc) -> SmallVector<Value> {
        Value position = linalg::IndexOp::create(nb, nl, dim);
        Value index =
            arith::IndexCastOp::create(nb, nl, nb.getI64Type(), position);
        Value better = isBetter(nb, nl, e[0], acc[0], isMax, isUnsigned);
        return {arith::SelectOp::create(nb, nl, better, e[0], acc[0]),
                arith::SelectOp::create(nb, nl, better, index, acc[1])};
      });
  return {results[0], results[1]};
}

/// max.dim/min.dim: (values, indices) along one dim.
template <typename OpTy>
class ReduceWithIndicesPattern : public ConfiguredPattern<OpTy, bool> {
public:
  using ConfiguredPattern<OpTy, bool>::ConfiguredPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ReductionOperands> values = readReduction(
        op, adaptor.getSelf(), rewriter, *this->getTypeConverter());
    if (failed(values))
      return failure();
    auto indicesType = dyn_cast_or_null<RankedTensorType>(
        this->getTypeConverter()->convertType(op->getResult(1).getType()));
    if (!indicesType)
      return rewriter.notifyMatchFailure(op, "indices type unknown");
    Location loc = op.getLoc();
    Value valuesResult, indicesResult;
    if (values->dims.empty()) {
      // A 0-d input: itself, at index 0.
      valuesResult = finishReduction(rewriter, loc, values->input, *values);
      indicesResult = createFilledTensor(
          rewriter, loc, indicesType,
          createScalarConstant(rewriter, loc, indicesType.getElementType(), 0));
    } else {
      auto [reducedValues, reducedIndices] =
          buildArgReduction(rewriter, loc, values->input, values->dims[0],
                            this->config, values->inputUnsigned);
      valuesResult = finishReduction(rewriter, loc, reducedValues, *values);
      ReductionOperands indices = *values;
      indices.resultType = indicesType;
      indicesResult = finishReduction(rewriter, loc, reducedIndices, indices);
    }
    if (!valuesResult || !indicesResult)
      return rewriter.notifyMatchFailure(op, "result shape mismatch");
    rewriter.replaceOp(op, {valuesResult, indicesResult});
    return success();
  }
};

/// argmax/argmin: along a dim, or (dim None) over the flattened input.
template <typename OpTy>
class ArgReducePattern : public ConfiguredPattern<OpTy, bool> {
public:
  using ConfiguredPattern<OpTy, bool>::ConfiguredPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ReductionOperands> operands = readReduction(
        op, adaptor.getSelf(), rewriter, *this->getTypeConverter());
    if (failed(operands))
      return failure();
    Location loc = op.getLoc();
    Value input = operands->input;
    int64_t rank = operands->inputType.getRank();
    if (rank == 0 || operands->dims.empty()) {
      rewriter.replaceOp(
          op,
          createFilledTensor(
              rewriter, loc, operands->resultType,
              createScalarConstant(rewriter, loc,
                                   operands->resultType.getElementType(), 0)));
      return success();
    }
    int64_t dim = operands->dims[0];
    bool flatten = isNone(op.getDim());
    if (flatten && rank > 1) {
      ReassociationIndices all = llvm::to_vector(llvm::seq<int64_t>(0, rank));
      input = tensor::CollapseShapeOp::create(
          rewriter, loc, input, ArrayRef<ReassociationIndices>{all});
      dim = 0;
    }
    Value indices = buildArgReduction(rewriter, loc, input, dim, this->config,
                                      operands->inputUnsigned)
                        .second;
    // Flattened with keepdim: every dim of the input is kept as a 1.
    ReductionOperands finish = *operands;
    if (flatten) {
      finish.inputType = cast<RankedTensorType>(input.getType());
      finish.dims = {0};
      finish.keepdim = false;
      if (operands->keepdim)
        indices = insertReducedDims(
            rewriter, loc, indices,
            llvm::to_vector(llvm::seq<int64_t>(0, rank)), rank);
    }
    Value result = finishReduction(rewriter, loc, indices, finish);
    if (!result)
      return rewriter.notifyMatchFailure(op, "result shape mismatch");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The order, dims and keepdim of a p-norm op: norm.Scalar(self, p) over
/// every element, linalg_vector_norm(self, ord, dim, keepdim, dtype) over
/// `dim` (None: every element). A given dtype is the result's, which the
/// sum accumulates in.
struct NormArguments {
  Value order, dims, keepdim;
};
static NormArguments normArguments(aten::NormScalarOp op) {
  return {op.getP(), Value(), Value()};
}
static NormArguments normArguments(aten::LinalgVectorNormOp op) {
  return {op.getOrd(), op.getDim(), op.getKeepdim()};
}

/// A p-norm: max|x| (inf), min|x| (-inf), the count of non-zeros (0),
/// sum|x| (1), sqrt(sum x^2) (2), else (sum |x|^p)^(1/p).
template <typename OpTy>
class NormPattern : public OpConversionPattern<OpTy> {
public:
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NormArguments arguments = normArguments(op);
    std::optional<double> p = matchConstantFloat(arguments.order);
    if (!p)
      return rewriter.notifyMatchFailure(op, "p is not a constant");
    FailureOr<ReductionOperands> operands = getReductionOperands(
        rewriter, op, *this->getTypeConverter(), adaptor.getSelf(),
        op.getSelf(), arguments.dims, arguments.keepdim, op.getResult());
    if (failed(operands))
      return failure();
    Type accType = getComputeType(operands->resultType.getElementType());
    if (!isa<FloatType>(accType))
      return rewriter.notifyMatchFailure(op, "norm of an integer dtype");
    Location loc = op.getLoc();
    bool isMax = std::isinf(*p) && *p > 0, isMin = std::isinf(*p) && *p < 0;
    Value init = isMin ? buildHighest(rewriter, loc, accType, false)
                       : createScalarConstant(rewriter, loc, accType, 0);
    bool inputUnsigned = operands->inputUnsigned;
    double power = *p;
    Value reduced = buildReduction(
        rewriter, loc, operands->input, {}, operands->dims, init,
        [&](OpBuilder &b, Location l, ValueRange e,
            ValueRange acc) -> SmallVector<Value> {
          Value x = castElement(b, l, e[0], accType, inputUnsigned);
          Value magnitude = math::AbsFOp::create(b, l, x);
          if (isMax)
            return {arith::MaximumFOp::create(b, l, acc[0], magnitude)};
          if (isMin)
            return {arith::MinimumFOp::create(b, l, acc[0], magnitude)};
          Value term;
          if (power == 0) {
            Value zero = createScalarConstant(b, l, accType, 0);
            Value nonZero =
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, x, zero);
            term = arith::UIToFPOp::create(b, l, accType, nonZero);
          } else if (power == 1) {
            term = magnitude;
          } else if (power == 2) {
            term = arith::MulFOp::create(b, l, x, x);
          } else {
            term = math::PowFOp::create(
                b, l, magnitude, createScalarConstant(b, l, accType, power));
          }
          return {arith::AddFOp::create(b, l, acc[0], term).getResult()};
        })[0];
    Value result = finishReduction(
        rewriter, loc, reduced, *operands,
        [&](OpBuilder &b, Location l, Value v) -> Value {
          if (isMax || isMin || power == 0 || power == 1)
            return v;
          if (power == 2)
            return math::SqrtOp::create(b, l, v);
          return math::PowFOp::create(
              b, l, v, createScalarConstant(b, l, accType, 1.0 / power));
        });
    if (!result)
      return rewriter.notifyMatchFailure(op, "result shape mismatch");
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void conversion::populateReductionPatterns(const TypeConverter &typeConverter,
                                           RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  auto &tc = typeConverter;
  patterns
      .add<ReducePattern<aten::SumOp>, ReducePattern<aten::SumDimIntListOp>>(
          tc, context, Reduce::Sum);
  patterns.add<ReducePattern<aten::MeanOp>, ReducePattern<aten::MeanDimOp>>(
      tc, context, Reduce::Mean);
  patterns.add<ReducePattern<aten::ProdOp>, ReducePattern<aten::ProdDimIntOp>>(
      tc, context, Reduce::Prod);
  patterns.add<ReducePattern<aten::AmaxOp>, ReducePattern<aten::MaxOp>>(
      tc, context, Reduce::Max);
  patterns.add<ReducePattern<aten::AminOp>, ReducePattern<aten::MinOp>>(
      tc, context, Reduce::Min);
  patterns.add<ReducePattern<aten::AnyOp>, ReducePattern<aten::AnyDimOp>>(
      tc, context, Reduce::Any);
  patterns.add<ReducePattern<aten::AllOp>, ReducePattern<aten::AllDimOp>>(
      tc, context, Reduce::All);
  patterns.add<ReduceWithIndicesPattern<aten::MaxDimOp>,
               ArgReducePattern<aten::ArgmaxOp>>(tc, context, /*isMax=*/true);
  patterns.add<ReduceWithIndicesPattern<aten::MinDimOp>,
               ArgReducePattern<aten::ArgminOp>>(tc, context, /*isMax=*/false);
  patterns.add<NormPattern<aten::NormScalarOp>,
               NormPattern<aten::LinalgVectorNormOp>>(tc, context);
  populateStatisticsPatterns(tc, patterns);
  populateSoftmaxPatterns(tc, patterns);
}
