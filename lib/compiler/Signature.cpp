//===- Signature.cpp - A graph's inputs, and checking values against them -===//
//
// See Signature.h.
//
//===----------------------------------------------------------------------===//

#include "Signature.h"

#include "../exporter/Printers.h"
#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tsir;

tsir::GraphInputs::GraphInputs(func::FuncOp graph)
    : context(graph.getContext()) {
  for (BlockArgument argument : graph.getArguments()) {
    if (argument.getArgNumber() == 0 &&
        isa<prim::ClassType>(argument.getType())) {
      selfCount = 1;
      continue;
    }
    GraphInput input;
    input.name = getArgumentName(argument.getLoc()).str();
    input.type = argument.getType();
    llvm::raw_string_ostream os(input.typeText);
    if (!exporter::printType(input.type, os))
      os << input.type;
    callerInputs.push_back(std::move(input));
  }
}

std::string tsir::describeValue(const rt::Value &value) {
  if (value.isTensor()) {
    const rt::Tensor &tensor = value.toTensor();
    if (!tensor.defined())
      return "an undefined tensor";
    return std::string(rt::dtypeTorchName(tensor.dtype())) +
           " tensor of shape " + rt::sizesToString(tensor.sizes());
  }
  if (value.isInt())
    return "int " + std::to_string(value.toInt());
  if (value.isDouble())
    return "float " + std::to_string(value.toDouble());
  if (value.isBool())
    return value.toBool() ? "bool true" : "bool false";
  if (value.isNone())
    return "None";
  return value.kindName();
}

/// Whether `value` can be passed where TorchScript expects `type`, and if
/// not, what was expected.
static std::string mismatch(Type type, const rt::Value &value) {
  if (auto optional = dyn_cast<prim::OptionalType>(type)) {
    if (value.isNone())
      return "";
    return mismatch(optional.getElementType(), value);
  }
  if (auto tensor = dyn_cast<prim::TensorType>(type)) {
    if (!value.isTensor())
      return "a tensor";
    const rt::Tensor &t = value.toTensor();
    // Undefined tensors exist inside torch (an absent optional tensor) but
    // are not a value a caller can pass for a tensor: no op computes on one.
    if (!t.defined())
      return "a defined tensor";
    if (Type dtype = tensor.getDtype()) {
      StringRef name = prim::torchNameOfDtype(dtype);
      if (isa<prim::QuantizedType>(dtype))
        return "a " + name.str() +
               " tensor, which tsir cannot take (it does not run quantized "
               "tensors)";
      if (name != rt::dtypeTorchName(t.dtype()))
        return "a " + name.str() + " tensor";
    }
    if (tensor.getHasSizes()) {
      ArrayRef<int64_t> sizes = tensor.getSizes();
      if (static_cast<int64_t>(sizes.size()) != t.dim())
        return "a tensor of rank " + std::to_string(sizes.size());
      for (size_t i = 0; i < sizes.size(); ++i)
        if (sizes[i] != prim::TensorType::kUnknownSize && sizes[i] != t.size(i))
          return "a tensor whose dim " + std::to_string(i) + " has size " +
                 std::to_string(sizes[i]);
    }
    return "";
  }
  // Containers are checked element by element: compiled code and kernels
  // take an element's kind from the graph's type, and a caller's list of
  // the wrong elements must be an error here, not an abort there.
  if (auto list = dyn_cast<prim::ListType>(type)) {
    if (!value.isList())
      return "a list";
    const std::vector<rt::Value> &elements = value.toList();
    for (size_t i = 0; i < elements.size(); ++i) {
      std::string inner = mismatch(list.getElementType(), elements[i]);
      if (!inner.empty())
        return "a list whose element " + std::to_string(i) + " is " + inner;
    }
    return "";
  }
  if (auto tuple = dyn_cast<prim::TupleType>(type)) {
    if (!value.isTuple())
      return "a tuple";
    const std::vector<rt::Value> &elements = value.toTuple();
    ArrayRef<Type> types = tuple.getTypes();
    if (elements.size() != types.size())
      return "a tuple of " + std::to_string(types.size()) + " elements";
    for (size_t i = 0; i < elements.size(); ++i) {
      std::string inner = mismatch(types[i], elements[i]);
      if (!inner.empty())
        return "a tuple whose element " + std::to_string(i) + " is " + inner;
    }
    return "";
  }
  if (isa<prim::StrType>(type))
    return value.isString() ? "" : "a str";
  if (isa<prim::DeviceType>(type))
    return value.isDevice() ? "" : "a Device";
  if (type.isInteger(1))
    return value.isBool() ? "" : "a bool";
  if (type.isInteger(64))
    return value.isInt() ? "" : "an int";
  if (type.isF64())
    return value.isDouble() || value.isInt() ? "" : "a float";
  if (isa<prim::NoneType>(type))
    return value.isNone() ? "" : "None";
  if (isa<prim::NumberType>(type))
    return value.isInt() || value.isDouble() || value.isBool() ? ""
                                                               : "a number";
  // No runtime value stands for these; any value given is the wrong one.
  if (isa<prim::EnumType, prim::AnyEnumType>(type))
    return "an enum member, which tsir cannot take (it does not run enums)";
  if (isa<prim::QSchemeType>(type))
    return "a QScheme, which tsir cannot take (it does not run quantized "
           "tensors)";
  return "";
}

