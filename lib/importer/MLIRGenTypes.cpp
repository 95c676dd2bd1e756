//===- MLIRGenTypes.cpp - TorchScript types as prim types -----------------===//
//
// The types a graph's text declares (`Float(2, 3)`, `int[]`, `Tensor?`,
// NamedTuples, classes, enums) as the prim dialect's types, for
// MLIRGen (MLIRGen.h).
//
//===----------------------------------------------------------------------===//

#include "MLIRGen.h"

#include "OverloadResolution.h"
#include "SchemaTypes.h"
#include "SubgraphSections.h"
#include "Weights.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Importer/Parser.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/ScopedHashTable.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <complex>

using namespace mlir;
using namespace tsir;
using namespace tsir::detail;
namespace prim = tsir::prim;

Type MLIRGen::convertType(const ts::TypeExpr &type) {
  using Kind = ts::TypeExpr::Kind;
  auto element = [&](unsigned i) -> Type {
    if (i >= type.elements.size()) {
      error(type.pos) << "type is missing its element type";
      return {};
    }
    return convertType(*type.elements[i]);
  };
  auto elements = [&](SmallVectorImpl<Type> &out) -> bool {
    for (const auto &e : type.elements) {
      Type converted = convertType(*e);
      if (!converted)
        return false;
      out.push_back(converted);
    }
    return true;
  };
  switch (type.kind) {
  case Kind::Tensor: {
    Type dtype;
    if (!type.dtype.empty()) {
      dtype = prim::dtypeFromTorchName(context, type.dtype);
      if (!dtype) {
        error(type.pos) << "tensor dtype '" << type.dtype
                        << "' is not supported by tsir";
        return {};
      }
    }
    SmallVector<int64_t> legacy;
    for (auto [dim, marked] : llvm::enumerate(type.legacyNonContiguous))
      if (marked)
        legacy.push_back(dim);
    StringAttr device = type.device.empty()
                            ? StringAttr()
                            : StringAttr::get(context, type.device);
    BoolAttr grad = type.requiresGrad
                        ? BoolAttr::get(context, *type.requiresGrad)
                        : BoolAttr();
    // Checked, so that a type the dialect rejects (strides that do not
    // match the sizes) is an error at its place in the text, not a module
    // that fails its own verifier later.
    auto emitError = [&] { return error(type.pos); };
    return prim::TensorType::getChecked(
        emitError, context, dtype, type.hasSizes, ArrayRef<int64_t>(type.sizes),
        type.hasStrides, ArrayRef<int64_t>(type.strides), device, grad,
        ArrayRef<int64_t>(legacy));
  }
  case Kind::Int:
  case Kind::Layout:
  case Kind::ScalarTypeK:
  case Kind::MemoryFormat:
    return builder.getI64Type();
  case Kind::Float:
    return builder.getF64Type();
  case Kind::Bool:
    return builder.getI1Type();
  case Kind::Complex:
    return ComplexType::get(builder.getF64Type());
  case Kind::Str:
    return prim::StrType::get(context);
  case Kind::None:
    return prim::NoneType::get(context);
  case Kind::Device:
    return prim::DeviceType::get(context);
  case Kind::Number:
    return prim::NumberType::get(context);
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
  case Kind::Tuple: {
    SmallVector<Type> types;
    if (!elements(types))
      return {};
    return prim::TupleType::get(context, types);
  }
  case Kind::Union: {
    SmallVector<Type> types;
    if (!elements(types))
      return {};
    return prim::UnionType::get(context, types);
  }
  case Kind::Dict: {
    Type key = element(0), value = key ? element(1) : Type();
    if (!value)
      return {};
    return prim::DictType::get(context, key, value);
  }
  case Kind::AnyTuple:
    return prim::AnyTupleType::get(context);
  case Kind::AnyList:
    return prim::AnyListType::get(context);
  case Kind::Class:
    return prim::ClassType::get(context, type.name);
  case Kind::Function:
    return prim::FunctionType::get(context);
  case Kind::Generator:
    return prim::GeneratorType::get(context);
  case Kind::Any:
    return prim::AnyType::get(context);
  case Kind::World:
    return prim::WorldType::get(context);
  case Kind::Handle:
    return prim::HandleType::get(context);
  case Kind::Storage:
    return prim::StorageType::get(context);
  case Kind::Stream:
    return prim::StreamType::get(context);
  case Kind::Capsule:
    return prim::CapsuleType::get(context);
  case Kind::NamedTuple: {
    SmallVector<Type> types;
    if (!elements(types))
      return {};
    SmallVector<Attribute> names, defaults;
    bool anyDefault = false;
    for (const ts::TypeExpr::Field &field : type.fields) {
      names.push_back(builder.getStringAttr(field.name));
      anyDefault |= field.hasDefault;
      defaults.push_back(
          field.hasDefault ? Attribute(builder.getStringAttr(field.defaultText))
                           : Attribute(builder.getUnitAttr()));
    }
    return prim::TupleType::get(context, types, builder.getArrayAttr(names),
                                anyDefault ? builder.getArrayAttr(defaults)
                                           : ArrayAttr());
  }
  case Kind::Enum:
    return prim::EnumType::get(context, type.name);
  case Kind::AnyEnum:
    return prim::AnyEnumType::get(context);
  case Kind::QScheme:
    return prim::QSchemeType::get(context);
  }
  error(type.pos) << "unsupported type";
  return {};
}

LogicalResult MLIRGen::convertTypes(const std::vector<ts::ValueDef> &defs,
                                    SmallVectorImpl<Type> &types) {
  for (const ts::ValueDef &def : defs) {
    Type type = convertType(*def.type);
    if (!type)
      return failure();
    types.push_back(type);
  }
  return success();
}

