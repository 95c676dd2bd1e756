//===- Value.h - TorchScript's IValue ---------------------------*- C++ -*-===//
//
// Value is the tagged value that flows between kernels and the runtime's
// callers: None, Tensor, int, float, bool, str, List, Tuple or Device. Lists
// are shared by reference as in TorchScript (copying a Value holding a list
// aliases the list, so `append` through one copy shows in the other);
// tuples are immutable.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_VALUE_H
#define TSIR_RUNTIME_VALUE_H

#include "tsir-runtime/Device.h"
#include "tsir-runtime/Tensor.h"

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace tsir::rt {

class Value {
public:
  enum class Kind : uint8_t {
    None,
    Tensor,
    Int,
    Double,
    Bool,
    String,
    List,
    Tuple,
    Device,
    Dict
  };

  /// A dict's entries, in insertion order (TorchScript dicts keep it).
  using DictEntries = std::vector<std::pair<Value, Value>>;

  /// None.
  Value() = default;
  Value(Tensor tensor) : payload(std::move(tensor)) {}
  Value(int64_t value) : payload(value) {}
  Value(int value) : payload(static_cast<int64_t>(value)) {}
  Value(double value) : payload(value) {}
  Value(bool value) : payload(value) {}
  Value(std::string value) : payload(std::move(value)) {}
  // Without this a string literal would convert to bool.
  Value(const char *value) : payload(std::string(value)) {}
  Value(struct Device device) : payload(device) {}

  static Value none() { return Value(); }
  /// A new list; copies of the returned Value share it.
  static Value list(std::vector<Value> elements = {});
  static Value tuple(std::vector<Value> elements);
  /// A new dict; copies of the returned Value share it, as lists do.
  static Value dict(DictEntries entries = {});

  Kind kind() const { return static_cast<Kind>(payload.index()); }
  /// TorchScript's name of the kind: "None", "Tensor", "int", "float",
  /// "bool", "str", "List", "Tuple", "Device", "Dict".
  const char *kindName() const;
  static const char *kindName(Kind kind);

  bool isNone() const { return kind() == Kind::None; }
  bool isTensor() const { return kind() == Kind::Tensor; }
  bool isInt() const { return kind() == Kind::Int; }
  bool isDouble() const { return kind() == Kind::Double; }
  bool isBool() const { return kind() == Kind::Bool; }
  bool isString() const { return kind() == Kind::String; }
  bool isList() const { return kind() == Kind::List; }
  bool isTuple() const { return kind() == Kind::Tuple; }
  bool isDevice() const { return kind() == Kind::Device; }
  bool isDict() const { return kind() == Kind::Dict; }

  // The toX accessors require the kind (they abort naming both kinds
  // otherwise); kernels check with isX or use the pop helpers of Stack.h.
  const Tensor &toTensor() const;
  Tensor &toTensor();
  int64_t toInt() const;
  double toDouble() const;
  bool toBool() const;
  const std::string &toStringRef() const;
  /// The shared list: modifications are seen by every alias.
  std::vector<Value> &toList() const;
  const std::vector<Value> &toTuple() const;
  struct Device toDevice() const;
  /// The shared dict: modifications are seen by every alias.
  DictEntries &toDict() const;

  /// Whether two dict keys are the same key: equal strings, ints, floats
  /// or bools, or the same tensor.
  static bool sameKey(const Value &a, const Value &b);

  /// True when both hold the same list object (TorchScript's `is`).
  bool isAliasOf(const Value &other) const;

  /// TorchScript's repr: 3, 1., 0.10000000000000001, True, "str", [1, 2],
  /// (1,), cpu, None, and Float[2, 3] for tensors. (prim::Print prints
  /// strings unquoted and tensor data; see printValue.)
  std::string toString() const;

private:
  using ListPtr = std::shared_ptr<std::vector<Value>>;
  using DictPtr = std::shared_ptr<DictEntries>;
  using TuplePtr = std::shared_ptr<const std::vector<Value>>;
  struct TupleBox {
    TuplePtr elements;
  };

  [[noreturn]] void wrongKind(Kind expected) const;

  // The order matches Kind.
  std::variant<std::monostate, Tensor, int64_t, double, bool, std::string,
               ListPtr, TupleBox, struct Device, DictPtr>
      payload;
};

/// Appends TorchScript's printed form of `value` to `out`. With
/// `quoteStrings` false strings print raw at every level, as torch's
/// operator<< (prim::Print, aten::format) does; with it true they are
/// quoted and escaped (repr). Tensors print their data when `tensorData`
/// is true, else their dtype and sizes.
void printValue(std::string &out, const Value &value, bool quoteStrings,
                bool tensorData);

/// TorchScript's printing of a double: integral values as "1.", others with
/// 17 significant digits, "inf", "-inf", "nan".
std::string formatDouble(double value);

/// A tensor's elements as torch's C++ printer shows them (one row per
/// line, then "[ CPUFloatType{2,3} ]").
std::string formatTensorData(const Tensor &tensor);

} // namespace tsir::rt

#endif // TSIR_RUNTIME_VALUE_H
