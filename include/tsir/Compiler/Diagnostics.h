//===- Diagnostics.h - MLIR diagnostics as one error message ----*- C++ -*-===//
//
// The executor is a library: it does not print. It collects what MLIR
// reports while compiling, as `graph.txt:12:7: error: ...` lines naming the
// place in the graph text, and returns them in a Status. Public, so that
// the Python bindings and embedders report errors the same way.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_COMPILER_DIAGNOSTICS_H
#define TSIR_COMPILER_DIAGNOSTICS_H

#include "tsir/Dialect/Prim/NodeLocation.h"

#include "tsir-runtime/Status.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <string>
#include <vector>

namespace tsir {

/// An op no conversion pattern lowered (MLIR's `failed to legalize
/// operation`), by its place and its op name (`aten.linalg_vector_norm`):
/// the executor runs such an op by its runtime kernel instead.
struct UnloweredOp {
  mlir::Location loc;
  std::string name;
};

/// Collects the errors (with their notes) reported in a context while it
/// lives.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext *context);
  ~DiagnosticCollector();

  /// What was collected, one diagnostic per line; `fallback` if nothing was.
  std::string take(const std::string &fallback);

  /// What was collected as a Located error, or `fallback` (to be placed by
  /// the caller) if nothing was.
  rt::Status takeError(const rt::Status &fallback);
  rt::Status takeError(const std::string &fallback) {
    return takeError(rt::Status::error(fallback));
  }

  /// The ops whose legalization failed, in the order reported.
  const std::vector<UnloweredOp> &unlowered() const { return unloweredOps; }

private:
  mlir::MLIRContext *context;
  mlir::DiagnosticEngine::HandlerID handler;
  std::string text;
  std::vector<UnloweredOp> unloweredOps;
};

} // namespace tsir

#endif // TSIR_COMPILER_DIAGNOSTICS_H
