//===- Exporter.cpp - Print prim/aten MLIR as a TorchScript graph ---------===//
//
// The inverse of the importer: walks func.func @graph and prints it as torch
// 1.13's `print(graph)` does (torch/csrc/jit/ir/ir.cpp, Graph::print and
// Node::print): value names from the op locations, made unique per graph,
// `# file:line:col` source comments, nested `blockN(...)` blocks, and a
// `with prim::FusionGroup_N = graph(...)` section per subgraph op, numbered
// per graph and nested as torch nests them; the module's
// prim.UnusedSubgraph ops print as sections of the main graph.
//
//===----------------------------------------------------------------------===//

#include "tsir/Exporter/Exporter.h"

#include "Printers.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <optional>

using namespace mlir;
using namespace tsir;
namespace prim = tsir::prim;

//===----------------------------------------------------------------------===//
// Subgraph ops
//===----------------------------------------------------------------------===//

/// The importer keeps a `with` subgraph whose kind has no typed op
/// (`prim::DifferentiableGraph_0`) as a prim.Generic holding the subgraph as
/// its one isolated region. Such an op prints back as a subgraph, not as a
/// node with a block, which torch could not read.
static bool isGenericSubgraph(prim::GenericOp op) {
  auto [base, index] = op.getKind().rsplit('_');
  if (base.empty() || index.empty() || !llvm::all_of(index, llvm::isDigit))
    return false;
  if (op->getNumRegions() != 1 || !op->getRegion(0).hasOneBlock())
    return false;
  Region &body = op->getRegion(0);
  if (body.front().getNumArguments() != op.getInputs().size())
    return false;
  WalkResult usesOuterValue = body.walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (!body.isAncestor(operand.getParentRegion()))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !usesOuterValue.wasInterrupted();
}

/// The kind a subgraph op prints as before its `_N` (`prim::FusionGroup`),
/// or "" if `op` is not a subgraph op.
static StringRef subgraphKind(Operation *op) {
  if (isa<prim::FusionGroupOp>(op))
    return "prim::FusionGroup";
  if (isa<prim::TensorExprGroupOp>(op))
    return "prim::TensorExprGroup";
  if (isa<prim::FallbackGraphOp>(op))
    return "prim::FallbackGraph";
  if (isa<prim::DifferentiableGraphOp>(op))
    return "prim::DifferentiableGraph";
  if (auto generic = dyn_cast<prim::GenericOp>(op))
    if (isGenericSubgraph(generic))
      return generic.getKind().rsplit('_').first;
  return "";
}

//===----------------------------------------------------------------------===//
// Value names
//===----------------------------------------------------------------------===//

namespace {

/// The value names of one graph (the main graph or one `with` subgraph,
/// each its own namespace). TorchScript requires every name in a graph to
/// be unique, nested blocks included.
class NameTable {
public:
  /// Names every value defined in `body` and the blocks nested in it,
  /// except inside subgraph ops, which are graphs of their own.
  void assign(Block &body);

  StringRef lookup(Value value) const {
    auto it = names.find(value);
    return it == names.end() ? StringRef() : StringRef(it->second);
  }

  const llvm::DenseMap<Value, std::string> &getNames() const { return names; }

private:
  void collect(Block &block);
  void want(Value value, StringRef name);
  bool isFree(StringRef name) const {
    return !used.contains(name) && !wanted.contains(name);
  }

  // Definitions in print order, with the (sanitized) name each carries.
  std::vector<std::pair<Value, std::string>> definitions;
  llvm::StringSet<> wanted;
  llvm::StringSet<> used;
  llvm::DenseMap<Value, std::string> names;
  uint64_t nextNumber = 0;
};

} // namespace

/// TorchScript value names are made of [A-Za-z0-9_.], and the module paths
/// torch prints may hold a `-` between two of those; a location a pass made
/// may carry anything.
static std::string sanitizeName(StringRef name) {
  std::string result = name.str();
  for (size_t i = 0; i < result.size(); ++i) {
    char c = result[i];
    bool inner = i > 0 && i + 1 < result.size();
    if (!llvm::isAlnum(c) && c != '_' && c != '.' && !(c == '-' && inner))
      result[i] = '_';
  }
  return result;
}

static bool isNumber(StringRef name) {
  return !name.empty() && llvm::all_of(name, llvm::isDigit);
}

