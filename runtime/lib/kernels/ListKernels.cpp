//===- ListKernels.cpp - Builtin kernels on lists and strings -------------===//
//
// TorchScript's generic list operators (len, append, __getitem__, extend,
// insert, pop, _set_item, list, copy, clear, add, slice, mul),
// __contains__, sum and index on int and float lists, prim::min/max of two
// numbers and of a list, the string operators len, __getitem__ and str,
// and a device's type. Lists are shared, so the mutating
// operators change the caller's list in place, as TorchScript's aliasing
// rules expect.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "KernelSupport.h"
#include "tsir-runtime/Stack.h"

#include <algorithm>

namespace tsir::rt {

namespace {
Status len(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value list, popList(stack));
  push(stack, static_cast<int64_t>(list.toList().size()));
  return Status::ok();
}

Status append(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value element, pop(stack));
  TSIR_RT_ASSIGN_OR_RETURN(Value list, popList(stack));
  list.toList().push_back(std::move(element));
  push(stack, std::move(list));
  return Status::ok();
}

Status getItem(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t index, popInt(stack));
  TSIR_RT_ASSIGN_OR_RETURN(Value list, popList(stack));
  const std::vector<Value> &elements = list.toList();
  int64_t size = static_cast<int64_t>(elements.size());
  if (index < -size || index >= size)
    return Status::error("list index out of range (index " +
                         std::to_string(index) + ", length " +
                         std::to_string(size) + ")");
  push(stack, elements[index < 0 ? index + size : index]);
  return Status::ok();
}
Status indexError(const char *what, int64_t index, int64_t size) {
  return Status::error(std::string(what) + " index out of range (index " +
                       std::to_string(index) + ", length " +
                       std::to_string(size) + ")");
}

/// Pops an `int?`: nullopt for None.
StatusOr<std::optional<int64_t>> popOptionalInt(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value value, pop(stack));
  if (value.isNone())
    return std::optional<int64_t>();
  if (!value.isInt())
    return Status::error(std::string("expected int or None, got ") +
                         value.kindName());
  return std::optional<int64_t>(value.toInt());
}

/// Python's slice normalization for a sequence of `size`: the indices
/// selected by [start:end:step].
StatusOr<std::vector<int64_t>> sliceIndices(std::optional<int64_t> start,
                                            std::optional<int64_t> end,
                                            int64_t step, int64_t size) {
  if (step == 0)
    return Status::error("slice step cannot be zero");
  int64_t lo, hi;
  if (step > 0) {
    lo = start ? *start : 0;
    hi = end ? *end : size;
    if (lo < 0)
      lo = std::max<int64_t>(lo + size, 0);
    if (hi < 0)
      hi = std::max<int64_t>(hi + size, 0);
    lo = std::min(lo, size);
    hi = std::min(hi, size);
  } else {
    lo = start ? *start : size - 1;
    hi = end ? *end : -size - 1;
    if (lo < 0)
      lo = std::max<int64_t>(lo + size, -1);
    else
      lo = std::min(lo, size - 1);
    if (hi < 0)
      hi = std::max<int64_t>(hi + size, -1);
    else
      hi = std::min(hi, size - 1);
  }
  std::vector<int64_t> indices;
  if (step > 0)
    for (int64_t i = lo; i < hi; i += step)
      indices.push_back(i);
  else
    for (int64_t i = lo; i > hi; i += step)
      indices.push_back(i);
  return indices;
}

Status extend(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value other, popList(stack));
  TSIR_RT_ASSIGN_OR_RETURN(Value self, popList(stack));
  std::vector<Value> copy = other.toList(); // other may alias self
  auto &elements = self.toList();
  elements.insert(elements.end(), copy.begin(), copy.end());
  return Status::ok();
}

