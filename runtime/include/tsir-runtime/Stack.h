//===- Stack.h - Popping typed kernel arguments ------------------*- C++
//-*-===//
//
// Helpers for kernels: pop a value of an expected kind off the stack, or an
// error naming what was expected and what was found.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_STACK_H
#define TSIR_RUNTIME_STACK_H

#include "tsir-runtime/KernelRegistry.h"

namespace tsir::rt {

StatusOr<Value> pop(Stack &stack);
StatusOr<Tensor> popTensor(Stack &stack);
StatusOr<int64_t> popInt(Stack &stack);
StatusOr<double> popDouble(Stack &stack);
StatusOr<bool> popBool(Stack &stack);
StatusOr<std::string> popString(Stack &stack);
/// A list Value (still aliasing the caller's list).
StatusOr<Value> popList(Stack &stack);
/// A variadic kernel's input count, checked against the stack's depth.
StatusOr<int64_t> popInputCount(Stack &stack);

inline void push(Stack &stack, Value value) {
  stack.push_back(std::move(value));
}

} // namespace tsir::rt

#endif // TSIR_RUNTIME_STACK_H
