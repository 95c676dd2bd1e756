//===- Attributes.cpp - Constant values and node attributes as Python -----===//
//
// prim.Constant values and node attributes as the Python values torch's
// `node[name]` would give: ints, floats, bools, strings, lists and tuples
// of them, numpy arrays for tensors (inline ones and attached weights),
// tsir.Type objects for types.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/numpy.h>

using namespace mlir;
using namespace tsir::python;
namespace prim = tsir::prim;

/// numpy's name of a builtin element type; "" if numpy has none.
static const char *numpyDtypeOf(Type type) {
  if (type.isF32() || type.isBF16())
    return "float32"; // numpy has no bfloat16
  if (type.isF64())
    return "float64";
  if (type.isF16())
    return "float16";
  if (type.isInteger(1))
    return "bool";
  if (type.isUnsignedInteger(8))
    return "uint8";
  if (auto integer = dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 8:
      return "int8";
    case 16:
      return "int16";
    case 32:
      return "int32";
    case 64:
      return "int64";
    }
  }
  return "";
}

/// A dense constant (a small tensor printed inline) as a numpy array.
static py::object denseToArray(DenseElementsAttr dense) {
  auto shaped = cast<ShapedType>(dense.getType());
  Type element = shaped.getElementType();
  const char *dtype = numpyDtypeOf(element);
  if (!*dtype)
    return py::none();
  py::list values;
  if (isa<FloatType>(element)) {
    for (const APFloat &value : dense.getValues<APFloat>())
      values.append(value.convertToDouble());
  } else if (element.isInteger(1) || element.isUnsignedInteger()) {
    for (const APInt &value : dense.getValues<APInt>())
      values.append(value.getZExtValue());
  } else {
    for (const APInt &value : dense.getValues<APInt>())
      values.append(value.getSExtValue());
  }
  py::module_ numpy = py::module_::import("numpy");
  py::object array = numpy.attr("array")(values, py::arg("dtype") = dtype);
  py::tuple shape(shaped.getRank());
  for (int64_t i = 0; i < shaped.getRank(); ++i)
    shape[i] = py::int_(shaped.getDimSize(i));
  return array.attr("reshape")(shape);
}

/// A weight imported into the module (`dense_resource`) as a numpy array.
static py::object resourceToArray(DenseResourceElementsAttr resource) {
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  auto shaped = cast<ShapedType>(resource.getType());
  const char *dtype = numpyDtypeOf(shaped.getElementType());
  if (!blob || !*dtype || shaped.getElementType().isBF16())
    return py::none();
  ArrayRef<char> data = blob->getData();
  py::module_ numpy = py::module_::import("numpy");
  py::object array = numpy.attr("frombuffer")(
      py::bytes(data.data(), data.size()), py::arg("dtype") = dtype);
  py::tuple shape(shaped.getRank());
  for (int64_t i = 0; i < shaped.getRank(); ++i)
    shape[i] = py::int_(shaped.getDimSize(i));
  return array.attr("reshape")(shape);
}

py::object tsir::python::attributeToPython(const GraphRef &graph,
                                           Attribute attr, Type type) {
  if (!attr || isa<UnitAttr>(attr))
    return py::none();
  if (auto boolean = dyn_cast<BoolAttr>(attr))
    return py::bool_(boolean.getValue());
  if (auto integer = dyn_cast<IntegerAttr>(attr)) {
    if (integer.getType().isInteger(1))
      return py::bool_(integer.getValue().getBoolValue());
    if (integer.getType().isUnsignedInteger())
      return py::int_(integer.getValue().getZExtValue());
    return py::int_(integer.getValue().getSExtValue());
  }
  if (auto number = dyn_cast<FloatAttr>(attr))
    return py::float_(number.getValueAsDouble());
  if (auto string = dyn_cast<StringAttr>(attr))
    return py::str(string.str());
  if (auto typeAttr = dyn_cast<TypeAttr>(attr))
    return py::cast(PyType(graph, typeAttr.getValue()));
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    // A constant list or tuple: elements take the container's element
    // types, so nested tuples come back as tuples.
    std::vector<Type> elementTypes(array.size());
    if (auto list = dyn_cast_or_null<prim::ListType>(type))
      elementTypes.assign(array.size(), list.getElementType());
    if (auto tuple = dyn_cast_or_null<prim::TupleType>(type))
      if (tuple.getTypes().size() == array.size())
        elementTypes.assign(tuple.getTypes().begin(), tuple.getTypes().end());
    py::list elements;
    for (auto [element, elementType] : llvm::zip(array, elementTypes))
      elements.append(attributeToPython(graph, element, elementType));
    if (isa_and_nonnull<prim::TupleType>(type))
      return py::tuple(elements);
    return elements;
  }
  if (auto dictionary = dyn_cast<DictionaryAttr>(attr)) {
    py::dict result;
    for (NamedAttribute entry : dictionary)
      result[py::str(entry.getName().str())] =
          attributeToPython(graph, entry.getValue(), Type());
    return result;
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return denseToArray(dense);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
    return resourceToArray(resource);
  if (auto ref = dyn_cast<prim::TensorRefAttr>(attr)) {
    // A frozen graph's `<Tensor>`: its weight when one is attached.
    for (const auto &[name, tensor] : graph->weights())
      if (name == ref.getName())
        return arrayFromTensor(tensor);
    return py::str("<Tensor>");
  }
  // Anything else (a complex literal, an attribute a pass added) as MLIR
  // prints it.
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return py::str(text);
}
