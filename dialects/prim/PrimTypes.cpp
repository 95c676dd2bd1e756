//===- PrimTypes.cpp - TorchScript's types and their relations ------------===//
//
// The tensor type's textual form and verifier, TorchScript's subtyping, and
// the mapping between torch dtype names and builtin element types.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

using namespace tsir::prim;

#define GET_TYPEDEF_CLASSES
#include "tsir/Dialect/Prim/PrimTypes.cpp.inc"

namespace tsir::prim {

void PrimDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tsir/Dialect/Prim/PrimTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// dtype names
//===----------------------------------------------------------------------===//

namespace {
struct DtypeName {
  const char *torchName;
  Type (*make)(MLIRContext *);
};
} // namespace

// One row per torch ScalarType tsir represents. Signedness is explicit so
// that Byte (ui8) and Char (si8) stay apart.
static const DtypeName kDtypes[] = {
    {"Float", [](MLIRContext *c) -> Type { return Float32Type::get(c); }},
    {"Double", [](MLIRContext *c) -> Type { return Float64Type::get(c); }},
    {"Half", [](MLIRContext *c) -> Type { return Float16Type::get(c); }},
    {"BFloat16", [](MLIRContext *c) -> Type { return BFloat16Type::get(c); }},
    {"Long",
     [](MLIRContext *c) -> Type {
       return IntegerType::get(c, 64, IntegerType::Signed);
     }},
    {"Int",
     [](MLIRContext *c) -> Type {
       return IntegerType::get(c, 32, IntegerType::Signed);
     }},
    {"Short",
     [](MLIRContext *c) -> Type {
       return IntegerType::get(c, 16, IntegerType::Signed);
     }},
    {"Char",
     [](MLIRContext *c) -> Type {
       return IntegerType::get(c, 8, IntegerType::Signed);
     }},
    {"Byte",
     [](MLIRContext *c) -> Type {
       return IntegerType::get(c, 8, IntegerType::Unsigned);
     }},
    {"Bool", [](MLIRContext *c) -> Type { return IntegerType::get(c, 1); }},
    {"ComplexFloat",
     [](MLIRContext *c) -> Type {
       return ComplexType::get(Float32Type::get(c));
     }},
    {"ComplexDouble",
     [](MLIRContext *c) -> Type {
       return ComplexType::get(Float64Type::get(c));
     }},
    // Quantized dtypes: the storage integer (QuantizedType's description).
    {"QInt8",
     [](MLIRContext *c) -> Type {
       return QuantizedType::get(c,
                                 IntegerType::get(c, 8, IntegerType::Signed));
     }},
    {"QUInt8",
     [](MLIRContext *c) -> Type {
       return QuantizedType::get(c,
                                 IntegerType::get(c, 8, IntegerType::Unsigned));
     }},
    {"QInt32",
     [](MLIRContext *c) -> Type {
       return QuantizedType::get(c,
                                 IntegerType::get(c, 32, IntegerType::Signed));
     }},
    {"QUInt4x2",
     [](MLIRContext *c) -> Type {
       return QuantizedType::get(c,
                                 IntegerType::get(c, 4, IntegerType::Unsigned));
     }},
    {"QUInt2x4",
     [](MLIRContext *c) -> Type {
       return QuantizedType::get(c,
                                 IntegerType::get(c, 2, IntegerType::Unsigned));
     }},
};

Type dtypeFromTorchName(MLIRContext *context, StringRef name) {
  for (const DtypeName &row : kDtypes)
    if (name == row.torchName)
      return row.make(context);
  return {};
}

StringRef torchNameOfDtype(Type dtype) {
  if (!dtype)
    return "";
  for (const DtypeName &row : kDtypes)
    if (row.make(dtype.getContext()) == dtype)
      return row.torchName;
  return "";
}

//===----------------------------------------------------------------------===//
// TensorType
//===----------------------------------------------------------------------===//

LogicalResult TensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 Type dtype, bool hasSizes,
                                 ArrayRef<int64_t> sizes, bool hasStrides,
                                 ArrayRef<int64_t> strides, StringAttr device,
                                 BoolAttr requiresGrad,
                                 ArrayRef<int64_t> legacyNonContiguous) {
  if (dtype && torchNameOfDtype(dtype).empty())
    return emitError() << "tensor dtype " << dtype
                       << " is not a torch scalar type";
  if (!hasSizes && !sizes.empty())
    return emitError() << "tensor sizes given without a rank";
  for (int64_t size : sizes)
    if (size < kUnknownSize)
      return emitError() << "tensor size " << size << " is negative";
  if (!hasStrides && !strides.empty())
    return emitError() << "tensor strides given without a rank";
  if (hasSizes && hasStrides && sizes.size() != strides.size())
    return emitError() << "tensor has " << sizes.size() << " sizes but "
                       << strides.size() << " strides";
  for (int64_t dim : legacyNonContiguous)
    if (dim < 0 || dim >= static_cast<int64_t>(sizes.size()))
      return emitError() << "legacy_noncontiguous dim " << dim
                         << " is out of range";
  return success();
}

