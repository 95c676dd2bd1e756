//===- PrimTypes.cpp - TorchScript's types in C ---------------------------===//
//
// The definitions behind tsir-c/PrimTypes.h: thin wrappers over the prim
// dialect's type classes.
//
//===----------------------------------------------------------------------===//

#include "tsir-c/PrimTypes.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Wrap.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
namespace prim = tsir::prim;

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

namespace {
/// The C arguments of a tensor type, as TensorType's parameters.
struct TensorParameters {
  Type dtype;
  bool hasSizes;
  ArrayRef<int64_t> sizes;
  bool hasStrides;
  ArrayRef<int64_t> strides;
  StringAttr device;
  BoolAttr requiresGrad;

  TensorParameters(MLIRContext *context, MlirType dtype, intptr_t numSizes,
                   const int64_t *sizes, intptr_t numStrides,
                   const int64_t *strides, MlirStringRef device,
                   int requiresGrad)
      : dtype(unwrap(dtype)), hasSizes(numSizes >= 0),
        sizes(hasSizes ? ArrayRef<int64_t>(sizes, numSizes)
                       : ArrayRef<int64_t>()),
        hasStrides(numStrides >= 0),
        strides(hasStrides ? ArrayRef<int64_t>(strides, numStrides)
                           : ArrayRef<int64_t>()),
        device(device.length ? StringAttr::get(context, unwrap(device))
                             : StringAttr()),
        requiresGrad(requiresGrad < 0
                         ? BoolAttr()
                         : BoolAttr::get(context, requiresGrad != 0)) {}
};
} // namespace

int64_t tsirPrimTensorTypeGetUnknownSize() {
  return prim::TensorType::kUnknownSize;
}

bool tsirTypeIsAPrimTensor(MlirType type) {
  return isa<prim::TensorType>(unwrap(type));
}

MlirType tsirPrimTensorTypeGetUnrefined(MlirContext ctx) {
  return wrap(prim::TensorType::get(unwrap(ctx)));
}

MlirType tsirPrimTensorTypeGet(MlirContext ctx, MlirType dtype,
                               intptr_t numSizes, const int64_t *sizes,
                               intptr_t numStrides, const int64_t *strides,
                               MlirStringRef device, int requiresGrad) {
  MLIRContext *context = unwrap(ctx);
  TensorParameters p(context, dtype, numSizes, sizes, numStrides, strides,
                     device, requiresGrad);
  return wrap(prim::TensorType::get(context, p.dtype, p.hasSizes, p.sizes,
                                    p.hasStrides, p.strides, p.device,
                                    p.requiresGrad, ArrayRef<int64_t>()));
}

MlirType tsirPrimTensorTypeGetChecked(MlirLocation loc, MlirType dtype,
                                      intptr_t numSizes, const int64_t *sizes,
                                      intptr_t numStrides,
                                      const int64_t *strides,
                                      MlirStringRef device, int requiresGrad) {
  Location location = unwrap(loc);
  TensorParameters p(location.getContext(), dtype, numSizes, sizes, numStrides,
                     strides, device, requiresGrad);
  return wrap(prim::TensorType::getChecked(
      [&] { return emitError(location); }, location.getContext(), p.dtype,
      p.hasSizes, p.sizes, p.hasStrides, p.strides, p.device, p.requiresGrad,
      ArrayRef<int64_t>()));
}

bool tsirPrimTensorTypeIsUnrefined(MlirType type) {
  return cast<prim::TensorType>(unwrap(type)).isUnrefined();
}

MlirType tsirPrimTensorTypeGetDtype(MlirType type) {
  return wrap(cast<prim::TensorType>(unwrap(type)).getDtype());
}

bool tsirPrimTensorTypeHasSizes(MlirType type) {
  return cast<prim::TensorType>(unwrap(type)).getHasSizes();
}

intptr_t tsirPrimTensorTypeGetRank(MlirType type) {
  auto tensor = cast<prim::TensorType>(unwrap(type));
  return tensor.getHasSizes() ? static_cast<intptr_t>(tensor.getSizes().size())
                              : -1;
}

