//===- Normalization.cpp - convert-aten-to-linalg: normalization ----------===//
//
// batch_norm, instance_norm, layer_norm and group_norm: statistics by the
// reductions of ReductionBuilder.h (biased variance, as torch normalizes),
// then one broadcasting generic computing (x - mean) / sqrt(var + eps),
// scaled by the optional weight and shifted by the optional bias. batch_norm
// and instance_norm use the running statistics when not training; when
// training they use the batch's and leave the running statistics as they
// are: updating those in place is a side effect value semantics does not
// carry, and tsir's weights are read-only (docs/autodiff.md, "Training
// mode"; tsir-differentiate's decomposition does the same). The output is
// the module's in training mode. f16/bf16 compute in f32.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseFamily.h"
#include "PopulatePatterns.h"
#include "ReductionBuilder.h"

#include "../Common/ConfiguredPattern.h"
#include "../Common/Utils.h"

#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

/// A per-channel vector [C] reshaped to [C, 1, ..., 1] (`trailing` ones), so
/// that numpy broadcasting against a tensor aligns it with the channel dim;
/// null stays null.
static Value alignChannels(OpBuilder &b, Location loc, Value vector,
                           int64_t trailing) {
  if (!vector)
    return vector;
  auto type = cast<RankedTensorType>(vector.getType());
  if (trailing == 0 || type.getRank() != 1)
    return vector;
  SmallVector<int64_t> shape(trailing + 1, 1);
  shape[0] = type.getDimSize(0);
  SmallVector<OpFoldResult> sizes(trailing + 1, b.getIndexAttr(1));
  sizes[0] = tensor::getMixedSize(b, loc, vector, 0);
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, trailing + 1));
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), vector,
      ArrayRef<ReassociationIndices>{all}, sizes);
}

namespace {
/// The operands of the final normalizing generic; a null weight or bias is
/// absent. `mean` and `var` must broadcast against the input.
struct Normalize {
  Value input, mean, var, weight, bias, eps;
  bool inputUnsigned = false;
};
} // namespace

/// (x - mean) / sqrt(var + eps) * weight + bias into `resultType`.
static Value buildNormalize(OpBuilder &b, Location loc,
                            RankedTensorType resultType, Type accType,
                            const Normalize &n) {
  SmallVector<ElementwiseOperand> operands{{n.input, accType, n.inputUnsigned},
                                           {n.mean, accType, false},
                                           {n.var, accType, false},
                                           {n.eps, accType, false}};
  if (n.weight)
    operands.push_back({n.weight, accType, false});
  if (n.bias)
    operands.push_back({n.bias, accType, false});
  bool hasWeight = static_cast<bool>(n.weight);
  bool hasBias = static_cast<bool>(n.bias);
  return buildElementwiseOp(
      b, loc, resultType, operands,
      [&](OpBuilder &nb, Location nl, ValueRange e) -> Value {
        Value one = createScalarConstant(nb, nl, accType, 1);
        Value invStd = arith::DivFOp::create(
            nb, nl, one,
            math::SqrtOp::create(nb, nl,
                                 arith::AddFOp::create(nb, nl, e[2], e[3])));
        Value y = arith::MulFOp::create(
            nb, nl, arith::SubFOp::create(nb, nl, e[0], e[1]), invStd);
        unsigned next = 4;
        if (hasWeight)
          y = arith::MulFOp::create(nb, nl, y, e[next++]);
        if (hasBias)
          y = arith::AddFOp::create(nb, nl, y, e[next++]);
        return y;
      });
}

/// n.mean and n.var: n.input's statistics over `dims` (the biased
/// variance the normalizations divide by), kept at its rank.
static void setStatistics(OpBuilder &b, Location loc, Normalize &n,
                          ArrayRef<int64_t> dims, Type accType) {
  int64_t rank = cast<RankedTensorType>(n.input.getType()).getRank();
  Value mean = buildMean(b, loc, n.input, dims, accType, n.inputUnsigned);
  Value var = buildVariance(b, loc, n.input, mean, dims, accType,
                            n.inputUnsigned, /*correction=*/0);
  n.mean = insertReducedDims(b, loc, mean, dims, rank);
  n.var = insertReducedDims(b, loc, var, dims, rank);
}

/// The converted value of an optional tensor operand, or null for None;
/// fails on a tensor whose dtype or rank is unknown.
static FailureOr<Value> optionalTensor(Value original, Value converted) {
  if (isNone(original))
    return Value();
  if (!isa<RankedTensorType>(converted.getType()))
    return failure();
  return converted;
}

namespace {
/// What every normalization reads first: its converted input and result
/// types, the optional weight and bias, and the compute type.
struct NormalizationOperands {
  Value input;
  RankedTensorType inputType, resultType;
  Value weight, bias;
  Type accType;
  bool inputUnsigned;
};
} // namespace

