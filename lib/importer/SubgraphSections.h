//===- SubgraphSections.h - Where each `with` section belongs ---*- C++ -*-===//
//
// The `with prim::FusionGroup_0 = graph(...)` sections after a graph form a
// tree, which the text writes flat. torch's printer (Graph::print in
// torch/csrc/jit/ir/ir.cpp) numbers the subgraph nodes of each graph it
// prints from 0 and prints their sections after that graph's return, each
// section followed at once by the sections of its own subgraph nodes. So a
// `prim::DifferentiableGraph_0` section may hold a `prim::FusionGroup_0`
// that is not the main graph's `prim::FusionGroup_0`. SectionTree recovers
// the tree from the order of the sections and resolves each node's kind to
// the section it names.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_IMPORTER_SUBGRAPHSECTIONS_H
#define TSIR_LIB_IMPORTER_SUBGRAPHSECTIONS_H

#include "tsir/Importer/AST.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <vector>

namespace tsir {

class SectionTree {
public:
  /// Graph ids: 0 is the main graph, `i + 1` the file's section `i`.
  static constexpr unsigned kMainGraph = 0;
  static unsigned graphOf(unsigned section) { return section + 1; }

  using ErrorFn = llvm::function_ref<mlir::InFlightDiagnostic(ts::SourcePos)>;

  /// Assigns every section of `file` to the graph that holds it. Fails,
  /// having reported why through `error`, when a section repeats a name
  /// among the main graph's sections.
  static std::optional<SectionTree> build(const ts::GraphFile &file,
                                          ErrorFn error);

  /// Whether some section of the file is called `kind`.
  bool isSectionName(llvm::StringRef kind) const {
    return definitions.contains(kind);
  }

  /// The section that the node kind `kind` names in graph `graph`: one of
  /// that graph's own sections, else of the graphs that hold it, else the
  /// only section of that name in the file. std::nullopt when the name is
  /// defined more than once and none of those is in sight.
  std::optional<unsigned> resolve(unsigned graph, llvm::StringRef kind) const;

  /// How many sections are called `kind`.
  unsigned countDefinitions(llvm::StringRef kind) const {
    auto it = definitions.find(kind);
    return it == definitions.end() ? 0 : it->second.size();
  }

  /// The graph that holds section `section`.
  unsigned holder(unsigned section) const { return holders[section]; }

private:
  // Per graph id: its sections by name.
  std::vector<llvm::StringMap<unsigned>> held;
  // Per section: the graph id that holds it.
  std::vector<unsigned> holders;
  // Per section name: every section so called, in text order.
  llvm::StringMap<llvm::SmallVector<unsigned, 1>> definitions;
};

} // namespace tsir

#endif // TSIR_LIB_IMPORTER_SUBGRAPHSECTIONS_H
