//===- RefineTypesElementwise.cpp - Elementwise and dtype rules -----------===//
//
// tsir-refine-types' rules for the ops whose result dtype comes from torch's
// type promotion (at::result_type) and whose shape is the broadcast of
// their tensor operands: arithmetic, comparisons, unary math, where/clamp;
// and for the ops that make tensors from nothing or change only their dtype
// or device: factories, `to`, `type_as`, `NumToTensor`, constants.
//
// Promotion follows eager PyTorch, which TorchScript's runtime runs:
// operands are ranked by category (bool < integer < floating < complex);
// tensors with dims decide within the highest category, then 0-d tensors,
// then Python scalars, which only contribute their category (an int tensor
// plus a float scalar is the default dtype, Float).
//
//===----------------------------------------------------------------------===//

#include "RefineTypesRules.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace tsir;
using namespace tsir::refine;

//===----------------------------------------------------------------------===//
// Type promotion
//===----------------------------------------------------------------------===//

namespace {
/// How an operand takes part in at::result_type.
enum class Kind { DimTensor, ZeroDimTensor, Scalar };

struct Participant {
  Type dtype;
  Kind kind;
};
} // namespace

static Type promoteSkipUndefined(Type a, Type b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return promoteDtypes(a, b);
}

static Type toComplexDtype(Type dtype) {
  // ComplexHalf has no tsir dtype; BFloat16 has no complex counterpart.
  if (dtype.isF32() || dtype.isF64())
    return ComplexType::get(dtype);
  return {};
}

/// c10's combine_categories: `higher` wins unless `lower` is of a higher
/// category.
static Type combineCategories(Type higher, Type lower) {
  if (isComplexDtype(higher))
    return higher;
  if (isComplexDtype(lower)) {
    if (isFloatingDtype(higher))
      return toComplexDtype(higher);
    return lower;
  }
  if (isFloatingDtype(higher))
    return higher;
  if (isBoolDtype(higher) || isFloatingDtype(lower))
    return promoteSkipUndefined(higher, lower);
  return higher ? higher : lower;
}

static Type resultTypeOf(ArrayRef<Participant> participants) {
  Type dims, zeroDims, scalars;
  for (const Participant &p : participants) {
    Type &state = p.kind == Kind::DimTensor       ? dims
                  : p.kind == Kind::ZeroDimTensor ? zeroDims
                                                  : scalars;
    state = promoteSkipUndefined(state, p.dtype);
  }
  return combineCategories(dims, combineCategories(zeroDims, scalars));
}

/// The most tensors of unknown rank whose both cases are tried.
static constexpr unsigned kMaxUnrankedOperands = 4;

/// at::result_type of `operands` (tensors and scalars; None is skipped).
/// A tensor of unknown rank may be 0-d or not; the dtype is a fact only if
/// both cases agree.
static Type resultType(const RuleContext &context, ArrayRef<Value> operands) {
  SmallVector<Participant> participants;
  SmallVector<unsigned> unranked;
  for (Value operand : operands) {
    if (!operand || context.isNone(operand))
      continue;
    if (isa<prim::TensorType>(operand.getType())) {
      TensorFacts facts = context.tensor(operand);
      if (!facts.dtype)
        return {};
      if (!facts.hasRank())
        unranked.push_back(participants.size());
      participants.push_back({facts.dtype, facts.hasRank() && facts.rank() == 0
                                               ? Kind::ZeroDimTensor
                                               : Kind::DimTensor});
      continue;
    }
    Type dtype = context.scalarDtype(operand);
    if (!dtype)
      return {};
    participants.push_back({dtype, Kind::Scalar});
  }
  if (participants.empty() || unranked.size() > kMaxUnrankedOperands)
    return {};
  Type agreed;
  for (unsigned mask = 0, e = 1u << unranked.size(); mask < e; ++mask) {
    for (auto [bit, index] : llvm::enumerate(unranked))
      participants[index].kind =
          (mask >> bit) & 1 ? Kind::ZeroDimTensor : Kind::DimTensor;
    Type dtype = resultTypeOf(participants);
    if (!dtype || (agreed && agreed != dtype))
      return {};
    agreed = dtype;
  }
  return agreed;
}

//===----------------------------------------------------------------------===//
// Elementwise rules
//===----------------------------------------------------------------------===//

