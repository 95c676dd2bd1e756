//===- Dot.cpp - A graph as Graphviz dot text -----------------------------===//
//
// graph.to_dot(): one box per node labelled with its kind (and a
// constant's value: lists, tuples, strings, None, small tensors, a weight's
// name and type), one edge per use labelled with the value's name, graph
// inputs and outputs as ovals, and each block of an If, a Loop or a
// subgraph as a cluster with its own inputs and return. Render with
// `dot -Tsvg`.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Exporter/Exporter.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace tsir::python;
namespace prim = tsir::prim;
namespace rt = tsir::rt;

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

  std::string label(Operation *op) {
    std::string text = tsir::getNodeKind(op);
    if (text.empty())
      text = op->getName().getStringRef().str();
    // A constant's value is what makes it readable.
    if (auto constant = dyn_cast<prim::ConstantOp>(op))
      text += "\\n" + escape(shorten(constantValue(constant)));
    return text;
  }

  /// What a constant holds, in one line: `[1, 2]`, `(1, "a")`, `"cpu"`,
  /// `None`, `True`, `0.1`; a small tensor's values and type; a weight's
  /// name and type (`self.fc.weight Float(10, 16)`).
  std::string constantValue(prim::ConstantOp constant) {
    Attribute value = constant.getValue();
    Type type = constant.getType();
    if (auto ref = dyn_cast<prim::TensorRefAttr>(value))
      return weightLabel(ref.getName(), type);
    if (isa<DenseResourceElementsAttr>(value))
      return weightLabel(graph.valueName(constant.getResult()),
                         cast<ShapedType>(cast<ElementsAttr>(value).getType()));
    std::string text;
    llvm::raw_string_ostream os(text);
    printValue(value, type, os);
    return text;
  }

  /// `name Float(10, 16)`: a weight's type is its attached tensor's, else
  /// what the constant declares.
  std::string weightLabel(StringRef name, Type declared) {
    for (const auto &[weightName, tensor] : graph.weights())
      if (weightName == name)
        return name.str() + " " +
               tensorType(rt::dtypeTorchName(tensor.dtype()), tensor.sizes());
    auto type = dyn_cast<prim::TensorType>(declared);
    if (!type || !type.getHasSizes())
      return name.str() + " <Tensor>";
    return name.str() + " " + tensorType(type.getDtype(), type.getSizes());
  }
  std::string weightLabel(StringRef name, ShapedType type) {
    return name.str() + " " +
           tensorType(type.getElementType(), type.getShape());
  }

  /// `Float(10, 16)`, `Tensor(*, 3)` without a dtype.
  static std::string tensorType(Type dtype, ArrayRef<int64_t> sizes) {
    return tensorType(dtype ? prim::torchNameOfDtype(dtype) : "Tensor", sizes);
  }
  static std::string tensorType(StringRef dtypeName, ArrayRef<int64_t> sizes) {
    std::string text = dtypeName.str() + "(";
    for (auto [i, size] : llvm::enumerate(sizes))
      text += (i ? ", " : "") + (size < 0 ? std::string("*")
                                           : std::to_string(size));
    return text + ")";
  }

  /// One value, as Python would show it: lists and tuples element by
  /// element, floats in their shortest exact form, bools as True/False.
  /// Anything else as the exporter spells it (or, failing that, as MLIR).
  static void printValue(Attribute value, Type type, llvm::raw_ostream &os) {
    if (auto optional = dyn_cast_or_null<prim::OptionalType>(type))
      type = optional.getElementType();
    if (!value || isa<UnitAttr>(value)) {
      os << "None";
    } else if (auto integer = dyn_cast<IntegerAttr>(value);
               integer && integer.getType().isInteger(1)) {
      os << (integer.getValue().getBoolValue() ? "True" : "False");
    } else if (integer) {
      os << integer.getValue().getSExtValue();
    } else if (auto number = dyn_cast<FloatAttr>(value)) {
      os << shortestFloat(number.getValue());
    } else if (auto string = dyn_cast<StringAttr>(value)) {
      tsir::printTorchScriptString(string.getValue(), os);
    } else if (auto array = dyn_cast<ArrayAttr>(value);
               array && isa_and_nonnull<prim::ListType, prim::TupleType>(type)) {
      printSequence(array, type, os);
    } else if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
      printTensor(dense, os);
    } else if (!tsir::printTorchScriptConstant(value, type, os)) {
      value.print(os);
    }
  }

  static void printSequence(ArrayAttr array, Type type, llvm::raw_ostream &os) {
    auto tuple = dyn_cast<prim::TupleType>(type);
    os << (tuple ? "(" : "[");
    for (auto [i, element] : llvm::enumerate(array)) {
      Type elementType =
          tuple ? (i < tuple.getTypes().size() ? tuple.getTypes()[i] : Type())
                : cast<prim::ListType>(type).getElementType();
      os << (i ? ", " : "");
      printValue(element, elementType, os);
    }
    // Python's one-element tuple: `(1,)`.
    os << (tuple && array.size() == 1 ? ",)" : tuple ? ")" : "]");
  }

  /// A tensor printed inline in the graph: its values when there are a
  /// few, and its type.
  static void printTensor(DenseElementsAttr dense, llvm::raw_ostream &os) {
    ShapedType type = dense.getType();
    if (type.getNumElements() <= kMaxTensorElements) {
      std::vector<std::string> values;
      if (isa<FloatType>(type.getElementType())) {
        for (const APFloat &element : dense.getValues<APFloat>())
          values.push_back(shortestFloat(element));
      } else {
        bool isSigned = !type.getElementType().isUnsignedInteger() &&
                        !type.getElementType().isInteger(1);
        for (const APInt &element : dense.getValues<APInt>())
          values.push_back(llvm::toString(element, 10, isSigned));
      }
      // Cut here rather than at the end, so that the type still shows.
      os << "[" << shorten(llvm::join(values, ", "), kMaxValueChars / 2)
         << "] ";
    }
    os << tensorType(type.getElementType(), type.getShape());
  }

  /// The fewest digits that read back as `value` in its own precision
  /// (`0.1`, not `0.10000000000000001` or a float's `0.10000000149`).
  static std::string shortestFloat(const APFloat &value) {
    double exact = value.convertToDouble();
    char buffer[32];
    for (int digits = 1; digits <= 17; ++digits) {
      std::snprintf(buffer, sizeof buffer, "%.*g", digits, exact);
      APFloat back(std::strtod(buffer, nullptr));
      bool losesInfo;
      back.convert(value.getSemantics(), APFloat::rmNearestTiesToEven,
                   &losesInfo);
      if (back.bitwiseIsEqual(value) || value.isNaN())
        break;
    }
    std::string text = buffer;
    double shown = std::strtod(buffer, nullptr);
    // A float stays recognizably a float: `2.`, as torch prints it.
    if (std::isfinite(shown) &&
        text.find_first_of(".e") == std::string::npos)
      text += ".";
    return text;
  }

  /// A constant's value is cut to this many characters: a list of a
  /// thousand ints would make its box wider than the graph.
  static constexpr size_t kMaxValueChars = 60;
  /// Inline tensors with more elements show their type only.
  static constexpr int64_t kMaxTensorElements = 8;

  static std::string shorten(std::string text,
                             size_t limit = kMaxValueChars) {
    if (text.size() > limit)
      text = text.substr(0, limit - 3) + "...";
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
