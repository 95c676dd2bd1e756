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

#include <algorithm>

namespace tsir::rt {

namespace {
/// A `t[]` argument: popList's error for any other kind of Value.
Status requireList(const Value &value) {
  if (value.isList())
    return Status::ok();
  return Status::error(std::string("expected an argument of type ") +
                       Value::kindName(Value::Kind::List) + ", got " +
                       value.kindName());
}

StatusOr<int64_t> len(const Value &list) {
  TSIR_RT_RETURN_IF_ERROR(requireList(list));
  return static_cast<int64_t>(list.toList().size());
}

StatusOr<Value> append(const Value &list, Value element) {
  TSIR_RT_RETURN_IF_ERROR(requireList(list));
  list.toList().push_back(std::move(element));
  return list;
}

StatusOr<Value> getItem(const Value &list, int64_t index) {
  TSIR_RT_RETURN_IF_ERROR(requireList(list));
  const std::vector<Value> &elements = list.toList();
  int64_t size = static_cast<int64_t>(elements.size());
  if (index < -size || index >= size)
    return Status::error("list index out of range (index " +
                         std::to_string(index) + ", length " +
                         std::to_string(size) + ")");
  return elements[index < 0 ? index + size : index];
}
Status indexError(const char *what, int64_t index, int64_t size) {
  return Status::error(std::string(what) + " index out of range (index " +
                       std::to_string(index) + ", length " +
                       std::to_string(size) + ")");
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

StatusOr<NoResult> extend(const Value &self, const Value &other) {
  TSIR_RT_RETURN_IF_ERROR(requireList(other));
  TSIR_RT_RETURN_IF_ERROR(requireList(self));
  std::vector<Value> copy = other.toList(); // other may alias self
  auto &elements = self.toList();
  elements.insert(elements.end(), copy.begin(), copy.end());
  return NoResult();
}

StatusOr<NoResult> insert(const Value &self, int64_t index, Value element) {
  TSIR_RT_RETURN_IF_ERROR(requireList(self));
  auto &elements = self.toList();
  int64_t size = static_cast<int64_t>(elements.size());
  // Python clamps out-of-range insert positions.
  if (index < 0)
    index = std::max<int64_t>(index + size, 0);
  index = std::min(index, size);
  elements.insert(elements.begin() + index, std::move(element));
  return NoResult();
}

StatusOr<Value> popKernel(const Value &self, int64_t index) {
  TSIR_RT_RETURN_IF_ERROR(requireList(self));
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
  return result;
}

StatusOr<Value> setItem(const Value &self, int64_t index, Value element) {
  TSIR_RT_RETURN_IF_ERROR(requireList(self));
  auto &elements = self.toList();
  int64_t size = static_cast<int64_t>(elements.size());
  if (index < -size || index >= size)
    return indexError("list", index, size);
  elements[index < 0 ? index + size : index] = std::move(element);
  return self;
}

StatusOr<Value> copyList(const Value &self) {
  TSIR_RT_RETURN_IF_ERROR(requireList(self));
  return Value::list(self.toList());
}

StatusOr<NoResult> clear(const Value &self) {
  TSIR_RT_RETURN_IF_ERROR(requireList(self));
  self.toList().clear();
  return NoResult();
}

StatusOr<Value> addLists(const Value &a, const Value &b) {
  TSIR_RT_RETURN_IF_ERROR(requireList(b));
  TSIR_RT_RETURN_IF_ERROR(requireList(a));
  std::vector<Value> elements = a.toList();
  const auto &tail = b.toList();
  elements.insert(elements.end(), tail.begin(), tail.end());
  return Value::list(std::move(elements));
}

StatusOr<Value> sliceList(const Value &list, std::optional<int64_t> start,
                          std::optional<int64_t> end, int64_t step) {
  TSIR_RT_RETURN_IF_ERROR(requireList(list));
  const auto &elements = list.toList();
  TSIR_RT_ASSIGN_OR_RETURN(
      std::vector<int64_t> indices,
      sliceIndices(start, end, step, static_cast<int64_t>(elements.size())));
  std::vector<Value> result;
  result.reserve(indices.size());
  for (int64_t i : indices)
    result.push_back(elements[i]);
  return Value::list(std::move(result));
}

StatusOr<Value> mulList(const Value &list, int64_t n) {
  TSIR_RT_RETURN_IF_ERROR(requireList(list));
  const auto &elements = list.toList();
  std::vector<Value> result;
  if (n > 0) {
    result.reserve(elements.size() * static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      result.insert(result.end(), elements.begin(), elements.end());
  }
  return Value::list(std::move(result));
}

StatusOr<bool> containsFloat(const Value &list, double item) {
  TSIR_RT_RETURN_IF_ERROR(requireList(list));
  bool found = false;
  for (const Value &element : list.toList()) {
    double d = element.isInt() ? static_cast<double>(element.toInt())
                               : element.toDouble();
    if (d == item) {
      found = true;
      break;
    }
  }
  return found;
}

// int_list has its own kernel: a bare `__contains__` name matches any
// registered overload, and the float one would reject an int item.
StatusOr<bool> containsInt(const Value &list, int64_t item) {
  TSIR_RT_RETURN_IF_ERROR(requireList(list));
  bool found = false;
  for (const Value &element : list.toList())
    if (element.isInt() && element.toInt() == item) {
      found = true;
      break;
    }
  return found;
}

// sum() of an int or float list, and list.index() of an int.
StatusOr<int64_t> sumInt(const Value &list) {
  TSIR_RT_RETURN_IF_ERROR(requireList(list));
  int64_t total = 0;
  for (const Value &element : list.toList())
    total += element.toInt();
  return total;
}

StatusOr<double> sumFloat(const Value &list) {
  TSIR_RT_RETURN_IF_ERROR(requireList(list));
  double total = 0;
  for (const Value &element : list.toList())
    total += element.isInt() ? double(element.toInt()) : element.toDouble();
  return total;
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

template <bool IsMin>
StatusOr<Value> extremumOfTwo(const Value &a, const Value &b) {
  return pick<IsMin>(a, b);
}

/// `min(l)`/`max(l)` of an int, float or bool list: Python's, which
/// raises on an empty list.
template <bool IsMin> StatusOr<Value> extremumOfList(const Value &list) {
  TSIR_RT_RETURN_IF_ERROR(requireList(list));
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
  return best;
}

StatusOr<int64_t> indexOfInt(const Value &list, int64_t item) {
  TSIR_RT_RETURN_IF_ERROR(requireList(list));
  const std::vector<Value> &elements = list.toList();
  for (size_t i = 0; i < elements.size(); ++i)
    if (elements[i].isInt() && elements[i].toInt() == item)
      return static_cast<int64_t>(i);
  return Status::error("ValueError: '" + std::to_string(item) +
                       "' is not in list");
}

// Strings are byte strings here; TorchScript's str indexing is by code
// point, which agrees for ASCII.
/// `device.type`: "cpu" or "cuda", without the index.
StatusOr<std::string> deviceType(const Value &device) {
  if (!device.isDevice())
    return Status::error(std::string("expected a Device, got ") +
                         device.kindName());
  return std::string(device.toDevice().isCUDA() ? "cuda" : "cpu");
}

StatusOr<int64_t> lenStr(const std::string &s) {
  return static_cast<int64_t>(s.size());
}

StatusOr<std::string> getItemStr(const std::string &s, int64_t index) {
  int64_t size = static_cast<int64_t>(s.size());
  if (index < -size || index >= size)
    return Status::error("string index out of range (index " +
                         std::to_string(index) + ", length " +
                         std::to_string(size) + ")");
  return std::string(1, s[index < 0 ? index + size : index]);
}

StatusOr<std::string> str(const Value &value) {
  std::string out;
  printValue(out, value, /*quoteStrings=*/false, /*tensorData=*/true);
  return out;
}
} // namespace

void registerListKernels(KernelRegistry &registry) {
  registerKernelTable(
      registry,
      {
          {"aten::len.t(t[] a) -> int", bindKernel(len)},
          {"aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)",
           bindKernel(append)},
          {"aten::__getitem__.t(t[](a) list, int idx) -> t(*)",
           bindKernel(getItem)},
          {"aten::extend.t(t[](a!) self, t[] other) -> ()", bindKernel(extend)},
          {"aten::insert.t(t[](a!) self, int idx, t(b -> *) el) -> ()",
           bindKernel(insert)},
          {"aten::pop.t(t[](a!) self, int idx=-1) -> t(*)",
           bindKernel(popKernel)},
          {"aten::_set_item.t(t[](a!) l, int idx, t(b -> *) el) -> t[](a!)",
           bindKernel(setItem)},
          {"aten::list.t(t[] l) -> t[]", bindKernel(copyList)},
          {"aten::copy.t(t[](a) self) -> t[]", bindKernel(copyList)},
          {"aten::clear.t(t[](a!) self) -> ()", bindKernel(clear)},
          {"aten::add.t(t[] a, t[] b) -> t[]", bindKernel(addLists)},
          {"aten::slice.t(t[] l, int? start=None, int? end=None, int step=1) "
           "-> t[]",
           bindKernel(sliceList)},
          {"aten::mul.left_t(t[] l, int n) -> t[]", bindKernel(mulList)},
          {"aten::__contains__.int_list(int[] l, int item) -> bool",
           bindKernel(containsInt)},
          {"aten::__contains__.float_list(float[] l, float item) -> bool",
           bindKernel(containsFloat)},
          {"aten::sum.int(int[] self) -> int", bindKernel(sumInt)},
          {"aten::sum.float(float[] self) -> float", bindKernel(sumFloat)},
          {"prim::min.self_int(int[] self) -> int",
           bindKernel(extremumOfList<true>)},
          {"prim::max.self_int(int[] self) -> int",
           bindKernel(extremumOfList<false>)},
          {"prim::min.self_float(float[] self) -> float",
           bindKernel(extremumOfList<true>)},
          {"prim::max.self_float(float[] self) -> float",
           bindKernel(extremumOfList<false>)},
          {"prim::min.self_bool(bool[] self) -> bool",
           bindKernel(extremumOfList<true>)},
          {"prim::max.self_bool(bool[] self) -> bool",
           bindKernel(extremumOfList<false>)},
          {"prim::min.int(int a, int b) -> int",
           bindKernel(extremumOfTwo<true>)},
          {"prim::max.int(int a, int b) -> int",
           bindKernel(extremumOfTwo<false>)},
          {"prim::min.float(float a, float b) -> float",
           bindKernel(extremumOfTwo<true>)},
          {"prim::max.float(float a, float b) -> float",
           bindKernel(extremumOfTwo<false>)},
          {"prim::min.int_float(int a, float b) -> float",
           bindKernel(extremumOfTwo<true>)},
          {"prim::max.int_float(int a, float b) -> float",
           bindKernel(extremumOfTwo<false>)},
          {"prim::min.float_int(float a, int b) -> float",
           bindKernel(extremumOfTwo<true>)},
          {"prim::max.float_int(float a, int b) -> float",
           bindKernel(extremumOfTwo<false>)},
          {"aten::index.list_int(int[] self, int el) -> int",
           bindKernel(indexOfInt)},
          {"aten::len.str(str s) -> int", bindKernel(lenStr)},
          {"prim::type(Device self) -> str", bindKernel(deviceType)},
          {"aten::__getitem__.str(str s, int index) -> str",
           bindKernel(getItemStr)},
          {"aten::str(t elem) -> str", bindKernel(str)},
      });
}

} // namespace tsir::rt