/// `op`'s normalization operands; fails (saying why) for an unknown dtype
/// or rank and for integers.
template <typename OpTy>
static FailureOr<NormalizationOperands>
readNormalizationOperands(OpTy op, typename OpTy::Adaptor adaptor,
                          const TypeConverter &converter,
                          ConversionPatternRewriter &rewriter) {
  NormalizationOperands operands;
  operands.resultType = dyn_cast_or_null<RankedTensorType>(
      converter.convertType(op.getResult().getType()));
  operands.input = adaptor.getInput();
  operands.inputType = dyn_cast<RankedTensorType>(operands.input.getType());
  if (!operands.resultType || !operands.inputType)
    return rewriter.notifyMatchFailure(op, "dtype or rank unknown");
  FailureOr<Value> weight = optionalTensor(op.getWeight(), adaptor.getWeight());
  FailureOr<Value> bias = optionalTensor(op.getBias(), adaptor.getBias());
  if (failed(weight) || failed(bias))
    return rewriter.notifyMatchFailure(op, "parameter dtype or rank unknown");
  operands.weight = *weight;
  operands.bias = *bias;
  operands.accType = getComputeType(operands.resultType.getElementType());
  if (!isa<FloatType>(operands.accType))
    return rewriter.notifyMatchFailure(op, "normalization of integers");
  operands.inputUnsigned = isUnsignedDtype(op.getInput().getType());
  return operands;
}

namespace {
/// batch_norm and instance_norm: per-channel statistics (dim 1), from the
/// running statistics or, when `training`/`use_input_stats`, the input's
/// over every dim but 1 (batch_norm) or but 0 and 1 (instance_norm).
template <typename OpTy>
class ChannelNormPattern : public ConfiguredPattern<OpTy, bool> {
public:
  using ConfiguredPattern<OpTy, bool>::ConfiguredPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto operands = readNormalizationOperands(
        op, adaptor, *this->getTypeConverter(), rewriter);
    if (failed(operands))
      return failure();
    int64_t rank = operands->inputType.getRank();
    if (rank < 2)
      return rewriter.notifyMatchFailure(op, "input has no channel dim");
    Value batchStats;
    if constexpr (std::is_same_v<OpTy, aten::InstanceNormOp>)
      batchStats = op.getUseInputStats();
    else
      batchStats = op.getTraining();
    std::optional<bool> useBatchStats = matchConstantBool(batchStats);
    if (!useBatchStats)
      return rewriter.notifyMatchFailure(
          op, "training/use_input_stats is not a constant");
    FailureOr<Value> runningMean =
        optionalTensor(op.getRunningMean(), adaptor.getRunningMean());
    FailureOr<Value> runningVar =
        optionalTensor(op.getRunningVar(), adaptor.getRunningVar());
    if (failed(runningMean) || failed(runningVar))
      return rewriter.notifyMatchFailure(op, "parameter dtype or rank unknown");
    Location loc = op.getLoc();
    Type accType = operands->accType;
    Normalize n;
    n.input = operands->input;
    n.inputUnsigned = operands->inputUnsigned;
    n.eps = adaptor.getEps();
    n.weight = alignChannels(rewriter, loc, operands->weight, rank - 2);
    n.bias = alignChannels(rewriter, loc, operands->bias, rank - 2);
    if (!*useBatchStats) {
      if (!*runningMean || !*runningVar)
        return rewriter.notifyMatchFailure(
            op, "running_mean and running_var are needed without training");
      n.mean = alignChannels(rewriter, loc, *runningMean, rank - 2);
      n.var = alignChannels(rewriter, loc, *runningVar, rank - 2);
    } else {
      // Running statistics given in training are not updated (see above).
      // Over every dim but the channels (and, per instance, the batch).
      bool perInstance = this->config;
      SmallVector<int64_t> dims;
      for (int64_t dim = 0; dim < rank; ++dim)
        if (dim != 1 && (!perInstance || dim != 0))
          dims.push_back(dim);
      setStatistics(rewriter, loc, n, dims, accType);
    }
    Value result =
        buildNormalize(rewriter, loc, operands->resultType, accType, n);
    if (!result)
      return rewriter.notifyMatchFailure(op, "parameter shapes do not match");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// layer_norm(input, normalized_shape, weight, bias, eps): statistics over
/// the last len(normalized_shape) dims; weight and bias have those dims.
class LayerNormPattern : public OpConversionPattern<aten::LayerNormOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::LayerNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto operands =
        readNormalizationOperands(op, adaptor, *getTypeConverter(), rewriter);
    if (failed(operands))
      return failure();
    std::optional<int64_t> normalizedRank;
    if (auto shape = matchConstantIntList(op.getNormalizedShape()))
      normalizedRank = shape->size();
    else if (auto elements = getListElements(op.getNormalizedShape()))
      normalizedRank = elements->size();
    int64_t rank = operands->inputType.getRank();
    if (!normalizedRank || *normalizedRank > rank)
      return rewriter.notifyMatchFailure(
          op, "normalized_shape is not a list of the input's trailing dims");
    Location loc = op.getLoc();
    SmallVector<int64_t> dims =
        llvm::to_vector(llvm::seq<int64_t>(rank - *normalizedRank, rank));
    Normalize n;
    n.input = operands->input;
    n.inputUnsigned = operands->inputUnsigned;
    n.eps = adaptor.getEps();
    n.weight = operands->weight;
    n.bias = operands->bias;
    setStatistics(rewriter, loc, n, dims, operands->accType);
    Value result = buildNormalize(rewriter, loc, operands->resultType,
                                  operands->accType, n);
    if (!result)
      return rewriter.notifyMatchFailure(op, "parameter shapes do not match");
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// group_norm(input [N, C, *], G, weight, bias, eps): the input seen as
/// [N, G, C/G, *], normalized over all dims after G, then seen as [N, C, *]
/// again; weight and bias are per channel.
class GroupNormPattern : public OpConversionPattern<aten::GroupNormOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::GroupNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto operands =
        readNormalizationOperands(op, adaptor, *getTypeConverter(), rewriter);
    if (failed(operands))
      return failure();
    Value input = operands->input;
    RankedTensorType inputType = operands->inputType;
    RankedTensorType resultType = operands->resultType;
    Type accType = operands->accType;
    int64_t rank = inputType.getRank();
    std::optional<int64_t> groups = matchConstantInt(op.getNumGroups());
    int64_t channels =
        rank >= 2 ? inputType.getDimSize(1) : ShapedType::kDynamic;
    if (!groups || *groups <= 0 || ShapedType::isDynamic(channels) ||
        channels % *groups != 0)
      return rewriter.notifyMatchFailure(
          op, "num_groups is not a constant dividing a static channel count");
    Location loc = op.getLoc();