void NameTable::want(Value value, StringRef name) {
  std::string clean = sanitizeName(name);
  if (!clean.empty()) {
    wanted.insert(clean);
    // Fresh numbers start after the largest numeric name, as torch's do.
    uint64_t number;
    if (isNumber(clean) && !StringRef(clean).getAsInteger(10, number))
      nextNumber = std::max(nextNumber, number + 1);
  }
  definitions.emplace_back(value, std::move(clean));
}

/// The key a weight constant is stored under (`self.fc.weight`): the name
/// of its `dense_resource` blob or of its `#prim.tensor_ref`; "" for any
/// other op. It names the value in the weights file, so it is the weight's
/// name in the text, with or without locations.
static StringRef weightKey(Operation &op) {
  auto constant = dyn_cast<prim::ConstantOp>(op);
  if (!constant)
    return "";
  Attribute value = constant.getValueAttr();
  if (auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(value))
    return resource.getRawHandle().getKey();
  if (auto ref = dyn_cast_or_null<prim::TensorRefAttr>(value))
    return ref.getName();
  return "";
}

void NameTable::collect(Block &block) {
  for (BlockArgument arg : block.getArguments())
    want(arg, getArgumentName(arg.getLoc()));
  for (Operation &op : block) {
    NodeLocation location = decodeNodeLocation(op.getLoc());
    StringRef weight = weightKey(op);
    for (OpResult result : op.getResults())
      want(result, !weight.empty() ? weight
                   : result.getResultNumber() < location.resultNames.size()
                       ? location.resultNames[result.getResultNumber()]
                       : StringRef());
    if (!subgraphKind(&op).empty())
      continue;
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        collect(nested);
  }
}

void NameTable::assign(Block &body) {
  collect(body);
  for (auto &[value, name] : definitions) {
    std::string chosen;
    if (!name.empty() && !used.contains(name)) {
      chosen = name;
    } else if (!name.empty() && !isNumber(name)) {
      // A name already taken (a pass duplicated an op, or two blocks define
      // the same name): the later definition gets `x.1`, `x.2`, ...
      for (unsigned suffix = 1;; ++suffix) {
        chosen = name + "." + std::to_string(suffix);
        if (isFree(chosen))
          break;
      }
    } else {
      // Unnamed values (made by passes) and repeated numbers get a fresh
      // number that no value of the graph carries.
      do
        chosen = std::to_string(nextNumber++);
      while (!isFree(chosen));
    }
    used.insert(chosen);
    names[value] = std::move(chosen);
  }
}

//===----------------------------------------------------------------------===//
// The printer
//===----------------------------------------------------------------------===//

namespace {

class GraphExporter {
public:
  explicit GraphExporter(raw_ostream &os) : os(os) {}

  LogicalResult exportFunction(func::FuncOp func);

private:
  /// One graph's `with` sections. torch numbers the subgraph nodes of each
  /// graph it prints from 0, in print order, and prints their sections after
  /// the graph's return, each followed by its own (Graph::print in
  /// torch/csrc/jit/ir/ir.cpp). Unused sections keep the numbers they were
  /// imported with, and the nodes' numbers go around them.
  struct Sections {
    struct Entry {
      uint64_t number;
      std::string name;
      Block *body;
    };
    // Numbered sections, each number once; unused sections whose name
    // has no number or another's number, which print as they are, after
    // those; and unused sections whose name another one has, which take a
    // fresh number after the nodes' (and print in its order), so that the
    // text reads back.
    std::vector<Entry> entries;
    std::vector<Entry> unnumbered;
    std::vector<Entry> renamed;
    llvm::DenseSet<uint64_t> reserved;
    uint64_t next = 0;

    uint64_t takeNumber() {
      uint64_t number = next++;
      while (reserved.contains(number))
        number = next++;
      return number;
    }
  };

  LogicalResult printGraph(Block &body,
                           ArrayRef<prim::UnusedSubgraphOp> unused = {});
  LogicalResult printNode(Operation &op, unsigned level);
  LogicalResult printKind(Operation &op);
  LogicalResult printNestedBlock(Operation &op, Block &block, unsigned index,
                                 unsigned level);
  LogicalResult printDefinitions(ValueRange values, StringRef separator,
                                 Operation *owner);
  void printUses(ValueRange values);
  LogicalResult printNodeAttrs(Operation &op, DictionaryAttr attrs);
  raw_ostream &indent(unsigned level) { return os.indent(2 * level); }