rt::Status
tsir::GraphInputs::check(const std::vector<rt::Value> &values) const {
  if (values.size() != callerInputs.size()) {
    // Name them, as Python's `forward() missing 1 required positional
    // argument: 'mask'` does: a count alone leaves the user to find which.
    std::string names;
    for (const GraphInput &input : callerInputs)
      names +=
          (names.empty() ? "%" : ", %") + input.name + " : " + input.typeText;
    return rt::Status::error(
        "the graph takes " + std::to_string(callerInputs.size()) + " input" +
        (callerInputs.size() == 1 ? "" : "s") +
        (names.empty() ? "" : " (" + names + ")") + " but " +
        std::to_string(values.size()) +
        (values.size() == 1 ? " was" : " were") + " given");
  }
  for (size_t i = 0; i < values.size(); ++i) {
    std::string expected = mismatch(callerInputs[i].type, values[i]);
    if (expected.empty())
      continue;
    return rt::Status::error("input " + std::to_string(i) + " (%" +
                             callerInputs[i].name + " : " +
                             callerInputs[i].typeText + ") must be " +
                             expected + ", got " + describeValue(values[i]));
  }
  return rt::Status::ok();
}

std::string tsir::tensorSpec(const rt::Tensor &tensor) {
  std::string text = rt::dtypeTorchName(tensor.dtype());
  text += "(";
  for (int64_t d = 0; d < tensor.dim(); ++d)
    text += (d ? ", " : "") + std::to_string(tensor.size(d));
  // A 0-d tensor is written `Float()`.
  return text + ")";
}

Type tsir::refinedTensorType(MLIRContext *context, const rt::Tensor &tensor) {
  SmallVector<int64_t> sizes;
  for (int64_t d = 0; d < tensor.dim(); ++d)
    sizes.push_back(tensor.size(d) == 0 && tensor.dim() > 1
                        ? prim::TensorType::kUnknownSize
                        : tensor.size(d));
  Type dtype =
      prim::dtypeFromTorchName(context, rt::dtypeTorchName(tensor.dtype()));
  return prim::TensorType::get(
      context, dtype, /*hasSizes=*/true, sizes, /*hasStrides=*/false, {},
      StringAttr::get(context, "cpu"), BoolAttr(), {});
}

bool tsir::isTensorList(const rt::Value &value) {
  return value.isList() &&
         llvm::all_of(value.toList(),
                      [](const rt::Value &element) { return element.isTensor(); });
}

/// A Tensor input, or an Optional[Tensor] one (nn.RNNCell's hx), which a
/// tensor refines to that tensor: its `is None` tests fold.
static bool holdsTensor(Type type) {
  if (auto optional = dyn_cast<prim::OptionalType>(type))
    type = optional.getElementType();
  return isa<prim::TensorType>(type);
}

/// Whether `value` is a tuple of tensors (nn.LSTM's state (h, c)) given for
/// an input declared as a tuple, or an optional one, of as many tensors:
/// the spec refines it element by element.
static bool isRefinedTuple(const rt::Value &value, Type declared) {
  if (!value.isTuple())
    return false;
  if (auto optional = dyn_cast<prim::OptionalType>(declared))
    declared = optional.getElementType();
  auto tuple = dyn_cast<prim::TupleType>(declared);
  const std::vector<rt::Value> &elements = value.toTuple();
  return tuple && tuple.getTypes().size() == elements.size() &&
         llvm::all_of(elements,
                      [](const rt::Value &element) {
                        return element.isTensor();
                      }) &&
         llvm::all_of(tuple.getTypes(), llvm::IsaPred<prim::TensorType>);
}

/// The refined type of a tuple that isRefinedTuple accepts.
static Type refinedTupleType(MLIRContext *context, const rt::Value &value) {
  SmallVector<Type> types;
  for (const rt::Value &element : value.toTuple())
    types.push_back(refinedTensorType(context, element.toTensor()));
  return prim::TupleType::get(context, types);
}

ArgumentSpec
tsir::GraphInputs::refineSpec(const std::vector<rt::Value> &values) const {
  ArgumentSpec spec(selfCount, Type());
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].isTensor() && holdsTensor(callerInputs[i].type))
      spec.push_back(refinedTensorType(context, values[i].toTensor()));
    else if (isRefinedTuple(values[i], callerInputs[i].type))
      spec.push_back(refinedTupleType(context, values[i]));
    else if (values[i].isNone() &&
             isa<prim::OptionalType>(callerInputs[i].type))
      spec.push_back(prim::NoneType::get(context)); // folds `is None` tests
    else
      spec.push_back(Type());
  }
  return spec;
}

std::string tsir::GraphInputs::spec(const std::vector<rt::Value> &values,
                                       size_t first) const {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) {
    if (!text.empty())
      text += ", ";
    const rt::Value &value = values[i];
    if (value.isTensor()) {
      text += tensorSpec(value.toTensor());
    } else if (value.isInt()) {
      // An int passed for a float input is converted at the call.
      text += callerInputs[first + i].type.isF64() ? "float" : "int";
    } else if (value.isDouble()) {
      text += "float";
    } else if (value.isBool()) {
      text += "bool";
    } else if (value.isNone()) {
      text += "NoneType";
    } else if (isTensorList(value)) {
      // A list of tensors is compiled for its length and each element
      // (the executor takes it element by element).
      std::string elements;
      for (const rt::Value &element : value.toList())
        elements += (elements.empty() ? "" : ", ") +
                    tensorSpec(element.toTensor());
      text += "[" + elements + "]";
    } else if (isRefinedTuple(value, callerInputs[first + i].type)) {
      // Refined as refineSpec does: the plan is per element shape.
      std::string elements;
      for (const rt::Value &element : value.toTuple())
        elements += (elements.empty() ? "" : ", ") +
                    tensorSpec(element.toTensor());
      text += "(" + elements + ")";
    } else {
      text += "_";
    }
  }
  return text;
}

std::string
tsir::GraphInputs::spec(const std::vector<rt::Value> &values) const {
  return (selfCount ? std::string("_, ") : std::string()) + spec(values, 0);
}