int64_t tsirPrimTensorTypeGetSize(MlirType type, intptr_t pos) {
  return cast<prim::TensorType>(unwrap(type)).getSizes()[pos];
}

bool tsirPrimTensorTypeHasStrides(MlirType type) {
  return cast<prim::TensorType>(unwrap(type)).getHasStrides();
}

intptr_t tsirPrimTensorTypeGetNumStrides(MlirType type) {
  auto tensor = cast<prim::TensorType>(unwrap(type));
  return tensor.getHasStrides()
             ? static_cast<intptr_t>(tensor.getStrides().size())
             : -1;
}

int64_t tsirPrimTensorTypeGetStride(MlirType type, intptr_t pos) {
  return cast<prim::TensorType>(unwrap(type)).getStrides()[pos];
}

bool tsirPrimTensorTypeHasDevice(MlirType type) {
  return static_cast<bool>(cast<prim::TensorType>(unwrap(type)).getDevice());
}

MlirStringRef tsirPrimTensorTypeGetDevice(MlirType type) {
  StringAttr device = cast<prim::TensorType>(unwrap(type)).getDevice();
  return wrap(device ? device.getValue() : StringRef());
}

int tsirPrimTensorTypeGetRequiresGrad(MlirType type) {
  BoolAttr requiresGrad =
      cast<prim::TensorType>(unwrap(type)).getRequiresGrad();
  return requiresGrad ? requiresGrad.getValue() : -1;
}

MlirType tsirPrimDtypeGetFromTorchName(MlirContext ctx, MlirStringRef name) {
  return wrap(prim::dtypeFromTorchName(unwrap(ctx), unwrap(name)));
}

MlirStringRef tsirPrimDtypeGetTorchName(MlirType dtype) {
  return wrap(prim::torchNameOfDtype(unwrap(dtype)));
}

//===----------------------------------------------------------------------===//
// Types without parameters
//===----------------------------------------------------------------------===//

#define TSIR_DEFINE_SIMPLE_TYPE(Name)                                          \
  bool tsirTypeIsAPrim##Name(MlirType type) {                                  \
    return isa<prim::Name##Type>(unwrap(type));                                \
  }                                                                            \
  MlirType tsirPrim##Name##TypeGet(MlirContext ctx) {                          \
    return wrap(prim::Name##Type::get(unwrap(ctx)));                           \
  }

TSIR_DEFINE_SIMPLE_TYPE(Str)
TSIR_DEFINE_SIMPLE_TYPE(None)
TSIR_DEFINE_SIMPLE_TYPE(Device)
TSIR_DEFINE_SIMPLE_TYPE(Number)
TSIR_DEFINE_SIMPLE_TYPE(Function)
TSIR_DEFINE_SIMPLE_TYPE(Generator)
TSIR_DEFINE_SIMPLE_TYPE(Any)
TSIR_DEFINE_SIMPLE_TYPE(Storage)
TSIR_DEFINE_SIMPLE_TYPE(Stream)
TSIR_DEFINE_SIMPLE_TYPE(Capsule)
TSIR_DEFINE_SIMPLE_TYPE(AnyTuple)
TSIR_DEFINE_SIMPLE_TYPE(AnyList)
TSIR_DEFINE_SIMPLE_TYPE(World)
TSIR_DEFINE_SIMPLE_TYPE(Handle)
#undef TSIR_DEFINE_SIMPLE_TYPE

//===----------------------------------------------------------------------===//
// Containers
//===----------------------------------------------------------------------===//

#define TSIR_DEFINE_ELEMENT_TYPE(Name)                                         \
  bool tsirTypeIsAPrim##Name(MlirType type) {                                  \
    return isa<prim::Name##Type>(unwrap(type));                                \
  }                                                                            \
  MlirType tsirPrim##Name##TypeGet(MlirType elementType) {                     \
    Type element = unwrap(elementType);                                        \
    return wrap(prim::Name##Type::get(element.getContext(), element));         \
  }                                                                            \
  MlirType tsirPrim##Name##TypeGetElementType(MlirType type) {                 \
    return wrap(cast<prim::Name##Type>(unwrap(type)).getElementType());        \
  }

