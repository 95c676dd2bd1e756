//===- Value.cpp - TorchScript values and their printing ------------------===//
//
// Value accessors, and printing in TorchScript's format (what prim::Print
// and aten::format produce), including torch's C++ layout of tensor data.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Value.h"

#include "DTypeDispatch.h"
#include "QuoteString.h"

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <limits>
#include <sstream>

namespace tsir::rt {

Value Value::list(std::vector<Value> elements) {
  Value value;
  value.payload = std::make_shared<std::vector<Value>>(std::move(elements));
  return value;
}

Value Value::tuple(std::vector<Value> elements) {
  Value value;
  value.payload =
      TupleBox{std::make_shared<const std::vector<Value>>(std::move(elements))};
  return value;
}

Value Value::dict(DictEntries entries) {
  Value value;
  value.payload = std::make_shared<DictEntries>(std::move(entries));
  return value;
}

const char *Value::kindName(Kind kind) {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Tensor:
    return "Tensor";
  case Kind::Int:
    return "int";
  case Kind::Double:
    return "float";
  case Kind::Bool:
    return "bool";
  case Kind::String:
    return "str";
  case Kind::List:
    return "List";
  case Kind::Tuple:
    return "Tuple";
  case Kind::Device:
    return "Device";
  case Kind::Dict:
    return "Dict";
  }
  return "?";
}

const char *Value::kindName() const { return kindName(kind()); }

void Value::wrongKind(Kind expected) const {
  std::fprintf(stderr, "tsir runtime: fatal: expected a %s value, got %s\n",
               kindName(expected), kindName());
  std::abort();
}

const Tensor &Value::toTensor() const {
  if (!isTensor())
    wrongKind(Kind::Tensor);
  return std::get<Tensor>(payload);
}

Tensor &Value::toTensor() {
  if (!isTensor())
    wrongKind(Kind::Tensor);
  return std::get<Tensor>(payload);
}

int64_t Value::toInt() const {
  if (!isInt())
    wrongKind(Kind::Int);
  return std::get<int64_t>(payload);
}

double Value::toDouble() const {
  if (!isDouble())
    wrongKind(Kind::Double);
  return std::get<double>(payload);
}

bool Value::toBool() const {
  if (!isBool())
    wrongKind(Kind::Bool);
  return std::get<bool>(payload);
}

const std::string &Value::toStringRef() const {
  if (!isString())
    wrongKind(Kind::String);
  return std::get<std::string>(payload);
}

std::vector<Value> &Value::toList() const {
  if (!isList())
    wrongKind(Kind::List);
  return *std::get<ListPtr>(payload);
}

const std::vector<Value> &Value::toTuple() const {
  if (!isTuple())
    wrongKind(Kind::Tuple);
  return *std::get<TupleBox>(payload).elements;
}

Device Value::toDevice() const {
  if (!isDevice())
    wrongKind(Kind::Device);
  return std::get<Device>(payload);
}

Value::DictEntries &Value::toDict() const {
  if (!isDict())
    wrongKind(Kind::Dict);
  return *std::get<DictPtr>(payload);
}

bool Value::sameKey(const Value &a, const Value &b) {
  if (a.kind() != b.kind())
    return false;
  switch (a.kind()) {
  case Kind::String:
    return a.toStringRef() == b.toStringRef();
  case Kind::Int:
    return a.toInt() == b.toInt();
  case Kind::Double:
    return a.toDouble() == b.toDouble();
  case Kind::Bool:
    return a.toBool() == b.toBool();
  case Kind::Tensor:
    return a.toTensor().sharesStorageWith(b.toTensor()) &&
           a.toTensor().storageOffset() == b.toTensor().storageOffset();
  default:
    return false;
  }
}

bool Value::isAliasOf(const Value &other) const {
  if (isDict() && other.isDict())
    return std::get<DictPtr>(payload) == std::get<DictPtr>(other.payload);
  if (isList() && other.isList())
    return std::get<ListPtr>(payload) == std::get<ListPtr>(other.payload);
  if (isTuple() && other.isTuple())
    return std::get<TupleBox>(payload).elements ==
           std::get<TupleBox>(other.payload).elements;
  if (isTensor() && other.isTensor())
    return toTensor().sharesStorageWith(other.toTensor());
  return false;
}

std::string Value::toString() const {
  std::string out;
  printValue(out, *this, /*quoteStrings=*/true, /*tensorData=*/false);
  return out;
}

std::string formatDouble(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  // torch prints integral doubles as "3." so they read back as floats.
  if (std::fabs(value) < 9.2e18 && value == std::trunc(value)) {
    std::string digits = std::to_string(static_cast<int64_t>(value));
    if (value == 0 && std::signbit(value))
      digits = "-0";
    return digits + ".";
  }
  std::ostringstream stream;
  stream << std::setprecision(std::numeric_limits<double>::max_digits10)
         << value;
  return stream.str();
}

namespace {
void printQuoted(std::string &out, const std::string &text) {
  detail::appendQuoted(out, text, detail::QuoteStyle::Python);
}

void printElements(std::string &out, const std::vector<Value> &elements,
                   bool quoteStrings, bool tensorData) {
  for (size_t i = 0; i < elements.size(); ++i) {
    if (i)
      out += ", ";
    printValue(out, elements[i], quoteStrings, tensorData);
  }
}
} // namespace

void printValue(std::string &out, const Value &value, bool quoteStrings,
                bool tensorData) {
  switch (value.kind()) {
  case Value::Kind::None:
    out += "None";
    return;
  case Value::Kind::Tensor: {
    const Tensor &tensor = value.toTensor();
    if (!tensor.defined())
      out += "[ Tensor (undefined) ]";
    else
      out += tensorData ? formatTensorData(tensor) : tensor.toString();
    return;
  }
  case Value::Kind::Int:
    out += std::to_string(value.toInt());
    return;
  case Value::Kind::Double:
    out += formatDouble(value.toDouble());
    return;
  case Value::Kind::Bool:
    out += value.toBool() ? "True" : "False";
    return;
  case Value::Kind::String:
    if (quoteStrings)
      printQuoted(out, value.toStringRef());
    else
      out += value.toStringRef();
    return;
  case Value::Kind::List:
    out += '[';
    printElements(out, value.toList(), quoteStrings, tensorData);
    out += ']';
    return;
  case Value::Kind::Tuple: {
    const std::vector<Value> &elements = value.toTuple();
    out += '(';
    printElements(out, elements, quoteStrings, tensorData);
    out += elements.size() == 1 ? ",)" : ")";
    return;
  }
  case Value::Kind::Device:
    out += value.toDevice().toString();
    return;
  case Value::Kind::Dict: {
    out += '{';
    bool first = true;
    for (const auto &[key, element] : value.toDict()) {
      if (!first)
        out += ", ";
      first = false;
      printValue(out, key, quoteStrings, tensorData);
      out += ": ";
      printValue(out, element, quoteStrings, tensorData);
    }
    out += '}';
    return;
  }
  }
}

} // namespace tsir::rt