namespace {
/// What an elementwise op's dtype is, given the promoted operand dtype.
enum class DtypeRule {
  Promote,      // at::result_type
  IntToFloat,   // promoted, integers and bool to the default dtype
  Bool,         // comparisons, logical ops, isnan
  First,        // the first operand's (masked_fill, prelu)
  ComplexToReal // abs: complex to its value type
};
} // namespace

static Type applyDtypeRule(MLIRContext *context, DtypeRule rule, Type promoted,
                           Type first) {
  switch (rule) {
  case DtypeRule::Promote:
    return promoted;
  case DtypeRule::IntToFloat:
    if (promoted && (isIntegralDtype(promoted) || isBoolDtype(promoted)))
      return defaultFloatDtype(context);
    return promoted;
  case DtypeRule::Bool:
    return boolDtype(context);
  case DtypeRule::First:
    return first;
  case DtypeRule::ComplexToReal:
    if (isComplexDtype(first))
      return cast<ComplexType>(first).getElementType();
    return first;
  }
  return {};
}

/// Operands that take part in an elementwise op without a shape.
static bool isScalarOrNone(const RuleContext &context, Value value) {
  Type type = value.getType();
  if (auto optional = dyn_cast<prim::OptionalType>(type))
    type = optional.getElementType(); // `Scalar?`, not `Tensor?`
  return context.isNone(value) || type.isInteger(64) || type.isInteger(1) ||
         type.isF64() || isa<ComplexType, prim::NumberType>(type);
}

/// The result of an elementwise op: the broadcast of its tensor operands
/// among `shapeOperands`, with the dtype `rule` derives from promoting
/// `dtypeOperands`.
static void elementwise(Operation *op, RuleContext &context,
                        MutableArrayRef<Type> results,
                        ArrayRef<unsigned> dtypeOperands,
                        ArrayRef<unsigned> shapeOperands, DtypeRule rule) {
  auto operandsAt = [&](ArrayRef<unsigned> indices) {
    SmallVector<Value> values;
    for (unsigned index : indices)
      if (index < op->getNumOperands())
        values.push_back(op->getOperand(index));
    return values;
  };
  SmallVector<TensorFacts> tensors;
  bool shapeKnown = true;
  for (Value value : operandsAt(shapeOperands)) {
    if (isa<prim::TensorType>(value.getType()))
      tensors.push_back(context.tensor(value));
    else if (!isScalarOrNone(context, value))
      shapeKnown = false; // an Optional[Tensor] may broadcast
  }
  if (tensors.empty())
    return;
  SmallVector<Value> dtypeValues = operandsAt(dtypeOperands);
  Type promoted = resultType(context, dtypeValues);
  TensorFacts result;
  result.dtype = applyDtypeRule(context.getContext(), rule, promoted,
                                context.tensor(op->getOperand(0)).dtype);
  if (shapeKnown) {
    result.sizes = broadcastSizes(tensors);
    result.device = commonDevice(tensors);
  }
  setResult(context, results, 0, result);
}

template <DtypeRule rule>
static void unaryRule(Operation *op, RuleContext &context,
                      MutableArrayRef<Type> results) {
  elementwise(op, context, results, {0}, {0}, rule);
}

template <DtypeRule rule>
static void binaryRule(Operation *op, RuleContext &context,
                       MutableArrayRef<Type> results) {
  elementwise(op, context, results, {0, 1}, {0, 1}, rule);
}

/// square(x) is pow(x, 2): bool becomes Long.
static void squareRule(Operation *op, RuleContext &context,
                       MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  if (self.dtype)
    self.dtype = combineCategories(self.dtype, longDtype(context.getContext()));
  setResult(context, results, 0, self);
}

//===----------------------------------------------------------------------===//
// Factories and conversions
//===----------------------------------------------------------------------===//

/// Sizes from an `int[]` argument: unknown entries stay unknown; a negative
/// entry (an error at run time) gives nothing.
static std::optional<SmallVector<int64_t, 4>>
sizesFromList(const RuleContext &context, Value list) {
  if (!list)
    return std::nullopt;
  auto entries = context.getIntList(list);
  if (!entries)
    return std::nullopt;
  SmallVector<int64_t, 4> sizes;
  for (std::optional<int64_t> entry : *entries) {
    if (entry && *entry < 0)
      return std::nullopt;
    sizes.push_back(entry ? *entry : kUnknown);
  }
  return sizes;
}

/// A `dtype` argument: `fallback` when None, the constant's dtype, or null
/// when not known.
static Type dtypeArgOr(const RuleContext &context, Value arg, Type fallback) {
  if (!arg || context.isNone(arg))
    return fallback;
  return context.getDtypeArg(arg);
}

