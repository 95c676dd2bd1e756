//===- NodeLocation.h - TorchScript names and comments as locations -*- C++
//-*-===//
//
// A TorchScript node carries the names of its outputs (`%x.1`), its place in
// the graph text, and optionally a source comment (`# model.py:7:8`) and a
// `scope:`. tsir keeps all of them in the op's MLIR location, so diagnostics
// point at the text and the exporter prints the graph back with its names:
//
//   loc(fused["x.1", "graph.txt":12:3, "source"("model.py":7:8),
//             "scope: __module.l1"])
//
// Output names are NameLocs without a child, in result order; the graph
// position is the one FileLineColLoc at top level; the source comment is a
// NameLoc "source" around a FileLineColLoc; the scope a NameLoc "scope: X".
// Block arguments carry NameLoc(name, position).
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_DIALECT_PRIM_NODELOCATION_H
#define TSIR_DIALECT_PRIM_NODELOCATION_H

#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallVector.h"

namespace tsir {

/// What a node's location says, decoded.
struct NodeLocation {
  llvm::SmallVector<llvm::StringRef, 1> resultNames;
  mlir::FileLineColLoc position; // in the graph text; may be null
  mlir::FileLineColLoc source;   // the `# file:line:col` comment; may be null
  llvm::StringRef scope;         // without "scope: "; may be empty
};

/// Builds the location of a node (see the file comment).
mlir::Location makeNodeLocation(mlir::MLIRContext *context,
                                const NodeLocation &parts);

/// Decodes a location built by makeNodeLocation (or any other location:
/// what is not there stays empty).
NodeLocation decodeNodeLocation(mlir::Location loc);

/// The value name a block argument's location carries, or "".
llvm::StringRef getArgumentName(mlir::Location loc);

} // namespace tsir

#endif // TSIR_DIALECT_PRIM_NODELOCATION_H
