//===- SchemaTypes.cpp - TorchScript's types as tsir's
//---------------------===//
//
// The one map from TorchScript's types to prim and builtin types
// (`int` is i64, `Tensor[]` is !prim.list<!prim.tensor>, ...), used for
// the types of operator schemas here and, through buildPrimType, for the
// types a graph's text declares (MLIRGenTypes.cpp), so that both give the
// same type for the same TorchScript type.
//
//===----------------------------------------------------------------------===//

#include "SchemaTypes.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace tsir;
using Kind = aten::SchemaType::Kind;

int tsir::numContainedTypes(Kind kind) {
  switch (kind) {
  case Kind::List:
  case Kind::Optional:
  case Kind::Future:
    return 1;
  case Kind::Dict:
    return 2;
  case Kind::Tuple:
  case Kind::Union:
    return -1;
  default:
    return 0;
  }
}

Type tsir::buildPrimType(MLIRContext *context, Kind kind,
                         ArrayRef<Type> elements) {
  int wanted = numContainedTypes(kind);
  if (wanted >= 0 && elements.size() < static_cast<size_t>(wanted))
    return {};
  switch (kind) {
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
    return prim::ListType::get(context, elements[0]);
  case Kind::Optional:
    return prim::OptionalType::get(context, elements[0]);
  case Kind::Future:
    return prim::FutureType::get(context, elements[0]);
  case Kind::Dict:
    return prim::DictType::get(context, elements[0], elements[1]);
  case Kind::Tuple:
    return prim::TupleType::get(context, elements);
  case Kind::Union:
    return prim::UnionType::get(context, elements);
  default:
    // Type variables, RRef, Await, classes: torch gives such an
    // output the schema's type as is; tsir leaves it a Tensor, as torch
    // does for ops without a schema.
    return {};
  }
}

Type tsir::convertSchemaType(MLIRContext *context,
                             const aten::SchemaType &type) {
  SmallVector<Type> elements;
  for (const aten::SchemaType &element : type.elements) {
    Type converted = convertSchemaType(context, element);
    if (!converted)
      return {};
    elements.push_back(converted);
  }
  return buildPrimType(context, type.kind, elements);
}
