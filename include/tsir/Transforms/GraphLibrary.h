//===- GraphLibrary.h - Files of graphs keyed by op schema -----*- C++ -*-===//
//
// tsir writes some of its knowledge about ops as TorchScript graphs in
// text files compiled into the library, read with tsir's own importer:
// the derivative formulas (passes/autodiff/derivatives.txt) and the
// decompositions (passes/transforms/Decompose/decompositions.txt). Both
// are a sequence of entries, each a header line `WORD SCHEMA...` and, for
// the words that take one, a graph as torch prints graphs. This header
// reads such a file, names an op by its schema, and puts a graph in an
// op's place.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_TRANSFORMS_GRAPHLIBRARY_H
#define TSIR_TRANSFORMS_GRAPHLIBRARY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace tsir {

/// One entry of a graph library file.
struct GraphLibraryEntry {
  /// The header's first word (`derivative`, `decomposition`).
  llvm::StringRef word;
  /// The schemas the entry serves (`aten::add.Tensor`), one or more.
  llvm::SmallVector<llvm::StringRef> schemas;
  /// The header's line, counting from 1.
  size_t line = 0;
  /// The entry's graph, imported into the library's module; null for a
  /// word that takes no graph.
  mlir::func::FuncOp graph;
};

/// Reads `text` (the file `fileName`) into `into`: an entry starts at a line
/// whose first word is one of `graphWords` (a graph follows) or
/// `listWords` (a list of schemas only); lines starting with `#` are
/// comments. Each graph is imported on its own, at its line in the file, so
/// an error in one names its place; `onEntry` is called per entry in order.
/// Fails after a diagnostic in `into`'s context.
mlir::LogicalResult readGraphLibrary(
    mlir::ModuleOp into, llvm::StringRef text, llvm::StringRef fileName,
    llvm::ArrayRef<llvm::StringRef> graphWords,
    llvm::ArrayRef<llvm::StringRef> listWords,
    llvm::function_ref<mlir::LogicalResult(const GraphLibraryEntry &)>
        onEntry);

/// The schemas the entries of `text` headed by one of `words` serve, from
/// the header lines alone: no graph is imported.
llvm::StringSet<> graphLibrarySchemas(llvm::StringRef text,
                                      llvm::ArrayRef<llvm::StringRef> words);

/// The schema `op` was imported from: `aten::add.Tensor` for a typed op,
/// a generic node's kind with its recorded overload.
std::string schemaOf(mlir::Operation *op);

/// Copies the ops of a library graph's `body` (without its terminator) at
/// `builder`, its arguments mapped by `mapping`, every copy located at
/// `loc`: the op the graph stands for.
void cloneGraphBodyAt(mlir::OpBuilder &builder, mlir::Block &body,
                      mlir::IRMapping &mapping, mlir::Location loc);

/// Puts a copy of `graph`'s body in `op`'s place: its arguments are `op`'s
/// operands and its returned values replace `op`'s results, which keep
/// their types (a returned value the graph types less precisely takes the
/// result's type). Every copied op is located at `op`. Fails, changing
/// nothing, when the graph's arity differs from `op`'s.
mlir::LogicalResult inlineGraphAt(mlir::RewriterBase &rewriter,
                                  mlir::Operation *op,
                                  mlir::func::FuncOp graph);

} // namespace tsir

#endif // TSIR_TRANSFORMS_GRAPHLIBRARY_H
