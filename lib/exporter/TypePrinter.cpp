//===- TypePrinter.cpp - TorchScript spellings of prim types --------------===//
//
// Types as torch 1.13 prints them in a graph (`c10::Type`'s operator<<) and,
// for `annotate(...)`, in Python annotation form. Where torch prints
// something its own parser cannot read back, the choice is noted.
//
//===----------------------------------------------------------------------===//

#include "Printers.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/TypeSwitch.h"

#include <utility>

using namespace mlir;
using namespace tsir;
namespace prim = tsir::prim;

namespace {

/// Both spellings share everything but the tensor type and the containers.
class TypePrinter {
public:
  TypePrinter(raw_ostream &os, bool annotation)
      : os(os), annotation(annotation) {}

  bool print(Type type);

private:
  bool printTensor(prim::TensorType type);
  bool printList(ArrayRef<Type> types);
  bool printNamedTuple(prim::TupleType type);

  raw_ostream &os;
  bool annotation;
};

} // namespace

bool TypePrinter::printList(ArrayRef<Type> types) {
  bool ok = true;
  llvm::interleaveComma(types, os, [&](Type type) { ok &= print(type); });
  return ok;
}

/// torch's TensorType printer: the dtype name (or `Tensor`; `FloatTensor`
/// when the rank is unknown), then the sizes with `*` for unknown ones,
/// `strides=[...]`, `requires_grad=0/1` and `device=...`, each only when
/// known; `Long()` is a 0-d tensor.
bool TypePrinter::printTensor(prim::TensorType type) {
  if (annotation) {
    os << "Tensor";
    return true;
  }
  StringRef dtype = prim::torchNameOfDtype(type.getDtype());
  if (type.getDtype() && dtype.empty())
    return false;
  os << (dtype.empty() ? "Tensor" : dtype);
  if (!dtype.empty() && !type.getHasSizes())
    os << "Tensor";

  SmallVector<std::string> parts;
  if (type.getHasSizes()) {
    ArrayRef<int64_t> marked = type.getLegacyNonContiguous();
    for (auto [dim, size] : llvm::enumerate(type.getSizes())) {
      std::string part = size == prim::TensorType::kUnknownSize
                             ? std::string("*")
                             : std::to_string(size);
      // The 2019 format's non-contiguity marker: `Float(3!, 20)`.
      if (llvm::is_contained(marked, static_cast<int64_t>(dim)))
        part += '!';
      parts.push_back(std::move(part));
    }
    // torch prints strides only when all are known. A type refined by tsir
    // may know some; they print as `*` (which tsir's importer reads and
    // torch's does not) rather than being dropped. Strides of a tensor of
    // unknown rank have no spelling at all.
    ArrayRef<int64_t> strides = type.getStrides();
    if (type.getHasStrides() && !strides.empty() &&
        strides.size() == type.getSizes().size()) {
      std::string part = "strides=[";
      llvm::raw_string_ostream s(part);
      llvm::interleaveComma(strides, s, [&](int64_t stride) {
        if (stride == prim::TensorType::kUnknownSize)
          s << '*';
        else
          s << stride;
      });
      s << ']';
      parts.push_back(std::move(part));
    }
  }
  if (BoolAttr grad = type.getRequiresGrad())
    parts.push_back(grad.getValue() ? "requires_grad=1" : "requires_grad=0");
  if (StringAttr device = type.getDevice())
    parts.push_back(("device=" + device.getValue()).str());

  // A tensor of unknown rank with nothing else known is plain `Tensor` or
  // `FloatTensor`; a known rank always gets its parentheses.
  if (parts.empty() && !type.getHasSizes())
    return true;
  os << '(';
  llvm::interleaveComma(parts, os);
  os << ')';
  return true;
}

/// torch's operator<< for a tuple type with a schema:
/// `NamedTuple(a : Tensor, b : int = 3)`, defaults as printed IValues. Its
/// annotation form is the class's qualified name, which the printed form
/// never tells, so annotations print the same text (tsir reads it back;
/// torch reads neither).
bool TypePrinter::printNamedTuple(prim::TupleType type) {
  // The fields print as the graph form prints them, in either form.
  bool outer = std::exchange(annotation, false);
  llvm::scope_exit restore([&] { annotation = outer; });
  os << "NamedTuple(";
  bool ok = true;
  for (auto [index, element] : llvm::enumerate(type.getTypes())) {
    if (index)
      os << ", ";
    os << type.getFieldName(index) << " : ";
    ok &= print(element);
    if (std::optional<StringRef> text = type.getDefault(index))
      os << " = " << *text;
  }
  os << ')';
  return ok;
}

