//===- tsir-c/PrimTypes.h - TorchScript's types in C -------------*- C -*-===//
//
// Constructors, isA predicates and accessors for the prim dialect's types
// (dialects/prim/PrimTypes.td). TorchScript's `int`, `float` and `bool` are
// the builtin i64, f64 and i1; the helpers at the end name that mapping.
// Types are owned by the context, as every MlirType is. The constructors
// need the prim dialect loaded in the context (mlirDialectHandleLoadDialect
// with mlirGetDialectHandle__prim__()); tsirImportTorchScript loads it.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_C_PRIMTYPES_H
#define TSIR_C_PRIMTYPES_H

#include "mlir-c/IR.h"
#include "tsir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Tensor: TorchScript's TensorType, every refinement optional
//===----------------------------------------------------------------------===//

/// The size (or stride) of a dimension that is not known: `?` in MLIR,
/// `*` in TorchScript text.
TSIR_CAPI_EXPORTED int64_t tsirPrimTensorTypeGetUnknownSize(void);

TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimTensor(MlirType type);

/// Plain `Tensor`: nothing known.
TSIR_CAPI_EXPORTED MlirType tsirPrimTensorTypeGetUnrefined(MlirContext ctx);

/// A tensor type with the given refinements:
/// - `dtype`: a torch scalar type as a builtin type (f32 for Float, si64 for
///   Long, i1 for Bool, ui8 for Byte; see tsirPrimDtypeGetFromTorchName), or
///   a null type when unknown;
/// - `numSizes`, `sizes`: the rank and one size per dimension, with
///   tsirPrimTensorTypeGetUnknownSize() for an unknown one; `numSizes` < 0
///   when the rank is unknown (`sizes` is then ignored);
/// - `numStrides`, `strides`: the same for strides;
/// - `device`: "cpu", "cuda:0", ...; empty when unknown;
/// - `requiresGrad`: 0 or 1, or -1 when unknown.
/// The arguments must be valid (see the Checked variant).
TSIR_CAPI_EXPORTED MlirType tsirPrimTensorTypeGet(
    MlirContext ctx, MlirType dtype, intptr_t numSizes, const int64_t *sizes,
    intptr_t numStrides, const int64_t *strides, MlirStringRef device,
    int requiresGrad);

/// As tsirPrimTensorTypeGet, but returns a null type on invalid arguments
/// (a dtype that is not a torch scalar type, a negative size, sizes and
/// strides of different ranks), emitting the error at `loc`.
TSIR_CAPI_EXPORTED MlirType tsirPrimTensorTypeGetChecked(
    MlirLocation loc, MlirType dtype, intptr_t numSizes, const int64_t *sizes,
    intptr_t numStrides, const int64_t *strides, MlirStringRef device,
    int requiresGrad);

/// Whether nothing is known (plain `Tensor`).
TSIR_CAPI_EXPORTED bool tsirPrimTensorTypeIsUnrefined(MlirType type);

/// The dtype, or a null type when unknown.
TSIR_CAPI_EXPORTED MlirType tsirPrimTensorTypeGetDtype(MlirType type);

/// Whether the rank is known.
TSIR_CAPI_EXPORTED bool tsirPrimTensorTypeHasSizes(MlirType type);
/// The rank, or -1 when unknown.
TSIR_CAPI_EXPORTED intptr_t tsirPrimTensorTypeGetRank(MlirType type);
/// The size of dimension `pos` (tsirPrimTensorTypeGetUnknownSize() when
/// unknown); `pos` must be below the rank.
TSIR_CAPI_EXPORTED int64_t tsirPrimTensorTypeGetSize(MlirType type,
                                                     intptr_t pos);

TSIR_CAPI_EXPORTED bool tsirPrimTensorTypeHasStrides(MlirType type);
/// The number of strides, or -1 when they are unknown.
TSIR_CAPI_EXPORTED intptr_t tsirPrimTensorTypeGetNumStrides(MlirType type);
TSIR_CAPI_EXPORTED int64_t tsirPrimTensorTypeGetStride(MlirType type,
                                                       intptr_t pos);

TSIR_CAPI_EXPORTED bool tsirPrimTensorTypeHasDevice(MlirType type);
/// The device ("cpu", "cuda:0"), empty when unknown. The string lives as
/// long as the context.
TSIR_CAPI_EXPORTED MlirStringRef tsirPrimTensorTypeGetDevice(MlirType type);

/// 0 or 1, or -1 when unknown.
TSIR_CAPI_EXPORTED int tsirPrimTensorTypeGetRequiresGrad(MlirType type);

/// The builtin type of a torch dtype name ("Float" gives f32, "Long" si64,
/// "Bool" i1), or a null type when tsir has none of that name.
TSIR_CAPI_EXPORTED MlirType tsirPrimDtypeGetFromTorchName(MlirContext ctx,
                                                          MlirStringRef name);

