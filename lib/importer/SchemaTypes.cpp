//===- SchemaTypes.cpp - MLIR types of schema types -----------------------===//
//
// The importer's type for each schema type, as MLIRGen's convertType gives
// it for the same type written in a graph (`int` is i64, `Tensor[]` is
// !prim.list<!prim.tensor>, ...).
//
//===----------------------------------------------------------------------===//

#include "SchemaTypes.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace tsir;
using Kind = aten::SchemaType::Kind;

Type tsir::convertSchemaType(MLIRContext *context,
                             const aten::SchemaType &type) {
  auto element = [&](size_t i) -> Type {
    return i < type.elements.size()
               ? convertSchemaType(context, type.elements[i])
               : Type();
  };
  auto all = [&](SmallVectorImpl<Type> &out) {
    for (const aten::SchemaType &e : type.elements) {
      Type converted = convertSchemaType(context, e);
      if (!converted)
        return false;
      out.push_back(converted);
    }
    return true;
  };
  switch (type.kind) {
  case Kind::Tensor:
    return prim::TensorType::get(context);
  case Kind::Int:
  case Kind::Layout:
  case Kind::ScalarType:
  case Kind::MemoryFormat:
    return IntegerType::get(context, 64);
  case Kind::Float:
    return Float64Type::get(context);
  case Kind::Bool:
    return IntegerType::get(context, 1);
  case Kind::Complex:
    return ComplexType::get(Float64Type::get(context));
  case Kind::Str:
    return prim::StrType::get(context);
  case Kind::None:
    return prim::NoneType::get(context);
  case Kind::Device:
    return prim::DeviceType::get(context);
  case Kind::Number:
    return prim::NumberType::get(context);
  case Kind::Generator:
    return prim::GeneratorType::get(context);
  case Kind::Storage:
    return prim::StorageType::get(context);
  case Kind::Stream:
    return prim::StreamType::get(context);
  case Kind::Any:
    return prim::AnyType::get(context);
  case Kind::Capsule:
    return prim::CapsuleType::get(context);
  case Kind::AnyEnum:
    return prim::AnyEnumType::get(context);
  case Kind::QScheme:
    return prim::QSchemeType::get(context);
  case Kind::List:
    if (Type e = element(0))
      return prim::ListType::get(context, e);
    return {};
  case Kind::Optional:
    if (Type e = element(0))
      return prim::OptionalType::get(context, e);
    return {};
  case Kind::Future:
    if (Type e = element(0))
      return prim::FutureType::get(context, e);
    return {};
  case Kind::Dict: {
    Type key = element(0), value = element(1);
    if (!key || !value)
      return {};
    return prim::DictType::get(context, key, value);
  }
  case Kind::Tuple: {
    SmallVector<Type> types;
    if (!all(types))
      return {};
    return prim::TupleType::get(context, types);
  }
  case Kind::Union: {
    SmallVector<Type> types;
    if (!all(types))
      return {};
    return prim::UnionType::get(context, types);
  }
  default:
    // Type variables, RRef, Await, classes: torch gives such an
    // output the schema's type as is; tsir leaves it a Tensor, as torch
    // does for ops without a schema.
    return {};
  }
}
