//===- Dot.cpp - A graph as Graphviz dot text -----------------------------===//
//
// graph.to_dot(): one box per node labelled with its kind, one edge per
// use labelled with the value's name, graph inputs and outputs as ovals,
// and each block of an If, a Loop or a subgraph as a cluster with its own
// inputs and return. Render with `dot -Tsvg`.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Exporter/Exporter.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tsir::python;

namespace {
class DotWriter {
public:
  DotWriter(PyGraph &graph, llvm::raw_ostream &os) : graph(graph), os(os) {}

  void write() {
    os << "digraph \"" << escape(graph.bufferName()) << "\" {\n"
       << "  node [shape=box, fontname=\"monospace\"];\n";
    writeBlock(graph.func().getBody().front(), "graph", 1);
    os << "}\n";
  }

private:
  static std::string escape(StringRef text) {
    std::string result;
    for (char c : text) {
      if (c == '"' || c == '\\')
        result += '\\';
      result += c;
    }
    return result;
  }

  /// The dot node a value comes from: its producer or its input oval.
  std::string sourceOf(Value value) {
    if (auto result = dyn_cast<OpResult>(value))
      return ids.lookup(result.getOwner());
    return argumentIds.lookup(value);
  }

  static std::string label(Operation *op) {
    std::string text = tsir::getNodeKind(op);
    if (text.empty())
      text = op->getName().getStringRef().str();
    // A constant's value is what makes it readable.
    if (auto constant = dyn_cast<tsir::prim::ConstantOp>(op)) {
      Attribute value = constant.getValue();
      if (auto integer = dyn_cast<IntegerAttr>(value))
        text += "\\n" + std::to_string(integer.getValue().getSExtValue());
      else if (auto number = dyn_cast<FloatAttr>(value))
        text += "\\n" + std::to_string(number.getValueAsDouble());
      else if (auto string = dyn_cast<StringAttr>(value))
        text += "\\n\\\"" + escape(string.getValue()) + "\\\"";
    }
    return text;
  }

  void edge(Value value, const std::string &target, unsigned level) {
    std::string source = sourceOf(value);
    if (source.empty())
      return; // a value from outside an isolated subgraph
    os.indent(2 * level) << source << " -> " << target << " [label=\"%"
                         << escape(graph.valueName(value)) << "\"];\n";
  }

  void writeBlock(Block &block, const std::string &prefix, unsigned level) {
    for (BlockArgument argument : block.getArguments()) {
      std::string id = prefix + "_in" + std::to_string(argument.getArgNumber());
      argumentIds[argument] = id;
      std::string type;
      llvm::raw_string_ostream typeStream(type);
      if (!tsir::printTorchScriptType(argument.getType(), typeStream))
        type.clear();
      os.indent(2 * level) << id << " [shape=ellipse, label=\"%"
                           << escape(graph.valueName(argument)) << " : "
                           << escape(type) << "\"];\n";
    }
    for (Operation &op : block) {
      bool terminator = op.hasTrait<OpTrait::IsTerminator>();
      std::string id = "n" + std::to_string(nextId++);
      ids[&op] = id;
      os.indent(2 * level) << id << " ["
                           << (terminator ? "shape=ellipse, " : "")
                           << "label=\""
                           << (terminator ? std::string("return") : label(&op))
                           << "\"];\n";
      for (Value operand : op.getOperands())
        edge(operand, id, level);
      unsigned index = 0;
      for (Region &region : op.getRegions()) {
        for (Block &nested : region) {
          std::string name = id + "_block" + std::to_string(index++);
          os.indent(2 * level) << "subgraph cluster_" << name << " {\n";
          os.indent(2 * level + 2)
              << "label=\"" << escape(tsir::getNodeKind(&op)) << " block"
              << (index - 1) << "\";\n";
          writeBlock(nested, name, level + 1);
          os.indent(2 * level) << "}\n";
        }
      }
    }
  }

  PyGraph &graph;
  llvm::raw_ostream &os;
  llvm::DenseMap<Operation *, std::string> ids;
  llvm::DenseMap<Value, std::string> argumentIds;
  unsigned nextId = 0;
};
} // namespace

std::string tsir::python::graphToDot(const GraphRef &graph) {
  std::string text;
  llvm::raw_string_ostream os(text);
  DotWriter(*graph, os).write();
  return text;
}