bool TypePrinter::print(Type type) {
  if (type.isInteger(64)) {
    os << "int";
    return true;
  }
  if (type.isF64()) {
    os << "float";
    return true;
  }
  if (type.isInteger(1)) {
    os << "bool";
    return true;
  }
  if (auto complex = dyn_cast<ComplexType>(type)) {
    os << "complex";
    return complex.getElementType().isF64();
  }
  return llvm::TypeSwitch<Type, bool>(type)
      .Case([&](prim::TensorType t) { return printTensor(t); })
      .Case([&](prim::StrType) { return os << "str", true; })
      .Case([&](prim::NoneType) { return os << "NoneType", true; })
      .Case([&](prim::DeviceType) { return os << "Device", true; })
      .Case([&](prim::NumberType) {
        return os << (annotation ? "number" : "Scalar"), true;
      })
      .Case([&](prim::FunctionType) { return os << "Function", true; })
      .Case([&](prim::GeneratorType) { return os << "Generator", true; })
      .Case([&](prim::AnyType) { return os << "Any", true; })
      .Case([&](prim::StorageType) { return os << "Storage", true; })
      .Case([&](prim::StreamType) { return os << "Stream", true; })
      .Case([&](prim::CapsuleType) { return os << "Capsule", true; })
      .Case([&](prim::AnyTupleType) { return os << "tuple", true; })
      .Case([&](prim::AnyListType) { return os << "list", true; })
      .Case([&](prim::WorldType) { return os << "World", true; })
      .Case([&](prim::HandleType) { return os << "Handle", true; })
      .Case([&](prim::ClassType t) { return os << t.getName(), true; })
      // EnumType::str() and annotation_str().
      .Case([&](prim::EnumType t) {
        if (annotation)
          return os << t.getName(), true;
        return os << "Enum<" << t.getName() << '>', true;
      })
      .Case([&](prim::AnyEnumType) { return os << "AnyEnumType", true; })
      .Case([&](prim::QSchemeType) { return os << "QScheme", true; })
      .Case([&](prim::ListType t) {
        if (annotation) {
          os << "List[";
          bool ok = print(t.getElementType());
          os << ']';
          return ok;
        }
        bool ok = print(t.getElementType());
        os << "[]";
        return ok;
      })
      .Case([&](prim::OptionalType t) {
        if (annotation) {
          os << "Optional[";
          bool ok = print(t.getElementType());
          os << ']';
          return ok;
        }
        bool ok = print(t.getElementType());
        os << '?';
        return ok;
      })
      .Case([&](prim::TupleType t) {
        if (t.isNamed())
          return printNamedTuple(t);
        if (annotation) {
          // Python spells the empty tuple type `Tuple[()]`.
          os << "Tuple[";
          bool ok = t.getTypes().empty() ? (os << "()", true)
                                         : printList(t.getTypes());
          os << ']';
          return ok;
        }
        os << '(';
        bool ok = printList(t.getTypes());
        os << ')';
        return ok;
      })
      .Case([&](prim::DictType t) {
        os << (annotation ? "Dict[" : "Dict(");
        bool ok = printList({t.getKeyType(), t.getValueType()});
        os << (annotation ? ']' : ')');
        return ok;
      })
      .Case([&](prim::UnionType t) {
        os << (annotation ? "Union[" : "Union(");
        bool ok = printList(t.getTypes());
        os << (annotation ? ']' : ')');
        return ok;
      })
      .Case([&](prim::FutureType t) {
        // torch 1.13 prints `Future[T]` in graphs but its parser reads
        // only `Future(T)`; tsir's importer reads both.
        os << (annotation ? "Future[" : "Future(");
        bool ok = print(t.getElementType());
        os << (annotation ? ']' : ')');
        return ok;
      })
      .Default([](Type) { return false; });
}

bool exporter::printType(Type type, raw_ostream &os) {
  return TypePrinter(os, /*annotation=*/false).print(type);
}

bool exporter::printAnnotation(Type type, raw_ostream &os) {
  return TypePrinter(os, /*annotation=*/true).print(type);
}