/// A `device` argument: `fallback` when None, else the constant's device.
static StringAttr deviceArgOr(const RuleContext &context, Value arg,
                              StringAttr fallback) {
  if (!arg || context.isNone(arg))
    return fallback;
  return context.getDeviceArg(arg);
}

/// A factory only makes a strided tensor when its layout is None or strided
/// (0); sparse layouts have other facts.
static bool isStridedLayout(const RuleContext &context, Operation *op) {
  Value layout = namedOperand(op, "layout");
  if (!layout || context.isNone(layout))
    return true;
  std::optional<int64_t> code = context.getInt(layout);
  return code && *code == 0;
}

static StringAttr cpuDevice(MLIRContext *context) {
  return StringAttr::get(context, "cpu");
}

/// zeros/ones/empty/rand/randn/full/randint/randperm/eye/linspace/arange:
/// a new tensor of the given sizes, dtype and device.
static void factoryRule(Operation *op, RuleContext &context,
                        MutableArrayRef<Type> results) {
  if (!isStridedLayout(context, op))
    return;
  MLIRContext *ctx = context.getContext();
  StringRef name = op->getName().getStringRef();
  TensorFacts result;
  Type fallback = defaultFloatDtype(ctx);
  if (name == "aten.full") {
    fallback = context.scalarDtype(namedOperand(op, "fill_value"));
  } else if (name.starts_with("aten.randint") || name == "aten.randperm") {
    fallback = longDtype(ctx);
  } else if (name.starts_with("aten.arange")) {
    // Integers give Long; any floating bound gives the default dtype.
    fallback = longDtype(ctx);
    for (StringRef bound : {"start", "end", "step"}) {
      Value value = namedOperand(op, bound);
      if (!value)
        continue;
      Type dtype = context.scalarDtype(value);
      if (!dtype) {
        fallback = {};
        break;
      }
      if (!isIntegralDtype(dtype))
        fallback = dtype;
    }
  }
  result.dtype = dtypeArgOr(context, namedOperand(op, "dtype"), fallback);
  result.device =
      deviceArgOr(context, namedOperand(op, "device"), cpuDevice(ctx));

  if (Value size = namedOperand(op, "size")) {
    result.sizes = sizesFromList(context, size);
  } else if (name == "aten.eye") {
    std::optional<int64_t> n = context.getInt(op->getOperand(0));
    int64_t size = n && *n >= 0 ? *n : kUnknown;
    result.sizes = SmallVector<int64_t, 4>{size, size};
  } else if (name == "aten.linspace" || name == "aten.randperm") {
    std::optional<int64_t> n = context.getInt(
        namedOperand(op, name == "aten.linspace" ? "steps" : "n"));
    result.sizes = SmallVector<int64_t, 4>{n && *n >= 0 ? *n : kUnknown};
  } else if (name.starts_with("aten.arange")) {
    Value startArg = namedOperand(op, "start"),
          stepArg = namedOperand(op, "step");
    std::optional<double> start = startArg ? context.getFloat(startArg) : 0.0;
    std::optional<double> end = context.getFloat(namedOperand(op, "end"));
    std::optional<double> step = stepArg ? context.getFloat(stepArg) : 1.0;
    int64_t size = kUnknown;
    if (start && end && step && *step != 0) {
      double count = std::ceil((*end - *start) / *step);
      if (count >= 0)
        size = static_cast<int64_t>(count);
    }
    result.sizes = SmallVector<int64_t, 4>{size};
  }
  setResult(context, results, 0, result);
}

/// zeros_like & co: the input's sizes, its dtype and device unless given.
static void likeRule(Operation *op, RuleContext &context,
                     MutableArrayRef<Type> results) {
  if (!isStridedLayout(context, op))
    return;
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts result = self;
  result.dtype = dtypeArgOr(context, namedOperand(op, "dtype"), self.dtype);
  result.device = deviceArgOr(context, namedOperand(op, "device"), self.device);
  setResult(context, results, 0, result);
}

/// new_zeros & co: the given sizes, the input's dtype and device unless
/// given.
static void newFactoryRule(Operation *op, RuleContext &context,
                           MutableArrayRef<Type> results) {
  if (!isStridedLayout(context, op))
    return;
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts result;
  result.sizes = sizesFromList(context, namedOperand(op, "size"));
  result.dtype = dtypeArgOr(context, namedOperand(op, "dtype"), self.dtype);
  result.device = deviceArgOr(context, namedOperand(op, "device"), self.device);
  setResult(context, results, 0, result);
}