    // [N, C, *] -> [N, G, C/G, *].
    int64_t perGroup = channels / *groups;
    SmallVector<int64_t> groupedShape{inputType.getDimSize(0), *groups,
                                      perGroup};
    SmallVector<OpFoldResult> groupedSizes{
        tensor::getMixedSize(rewriter, loc, input, 0),
        rewriter.getIndexAttr(*groups), rewriter.getIndexAttr(perGroup)};
    SmallVector<ReassociationIndices> reassociation{{0}, {1, 2}};
    for (int64_t dim = 2; dim < rank; ++dim) {
      groupedShape.push_back(inputType.getDimSize(dim));
      groupedSizes.push_back(tensor::getMixedSize(rewriter, loc, input, dim));
      reassociation.push_back({dim + 1});
    }
    auto groupedType =
        RankedTensorType::get(groupedShape, inputType.getElementType());
    Value grouped = tensor::ExpandShapeOp::create(
        rewriter, loc, groupedType, input, reassociation, groupedSizes);

    int64_t groupedRank = rank + 1;
    SmallVector<int64_t> dims =
        llvm::to_vector(llvm::seq<int64_t>(2, groupedRank));
    Normalize n;
    n.input = grouped;
    n.inputUnsigned = operands->inputUnsigned;
    n.eps = adaptor.getEps();
    // Per-channel [C] parameters as [G, C/G, 1, ...].
    auto groupParam = [&](Value param) -> Value {
      if (!param)
        return param;
      auto type = cast<RankedTensorType>(param.getType());
      if (type.getRank() != 1 || type.getDimSize(0) != channels)
        return {};
      SmallVector<int64_t> shape{*groups, perGroup};
      shape.append(rank - 2, 1);
      SmallVector<OpFoldResult> sizes;
      for (int64_t size : shape)
        sizes.push_back(rewriter.getIndexAttr(size));
      ReassociationIndices all = llvm::to_vector(llvm::seq<int64_t>(0, rank));
      return tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
          param, ArrayRef<ReassociationIndices>{all}, sizes);
    };
    n.weight = groupParam(operands->weight);
    n.bias = groupParam(operands->bias);
    if ((operands->weight && !n.weight) || (operands->bias && !n.bias))
      return rewriter.notifyMatchFailure(op, "weight/bias is not [C]");
    setStatistics(rewriter, loc, n, dims, accType);
    auto groupedResultType =
        RankedTensorType::get(groupedShape, resultType.getElementType());
    Value normalized =
        buildNormalize(rewriter, loc, groupedResultType, accType, n);
    if (!normalized)
      return rewriter.notifyMatchFailure(op, "parameter shapes do not match");
    Value result = tensor::CollapseShapeOp::create(rewriter, loc, resultType,
                                                   normalized, reassociation);
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void conversion::populateNormalizationPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ChannelNormPattern<aten::BatchNormOp>>(typeConverter, context,
                                                      /*perInstance=*/false);
  patterns.add<ChannelNormPattern<aten::InstanceNormOp>>(typeConverter, context,
                                                         /*perInstance=*/true);
  patterns.add<LayerNormPattern, GroupNormPattern>(typeConverter, context);
}
