//===- KernelCall.cpp - The C entry point compiled code calls kernels by --===//
//
// tsir_rt_call_kernel and tsir_rt_last_error: a C ABI over callKernel, with
// the error message kept per thread since C has no Status to return. A
// kernel's message says what went wrong; the name is added here.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/KernelRegistry.h"

using namespace tsir::rt;

namespace {
std::string &lastError() {
  static thread_local std::string message;
  return message;
}

int32_t fail(std::string message) {
  lastError() = std::move(message);
  return 1;
}
} // namespace

extern "C" int32_t tsir_rt_call_kernel(const char *name, Value **inputs,
                                       int64_t numInputs, Value **outputs,
                                       int64_t numOutputs) {
  if (!name)
    return fail("tsir_rt_call_kernel: null kernel name");
  if (numInputs < 0 || numOutputs < 0 || (numInputs && !inputs) ||
      (numOutputs && !outputs))
    return fail(std::string("tsir_rt_call_kernel: bad argument arrays for '") +
                name + "'");
  std::vector<Value> stack;
  stack.reserve(static_cast<size_t>(numInputs));
  for (int64_t i = 0; i < numInputs; ++i) {
    if (!inputs[i])
      return fail(std::string("tsir_rt_call_kernel: input ") +
                  std::to_string(i) + " of '" + name + "' is null");
    stack.push_back(*inputs[i]);
  }
  if (!KernelRegistry::global().lookup(name))
    return fail(std::string("unknown kernel '") + name + "'");
  StatusOr<std::vector<Value>> results = callKernel(name, std::move(stack));
  if (!results.ok())
    return fail(results.status().withContext(name).message());
  if (static_cast<int64_t>(results->size()) != numOutputs)
    return fail(std::string("kernel '") + name + "' returned " +
                std::to_string(results->size()) +
                " values, the caller "
                "expected " +
                std::to_string(numOutputs));
  for (int64_t i = 0; i < numOutputs; ++i) {
    if (!outputs[i])
      return fail(std::string("tsir_rt_call_kernel: output ") +
                  std::to_string(i) + " of '" + name + "' is null");
    *outputs[i] = std::move((*results)[i]);
  }
  return 0;
}

extern "C" const char *tsir_rt_last_error() { return lastError().c_str(); }