/// The dtype of a scalar as `torch.tensor(x)` stores it: int Long, float
/// the default dtype, bool Bool.
static Type tensorDtypeOfScalarType(MLIRContext *context, Type type) {
  if (type.isInteger(64))
    return longDtype(context);
  if (type.isF64())
    return defaultFloatDtype(context);
  if (type.isInteger(1))
    return boolDtype(context);
  if (isa<ComplexType>(type))
    return defaultComplexDtype(context);
  return {};
}

/// The sizes of nested list literals of scalars (`[[1, 2], [3, 4]]`), and
/// the scalar type at the bottom; nothing if a list may be written or the
/// nesting is ragged.
static bool nestedListShape(const RuleContext &context, Value list,
                            SmallVectorImpl<int64_t> &sizes, Type &scalar) {
  auto listType = dyn_cast<prim::ListType>(list.getType());
  if (!listType) {
    scalar = list.getType();
    return true;
  }
  auto construct = list.getDefiningOp<prim::ListConstructOp>();
  if (!construct || context.getAliases().hasWriters(list))
    return false;
  sizes.push_back(construct.getElements().size());
  if (!isa<prim::ListType>(listType.getElementType())) {
    // Lists of tensors stack them: their sizes would be part of the shape.
    scalar = listType.getElementType();
    return !isa<prim::TensorType>(scalar);
  }
  if (construct.getElements().empty())
    return false;
  SmallVector<int64_t> inner;
  for (auto [index, element] : llvm::enumerate(construct.getElements())) {
    SmallVector<int64_t> elementSizes;
    if (!nestedListShape(context, element, elementSizes, scalar))
      return false;
    if (index > 0 && elementSizes != inner)
      return false;
    inner = elementSizes;
  }
  sizes.append(inner.begin(), inner.end());
  return true;
}

/// torch.tensor / torch.as_tensor of scalars and list literals.
static void tensorLiteralRule(Operation *op, RuleContext &context,
                              MutableArrayRef<Type> results) {
  MLIRContext *ctx = context.getContext();
  Value data = op->getOperand(0);
  TensorFacts result;
  if (isa<prim::TensorType>(data.getType())) { // as_tensor(Tensor)
    TensorFacts input = context.tensor(data);
    result = input;
    result.dtype = dtypeArgOr(context, namedOperand(op, "dtype"), input.dtype);
    result.device =
        deviceArgOr(context, namedOperand(op, "device"), input.device);
    setResult(context, results, 0, result);
    return;
  }
  SmallVector<int64_t> sizes;
  Type scalar;
  if (nestedListShape(context, data, sizes, scalar))
    result.sizes.emplace(sizes.begin(), sizes.end());
  else
    scalar = {};
  Type fallback = scalar ? tensorDtypeOfScalarType(ctx, scalar) : Type();
  result.dtype = dtypeArgOr(context, namedOperand(op, "dtype"), fallback);
  result.device =
      deviceArgOr(context, namedOperand(op, "device"), cpuDevice(ctx));
  setResult(context, results, 0, result);
}

/// scalar_tensor: 0-d, the default dtype unless given (even for ints).
static void scalarTensorRule(Operation *op, RuleContext &context,
                             MutableArrayRef<Type> results) {
  MLIRContext *ctx = context.getContext();
  TensorFacts result;
  result.sizes.emplace();
  result.dtype =
      dtypeArgOr(context, namedOperand(op, "dtype"), defaultFloatDtype(ctx));
  result.device =
      deviceArgOr(context, namedOperand(op, "device"), cpuDevice(ctx));
  setResult(context, results, 0, result);
}

/// prim::NumToTensor: a 0-d CPU tensor of the scalar's own precision (int
/// Long, float Double, bool Bool).
static void numToTensorRule(Operation *op, RuleContext &context,
                            MutableArrayRef<Type> results) {
  MLIRContext *ctx = context.getContext();
  Type type = op->getOperand(0).getType();
  TensorFacts result;
  if (type.isInteger(64))
    result.dtype = longDtype(ctx);
  else if (type.isF64())
    result.dtype = Float64Type::get(ctx);
  else if (type.isInteger(1))
    result.dtype = boolDtype(ctx);
  else if (isa<ComplexType>(type))
    result.dtype = ComplexType::get(Float64Type::get(ctx));
  result.sizes.emplace();
  result.device = cpuDevice(ctx);
  setResult(context, results, 0, result);
}

