//===- ScalarKernels.cpp - TorchScript's operators on ints, floats, bools -===//
//
// The scalar operators TorchScript's interpreter runs itself
// (register_prim_ops.cpp): arithmetic and comparisons of ints, floats and
// bools (`add.int`, `floordiv.float_int`, `lt.int_float`, ...), negation,
// `not`, the `int()`/`float()`/`bool()` conversions, and the equality of
// int lists, strings and devices and the identity tests `is`/`is not`.
// What each computes is ScalarSemantics.h's, the definitions the constant
// folder and the lowering follow too. tsir's interpreter calls these when
// the partition leaves such an op between compiled segments (a size
// computed from another size between two kernels).
//
// A number operand is read by its kind, not by the overload's name: an
// `int` overload given a bool (TorchScript allows it) computes on 0 or 1,
// as torch does.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "KernelSupport.h"
#include "tsir-runtime/KernelArguments.h"
#include "tsir-runtime/ScalarSemantics.h"

#include <algorithm>

namespace tsir::rt {
namespace {

bool isNumber(const Value &value) {
  return value.isInt() || value.isDouble() || value.isBool();
}

double asDouble(const Value &value) {
  if (value.isDouble())
    return value.toDouble();
  if (value.isInt())
    return double(value.toInt());
  return value.toBool() ? 1.0 : 0.0;
}

int64_t asInt(const Value &value) {
  if (value.isInt())
    return value.toInt();
  if (value.isBool())
    return value.toBool();
  return scalar::floatToInt(value.toDouble());
}

/// A number: an int, a float or a bool.
StatusOr<Value> number(const Value &value) {
  if (!isNumber(value))
    return Status::error(std::string("expected a number, got ") +
                         value.kindName());
  return value;
}

/// `a op b`: bitwise operators on ints (bools stay bools), the others on
/// ints where both are ints and the operator keeps them ints, else on
/// doubles.
StatusOr<Value> arithmetic(scalar::BinaryOp op, const Value &a,
                           const Value &b) {
  std::string error;
  bool bitwise = op == scalar::BinaryOp::BitAnd ||
                 op == scalar::BinaryOp::BitOr ||
                 op == scalar::BinaryOp::BitXor;
  bool integers = !a.isDouble() && !b.isDouble();
  if (bitwise || (integers && op != scalar::BinaryOp::Div &&
                  op != scalar::BinaryOp::Pow)) {
    std::optional<int64_t> value =
        scalar::applyInt(op, asInt(a), asInt(b), &error);
    if (!value)
      return Status::error(error);
    if (bitwise && a.isBool() && b.isBool())
      return Value(*value != 0);
    return Value(*value);
  }
  std::optional<double> value =
      scalar::applyFloat(op, asDouble(a), asDouble(b), &error);
  if (!value)
    return Status::error(error);
  return Value(*value);
}

/// `a op b`: ints (and bools) exactly, anything with a float in double.
bool compare(scalar::CompareOp op, const Value &a, const Value &b) {
  if (!a.isDouble() && !b.isDouble())
    return scalar::applyCompare(op, asInt(a), asInt(b));
  return scalar::applyCompare(op, asDouble(a), asDouble(b));
}

/// Pops the two numbers of a binary operator.
StatusOr<std::pair<Value, Value>> popNumbers(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> args, popArgs(stack, 2));
  TSIR_RT_ASSIGN_OR_RETURN(Value a, number(args[0]));
  TSIR_RT_ASSIGN_OR_RETURN(Value b, number(args[1]));
  return std::make_pair(std::move(a), std::move(b));
}

/// The kernel of a binary operator on two numbers.
Kernel binaryKernel(scalar::BinaryOp op) {
  return [op](Stack &stack) -> Status {
    TSIR_RT_ASSIGN_OR_RETURN(auto operands, popNumbers(stack));
    TSIR_RT_ASSIGN_OR_RETURN(Value result,
                             arithmetic(op, operands.first, operands.second));
    push(stack, std::move(result));
    return Status::ok();
  };
}

/// The kernel of a comparison of two numbers.
Kernel compareKernel(scalar::CompareOp op) {
  return [op](Stack &stack) -> Status {
    TSIR_RT_ASSIGN_OR_RETURN(auto operands, popNumbers(stack));
    push(stack, Value(compare(op, operands.first, operands.second)));
    return Status::ok();
  };
}

StatusOr<Value> negate(Value value) {
  TSIR_RT_ASSIGN_OR_RETURN(Value in, number(value));
  if (in.isDouble())
    return Value(-in.toDouble());
  return Value(*scalar::applyInt(scalar::BinaryOp::Sub, 0, asInt(in)));
}

StatusOr<bool> logicalNot(bool value) { return !value; }

StatusOr<int64_t> toInt(Value value) {
  TSIR_RT_ASSIGN_OR_RETURN(Value in, number(value));
  return asInt(in);
}

StatusOr<double> toFloat(Value value) {
  TSIR_RT_ASSIGN_OR_RETURN(Value in, number(value));
  return asDouble(in);
}

StatusOr<bool> toBool(Value value) {
  TSIR_RT_ASSIGN_OR_RETURN(Value in, number(value));
  return in.isDouble() ? in.toDouble() != 0 : asInt(in) != 0;
}

StatusOr<bool> intListEq(std::vector<int64_t> a, std::vector<int64_t> b) {
  return a == b;
}
StatusOr<bool> intListNe(std::vector<int64_t> a, std::vector<int64_t> b) {
  return a != b;
}
StatusOr<bool> strEq(std::string a, std::string b) { return a == b; }
StatusOr<bool> strNe(std::string a, std::string b) { return a != b; }

StatusOr<Device> device(const Value &value) {
  if (!value.isDevice())
    return Status::error(std::string("expected a Device, got ") +
                         value.kindName());
  return value.toDevice();
}
StatusOr<bool> deviceEq(Value a, Value b) {
  TSIR_RT_ASSIGN_OR_RETURN(Device x, device(a));
  TSIR_RT_ASSIGN_OR_RETURN(Device y, device(b));
  return x == y;
}
StatusOr<bool> deviceNe(Value a, Value b) {
  TSIR_RT_ASSIGN_OR_RETURN(bool equal, deviceEq(a, b));
  return !equal;
}

/// `a is b`: None is one object; a list or dict is the same one only if
/// the two share it.
StatusOr<bool> isSame(Value a, Value b) {
  if (a.isNone() || b.isNone())
    return a.isNone() && b.isNone();
  if (a.isDict() && b.isDict())
    return &a.toDict() == &b.toDict();
  if (a.isList() && b.isList())
    return &a.toList() == &b.toList();
  return Status::error("tsir compares the identity of None, lists, dicts "
                       "and objects only");
}
StatusOr<bool> isNotSame(Value a, Value b) {
  TSIR_RT_ASSIGN_OR_RETURN(bool same, isSame(a, b));
  return !same;
}

void registerArithmetic(KernelRegistry &registry) {
  // The overloads torch 1.13 declares for each operator.
  struct Family {
    const char *name;
    std::initializer_list<const char *> overloads;
  };
  static const Family kBinary[] = {
      {"add", {"int", "float", "int_float", "float_int"}},
      {"sub", {"int", "float", "int_float", "float_int"}},
      {"mul", {"int", "float", "int_float", "float_int"}},
      {"div", {"int", "float"}},
      {"floordiv", {"int", "float", "int_float", "float_int"}},
      {"remainder", {"int", "float", "int_float", "float_int"}},
      {"pow", {"int", "float", "int_float", "float_int"}},
      {"__and__", {"int", "bool"}},
      {"__or__", {"int", "bool"}},
      {"__xor__", {"int", "bool"}},
  };
  static const Family kComparisons[] = {
      {"eq", {"int", "float", "int_float", "float_int", "bool"}},
      {"ne", {"int", "float", "int_float", "float_int", "bool"}},
      {"lt", {"int", "float", "int_float", "float_int"}},
      {"le", {"int", "float", "int_float", "float_int"}},
      {"gt", {"int", "float", "int_float", "float_int"}},
      {"ge", {"int", "float", "int_float", "float_int"}},
  };
  for (const Family &family : kBinary)
    for (const char *overload : family.overloads) {
      std::string name = std::string(family.name) + "." + overload;
      registry
          .registerKernel("aten::" + name,
                          binaryKernel(*scalar::binaryOpNamed(name)))
          .ignoreError();
    }
  for (const Family &family : kComparisons)
    for (const char *overload : family.overloads) {
      std::string name = std::string(family.name) + "." + overload;
      registry
          .registerKernel("aten::" + name,
                          compareKernel(*scalar::compareOpNamed(name)))
          .ignoreError();
    }
}

} // namespace

