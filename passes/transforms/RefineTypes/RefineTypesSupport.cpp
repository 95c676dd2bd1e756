//===- RefineTypesSupport.cpp - Lattice and constants for refine-types ---===//
//
// What the per-op rules of tsir-refine-types share: the tensor facts and
// their join (TorchScript's unifyTypes), torch's dtype promotion table and
// ScalarType codes, broadcasting, and the evaluation of the constant ints
// and int lists (sizes, dims) that shape arguments are built from.
//
//===----------------------------------------------------------------------===//

#include "RefineTypesRules.h"
#include "../FoldUtils.h"

#include "tsir/Dialect/Aten/SchemaRegistry.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::refine;

//===----------------------------------------------------------------------===//
// TensorFacts
//===----------------------------------------------------------------------===//

TensorFacts TensorFacts::of(Type type) {
  TensorFacts facts;
  auto tensor = dyn_cast<prim::TensorType>(type);
  if (!tensor)
    return facts;
  facts.dtype = tensor.getDtype();
  if (tensor.getHasSizes())
    facts.sizes.emplace(tensor.getSizes().begin(), tensor.getSizes().end());
  facts.device = tensor.getDevice();
  return facts;
}

prim::TensorType TensorFacts::toType(MLIRContext *context) const {
  ArrayRef<int64_t> dims =
      sizes ? ArrayRef<int64_t>(*sizes) : ArrayRef<int64_t>();
  return prim::TensorType::get(context, dtype, sizes.has_value(), dims,
                               /*hasStrides=*/false, {}, device,
                               /*requiresGrad=*/BoolAttr(), {});
}

bool TensorFacts::hasStaticSizes() const {
  return sizes &&
         llvm::none_of(*sizes, [](int64_t s) { return s == kUnknown; });
}

std::optional<int64_t> TensorFacts::numel() const {
  if (!hasStaticSizes())
    return std::nullopt;
  int64_t count = 1;
  for (int64_t size : *sizes)
    count *= size;
  return count;
}

TensorFacts refine::joinFacts(const TensorFacts &a, const TensorFacts &b) {
  TensorFacts joined;
  if (a.dtype == b.dtype)
    joined.dtype = a.dtype;
  if (a.device == b.device)
    joined.device = a.device;
  if (a.sizes && b.sizes && a.sizes->size() == b.sizes->size()) {
    joined.sizes.emplace();
    for (auto [x, y] : llvm::zip(*a.sizes, *b.sizes))
      joined.sizes->push_back(x == y ? x : kUnknown);
  }
  return joined;
}

Type refine::joinTypes(Type a, Type b) {
  if (a == b)
    return a;
  MLIRContext *context = a.getContext();
  auto ta = dyn_cast<prim::TensorType>(a);
  auto tb = dyn_cast<prim::TensorType>(b);
  if (ta && tb) {
    TensorFacts joined = joinFacts(TensorFacts::of(a), TensorFacts::of(b));
    BoolAttr grad = ta.getRequiresGrad() == tb.getRequiresGrad()
                        ? ta.getRequiresGrad()
                        : BoolAttr();
    // Strides survive only where both sides state the same layout.
    bool sameLayout = ta.getHasStrides() && tb.getHasStrides() &&
                      ta.getStrides() == tb.getStrides() && joined.sizes &&
                      ta.getSizes() == tb.getSizes();
    ArrayRef<int64_t> sizes =
        joined.sizes ? ArrayRef<int64_t>(*joined.sizes) : ArrayRef<int64_t>();
    return prim::TensorType::get(
        context, joined.dtype, joined.sizes.has_value(), sizes, sameLayout,
        sameLayout ? ta.getStrides() : ArrayRef<int64_t>(), joined.device, grad,
        {});
  }
  auto tupleA = dyn_cast<prim::TupleType>(a);
  auto tupleB = dyn_cast<prim::TupleType>(b);
  if (tupleA && tupleB) {
    if (tupleA.getTypes().size() != tupleB.getTypes().size())
      return {};
    SmallVector<Type> elements;
    for (auto [x, y] : llvm::zip(tupleA.getTypes(), tupleB.getTypes())) {
      Type joined = joinTypes(x, y);
      if (!joined)
        return {};
      elements.push_back(joined);
    }
    // Two NamedTuples with the same fields join into one; otherwise the
    // join is a plain tuple, which both are.
    if (tupleA.getFieldNames() == tupleB.getFieldNames() &&
        tupleA.getDefaults() == tupleB.getDefaults())
      return tupleA.withTypes(elements);
    return prim::TupleType::get(context, elements);
  }
  // Optionals: None joins anything into an optional of it, as in
  // TorchScript's unifyTypes.
  auto unwrap = [](Type t) -> Type {
    if (auto optional = dyn_cast<prim::OptionalType>(t))
      return optional.getElementType();
    return t;
  };
  if (isa<prim::NoneType>(a) && isa<prim::OptionalType>(b))
    return b;
  if (isa<prim::NoneType>(b) && isa<prim::OptionalType>(a))
    return a;
  if (isa<prim::OptionalType>(a) || isa<prim::OptionalType>(b)) {
    if (isa<prim::NoneType>(a) || isa<prim::NoneType>(b))
      return {};
    Type inner = joinTypes(unwrap(a), unwrap(b));
    return inner ? prim::OptionalType::get(context, inner) : Type();
  }
  if (isa<prim::NoneType>(a) && isa<prim::TensorType>(b))
    return prim::OptionalType::get(context, b);
  if (isa<prim::NoneType>(b) && isa<prim::TensorType>(a))
    return prim::OptionalType::get(context, a);
  if (prim::isSubtypeOf(a, b))
    return b;
  if (prim::isSubtypeOf(b, a))
    return a;
  return {};
}