static void printDims(AsmPrinter &printer, ArrayRef<int64_t> dims) {
  printer << '[';
  llvm::interleaveComma(dims, printer, [&](int64_t dim) {
    if (dim == TensorType::kUnknownSize)
      printer << '?';
    else
      printer << dim;
  });
  printer << ']';
}

static ParseResult parseDims(AsmParser &parser,
                             SmallVectorImpl<int64_t> &dims) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        if (succeeded(parser.parseOptionalQuestion())) {
          dims.push_back(TensorType::kUnknownSize);
          return success();
        }
        int64_t dim;
        if (parser.parseInteger(dim))
          return failure();
        dims.push_back(dim);
        return success();
      });
}

void TensorType::print(AsmPrinter &printer) const {
  if (isUnrefined() && getLegacyNonContiguous().empty())
    return;
  SmallVector<std::function<void()>> parts;
  if (getDtype())
    parts.push_back([&] { printer << "dtype = " << getDtype(); });
  if (getHasSizes())
    parts.push_back([&] {
      printer << "sizes = ";
      printDims(printer, getSizes());
    });
  if (getHasStrides())
    parts.push_back([&] {
      printer << "strides = ";
      printDims(printer, getStrides());
    });
  if (getDevice())
    parts.push_back([&] { printer << "device = " << getDevice(); });
  if (getRequiresGrad())
    parts.push_back([&] {
      printer << "requires_grad = "
              << (getRequiresGrad().getValue() ? "true" : "false");
    });
  if (!getLegacyNonContiguous().empty())
    parts.push_back([&] {
      printer << "legacy_noncontiguous = ";
      printDims(printer, getLegacyNonContiguous());
    });
  printer << '<';
  llvm::interleaveComma(parts, printer, [](auto &part) { part(); });
  printer << '>';
}

Type TensorType::parse(AsmParser &parser) {
  MLIRContext *context = parser.getContext();
  Type dtype;
  bool hasSizes = false, hasStrides = false;
  SmallVector<int64_t> sizes, strides, legacy;
  StringAttr device;
  BoolAttr requiresGrad;
  if (failed(parser.parseOptionalLess()))
    return TensorType::get(context);
  SMLoc loc = parser.getCurrentLocation();
  auto parseEntry = [&]() -> ParseResult {
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (key == "dtype")
      return parser.parseType(dtype);
    if (key == "sizes") {
      hasSizes = true;
      return parseDims(parser, sizes);
    }
    if (key == "strides") {
      hasStrides = true;
      return parseDims(parser, strides);
    }
    if (key == "device") {
      std::string text;
      if (parser.parseString(&text))
        return failure();
      device = StringAttr::get(context, text);
      return success();
    }
    if (key == "requires_grad") {
      StringRef value;
      if (parser.parseKeyword(&value))
        return failure();
      if (value != "true" && value != "false")
        return parser.emitError(parser.getCurrentLocation(),
                                "expected 'true' or 'false'");
      requiresGrad = BoolAttr::get(context, value == "true");
      return success();
    }
    if (key == "legacy_noncontiguous")
      return parseDims(parser, legacy);
    return parser.emitError(parser.getCurrentLocation(),
                            "unknown tensor type key '")
           << key << "'";
  };
  if (parser.parseCommaSeparatedList(parseEntry) || parser.parseGreater())
    return {};
  return TensorType::getChecked([&] { return parser.emitError(loc); }, context,
                                dtype, hasSizes, sizes, hasStrides, strides,
                                device, requiresGrad, legacy);
}

//===----------------------------------------------------------------------===//
// QuantizedType
//===----------------------------------------------------------------------===//

