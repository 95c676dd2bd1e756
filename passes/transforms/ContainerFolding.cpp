//===- ContainerFolding.cpp - Lists, strings, tuples, metadata on constants
//===//
//
// The rest of the constant-folding table: list and string ops on constant
// lists and strings, list and tuple construction from constants, `str()`
// and `str.format` with TorchScript's printing, `is None`, casts, and tensor metadata
// (`dim`, `size`, `len`, `numel`, `dtype`, `device`, `is_floating_point`)
// read from refined tensor types. Strings are byte strings, as in
// TorchScript (`len("é")` is 2). Indexing out of range, `index` of a missing
// element, a zero slice step and a negative list repeat raise at run time,
// so they are not folded. Only containers of immutable values are built or
// taken apart here: a constant holding a tensor would not be the tensor
// object the graph passes around.
//
//===----------------------------------------------------------------------===//

#include "ConstantEvaluator.h"
#include "FoldUtils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/AliasAnalysis.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace tsir;

namespace {

/// Folds never build lists longer than this (`[0] * 100000000` stays an op).
constexpr int64_t kMaxFoldedListSize = 4096;

Attribute intAttr(MLIRContext *context, int64_t value) {
  return IntegerAttr::get(IntegerType::get(context, 64), value);
}

Attribute boolAttr(MLIRContext *context, bool value) {
  return IntegerAttr::get(IntegerType::get(context, 1), value);
}

std::optional<int64_t> getInt(Attribute value) {
  if (auto integer = dyn_cast_or_null<IntegerAttr>(value))
    if (integer.getType().isInteger(64))
      return integer.getInt();
  return std::nullopt;
}

/// An index into a sequence of `size`, negative from the end, as
/// TorchScript's `normalizeIndex`; nullopt if out of range (which raises).
std::optional<int64_t> normalizeIndex(int64_t index, int64_t size) {
  if (index < 0)
    index += size;
  if (index < 0 || index >= size)
    return std::nullopt;
  return index;
}

bool hasImmutableType(Value value) { return !isMutableType(value.getType()); }

//===----------------------------------------------------------------------===//
// str()
//===----------------------------------------------------------------------===//

/// A float as TorchScript prints it (IValue's operator<<): integral values
/// as `1.`, anything else with 17 significant digits.
void printDouble(llvm::raw_ostream &os, double value) {
  int kind = std::fpclassify(value);
  if ((kind == FP_NORMAL || kind == FP_ZERO) &&
      value >= -9223372036854775808.0 && value < 9223372036854775808.0) {
    auto integral = static_cast<int64_t>(value);
    if (static_cast<double>(integral) == value) {
      os << integral << '.';
      return;
    }
  }
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.17g", value);
  os << buffer;
}

/// Prints a constant of `type` as TorchScript's `str()`; false for values
/// it does not handle here (tensors, functions, complex).
bool printConstant(llvm::raw_ostream &os, Attribute value, Type type) {
  if (auto optional = dyn_cast<prim::OptionalType>(type)) {
    if (isa<UnitAttr>(value)) {
      os << "None";
      return true;
    }
    type = optional.getElementType();
  }
  if (isa<prim::NoneType>(type) && isa<UnitAttr>(value)) {
    os << "None";
    return true;
  }
  if (auto integer = dyn_cast<IntegerAttr>(value)) {
    if (integer.getType().isInteger(1) && type.isInteger(1)) {
      os << (integer.getValue().getBoolValue() ? "True" : "False");
      return true;
    }
    if (integer.getType().isInteger(64) &&
        (type.isInteger(64) || isa<prim::NumberType>(type))) {
      os << integer.getInt();
      return true;
    }
    return false;
  }
  if (auto number = dyn_cast<FloatAttr>(value)) {
    if (!type.isF64() && !isa<prim::NumberType>(type))
      return false;
    printDouble(os, number.getValueAsDouble());
    return true;
  }
  if (auto string = dyn_cast<StringAttr>(value)) {
    if (!isa<prim::StrType, prim::DeviceType>(type))
      return false;
    os << string.getValue();
    return true;
  }
  auto array = dyn_cast<ArrayAttr>(value);
  if (!array)
    return false;
  if (auto list = dyn_cast<prim::ListType>(type)) {
    os << '[';
    for (auto [index, element] : llvm::enumerate(array)) {
      if (index)
        os << ", ";
      if (!printConstant(os, element, list.getElementType()))
        return false;
    }
    os << ']';
    return true;
  }
  if (auto tuple = dyn_cast<prim::TupleType>(type)) {
    if (tuple.getTypes().size() != array.size())
      return false;
    os << '(';
    for (auto [index, element] : llvm::enumerate(array)) {
      if (index)
        os << ", ";
      if (!printConstant(os, element, tuple.getTypes()[index]))
        return false;
    }
    os << (array.size() == 1 ? ",)" : ")");
    return true;
  }
  return false;
}

LogicalResult evalStr(Operation *op, ArrayRef<Attribute> operands,
                      SmallVectorImpl<Attribute> &results) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!printConstant(os, operands[0], op->getOperand(0).getType()))
    return failure();
  results.push_back(StringAttr::get(op->getContext(), text));
  return success();
}

