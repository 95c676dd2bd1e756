//===- Broadcast.cpp - Promotion and broadcasting for elementwise ops -----===//
//
// torch's result_type over original aten operands, compute types, element
// casts and the broadcasting linalg.generic builder (see Broadcast.h).
//
//===----------------------------------------------------------------------===//

#include "Broadcast.h"

#include "Utils.h"

// The dtype promotion table is tsir-refine-types'; sharing it keeps the
// dtype the lowering computes in equal to the one refine-types wrote.
#include "../../transforms/RefineTypes/RefineTypesRules.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace tsir::conversion {

//===----------------------------------------------------------------------===//
// Type promotion
//===----------------------------------------------------------------------===//

Type operandDtype(Value operand) {
  Type type = operand.getType();
  if (auto tensor = dyn_cast<prim::TensorType>(type))
    return tensor.getDtype();
  MLIRContext *context = type.getContext();
  if (type.isInteger(1))
    return refine::boolDtype(context);
  if (type.isInteger(64))
    return refine::longDtype(context);
  if (type.isF64())
    return refine::defaultFloatDtype(context);
  return {};
}

bool isUnsignedIntegerDtype(Type dtype) {
  auto integer = dyn_cast_or_null<IntegerType>(dtype);
  return integer && integer.isUnsigned();
}

/// `a` and `b` promoted, where a null side is absent rather than unknown.
static Type promoteSkipUndefined(Type a, Type b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return refine::promoteDtypes(a, b);
}

/// c10's combine_categories: `higher` decides unless `lower` is of a higher
/// category (bool < integral < floating).
static Type combineCategories(Type higher, Type lower) {
  if (refine::isComplexDtype(higher) || refine::isFloatingDtype(higher))
    return higher;
  if (refine::isComplexDtype(lower))
    return lower;
  if ((higher && refine::isBoolDtype(higher)) ||
      (lower && refine::isFloatingDtype(lower)))
    return promoteSkipUndefined(higher, lower);
  return higher ? higher : lower;
}

Type promoteOperandDtypes(ValueRange operands) {
  Type dims, zeroDims, scalars;
  bool any = false;
  for (Value operand : operands) {
    if (isNone(operand))
      continue;
    Type dtype = operandDtype(operand);
    if (!dtype)
      return {};
    any = true;
    auto tensor = dyn_cast<prim::TensorType>(operand.getType());
    if (tensor && !tensor.getHasSizes())
      return {};
    Type &state = !tensor                     ? scalars
                  : tensor.getSizes().empty() ? zeroDims
                                              : dims;
    state = promoteSkipUndefined(state, dtype);
    if (!state)
      return {};
  }
  if (!any)
    return {};
  return combineCategories(dims, combineCategories(zeroDims, scalars));
}

Type getComputeType(Type elementType) {
  if (elementType.isF16() || elementType.isBF16())
    return Float32Type::get(elementType.getContext());
  return elementType;
}

Value castElement(OpBuilder &b, Location loc, Value value, Type type,
                  bool srcUnsigned) {
  auto toInt = dyn_cast<IntegerType>(type);
  if (isa<FloatType>(value.getType()) && toInt && toInt.getWidth() > 1 &&
      (toInt.getWidth() < 64 || toInt.isUnsigned())) {
    Value wide = arith::FPToSIOp::create(b, loc, b.getI64Type(), value);
    return castScalar(b, loc, wide, type);
  }
  return castScalar(b, loc, value, type, srcUnsigned);
}

//===----------------------------------------------------------------------===//
// Broadcasting linalg.generic
//===----------------------------------------------------------------------===//

Value buildElementwiseOp(OpBuilder &b, Location loc,
                         RankedTensorType resultType,
                         ArrayRef<ElementwiseOperand> operands,
                         ElementwiseBodyBuilder body) {
  int64_t rank = resultType.getRank();
  MLIRContext *context = b.getContext();

  // Indexing maps of the tensor operands; scalars are cast once, outside the
  // loop, and captured by the body.
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  SmallVector<std::optional<Value>> scalars;
  SmallVector<Value> dynamicSizes;
  SmallVector<bool> sizeKnown(rank, false);
  SmallVector<Value> sizeSources(rank);
  SmallVector<int64_t> sizeSourceDims(rank);
  for (const ElementwiseOperand &operand : operands) {
    auto type = dyn_cast<RankedTensorType>(operand.value.getType());
    if (!type) {
      Value scalar = operand.value;
      if (operand.computeType)
        scalar = castElement(b, loc, scalar, operand.computeType,
                             operand.isUnsigned);
      scalars.push_back(scalar);
      continue;
    }
    scalars.push_back(std::nullopt);
    int64_t operandRank = type.getRank();
    if (operandRank > rank)
      return {};
    SmallVector<AffineExpr> exprs;
    for (int64_t dim = 0; dim < operandRank; ++dim) {
      int64_t resultDim = rank - operandRank + dim;
      if (type.getDimSize(dim) == 1 && resultType.getDimSize(resultDim) != 1) {
        exprs.push_back(getAffineConstantExpr(0, context));
        continue;
      }
      exprs.push_back(getAffineDimExpr(resultDim, context));
      if (type.getDimSize(dim) != 1 && !sizeKnown[resultDim]) {
        sizeKnown[resultDim] = true;
        sizeSources[resultDim] = operand.value;
        sizeSourceDims[resultDim] = dim;
      }
    }
    inputs.push_back(operand.value);
    maps.push_back(AffineMap::get(rank, 0, exprs, context));
  }
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (!resultType.isDynamicDim(dim))
      continue;
    if (!sizeKnown[dim])
      return {};
    dynamicSizes.push_back(
        getDimSize(b, loc, sizeSources[dim], sizeSourceDims[dim]));
  }

  Value init = createEmptyTensor(b, loc, resultType, dynamicSizes);
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Type resultElement = resultType.getElementType();
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        SmallVector<Value> elements;
        unsigned nextArg = 0;
        for (auto [operand, scalar] : llvm::zip_equal(operands, scalars)) {
          if (scalar) {
            elements.push_back(*scalar);
            continue;
          }
          Value element = args[nextArg++];
          if (operand.computeType)
            element = castElement(nested, nestedLoc, element,
                                  operand.computeType, operand.isUnsigned);
          elements.push_back(element);
        }
        Value result = body(nested, nestedLoc, elements);
        if (result.getType() != resultElement)
          result = castElement(nested, nestedLoc, result, resultElement);
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

Value buildElementwiseOp(OpBuilder &b, Location loc,
                         RankedTensorType resultType, ValueRange operands,
                         Type computeType, ElementwiseBodyBuilder body,
                         ArrayRef<bool> unsignedOperands) {
  SmallVector<ElementwiseOperand> described;
  for (auto [index, value] : llvm::enumerate(operands))
    described.push_back(
        {value, computeType,
         index < unsignedOperands.size() && unsignedOperands[index]});
  return buildElementwiseOp(b, loc, resultType, described, body);
}

Value broadcastToType(OpBuilder &b, Location loc, Value tensor,
                      RankedTensorType resultType, bool isUnsigned) {
  ElementwiseOperand operand{tensor, resultType.getElementType(), isUnsigned};
  return buildElementwiseOp(
      b, loc, resultType, operand,
      [](OpBuilder &, Location, ValueRange elements) { return elements[0]; });
}

} // namespace tsir::conversion