  raw_ostream &os;
  // The sections of the graph being printed.
  Sections *sections = nullptr;
  NameTable *names = nullptr;
};

} // namespace

LogicalResult GraphExporter::exportFunction(func::FuncOp func) {
  if (func.isExternal())
    return func.emitError("cannot export a function without a body");
  if (!func.getBody().hasOneBlock())
    return func.emitError("cannot export a function with more than one "
                          "block: TorchScript has no branches");
  // The sections no node uses belong to the module's one graph.
  SmallVector<prim::UnusedSubgraphOp> unused;
  if (auto module = dyn_cast_or_null<ModuleOp>(func->getParentOp()))
    llvm::append_range(unused, module.getOps<prim::UnusedSubgraphOp>());
  os << "graph(";
  return printGraph(func.getBody().front(), unused);
}

/// The `N` of a section name `prim::FusionGroup_N`.
static std::optional<uint64_t> sectionNumber(StringRef name) {
  StringRef digits = name.rsplit('_').second;
  uint64_t number;
  if (digits.empty() || digits.size() == name.size() ||
      !llvm::all_of(digits, llvm::isDigit) || digits.getAsInteger(10, number))
    return std::nullopt;
  return number;
}

/// Prints a graph's inputs, nodes and return, after `graph(`, then its
/// sections, `unused` among them.
LogicalResult
GraphExporter::printGraph(Block &body,
                          ArrayRef<prim::UnusedSubgraphOp> unused) {
  NameTable table;
  table.assign(body);
  NameTable *outer = std::exchange(names, &table);
  Sections graphSections;
  Sections *outerSections = std::exchange(sections, &graphSections);
  llvm::scope_exit restore([&] {
    names = outer;
    sections = outerSections;
  });
  llvm::StringSet<> unusedNames;
  for (prim::UnusedSubgraphOp op : unused) {
    StringRef name = op.getName();
    std::optional<uint64_t> number = sectionNumber(name);
    Sections::Entry entry{number.value_or(0), name.str(),
                          &op.getBody().front()};
    bool unique = unusedNames.insert(name).second;
    if (number && graphSections.reserved.insert(*number).second)
      graphSections.entries.push_back(std::move(entry));
    else if (unique)
      graphSections.unnumbered.push_back(std::move(entry));
    else
      graphSections.renamed.push_back(std::move(entry));
  }

  Operation *owner = body.getParentOp();
  if (failed(printDefinitions(body.getArguments(), ",\n      ", owner)))
    return failure();
  os << "):\n";
  if (!body.mightHaveTerminator())
    return owner->emitError("cannot export a graph without a return");
  for (Operation &op : body.without_terminator())
    if (failed(printNode(op, 1)))
      return failure();
  Operation *terminator = body.getTerminator();
  if (!isa<func::ReturnOp, prim::ReturnOp, prim::YieldOp>(terminator))
    return terminator->emitError("cannot export '")
           << terminator->getName() << "' as a graph's return";
  os << "  return (";
  printUses(terminator->getOperands());
  os << ")\n";

  for (Sections::Entry &entry : graphSections.renamed) {
    StringRef base = entry.name;
    if (sectionNumber(base))
      base = base.rsplit('_').first;
    entry.number = graphSections.takeNumber();
    entry.name = (base + "_" + Twine(entry.number)).str();
    graphSections.entries.push_back(std::move(entry));
  }
  llvm::sort(graphSections.entries,
             [](const Sections::Entry &a, const Sections::Entry &b) {
               return a.number < b.number;
             });
  llvm::append_range(graphSections.entries, graphSections.unnumbered);
  for (const Sections::Entry &entry : graphSections.entries) {
    os << "with " << entry.name << " = graph(";
    if (failed(printGraph(*entry.body)))
      return failure();
  }
  return success();
}

/// `%a : T, %b : U` (graph inputs separate them with ",\n      ").
LogicalResult GraphExporter::printDefinitions(ValueRange values,
                                              StringRef separator,
                                              Operation *owner) {
  for (auto [index, value] : llvm::enumerate(values)) {
    if (index)
      os << separator;
    os << '%' << names->lookup(value) << " : ";
    if (!exporter::printType(value.getType(), os)) {
      InFlightDiagnostic diag = owner->emitError("cannot export ");
      if (auto result = dyn_cast<OpResult>(value))
        diag << "result #" << result.getResultNumber();
      else
        diag << "block argument #" << cast<BlockArgument>(value).getArgNumber();
      return diag << " of type " << value.getType()
                  << ": TorchScript has no such type";
    }
  }
  return success();
}