//===----------------------------------------------------------------------===//
// Lists
//===----------------------------------------------------------------------===//

LogicalResult evalListLen(Operation *op, ArrayRef<Attribute> operands,
                          SmallVectorImpl<Attribute> &results) {
  auto list = dyn_cast_or_null<ArrayAttr>(operands[0]);
  if (!list)
    return failure();
  results.push_back(intAttr(op->getContext(), list.size()));
  return success();
}

LogicalResult evalListGetItem(Operation *op, ArrayRef<Attribute> operands,
                              SmallVectorImpl<Attribute> &results) {
  auto list = dyn_cast_or_null<ArrayAttr>(operands[0]);
  std::optional<int64_t> index = getInt(operands[1]);
  if (!list || !index || !hasImmutableType(op->getResult(0)))
    return failure();
  std::optional<int64_t> position = normalizeIndex(*index, list.size());
  if (!position)
    return failure();
  results.push_back(list[*position]);
  return success();
}

LogicalResult evalListConcat(Operation *op, ArrayRef<Attribute> operands,
                             SmallVectorImpl<Attribute> &results) {
  auto a = dyn_cast_or_null<ArrayAttr>(operands[0]);
  auto b = dyn_cast_or_null<ArrayAttr>(operands[1]);
  if (!a || !b || a.size() + b.size() > kMaxFoldedListSize)
    return failure();
  SmallVector<Attribute> elements(a.begin(), a.end());
  elements.append(b.begin(), b.end());
  results.push_back(ArrayAttr::get(op->getContext(), elements));
  return success();
}

/// `list(l)` and `l.copy()`: a new list with the same elements.
LogicalResult evalListCopy(Operation *op, ArrayRef<Attribute> operands,
                           SmallVectorImpl<Attribute> &results) {
  if (!isa_and_nonnull<ArrayAttr>(operands[0]))
    return failure();
  results.push_back(operands[0]);
  return success();
}

/// `l[start:end:step]` with Python's index adjustment.
LogicalResult evalListSlice(Operation *op, ArrayRef<Attribute> operands,
                            SmallVectorImpl<Attribute> &results) {
  auto list = dyn_cast_or_null<ArrayAttr>(operands[0]);
  std::optional<int64_t> step = getInt(operands[3]);
  if (!list || !step)
    return failure();
  auto bound = [&](Attribute value, std::optional<int64_t> &index) {
    if (isa_and_nonnull<UnitAttr>(value))
      return true;
    index = getInt(value);
    return index.has_value();
  };
  std::optional<int64_t> start, stop;
  if (!bound(operands[1], start) || !bound(operands[2], stop))
    return failure();
  FailureOr<SmallVector<int64_t>> positions =
      sliceIndices(list.size(), start, stop, *step);
  if (failed(positions))
    return failure();
  SmallVector<Attribute> elements;
  for (int64_t position : *positions)
    elements.push_back(list[position]);
  results.push_back(ArrayAttr::get(op->getContext(), elements));
  return success();
}

