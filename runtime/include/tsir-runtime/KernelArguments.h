//===- KernelArguments.h - Reading a kernel's arguments by type -*- C++ -*-===//
//
// How a kernel gets its arguments, the builtin ones and those of an
// operator library alike (docs/custom-ops.md): each schema type has one
// reader here (`int` accepts a bool, as Python's int does; `Scalar`
// accepts a one-element tensor), and `bindKernel` makes a Kernel of a C++
// function from its signature:
//
//   StatusOr<Tensor> gather(Tensor self, int64_t dim, Tensor index,
//                           bool sparseGrad);
//   RegisterKernels().op("aten::gather(Tensor self, int dim, Tensor index, "
//                        "*, bool sparse_grad=False) -> Tensor",
//                        bindKernel(gather));
//
// The arguments are popped, checked and converted once, in one place; an
// argument of the wrong kind is an error naming its position and the type
// expected ("argument 2 (int): expected int, got str"), which the registry
// prefixes with the kernel's name. A bare name whose overloads differ in
// their argument count binds one function per overload and picks by the
// stack's depth (`byArgumentCount`).
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_KERNELARGUMENTS_H
#define TSIR_RUNTIME_KERNELARGUMENTS_H

#include "tsir-runtime/KernelRegistry.h"
#include "tsir-runtime/Stack.h"

#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tsir::rt {

//===----------------------------------------------------------------------===//
// One reader per schema type
//===----------------------------------------------------------------------===//

/// Pops the `n` arguments of a schema, first argument first.
StatusOr<std::vector<Value>> popArgs(Stack &stack, size_t n);

/// A defined `Tensor`.
StatusOr<Tensor> requireTensor(const Value &value);
/// A `Tensor?`: an undefined Tensor for None.
StatusOr<Tensor> optionalTensor(const Value &value, const char *what);
/// A `Scalar` (int, float or bool, or a one-element tensor) as a double.
StatusOr<double> scalarArg(const Value &value, const char *what);
/// An `int` (a bool is 0 or 1).
StatusOr<int64_t> intArg(const Value &value, const char *what);
/// An `int?`: `fallback` (typically a sentinel) for None.
StatusOr<int64_t> optionalInt(const Value &value, int64_t fallback,
                              const char *what);
/// A `bool` (an int is true when not 0).
StatusOr<bool> boolArg(const Value &value, const char *what);
/// A `str`.
StatusOr<std::string> stringArg(const Value &value, const char *what);
/// An `int[]` (a list or tuple of ints; a single int is a list of one, as
/// torch reads `int[1]`).
StatusOr<std::vector<int64_t>> intList(const Value &value, const char *what);
/// An `int[]?` whose None reads as the empty list (every dim, to the
/// norms).
StatusOr<std::vector<int64_t>> optionalIntList(const Value &value,
                                               const char *what);
/// A `ScalarType` argument (6 is Float32) as a DType, or an error naming
/// the number tsir does not run.
StatusOr<DType> scalarTypeArgument(int64_t code);
/// A `ScalarType?` argument: `fallback` when it is None.
StatusOr<DType> optionalDType(const Value &value, DType fallback);

/// Reads a Value as the C++ parameter type T; `schemaType` names T as a
/// schema writes it, for messages. Specialized for each type a kernel may
/// take.
template <typename T, typename = void> struct ArgReader;

template <> struct ArgReader<Value> {
  static constexpr const char *schemaType = "Any";
  static StatusOr<Value> read(const Value &value) { return value; }
};
template <> struct ArgReader<Tensor> {
  static constexpr const char *schemaType = "Tensor";
  static StatusOr<Tensor> read(const Value &value) {
    return requireTensor(value);
  }
};
template <> struct ArgReader<int64_t> {
  static constexpr const char *schemaType = "int";
  static StatusOr<int64_t> read(const Value &value) {
    return intArg(value, "");
  }
};
template <> struct ArgReader<double> {
  static constexpr const char *schemaType = "Scalar";
  static StatusOr<double> read(const Value &value) {
    return scalarArg(value, "");
  }
};
template <> struct ArgReader<bool> {
  static constexpr const char *schemaType = "bool";
  static StatusOr<bool> read(const Value &value) { return boolArg(value, ""); }
};
template <> struct ArgReader<std::string> {
  static constexpr const char *schemaType = "str";
  static StatusOr<std::string> read(const Value &value) {
    return stringArg(value, "");
  }
};
template <> struct ArgReader<std::vector<int64_t>> {
  static constexpr const char *schemaType = "int[]";
  static StatusOr<std::vector<int64_t>> read(const Value &value) {
    return intList(value, "");
  }
};
template <> struct ArgReader<DType> {
  static constexpr const char *schemaType = "ScalarType";
  static StatusOr<DType> read(const Value &value) {
    if (!value.isInt())
      return Status::error(std::string("expected a ScalarType, got ") +
                           value.kindName());
    return scalarTypeArgument(value.toInt());
  }
};
/// `T?`: None is nullopt.
template <typename T> struct ArgReader<std::optional<T>> {
  static constexpr const char *schemaType = "optional";
  static StatusOr<std::optional<T>> read(const Value &value) {
    if (value.isNone())
      return std::optional<T>();
    TSIR_RT_ASSIGN_OR_RETURN(T inner, ArgReader<T>::read(value));
    return std::optional<T>(std::move(inner));
  }
};