ListFacts ListFacts::ofElements(ArrayRef<TensorFacts> elements) {
  ListFacts facts;
  facts.elements.emplace(elements.begin(), elements.end());
  if (!elements.empty()) {
    facts.common = elements.front();
    for (const TensorFacts &element : elements.drop_front())
      facts.common = joinFacts(facts.common, element);
  }
  return facts;
}

ListFacts ListFacts::ofUnknownLength(const TensorFacts &common) {
  ListFacts facts;
  facts.common = common;
  return facts;
}

//===----------------------------------------------------------------------===//
// dtypes
//===----------------------------------------------------------------------===//

// c10::ScalarType's numbering (c10/core/ScalarType.h); "" for the types
// tsir has no dtype for.
static const char *const kScalarTypeNames[] = {
    "Byte",         "Char",          "Short",
    "Int",          "Long",          "Half",
    "Float",        "Double",        /*ComplexHalf*/ "",
    "ComplexFloat", "ComplexDouble", "Bool",
    "QInt8",        "QUInt8",        "QInt32",
    "BFloat16",     "QUInt4x2",      "QUInt2x4"};

Type refine::dtypeFromScalarTypeCode(MLIRContext *context, int64_t code) {
  if (code < 0 || code >= static_cast<int64_t>(std::size(kScalarTypeNames)) ||
      !*kScalarTypeNames[code])
    return {};
  return prim::dtypeFromTorchName(context, kScalarTypeNames[code]);
}

std::optional<int64_t> refine::scalarTypeCodeOf(Type dtype) {
  StringRef name = prim::torchNameOfDtype(dtype);
  if (name.empty())
    return std::nullopt;
  for (auto [code, candidate] : llvm::enumerate(kScalarTypeNames))
    if (name == candidate)
      return code;
  return std::nullopt;
}

bool refine::isFloatingDtype(Type dtype) {
  return dtype && isa<FloatType>(dtype);
}

bool refine::isComplexDtype(Type dtype) {
  return dtype && isa<ComplexType>(dtype);
}

bool refine::isBoolDtype(Type dtype) { return dtype && dtype.isInteger(1); }

bool refine::isIntegralDtype(Type dtype) {
  return dtype && isa<IntegerType>(dtype) && !dtype.isInteger(1);
}

Type refine::defaultFloatDtype(MLIRContext *context) {
  return Float32Type::get(context);
}

Type refine::defaultComplexDtype(MLIRContext *context) {
  return ComplexType::get(Float32Type::get(context));
}

Type refine::longDtype(MLIRContext *context) {
  return IntegerType::get(context, 64, IntegerType::Signed);
}

Type refine::boolDtype(MLIRContext *context) {
  return IntegerType::get(context, 1);
}

Type refine::integerToFloatDtype(MLIRContext *context, Type dtype) {
  if (dtype && (isIntegralDtype(dtype) || isBoolDtype(dtype)))
    return defaultFloatDtype(context);
  return dtype;
}