/// `l * n`: TorchScript raises for a negative `n`.
LogicalResult evalListRepeat(Operation *op, ArrayRef<Attribute> operands,
                             SmallVectorImpl<Attribute> &results) {
  auto list = dyn_cast_or_null<ArrayAttr>(operands[0]);
  std::optional<int64_t> times = getInt(operands[1]);
  if (!list || !times || *times < 0 ||
      (!list.empty() && *times > kMaxFoldedListSize / (int64_t)list.size()))
    return failure();
  SmallVector<Attribute> elements;
  for (int64_t i = 0; i < *times; ++i)
    elements.append(list.begin(), list.end());
  results.push_back(ArrayAttr::get(op->getContext(), elements));
  return success();
}

/// Element equality of int/float/str/bool constants: by value, floats with
/// IEEE `==` (a NaN is never found).
bool elementsEqual(Attribute a, Attribute b) {
  auto x = dyn_cast<FloatAttr>(a), y = dyn_cast<FloatAttr>(b);
  if (x && y)
    return x.getValueAsDouble() == y.getValueAsDouble();
  return a == b;
}

LogicalResult evalListContains(Operation *op, ArrayRef<Attribute> operands,
                               SmallVectorImpl<Attribute> &results) {
  auto list = dyn_cast_or_null<ArrayAttr>(operands[0]);
  if (!list || !operands[1])
    return failure();
  bool found = llvm::any_of(list, [&](Attribute element) {
    return elementsEqual(element, operands[1]);
  });
  results.push_back(boolAttr(op->getContext(), found));
  return success();
}

LogicalResult evalListIndex(Operation *op, ArrayRef<Attribute> operands,
                            SmallVectorImpl<Attribute> &results) {
  auto list = dyn_cast_or_null<ArrayAttr>(operands[0]);
  if (!list || !operands[1])
    return failure();
  for (auto [index, element] : llvm::enumerate(list))
    if (elementsEqual(element, operands[1])) {
      results.push_back(intAttr(op->getContext(), index));
      return success();
    }
  return failure(); // "'x' is not in list" raises
}

LogicalResult evalListSum(Operation *op, ArrayRef<Attribute> operands,
                          SmallVectorImpl<Attribute> &results) {
  auto list = dyn_cast_or_null<ArrayAttr>(operands[0]);
  if (!list)
    return failure();
  MLIRContext *context = op->getContext();
  if (op->getResult(0).getType().isInteger(64)) {
    uint64_t sum = 0; // wraps around like int64
    for (Attribute element : list) {
      std::optional<int64_t> value = getInt(element);
      if (!value)
        return failure();
      sum += static_cast<uint64_t>(*value);
    }
    results.push_back(intAttr(context, static_cast<int64_t>(sum)));
    return success();
  }
  double sum = 0;
  for (Attribute element : list) {
    auto value = dyn_cast<FloatAttr>(element);
    if (!value)
      return failure();
    sum += value.getValueAsDouble();
  }
  results.push_back(FloatAttr::get(Float64Type::get(context), sum));
  return success();
}

template <bool equal>
LogicalResult evalListEq(Operation *op, ArrayRef<Attribute> operands,
                         SmallVectorImpl<Attribute> &results) {
  auto a = dyn_cast_or_null<ArrayAttr>(operands[0]);
  auto b = dyn_cast_or_null<ArrayAttr>(operands[1]);
  if (!a || !b)
    return failure();
  results.push_back(boolAttr(op->getContext(), (a == b) == equal));
  return success();
}

/// A list literal of immutable constants becomes a list constant, as
/// TorchScript's constant propagation makes `int[] = [1, 2]`.
LogicalResult evalListConstruct(Operation *op, ArrayRef<Attribute> operands,
                                SmallVectorImpl<Attribute> &results) {
  auto type = cast<prim::ListType>(op->getResult(0).getType());
  if (isMutableType(type.getElementType()) ||
      llvm::any_of(operands, [](Attribute a) { return !a; }))
    return failure();
  results.push_back(ArrayAttr::get(op->getContext(), operands));
  return success();
}

/// Unpacking a constant list or tuple into its immutable elements.
LogicalResult evalUnpack(Operation *op, ArrayRef<Attribute> operands,
                         SmallVectorImpl<Attribute> &results) {
  auto array = dyn_cast_or_null<ArrayAttr>(operands[0]);
  if (!array || array.size() != op->getNumResults() ||
      !llvm::all_of(op->getResults(), hasImmutableType))
    return failure();
  results.append(array.begin(), array.end());
  return success();
}

