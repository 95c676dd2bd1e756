//===- ReductionBuilder.cpp - linalg reductions for aten ops --------------===//
//
// Dim operands, the reducing linalg.generic, keepdim and element counts
// (see ReductionBuilder.h).
//
//===----------------------------------------------------------------------===//

#include "ReductionBuilder.h"

#include "../Common/Broadcast.h"
#include "../Common/Utils.h"

#include "tsir/Conversion/TypeConverter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;

namespace tsir::conversion {

std::optional<SmallVector<int64_t>> getReductionDims(Value dim, int64_t rank) {
  SmallVector<int64_t> dims;
  if (isNone(dim)) {
    dims = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  } else if (std::optional<int64_t> single = matchConstantInt(dim)) {
    dims.push_back(*single);
  } else if (auto list = matchConstantIntList(dim)) {
    dims = *list;
    if (dims.empty())
      dims = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  } else {
    return std::nullopt;
  }
  SmallVector<int64_t> normalized;
  for (int64_t d : dims) {
    std::optional<int64_t> n = normalizeDim(d, rank);
    if (!n)
      return std::nullopt;
    if (rank > 0)
      normalized.push_back(*n);
  }
  llvm::sort(normalized);
  normalized.erase(llvm::unique(normalized), normalized.end());
  return normalized;
}

SmallVector<int64_t> dropDims(ArrayRef<int64_t> shape, ArrayRef<int64_t> dims) {
  SmallVector<int64_t> kept;
  for (auto [index, size] : llvm::enumerate(shape))
    if (!llvm::is_contained(dims, static_cast<int64_t>(index)))
      kept.push_back(size);
  return kept;
}

SmallVector<Value> buildReduction(OpBuilder &b, Location loc, Value input,
                                  ValueRange keptInputs, ArrayRef<int64_t> dims,
                                  ValueRange inits, ReductionBody body) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  MLIRContext *context = b.getContext();

  SmallVector<AffineExpr> keptExprs;
  SmallVector<utils::IteratorType> iterators;
  SmallVector<Value> dynamicSizes;
  for (int64_t dim = 0; dim < rank; ++dim) {
    bool reduced = llvm::is_contained(dims, dim);
    iterators.push_back(reduced ? utils::IteratorType::reduction
                                : utils::IteratorType::parallel);
    if (reduced)
      continue;
    keptExprs.push_back(getAffineDimExpr(dim, context));
    if (inputType.isDynamicDim(dim))
      dynamicSizes.push_back(getDimSize(b, loc, input, dim));
  }
  AffineMap keptMap = AffineMap::get(rank, 0, keptExprs, context);
  SmallVector<int64_t> keptShape = dropDims(inputType.getShape(), dims);

  SmallVector<Value> outputs;
  SmallVector<Type> resultTypes;
  for (Value init : inits) {
    auto type = RankedTensorType::get(keptShape, init.getType());
    outputs.push_back(createFilledTensor(b, loc, type, init, dynamicSizes));
    resultTypes.push_back(type);
  }
  SmallVector<Value> inputs{input};
  llvm::append_range(inputs, keptInputs);
  SmallVector<AffineMap> maps{b.getMultiDimIdentityMap(rank)};
  maps.append(keptInputs.size(), keptMap);
  maps.append(inits.size(), keptMap);

  auto generic = linalg::GenericOp::create(
      b, loc, resultTypes, inputs, outputs, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        ValueRange elements = args.take_front(inputs.size());
        ValueRange accumulators = args.drop_front(inputs.size());
        SmallVector<Value> next =
            body(nested, nestedLoc, elements, accumulators);
        linalg::YieldOp::create(nested, nestedLoc, next);
      });
  return SmallVector<Value>(generic.getResults());
}

Value insertReducedDims(OpBuilder &b, Location loc, Value reduced,
                        ArrayRef<int64_t> dims, int64_t rank) {
  if (dims.empty())
    return reduced;
  auto reducedType = cast<RankedTensorType>(reduced.getType());
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
  // Each kept dim takes the reduced dims before it into its group; the last
  // one also those after it. With no kept dim there are no groups.
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  int64_t keptIndex = 0;
  for (int64_t dim = 0; dim < rank; ++dim) {
    pending.push_back(dim);
    if (llvm::is_contained(dims, dim)) {
      shape.push_back(1);
      sizes.push_back(b.getIndexAttr(1));
      continue;
    }
    shape.push_back(reducedType.getDimSize(keptIndex));
    sizes.push_back(tensor::getMixedSize(b, loc, reduced, keptIndex));
    ++keptIndex;
    groups.push_back(pending);
    pending.clear();
  }
  if (!groups.empty())
    llvm::append_range(groups.back(), pending);
  auto type = RankedTensorType::get(shape, reducedType.getElementType());
  return tensor::ExpandShapeOp::create(b, loc, type, reduced, groups, sizes);
}

