//===- CEntryOps.cpp - An operator library with a C registration hook -----===//
//
// Registers my_ns::add_ints through the exported tsir_register_kernels
// entry point instead of a static initializer.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/KernelRegistry.h"
#include "tsir-runtime/Stack.h"

namespace {
tsir::rt::Status addInts(tsir::rt::Stack &stack) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t b, tsir::rt::popInt(stack));
  TSIR_RT_ASSIGN_OR_RETURN(int64_t a, tsir::rt::popInt(stack));
  tsir::rt::push(stack, a + b);
  return tsir::rt::Status::ok();
}
} // namespace

extern "C" void tsir_register_kernels(tsir::rt::KernelRegistry *registry) {
  registry
      ->registerKernel("my_ns::add_ints", addInts,
                       "my_ns::add_ints(int a, int b) -> int")
      .ignoreError();
}