//===----------------------------------------------------------------------===//
// Tuples, strings, None, casts
//===----------------------------------------------------------------------===//

LogicalResult evalTupleConstruct(Operation *op, ArrayRef<Attribute> operands,
                                 SmallVectorImpl<Attribute> &results) {
  if (!hasImmutableType(op->getResult(0)) ||
      llvm::any_of(operands, [](Attribute a) { return !a; }))
    return failure();
  results.push_back(ArrayAttr::get(op->getContext(), operands));
  return success();
}

LogicalResult evalTupleIndex(Operation *op, ArrayRef<Attribute> operands,
                             SmallVectorImpl<Attribute> &results) {
  auto tuple = dyn_cast_or_null<ArrayAttr>(operands[0]);
  std::optional<int64_t> index = getInt(operands[1]);
  if (!tuple || !index || !hasImmutableType(op->getResult(0)))
    return failure();
  std::optional<int64_t> position = normalizeIndex(*index, tuple.size());
  if (!position)
    return failure();
  results.push_back(tuple[*position]);
  return success();
}

LogicalResult evalStrLen(Operation *op, ArrayRef<Attribute> operands,
                         SmallVectorImpl<Attribute> &results) {
  auto string = dyn_cast_or_null<StringAttr>(operands[0]);
  if (!string)
    return failure();
  results.push_back(intAttr(op->getContext(), string.size()));
  return success();
}

LogicalResult evalStrGetItem(Operation *op, ArrayRef<Attribute> operands,
                             SmallVectorImpl<Attribute> &results) {
  auto string = dyn_cast_or_null<StringAttr>(operands[0]);
  std::optional<int64_t> index = getInt(operands[1]);
  if (!string || !index)
    return failure();
  std::optional<int64_t> position = normalizeIndex(*index, string.size());
  if (!position)
    return failure();
  results.push_back(StringAttr::get(op->getContext(),
                                    string.getValue().substr(*position, 1)));
  return success();
}

/// eq/ne of strings and devices.
template <bool equal>
LogicalResult evalStrEq(Operation *op, ArrayRef<Attribute> operands,
                        SmallVectorImpl<Attribute> &results) {
  auto a = dyn_cast_or_null<StringAttr>(operands[0]);
  auto b = dyn_cast_or_null<StringAttr>(operands[1]);
  if (!a || !b)
    return failure();
  results.push_back(boolAttr(op->getContext(), (a == b) == equal));
  return success();
}

/// eq/ne of enum members (`Color.RED == Color.RED`); members are uniqued
/// attributes, so equal members are the same attribute.
template <bool equal>
LogicalResult evalEnumEq(Operation *op, ArrayRef<Attribute> operands,
                         SmallVectorImpl<Attribute> &results) {
  auto a = dyn_cast_or_null<prim::EnumMemberAttr>(operands[0]);
  auto b = dyn_cast_or_null<prim::EnumMemberAttr>(operands[1]);
  if (!a || !b)
    return failure();
  results.push_back(boolAttr(op->getContext(), (a == b) == equal));
  return success();
}

/// `prim::EnumName` of a member is its name; torch prints no member's
/// value, so `prim::EnumValue` stays.
LogicalResult evalEnumName(Operation *op, ArrayRef<Attribute> operands,
                           SmallVectorImpl<Attribute> &results) {
  auto member = operands.size() == 1
                    ? dyn_cast_or_null<prim::EnumMemberAttr>(operands[0])
                    : prim::EnumMemberAttr();
  if (!member || op->getNumResults() != 1 ||
      !isa<prim::StrType>(op->getResult(0).getType()))
    return failure();
  results.push_back(StringAttr::get(op->getContext(), member.getMemberName()));
  return success();
}

