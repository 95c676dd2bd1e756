//===- Stack.cpp - Popping typed kernel arguments -------------------------===//
//
// The checked pops kernels use to read their arguments.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Stack.h"

namespace tsir::rt {

namespace {
Status wrongKind(const Value &value, Value::Kind expected) {
  return Status::error(std::string("expected an argument of type ") +
                       Value::kindName(expected) + ", got " + value.kindName());
}
} // namespace

StatusOr<Value> pop(Stack &stack) {
  if (stack.empty())
    return Status::error("stack underflow: a kernel expected more arguments");
  Value value = std::move(stack.back());
  stack.pop_back();
  return value;
}

#define TSIR_RT_DEFINE_POP(Name, Type, KindName, Accessor)                     \
  StatusOr<Type> Name(Stack &stack) {                                          \
    TSIR_RT_ASSIGN_OR_RETURN(Value value, pop(stack));                         \
    if (value.kind() != Value::Kind::KindName)                                 \
      return wrongKind(value, Value::Kind::KindName);                          \
    return Type(value.Accessor());                                             \
  }
TSIR_RT_DEFINE_POP(popTensor, Tensor, Tensor, toTensor)
TSIR_RT_DEFINE_POP(popInt, int64_t, Int, toInt)
TSIR_RT_DEFINE_POP(popDouble, double, Double, toDouble)
TSIR_RT_DEFINE_POP(popBool, bool, Bool, toBool)
TSIR_RT_DEFINE_POP(popString, std::string, String, toStringRef)
#undef TSIR_RT_DEFINE_POP

StatusOr<Value> popList(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(Value value, pop(stack));
  if (!value.isList())
    return wrongKind(value, Value::Kind::List);
  return value;
}

StatusOr<int64_t> popInputCount(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t count, popInt(stack));
  if (count < 0 || static_cast<uint64_t>(count) > stack.size())
    return Status::error("variadic input count " + std::to_string(count) +
                         " exceeds the " + std::to_string(stack.size()) +
                         " values on the stack");
  return count;
}

} // namespace tsir::rt
