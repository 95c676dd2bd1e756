//===- KernelSupport.h - Argument helpers shared by builtin kernels -*- C++
//-*-===//
//
// Private to the runtime: what the builtin kernel files share: their
// registration tables, the argument readers of KernelArguments.h, and
// shape helpers.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_KERNELS_KERNELSUPPORT_H
#define TSIR_RUNTIME_LIB_KERNELS_KERNELSUPPORT_H

#include "tsir-runtime/KernelArguments.h"

#include "tsir-runtime/KernelRegistry.h"
#include "tsir-runtime/Stack.h"

#include <initializer_list>
#include <vector>

namespace tsir::rt {

/// One row of a kernel file's registration table: the operator's schema
/// (its name is read from it) and its kernel, as RegisterKernels::op takes
/// them. A bare name stands for a kernel that tells its overloads apart by
/// the arguments.
struct KernelEntry {
  const char *schemaOrName;
  Kernel kernel;
};

/// Registers every entry of a family's table. A name already registered
/// keeps its first kernel (registration reports it, and it is ignored).
void registerKernelTable(KernelRegistry &registry,
                         std::initializer_list<KernelEntry> entries);

/// An `int[] size` argument, each size non-negative.
StatusOr<std::vector<int64_t>> sizeList(const Value &value);
/// `sizes` (an `int[] size` a bound kernel was given) when each is
/// non-negative; sizeList's error otherwise.
StatusOr<std::vector<int64_t>> nonNegativeSizes(std::vector<int64_t> sizes);

/// Wraps `dim` into [0, rank) as torch does (a 0-d tensor has one valid dim,
/// 0 or -1); torch's "Dimension out of range" error otherwise.
StatusOr<int64_t> wrapDim(int64_t dim, int64_t rank);

/// The broadcast of two shapes (numpy's rules), or torch's error for sizes
/// that do not broadcast.
StatusOr<std::vector<int64_t>> broadcastSizes(const std::vector<int64_t> &a,
                                              const std::vector<int64_t> &b);

} // namespace tsir::rt

#endif // TSIR_RUNTIME_LIB_KERNELS_KERNELSUPPORT_H
