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
#include "PrimTypes.cpp.inc"

namespace tsir::prim {

void PrimDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "PrimTypes.cpp.inc"
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
    auto subTuple = dyn_cast<TupleType>(sub);
    return subTuple && isSubtypeOfAll(subTuple.getTypes(), tuple.getTypes());
  }
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

} // namespace tsir::prim