Status insert(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value element, pop(stack));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t index, popInt(stack));
  TSIR_RT_ASSIGN_OR_RETURN(Value self, popList(stack));
  auto &elements = self.toList();
  int64_t size = static_cast<int64_t>(elements.size());
  // Python clamps out-of-range insert positions.
  if (index < 0)
    index = std::max<int64_t>(index + size, 0);
  index = std::min(index, size);
  elements.insert(elements.begin() + index, std::move(element));
  return Status::ok();
}

Status popKernel(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t index, popInt(stack));
  TSIR_RT_ASSIGN_OR_RETURN(Value self, popList(stack));
  auto &elements = self.toList();
  int64_t size = static_cast<int64_t>(elements.size());
  if (size == 0)
    return Status::error("pop from empty list");
  if (index < -size || index >= size)
    return indexError("pop", index, size);
  if (index < 0)
    index += size;
  Value result = elements[index];
  elements.erase(elements.begin() + index);
  push(stack, std::move(result));
  return Status::ok();
}

Status setItem(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value element, pop(stack));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t index, popInt(stack));
  TSIR_RT_ASSIGN_OR_RETURN(Value self, popList(stack));
  auto &elements = self.toList();
  int64_t size = static_cast<int64_t>(elements.size());
  if (index < -size || index >= size)
    return indexError("list", index, size);
  elements[index < 0 ? index + size : index] = std::move(element);
  push(stack, std::move(self));
  return Status::ok();
}

Status copyList(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value self, popList(stack));
  push(stack, Value::list(self.toList()));
  return Status::ok();
}

Status clear(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value self, popList(stack));
  self.toList().clear();
  return Status::ok();
}

Status addLists(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value b, popList(stack));
  TSIR_RT_ASSIGN_OR_RETURN(Value a, popList(stack));
  std::vector<Value> elements = a.toList();
  const auto &tail = b.toList();
  elements.insert(elements.end(), tail.begin(), tail.end());
  push(stack, Value::list(std::move(elements)));
  return Status::ok();
}

Status sliceList(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t step, popInt(stack));
  TSIR_RT_ASSIGN_OR_RETURN(std::optional<int64_t> end, popOptionalInt(stack));
  TSIR_RT_ASSIGN_OR_RETURN(std::optional<int64_t> start,
                           popOptionalInt(stack));
  TSIR_RT_ASSIGN_OR_RETURN(Value list, popList(stack));
  const auto &elements = list.toList();
  TSIR_RT_ASSIGN_OR_RETURN(
      std::vector<int64_t> indices,
      sliceIndices(start, end, step, static_cast<int64_t>(elements.size())));
  std::vector<Value> result;
  result.reserve(indices.size());
  for (int64_t i : indices)
    result.push_back(elements[i]);
  push(stack, Value::list(std::move(result)));
  return Status::ok();
}

Status mulList(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t n, popInt(stack));
  TSIR_RT_ASSIGN_OR_RETURN(Value list, popList(stack));
  const auto &elements = list.toList();
  std::vector<Value> result;
  if (n > 0) {
    result.reserve(elements.size() * static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      result.insert(result.end(), elements.begin(), elements.end());
  }
  push(stack, Value::list(std::move(result)));
  return Status::ok();
}

Status containsFloat(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(double item, popDouble(stack));
  TSIR_RT_ASSIGN_OR_RETURN(Value list, popList(stack));
  bool found = false;
  for (const Value &element : list.toList()) {
    double d = element.isInt() ? static_cast<double>(element.toInt())
                               : element.toDouble();
    if (d == item) {
      found = true;
      break;
    }
  }
  push(stack, found);
  return Status::ok();
}

// int_list has its own kernel: a bare `__contains__` name matches any
// registered overload, and the float one would reject an int item.
Status containsInt(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t item, popInt(stack));
  TSIR_RT_ASSIGN_OR_RETURN(Value list, popList(stack));
  bool found = false;
  for (const Value &element : list.toList())
    if (element.isInt() && element.toInt() == item) {
      found = true;
      break;
    }
  push(stack, found);
  return Status::ok();
}

