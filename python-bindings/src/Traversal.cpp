//===- Traversal.cpp - Walking a graph: nodes, blocks, values -------------===//
//
// tsir.Node, tsir.Block and tsir.Value, and the graph's inputs, outputs and
// nodes, shaped after torch's own graph API (graph.nodes(), node.kind(),
// value.debugName(), value.uses()) as properties. Kinds, value names and
// types come from the exporter, so they read as `to_torchscript()` prints
// them.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "tsir/Compiler/Diagnostics.h"

#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Exporter/Exporter.h"

#include "llvm/ADT/STLExtras.h"

#include <pybind11/stl.h>

using namespace mlir;
using namespace tsir::python;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static py::list valuesOf(const GraphRef &graph, ValueRange values) {
  py::list result;
  for (Value value : values)
    result.append(PyValue(graph, value));
  return result;
}

/// The nodes of `block` in order, and with `recurse` the nodes of their
/// blocks right after each node (torch's depth-first order).
static void collectNodes(const GraphRef &graph, Block &block, bool recurse,
                         py::list &result) {
  for (Operation &op : block.without_terminator()) {
    result.append(PyNode(graph, &op));
    if (!recurse)
      continue;
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        collectNodes(graph, nested, recurse, result);
  }
}

static py::list nodesOf(const GraphRef &graph, Block &block, bool recurse) {
  py::list result;
  collectNodes(graph, block, recurse, result);
  return result;
}

/// Graph and block outputs are the operands of the terminator, which
/// TorchScript calls the return node.
static ValueRange outputsOf(Block &block) {
  if (block.empty() || !block.mightHaveTerminator())
    return {};
  return block.getTerminator()->getOperands();
}

static py::object returnNodeOf(const GraphRef &graph, Block &block) {
  if (block.empty() || !block.mightHaveTerminator())
    return py::none();
  return py::cast(PyNode(graph, block.getTerminator()));
}

/// The kind of a node; ops with no TorchScript spelling (after lowering)
/// show their MLIR name, so lowered graphs can still be walked.
static std::string kindOf(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>())
    return "prim::Return";
  std::string kind = tsir::getNodeKind(op);
  return kind.empty() ? op->getName().getStringRef().str() : kind;
}

/// TorchScript's node attributes, as the exporter prints them in `[...]`.
static py::dict attributesOf(const GraphRef &graph, Operation *op) {
  py::dict result;
  auto addAll = [&](DictionaryAttr attrs) {
    if (!attrs)
      return;
    for (NamedAttribute attr : attrs)
      result[py::str(attr.getName().str())] =
          attributeToPython(graph, attr.getValue(), Type());
  };
  if (auto constant = dyn_cast<tsir::prim::ConstantOp>(op)) {
    Attribute value = constant.getValue();
    Type type = constant.getType();
    if (isa<UnitAttr>(value))
      return result; // `prim::Constant()` is None
    if (isa<tsir::prim::FunctionType>(type) && isa<StringAttr>(value))
      result["name"] = py::str(cast<StringAttr>(value).str());
    else
      result["value"] = attributeToPython(graph, value, type);
    return result;
  }
  if (auto generic = dyn_cast<tsir::prim::GenericOp>(op)) {
    addAll(generic.getNodeAttrsAttr());
    return result;
  }
  if (tsir::isSubgraphNode(op)) {
    addAll(op->getAttrOfType<DictionaryAttr>("node_attrs"));
    return result;
  }
  if (auto typeCheck = dyn_cast<tsir::prim::TypeCheckOp>(op)) {
    result["types"] =
        attributeToPython(graph, typeCheck.getTypesAttr(), Type());
    return result;
  }
  if (isa_and_nonnull<tsir::prim::PrimDialect>(op->getDialect()))
    if (auto name = op->getAttrOfType<StringAttr>("name"))
      result["name"] = py::str(name.str());
  return result;
}

static py::object optionalString(const std::string &text) {
  return text.empty() ? py::object(py::none()) : py::object(py::str(text));
}

/// `%d.1 = aten::add(%a.1, %b.1, %3)`.
static std::string describeNode(PyGraph &graph, Operation *op) {
  std::string text;
  for (auto [index, result] : llvm::enumerate(op->getResults()))
    text += (index ? ", %" : "%") + graph.valueName(result);
  if (!text.empty())
    text += " = ";
  text += kindOf(op) + "(";
  for (auto [index, operand] : llvm::enumerate(op->getOperands()))
    text += (index ? ", %" : "%") + graph.valueName(operand);
  return text + ")";
}

