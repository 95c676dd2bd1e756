//===- FunctionalVariants.cpp - In-place aten ops and their functional forms -===//
//
// See tsir/Transforms/FunctionalVariants.h. The overload is chosen by
// argument types, not by name alone: `pow_.Scalar` (Tensor self, Scalar
// exponent) is `pow.Tensor_Scalar`, while `pow.Scalar` takes a Scalar base.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/FunctionalVariants.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Aten/SchemaRegistry.h"
#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/AliasAnalysis.h"

using namespace mlir;
using namespace tsir;

/// Schema types equal up to alias annotations (`Tensor(a!)` is `Tensor`).
static bool sameSchemaType(const aten::SchemaType &a,
                           const aten::SchemaType &b) {
  if (a.kind != b.kind || a.name != b.name ||
      a.fixedListSize != b.fixedListSize ||
      a.elements.size() != b.elements.size())
    return false;
  for (auto [x, y] : llvm::zip(a.elements, b.elements))
    if (!sameSchemaType(x, y))
      return false;
  return true;
}

/// The op's schema, if its operands and results follow it one to one.
static const aten::Schema *getMatchingSchema(Operation *op) {
  const aten::Schema *schema = getSchema(op);
  if (!schema || schema->isVararg || schema->isVarret ||
      schema->arguments.size() != op->getNumOperands() ||
      schema->returns.size() != op->getNumResults())
    return nullptr;
  return schema;
}

std::optional<OperationName> tsir::lookupFunctionalVariant(Operation *op) {
  const aten::Schema *schema = getMatchingSchema(op);
  if (!schema || schema->returns.size() != 1 || schema->arguments.empty())
    return std::nullopt;
  StringRef name = schema->qualifiedName;
  if (!name.ends_with("_") || !schema->arguments[0].isWrite ||
      llvm::any_of(ArrayRef(schema->arguments).drop_front(),
                   [](const aten::SchemaArg &arg) { return arg.isWrite; }))
    return std::nullopt;
  // Prefer the same overload (`add_.Tensor` -> `add.Tensor`), then any
  // typed overload taking the same arguments, in TorchScript's order.
  ArrayRef<const aten::Schema *> overloads =
      aten::SchemaRegistry::get().lookup(name.drop_back());
  auto matches = [&](const aten::Schema *candidate) {
    if (candidate->typedOpName.empty() || candidate->isVararg ||
        candidate->returns.size() != 1 ||
        candidate->arguments.size() != schema->arguments.size())
      return false;
    for (auto [a, b] : llvm::zip(candidate->arguments, schema->arguments))
      if (!sameSchemaType(a.type, b.type))
        return false;
    return true;
  };
  const aten::Schema *chosen = nullptr;
  for (const aten::Schema *candidate : overloads)
    if (candidate->overload == schema->overload && matches(candidate))
      chosen = candidate;
  for (const aten::Schema *candidate : overloads)
    if (!chosen && matches(candidate))
      chosen = candidate;
  if (!chosen)
    return std::nullopt;
  std::optional<RegisteredOperationName> registered =
      RegisteredOperationName::lookup(chosen->typedOpName, op->getContext());
  if (!registered)
    return std::nullopt;
  return *registered;
}

bool tsir::hasFunctionalVariant(Operation *op) {
  return isa<aten::Zero_Op, aten::Fill_ScalarOp>(op) ||
         lookupFunctionalVariant(op).has_value();
}

Operation *
tsir::createFunctionalVariant(OpBuilder &builder, Operation *op,
                              function_ref<void(Operation *)> onCreate) {
  Location loc = op->getLoc();
  Type resultType = op->getResult(0).getType();
  Value self = op->getOperand(0);
  builder.setInsertionPoint(op);
  auto track = [&](Operation *newOp) {
    if (onCreate)
      onCreate(newOp);
    return newOp;
  };
  auto none = [&] {
    return track(prim::ConstantOp::create(builder, withoutResultNames(loc),
                                          prim::NoneType::get(op->getContext()),
                                          builder.getUnitAttr()))
        ->getResult(0);
  };
  // TorchScript's special cases (createSpecialMappedOp).
  if (isa<aten::Zero_Op>(op)) {
    Value n1 = none(), n2 = none(), n3 = none(), n4 = none(), n5 = none();
    return track(aten::ZerosLikeOp::create(builder, loc, resultType, self, n1,
                                           n2, n3, n4, n5));
  }
  if (auto fill = dyn_cast<aten::Fill_ScalarOp>(op)) {
    Value dtype = track(prim::DtypeOp::create(builder, withoutResultNames(loc),
                                              builder.getI64Type(), self))
                      ->getResult(0);
    Value n1 = none(), n2 = none(), n3 = none(), n4 = none();
    return track(aten::FullLikeOp::create(builder, loc, resultType, self,
                                          fill.getValue(), dtype, n1, n2, n3,
                                          n4));
  }
  std::optional<OperationName> functional = lookupFunctionalVariant(op);
  if (!functional)
    return nullptr;
  OperationState state(loc, *functional);
  state.addOperands(op->getOperands());
  state.addTypes(resultType);
  return track(builder.create(state));
}