Type refine::complexToRealDtype(Type dtype) {
  if (isComplexDtype(dtype))
    return cast<ComplexType>(dtype).getElementType();
  return dtype;
}

Type refine::integerToLongDtype(MLIRContext *context, Type dtype) {
  if (dtype && (isIntegralDtype(dtype) || isBoolDtype(dtype)))
    return longDtype(context);
  return dtype;
}

/// The rank of a floating dtype in promotion order; f16 and bf16 tie.
static unsigned floatRank(Type dtype) {
  return dtype.isF64() ? 3 : dtype.isF32() ? 2 : 1;
}

Type refine::promoteDtypes(Type a, Type b) {
  if (!a || !b)
    return {};
  if (a == b)
    return a;
  if (isBoolDtype(a))
    return b;
  if (isBoolDtype(b))
    return a;
  MLIRContext *context = a.getContext();
  if (isComplexDtype(a) || isComplexDtype(b)) {
    // The complex type wide enough for both value types.
    auto valueType = [](Type t) {
      return isComplexDtype(t) ? cast<ComplexType>(t).getElementType() : t;
    };
    Type va = valueType(a), vb = valueType(b);
    bool wide = (isFloatingDtype(va) && va.isF64()) ||
                (isFloatingDtype(vb) && vb.isF64());
    return ComplexType::get(wide ? Type(Float64Type::get(context))
                                 : Type(Float32Type::get(context)));
  }
  if (isFloatingDtype(a) && isFloatingDtype(b)) {
    unsigned ra = floatRank(a), rb = floatRank(b);
    if (ra == rb) // Half with BFloat16
      return Float32Type::get(context);
    return ra > rb ? a : b;
  }
  if (isFloatingDtype(a))
    return a;
  if (isFloatingDtype(b))
    return b;
  // Two distinct integer types. torch does not promote quantized dtypes
  // (promoteTypes raises), so neither does refinement: the result is not
  // known.
  auto ia = dyn_cast<IntegerType>(a), ib = dyn_cast<IntegerType>(b);
  if (!ia || !ib)
    return {};
  if (ia.isUnsigned() || ib.isUnsigned()) {
    IntegerType other = ia.isUnsigned() ? ib : ia;
    // Byte with Char needs Short; wider signed types hold every Byte.
    if (other.getWidth() == 8)
      return IntegerType::get(context, 16, IntegerType::Signed);
    return other;
  }
  return ia.getWidth() > ib.getWidth() ? a : b;
}

//===----------------------------------------------------------------------===//
// Shapes and devices
//===----------------------------------------------------------------------===//

std::optional<int64_t> refine::wrapDim(int64_t dim, int64_t rank) {
  int64_t bound = std::max<int64_t>(rank, 1);
  if (dim < -bound || dim >= bound)
    return std::nullopt;
  return dim < 0 ? dim + bound : dim;
}

std::optional<SmallVector<int64_t, 4>>
refine::broadcastSizes(ArrayRef<TensorFacts> operands) {
  int64_t rank = 0;
  for (const TensorFacts &operand : operands) {
    if (!operand.sizes)
      return std::nullopt;
    rank = std::max(rank, operand.rank());
  }
  SmallVector<int64_t, 4> result(rank, 1);
  for (int64_t i = 0; i < rank; ++i) {
    // Dim i of the result, counted from the right in every operand.
    int64_t known = 1;
    bool unknown = false;
    for (const TensorFacts &operand : operands) {
      int64_t at = operand.rank() - rank + i;
      if (at < 0)
        continue;
      int64_t size = (*operand.sizes)[at];
      if (size == kUnknown) {
        unknown = true;
      } else if (size != 1) {
        if (known != 1 && known != size)
          return std::nullopt; // would not broadcast: no facts
        known = size;
      }
    }
    // An unknown size beside a known one other than 1 must be 1 or equal.
    result[i] = known != 1 ? known : unknown ? kUnknown : 1;
  }
  return result;
}

StringAttr refine::commonDevice(ArrayRef<TensorFacts> operands) {
  StringAttr device;
  bool sawCpu = false;
  for (const TensorFacts &operand : operands) {
    if (!operand.device)
      return {};
    if (operand.device.getValue() == "cpu") {
      sawCpu = true;
      continue;
    }
    if (device && device != operand.device)
      return {};
    device = operand.device;
  }
  if (device)
    return device; // CPU operands beside it can only be 0-d scalars.
  return sawCpu ? StringAttr::get(operands.front().device.getContext(), "cpu")
                : StringAttr();
}

