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

/// The schema kind of a kind of graph-text type, for the kinds both name:
/// those are built by the one map of SchemaTypes.h (buildPrimType).
static std::optional<aten::SchemaType::Kind>
schemaKindOf(ts::TypeExpr::Kind kind) {
  using Kind = ts::TypeExpr::Kind;
  using Schema = aten::SchemaType::Kind;
  switch (kind) {
  case Kind::Int:
    return Schema::Int;
  case Kind::Layout:
    return Schema::Layout;
  case Kind::ScalarTypeK:
    return Schema::ScalarType;
  case Kind::MemoryFormat:
    return Schema::MemoryFormat;
  case Kind::Float:
    return Schema::Float;
  case Kind::Bool:
    return Schema::Bool;
  case Kind::Complex:
    return Schema::Complex;
  case Kind::Str:
    return Schema::Str;
  case Kind::None:
    return Schema::None;
  case Kind::Device:
    return Schema::Device;
  case Kind::Number:
    return Schema::Number;
  case Kind::List:
    return Schema::List;
  case Kind::Optional:
    return Schema::Optional;
  case Kind::Future:
    return Schema::Future;
  case Kind::Tuple:
    return Schema::Tuple;
  case Kind::Union:
    return Schema::Union;
  case Kind::Dict:
    return Schema::Dict;
  case Kind::Generator:
    return Schema::Generator;
  case Kind::Any:
    return Schema::Any;
  case Kind::Storage:
    return Schema::Storage;
  case Kind::Stream:
    return Schema::Stream;
  case Kind::Capsule:
    return Schema::Capsule;
  case Kind::AnyEnum:
    return Schema::AnyEnum;
  case Kind::QScheme:
    return Schema::QScheme;
  default:
    return std::nullopt;
  }
}

Type MLIRGen::convertType(const ts::TypeExpr &type) {
  using Kind = ts::TypeExpr::Kind;
  auto convertElements = [&](SmallVectorImpl<Type> &out) -> bool {
    for (const auto &e : type.elements) {
      Type converted = convertType(*e);
      if (!converted)
        return false;
      out.push_back(converted);
    }
    return true;
  };
  if (std::optional<aten::SchemaType::Kind> kind = schemaKindOf(type.kind)) {
    int wanted = numContainedTypes(*kind);
    if (wanted > 0 && type.elements.size() < static_cast<size_t>(wanted)) {
      error(type.pos) << "type is missing its element type";
      return {};
    }
    SmallVector<Type> elements;
    if (!convertElements(elements))
      return {};
    if (Type built = buildPrimType(context, *kind, elements))
      return built;
    error(type.pos) << "unsupported type";
    return {};
  }
  // The types only graph text has: refined tensors, NamedTuples, classes,
  // enums and the 2018 forms.
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
  case Kind::AnyTuple:
    return prim::AnyTupleType::get(context);
  case Kind::AnyList:
    return prim::AnyListType::get(context);
  case Kind::Class:
    return prim::ClassType::get(context, type.name);
  case Kind::Function:
    return prim::FunctionType::get(context);
  case Kind::World:
    return prim::WorldType::get(context);
  case Kind::Handle:
    return prim::HandleType::get(context);
  case Kind::NamedTuple: {
    SmallVector<Type> types;
    if (!convertElements(types))
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
  default:
    break;
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