Value buildElementCount(OpBuilder &b, Location loc, Value tensor,
                        ArrayRef<int64_t> dims, Type type) {
  auto tensorType = cast<RankedTensorType>(tensor.getType());
  int64_t staticCount = 1;
  Value dynamicCount;
  for (int64_t dim : dims) {
    if (!tensorType.isDynamicDim(dim)) {
      staticCount *= tensorType.getDimSize(dim);
      continue;
    }
    Value size = getDimSize(b, loc, tensor, dim);
    dynamicCount =
        dynamicCount
            ? arith::MulIOp::create(b, loc, dynamicCount, size).getResult()
            : size;
  }
  if (!dynamicCount)
    return createScalarConstant(b, loc, type, static_cast<double>(staticCount));
  Value count =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), dynamicCount);
  count = arith::MulIOp::create(
      b, loc, count, createScalarConstant(b, loc, b.getI64Type(), staticCount));
  return castScalar(b, loc, count, type);
}

Type getSumAccumulatorType(Type computeType, RankedTensorType inputType,
                           ArrayRef<int64_t> dims) {
  constexpr int64_t kLongSum = 256;
  if (!computeType.isF32())
    return computeType;
  int64_t count = 1;
  for (int64_t dim : dims) {
    if (inputType.isDynamicDim(dim))
      return Float64Type::get(computeType.getContext());
    count *= inputType.getDimSize(dim);
  }
  return count >= kLongSum ? Float64Type::get(computeType.getContext())
                           : computeType;
}

Value buildMaxOverDims(OpBuilder &b, Location loc, Value input,
                       ArrayRef<int64_t> dims, Type computeType,
                       bool inputUnsigned) {
  Value lowest = buildLowest(b, loc, computeType, false);
  return buildReduction(
      b, loc, input, {}, dims, lowest,
      [&](OpBuilder &nb, Location nl, ValueRange e,
          ValueRange acc) -> SmallVector<Value> {
        Value x = castElement(nb, nl, e[0], computeType, inputUnsigned);
        return {arith::MaximumFOp::create(nb, nl, acc[0], x).getResult()};
      })[0];
}

Value buildShiftedExpSum(OpBuilder &b, Location loc, Value input, Value shift,
                         ArrayRef<int64_t> dims, Type computeType,
                         bool inputUnsigned) {
  Value zero = createScalarConstant(b, loc, computeType, 0);
  return buildReduction(
      b, loc, input, shift, dims, zero,
      [&](OpBuilder &nb, Location nl, ValueRange e,
          ValueRange acc) -> SmallVector<Value> {
        Value x = castElement(nb, nl, e[0], computeType, inputUnsigned);
        Value exp =
            math::ExpOp::create(nb, nl, arith::SubFOp::create(nb, nl, x, e[1]));
        return {arith::AddFOp::create(nb, nl, acc[0], exp).getResult()};
      })[0];
}

Value buildMean(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> dims,
                Type accType, bool inputUnsigned) {
  Value zero = createScalarConstant(b, loc, accType, 0);
  Value sum = buildReduction(
      b, loc, input, {}, dims, zero,
      [&](OpBuilder &nb, Location nl, ValueRange e,
          ValueRange acc) -> SmallVector<Value> {
        Value x = castElement(nb, nl, e[0], accType, inputUnsigned);
        return {arith::AddFOp::create(nb, nl, acc[0], x).getResult()};
      })[0];
  Value count = buildElementCount(b, loc, input, dims, accType);
  auto sumType = cast<RankedTensorType>(sum.getType());
  ElementwiseOperand operand{sum, Type(), false};
  return buildElementwiseOp(
      b, loc, sumType, operand, [&](OpBuilder &nb, Location nl, ValueRange e) {
        return arith::DivFOp::create(nb, nl, e[0], count).getResult();
      });
}

