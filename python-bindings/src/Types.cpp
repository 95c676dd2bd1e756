//===- Types.cpp - tsir.Type: TorchScript types seen from Python ----------===//
//
// A value's type: str() is its TorchScript spelling (the exporter's), kind
// is torch's `type.kind()` name, and tensors expose their refinements
// (dtype, sizes, strides, device, requires_grad) as torch's TensorType
// does, with None for what is not known.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Exporter/Exporter.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/stl.h>

using namespace mlir;
using namespace tsir::python;
namespace prim = tsir::prim;

/// torch's name for the kind of type (`c10::TypeKind`).
static std::string kindOf(Type type) {
  if (type.isInteger(64))
    return "IntType";
  if (type.isF64())
    return "FloatType";
  if (type.isInteger(1))
    return "BoolType";
  return llvm::TypeSwitch<Type, std::string>(type)
      .Case([](prim::TensorType) { return "TensorType"; })
      .Case([](prim::StrType) { return "StringType"; })
      .Case([](prim::NoneType) { return "NoneType"; })
      .Case([](prim::DeviceType) { return "DeviceObjType"; })
      .Case([](prim::NumberType) { return "NumberType"; })
      .Case([](prim::FunctionType) { return "FunctionType"; })
      .Case([](prim::GeneratorType) { return "GeneratorType"; })
      .Case([](prim::AnyType) { return "AnyType"; })
      .Case([](prim::StorageType) { return "StorageType"; })
      .Case([](prim::StreamType) { return "StreamObjType"; })
      .Case([](prim::CapsuleType) { return "CapsuleType"; })
      .Case([](prim::AnyTupleType) { return "AnyTupleType"; })
      .Case([](prim::AnyListType) { return "AnyListType"; })
      .Case([](prim::ListType) { return "ListType"; })
      .Case([](prim::OptionalType) { return "OptionalType"; })
      .Case([](prim::FutureType) { return "FutureType"; })
      .Case([](prim::TupleType) { return "TupleType"; })
      .Case([](prim::UnionType) { return "UnionType"; })
      .Case([](prim::DictType) { return "DictType"; })
      .Case([](prim::ClassType) { return "ClassType"; })
      .Case([](prim::EnumType) { return "EnumType"; })
      .Case([](prim::AnyEnumType) { return "AnyEnumType"; })
      .Case([](prim::QSchemeType) { return "QSchemeType"; })
      .Case([](ComplexType) { return "ComplexType"; })
      .Default([](Type) { return "MLIRType"; });
}

/// The types a container holds: a list's or optional's element, a tuple's
/// or union's members, a dict's key and value.
static std::vector<Type> containedTypes(Type type) {
  return llvm::TypeSwitch<Type, std::vector<Type>>(type)
      .Case<prim::ListType, prim::OptionalType, prim::FutureType>(
          [](auto container) {
            return std::vector<Type>{container.getElementType()};
          })
      .Case<prim::TupleType, prim::UnionType>([](auto container) {
        ArrayRef<Type> types = container.getTypes();
        return std::vector<Type>(types.begin(), types.end());
      })
      .Case([](prim::DictType dict) {
        return std::vector<Type>{dict.getKeyType(), dict.getValueType()};
      })
      .Default([](Type) { return std::vector<Type>(); });
}

static std::string spell(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!tsir::printTorchScriptType(type, os)) {
    // After lowering: no TorchScript spelling, so MLIR's.
    text.clear();
    type.print(os);
  }
  return text;
}

/// Sizes or strides with None for unknown entries; None if unknown rank.
static py::object dims(bool known, ArrayRef<int64_t> values) {
  if (!known)
    return py::none();
  py::list result;
  for (int64_t value : values)
    result.append(value == prim::TensorType::kUnknownSize
                      ? py::object(py::none())
                      : py::object(py::int_(value)));
  return result;
}

/// Runs `get` on the type as a tensor type; None for other types.
template <class Fn> static py::object ifTensor(const PyType &self, Fn get) {
  auto tensor = dyn_cast<prim::TensorType>(self.get());
  if (!tensor)
    return py::none();
  return get(tensor);
}

void tsir::python::bindTypes(py::module_ &m) {
  py::class_<PyType>(m, "Type", "A TorchScript type.")
      .def("__str__", [](const PyType &self) { return spell(self.get()); })
      .def("__repr__",
           [](const PyType &self) {
             return "<tsir.Type " + spell(self.get()) + ">";
           })
      .def_property_readonly(
          "kind", [](const PyType &self) { return kindOf(self.get()); },
          "torch's kind name: 'TensorType', 'IntType', 'ListType', ...")
      .def_property_readonly(
          "mlir",
          [](const PyType &self) {
            std::string text;
            llvm::raw_string_ostream os(text);
            self.get().print(os);
            return text;
          },
          "The MLIR spelling ('!prim.tensor<dtype = f32, sizes = [2]>').")
      .def_property_readonly(
          "dtype",
          [](const PyType &self) {
            return ifTensor(self, [](prim::TensorType tensor) -> py::object {
              StringRef name = prim::torchNameOfDtype(tensor.getDtype());
              if (name.empty())
                return py::none();
              return py::str(name.str());
            });
          },
          "A tensor's scalar type as torch names it ('Float', 'Long'); "
          "None if unknown or not a tensor.")
      .def_property_readonly(
          "sizes",
          [](const PyType &self) {
            return ifTensor(self, [](prim::TensorType tensor) {
              return dims(tensor.getHasSizes(), tensor.getSizes());
            });
          },
          "A tensor's sizes, None for unknown ones; None if the rank is "
          "unknown or not a tensor.")
      .def_property_readonly(
          "strides",
          [](const PyType &self) {
            return ifTensor(self, [](prim::TensorType tensor) {
              return dims(tensor.getHasStrides(), tensor.getStrides());
            });
          })
      .def_property_readonly(
          "device",
          [](const PyType &self) {
            return ifTensor(self, [](prim::TensorType tensor) -> py::object {
              if (!tensor.getDevice())
                return py::none();
              return py::str(tensor.getDevice().str());
            });
          },
          "A tensor's device ('cpu'), or None.")
      .def_property_readonly(
          "requires_grad",
          [](const PyType &self) {
            return ifTensor(self, [](prim::TensorType tensor) -> py::object {
              if (!tensor.getRequiresGrad())
                return py::none();
              return py::bool_(tensor.getRequiresGrad().getValue());
            });
          })
      .def_property_readonly(
          "contained",
          [](const PyType &self) {
            py::list result;
            for (Type type : containedTypes(self.get()))
              result.append(PyType(self.getGraph(), type));
            return result;
          },
          "Element types: a list's or optional's element, a tuple's "
          "members, a dict's key and value.")
      .def("__eq__",
           [](const PyType &a, const PyType &b) {
             return a.getGraph() == b.getGraph() && a.get() == b.get();
           })
      .def("__hash__", [](const PyType &self) {
        return std::hash<const void *>()(self.get().getAsOpaquePointer());
      });
}