/// The torch name ("Float") of a dtype, empty when the type is not one.
/// The string is static.
TSIR_CAPI_EXPORTED MlirStringRef tsirPrimDtypeGetTorchName(MlirType dtype);

//===----------------------------------------------------------------------===//
// Types without parameters
//===----------------------------------------------------------------------===//

/// `str`
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimStr(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimStrTypeGet(MlirContext ctx);
/// `NoneType`
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimNone(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimNoneTypeGet(MlirContext ctx);
/// `Device`
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimDevice(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimDeviceTypeGet(MlirContext ctx);
/// `Scalar` (int, float or complex)
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimNumber(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimNumberTypeGet(MlirContext ctx);
/// `Function`
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimFunction(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimFunctionTypeGet(MlirContext ctx);
/// `Generator`
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimGenerator(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimGeneratorTypeGet(MlirContext ctx);
/// `Any`
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimAny(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimAnyTypeGet(MlirContext ctx);
/// `Storage`
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimStorage(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimStorageTypeGet(MlirContext ctx);
/// `Stream`
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimStream(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimStreamTypeGet(MlirContext ctx);
/// `Capsule`
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimCapsule(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimCapsuleTypeGet(MlirContext ctx);
/// `tuple` of unknown elements
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimAnyTuple(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimAnyTupleTypeGet(MlirContext ctx);
/// `list` of unknown elements
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimAnyList(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimAnyListTypeGet(MlirContext ctx);
/// `World` (graphs of 2018)
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimWorld(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimWorldTypeGet(MlirContext ctx);
/// `Handle` (graphs of 2018)
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimHandle(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimHandleTypeGet(MlirContext ctx);

//===----------------------------------------------------------------------===//
// Containers
//===----------------------------------------------------------------------===//

/// `List[T]`
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimList(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimListTypeGet(MlirType elementType);
TSIR_CAPI_EXPORTED MlirType tsirPrimListTypeGetElementType(MlirType type);

/// `Optional[T]`
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimOptional(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimOptionalTypeGet(MlirType elementType);
TSIR_CAPI_EXPORTED MlirType tsirPrimOptionalTypeGetElementType(MlirType type);

/// `Future[T]`
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimFuture(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimFutureTypeGet(MlirType elementType);
TSIR_CAPI_EXPORTED MlirType tsirPrimFutureTypeGetElementType(MlirType type);

/// `Tuple[T1, ...]` (`numTypes` may be 0: `Tuple[()]`)
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimTuple(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimTupleTypeGet(MlirContext ctx,
                                                 intptr_t numTypes,
                                                 const MlirType *types);
TSIR_CAPI_EXPORTED intptr_t tsirPrimTupleTypeGetNumTypes(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimTupleTypeGetType(MlirType type,
                                                     intptr_t pos);

/// `Union[T1, ...]`
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimUnion(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimUnionTypeGet(MlirContext ctx,
                                                 intptr_t numTypes,
                                                 const MlirType *types);
TSIR_CAPI_EXPORTED intptr_t tsirPrimUnionTypeGetNumTypes(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimUnionTypeGetType(MlirType type,
                                                     intptr_t pos);

/// `Dict[K, V]`
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimDict(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimDictTypeGet(MlirType keyType,
                                                MlirType valueType);
TSIR_CAPI_EXPORTED MlirType tsirPrimDictTypeGetKeyType(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimDictTypeGetValueType(MlirType type);

/// A class type such as `__torch__.m.ResNet`.
TSIR_CAPI_EXPORTED bool tsirTypeIsAPrimClass(MlirType type);
TSIR_CAPI_EXPORTED MlirType tsirPrimClassTypeGet(MlirContext ctx,
                                                 MlirStringRef name);
/// The qualified name; it lives as long as the context.
TSIR_CAPI_EXPORTED MlirStringRef tsirPrimClassTypeGetName(MlirType type);

//===----------------------------------------------------------------------===//
// TorchScript's scalars (builtin types) and relations
//===----------------------------------------------------------------------===//

/// `int` is i64, `float` f64, `bool` i1 (all signless).
TSIR_CAPI_EXPORTED MlirType tsirIntTypeGet(MlirContext ctx);
TSIR_CAPI_EXPORTED MlirType tsirFloatTypeGet(MlirContext ctx);
TSIR_CAPI_EXPORTED MlirType tsirBoolTypeGet(MlirContext ctx);
TSIR_CAPI_EXPORTED bool tsirTypeIsAInt(MlirType type);
TSIR_CAPI_EXPORTED bool tsirTypeIsAFloat(MlirType type);
TSIR_CAPI_EXPORTED bool tsirTypeIsABool(MlirType type);

/// TorchScript's subtyping: refined tensors are Tensors, T and None are
/// Optional[T], int and float are Scalar, tuples are covariant, everything
/// is Any.
TSIR_CAPI_EXPORTED bool tsirPrimTypeIsSubtypeOf(MlirType sub, MlirType super);

#ifdef __cplusplus
}
#endif

#endif // TSIR_C_PRIMTYPES_H
