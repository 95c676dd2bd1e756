//===- ExceptionKernels.cpp - Builtin kernels that raise ------------------===//
//
// prim::RaiseException: TorchScript's `raise`, returned as an error Status
// of kind Raised whose message is what Python would print
// ("builtins.ValueError: msg").
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "KernelSupport.h"

namespace tsir::rt {

namespace {
StatusOr<NoResult> raiseException(const std::string &message,
                                  const Value &cls) {
  if (cls.isString())
    return Status::raised(cls.toStringRef() + ": " + message);
  if (!cls.isNone())
    return Status::error(std::string("the class must be a str or None, got ") +
                         cls.kindName());
  return Status::raised(message.empty() ? "Exception" : message);
}
} // namespace

void registerExceptionKernels(KernelRegistry &registry) {
  registerKernelTable(registry,
                      {{"prim::RaiseException(str msg, str? cls=None) -> ()",
                        bindKernel(raiseException)}});
}

} // namespace tsir::rt
