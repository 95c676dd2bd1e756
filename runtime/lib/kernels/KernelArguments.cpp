//===- KernelArguments.cpp - Reading a kernel's arguments by type ---------===//
//
// See tsir-runtime/KernelArguments.h.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/KernelArguments.h"

namespace tsir::rt {

namespace {
/// "expected int dim, got str" ("expected int, got str" without a name).
Status expected(const char *type, const char *what, const Value &value) {
  std::string message = std::string("expected ") + type;
  if (what && *what)
    message += std::string(" ") + what;
  return Status::error(message + ", got " + value.kindName());
}
} // namespace

StatusOr<std::vector<Value>> popArgs(Stack &stack, size_t n) {
  if (stack.size() < n)
    return Status::error("kernel expects " + std::to_string(n) +
                         " arguments, the stack holds " +
                         std::to_string(stack.size()));
  std::vector<Value> args(std::make_move_iterator(stack.end() - n),
                          std::make_move_iterator(stack.end()));
  stack.resize(stack.size() - n);
  return args;
}

StatusOr<Tensor> requireTensor(const Value &value) {
  if (!value.isTensor() || !value.toTensor().defined())
    return Status::error(std::string("expected a Tensor, got ") +
                         value.kindName());
  return value.toTensor();
}

StatusOr<Tensor> optionalTensor(const Value &value, const char *what) {
  if (value.isNone())
    return Tensor();
  if (value.isTensor())
    return value.toTensor();
  return expected("Tensor?", what, value);
}

StatusOr<double> scalarArg(const Value &value, const char *what) {
  if (value.isDouble())
    return value.toDouble();
  if (value.isInt())
    return static_cast<double>(value.toInt());
  if (value.isBool())
    return value.toBool() ? 1.0 : 0.0;
  if (value.isTensor() && value.toTensor().defined() &&
      value.toTensor().numel() == 1)
    return *value.toTensor().to(DType::Float64).dataAs<double>();
  return expected("a number", what, value);
}

StatusOr<int64_t> intArg(const Value &value, const char *what) {
  if (value.isInt())
    return value.toInt();
  if (value.isBool())
    return static_cast<int64_t>(value.toBool());
  return expected("int", what, value);
}

StatusOr<int64_t> optionalInt(const Value &value, int64_t fallback,
                              const char *what) {
  if (value.isNone())
    return fallback;
  return intArg(value, what);
}

StatusOr<bool> boolArg(const Value &value, const char *what) {
  if (value.isBool())
    return value.toBool();
  if (value.isInt())
    return value.toInt() != 0;
  return expected("bool", what, value);
}

StatusOr<std::string> stringArg(const Value &value, const char *what) {
  if (value.isString())
    return value.toStringRef();
  return expected("str", what, value);
}

StatusOr<std::vector<int64_t>> intList(const Value &value, const char *what) {
  if (value.isInt())
    return std::vector<int64_t>{value.toInt()};
  if (!value.isList() && !value.isTuple())
    return expected("int[]", what, value);
  const std::vector<Value> &elements =
      value.isList() ? value.toList() : value.toTuple();
  std::vector<int64_t> result;
  for (const Value &element : elements) {
    if (!element.isInt())
      return expected("int[]", what, element);
    result.push_back(element.toInt());
  }
  return result;
}

StatusOr<std::vector<int64_t>> optionalIntList(const Value &value,
                                               const char *what) {
  if (value.isNone())
    return std::vector<int64_t>();
  return intList(value, what);
}

StatusOr<DType> scalarTypeArgument(int64_t code) {
  if (std::optional<DType> dtype = dtypeFromScalarType(code))
    return *dtype;
  return Status::error("unsupported ScalarType " + std::to_string(code));
}

StatusOr<DType> optionalDType(const Value &value, DType fallback) {
  if (value.isNone())
    return fallback;
  if (!value.isInt())
    return expected("a ScalarType", "", value);
  return scalarTypeArgument(value.toInt());
}

} // namespace tsir::rt
