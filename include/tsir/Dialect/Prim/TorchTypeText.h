//===- TorchTypeText.h - Reading the types torch prints ---------*- C++ -*-===//
//
// A dialect interface on prim: turns a type as TorchScript prints it
// (`Float(2, 3)`, `Long(requires_grad=0, device=cpu)`, `int[]`, `Tensor?`)
// into a prim type, and a whole graph as torch prints it into a module.
// The importer implements it (registerTorchTypeText in
// tsir/Importer/Importer.h; tsir::registerAllDialects adds it), so a pass
// that takes a type as text in an option (tsir-refine-types's arg-spec),
// or reads graphs written as TorchScript text (tsir-differentiate's
// derivative formulas), does so through the dialect and neither includes
// nor links the importer: passes sit below the importer in tsir's layers.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_DIALECT_PRIM_TORCHTYPETEXT_H
#define TSIR_DIALECT_PRIM_TORCHTYPETEXT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectInterface.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Types.h"

#include <string>

namespace tsir::prim {

class TorchTypeTextInterface
    : public mlir::DialectInterface::Base<TorchTypeTextInterface> {
public:
  explicit TorchTypeTextInterface(mlir::Dialect *dialect) : Base(dialect) {}

  /// The type `text` spells, or null with the reason (and, where known,
  /// the column within `text`) in `error`.
  virtual mlir::Type parse(llvm::StringRef text, std::string &error) const = 0;

  /// The graph `text` holds, as a module with `func.func @graph`; null
  /// after reporting the error (at `bufferName`:line:col) through the
  /// context's diagnostics.
  virtual mlir::OwningOpRef<mlir::ModuleOp>
  importGraph(llvm::StringRef text, llvm::StringRef bufferName) const = 0;
};

/// The type `text` spells, read through the prim dialect's interface of
/// `context`; null with the reason in `error` (also when no importer has
/// registered the interface).
mlir::Type parseTorchTypeText(mlir::MLIRContext *context, llvm::StringRef text,
                              std::string &error);

/// The graph `text` holds, read through the prim dialect's interface of
/// `context`; null after an error diagnostic (also when no importer has
/// registered the interface).
mlir::OwningOpRef<mlir::ModuleOp>
importTorchGraphText(mlir::MLIRContext *context, llvm::StringRef text,
                     llvm::StringRef bufferName);

} // namespace tsir::prim

#endif // TSIR_DIALECT_PRIM_TORCHTYPETEXT_H
