//===- MagicOps.cpp - A custom operator library for the loader tests ------===//
//
// Defines my_ns::magic (x * 2 + 1 on a Float tensor) and registers it from a
// static initializer, the way users write TorchScript custom operators.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/KernelRegistry.h"
#include "tsir-runtime/Stack.h"

namespace {
tsir::rt::Status magic(tsir::rt::Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(tsir::rt::Tensor input, tsir::rt::popTensor(stack));
  if (input.dtype() != tsir::rt::DType::Float32)
    return tsir::rt::Status::error("expects a Float tensor, got " +
                                   input.toString());
  tsir::rt::Tensor dense = input.contiguous();
  tsir::rt::Tensor result =
      tsir::rt::Tensor::empty(dense.sizes(), tsir::rt::DType::Float32);
  for (int64_t i = 0; i < dense.numel(); ++i)
    result.dataAs<float>()[i] = dense.dataAs<float>()[i] * 2 + 1;
  tsir::rt::push(stack, result);
  return tsir::rt::Status::ok();
}

auto registry =
    tsir::rt::RegisterKernels().op("my_ns::magic(Tensor x) -> Tensor", magic);
} // namespace