//===----------------------------------------------------------------------===//
// Bindings
//===----------------------------------------------------------------------===//

void tsir::python::bindTraversal(py::module_ &m) {
  auto graphClass =
      py::reinterpret_borrow<py::class_<PyGraph, GraphRef>>(m.attr("Graph"));
  graphClass
      .def_property_readonly(
          "inputs",
          [](const GraphRef &graph) {
            return valuesOf(graph, graph->func().getArguments());
          },
          "The graph's inputs (a frozen module's `self` included).")
      .def_property_readonly(
          "outputs",
          [](const GraphRef &graph) {
            return valuesOf(graph, outputsOf(graph->func().getBody().front()));
          })
      .def(
          "nodes",
          [](const GraphRef &graph, bool recurse) {
            return nodesOf(graph, graph->func().getBody().front(), recurse);
          },
          py::arg("recurse") = false,
          "The graph's nodes in order; with recurse=True also the nodes of "
          "their blocks, each block's right after its node.")
      .def(
          "find_nodes",
          [](const GraphRef &graph, const std::string &kind) {
            // Collected first: no Python call (which may throw) runs inside
            // MLIR's walk, which is built without exceptions.
            SmallVector<Operation *> found;
            func::FuncOp body = graph->func();
            body.walk([&](Operation *op) {
              if (!op->hasTrait<OpTrait::IsTerminator>() && op != body &&
                  kindOf(op) == kind)
                found.push_back(op);
            });
            py::list result;
            for (Operation *op : found)
              result.append(PyNode(graph, op));
            return result;
          },
          py::arg("kind"), "Every node of this kind, in blocks too.")
      .def_property_readonly("return_node", [](const GraphRef &graph) {
        return returnNodeOf(graph, graph->func().getBody().front());
      });

  py::class_<PyNode> node(m, "Node", "A node of a graph (one op).");
  node.def_property_readonly(
          "kind", [](const PyNode &self) { return kindOf(self.get()); },
          "TorchScript's kind: 'aten::add', 'prim::If', 'prim::Constant'.")
      .def_property_readonly(
          "op_name",
          [](const PyNode &self) {
            return self.get()->getName().getStringRef().str();
          },
          "The MLIR op ('aten.add.Tensor'): the kind with its overload.")
      .def_property_readonly("inputs",
                             [](const PyNode &self) {
                               return valuesOf(self.getGraph(),
                                               self.get()->getOperands());
                             })
      .def_property_readonly("outputs",
                             [](const PyNode &self) {
                               return valuesOf(self.getGraph(),
                                               self.get()->getResults());
                             })
      .def_property_readonly(
          "blocks",
          [](const PyNode &self) {
            py::list result;
            for (Region &region : self.get()->getRegions())
              for (Block &block : region)
                result.append(PyBlock(self.getGraph(), &block));
            return result;
          },
          "prim::If's two branches, prim::Loop's body, a subgraph node's "
          "graph.")
      .def_property_readonly(
          "attributes",
          [](const PyNode &self) {
            return attributesOf(self.getGraph(), self.get());
          },
          "TorchScript's node attributes: a constant's 'value', a "
          "GetAttr's 'name', a generic node's own.")
      .def_property_readonly(
          "location",
          [](const PyNode &self) {
            return optionalString(tsir::formatLocation(self.get()->getLoc()));
          },
          "'file:line:col' of the node in the graph text, or None.")
      .def_property_readonly(
          "source",
          [](const PyNode &self) {
            tsir::SourceComment source =
                tsir::decodeNodeLocation(self.get()->getLoc()).source;
            if (!source)
              return py::object(py::none());
            return py::object(py::str(source.file.str() + ":" +
                                      std::to_string(source.line) + ":" +
                                      std::to_string(source.column)));
          },
          "The Python source comment ('model.py:7:8'), or None.")
      .def_property_readonly(
          "scope",
          [](const PyNode &self) {
            return optionalString(
                tsir::decodeNodeLocation(self.get()->getLoc()).scope.str());
          })
      .def_property_readonly(
          "owner",
          [](const PyNode &self) -> py::object {
            Operation *parent = self.get()->getParentOp();
            if (!parent || isa<func::FuncOp>(parent))
              return py::none();
            return py::cast(PyNode(self.getGraph(), parent));
          },
          "The node whose block holds this node, or None at top level.")
      .def("__repr__", [](const PyNode &self) {
        return "<tsir.Node " + describeNode(*self.getGraph(), self.get()) + ">";
      });
  // Handles compare and hash by what they point at, so that `node in
  // value.uses` and dicts keyed by nodes or values work.
  node.def("__eq__",
           [](const PyNode &a, const PyNode &b) {
             return a.getGraph() == b.getGraph() && a.get() == b.get();
           })
      .def("__hash__", [](const PyNode &self) {
        return std::hash<const void *>()(self.get());
      });

  py::class_<PyBlock> block(m, "Block", "A block of a node.");
  block
      .def_property_readonly("inputs",
                             [](const PyBlock &self) {
                               return valuesOf(self.getGraph(),
                                               self.get()->getArguments());
                             })
      .def_property_readonly("outputs",
                             [](const PyBlock &self) {
                               return valuesOf(self.getGraph(),
                                               outputsOf(*self.get()));
                             })
      .def(
          "nodes",
          [](const PyBlock &self, bool recurse) {
            return nodesOf(self.getGraph(), *self.get(), recurse);
          },
          py::arg("recurse") = false)
      .def_property_readonly("return_node",
                             [](const PyBlock &self) {
                               return returnNodeOf(self.getGraph(),
                                                   *self.get());
                             })
      .def_property_readonly(
          "owner",
          [](const PyBlock &self) {
            return PyNode(self.getGraph(), self.get()->getParentOp());
          },
          "The node the block belongs to.")
      .def("__eq__",
           [](const PyBlock &a, const PyBlock &b) {
             return a.getGraph() == b.getGraph() && a.get() == b.get();
           })
      .def("__hash__", [](const PyBlock &self) {
        return std::hash<const void *>()(self.get());
      });

  py::class_<PyValue> value(m, "Value", "A value of a graph.");
  value
      .def_property_readonly(
          "name",
          [](const PyValue &self) {
            return self.getGraph()->valueName(self.get());
          },
          "The TorchScript debug name, without '%', as to_torchscript() "
          "prints it.")
      .def_property_readonly("type",
                             [](const PyValue &self) {
                               return PyType(self.getGraph(),
                                             self.get().getType());
                             })
      .def_property_readonly(
          "producer",
          [](const PyValue &self) -> py::object {
            if (auto result = dyn_cast<OpResult>(self.get()))
              return py::cast(PyNode(self.getGraph(), result.getOwner()));
            return py::none();
          },
          "The node that outputs the value; None for graph and block "
          "inputs.")
      .def_property_readonly(
          "index",
          [](const PyValue &self) {
            Value value = self.get();
            if (auto result = dyn_cast<OpResult>(value))
              return result.getResultNumber();
            return cast<BlockArgument>(value).getArgNumber();
          },
          "The position among its producer's outputs or its block's inputs.")
      .def_property_readonly(
          "uses",
          [](const PyValue &self) {
            // MLIR keeps uses newest first; TorchScript lists them oldest
            // first.
            SmallVector<OpOperand *> uses;
            for (OpOperand &use : self.get().getUses())
              uses.push_back(&use);
            py::list result;
            for (OpOperand *use : llvm::reverse(uses))
              result.append(
                  py::make_tuple(PyNode(self.getGraph(), use->getOwner()),
                                 use->getOperandNumber()));
            return result;
          },
          "(node, input index) for every use; graph and block outputs are "
          "used by the return node.")
      .def("__repr__", [](const PyValue &self) {
        std::string type;
        llvm::raw_string_ostream os(type);
        if (!tsir::printTorchScriptType(self.get().getType(), os)) {
          type.clear();
          self.get().getType().print(os);
        }
        return "<tsir.Value %" + self.getGraph()->valueName(self.get()) +
               " : " + type + ">";
      });
  value
      .def("__eq__",
           [](const PyValue &a, const PyValue &b) {
             return a.getGraph() == b.getGraph() && a.get() == b.get();
           })
      .def("__hash__", [](const PyValue &self) {
        return std::hash<const void *>()(self.get().getAsOpaquePointer());
      });
}
