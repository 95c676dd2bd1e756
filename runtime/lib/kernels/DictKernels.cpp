//===- DictKernels.cpp - Builtin kernels on TorchScript dicts -------------===//
//
// Reading and writing dicts (`Dict(str, t)` and the other key types):
// dict(), __getitem__, _set_item, __contains__, get, len, keys, values,
// items and update. Dicts
// keep insertion order and are shared by reference, as in TorchScript;
// keys compare by value (strings, ints, floats, bools) or by identity
// (tensors), see Value::sameKey.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "KernelSupport.h"

namespace tsir::rt {

namespace {

/// The dict argument of a lookup, checked.
Status requireDict(const Value &dict, const char *op) {
  if (!dict.isDict())
    return Status::error(std::string(op) + ": expected a Dict, got " +
                         dict.kindName());
  return Status::ok();
}

Value::DictEntries::iterator find(Value::DictEntries &entries,
                                  const Value &key) {
  for (auto it = entries.begin(); it != entries.end(); ++it)
    if (Value::sameKey(it->first, key))
      return it;
  return entries.end();
}

StatusOr<Value> getItem(const Value &dict, const Value &key) {
  TSIR_RT_RETURN_IF_ERROR(requireDict(dict, "__getitem__"));
  Value::DictEntries &entries = dict.toDict();
  auto it = find(entries, key);
  if (it == entries.end())
    return Status::error("KeyError: " + key.toString());
  return it->second;
}

/// get(key): the value, or None when the key is missing.
StatusOr<Value> getOrNone(const Value &dict, const Value &key) {
  TSIR_RT_RETURN_IF_ERROR(requireDict(dict, "get"));
  Value::DictEntries &entries = dict.toDict();
  auto it = find(entries, key);
  return it == entries.end() ? Value::none() : it->second;
}

StatusOr<bool> contains(const Value &dict, const Value &key) {
  TSIR_RT_RETURN_IF_ERROR(requireDict(dict, "__contains__"));
  Value::DictEntries &entries = dict.toDict();
  return find(entries, key) != entries.end();
}

/// _set_item(dict, key, value): replaces the value of an existing key in
/// place (keeping its position) or appends the entry.
StatusOr<NoResult> setItem(const Value &dict, Value key, Value value) {
  TSIR_RT_RETURN_IF_ERROR(requireDict(dict, "_set_item"));
  Value::DictEntries &entries = dict.toDict();
  auto it = find(entries, key);
  if (it != entries.end())
    it->second = std::move(value);
  else
    entries.emplace_back(std::move(key), std::move(value));
  return NoResult();
}

/// len, keys, values and items of a dict.
template <int What> StatusOr<Value> project(const Value &dict) {
  if (!dict.isDict())
    return Status::error(std::string("expected a Dict, got ") +
                         dict.kindName());
  Value::DictEntries &entries = dict.toDict();
  if (What == 0)
    return Value(static_cast<int64_t>(entries.size()));
  std::vector<Value> elements;
  for (const auto &[key, value] : entries)
    elements.push_back(What == 1   ? key
                       : What == 2 ? value
                                   : Value::tuple({key, value}));
  return Value::list(std::move(elements));
}

/// d.update(other): each of other's entries replaces d's value of its key
/// in place, or is appended.
StatusOr<NoResult> update(const Value &dict, const Value &other) {
  if (!dict.isDict() || !other.isDict())
    return Status::error("update: expected two Dicts");
  Value::DictEntries &entries = dict.toDict();
  for (const auto &[key, value] : other.toDict()) {
    auto it = find(entries, key);
    if (it != entries.end())
      it->second = value;
    else
      entries.emplace_back(key, value);
  }
  return NoResult();
}

/// dict(): an empty dict; dict(pairs): one from a list of (key, value)
/// tuples, a repeated key taking the last value in its first place;
/// dict(d): a shallow copy.
StatusOr<Value> emptyDict() { return Value::dict(); }

StatusOr<Value> makeDict(const Value &from) {
  Value dict = Value::dict();
  if (from.isDict()) {
    dict.toDict() = from.toDict();
    return dict;
  }
  if (!from.isList())
    return Status::error(std::string("dict: expected a list of pairs or a "
                                     "Dict, got ") +
                         from.kindName());
  Value::DictEntries &entries = dict.toDict();
  for (const Value &pair : from.toList()) {
    if (!pair.isTuple() || pair.toTuple().size() != 2)
      return Status::error("dict: each element must be a (key, value) tuple");
    const Value &key = pair.toTuple()[0];
    auto it = find(entries, key);
    if (it != entries.end())
      it->second = pair.toTuple()[1];
    else
      entries.emplace_back(key, pair.toTuple()[1]);
  }
  return dict;
}

} // namespace

void registerDictKernels(KernelRegistry &registry) {
  Kernel dict = byArgumentCount(1, bindKernel(makeDict), bindKernel(emptyDict));
  // One kernel per operation serves every key type's overload.
  for (const char *keyType : {"str", "int", "bool", "float", "Tensor"}) {
    std::string key = keyType;
    std::string dictKey = "Dict_" + key;
    registerKernelTable(
        registry,
        {{("aten::__getitem__." + dictKey).c_str(), bindKernel(getItem)},
         {("aten::_set_item." + key).c_str(), bindKernel(setItem)},
         {("aten::__contains__." + key).c_str(), bindKernel(contains)},
         {("aten::get." + key).c_str(), bindKernel(getOrNone)},
         {("aten::len." + dictKey).c_str(), bindKernel(project<0>)},
         {("aten::keys." + key).c_str(), bindKernel(project<1>)},
         {("aten::values." + key).c_str(), bindKernel(project<2>)},
         {("aten::items." + key).c_str(), bindKernel(project<3>)},
         {("aten::update." + key).c_str(), bindKernel(update)},
         {("aten::dict." + key).c_str(), dict},
         {("aten::dict.Dict_" + key).c_str(), dict}});
  }
  registerKernelTable(registry, {
                                    {"aten::dict", dict},
                                });
}

} // namespace tsir::rt
