//===- PrimTypes.td - TorchScript's types ------------------*- tablegen -*-===//
//
// TorchScript's whole type system, as `prim` types. Scalars are builtin
// (i64, f64, i1, complex<f64>) and do not appear here.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PRIM_TYPES_TD
#define TSIR_PRIM_TYPES_TD

include "PrimBase.td"

def Prim_TensorType : Prim_Type<"Tensor", "tensor"> {
  let summary = "a TorchScript tensor, with TorchScript's optional refinements";
  let description = [{
    TorchScript's TensorType is a lattice from plain `Tensor` to
    `Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)`. Every
    refinement is optional:

    - `dtype`: the element type as a builtin type (`f32` for Float, `si64`
      for Long, `i1` for Bool, `ui8` for Byte, ...); absent if unknown;
    - `sizes`: absent if the rank is unknown, else one entry per dim with `?`
      for an unknown size;
    - `strides`: as sizes;
    - `device`: `"cpu"`, `"cuda:0"`; absent if unknown;
    - `requires_grad`: absent if unknown;
    - `legacy_noncontiguous`: the dims the 2019 format marked with `!`
      (`Float(3!, 20)`), kept so that such dumps print back unchanged.

    Examples: `!prim.tensor`, `!prim.tensor<dtype = f32, sizes = [2, ?]>`,
    `!prim.tensor<dtype = f32, sizes = [10], strides = [1], device = "cpu",
    requires_grad = false>`.
  }];
  let parameters = (ins
    "::mlir::Type":$dtype,
    "bool":$hasSizes,
    ArrayRefParameter<"int64_t">:$sizes,
    "bool":$hasStrides,
    ArrayRefParameter<"int64_t">:$strides,
    "::mlir::StringAttr":$device,
    "::mlir::BoolAttr":$requiresGrad,
    ArrayRefParameter<"int64_t">:$legacyNonContiguous
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilder<(ins), [{
      return $_get($_ctxt, ::mlir::Type(), false, ::llvm::ArrayRef<int64_t>(),
                   false, ::llvm::ArrayRef<int64_t>(), ::mlir::StringAttr(),
                   ::mlir::BoolAttr(), ::llvm::ArrayRef<int64_t>());
    }]>
  ];
  let extraClassDeclaration = [{
    /// Plain `Tensor`: nothing known.
    bool isUnrefined() const {
      return !getDtype() && !getHasSizes() && !getHasStrides() &&
             !getDevice() && !getRequiresGrad();
    }
    /// The size of a dim that is not known.
    static constexpr int64_t kUnknownSize = -1;
  }];
}

class Prim_SimpleType<string name, string mnemonic, string torchName>
    : Prim_Type<name, mnemonic> {
  let summary = "TorchScript's `" # torchName # "` type";
}

def Prim_StrType : Prim_SimpleType<"Str", "str", "str">;
def Prim_NoneType : Prim_SimpleType<"None", "none", "NoneType">;
def Prim_DeviceType : Prim_SimpleType<"Device", "device", "Device">;
def Prim_NumberType : Prim_SimpleType<"Number", "number", "Scalar">;
def Prim_FunctionType : Prim_SimpleType<"Function", "function", "Function">;
def Prim_GeneratorType : Prim_SimpleType<"Generator", "generator", "Generator">;
def Prim_AnyType : Prim_SimpleType<"Any", "any", "Any">;
def Prim_StorageType : Prim_SimpleType<"Storage", "storage", "Storage">;
def Prim_StreamType : Prim_SimpleType<"Stream", "stream", "Stream">;
def Prim_CapsuleType : Prim_SimpleType<"Capsule", "capsule", "Capsule">;
def Prim_AnyTupleType : Prim_SimpleType<"AnyTuple", "any_tuple", "tuple">;
def Prim_AnyListType : Prim_SimpleType<"AnyList", "any_list", "list">;
def Prim_WorldType : Prim_SimpleType<"World", "world", "World (2018)">;
def Prim_HandleType : Prim_SimpleType<"Handle", "handle", "Handle (2018)">;

class Prim_ContainerType<string name, string mnemonic, string torchName>
    : Prim_Type<name, mnemonic> {
  let summary = "TorchScript's `" # torchName # "` type";
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

def Prim_ListType : Prim_ContainerType<"List", "list", "List[T]">;
def Prim_OptionalType : Prim_ContainerType<"Optional", "optional", "Optional[T]">;
def Prim_FutureType : Prim_ContainerType<"Future", "future", "Future[T]">;

def Prim_TupleType : Prim_Type<"Tuple", "tuple"> {
  let summary = "TorchScript's `Tuple[T1, ...]` type";
  let parameters = (ins OptionalArrayRefParameter<"::mlir::Type">:$types);
  let assemblyFormat = "(`<` $types^ `>`)?";
}

def Prim_UnionType : Prim_Type<"Union", "union"> {
  let summary = "TorchScript's `Union[T1, ...]` type";
  let parameters = (ins ArrayRefParameter<"::mlir::Type">:$types);
  let assemblyFormat = "`<` $types `>`";
}

def Prim_DictType : Prim_Type<"Dict", "dict"> {
  let summary = "TorchScript's `Dict[K, V]` type";
  let parameters = (ins "::mlir::Type":$keyType, "::mlir::Type":$valueType);
  let assemblyFormat = "`<` $keyType `,` $valueType `>`";
}

def Prim_ClassType : Prim_Type<"Class", "class"> {
  let summary = "a TorchScript class type such as `__torch__.m.ResNet`";
  let parameters = (ins StringRefParameter<"qualified name">:$name);
  let assemblyFormat = "`<` $name `>`";
}

#endif // TSIR_PRIM_TYPES_TD