// sum() of an int or float list, and list.index() of an int.
Status sumInt(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value list, popList(stack));
  int64_t total = 0;
  for (const Value &element : list.toList())
    total += element.toInt();
  push(stack, total);
  return Status::ok();
}

Status sumFloat(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value list, popList(stack));
  double total = 0;
  for (const Value &element : list.toList())
    total += element.isInt() ? double(element.toInt()) : element.toDouble();
  push(stack, total);
  return Status::ok();
}

/// TorchScript's `prim::min`/`prim::max` of two numbers: `a < b ? a : b`
/// (`a > b ? a : b`), an int when both are ints, else a float compared in
/// double (so a NaN second operand wins).
template <bool IsMin> Value pick(const Value &a, const Value &b) {
  auto number = [](const Value &v) {
    return v.isInt() ? double(v.toInt()) : v.isBool() ? double(v.toBool())
                                                      : v.toDouble();
  };
  if (a.isInt() && b.isInt())
    return (IsMin ? a.toInt() < b.toInt() : a.toInt() > b.toInt()) ? a : b;
  double x = number(a), y = number(b);
  return Value((IsMin ? x < y : x > y) ? x : y);
}

template <bool IsMin> Status extremumOfTwo(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> args, popArgs(stack, 2));
  push(stack, pick<IsMin>(args[0], args[1]));
  return Status::ok();
}

/// `min(l)`/`max(l)` of an int, float or bool list: Python's, which
/// raises on an empty list.
template <bool IsMin> Status extremumOfList(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value list, popList(stack));
  const std::vector<Value> &elements = list.toList();
  if (elements.empty())
    return Status::error(std::string(IsMin ? "min" : "max") +
                         "() arg is an empty sequence");
  Value best = elements.front();
  for (const Value &element : elements)
    if (element.isBool() && best.isBool())
      best = Value(IsMin ? best.toBool() && element.toBool()
                         : best.toBool() || element.toBool());
    else
      best = pick<IsMin>(best, element);
  push(stack, best);
  return Status::ok();
}

Status indexOfInt(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t item, popInt(stack));
  TSIR_RT_ASSIGN_OR_RETURN(Value list, popList(stack));
  const std::vector<Value> &elements = list.toList();
  for (size_t i = 0; i < elements.size(); ++i)
    if (elements[i].isInt() && elements[i].toInt() == item) {
      push(stack, static_cast<int64_t>(i));
      return Status::ok();
    }
  return Status::error("ValueError: '" + std::to_string(item) +
                       "' is not in list");
}

// Strings are byte strings here; TorchScript's str indexing is by code
// point, which agrees for ASCII.
/// `device.type`: "cpu" or "cuda", without the index.
Status deviceType(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value device, pop(stack));
  if (!device.isDevice())
    return Status::error(std::string("expected a Device, got ") +
                         device.kindName());
  push(stack, std::string(device.toDevice().isCUDA() ? "cuda" : "cpu"));
  return Status::ok();
}

Status lenStr(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(std::string s, popString(stack));
  push(stack, static_cast<int64_t>(s.size()));
  return Status::ok();
}

Status getItemStr(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t index, popInt(stack));
  TSIR_RT_ASSIGN_OR_RETURN(std::string s, popString(stack));
  int64_t size = static_cast<int64_t>(s.size());
  if (index < -size || index >= size)
    return Status::error("string index out of range (index " +
                         std::to_string(index) + ", length " +
                         std::to_string(size) + ")");
  push(stack, std::string(1, s[index < 0 ? index + size : index]));
  return Status::ok();
}

Status str(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value value, pop(stack));
  std::string out;
  printValue(out, value, /*quoteStrings=*/false, /*tensorData=*/true);
  push(stack, std::move(out));
  return Status::ok();
}
} // namespace

