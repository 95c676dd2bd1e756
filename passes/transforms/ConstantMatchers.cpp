//===- ConstantMatchers.cpp - Constant operands of prim/aten ops ----------===//
//
// See tsir/Transforms/ConstantMatchers.h.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/ConstantMatchers.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace tsir {

/// The constant attribute behind `value`, looking through the casts that
/// partial conversions insert.
static Attribute getConstantAttr(Value value) {
  while (auto cast = value.getDefiningOp<UnrealizedConversionCastOp>()) {
    if (cast.getInputs().size() != 1)
      return {};
    value = cast.getInputs().front();
  }
  Operation *op = value.getDefiningOp();
  if (!op)
    return {};
  if (auto constant = dyn_cast<prim::ConstantOp>(op))
    return constant.getValue();
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return constant.getValue();
  return {};
}

std::optional<int64_t> matchConstantInt(Value value) {
  auto attr = dyn_cast_or_null<IntegerAttr>(getConstantAttr(value));
  if (!attr || attr.getType().isInteger(1))
    return std::nullopt;
  return attr.getInt();
}

std::optional<StringRef> matchConstantString(Value value) {
  if (auto text = dyn_cast_or_null<StringAttr>(getConstantAttr(value)))
    return text.getValue();
  return std::nullopt;
}

std::optional<double> matchConstantFloat(Value value) {
  Attribute attr = getConstantAttr(value);
  if (auto f = dyn_cast_or_null<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = dyn_cast_or_null<IntegerAttr>(attr)) {
    if (i.getType().isInteger(1))
      return i.getValue().getBoolValue() ? 1.0 : 0.0;
    return static_cast<double>(i.getInt());
  }
  return std::nullopt;
}

std::optional<bool> matchConstantBool(Value value) {
  auto attr = dyn_cast_or_null<IntegerAttr>(getConstantAttr(value));
  if (!attr || !attr.getType().isInteger(1))
    return std::nullopt;
  return attr.getValue().getBoolValue();
}

bool isNone(Value value) {
  if (isa<prim::NoneType>(value.getType()))
    return true;
  // A None of an Optional type (`%m : Tensor? = prim::Constant()`, or an
  // Optional input the spec says is None).
  auto constant = value.getDefiningOp<prim::ConstantOp>();
  return constant && isa<prim::OptionalType>(value.getType()) &&
         isa_and_nonnull<UnitAttr>(constant.getValue());
}

std::optional<SmallVector<int64_t>> matchConstantIntList(Value value) {
  if (auto array = dyn_cast_or_null<ArrayAttr>(getConstantAttr(value))) {
    SmallVector<int64_t> ints;
    for (Attribute element : array) {
      auto integer = dyn_cast<IntegerAttr>(element);
      if (!integer)
        return std::nullopt;
      ints.push_back(integer.getInt());
    }
    return ints;
  }
  if (auto list = value.getDefiningOp<prim::ListConstructOp>()) {
    SmallVector<int64_t> ints;
    for (Value element : list->getOperands()) {
      std::optional<int64_t> integer = matchConstantInt(element);
      if (!integer)
        return std::nullopt;
      ints.push_back(*integer);
    }
    return ints;
  }
  return std::nullopt;
}

std::optional<SmallVector<Value>> getListElements(Value value) {
  auto list = value.getDefiningOp<prim::ListConstructOp>();
  if (!list)
    return std::nullopt;
  return SmallVector<Value>(list->getOperands());
}

std::optional<int64_t> normalizeDim(int64_t dim, int64_t rank) {
  // As torch's maybe_wrap_dim: a 0-d tensor takes dims -1 and 0.
  int64_t wrap = std::max<int64_t>(rank, 1);
  if (dim < 0)
    dim += wrap;
  if (dim < 0 || dim >= wrap)
    return std::nullopt;
  return dim;
}

} // namespace tsir
