//===- RefineTypesElementwise.cpp - Elementwise and dtype rules -----------===//
//
// tsir-refine-types' rules for the ops whose result dtype comes from torch's
// type promotion (at::result_type) and whose shape is the broadcast of
// their tensor operands: arithmetic, comparisons, unary math, where/clamp.
// Which ops follow the common rule, over how many operands and with which
// promotion kind, the aten dialect says (typed_ops.txt's unary, binary and
// ternary families); this file has the rule, and the ops with their own.
//
// Promotion follows eager PyTorch, which TorchScript's runtime runs:
// operands are ranked by category (bool < integer < floating < complex);
// tensors with dims decide within the highest category, then 0-d tensors,
// then Python scalars, which only contribute their category (an int tensor
// plus a float scalar is the default dtype, Float).
//
//===----------------------------------------------------------------------===//

#include "RefineTypesRules.h"
#include "tsir/Dialect/Aten/AtenTraits.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

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
    return integerToFloatDtype(context, promoted);
  case DtypeRule::Bool:
    return boolDtype(context);
  case DtypeRule::First:
    return first;
  case DtypeRule::ComplexToReal:
    return complexToRealDtype(first);
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

/// The dtype rule of a promotion kind the aten dialect declares.
static DtypeRule dtypeRuleOf(aten::PromotionKind kind) {
  switch (kind) {
  case aten::PromotionKind::Default:
    return DtypeRule::Promote;
  case aten::PromotionKind::IntToFloat:
    return DtypeRule::IntToFloat;
  case aten::PromotionKind::AlwaysBool:
    return DtypeRule::Bool;
  case aten::PromotionKind::ComplexToReal:
    return DtypeRule::ComplexToReal;
  case aten::PromotionKind::ToDouble:
    return DtypeRule::Double;
  case aten::PromotionKind::IntegerToLong:
  case aten::PromotionKind::ToLong:
    // Reductions' kinds: typed_ops.txt puts them on no elementwise op.
    break;
  }
  return DtypeRule::Promote;
}

bool refine::applyElementwiseFamily(Operation *op, RuleContext &context,
                                    MutableArrayRef<Type> results) {
  unsigned arity = aten::elementwiseArity(op);
  if (arity == 0)
    return false;
  SmallVector<unsigned, 3> operands =
      llvm::to_vector<3>(llvm::seq<unsigned>(0, arity));
  elementwise(op, context, results, operands, operands,
              dtypeRuleOf(aten::promotionKind(op)));
  return true;
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
  // The ops the aten dialect declares elementwise (typed_ops.txt's unary,
  // binary and ternary families) need no entry: applyElementwiseFamily.
  // These are the elementwise ops whose rule is their own.
  auto add = [&](std::initializer_list<StringRef> names, ShapeRule rule) {
    for (StringRef name : names)
      rules[(Twine("aten.") + name).str()] = rule;
  };
  add({"div.Tensor_mode", "div.Scalar_mode"}, divModeRule);
  add({"square"}, squareRule);
  add({"prelu"},
      [](Operation *op, RuleContext &context, MutableArrayRef<Type> results) {
        elementwise(op, context, results, {0}, {0}, DtypeRule::First);
      });
  add({"masked_fill.Scalar", "masked_fill.Tensor"}, maskedFillRule);
  add({"where.self", "where.ScalarOther", "where.ScalarSelf", "where.Scalar"},
      whereRule);
}

std::vector<std::string> refine::broadcastingOps() {
  // The rules above that broadcast two or more tensor operands (the
  // binary and ternary families broadcast too: elementwiseArity).
  static const ShapeRule broadcasting[] = {divModeRule, maskedFillRule,
                                           whereRule};
  std::vector<std::string> names;
  for (const auto &entry : getShapeRules())
    if (llvm::is_contained(broadcasting, entry.getValue()))
      names.push_back(entry.getKey().str());
  return names;
}
