//===- KernelSupport.h - Argument helpers shared by builtin kernels -*- C++ -*-===//
//
// Private to the runtime: reading a schema's arguments off the stack and
// checking their kinds, for the builtin kernel files.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_KERNELS_KERNELSUPPORT_H
#define TSIR_RUNTIME_LIB_KERNELS_KERNELSUPPORT_H

#include "tsir-runtime/KernelRegistry.h"
#include "tsir-runtime/Stack.h"

#include <initializer_list>
#include <vector>

namespace tsir::rt {

/// One row of a kernel file's registration table.
struct KernelEntry {
  const char *name;
  Kernel kernel;
  /// The schema, or "" for a bare name whose kernel tells its overloads
  /// apart by the arguments.
  const char *schema;
};

/// Registers every entry of a family's table. A name already registered
/// keeps its first kernel (registration reports it, and it is ignored).
void registerKernelTable(KernelRegistry &registry,
                         std::initializer_list<KernelEntry> entries);

/// Pops the `n` arguments of a schema, first argument first.
StatusOr<std::vector<Value>> popArgs(Stack &stack, size_t n);

/// A `ScalarType` argument (6 is Float32) as a DType, or an error naming
/// the number tsir does not run.
StatusOr<DType> scalarTypeArgument(int64_t code);

/// A `ScalarType?` argument: `fallback` when it is None.
StatusOr<DType> optionalDType(const Value &value, DType fallback);

/// An `int[] size` argument, each size non-negative.
StatusOr<std::vector<int64_t>> sizeList(const Value &value);

/// A defined tensor argument.
StatusOr<Tensor> requireTensor(const Value &value);

/// The broadcast of two shapes (numpy's rules), or torch's error for sizes
/// that do not broadcast.
StatusOr<std::vector<int64_t>> broadcastSizes(const std::vector<int64_t> &a,
                                              const std::vector<int64_t> &b);

} // namespace tsir::rt

#endif // TSIR_RUNTIME_LIB_KERNELS_KERNELSUPPORT_H
