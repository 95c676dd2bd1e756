//===- KernelRegistry.h - Kernels for what codegen does not cover -*- C++ -*-=//
//
// A kernel works like a TorchScript operator on a stack of Values: it pops
// its inputs (the last argument is on top) and pushes its outputs. Kernels
// whose schema is variadic (`...`, e.g. prim::Print) find the number of
// their inputs pushed as an int on top, as in torch's mobile interpreter.
//
// The registry maps qualified names ("aten::len.t", "my_ns::magic") to
// kernels. Users add operators from a shared library, as TorchScript's
// RegisterOperators allows: loadOperatorLibrary dlopens it, and it
// registers through static RegisterKernels objects or an exported
// `extern "C" void tsir_register_kernels(tsir::rt::KernelRegistry *)`.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_KERNELREGISTRY_H
#define TSIR_RUNTIME_KERNELREGISTRY_H

#include "tsir-runtime/Value.h"

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tsir::rt {

using Stack = std::vector<Value>;
using Kernel = std::function<Status(Stack &stack)>;

struct KernelInfo {
  std::string name;
  /// TorchScript schema, "" when not given.
  std::string schema;
  Kernel kernel;
  /// The schema has `...`: the input count is pushed on top of the inputs.
  bool variadic = false;
};

class KernelRegistry {
public:
  /// An empty registry (tests use private ones).
  KernelRegistry();
  ~KernelRegistry();
  KernelRegistry(const KernelRegistry &) = delete;
  KernelRegistry &operator=(const KernelRegistry &) = delete;

  /// The process-wide registry, with the builtin kernels registered on first
  /// use.
  static KernelRegistry &global();

  /// Registers `kernel` as `qualifiedName` ("namespace::name" with an
  /// optional ".overload"). `schema`, if given, must name the same operator
  /// ("my_ns::magic(Tensor x) -> Tensor"). Errors for a malformed or
  /// duplicate name.
  Status registerKernel(std::string qualifiedName, Kernel kernel,
                        std::string schema = "");
  /// Registers `kernel` under the name `schemaOrName` declares: a schema
  /// ("my_ns::magic(Tensor x) -> Tensor", the name read from it) or a bare
  /// name (a kernel that tells its overloads apart by the arguments).
  Status registerOperator(const std::string &schemaOrName, Kernel kernel);

  /// The kernel named `name`, or nullptr. The pointer stays valid for the
  /// registry's lifetime.
  const Kernel *lookup(std::string_view name) const;
  const KernelInfo *lookupInfo(std::string_view name) const;
  /// Every registered name, sorted.
  std::vector<std::string> names() const;

private:
  friend class OperatorLibraryLoader;
  void unregisterKernel(const std::string &name);

  mutable std::mutex mutex;
  std::map<std::string, KernelInfo, std::less<>> kernels;
};

/// Calls the kernel `name` of `registry` on `inputs` (pushing the input
/// count for a variadic kernel) and returns what it pushed. A kernel's
/// error says what went wrong without naming the kernel: its caller (the
/// interpreter, tsir_rt_call_kernel) names it, unless it is Raised.
StatusOr<std::vector<Value>>
callKernel(std::string_view name, std::vector<Value> inputs,
           const KernelRegistry &registry = KernelRegistry::global());

/// Registers kernels from a static initializer, like torch's
/// RegisterOperators:
///
///   static auto registry = tsir::rt::RegisterKernels()
///       .op("my_ns::magic(Tensor x) -> Tensor", magicKernel);
///
/// `op` takes a schema (the name is read from it) or a bare name. Kernels
/// go to the registry loadOperatorLibrary is loading into (global() outside
/// a load). Inside a load errors are returned by loadOperatorLibrary;
/// otherwise they are printed to stderr and kept in status().
class RegisterKernels {
public:
  RegisterKernels &op(const std::string &schemaOrName, Kernel kernel);
  const Status &status() const { return firstError; }

private:
  Status firstError;
};

/// dlopens (RTLD_NOW | RTLD_LOCAL) the shared library at `path` and
/// registers its kernels into `registry`. Loading the same library into the
/// same registry again does nothing. On any error (dlopen's message, a
/// duplicate name, a library that registers nothing) the kernels it
/// registered are removed and it is closed. Successfully loaded libraries
/// stay loaded for the life of the process.
Status loadOperatorLibrary(const std::string &path,
                           KernelRegistry &registry = KernelRegistry::global());

/// Registers prim::Print, aten::format, aten::warn, prim::RaiseException
/// and the list kernels (aten::len.t, aten::append.t, aten::__getitem__.t).
/// global() calls it; explicit so that no static initializer is needed
/// (the linker may drop those from a static archive).
void registerBuiltinKernels(KernelRegistry &registry);

} // namespace tsir::rt

extern "C" {
/// Calls kernel `name` on `numInputs` values and stores its `numOutputs`
/// results through `outputs` (each pointing at a Value to overwrite).
/// Returns 0 on success; otherwise non-zero, with the message available
/// from tsir_rt_last_error().
int32_t tsir_rt_call_kernel(const char *name, tsir::rt::Value **inputs,
                            int64_t numInputs, tsir::rt::Value **outputs,
                            int64_t numOutputs);
/// The calling thread's last error from tsir_rt_call_kernel ("" if none).
/// Valid until the thread's next call.
const char *tsir_rt_last_error();
}

#endif // TSIR_RUNTIME_KERNELREGISTRY_H
