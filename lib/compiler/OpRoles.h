//===- OpRoles.h - How the segmented executor runs each op ------*- C++ -*-===//
//
// The executor compiles what tsir's conversions lower and runs the rest
// through runtime kernels, as TorchScript's interpreter runs what its
// fusers leave. OpRoles answers, for one op of a specialized prim/aten
// graph, which of the two it is: whether a conversion pattern lowers the
// op (read off the pattern sets themselves, so new lowerings count as soon
// as they exist), and which registered kernel, if any, implements it under
// its TorchScript name.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_OPROLES_H
#define TSIR_LIB_COMPILER_OPROLES_H

#include "tsir-runtime/KernelRegistry.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace tsir {

enum class OpRole {
  /// A conversion lowers it: it runs in a compiled segment.
  Lowered,
  /// A constant or a list/tuple literal: the interpreter evaluates it, and
  /// segments that read it get a copy of it (so they see the literal).
  Free,
  /// The interpreter runs it itself (control flow, unpacking, casts).
  Native,
  /// A runtime kernel runs it.
  Kernel,
  /// Nothing runs it: an error before the graph runs.
  Missing,
};

class OpRoles {
public:
  /// Collects the ops the conversions have patterns for.
  explicit OpRoles(
      mlir::MLIRContext *context,
      const rt::KernelRegistry &kernels = rt::KernelRegistry::global());

  /// The role of `op` on its own. prim.If and prim.Loop are Native here:
  /// whether they lower depends on their bodies (see Segments.h).
  OpRole classify(mlir::Operation *op) const;

  /// Whether a conversion (after tsir-value-semantics) lowers `op`'s kind.
  bool hasLowering(mlir::Operation *op) const;

  /// The name of the registered kernel that runs `op`, or "" if none.
  std::string kernelName(mlir::Operation *op) const;

  /// TorchScript's name of `op`: `aten::append.t`, `my_ns::magic`,
  /// `prim::Print`.
  static std::string torchName(mlir::Operation *op);

  const rt::KernelRegistry &kernels() const { return registry; }

private:
  llvm::StringSet<> loweredOps;
  const rt::KernelRegistry &registry;
};

/// The error for an op nothing runs: `graph.txt:3:17: error: no lowering
/// and no runtime kernel for my_ns::magic (load one with --load-ops)`.
/// `lowersInSegments`: the op lowers, but its result is read where only
/// the interpreter can hold it (a list read by a kernel).
std::string describeMissingOp(mlir::Operation *op,
                              bool lowersInSegments = false);


} // namespace tsir

#endif // TSIR_LIB_COMPILER_OPROLES_H