TensorFacts refine::withSizes(const TensorFacts &input,
                              std::optional<SmallVector<int64_t, 4>> sizes) {
  TensorFacts facts;
  facts.dtype = input.dtype;
  facts.device = input.device;
  facts.sizes = std::move(sizes);
  return facts;
}

Value refine::namedOperand(Operation *op, StringRef name) {
  const aten::Schema *schema = getSchema(op);
  if (!schema)
    return {};
  for (auto [index, argument] : llvm::enumerate(schema->arguments))
    if (argument.name == name && index < op->getNumOperands())
      return op->getOperand(index);
  return {};
}

void refine::setResult(RuleContext &context, MutableArrayRef<Type> results,
                       unsigned index, const TensorFacts &facts) {
  if (index < results.size() && !facts.knowsNothing())
    results[index] = facts.toType(context.getContext());
}

//===----------------------------------------------------------------------===//
// RuleContext: constants
//===----------------------------------------------------------------------===//

static Attribute constantValue(Value value) {
  if (auto constant = value.getDefiningOp<prim::ConstantOp>())
    return constant.getValue();
  return {};
}

/// How deep evalInt follows chains of integer arithmetic.
static constexpr unsigned kMaxEvalDepth = 16;

std::optional<int64_t> RuleContext::getInt(Value value) const {
  return evalInt(value, 0);
}

/// The length of a list nothing writes, when it is known.
static std::optional<int64_t> listLength(const RuleContext &context,
                                         Value list) {
  if (!isa<prim::ListType>(list.getType()) ||
      context.getAliases().hasWriters(list))
    return std::nullopt;
  if (auto array = dyn_cast_or_null<ArrayAttr>(constantValue(list)))
    return array.size();
  Operation *def = list.getDefiningOp();
  if (auto construct = dyn_cast_or_null<prim::ListConstructOp>(def))
    return construct.getElements().size();
  if (def && def->getName().getStringRef() == "aten.size") {
    TensorFacts self = context.tensor(def->getOperand(0));
    if (self.hasRank())
      return self.rank();
  }
  if (std::optional<ListFacts> facts = context.listFacts(list))
    if (facts->elements)
      return facts->elements->size();
  return std::nullopt;
}

std::optional<int64_t> RuleContext::evalInt(Value value, unsigned depth) const {
  if (!value.getType().isInteger(64) || depth > kMaxEvalDepth)
    return std::nullopt;
  if (auto attr = dyn_cast_or_null<IntegerAttr>(constantValue(value)))
    return attr.getInt();
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  StringRef name = def->getName().getStringRef();
  auto operand = [&](unsigned i) {
    return evalInt(def->getOperand(i), depth + 1);
  };
  if (name == "aten.size.int") {
    TensorFacts self = tensor(def->getOperand(0));
    std::optional<int64_t> dim = operand(1);
    if (!self.hasRank() || !dim || self.rank() == 0)
      return std::nullopt;
    std::optional<int64_t> wrapped = wrapDim(*dim, self.rank());
    if (!wrapped || (*self.sizes)[*wrapped] == kUnknown)
      return std::nullopt;
    return (*self.sizes)[*wrapped];
  }
  if (auto dtype = dyn_cast<prim::DtypeOp>(def))
    return scalarTypeCodeOf(tensor(dtype.getTensor()).dtype);
  // `n, c, h, w = x.shape`: one element of a list whose values are known
  // (MaxViT's blocks read their input's sizes this way, block after block;
  // without it each block's sizes waited for a round of folding).
  if (auto unpack = dyn_cast<prim::ListUnpackOp>(def)) {
    auto list = evalIntList(unpack.getList(), depth + 1);
    unsigned at = cast<OpResult>(value).getResultNumber();
    if (!list || list->size() != unpack->getNumResults())
      return std::nullopt;
    return (*list)[at];
  }
  if (name == "aten.dim") {
    TensorFacts self = tensor(def->getOperand(0));
    return self.hasRank() ? std::optional<int64_t>(self.rank()) : std::nullopt;
  }
  if (name == "aten.numel")
    return tensor(def->getOperand(0)).numel();
  if (name == "aten.len.t")
    return listLength(*this, def->getOperand(0));
  if (name == "aten.__getitem__.t") {
    auto list = evalIntList(def->getOperand(0), depth + 1);
    std::optional<int64_t> index = operand(1);
    if (!list || !index)
      return std::nullopt;
    int64_t size = list->size();
    int64_t at = *index < 0 ? *index + size : *index;
    if (at < 0 || at >= size)
      return std::nullopt;
    return (*list)[at];
  }
  if (name == "aten.neg.int") {
    std::optional<int64_t> x = operand(0);
    return x ? std::optional<int64_t>(-*x) : std::nullopt;
  }
  if (name == "aten.add.int" || name == "aten.sub.int" ||
      name == "aten.mul.int" || name == "aten.floordiv.int") {
    std::optional<int64_t> x = operand(0), y = operand(1);
    if (!x || !y)
      return std::nullopt;
    if (name == "aten.add.int")
      return *x + *y;
    if (name == "aten.sub.int")
      return *x - *y;
    if (name == "aten.mul.int")
      return *x * *y;
    if (*y == 0)
      return std::nullopt;
    // Python's floor division.
    int64_t quotient = *x / *y;
    if ((*x % *y != 0) && ((*x < 0) != (*y < 0)))
      --quotient;
    return quotient;
  }
  return std::nullopt;
}

