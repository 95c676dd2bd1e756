//===- FoldUtils.cpp - Helpers shared by the folding passes ---------------===//
//
// Constant reading and checking, ScalarType numbers, and the type-keeping
// value replacement of FoldUtils.h.
//
//===----------------------------------------------------------------------===//

#include "FoldUtils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "llvm/ADT/StringSwitch.h"

#include <limits>

using namespace mlir;

namespace tsir {

Attribute getConstantValue(Value value) {
  if (auto constant = value.getDefiningOp<prim::ConstantOp>())
    return constant.getValue();
  return {};
}

std::optional<StringRef> getConstantString(Value value) {
  auto text = dyn_cast_or_null<StringAttr>(getConstantValue(value));
  return text ? std::optional<StringRef>(text.getValue()) : std::nullopt;
}

bool onlyReadsDict(OpOperand &use) {
  Operation *user = use.getOwner();
  if (use.getOperandNumber() != 0)
    return false;
  if (isa<aten::DunderGetitemDictStrOp>(user))
    return true;
  auto generic = dyn_cast<prim::GenericOp>(user);
  return generic &&
         llvm::is_contained({"aten::__getitem__", "aten::get",
                             "aten::__contains__", "aten::len", "aten::keys",
                             "aten::values", "aten::items"},
                            generic.getKind());
}

bool isValidConstant(Attribute value, Type type) {
  if (!value)
    return false;
  if (type.isInteger(64) || type.isInteger(1))
    return isa<IntegerAttr>(value) &&
           cast<IntegerAttr>(value).getType() == type;
  if (type.isF64())
    return isa<FloatAttr>(value) && cast<FloatAttr>(value).getType() == type;
  if (isa<prim::StrType, prim::DeviceType, prim::FunctionType>(type))
    return isa<StringAttr>(value);
  if (isa<prim::NoneType>(type))
    return isa<UnitAttr>(value);
  if (isa<prim::TensorType>(type))
    return isa<ElementsAttr, prim::TensorRefAttr, prim::QuantizedTensorAttr>(
        value);
  if (auto enumType = dyn_cast<prim::EnumType>(type)) {
    auto member = dyn_cast<prim::EnumMemberAttr>(value);
    return member && member.getEnumName() == enumType.getName();
  }
  if (auto optional = dyn_cast<prim::OptionalType>(type))
    return isa<UnitAttr>(value) ||
           isValidConstant(value, optional.getElementType());
  if (auto list = dyn_cast<prim::ListType>(type)) {
    auto array = dyn_cast<ArrayAttr>(value);
    return array && llvm::all_of(array, [&](Attribute element) {
             return isValidConstant(element, list.getElementType());
           });
  }
  if (auto tuple = dyn_cast<prim::TupleType>(type)) {
    auto array = dyn_cast<ArrayAttr>(value);
    return array && array.size() == tuple.getTypes().size() &&
           llvm::all_of(llvm::zip(array, tuple.getTypes()), [](auto pair) {
             return isValidConstant(std::get<0>(pair), std::get<1>(pair));
           });
  }
  if (isa<prim::NumberType>(type)) {
    if (auto integer = dyn_cast<IntegerAttr>(value))
      return integer.getType().isInteger(64);
    if (auto number = dyn_cast<FloatAttr>(value))
      return number.getType().isF64();
  }
  return false;
}

Location getValueLocation(Value value) {
  auto result = dyn_cast<OpResult>(value);
  if (!result)
    return value.getLoc();
  Operation *op = result.getOwner();
  if (op->getNumResults() == 1)
    return op->getLoc();
  NodeLocation parts = decodeNodeLocation(op->getLoc());
  if (parts.resultNames.size() != op->getNumResults())
    return op->getLoc();
  parts.resultNames = {parts.resultNames[result.getResultNumber()]};
  return makeNodeLocation(op->getContext(), parts);
}

Location dropResultNames(Operation *op, const llvm::BitVector &dropped) {
  NodeLocation parts = decodeNodeLocation(op->getLoc());
  if (parts.resultNames.size() != op->getNumResults())
    return op->getLoc();
  SmallVector<StringRef, 1> kept;
  for (auto [index, name] : llvm::enumerate(parts.resultNames))
    if (!dropped.test(index))
      kept.push_back(name);
  parts.resultNames = kept;
  return makeNodeLocation(op->getContext(), parts);
}

bool atenUseAccepts(OpOperand &use, Type type) {
  if (!isa<aten::AtenDialect>(use.getOwner()->getDialect()))
    return false;
  Type current = use.get().getType();
  // The generated aten operand constraints are "any tensor", i64, f64, i1
  // or anything: a subtype passes whichever applies, and a tensor of any
  // refinement passes "any tensor".
  return prim::isSubtypeOf(type, current) ||
         (isa<prim::TensorType>(type) && isa<prim::TensorType>(current));
}

void replaceValueWith(RewriterBase &rewriter, Value from, Value to) {
  if (from == to)
    return;
  if (from.getType() == to.getType()) {
    rewriter.replaceAllUsesWith(from, to);
    return;
  }
  rewriter.replaceUsesWithIf(from, to, [&](OpOperand &use) {
    return atenUseAccepts(use, to.getType());
  });
  if (from.use_empty())
    return;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfterValue(to);
  auto cast = prim::UncheckedCastOp::create(rewriter, getValueLocation(from),
                                            from.getType(), to);
  rewriter.replaceAllUsesWith(from, cast.getResult());
}

Value castTo(OpBuilder &builder, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return prim::UncheckedCastOp::create(builder, loc, type, value);
}

FailureOr<SmallVector<int64_t>> sliceIndices(int64_t length,
                                             std::optional<int64_t> start,
                                             std::optional<int64_t> stop,
                                             int64_t step) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  if (step == 0 || step < -kMax)
    return failure();
  int64_t first = start.value_or(step < 0 ? kMax : 0);
  int64_t last = stop.value_or(step < 0 ? kMin : kMax);
  auto adjust = [&](int64_t &index) {
    if (index < 0) {
      index += length;
      if (index < 0)
        index = step < 0 ? -1 : 0;
    } else if (index >= length) {
      index = step < 0 ? length - 1 : length;
    }
  };
  adjust(first);
  adjust(last);
  int64_t count = 0;
  if (step < 0 && last < first)
    count = (first - last - 1) / (-step) + 1;
  else if (step > 0 && first < last)
    count = (last - first - 1) / step + 1;
  SmallVector<int64_t> positions;
  for (int64_t i = 0; i < count; ++i)
    positions.push_back(first + i * step);
  return positions;
}

std::optional<int64_t> scalarTypeNumber(Type dtype) {
  // c10::ScalarType's numbering (c10/core/ScalarType.h), which is what
  // TorchScript stores for a dtype.
  int64_t number = llvm::StringSwitch<int64_t>(prim::torchNameOfDtype(dtype))
                       .Case("Byte", 0)
                       .Case("Char", 1)
                       .Case("Short", 2)
                       .Case("Int", 3)
                       .Case("Long", 4)
                       .Case("Half", 5)
                       .Case("Float", 6)
                       .Case("Double", 7)
                       .Case("ComplexHalf", 8)
                       .Case("ComplexFloat", 9)
                       .Case("ComplexDouble", 10)
                       .Case("Bool", 11)
                       .Case("QInt8", 12)
                       .Case("QUInt8", 13)
                       .Case("QInt32", 14)
                       .Case("BFloat16", 15)
                       .Case("QUInt4x2", 16)
                       .Case("QUInt2x4", 17)
                       .Default(-1);
  if (number < 0)
    return std::nullopt;
  return number;
}

} // namespace tsir
