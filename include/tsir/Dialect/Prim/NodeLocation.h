//===- NodeLocation.h - TorchScript names and comments as locations -*- C++
//-*-===//
//
// A TorchScript node carries the names of its outputs (`%x.1`), its place in
// the graph text, and optionally a source comment (`# model.py:7:8`) and a
// `scope:`. tsir keeps all of them in the op's MLIR location, so diagnostics
// point at the text and the exporter prints the graph back with its names.
// The importer and the passes write one `#prim.node` location per node
// (PrimAttrs.td says why not builtin ones):
//
//   loc(#prim.node<"x.1" at "graph.txt":12:3 source "model.py":7:8
//                  scope "__module.l1">)
//
// The builtin form earlier versions wrote (and hand-written MLIR may use)
// still reads:
//
//   loc(fused["x.1", "graph.txt":12:3, "source"("model.py":7:8),
//             "scope: __module.l1"])
//
// with output names as NameLocs without a child, in result order; the graph
// position the one FileLineColLoc at top level; the source comment a NameLoc
// "source" around a FileLineColLoc; the scope a NameLoc "scope: X".
// Block arguments carry NameLoc(name, position).
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_DIALECT_PRIM_NODELOCATION_H
#define TSIR_DIALECT_PRIM_NODELOCATION_H

#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace tsir {

/// The `# file:line:col` comment torch prints after a node.
struct SourceComment {
  llvm::StringRef file; // empty when there is no comment
  unsigned line = 0;
  unsigned column = 0;

  explicit operator bool() const { return !file.empty(); }
};

/// What a node's location says, decoded. The strings point into the
/// context's storage: they live as long as the context.
struct NodeLocation {
  llvm::SmallVector<llvm::StringRef, 1> resultNames;
  mlir::FileLineColLoc position; // in the graph text; may be null
  SourceComment source;          // may be absent
  llvm::StringRef scope;         // without "scope: "; may be empty
};

/// Builds the location of a node (see the file comment).
mlir::Location makeNodeLocation(mlir::MLIRContext *context,
                                const NodeLocation &parts);

/// The same location in the builtin form (see the file comment), for
/// consumers that know no dialect locations: LLVM's debug info translation.
mlir::Location makeBuiltinNodeLocation(mlir::MLIRContext *context,
                                       const NodeLocation &parts);

/// Rewrites every `#prim.node` location under `root` (ops and block
/// arguments, nested or fused ones too) into its builtin form.
void replaceNodeLocationsWithBuiltin(mlir::Operation *root);

/// Decodes a location built by makeNodeLocation (or any other location:
/// what is not there stays empty).
NodeLocation decodeNodeLocation(mlir::Location loc);

/// A location for ops a pass creates next to `loc`'s op: the same place in
/// the graph text, source comment and scope, but none of its value names.
mlir::Location withoutResultNames(mlir::Location loc);

/// The value name a block argument's location carries, or "".
llvm::StringRef getArgumentName(mlir::Location loc);

/// `file:line:col` of a location in the graph text, or "" if it has none.
std::string formatLocation(mlir::Location loc);

/// An error at `loc` as the user reads it: `model.py:7:8: error: message`
/// at the Python line of the node's source comment, with the graph's own
/// place as a note line; `graph.txt:12:3: error: message` without one.
std::string formatError(mlir::Location loc, const std::string &message);

} // namespace tsir

#endif // TSIR_DIALECT_PRIM_NODELOCATION_H
