//===- OverloadResolution.cpp - Pick the aten overload of a node ----------===//
//
// Matching of MLIR types against schema types, after TorchScript's
// Node::matches and matchTypeVariables.
//
//===----------------------------------------------------------------------===//

#include "OverloadResolution.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "llvm/ADT/SmallVector.h"

using namespace mlir;
using tsir::aten::Schema;
using tsir::aten::SchemaType;
namespace prim = tsir::prim;

namespace {
/// Type variables (`t`, `t1`) bound so far while matching one schema; a
/// schema has a handful at most, so a flat vector beats a hash map.
struct Bindings {
  llvm::SmallVector<std::pair<llvm::StringRef, Type>, 4> bound;

  /// The slot for `name`, and whether it was just created (holding `type`).
  std::pair<Type *, bool> tryEmplace(llvm::StringRef name, Type type) {
    for (auto &[boundName, boundType] : bound)
      if (boundName == name)
        return {&boundType, false};
    bound.emplace_back(name, type);
    return {&bound.back().second, true};
  }
};
} // namespace

static bool matches(Type actual, const SchemaType &formal, Bindings &bindings);

/// Lists are invariant in TorchScript, but a list of refined tensors still
/// passes as `Tensor[]`.
static bool elementMatches(Type actual, const SchemaType &formal,
                           Bindings &bindings) {
  if (formal.kind == SchemaType::Kind::Tensor)
    return isa<prim::TensorType>(actual);
  return matches(actual, formal, bindings);
}

static bool matches(Type actual, const SchemaType &formal, Bindings &bindings) {
  using Kind = SchemaType::Kind;
  switch (formal.kind) {
  case Kind::Tensor:
    return isa<prim::TensorType>(actual);
  case Kind::Int:
  case Kind::Layout:
  case Kind::ScalarType:
  case Kind::MemoryFormat:
    return actual.isInteger(64) && !actual.isUnsignedInteger();
  case Kind::QScheme:
    // torch's QScheme constants are ints (`torch.per_tensor_affine` is 0).
    return isa<prim::QSchemeType>(actual) ||
           (actual.isInteger(64) && !actual.isUnsignedInteger());
  case Kind::Float:
    return actual.isF64();
  case Kind::Bool:
    return actual.isInteger(1);
  case Kind::Complex:
    return isa<ComplexType>(actual);
  case Kind::Str:
    return isa<prim::StrType>(actual);
  case Kind::None:
    return isa<prim::NoneType>(actual);
  case Kind::Device:
    return isa<prim::DeviceType>(actual);
  case Kind::Number:
    return isa<prim::NumberType>(actual) || actual.isInteger(64) ||
           actual.isF64() || isa<ComplexType>(actual);
  case Kind::Generator:
    return isa<prim::GeneratorType>(actual);
  case Kind::Storage:
    return isa<prim::StorageType>(actual);
  case Kind::Stream:
    return isa<prim::StreamType>(actual);
  case Kind::Capsule:
    return isa<prim::CapsuleType>(actual);
  case Kind::Any:
    return true;
  case Kind::TypeVar: {
    auto [slot, inserted] = bindings.tryEmplace(formal.name, actual);
    if (inserted)
      return true;
    // A variable bound twice unifies when one type refines the other.
    if (prim::isSubtypeOf(actual, *slot))
      return true;
    if (prim::isSubtypeOf(*slot, actual)) {
      *slot = actual;
      return true;
    }
    return false;
  }
  case Kind::List: {
    if (auto list = dyn_cast<prim::ListType>(actual))
      return elementMatches(list.getElementType(), formal.elements[0],
                            bindings);
    return false;
  }
  case Kind::Tuple: {
    auto tuple = dyn_cast<prim::TupleType>(actual);
    if (!tuple || tuple.getTypes().size() != formal.elements.size())
      return false;
    for (auto [type, element] : llvm::zip(tuple.getTypes(), formal.elements))
      if (!matches(type, element, bindings))
        return false;
    return true;
  }
  case Kind::Optional: {
    if (isa<prim::NoneType>(actual))
      return true;
    if (auto optional = dyn_cast<prim::OptionalType>(actual))
      return matches(optional.getElementType(), formal.elements[0], bindings);
    return matches(actual, formal.elements[0], bindings);
  }
  case Kind::Dict: {
    auto dict = dyn_cast<prim::DictType>(actual);
    return dict && matches(dict.getKeyType(), formal.elements[0], bindings) &&
           matches(dict.getValueType(), formal.elements[1], bindings);
  }
  case Kind::Union: {
    for (const SchemaType &member : formal.elements) {
      Bindings trial = bindings;
      if (matches(actual, member, trial)) {
        bindings = std::move(trial);
        return true;
      }
    }
    return false;
  }
  case Kind::Future: {
    auto future = dyn_cast<prim::FutureType>(actual);
    return future &&
           matches(future.getElementType(), formal.elements[0], bindings);
  }
  case Kind::Class:
    if (auto cls = dyn_cast<prim::ClassType>(actual))
      return cls.getName() == formal.name;
    return false;
  case Kind::AnyClass:
    return isa<prim::ClassType>(actual);
  case Kind::AnyEnum:
    return isa<prim::EnumType, prim::AnyEnumType>(actual);
  default:
    return false;
  }
}

bool tsir::schemaAccepts(const Schema &schema, TypeRange operandTypes) {
  size_t fixed = schema.arguments.size();
  if (schema.isVararg ? operandTypes.size() < fixed
                      : operandTypes.size() != fixed)
    return false;
  Bindings bindings;
  for (size_t i = 0; i < fixed; ++i)
    if (!matches(operandTypes[i], schema.arguments[i].type, bindings))
      return false;
  return true;
}

const Schema *tsir::resolveOverload(llvm::ArrayRef<const Schema *> candidates,
                                    TypeRange operandTypes) {
  for (const Schema *schema : candidates)
    if (schemaAccepts(*schema, operandTypes))
      return schema;
  return nullptr;
}