TSIR_DEFINE_ELEMENT_TYPE(List)
TSIR_DEFINE_ELEMENT_TYPE(Optional)
TSIR_DEFINE_ELEMENT_TYPE(Future)
#undef TSIR_DEFINE_ELEMENT_TYPE

#define TSIR_DEFINE_TYPE_LIST_TYPE(Name)                                       \
  bool tsirTypeIsAPrim##Name(MlirType type) {                                  \
    return isa<prim::Name##Type>(unwrap(type));                                \
  }                                                                            \
  MlirType tsirPrim##Name##TypeGet(MlirContext ctx, intptr_t numTypes,         \
                                   const MlirType *types) {                    \
    SmallVector<Type> storage;                                                 \
    return wrap(prim::Name##Type::get(unwrap(ctx),                             \
                                      unwrapList(numTypes, types, storage)));  \
  }                                                                            \
  intptr_t tsirPrim##Name##TypeGetNumTypes(MlirType type) {                    \
    return static_cast<intptr_t>(                                              \
        cast<prim::Name##Type>(unwrap(type)).getTypes().size());               \
  }                                                                            \
  MlirType tsirPrim##Name##TypeGetType(MlirType type, intptr_t pos) {          \
    return wrap(cast<prim::Name##Type>(unwrap(type)).getTypes()[pos]);         \
  }

TSIR_DEFINE_TYPE_LIST_TYPE(Tuple)
TSIR_DEFINE_TYPE_LIST_TYPE(Union)
#undef TSIR_DEFINE_TYPE_LIST_TYPE

bool tsirTypeIsAPrimDict(MlirType type) {
  return isa<prim::DictType>(unwrap(type));
}

MlirType tsirPrimDictTypeGet(MlirType keyType, MlirType valueType) {
  Type key = unwrap(keyType);
  return wrap(prim::DictType::get(key.getContext(), key, unwrap(valueType)));
}

MlirType tsirPrimDictTypeGetKeyType(MlirType type) {
  return wrap(cast<prim::DictType>(unwrap(type)).getKeyType());
}

MlirType tsirPrimDictTypeGetValueType(MlirType type) {
  return wrap(cast<prim::DictType>(unwrap(type)).getValueType());
}

bool tsirTypeIsAPrimClass(MlirType type) {
  return isa<prim::ClassType>(unwrap(type));
}

MlirType tsirPrimClassTypeGet(MlirContext ctx, MlirStringRef name) {
  return wrap(prim::ClassType::get(unwrap(ctx), unwrap(name)));
}

MlirStringRef tsirPrimClassTypeGetName(MlirType type) {
  return wrap(cast<prim::ClassType>(unwrap(type)).getName());
}

//===----------------------------------------------------------------------===//
// Scalars and relations
//===----------------------------------------------------------------------===//

MlirType tsirIntTypeGet(MlirContext ctx) {
  return wrap(IntegerType::get(unwrap(ctx), 64));
}

MlirType tsirFloatTypeGet(MlirContext ctx) {
  return wrap(Float64Type::get(unwrap(ctx)));
}

MlirType tsirBoolTypeGet(MlirContext ctx) {
  return wrap(IntegerType::get(unwrap(ctx), 1));
}

bool tsirTypeIsAInt(MlirType type) {
  return unwrap(type).isSignlessInteger(64);
}

bool tsirTypeIsAFloat(MlirType type) { return unwrap(type).isF64(); }

bool tsirTypeIsABool(MlirType type) {
  return unwrap(type).isSignlessInteger(1);
}

bool tsirPrimTypeIsSubtypeOf(MlirType sub, MlirType super) {
  return prim::isSubtypeOf(unwrap(sub), unwrap(super));
}
