//===- Exporter.h - prim/aten MLIR to TorchScript graph text ----*- C++ -*-===//
//
// The library entry point behind `tsir-translate --export-torchscript`: prints
// a graph the way torch 1.13's `print(graph)` does, with the value names,
// source comments and scopes the importer kept in the op locations, and the
// `with prim::FusionGroup_N = graph(...)` sections of subgraph ops (numbered
// and nested per graph, as torch prints them) and of the module's
// prim.UnusedSubgraph ops.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_EXPORTER_EXPORTER_H
#define TSIR_EXPORTER_EXPORTER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace tsir {

/// Prints the one func.func in `module` as TorchScript graph text. Fails,
/// with a diagnostic on the offending op, if the module does not hold
/// exactly one function or the function uses something TorchScript cannot
/// express (an op of another dialect, a builtin tensor type, ...). Nothing
/// is written to `os` on failure.
mlir::LogicalResult exportTorchScript(mlir::ModuleOp module,
                                      llvm::raw_ostream &os);

/// Prints `func` as TorchScript graph text (see above). The
/// prim.UnusedSubgraph ops of the module holding `func` print as sections
/// of its graph.
mlir::LogicalResult exportTorchScript(mlir::func::FuncOp func,
                                      llvm::raw_ostream &os);

// What the exporter prints for single nodes and values, for tools that show
// a graph another way (the Python module's traversal, Graphviz).

/// The TorchScript kind `op` prints as, without attributes or a subgraph's
/// `_N`: `aten::add` (the operator of `aten.add.Tensor`), `prim::If`,
/// `prim::FusionGroup`, a generic node's own kind (`my_ns::magic`); "" for
/// an op of another dialect.
std::string getNodeKind(mlir::Operation *op);

/// Whether `op` prints as a `with ... = graph(...)` subgraph, its one region
/// a graph with its own value names.
bool isSubgraphNode(mlir::Operation *op);

/// The name the exporter gives every value of `func` (block arguments and
/// results, in nested blocks and subgraphs too), without `%`: the name the
/// location carries, made unique per graph, or a fresh number.
llvm::DenseMap<mlir::Value, std::string> getValueNames(mlir::func::FuncOp func);

/// Prints `type` as a graph prints it (`Float(2, *)`, `int[]`, `(int,
/// Tensor)`). Returns false, having printed something partial, if the type
/// has no TorchScript spelling.
bool printTorchScriptType(mlir::Type type, llvm::raw_ostream &os);

/// Prints a prim::Constant's value of type `type` as its `value=` prints
/// (`[1, 2]`, `"cpu"`, `None`, ` 1.5 [ CPUFloatType{1} ]`). Returns false if
/// TorchScript cannot spell it.
bool printTorchScriptConstant(mlir::Attribute value, mlir::Type type,
                              llvm::raw_ostream &os);

/// Prints `"text"` with torch's escapes (c10::printQuotedString).
void printTorchScriptString(llvm::StringRef text, llvm::raw_ostream &os);

} // namespace tsir

#endif // TSIR_EXPORTER_EXPORTER_H