/// `"...{}...".format(a, b)` (varargs, so `prim.Generic "aten::format"`)
/// of constants: each `{}` replaced by the next argument printed as `str()`
/// prints it, as the runtime's kernel does. Too few arguments raise at run
/// time, so they are not folded. torch.nn's transformer layers build the
/// reason they leave their fast path so, from sizes specialization knows.
LogicalResult evalFormat(Operation *op, ArrayRef<Attribute> operands,
                         SmallVectorImpl<Attribute> &results) {
  if (operands.empty() || op->getNumResults() != 1 ||
      !isa<prim::StrType>(op->getResult(0).getType()))
    return failure();
  auto format = dyn_cast_or_null<StringAttr>(operands[0]);
  if (!format)
    return failure();
  StringRef rest = format.getValue();
  std::string text;
  llvm::raw_string_ostream os(text);
  size_t used = 1;
  for (size_t hole = rest.find("{}"); hole != StringRef::npos;
       hole = rest.find("{}")) {
    os << rest.take_front(hole);
    if (used >= operands.size() || !operands[used] ||
        !printConstant(os, operands[used], op->getOperand(used).getType()))
      return failure();
    ++used;
    rest = rest.drop_front(hole + 2);
  }
  os << rest;
  results.push_back(StringAttr::get(op->getContext(), text));
  return success();
}

/// `aten::add.str` has no typed op; it arrives as `prim.Generic
/// "aten::add"`, which is only folded for two strings.
LogicalResult evalStrConcat(Operation *op, ArrayRef<Attribute> operands,
                            SmallVectorImpl<Attribute> &results) {
  if (operands.size() != 2 || op->getNumResults() != 1 ||
      !isa<prim::StrType>(op->getResult(0).getType()))
    return failure();
  auto a = dyn_cast_or_null<StringAttr>(operands[0]);
  auto b = dyn_cast_or_null<StringAttr>(operands[1]);
  if (!a || !b)
    return failure();
  results.push_back(
      StringAttr::get(op->getContext(), a.getValue() + b.getValue()));
  return success();
}

/// all/any over a constant list of bools, ints or floats (the list
/// overloads, which have no typed op): Python's truthiness of each element.
template <bool isAll>
LogicalResult evalAllAny(Operation *op, ArrayRef<Attribute> operands,
                         SmallVectorImpl<Attribute> &results) {
  auto list = operands.size() == 1 ? dyn_cast_or_null<ArrayAttr>(operands[0])
                                   : ArrayAttr();
  if (!list || op->getNumResults() != 1 ||
      !op->getResult(0).getType().isInteger(1))
    return failure();
  bool result = isAll;
  for (Attribute element : list) {
    bool truth;
    if (auto integer = dyn_cast<IntegerAttr>(element))
      truth = !integer.getValue().isZero();
    else if (auto number = dyn_cast<FloatAttr>(element))
      truth = !number.getValue().isZero();
    else
      return failure();
    if (truth != isAll) {
      result = !isAll;
      break;
    }
  }
  results.push_back(boolAttr(op->getContext(), result));
  return success();
}

/// str.find(substr, start, end) on constants, as TorchScript's
/// stringFindImpl computes it: negative bounds count from the end (an end
/// of -1 is the string's end), and the result is -1 or an index into the
/// whole string. (`'cpu' in str(x.device)` compiles to it.)
LogicalResult evalStrFind(Operation *op, ArrayRef<Attribute> operands,
                          SmallVectorImpl<Attribute> &results) {
  if (operands.size() != 4 || op->getNumResults() != 1)
    return failure();
  auto text = dyn_cast_or_null<StringAttr>(operands[0]);
  auto substr = dyn_cast_or_null<StringAttr>(operands[1]);
  auto start = dyn_cast_or_null<IntegerAttr>(operands[2]);
  auto end = dyn_cast_or_null<IntegerAttr>(operands[3]);
  if (!text || !substr || !start || !end)
    return failure();
  int64_t size = text.size();
  int64_t from = start.getInt(), to = end.getInt();
  if (from < 0)
    from = std::max<int64_t>(0, size + from);
  if (to < 0)
    to = std::max<int64_t>(0, size + to + 1);
  from = std::min(from, size);
  to = std::min(to, size);
  StringRef window = to > from ? text.getValue().slice(from, to) : "";
  int64_t found = -1;
  if (window.size() >= substr.size()) {
    size_t at = window.find(substr.getValue());
    if (at != StringRef::npos)
      found = int64_t(at) + from;
  }
  results.push_back(intAttr(op->getContext(), found));
  return success();
}

