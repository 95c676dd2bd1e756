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

/// The dict and key arguments of a lookup.
StatusOr<std::pair<Value, Value>> dictAndKey(Stack &stack, const char *op) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> args, popArgs(stack, 2));
  if (!args[0].isDict())
    return Status::error(std::string(op) + ": expected a Dict, got " +
                         args[0].kindName());
  return std::make_pair(std::move(args[0]), std::move(args[1]));
}

Value::DictEntries::iterator find(Value::DictEntries &entries,
                                  const Value &key) {
  for (auto it = entries.begin(); it != entries.end(); ++it)
    if (Value::sameKey(it->first, key))
      return it;
  return entries.end();
}

Status getItem(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(auto dictKey, dictAndKey(stack, "__getitem__"));
  Value::DictEntries &entries = dictKey.first.toDict();
  auto it = find(entries, dictKey.second);
  if (it == entries.end())
    return Status::error("KeyError: " + dictKey.second.toString());
  push(stack, it->second);
  return Status::ok();
}

/// get(key): the value, or None when the key is missing.
Status getOrNone(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(auto dictKey, dictAndKey(stack, "get"));
  Value::DictEntries &entries = dictKey.first.toDict();
  auto it = find(entries, dictKey.second);
  push(stack, it == entries.end() ? Value::none() : it->second);
  return Status::ok();
}

Status contains(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(auto dictKey, dictAndKey(stack, "__contains__"));
  Value::DictEntries &entries = dictKey.first.toDict();
  push(stack, Value(find(entries, dictKey.second) != entries.end()));
  return Status::ok();
}

/// _set_item(dict, key, value): replaces the value of an existing key in
/// place (keeping its position) or appends the entry.
Status setItem(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> args, popArgs(stack, 3));
  if (!args[0].isDict())
    return Status::error(std::string("_set_item: expected a Dict, got ") +
                         args[0].kindName());
  Value::DictEntries &entries = args[0].toDict();
  auto it = find(entries, args[1]);
  if (it != entries.end())
    it->second = std::move(args[2]);
  else
    entries.emplace_back(std::move(args[1]), std::move(args[2]));
  return Status::ok();
}

/// len, keys, values and items of a dict.
template <int What> Status project(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> args, popArgs(stack, 1));
  if (!args[0].isDict())
    return Status::error(std::string("expected a Dict, got ") +
                         args[0].kindName());
  Value::DictEntries &entries = args[0].toDict();
  if (What == 0) {
    push(stack, Value(static_cast<int64_t>(entries.size())));
    return Status::ok();
  }
  std::vector<Value> elements;
  for (const auto &[key, value] : entries)
    elements.push_back(What == 1   ? key
                       : What == 2 ? value
                                   : Value::tuple({key, value}));
  push(stack, Value::list(std::move(elements)));
  return Status::ok();
}

/// d.update(other): each of other's entries replaces d's value of its key
/// in place, or is appended.
Status update(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> args, popArgs(stack, 2));
  if (!args[0].isDict() || !args[1].isDict())
    return Status::error("update: expected two Dicts");
  Value::DictEntries &entries = args[0].toDict();
  for (const auto &[key, value] : args[1].toDict()) {
    auto it = find(entries, key);
    if (it != entries.end())
      it->second = value;
    else
      entries.emplace_back(key, value);
  }
  return Status::ok();
}

/// dict(): an empty dict; dict(pairs): one from a list of (key, value)
/// tuples, a repeated key taking the last value in its first place;
/// dict(d): a shallow copy.
Status makeDict(Stack &stack) {
  Value dict = Value::dict();
  if (stack.empty()) {
    push(stack, std::move(dict));
    return Status::ok();
  }
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> args, popArgs(stack, 1));
  if (args[0].isDict()) {
    dict.toDict() = args[0].toDict();
    push(stack, std::move(dict));
    return Status::ok();
  }
  if (!args[0].isList())
    return Status::error(std::string("dict: expected a list of pairs or a "
                                     "Dict, got ") +
                         args[0].kindName());
  Value::DictEntries &entries = dict.toDict();
  for (const Value &pair : args[0].toList()) {
    if (!pair.isTuple() || pair.toTuple().size() != 2)
      return Status::error("dict: each element must be a (key, value) tuple");
    const Value &key = pair.toTuple()[0];
    auto it = find(entries, key);
    if (it != entries.end())
      it->second = pair.toTuple()[1];
    else
      entries.emplace_back(key, pair.toTuple()[1]);
  }
  push(stack, std::move(dict));
  return Status::ok();
}

} // namespace

void registerDictKernels(KernelRegistry &registry) {
  // One kernel per operation serves every key type's overload.
  for (const char *keyType : {"str", "int", "bool", "float", "Tensor"}) {
    std::string key = keyType;
    std::string dictKey = "Dict_" + key;
    registerKernelTable(
        registry,
        {{("aten::__getitem__." + dictKey).c_str(), getItem, ""},
         {("aten::_set_item." + key).c_str(), setItem, ""},
         {("aten::__contains__." + key).c_str(), contains, ""},
         {("aten::get." + key).c_str(), getOrNone, ""},
         {("aten::len." + dictKey).c_str(), project<0>, ""},
         {("aten::keys." + key).c_str(), project<1>, ""},
         {("aten::values." + key).c_str(), project<2>, ""},
         {("aten::items." + key).c_str(), project<3>, ""},
         {("aten::update." + key).c_str(), update, ""},
         {("aten::dict." + key).c_str(), makeDict, ""},
         {("aten::dict.Dict_" + key).c_str(), makeDict, ""}});
  }
  registerKernelTable(registry, {{"aten::dict", makeDict, ""}});
}

} // namespace tsir::rt