/// `Tensor?`: None, or an undefined tensor (what an absent gradient is),
/// is nullopt.
template <> struct ArgReader<std::optional<Tensor>> {
  static constexpr const char *schemaType = "Tensor?";
  static StatusOr<std::optional<Tensor>> read(const Value &value) {
    if (value.isNone() || (value.isTensor() && !value.toTensor().defined()))
      return std::optional<Tensor>();
    TSIR_RT_ASSIGN_OR_RETURN(Tensor tensor, requireTensor(value));
    return std::optional<Tensor>(std::move(tensor));
  }
};

/// Argument `position` (0-based) read as T; the error names the position
/// and the type.
template <typename T>
StatusOr<T> readArgument(const Value &value, size_t position) {
  StatusOr<T> result = ArgReader<T>::read(value);
  if (!result.ok())
    return Status::error("argument " + std::to_string(position + 1) + " (" +
                         ArgReader<T>::schemaType +
                         "): " + result.status().message());
  return result;
}

/// popTypedArgs's reading: every argument read, the first that failed
/// reported.
template <typename... Ts, size_t... Is>
StatusOr<std::tuple<Ts...>> readTypedArgs(const std::vector<Value> &args,
                                          std::index_sequence<Is...>) {
  std::tuple<StatusOr<Ts>...> read{readArgument<Ts>(args[Is], Is)...};
  Status failure;
  (void)((std::get<Is>(read).ok()
              ? true
              : (failure = std::get<Is>(read).status(), false)) &&
         ...);
  if (!failure.isOk())
    return failure;
  return std::tuple<Ts...>(std::move(std::get<Is>(read)).value()...);
}

/// Pops the arguments of a kernel with parameters `Ts...` off the stack
/// and reads each as its type.
template <typename... Ts>
StatusOr<std::tuple<Ts...>> popTypedArgs(Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<Value> args,
                           popArgs(stack, sizeof...(Ts)));
  return readTypedArgs<Ts...>(args, std::index_sequence_for<Ts...>());
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

/// The result of a kernel whose schema returns nothing (`-> ()`).
using NoResult = std::tuple<>;

/// Pushes a kernel's result: one value, or each element of a tuple (a
/// schema returning `(Tensor, Tensor)`).
template <typename R> void pushResult(Stack &stack, R result) {
  stack.push_back(Value(std::move(result)));
}
template <typename... Rs>
void pushResult(Stack &stack, std::tuple<Rs...> results) {
  std::apply(
      [&](auto &...each) { (stack.push_back(Value(std::move(each))), ...); },
      results);
}

//===----------------------------------------------------------------------===//
// Binding a function as a kernel
//===----------------------------------------------------------------------===//

/// A Kernel that pops `fn`'s arguments, reads each as its parameter's type
/// (by value or by const reference), calls `fn` and pushes its result.
template <typename R, typename... Params>
Kernel bindKernel(StatusOr<R> (*fn)(Params...)) {
  return [fn](Stack &stack) -> Status {
    TSIR_RT_ASSIGN_OR_RETURN(auto args,
                             popTypedArgs<std::decay_t<Params>...>(stack));
    TSIR_RT_ASSIGN_OR_RETURN(R result, std::apply(fn, std::move(args)));
    pushResult(stack, std::move(result));
    return Status::ok();
  };
}

/// For a bare name whose overloads differ in their argument count (the
/// stack holds exactly the node's arguments): `atLeast` when the stack holds
/// `count` or more, else `fewer`.
inline Kernel byArgumentCount(size_t count, Kernel atLeast, Kernel fewer) {
  return [=](Stack &stack) {
    return stack.size() >= count ? atLeast(stack) : fewer(stack);
  };
}

} // namespace tsir::rt

#endif // TSIR_RUNTIME_KERNELARGUMENTS_H