/// `a is b` on constants: None is None; None is never any other constant
/// (IValue::is compares non-pointer values by value, and a pointer value is
/// never None). Two non-None constants compare identities: not folded.
template <bool is>
LogicalResult evalIs(Operation *op, ArrayRef<Attribute> operands,
                     SmallVectorImpl<Attribute> &results) {
  if (!operands[0] || !operands[1])
    return failure();
  bool aNone = isa<UnitAttr>(operands[0]), bNone = isa<UnitAttr>(operands[1]);
  if (!aNone && !bNone)
    return failure();
  results.push_back(boolAttr(op->getContext(), (aNone && bNone) == is));
  return success();
}

LogicalResult evalUncheckedCast(Operation *op, ArrayRef<Attribute> operands,
                                SmallVectorImpl<Attribute> &results) {
  if (!operands[0])
    return failure();
  results.push_back(operands[0]);
  return success();
}

/// `_unwrap_optional(None)` raises.
LogicalResult evalUnwrapOptional(Operation *op, ArrayRef<Attribute> operands,
                                 SmallVectorImpl<Attribute> &results) {
  if (!operands[0] || isa<UnitAttr>(operands[0]))
    return failure();
  results.push_back(operands[0]);
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor metadata from types
//===----------------------------------------------------------------------===//

prim::TensorType tensorOperandType(Operation *op) {
  return dyn_cast<prim::TensorType>(op->getOperand(0).getType());
}

LogicalResult evalDim(Operation *op, ArrayRef<Attribute>,
                      SmallVectorImpl<Attribute> &results) {
  prim::TensorType type = tensorOperandType(op);
  if (!type || !type.getHasSizes())
    return failure();
  results.push_back(intAttr(op->getContext(), type.getSizes().size()));
  return success();
}

bool allSizesKnown(prim::TensorType type) {
  return type && type.getHasSizes() &&
         !llvm::is_contained(type.getSizes(), prim::TensorType::kUnknownSize);
}

LogicalResult evalSizes(Operation *op, ArrayRef<Attribute>,
                        SmallVectorImpl<Attribute> &results) {
  prim::TensorType type = tensorOperandType(op);
  if (!allSizesKnown(type))
    return failure();
  SmallVector<Attribute> sizes;
  for (int64_t size : type.getSizes())
    sizes.push_back(intAttr(op->getContext(), size));
  results.push_back(ArrayAttr::get(op->getContext(), sizes));
  return success();
}

LogicalResult evalSizeOfDim(Operation *op, ArrayRef<Attribute> operands,
                            SmallVectorImpl<Attribute> &results) {
  prim::TensorType type = tensorOperandType(op);
  std::optional<int64_t> dim = getInt(operands[1]);
  // A 0-d tensor has no dim to ask about: that raises.
  if (!type || !type.getHasSizes() || !dim || type.getSizes().empty())
    return failure();
  std::optional<int64_t> position =
      normalizeIndex(*dim, type.getSizes().size());
  if (!position || type.getSizes()[*position] == prim::TensorType::kUnknownSize)
    return failure();
  results.push_back(intAttr(op->getContext(), type.getSizes()[*position]));
  return success();
}

/// `len(t)` is the first size; `len` of a 0-d tensor raises.
LogicalResult evalTensorLen(Operation *op, ArrayRef<Attribute>,
                            SmallVectorImpl<Attribute> &results) {
  prim::TensorType type = tensorOperandType(op);
  if (!type || !type.getHasSizes() || type.getSizes().empty() ||
      type.getSizes()[0] == prim::TensorType::kUnknownSize)
    return failure();
  results.push_back(intAttr(op->getContext(), type.getSizes()[0]));
  return success();
}

LogicalResult evalNumel(Operation *op, ArrayRef<Attribute>,
                        SmallVectorImpl<Attribute> &results) {
  prim::TensorType type = tensorOperandType(op);
  if (!allSizesKnown(type))
    return failure();
  int64_t count = 1;
  for (int64_t size : type.getSizes())
    if (__builtin_mul_overflow(count, size, &count))
      return failure();
  results.push_back(intAttr(op->getContext(), count));
  return success();
}

LogicalResult evalDtype(Operation *op, ArrayRef<Attribute>,
                        SmallVectorImpl<Attribute> &results) {
  prim::TensorType type = tensorOperandType(op);
  if (!type || !type.getDtype())
    return failure();
  std::optional<int64_t> number = scalarTypeNumber(type.getDtype());
  if (!number)
    return failure();
  results.push_back(intAttr(op->getContext(), *number));
  return success();
}

LogicalResult evalDevice(Operation *op, ArrayRef<Attribute>,
                         SmallVectorImpl<Attribute> &results) {
  prim::TensorType type = tensorOperandType(op);
  if (!type || !type.getDevice())
    return failure();
  results.push_back(type.getDevice());
  return success();
}

LogicalResult evalIsFloatingPoint(Operation *op, ArrayRef<Attribute>,
                                  SmallVectorImpl<Attribute> &results) {
  prim::TensorType type = tensorOperandType(op);
  if (!type || !type.getDtype())
    return failure();
  results.push_back(
      boolAttr(op->getContext(), isa<FloatType>(type.getDtype())));
  return success();
}

} // namespace