LogicalResult
QuantizedType::verify(function_ref<InFlightDiagnostic()> emitError,
                      IntegerType storageType) {
  // The five storage types torch has quantized dtypes for.
  unsigned width = storageType.getWidth();
  bool known = storageType.isSigned() ? width == 8 || width == 32
               : storageType.isUnsigned()
                   ? width == 8 || width == 4 || width == 2
                   : false;
  if (!known)
    return emitError() << "quantized storage type " << storageType
                       << " is none of torch's (si8, ui8, si32, ui4, ui2)";
  return success();
}

//===----------------------------------------------------------------------===//
// TupleType
//===----------------------------------------------------------------------===//

LogicalResult TupleType::verify(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<Type> types, ArrayAttr fieldNames,
                                ArrayAttr defaults) {
  if (fieldNames) {
    if (fieldNames.size() != types.size())
      return emitError() << "named tuple has " << types.size() << " fields but "
                         << fieldNames.size() << " names";
    if (!llvm::all_of(fieldNames, llvm::IsaPred<StringAttr>))
      return emitError() << "named tuple field names must be strings";
  }
  if (defaults) {
    if (!fieldNames)
      return emitError() << "only a named tuple has field defaults";
    if (defaults.size() != types.size())
      return emitError() << "named tuple has " << types.size() << " fields but "
                         << defaults.size() << " defaults";
    if (!llvm::all_of(defaults, llvm::IsaPred<StringAttr, UnitAttr>))
      return emitError() << "a named tuple field default is its printed text "
                            "(a string) or unit (none)";
  }
  return success();
}

StringRef TupleType::getFieldName(unsigned index) const {
  return cast<StringAttr>(getFieldNames()[index]).getValue();
}

std::optional<StringRef> TupleType::getDefault(unsigned index) const {
  if (!getDefaults())
    return std::nullopt;
  if (auto text = dyn_cast<StringAttr>(getDefaults()[index]))
    return text.getValue();
  return std::nullopt;
}

TupleType TupleType::withTypes(ArrayRef<Type> types) const {
  // The fields only make sense for the same number of elements.
  if (types.size() != getTypes().size())
    return TupleType::get(getContext(), types);
  return TupleType::get(getContext(), types, getFieldNames(), getDefaults());
}

/// `<i64, !prim.str>`, `<named a: !prim.tensor, b: i64 = "3">`, or nothing.
void TupleType::print(AsmPrinter &printer) const {
  if (!isNamed()) {
    if (getTypes().empty())
      return;
    printer << '<';
    llvm::interleaveComma(getTypes(), printer);
    printer << '>';
    return;
  }
  printer << "<named";
  for (unsigned i = 0, e = getTypes().size(); i != e; ++i) {
    printer << (i ? ", " : " ");
    printer.printKeywordOrString(getFieldName(i));
    printer << ": " << getTypes()[i];
    if (std::optional<StringRef> text = getDefault(i)) {
      printer << " = ";
      printer.printString(*text);
    }
  }
  printer << '>';
}

Type TupleType::parse(AsmParser &parser) {
  MLIRContext *context = parser.getContext();
  SmallVector<Type> types;
  if (failed(parser.parseOptionalLess()))
    return TupleType::get(context, types);
  SMLoc loc = parser.getCurrentLocation();
  if (failed(parser.parseOptionalKeyword("named"))) {
    if (parser.parseCommaSeparatedList([&]() -> ParseResult {
          return parser.parseType(types.emplace_back());
        }) ||
        parser.parseGreater())
      return {};
    return TupleType::get(context, types);
  }
  SmallVector<Attribute> names, defaults;
  bool anyDefault = false;
  auto parseField = [&]() -> ParseResult {
    std::string name;
    if (parser.parseKeywordOrString(&name) || parser.parseColon() ||
        parser.parseType(types.emplace_back()))
      return failure();
    names.push_back(StringAttr::get(context, name));
    if (succeeded(parser.parseOptionalEqual())) {
      std::string text;
      if (parser.parseString(&text))
        return failure();
      defaults.push_back(StringAttr::get(context, text));
      anyDefault = true;
    } else {
      defaults.push_back(UnitAttr::get(context));
    }
    return success();
  };
  if (failed(parser.parseOptionalGreater())) {
    if (parser.parseCommaSeparatedList(parseField) || parser.parseGreater())
      return {};
  }
  return TupleType::getChecked([&] { return parser.emitError(loc); }, context,
                               types, ArrayAttr::get(context, names),
                               anyDefault ? ArrayAttr::get(context, defaults)
                                          : ArrayAttr());
}

//===----------------------------------------------------------------------===//
// Subtyping
//===----------------------------------------------------------------------===//