void registerScalarKernels(KernelRegistry &registry) {
  registerArithmetic(registry);
  registerKernelTable(
      registry,
      {
          {"aten::neg.int(int a) -> int", bindKernel(negate)},
          {"aten::neg.float(float a) -> float", bindKernel(negate)},
          // `-t.item()`: the int or float the Scalar holds, negated.
          {"aten::neg.Scalar(Scalar a) -> Scalar", bindKernel(negate)},
          {"aten::__not__(bool self) -> bool", bindKernel(logicalNot)},
          {"aten::Int.bool(bool a) -> int", bindKernel(toInt)},
          {"aten::Int.float(float a) -> int", bindKernel(toInt)},
          {"aten::Float.int(int a) -> float", bindKernel(toFloat)},
          {"aten::Float.bool(bool a) -> float", bindKernel(toFloat)},
          {"aten::Bool.int(int a) -> bool", bindKernel(toBool)},
          {"aten::Bool.float(float a) -> bool", bindKernel(toBool)},
          {"aten::eq.int_list(int[] a, int[] b) -> bool",
           bindKernel(intListEq)},
          {"aten::ne.int_list(int[] a, int[] b) -> bool",
           bindKernel(intListNe)},
          {"aten::eq.str(str a, str b) -> bool", bindKernel(strEq)},
          {"aten::ne.str(str a, str b) -> bool", bindKernel(strNe)},
          {"aten::eq.device(Device a, Device b) -> bool", bindKernel(deviceEq)},
          {"aten::ne.device(Device a, Device b) -> bool", bindKernel(deviceNe)},
          {"aten::__is__(t1 self, t2 obj) -> bool", bindKernel(isSame)},
          {"aten::__isnot__(t1 self, t2 obj) -> bool", bindKernel(isNotSame)},
      });
}

} // namespace tsir::rt