std::optional<double> RuleContext::getFloat(Value value) const {
  Attribute attr = constantValue(value);
  if (auto f = dyn_cast_or_null<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = dyn_cast_or_null<IntegerAttr>(attr))
    if (!i.getType().isInteger(1))
      return static_cast<double>(i.getInt());
  return std::nullopt;
}

std::optional<bool> RuleContext::getBool(Value value) const {
  if (auto attr = dyn_cast_or_null<IntegerAttr>(constantValue(value)))
    if (attr.getType().isInteger(1))
      return attr.getValue().isOne();
  return std::nullopt;
}

bool RuleContext::isNone(Value value) const {
  return isa<prim::NoneType>(value.getType()) ||
         isa_and_nonnull<UnitAttr>(constantValue(value));
}

std::optional<SmallVector<std::optional<int64_t>>>
RuleContext::getIntList(Value value) const {
  return evalIntList(value, 0);
}

std::optional<SmallVector<std::optional<int64_t>>>
RuleContext::evalIntList(Value value, unsigned depth) const {
  if (!isa<prim::ListType>(value.getType()) || aliases.hasWriters(value) ||
      depth > kMaxEvalDepth)
    return std::nullopt;
  SmallVector<std::optional<int64_t>> result;
  if (auto array = dyn_cast_or_null<ArrayAttr>(constantValue(value))) {
    for (Attribute element : array) {
      auto integer = dyn_cast<IntegerAttr>(element);
      if (!integer || !integer.getType().isInteger(64))
        return std::nullopt;
      result.push_back(integer.getInt());
    }
    return result;
  }
  Operation *def = value.getDefiningOp();
  if (auto construct = dyn_cast_or_null<prim::ListConstructOp>(def)) {
    for (Value element : construct.getElements())
      result.push_back(evalInt(element, depth + 1));
    return result;
  }
  // `a + b` and `l[start:end]` of known lists: the pooling decompositions
  // build their window shapes as `sizes[:d] + [n, k] + sizes[d+1:]`, and
  // each waited for a round of folding before its reshape refined.
  StringRef name = def ? def->getName().getStringRef() : "";
  if (name == "aten.add.t") {
    auto front = evalIntList(def->getOperand(0), depth + 1);
    auto back = evalIntList(def->getOperand(1), depth + 1);
    if (!front || !back)
      return std::nullopt;
    front->append(back->begin(), back->end());
    return front;
  }
  if (name == "aten.slice.t") {
    auto list = evalIntList(def->getOperand(0), depth + 1);
    auto bound = [&](unsigned i) -> std::optional<std::optional<int64_t>> {
      if (isNone(def->getOperand(i)))
        return std::optional<int64_t>();
      if (std::optional<int64_t> known = evalInt(def->getOperand(i), depth + 1))
        return known;
      return std::nullopt;
    };
    auto start = bound(1), end = bound(2);
    std::optional<int64_t> step = evalInt(def->getOperand(3), depth + 1);
    if (!list || !start || !end || !step || *step <= 0)
      return std::nullopt;
    FailureOr<SmallVector<int64_t>> positions =
        sliceIndices(list->size(), *start, *end, *step);
    if (failed(positions))
      return std::nullopt;
    for (int64_t at : *positions)
      result.push_back((*list)[at]);
    return result;
  }
  if (def && def->getName().getStringRef() == "aten.size") {
    TensorFacts self = tensor(def->getOperand(0));
    if (!self.hasRank())
      return std::nullopt;
    for (int64_t size : *self.sizes)
      result.push_back(size == kUnknown ? std::nullopt
                                        : std::optional<int64_t>(size));
    return result;
  }
  return std::nullopt;
}