void registerListKernels(KernelRegistry &registry) {
  registry.registerKernel("aten::len.t", len, "aten::len.t(t[] a) -> int")
      .ignoreError();
  registry
      .registerKernel("aten::append.t", append,
                      "aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)")
      .ignoreError();
  registry
      .registerKernel("aten::__getitem__.t", getItem,
                      "aten::__getitem__.t(t[](a) list, int idx) -> t(*)")
      .ignoreError();
  registerKernelTable(registry, {
      {"aten::extend.t", extend,
       "aten::extend.t(t[](a!) self, t[] other) -> ()"},
      {"aten::insert.t", insert,
       "aten::insert.t(t[](a!) self, int idx, t(b -> *) el) -> ()"},
      {"aten::pop.t", popKernel,
       "aten::pop.t(t[](a!) self, int idx=-1) -> t(*)"},
      {"aten::_set_item.t", setItem,
       "aten::_set_item.t(t[](a!) l, int idx, t(b -> *) el) -> t[](a!)"},
      {"aten::list.t", copyList, "aten::list.t(t[] l) -> t[]"},
      {"aten::copy.t", copyList, "aten::copy.t(t[](a) self) -> t[]"},
      {"aten::clear.t", clear, "aten::clear.t(t[](a!) self) -> ()"},
      {"aten::add.t", addLists, "aten::add.t(t[] a, t[] b) -> t[]"},
      {"aten::slice.t", sliceList,
       "aten::slice.t(t[] l, int? start=None, int? end=None, int step=1) -> "
       "t[]"},
      {"aten::mul.left_t", mulList, "aten::mul.left_t(t[] l, int n) -> t[]"},
      {"aten::__contains__.int_list", containsInt,
       "aten::__contains__.int_list(int[] l, int item) -> bool"},
      {"aten::__contains__.float_list", containsFloat,
       "aten::__contains__.float_list(float[] l, float item) -> bool"},
      {"aten::sum.int", sumInt, "aten::sum.int(int[] self) -> int"},
      {"aten::sum.float", sumFloat, "aten::sum.float(float[] self) -> float"},
      {"prim::min.self_int", extremumOfList<true>,
       "prim::min.self_int(int[] self) -> int"},
      {"prim::max.self_int", extremumOfList<false>,
       "prim::max.self_int(int[] self) -> int"},
      {"prim::min.self_float", extremumOfList<true>,
       "prim::min.self_float(float[] self) -> float"},
      {"prim::max.self_float", extremumOfList<false>,
       "prim::max.self_float(float[] self) -> float"},
      {"prim::min.self_bool", extremumOfList<true>,
       "prim::min.self_bool(bool[] self) -> bool"},
      {"prim::max.self_bool", extremumOfList<false>,
       "prim::max.self_bool(bool[] self) -> bool"},
      {"prim::min.int", extremumOfTwo<true>, "prim::min.int(int a, int b) -> int"},
      {"prim::max.int", extremumOfTwo<false>, "prim::max.int(int a, int b) -> int"},
      {"prim::min.float", extremumOfTwo<true>,
       "prim::min.float(float a, float b) -> float"},
      {"prim::max.float", extremumOfTwo<false>,
       "prim::max.float(float a, float b) -> float"},
      {"prim::min.int_float", extremumOfTwo<true>,
       "prim::min.int_float(int a, float b) -> float"},
      {"prim::max.int_float", extremumOfTwo<false>,
       "prim::max.int_float(int a, float b) -> float"},
      {"prim::min.float_int", extremumOfTwo<true>,
       "prim::min.float_int(float a, int b) -> float"},
      {"prim::max.float_int", extremumOfTwo<false>,
       "prim::max.float_int(float a, int b) -> float"},
      {"aten::index.list_int", indexOfInt,
       "aten::index.list_int(int[] self, int el) -> int"},
      {"aten::len.str", lenStr, "aten::len.str(str s) -> int"},
      {"prim::type", deviceType, "prim::type(Device self) -> str"},
      {"aten::__getitem__.str", getItemStr,
       "aten::__getitem__.str(str s, int index) -> str"},
      {"aten::str", str, "aten::str(t elem) -> str"},
  });
}

} // namespace tsir::rt