void GraphExporter::printUses(ValueRange values) {
  llvm::interleaveComma(values, os, [&](Value value) {
    // Every value in sight was named when its graph was; a use of a value
    // from outside a subgraph cannot happen (they are isolated from above).
    os << '%' << names->lookup(value);
  });
}

/// `[name=value, ...]`, torch's node attributes, from a node_attrs
/// dictionary (which keeps them sorted by name).
LogicalResult GraphExporter::printNodeAttrs(Operation &op,
                                            DictionaryAttr attrs) {
  if (!attrs || attrs.empty())
    return success();
  os << '[';
  for (auto [index, attr] : llvm::enumerate(attrs)) {
    if (index)
      os << ", ";
    os << attr.getName().getValue() << '=';
    if (!exporter::printNodeAttr(attr.getValue(), os))
      return op.emitError("cannot export node attribute '")
             << attr.getName().getValue() << "' = " << attr.getValue()
             << ": TorchScript has no such attribute value";
  }
  os << ']';
  return success();
}

/// The node's kind and attributes: `prim::Constant[value=1]`, `aten::add`,
/// `prim::FusionGroup_0[device=-1]`.
LogicalResult GraphExporter::printKind(Operation &op) {
  if (auto constant = dyn_cast<prim::ConstantOp>(op)) {
    os << "prim::Constant";
    Attribute value = constant.getValue();
    Type type = constant.getType();
    if (isa<UnitAttr>(value))
      return success(); // None: `prim::Constant()`
    if (isa<prim::FunctionType>(type) && isa<StringAttr>(value)) {
      os << "[name=";
      exporter::printQuotedString(cast<StringAttr>(value).getValue(), os);
      os << ']';
      return success();
    }
    os << "[value=";
    if (!exporter::printConstantValue(value, type, os))
      return op.emitError("cannot export constant ")
             << value << " of type " << type
             << ": TorchScript has no spelling for it";
    os << ']';
    return success();
  }
  if (StringRef kind = subgraphKind(&op); !kind.empty()) {
    uint64_t number = sections->takeNumber();
    std::string name = (kind + "_" + Twine(number)).str();
    os << name;
    sections->entries.push_back({number, name, &op.getRegion(0).front()});
    return printNodeAttrs(op, op.getAttrOfType<DictionaryAttr>("node_attrs"));
  }
  if (auto generic = dyn_cast<prim::GenericOp>(op)) {
    os << generic.getKind();
    return printNodeAttrs(op, generic.getNodeAttrsAttr());
  }
  if (auto typeCheck = dyn_cast<prim::TypeCheckOp>(op)) {
    os << "prim::TypeCheck[types=";
    if (!exporter::printNodeAttr(typeCheck.getTypesAttr(), os))
      return op.emitError("cannot export the types of prim.TypeCheck: "
                          "TorchScript has no spelling for one of them");
    os << ']';
    return success();
  }

  std::string kind = getNodeKind(&op);
  if (kind.empty())
    return op.emitError("cannot export '")
           << op.getName() << "' to TorchScript: the '"
           << op.getName().getDialectNamespace()
           << "' dialect has no TorchScript equivalent (export before "
              "lowering)";
  os << kind;
  // GetAttr, SetAttr and CallMethod carry the attribute or method name.
  if (isa_and_nonnull<prim::PrimDialect>(op.getDialect()))
    if (auto attrName = op.getAttrOfType<StringAttr>("name")) {
      os << "[name=";
      exporter::printQuotedString(attrName.getValue(), os);
      os << ']';
    }
  return success();
}