std::optional<SmallVector<std::optional<int64_t>>>
RuleContext::getIntListOrInt(Value value, size_t length) const {
  if (value.getType().isInteger(64))
    return SmallVector<std::optional<int64_t>>(length, getInt(value));
  return getIntList(value);
}

Type RuleContext::getDtypeArg(Value value) const {
  std::optional<int64_t> code = getInt(value);
  return code ? dtypeFromScalarTypeCode(context, *code) : Type();
}

StringAttr RuleContext::getDeviceArg(Value value) const {
  if (auto device = value.getDefiningOp<prim::DeviceOp>())
    return tensor(device.getTensor()).device; // `x.device`
  auto name = dyn_cast_or_null<StringAttr>(constantValue(value));
  if (!name || !isa<prim::DeviceType>(value.getType()))
    return {};
  // `cuda` without an index means the current device: not a fact here.
  if (name.getValue() != "cpu" && !name.getValue().contains(':'))
    return {};
  return name;
}

Type RuleContext::scalarDtype(Value value) const {
  Type type = value.getType();
  if (isa<prim::NumberType>(type)) {
    Attribute attr = constantValue(value);
    if (isa_and_nonnull<FloatAttr>(attr))
      type = Float64Type::get(context);
    else if (isa_and_nonnull<IntegerAttr>(attr))
      type = cast<IntegerAttr>(attr).getType();
    // item() and ScalarImplicit of a tensor hold a number of its dtype's
    // category: a float for floating tensors, an int or a bool otherwise.
    Operation *producer = value.getDefiningOp();
    if (producer && producer->getNumOperands() == 1 &&
        (producer->getName().getStringRef() == "aten.item" ||
         producer->getName().getStringRef() == "aten.ScalarImplicit")) {
      Type dtype = tensor(producer->getOperand(0)).dtype;
      if (dtype && isBoolDtype(dtype))
        type = IntegerType::get(context, 1);
      else if (dtype && isIntegralDtype(dtype))
        type = IntegerType::get(context, 64);
      else if (dtype && isa<FloatType>(dtype))
        type = Float64Type::get(context);
    }
  }
  if (type.isInteger(64))
    return longDtype(context);
  if (type.isInteger(1))
    return boolDtype(context);
  if (type.isF64())
    return defaultFloatDtype(context);
  if (isa<ComplexType>(type))
    return defaultComplexDtype(context);
  return {};
}

//===----------------------------------------------------------------------===//
// RuleContext: lists and resizes
//===----------------------------------------------------------------------===//

std::optional<ListFacts> RuleContext::listFacts(Value list) const {
  if (!isa<prim::ListType>(list.getType()) || aliases.hasWriters(list))
    return std::nullopt;
  auto found = lists.find(list);
  if (found != lists.end())
    return found->second;
  if (auto construct = list.getDefiningOp<prim::ListConstructOp>()) {
    SmallVector<TensorFacts> elements;
    for (Value element : construct.getElements()) {
      if (!isa<prim::TensorType>(element.getType()))
        return std::nullopt;
      elements.push_back(tensor(element));
    }
    return ListFacts::ofElements(elements);
  }
  return std::nullopt;
}

void RuleContext::setListFacts(Value list, ListFacts facts) {
  lists[list] = std::move(facts);
}

bool RuleContext::isResized(Value value) const {
  if (resizedSets.empty() || !isa<prim::TensorType>(value.getType()))
    return false;
  const void *set = aliases.aliasSet(value);
  return set && resizedSets.contains(set);
}

//===----------------------------------------------------------------------===//
// The rule table
//===----------------------------------------------------------------------===//

const llvm::StringMap<ShapeRule> &refine::getShapeRules() {
  static const llvm::StringMap<ShapeRule> rules = [] {
    llvm::StringMap<ShapeRule> map;
    addElementwiseRules(map);
    addFactoryRules(map);
    addShapeRules(map);
    addListRules(map);
    addReductionRules(map);
    addNNRules(map);
    return map;
  }();
  return rules;
}
