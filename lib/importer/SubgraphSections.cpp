//===- SubgraphSections.cpp - Where each `with` section belongs -----------===//
//
// See SubgraphSections.h. The sections are read in text order with a stack
// of the graphs whose sections may still follow: the main graph, then each
// section read, whose own sections come next in torch's order.
//
//===----------------------------------------------------------------------===//

#include "SubgraphSections.h"

#include "tsir/Importer/Parser.h"

using namespace tsir;
using llvm::StringRef;

/// Adds to `names` the kinds of the nodes in `block` (nested blocks too)
/// that are section names. The parser bounds the nesting of blocks.
static void
collectReferences(const ts::Block &block,
                  const llvm::StringMap<llvm::SmallVector<unsigned, 1>> &defs,
                  llvm::StringSet<> &names) {
  for (const ts::Node &node : block.nodes) {
    if (defs.contains(node.kind))
      names.insert(node.kind);
    for (const ts::Block &nested : node.blocks)
      collectReferences(nested, defs, names);
  }
}

std::optional<SectionTree> SectionTree::build(const ts::GraphFile &file,
                                              ErrorFn error) {
  SectionTree tree;
  size_t count = file.subgraphs.size();
  for (auto [index, section] : llvm::enumerate(file.subgraphs))
    tree.definitions[section.name].push_back(index);
  tree.held.resize(count + 1);
  tree.holders.resize(count);

  std::vector<llvm::StringSet<>> references(count + 1);
  collectReferences(file.main.body, tree.definitions, references[kMainGraph]);
  for (auto [index, section] : llvm::enumerate(file.subgraphs))
    collectReferences(section.body, tree.definitions,
                      references[graphOf(index)]);

  // The graphs whose sections may follow, innermost last. A section that
  // the innermost one does not use, or already holds one of, ends that
  // graph's sections: it belongs further out. The main graph takes every
  // section that reaches it, used or not, so that flat files (every section
  // after the main graph, as older tsir wrote them and people write them by
  // hand) read as before.
  llvm::SmallVector<unsigned> open = {kMainGraph};
  for (auto [index, section] : llvm::enumerate(file.subgraphs)) {
    StringRef name = section.name;
    while (open.size() > 1 && (!references[open.back()].contains(name) ||
                               tree.held[open.back()].contains(name)))
      open.pop_back();
    unsigned graph = open.back();
    auto [it, inserted] = tree.held[graph].try_emplace(name, index);
    if (!inserted) {
      ts::SourcePos first = file.subgraphs[it->second].pos;
      error(section.pos) << "subgraph '" << name
                         << "' is defined twice (first at " << first.line << ":"
                         << first.col << ")";
      return std::nullopt;
    }
    tree.holders[index] = graph;
    // Deeper sections could only be expanded past the nesting limit, and
    // bounding the depth keeps resolve() cheap.
    if (open.size() > ts::kMaxNestingDepth) {
      error(section.pos) << "subgraph sections nested deeper than "
                         << ts::kMaxNestingDepth << " levels";
      return std::nullopt;
    }
    open.push_back(graphOf(index));
  }
  return tree;
}

std::optional<unsigned> SectionTree::resolve(unsigned graph,
                                             StringRef kind) const {
  for (unsigned g = graph;; g = holders[g - 1]) {
    auto it = held[g].find(kind);
    if (it != held[g].end())
      return it->second;
    if (g == kMainGraph)
      break;
  }
  auto defs = definitions.find(kind);
  if (defs != definitions.end() && defs->second.size() == 1)
    return defs->second.front();
  return std::nullopt;
}