/// A tensor constant: the sizes and dtype of its elements attribute.
static void constantRule(Operation *op, RuleContext &context,
                         MutableArrayRef<Type> results) {
  auto constant = cast<prim::ConstantOp>(op);
  auto elements = dyn_cast<ElementsAttr>(constant.getValue());
  if (!isa<prim::TensorType>(constant.getType()) || !elements)
    return;
  ShapedType shaped = elements.getShapedType();
  TensorFacts result;
  if (!prim::torchNameOfDtype(shaped.getElementType()).empty())
    result.dtype = shaped.getElementType();
  if (shaped.hasStaticShape())
    result.sizes.emplace(shaped.getShape().begin(), shaped.getShape().end());
  setResult(context, results, 0, result);
}

/// Every `to` overload, `type_as` and `cpu`: the input's sizes with the
/// requested dtype and device.
static void conversionRule(Operation *op, RuleContext &context,
                           MutableArrayRef<Type> results) {
  StringRef name = op->getName().getStringRef();
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts result = self;
  if (name == "aten.to.other") {
    TensorFacts other = context.tensor(op->getOperand(1));
    result.dtype = other.dtype;
    result.device = other.device;
  } else if (name == "aten.type_as") {
    // self.to(other.options()): the device follows too.
    TensorFacts other = context.tensor(op->getOperand(1));
    result.dtype = other.dtype;
    result.device = other.device;
  } else if (name == "aten.cpu") {
    result.device = cpuDevice(context.getContext());
  } else {
    result.dtype = dtypeArgOr(context, namedOperand(op, "dtype"), self.dtype);
    result.device =
        deviceArgOr(context, namedOperand(op, "device"), self.device);
  }
  setResult(context, results, 0, result);
}

/// The size in bytes of one element of `dtype`.
static unsigned byteSize(Type dtype) {
  if (auto complex = dyn_cast<ComplexType>(dtype))
    return 2 * byteSize(complex.getElementType());
  return std::max(1u, dtype.getIntOrFloatBitWidth() / 8);
}

