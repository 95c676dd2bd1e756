//===- DecompositionLibrary.h - decompositions.txt, read once ---*- C++ -*-===//
//
// The ops tsir defines as graphs of other ops
// (passes/transforms/Decompose/decompositions.txt, compiled into the
// library): tsir-decompose puts them in place before lowering, and
// tsir-differentiate before differentiating, so that an op defined there
// both runs and has a gradient without a formula of its own.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_TRANSFORMS_DECOMPOSITIONLIBRARY_H
#define TSIR_TRANSFORMS_DECOMPOSITIONLIBRARY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <memory>

namespace tsir {

class DecompositionLibrary {
public:
  /// Reads decompositions.txt into `context`; an error (a graph that does
  /// not import, a schema defined twice) is reported there, and fails.
  static mlir::FailureOr<DecompositionLibrary> load(mlir::MLIRContext *context);

  /// Whether the file defines `op` (an op without regions whose schema
  /// has an entry), from its header lines, read once per process: no
  /// graph is imported, so a pass can load the library only when a graph
  /// needs it.
  static bool defines(mlir::Operation *op);

  /// The graph that takes `op`'s place, or null.
  mlir::func::FuncOp lookup(mlir::Operation *op) const;

private:
  std::shared_ptr<mlir::OwningOpRef<mlir::ModuleOp>> graphs;
  llvm::StringMap<mlir::func::FuncOp> bySchema;
};

} // namespace tsir

#endif // TSIR_TRANSFORMS_DECOMPOSITIONLIBRARY_H