void tsir::registerContainerEvaluators(ConstantEvaluatorTable &table) {
  using namespace tsir::aten;
  table.add<StrOp>(evalStr);

  table.add<LenTOp>(evalListLen);
  table.add<DunderGetitemTOp>(evalListGetItem);
  table.add<AddTOp>(evalListConcat);
  table.add<ListTOp>(evalListCopy);
  table.add<CopyTOp>(evalListCopy);
  table.add<SliceTOp>(evalListSlice);
  table.add<MulLeftTOp>(evalListRepeat);
  table.add<DunderContainsIntListOp>(evalListContains);
  table.add<DunderContainsFloatListOp>(evalListContains);
  table.add<DunderContainsStrListOp>(evalListContains);
  table.add<IndexListIntOp>(evalListIndex);
  table.add<SumIntOp>(evalListSum);
  table.add<SumFloatOp>(evalListSum);
  table.add<EqIntListOp>(evalListEq<true>);
  table.add<NeIntListOp>(evalListEq<false>);
  table.add<prim::ListConstructOp>(evalListConstruct);
  table.add<prim::ListUnpackOp>(evalUnpack);

  table.add<prim::TupleConstructOp>(evalTupleConstruct);
  table.add<prim::TupleIndexOp>(evalTupleIndex);
  table.add<prim::TupleUnpackOp>(evalUnpack);

  table.add<LenStrOp>(evalStrLen);
  table.add<DunderGetitemStrOp>(evalStrGetItem);
  table.add<EqStrOp>(evalStrEq<true>);
  table.add<NeStrOp>(evalStrEq<false>);
  table.add<EqDeviceOp>(evalStrEq<true>);
  table.add<NeDeviceOp>(evalStrEq<false>);
  table.addGeneric("aten::add", evalStrConcat);
  table.addGeneric("aten::find", evalStrFind);
  table.addGeneric("aten::format", evalFormat);
  table.addGeneric("aten::all", evalAllAny<true>);
  table.addGeneric("aten::any", evalAllAny<false>);
  table.add<EqEnumOp>(evalEnumEq<true>);
  table.add<NeEnumOp>(evalEnumEq<false>);
  table.addGeneric("prim::EnumName", evalEnumName);

  table.add<DunderIsOp>(evalIs<true>);
  table.add<DunderIsnotOp>(evalIs<false>);
  table.add<prim::UncheckedCastOp>(evalUncheckedCast);
  table.add<PrivateUnwrapOptionalOp>(evalUnwrapOptional);

  table.add<DimOp>(evalDim, EvaluatorInput::TensorShape);
  table.add<SizeOp>(evalSizes, EvaluatorInput::TensorShape);
  table.add<SizeIntOp>(evalSizeOfDim, EvaluatorInput::TensorShape);
  table.add<LenTensorOp>(evalTensorLen, EvaluatorInput::TensorShape);
  table.add<NumelOp>(evalNumel, EvaluatorInput::TensorShape);
  table.add<prim::DtypeOp>(evalDtype, EvaluatorInput::TensorDtypeOrDevice);
  table.add<prim::DeviceOp>(evalDevice, EvaluatorInput::TensorDtypeOrDevice);
  table.add<IsFloatingPointOp>(evalIsFloatingPoint,
                               EvaluatorInput::TensorDtypeOrDevice);
}