LogicalResult GraphExporter::printNode(Operation &op, unsigned level) {
  if (op.hasTrait<OpTrait::IsTerminator>())
    return op.emitError("cannot export '")
           << op.getName() << "' in the middle of a block";
  indent(level);
  // torch prints a node without outputs as ` = prim::Print(...)`, which its
  // own parser rejects; the bare statement is what both parsers read.
  if (op.getNumResults()) {
    if (failed(printDefinitions(op.getResults(), ", ", &op)))
      return failure();
    os << " = ";
  }
  if (failed(printKind(op)))
    return failure();
  os << '(';
  printUses(op.getOperands());
  os << ')';

  NodeLocation location = decodeNodeLocation(op.getLoc());
  if (!location.scope.empty())
    os << ", scope: " << location.scope;
  if (SourceComment source = location.source)
    os << " # " << source.file << ':' << source.line << ':' << source.column;
  os << '\n';

  // A subgraph op's body prints in its `with` section, not here.
  if (!subgraphKind(&op).empty())
    return success();
  unsigned index = 0;
  for (Region &region : op.getRegions()) {
    if (!region.hasOneBlock())
      return op.emitError("cannot export a region with ")
             << llvm::range_size(region) << " blocks: a TorchScript node's "
             << "blocks are single blocks";
    if (failed(printNestedBlock(op, region.front(), index++, level)))
      return failure();
  }
  return success();
}

/// `block0(%i : int):`, its nodes, and `-> (%cond, %x)`.
LogicalResult GraphExporter::printNestedBlock(Operation &op, Block &block,
                                              unsigned index, unsigned level) {
  indent(level + 1) << "block" << index << '(';
  if (failed(printDefinitions(block.getArguments(), ", ", &op)))
    return failure();
  os << "):\n";
  if (!block.mightHaveTerminator())
    return op.emitError("cannot export a block that does not end in "
                        "prim.Yield");
  for (Operation &nested : block.without_terminator())
    if (failed(printNode(nested, level + 2)))
      return failure();
  Operation *terminator = block.getTerminator();
  if (!isa<prim::YieldOp>(terminator))
    return terminator->emitError("cannot export '")
           << terminator->getName() << "' as the end of a TorchScript block";
  indent(level + 2) << "-> (";
  printUses(terminator->getOperands());
  os << ")\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

LogicalResult tsir::exportTorchScript(func::FuncOp func, raw_ostream &os) {
  // Print into a buffer so that a failure leaves `os` untouched.
  std::string text;
  llvm::raw_string_ostream buffer(text);
  if (failed(GraphExporter(buffer).exportFunction(func)))
    return failure();
  os << text;
  return success();
}

std::string tsir::getNodeKind(Operation *op) {
  if (StringRef kind = subgraphKind(op); !kind.empty())
    return kind.str();
  if (auto generic = dyn_cast<prim::GenericOp>(op))
    return generic.getKind().str();
  StringRef name = op->getName().stripDialect();
  if (isa_and_nonnull<prim::PrimDialect>(op->getDialect()))
    return ("prim::" + name).str();
  // `aten.add.Tensor` is the overload `add.Tensor` of `aten::add`;
  // TorchScript text names only the operator.
  if (isa_and_nonnull<aten::AtenDialect>(op->getDialect()))
    return ("aten::" + name.split('.').first).str();
  return "";
}

bool tsir::isSubgraphNode(Operation *op) { return !subgraphKind(op).empty(); }

llvm::DenseMap<Value, std::string> tsir::getValueNames(func::FuncOp func) {
  llvm::DenseMap<Value, std::string> names;
  auto nameGraph = [&](Block &body) {
    NameTable table;
    table.assign(body);
    for (const auto &[value, name] : table.getNames())
      names[value] = name;
  };
  if (func.isExternal())
    return names;
  nameGraph(func.getBody().front());
  // Each subgraph is a namespace of its own, as in the printed file.
  func.walk([&](Operation *op) {
    if (isSubgraphNode(op) && op->getNumRegions() == 1 &&
        !op->getRegion(0).empty())
      nameGraph(op->getRegion(0).front());
  });
  return names;
}

bool tsir::printTorchScriptType(Type type, raw_ostream &os) {
  return exporter::printType(type, os);
}

LogicalResult tsir::exportTorchScript(ModuleOp module, raw_ostream &os) {
  auto funcs = module.getOps<func::FuncOp>();
  size_t count = llvm::range_size(funcs);
  if (count != 1)
    return module.emitError("expected exactly one func.func to export as a "
                            "TorchScript graph, found ")
           << count;
  return exportTorchScript(*funcs.begin(), os);
}

bool tsir::printTorchScriptConstant(Attribute value, Type type,
                                    raw_ostream &os) {
  return exporter::printConstantValue(value, type, os);
}

void tsir::printTorchScriptString(StringRef text, raw_ostream &os) {
  exporter::printQuotedString(text, os);
}