Value buildVariance(OpBuilder &b, Location loc, Value input, Value mean,
                    ArrayRef<int64_t> dims, Type accType, bool inputUnsigned,
                    double correction) {
  Value zero = createScalarConstant(b, loc, accType, 0);
  Value squares = buildReduction(
      b, loc, input, mean, dims, zero,
      [&](OpBuilder &nb, Location nl, ValueRange e,
          ValueRange acc) -> SmallVector<Value> {
        Value x = castElement(nb, nl, e[0], accType, inputUnsigned);
        Value deviation = arith::SubFOp::create(nb, nl, x, e[1]);
        Value square = arith::MulFOp::create(nb, nl, deviation, deviation);
        return {arith::AddFOp::create(nb, nl, acc[0], square).getResult()};
      })[0];
  Value count = buildElementCount(b, loc, input, dims, accType);
  Value divisor = arith::MaximumFOp::create(
      b, loc,
      arith::SubFOp::create(b, loc, count,
                            createScalarConstant(b, loc, accType, correction)),
      zero);
  auto type = cast<RankedTensorType>(squares.getType());
  ElementwiseOperand operand{squares, Type(), false};
  return buildElementwiseOp(
      b, loc, type, operand, [&](OpBuilder &nb, Location nl, ValueRange e) {
        return arith::DivFOp::create(nb, nl, e[0], divisor).getResult();
      });
}

/// The extreme value of `type`: the lowest when `lowest`, else the highest.
static Value buildExtreme(OpBuilder &b, Location loc, Type type,
                          bool isUnsigned, bool lowest) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    APFloat inf = APFloat::getInf(floatType.getFloatSemantics(), lowest);
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, inf));
  }
  auto intType = cast<IntegerType>(type);
  unsigned width = intType.getWidth();
  APInt value;
  if (isUnsigned || width == 1)
    value = lowest ? APInt::getMinValue(width) : APInt::getMaxValue(width);
  else
    value = lowest ? APInt::getSignedMinValue(width)
                   : APInt::getSignedMaxValue(width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

Value buildLowest(OpBuilder &b, Location loc, Type type, bool isUnsigned) {
  return buildExtreme(b, loc, type, isUnsigned, /*lowest=*/true);
}

Value buildHighest(OpBuilder &b, Location loc, Type type, bool isUnsigned) {
  return buildExtreme(b, loc, type, isUnsigned, /*lowest=*/false);
}

FailureOr<ReductionOperands>
getReductionOperands(ConversionPatternRewriter &rewriter, Operation *op,
                     const TypeConverter &typeConverter, Value convertedSelf,
                     Value self, Value dim, Value keepdim, Value result) {
  ReductionOperands operands;
  operands.input = convertedSelf;
  operands.inputType = dyn_cast<RankedTensorType>(convertedSelf.getType());
  if (!operands.inputType)
    return rewriter.notifyMatchFailure(op, "input dtype or rank unknown");
  operands.inputUnsigned = isUnsignedDtype(self.getType());
  operands.resultType = dyn_cast_or_null<RankedTensorType>(
      typeConverter.convertType(result.getType()));
  if (!operands.resultType)
    return rewriter.notifyMatchFailure(op, "result dtype or rank unknown");
  operands.resultUnsigned = isUnsignedDtype(result.getType());
  int64_t rank = operands.inputType.getRank();
  if (dim) {
    std::optional<SmallVector<int64_t>> dims = getReductionDims(dim, rank);
    if (!dims)
      return rewriter.notifyMatchFailure(op, "dim is not constant or out of "
                                             "range");
    operands.dims = *dims;
  } else {
    operands.dims = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  }
  if (keepdim) {
    std::optional<bool> keep = matchConstantBool(keepdim);
    if (!keep)
      return rewriter.notifyMatchFailure(op, "keepdim is not a constant");
    operands.keepdim = *keep;
  }
  return operands;
}

Value finishReduction(
    OpBuilder &b, Location loc, Value reduced,
    const ReductionOperands &operands,
    function_ref<Value(OpBuilder &, Location, Value)> finish) {
  if (operands.keepdim)
    reduced = insertReducedDims(b, loc, reduced, operands.dims,
                                operands.inputType.getRank());
  if (!finish && reduced.getType() == operands.resultType)
    return reduced;
  ElementwiseOperand operand{reduced, Type(), false};
  return buildElementwiseOp(
      b, loc, operands.resultType, operand,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange e) {
        return finish ? finish(nested, nestedLoc, e[0]) : e[0];
      });
}

} // namespace tsir::conversion