static bool isSubtypeOfAll(ArrayRef<Type> subs, ArrayRef<Type> supers) {
  return subs.size() == supers.size() &&
         llvm::all_of(llvm::zip(subs, supers), [](auto pair) {
           return isSubtypeOf(std::get<0>(pair), std::get<1>(pair));
         });
}

bool isSubtypeOf(Type sub, Type super) {
  if (sub == super || isa<AnyType>(super))
    return true;
  if (auto superTensor = dyn_cast<TensorType>(super)) {
    auto subTensor = dyn_cast<TensorType>(sub);
    if (!subTensor)
      return false;
    // A tensor refines another when every refinement the super type states
    // is stated identically by the sub type.
    auto matches = [](auto superPart, auto subPart) {
      return !superPart || superPart == subPart;
    };
    return matches(superTensor.getDtype(), subTensor.getDtype()) &&
           (!superTensor.getHasSizes() ||
            (subTensor.getHasSizes() &&
             superTensor.getSizes().size() == subTensor.getSizes().size() &&
             llvm::all_of(
                 llvm::zip(superTensor.getSizes(), subTensor.getSizes()),
                 [](auto pair) {
                   return std::get<0>(pair) == TensorType::kUnknownSize ||
                          std::get<0>(pair) == std::get<1>(pair);
                 }))) &&
           (!superTensor.getHasStrides() ||
            superTensor.getStrides() == subTensor.getStrides()) &&
           matches(superTensor.getDevice(), subTensor.getDevice()) &&
           matches(superTensor.getRequiresGrad(), subTensor.getRequiresGrad());
  }
  if (auto optional = dyn_cast<OptionalType>(super)) {
    if (isa<NoneType>(sub))
      return true;
    if (auto subOptional = dyn_cast<OptionalType>(sub))
      return isSubtypeOf(subOptional.getElementType(),
                         optional.getElementType());
    return isSubtypeOf(sub, optional.getElementType());
  }
  if (isa<NumberType>(super))
    return sub.isInteger(64) || sub.isF64() || isa<ComplexType>(sub);
  if (auto union_ = dyn_cast<UnionType>(super)) {
    if (auto subUnion = dyn_cast<UnionType>(sub))
      return llvm::all_of(subUnion.getTypes(),
                          [&](Type t) { return isSubtypeOf(t, super); });
    return llvm::any_of(union_.getTypes(),
                        [&](Type t) { return isSubtypeOf(sub, t); });
  }
  if (auto tuple = dyn_cast<TupleType>(super)) {
    // As torch: a NamedTuple is a tuple, and a tuple is a NamedTuple only
    // if it has the same field names.
    auto subTuple = dyn_cast<TupleType>(sub);
    return subTuple &&
           (!tuple.isNamed() ||
            subTuple.getFieldNames() == tuple.getFieldNames()) &&
           isSubtypeOfAll(subTuple.getTypes(), tuple.getTypes());
  }
  if (isa<AnyEnumType>(super))
    return isa<EnumType>(sub);
  if (isa<AnyTupleType>(super))
    return isa<TupleType>(sub);
  if (isa<AnyListType>(super))
    return isa<ListType>(sub);
  if (auto list = dyn_cast<ListType>(super)) {
    // Lists are invariant, except that a list of refined tensors is still a
    // list of tensors, as TorchScript prints refinements freely.
    auto subList = dyn_cast<ListType>(sub);
    if (!subList)
      return false;
    Type superElement = list.getElementType(),
         subElement = subList.getElementType();
    if (isa<TensorType>(superElement) && isa<TensorType>(subElement))
      return isSubtypeOf(subElement, superElement);
    return subElement == superElement;
  }
  if (auto future = dyn_cast<FutureType>(super)) {
    auto subFuture = dyn_cast<FutureType>(sub);
    return subFuture &&
           isSubtypeOf(subFuture.getElementType(), future.getElementType());
  }
  return false;
}

/// Drops tensor refinements at any depth, keeping a tuple's field names.
Type unshapedType(Type type) {
  MLIRContext *context = type.getContext();
  if (isa<TensorType>(type))
    return TensorType::get(context);
  if (auto optional = dyn_cast<OptionalType>(type))
    return OptionalType::get(context, unshapedType(optional.getElementType()));
  if (auto list = dyn_cast<ListType>(type))
    return ListType::get(context, unshapedType(list.getElementType()));
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Type> types;
    for (Type element : tuple.getTypes())
      types.push_back(unshapedType(element));
    return tuple.withTypes(types);
  }
  return type;
}

} // namespace tsir::prim
