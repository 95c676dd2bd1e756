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
def Prim_QSchemeType : Prim_SimpleType<"QScheme", "qscheme", "QScheme">;

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
  let summary = "TorchScript's `Tuple[T1, ...]` type, named or not";
  let description = [{
    A tuple of element types. A NamedTuple (torch prints
    `NamedTuple(a : Tensor, b : int = 3)`) is the same tuple with a name
    for each field and, where the Python class gives one, the field's
    default value as torch printed it (an IValue's text: torch prints a
    `str` default without quotes, so only the text is kept, not a typed
    value). Passes that work on tuples work on named ones unchanged; the
    names are kept wherever a pass rebuilds a tuple type (`withTypes`).

    `fieldNames` is null for a plain tuple and holds one StringAttr per
    element for a named one (a NamedTuple may have no fields:
    `!prim.tuple<named>`); `defaults` is null when no field has a default,
    else one entry per element: the printed text, or a UnitAttr.

    Examples: `!prim.tuple`, `!prim.tuple<!prim.tensor, i64>`,
    `!prim.tuple<named a: !prim.tensor, b: i64 = "3">`.
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"::mlir::Type">:$types,
    OptionalParameter<"::mlir::ArrayAttr">:$fieldNames,
    OptionalParameter<"::mlir::ArrayAttr">:$defaults
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    TypeBuilder<(ins "::llvm::ArrayRef<::mlir::Type>":$types), [{
      return $_get($_ctxt, types, ::mlir::ArrayAttr(), ::mlir::ArrayAttr());
    }]>,
    TypeBuilder<(ins "::llvm::ArrayRef<::mlir::Type>":$types,
                     "::mlir::ArrayAttr":$fieldNames,
                     "::mlir::ArrayAttr":$defaults), [{
      return $_get($_ctxt, types, fieldNames, defaults);
    }]>
  ];
  let extraClassDeclaration = [{
    /// A NamedTuple: its fields have names.
    bool isNamed() const { return static_cast<bool>(getFieldNames()); }
    /// The name of field `index` of a named tuple.
    ::llvm::StringRef getFieldName(unsigned index) const;
    /// The printed default of field `index`, if it has one.
    std::optional<::llvm::StringRef> getDefault(unsigned index) const;
    /// This tuple with other element types, keeping the field names and
    /// defaults of a named one: what a pass uses to refine a tuple.
    TupleType withTypes(::llvm::ArrayRef<::mlir::Type> types) const;
  }];
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

def Prim_EnumType : Prim_Type<"Enum", "enum"> {
  let summary = "a TorchScript enum class such as `Enum<__torch__.Color>`";
  let description = [{
    A Python `enum.Enum` class used in TorchScript, named by its qualified
    name: `!prim.enum<"__torch__.Color">`. Its members are
    `#prim.enum_member` constants; torch prints a member by name only
    (`__torch__.Color.RED`), so member values are not known here.
  }];
  let parameters = (ins StringRefParameter<"qualified name">:$name);
  let assemblyFormat = "`<` $name `>`";
}

def Prim_AnyEnumType : Prim_SimpleType<"AnyEnum", "any_enum", "AnyEnumType">;

def Prim_QuantizedType : Prim_Type<"Quantized", "quantized"> {
  let summary = "a quantized tensor dtype (QInt8, QUInt8, QInt32, ...)";
  let description = [{
    torch's quantized dtypes name the integer that stores each element;
    the scale and zero point that map it to a real number belong to each
    tensor (its quantizer), not to its type, so the dtype is the storage
    integer alone: QInt8 `!prim.quantized<si8>`, QUInt8
    `!prim.quantized<ui8>`, QInt32 `!prim.quantized<si32>`, QUInt4x2
    `!prim.quantized<ui4>` (two per byte), QUInt2x4 `!prim.quantized<ui2>`
    (four per byte). It is used only as the dtype of `!prim.tensor`.
  }];
  let parameters = (ins "::mlir::IntegerType":$storageType);
  let assemblyFormat = "`<` $storageType `>`";
  let genVerifyDecl = 1;
}

def Prim_ClassType : Prim_Type<"Class", "class"> {
  let summary = "a TorchScript class type such as `__torch__.m.ResNet`";
  let parameters = (ins StringRefParameter<"qualified name">:$name);
  let assemblyFormat = "`<` $name `>`";
}

#endif // TSIR_PRIM_TYPES_TD