/// view.dtype: reinterprets the last dim's bytes.
static void viewDtypeRule(Operation *op, RuleContext &context,
                          MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts result = self;
  result.dtype = context.getDtypeArg(op->getOperand(1));
  if (!result.dtype || !self.dtype) {
    result.sizes.reset();
  } else if (byteSize(self.dtype) != byteSize(result.dtype) && self.sizes) {
    unsigned from = byteSize(self.dtype), to = byteSize(result.dtype);
    if (self.rank() == 0) {
      result.sizes.reset();
    } else {
      int64_t &last = result.sizes->back();
      if (last != kUnknown)
        last = from > to ? last * (from / to) : last / (to / from);
    }
  }
  setResult(context, results, 0, result);
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void refine::addElementwiseRules(llvm::StringMap<ShapeRule> &rules) {
  auto add = [&](std::initializer_list<StringRef> names, ShapeRule rule) {
    for (StringRef name : names)
      rules[(Twine("aten.") + name).str()] = rule;
  };

  add({"add.Tensor",        "add.Scalar",
       "sub.Tensor",        "sub.Scalar",
       "rsub.Tensor",       "rsub.Scalar",
       "mul.Tensor",        "mul.Scalar",
       "floor_divide",      "floor_divide.Scalar",
       "remainder.Tensor",  "remainder.Scalar",
       "fmod.Tensor",       "fmod.Scalar",
       "pow.Tensor_Tensor", "pow.Tensor_Scalar",
       "pow.Scalar",        "maximum",
       "minimum",           "max.other",
       "min.other",         "__and__.Tensor",
       "__or__.Tensor",     "__xor__.Tensor"},
      binaryRule<DtypeRule::Promote>);
  add({"div.Tensor", "div.Scalar", "atan2"}, binaryRule<DtypeRule::IntToFloat>);
  // With a rounding mode division stays in the promoted dtype; without one
  // (None) it is true division.
  add({"div.Tensor_mode", "div.Scalar_mode"},
      [](Operation *op, RuleContext &context, MutableArrayRef<Type> results) {
        Value mode = op->getOperand(2);
        if (context.isNone(mode))
          return elementwise(op, context, results, {0, 1}, {0, 1},
                             DtypeRule::IntToFloat);
        if (isa<prim::StrType>(mode.getType()))
          elementwise(op, context, results, {0, 1}, {0, 1}, DtypeRule::Promote);
      });
  add({"eq.Tensor", "eq.Scalar", "ne.Tensor", "ne.Scalar", "lt.Tensor",
       "lt.Scalar", "le.Tensor", "le.Scalar", "gt.Tensor", "gt.Scalar",
       "ge.Tensor", "ge.Scalar", "logical_and", "logical_or", "logical_xor"},
      binaryRule<DtypeRule::Bool>);
  add({"logical_not", "isnan", "isinf", "isfinite"},
      unaryRule<DtypeRule::Bool>);
  add({"exp", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt", "sin",
       "cos", "atan", "tanh", "sigmoid", "erf", "reciprocal"},
      unaryRule<DtypeRule::IntToFloat>);
  add({"neg",
       "floor",
       "ceil",
       "round",
       "round.decimals",
       "trunc",
       "sign",
       "relu",
       "relu6",
       "gelu",
       "silu",
       "hardtanh",
       "hardsigmoid",
       "hardswish",
       "leaky_relu",
       "elu",
       "selu",
       "softplus",
       "log_sigmoid",
       "bitwise_not",
       "clone",
       "contiguous",
       "detach",
       "alias",
       "dropout",
       "feature_dropout",
       "bernoulli",
       "bernoulli.p",
       "tril",
       "triu",
       "flip",
       "roll"},
      unaryRule<DtypeRule::Promote>);
  add({"abs"}, unaryRule<DtypeRule::ComplexToReal>);
  add({"square"}, squareRule);
  add({"prelu"},
      [](Operation *op, RuleContext &context, MutableArrayRef<Type> results) {
        elementwise(op, context, results, {0}, {0}, DtypeRule::First);
      });
  // masked_fill broadcasts self with the mask and keeps self's dtype.
  add({"masked_fill.Scalar", "masked_fill.Tensor"},
      [](Operation *op, RuleContext &context, MutableArrayRef<Type> results) {
        elementwise(op, context, results, {0}, {0, 1}, DtypeRule::First);
      });
  add({"addcmul", "addcdiv", "lerp.Tensor"},
      [](Operation *op, RuleContext &context, MutableArrayRef<Type> results) {
        elementwise(op, context, results, {0, 1, 2}, {0, 1, 2},
                    DtypeRule::Promote);
      });
  add({"lerp.Scalar"},
      [](Operation *op, RuleContext &context, MutableArrayRef<Type> results) {
        elementwise(op, context, results, {0, 1}, {0, 1}, DtypeRule::Promote);
      });
  // where(condition, self, other): the condition only broadcasts.
  add({"where.self", "where.ScalarOther", "where.ScalarSelf", "where.Scalar"},
      [](Operation *op, RuleContext &context, MutableArrayRef<Type> results) {
        elementwise(op, context, results, {1, 2}, {0, 1, 2},
                    DtypeRule::Promote);
      });
  add({"clamp", "clamp.Tensor", "clamp_min", "clamp_max"},
      [](Operation *op, RuleContext &context, MutableArrayRef<Type> results) {
        elementwise(op, context, results, {0, 1, 2}, {0, 1, 2},
                    DtypeRule::Promote);
      });

  add({"zeros", "ones", "full", "empty.memory_format", "rand", "rand.generator",
       "randn", "randn.generator", "randint", "randint.low", "randperm", "eye",
       "linspace", "arange", "arange.start", "arange.start_step"},
      factoryRule);
  add({"zeros_like", "ones_like", "full_like", "empty_like", "rand_like",
       "randn_like"},
      likeRule);
  add({"new_zeros", "new_ones", "new_full"}, newFactoryRule);
  add({"tensor", "tensor.float", "tensor.int", "tensor.bool", "as_tensor",
       "as_tensor.list", "as_tensor.float", "as_tensor.int", "as_tensor.bool"},
      tensorLiteralRule);
  add({"scalar_tensor"}, scalarTensorRule);
  add({"to.dtype", "to.device", "to.dtype_layout", "to.other", "to.prim_Device",
       "to.prim_dtype", "type_as", "cpu"},
      conversionRule);
  add({"view.dtype"}, viewDtypeRule);
  rules["prim.NumToTensor"] = numToTensorRule;
  rules["prim.Constant"] = constantRule;
}
