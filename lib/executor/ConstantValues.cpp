//===- ConstantValues.cpp - prim.Constant as a runtime value --------------===//
//
// See ConstantValues.h.
//
//===----------------------------------------------------------------------===//

#include "ConstantValues.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tsir;

/// Stores `value` as element `index` of `tensor` (contiguous, fresh).
static void storeElement(rt::Tensor &tensor, int64_t index, double value,
                         int64_t integer, bool isInteger) {
  switch (tensor.dtype()) {
  case rt::DType::Float32:
    tensor.dataAs<float>()[index] = float(isInteger ? double(integer) : value);
    return;
  case rt::DType::Float64:
    tensor.dataAs<double>()[index] = isInteger ? double(integer) : value;
    return;
  case rt::DType::Float16:
    tensor.dataAs<uint16_t>()[index] =
        rt::floatToHalf(float(isInteger ? double(integer) : value));
    return;
  case rt::DType::BFloat16:
    tensor.dataAs<uint16_t>()[index] =
        rt::floatToBFloat16(float(isInteger ? double(integer) : value));
    return;
  case rt::DType::Int64:
    tensor.dataAs<int64_t>()[index] = isInteger ? integer : int64_t(value);
    return;
  case rt::DType::Int32:
    tensor.dataAs<int32_t>()[index] = int32_t(isInteger ? integer : value);
    return;
  case rt::DType::Int16:
    tensor.dataAs<int16_t>()[index] = int16_t(isInteger ? integer : value);
    return;
  case rt::DType::Int8:
    tensor.dataAs<int8_t>()[index] = int8_t(isInteger ? integer : value);
    return;
  case rt::DType::UInt8:
    tensor.dataAs<uint8_t>()[index] = uint8_t(isInteger ? integer : value);
    return;
  case rt::DType::Bool:
    tensor.dataAs<uint8_t>()[index] = (isInteger ? integer != 0 : value != 0);
    return;
  }
}

/// A tensor printed inline in the graph (`Long(2)` of `[1, 2]`).
static rt::StatusOr<rt::Value> tensorConstant(DenseElementsAttr elements,
                                              Type type) {
  auto tensorType = dyn_cast<prim::TensorType>(type);
  Type dtype = tensorType ? tensorType.getDtype() : Type();
  if (!dtype)
    dtype = elements.getElementType();
  StringRef name = prim::torchNameOfDtype(dtype);
  std::optional<rt::DType> runtimeType =
      rt::dtypeFromTorchName(std::string_view(name.data(), name.size()));
  if (!runtimeType)
    return rt::Status::error("a tensor constant of an unsupported dtype");
  std::vector<int64_t> sizes(elements.getType().getShape().begin(),
                             elements.getType().getShape().end());
  rt::Tensor tensor = rt::Tensor::empty(sizes, *runtimeType);
  int64_t index = 0;
  if (isa<FloatType>(elements.getElementType())) {
    for (APFloat element : elements.getValues<APFloat>()) {
      bool lost = false;
      element.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                      &lost);
      storeElement(tensor, index++, element.convertToDouble(), 0, false);
    }
  } else if (auto integer = dyn_cast<IntegerType>(elements.getElementType())) {
    bool isUnsigned = integer.isUnsigned() || integer.getWidth() == 1;
    for (const APInt &element : elements.getValues<APInt>())
      storeElement(tensor, index++, 0,
                   isUnsigned ? int64_t(element.getZExtValue())
                              : element.getSExtValue(),
                   true);
  } else {
    return rt::Status::error("a tensor constant of an unsupported dtype");
  }
  return rt::Value(tensor);
}

rt::StatusOr<rt::Value> tsir::constantValue(Attribute value, Type type) {
  if (isa<UnitAttr>(value))
    return rt::Value::none();
  if (auto optional = dyn_cast<prim::OptionalType>(type))
    return constantValue(value, optional.getElementType());
  if (auto integer = dyn_cast<IntegerAttr>(value)) {
    if (integer.getType().isInteger(1))
      return rt::Value(!integer.getValue().isZero());
    return rt::Value(integer.getValue().getSExtValue());
  }
  if (auto real = dyn_cast<FloatAttr>(value))
    return rt::Value(real.getValueAsDouble());
  if (auto text = dyn_cast<StringAttr>(value)) {
    if (isa<prim::DeviceType>(type)) {
      std::optional<rt::Device> device =
          rt::Device::parse(text.getValue().str());
      if (!device)
        return rt::Status::error("an unknown device '" + text.str() + "'");
      return rt::Value(*device);
    }
    if (isa<prim::StrType>(type))
      return rt::Value(text.str());
  }
  if (auto array = dyn_cast<ArrayAttr>(value)) {
    Type elementType;
    ArrayRef<Type> tupleTypes;
    if (auto list = dyn_cast<prim::ListType>(type))
      elementType = list.getElementType();
    else if (auto tuple = dyn_cast<prim::TupleType>(type))
      tupleTypes = tuple.getTypes();
    std::vector<rt::Value> elements;
    for (auto [index, element] : llvm::enumerate(array)) {
      Type type = elementType                 ? elementType
                  : index < tupleTypes.size() ? tupleTypes[index]
                                              : Type();
      if (!type)
        type = prim::AnyType::get(value.getContext());
      rt::StatusOr<rt::Value> converted = constantValue(element, type);
      if (!converted.ok())
        return converted.status();
      elements.push_back(*converted);
    }
    if (isa<prim::TupleType>(type))
      return rt::Value::tuple(std::move(elements));
    return rt::Value::list(std::move(elements));
  }
  if (auto elements = dyn_cast<DenseElementsAttr>(value))
    return tensorConstant(elements, type);
  // Graphs with these import and optimize, but the runtime has no values
  // for them; say so by name rather than print the whole attribute.
  if (auto quantized = dyn_cast<prim::QuantizedTensorAttr>(value))
    return rt::Status::error(
        "a quantized tensor constant (" +
        prim::torchNameOfDtype(quantized.getDtype()).str() +
        "): tsir does not run quantized tensors");
  if (auto member = dyn_cast<prim::EnumMemberAttr>(value))
    return rt::Status::error("an enum member (" + member.getEnumName().str() +
                             "." + member.getMemberName().str() +
                             "): tsir does not run enums");
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "the interpreter cannot represent the constant " << value << " of type "
     << type;
  return rt::Status::error(text);
}
