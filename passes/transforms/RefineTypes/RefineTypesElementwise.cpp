//===- RefineTypesElementwise.cpp - Elementwise and dtype rules -----------===//
//
// tsir-refine-types' rules for the ops whose result dtype comes from torch's
// type promotion (at::result_type) and whose shape is the broadcast of
// their tensor operands: arithmetic, comparisons, unary math, where/clamp.
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
    // at::result_type does not take quantized tensors.
    if (isa_and_nonnull<prim::QuantizedType>(p.dtype))
      return {};
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
  Promote,       // at::result_type
  IntToFloat,    // promoted, integers and bool to the default dtype
  Bool,          // comparisons, logical ops, isnan
  First,         // the first operand's (masked_fill, prelu)
  ComplexToReal, // abs: complex to its value type
  Double         // float_power: always float64 (real operands)
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
  case DtypeRule::Double:
    return Float64Type::get(context);
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

/// With a rounding mode division stays in the promoted dtype; without one
/// (None) it is true division.
static void divModeRule(Operation *op, RuleContext &context,
                        MutableArrayRef<Type> results) {
  Value mode = op->getOperand(2);
  if (context.isNone(mode))
    return elementwise(op, context, results, {0, 1}, {0, 1},
                       DtypeRule::IntToFloat);
  if (isa<prim::StrType>(mode.getType()))
    elementwise(op, context, results, {0, 1}, {0, 1}, DtypeRule::Promote);
}

/// masked_fill broadcasts self with the mask and keeps self's dtype.
static void maskedFillRule(Operation *op, RuleContext &context,
                           MutableArrayRef<Type> results) {
  elementwise(op, context, results, {0}, {0, 1}, DtypeRule::First);
}

/// addcmul, addcdiv, lerp, clamp: three operands that broadcast together.
static void ternaryRule(Operation *op, RuleContext &context,
                        MutableArrayRef<Type> results) {
  elementwise(op, context, results, {0, 1, 2}, {0, 1, 2}, DtypeRule::Promote);
}

/// where(condition, self, other): the condition only broadcasts.
static void whereRule(Operation *op, RuleContext &context,
                      MutableArrayRef<Type> results) {
  elementwise(op, context, results, {1, 2}, {0, 1, 2}, DtypeRule::Promote);
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
  add({"div.Tensor_mode", "div.Scalar_mode"}, divModeRule);
  add({"eq.Tensor", "eq.Scalar", "ne.Tensor", "ne.Scalar", "lt.Tensor",
       "lt.Scalar", "le.Tensor", "le.Scalar", "gt.Tensor", "gt.Scalar",
       "ge.Tensor", "ge.Scalar", "logical_and", "logical_or", "logical_xor",
       "isclose"},
      binaryRule<DtypeRule::Bool>);
  add({"logical_not", "isnan", "isinf", "isfinite"},
      unaryRule<DtypeRule::Bool>);
  add({"exp",     "log",   "log2",       "log10",   "log1p", "expm1",
       "sqrt",    "rsqrt", "sin",        "cos",     "atan",  "tanh",
       "sigmoid", "erf",   "reciprocal", "acos",    "asin",  "acosh",
       "asinh",   "atanh", "cosh",       "sinh",    "tan",   "erfc",
       "exp2",    "sinc",  "deg2rad",    "rad2deg", "logit"},
      unaryRule<DtypeRule::IntToFloat>);
  add({"signbit", "isposinf", "isneginf", "isreal"},
      unaryRule<DtypeRule::Bool>);
  add({"xlogy.Tensor", "xlogy.Scalar_Other", "logaddexp", "logaddexp2", "hypot",
       "copysign.Tensor", "copysign.Scalar", "ldexp.Tensor"},
      binaryRule<DtypeRule::IntToFloat>);
  add({"fmin", "fmax", "heaviside"}, binaryRule<DtypeRule::Promote>);
  add({"float_power.Tensor_Tensor", "float_power.Tensor_Scalar"},
      binaryRule<DtypeRule::Double>);
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
       "slice_scatter",
       "select_scatter",
       "contiguous",
       "detach",
       "alias",
       "dropout",
       "feature_dropout",
       "alpha_dropout",
       "feature_alpha_dropout",
       "bernoulli",
       "bernoulli.p",
       "tril",
       "triu",
       "flip",
       "roll",
       "frac",
       "positive",
       "sgn",
       "mish",
       "celu",
       "softshrink",
       "hardshrink",
       "threshold",
       "nan_to_num",
       "resolve_neg",
       "resolve_conj",
       "conj_physical",
       "flipud",
       "fliplr"},
      unaryRule<DtypeRule::Promote>);
  add({"abs"}, unaryRule<DtypeRule::ComplexToReal>);
  add({"square"}, squareRule);
  add({"prelu"},
      [](Operation *op, RuleContext &context, MutableArrayRef<Type> results) {
        elementwise(op, context, results, {0}, {0}, DtypeRule::First);
      });
  add({"masked_fill.Scalar", "masked_fill.Tensor"}, maskedFillRule);
  add({"addcmul", "addcdiv", "lerp.Tensor"}, ternaryRule);
  add({"lerp.Scalar"}, binaryRule<DtypeRule::Promote>);
  add({"where.self", "where.ScalarOther", "where.ScalarSelf", "where.Scalar"},
      whereRule);
  add({"clamp", "clamp.Tensor", "clamp_min", "clamp_max", "clamp_min.Tensor",
       "clamp_max.Tensor"},
      ternaryRule);
}

std::vector<std::string> refine::broadcastingOps() {
  // The rules above that broadcast two or more tensor operands.
  static const ShapeRule broadcasting[] = {binaryRule<DtypeRule::Promote>,
                                           binaryRule<DtypeRule::IntToFloat>,
                                           binaryRule<DtypeRule::Bool>,
                                           binaryRule<DtypeRule::Double>,
                                           divModeRule,
                                           maskedFillRule,
                                           ternaryRule,
                                           whereRule};
  std::vector<std::string> names;
  for (const auto &entry : getShapeRules())
    if (llvm::is_contained(broadcasting, entry.getValue()))
      names.push_back(entry.getKey().str());
  return names;
}
