//===- MLIRGen.cpp - Build prim/aten MLIR from a parsed graph -------------===//
//
// Walks the syntax tree of a graph file and builds `func.func @graph`:
// resolves value names by scope, checks block arities, resolves aten
// overloads, and expands `with` subgraphs into regions; a section that no
// node uses becomes a prim.UnusedSubgraph beside the function. Every error
// names its place in the text. Types are built in MLIRGenTypes.cpp,
// constants and weights in MLIRGenConstants.cpp.
//
//===----------------------------------------------------------------------===//

#include "MLIRGen.h"

#include "OverloadResolution.h"
#include "SchemaTypes.h"
#include "SubgraphSections.h"
#include "Weights.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Importer/Parser.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/ScopedHashTable.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <complex>

using namespace mlir;
using namespace tsir;
using namespace tsir::detail;
namespace prim = tsir::prim;

namespace {

/// The prim kinds that map one to one onto a prim op without regions.
const llvm::StringSet<> &simplePrimKinds() {
  static const llvm::StringSet<> kinds = {
      "ListConstruct", "ListUnpack",     "TupleConstruct", "TupleUnpack",
      "TupleIndex",    "DictConstruct",  "GetAttr",        "SetAttr",
      "CallFunction",  "CallMethod",     "RaiseException", "Print",
      "Uninitialized", "unchecked_cast", "NumToTensor",    "device",
      "dtype"};
  return kinds;
}


} // namespace

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Value MLIRGen::lookup(const ts::ValueUse &use) {
  Value value = symbols->lookup(use.name);
  // torch's parser keeps one flat map of names, so a use means the name's
  // latest definition in the text, even one inside a block that has ended.
  // Where that is not the definition in scope, torch builds a graph that
  // uses a value out of its scope; say so rather than pick another value.
  auto latest = latestDefs->find(use.name);
  if (latest != latestDefs->end() && latest->second.first != value) {
    ts::SourcePos at = latest->second.second;
    error(use.pos) << "'%" << use.name << "' was last defined at " << at.line
                   << ":" << at.col
                   << ", inside a block that has ended; torch would use that "
                      "value out of its scope";
    return {};
  }
  if (!value)
    error(use.pos) << "use of undefined value '%" << use.name << "'";
  return value;
}

LogicalResult MLIRGen::define(const ts::ValueDef &def, Value value) {
  // A name defined again shadows the earlier definition from here on, as
  // in torch's parser; the exporter gives the two values distinct names.
  symbols->insert(def.name, value);
  (*latestDefs)[def.name] = {value, def.pos};
  return success();
}

LogicalResult MLIRGen::resolveInputs(const ts::Node &node,
                                     SmallVectorImpl<Value> &inputs) {
  for (const ts::ValueUse &use : node.inputs) {
    Value value = lookup(use);
    if (!value)
      return failure();
    inputs.push_back(value);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Graphs and blocks
//===----------------------------------------------------------------------===//

/// The nodes of `block`, nested blocks included.
static size_t countNodes(const ts::Block &block) {
  size_t count = block.nodes.size();
  for (const ts::Node &node : block.nodes)
    for (const ts::Block &nested : node.blocks)
      count += countNodes(nested);
  return count;
}

OwningOpRef<ModuleOp> MLIRGen::build() {
  sections =
      SectionTree::build(file, [&](ts::SourcePos pos) -> InFlightDiagnostic {
        return error(pos);
      });
  if (!sections)
    return nullptr;
  expanded.assign(file.subgraphs.size(), false);
  size_t mainNodes = countNodes(file.main.body);
  nodeBudget = mainNodes + kMaxCopiedNodes;
  mainLatestDefs.reserve(mainNodes + file.main.body.params.size());
  for (const ts::Graph &section : file.subgraphs)
    nodeBudget += countNodes(section.body);

  OwningOpRef<ModuleOp> module = ModuleOp::create(at(file.main.pos));
  builder.setInsertionPointToEnd(module->getBody());

  SmallVector<Type> inputTypes;
  if (failed(convertTypes(file.main.body.params, inputTypes)))
    return nullptr;
  auto func = func::FuncOp::create(builder, at(file.main.pos), "graph",
                                   builder.getFunctionType(inputTypes, {}));
  Block *entry = func.addEntryBlock();
  for (auto [arg, def] :
       llvm::zip(entry->getArguments(), file.main.body.params))
    arg.setLoc(NameLoc::get(StringAttr::get(context, def.name), at(def.pos)));

  Scope scope(*symbols);
  if (failed(emitBlockBody(file.main.body, *entry,
                           func::ReturnOp::getOperationName())))
    return nullptr;
  func.setFunctionType(builder.getFunctionType(
      inputTypes, entry->getTerminator()->getOperandTypes()));

  // The sections of the main graph that no node used; expanding one
  // expands the sections it holds.
  for (unsigned index = 0, e = file.subgraphs.size(); index != e; ++index)
    if (!expanded[index] &&
        sections->holder(index) == SectionTree::kMainGraph &&
        failed(emitUnusedSection(index)))
      return nullptr;
  if (hadError)
    return nullptr;
  return module;
}

/// Emits `block`'s params (bound to `target`'s arguments, which the caller
/// created), nodes and return terminator (an op named `terminator`).
LogicalResult MLIRGen::emitBlockBody(const ts::Block &block, Block &target,
                                     StringRef terminator) {
  // The parser bounds the nesting of blocks in each graph; subgraphs nest
  // graphs, and the module they build must stay within what MLIR's
  // recursive printer and verifier can take.
  ++depth;
  llvm::scope_exit leave([&] { --depth; });
  if (depth > ts::kMaxNestingDepth + 1) {
    error(block.pos) << "blocks and subgraphs nested deeper than "
                     << ts::kMaxNestingDepth << " levels";
    return failure();
  }
  for (auto [arg, def] : llvm::zip(target.getArguments(), block.params))
    if (failed(define(def, arg)))
      return failure();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&target);
  for (const ts::Node &node : block.nodes)
    if (failed(emitNode(node)))
      return failure();
  SmallVector<Value> returns;
  for (const ts::ValueUse &use : block.returns) {
    Value value = lookup(use);
    if (!value)
      return failure();
    returns.push_back(value);
  }
  OperationState state(at(block.returnPos), terminator);
  state.addOperands(returns);
  builder.create(state);
  return success();
}

/// Appends a block to `region` whose arguments are `params`, each located
/// at its name and place in the text; null if a type does not convert.
Block *MLIRGen::addBlock(Region &region,
                         const std::vector<ts::ValueDef> &params) {
  SmallVector<Type> types;
  if (failed(convertTypes(params, types)))
    return nullptr;
  SmallVector<Location> locs;
  for (const ts::ValueDef &def : params)
    locs.push_back(
        NameLoc::get(StringAttr::get(context, def.name), at(def.pos)));
  Block *target = new Block();
  region.push_back(target);
  target->addArguments(types, locs);
  return target;
}

Location MLIRGen::nodeLocation(const ts::Node &node) {
  NodeLocation parts;
  for (const ts::ValueDef &def : node.outputs)
    parts.resultNames.push_back(def.name);
  parts.position = FileLineColLoc::get(fileName, node.pos.line, node.pos.col);
  if (!node.sourceFile.empty())
    parts.source = {node.sourceFile, node.sourceLine, node.sourceCol};
  parts.scope = node.scope;
  return makeNodeLocation(context, parts);
}

/// Torch prints a node that holds a subgraph as `prim::FusionGroup_0`, its
/// kind plus the index of the `with` section that holds the subgraph.
static bool namesSubgraph(StringRef kind) {
  if (!kind.consume_front("prim::"))
    return false;
  auto [base, index] = kind.rsplit('_');
  return !base.empty() && base != kind && !index.empty() &&
         llvm::all_of(index, [](char c) { return c >= '0' && c <= '9'; });
}

LogicalResult MLIRGen::emitNode(const ts::Node &node) {
  if (++nodesBuilt > nodeBudget) {
    error(node.pos) << "the subgraphs expand to more than " << kMaxCopiedNodes
                    << " nodes beyond those of the text: a section that "
                       "several nodes name is copied for each";
    return failure();
  }
  SmallVector<Value> inputs;
  SmallVector<Type> resultTypes;
  if (failed(resolveInputs(node, inputs)) ||
      failed(convertTypes(node.outputs, resultTypes)))
    return failure();
  Location loc = nodeLocation(node);
  StringRef kind = node.kind;

  Operation *op = nullptr;
  if (kind == "prim::Constant") {
    op = emitConstant(node, resultTypes, loc);
  } else if (kind == "prim::If") {
    op = emitIf(node, inputs, resultTypes, loc);
  } else if (kind == "prim::Loop") {
    op = emitLoop(node, inputs, resultTypes, loc);
  } else if (sections->isSectionName(kind)) {
    std::optional<unsigned> section = sections->resolve(currentGraph, kind);
    if (!section) {
      error(node.pos) << "'" << kind << "' names "
                      << sections->countDefinitions(kind)
                      << " sections, none of them a section of this graph "
                         "or of a graph that holds it";
      return failure();
    }
    op = emitSubgraphNode(node, *section, inputs, resultTypes, loc);
  } else if (namesSubgraph(kind)) {
    error(node.pos) << "'" << kind << "' names a subgraph, but no 'with "
                    << kind << " = graph(...)' follows the graph";
    return failure();
  } else if (kind == "prim::TypeCheck" && node.blocks.empty()) {
    op = emitByName(prim::TypeCheckOp::getOperationName(), node, inputs,
                    resultTypes, loc);
  } else if (kind.starts_with("prim::") && node.blocks.empty() &&
             node.attrs.size() <= 1 &&
             simplePrimKinds().contains(kind.drop_front(6)) &&
             (node.attrs.empty() || node.attrs[0].name == "name")) {
    op = emitTypedPrim(node, inputs, resultTypes, loc);
  } else if ((kind.starts_with("aten::") || kind == "prim::min" ||
              kind == "prim::max") &&
             node.attrs.empty() && node.blocks.empty()) {
    // Python's min() and max() resolve their overload as aten's ops do: of
    // a list (`prim::min.self_int`) or of two numbers (`prim::min.int`),
    // so that passes know what they read and which kernel runs them.
    op = emitAten(node, inputs, resultTypes, loc);
  } else {
    op = emitGeneric(node, inputs, resultTypes, loc);
  }
  if (!op)
    return failure();
  for (auto [def, result] : llvm::zip(node.outputs, op->getResults()))
    if (failed(define(def, result)))
      return failure();
  return success();
}

static std::string describeTypes(TypeRange types) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '(';
  llvm::interleaveComma(types, os);
  os << ')';
  return text;
}

//===----------------------------------------------------------------------===//
// Region ops
//===----------------------------------------------------------------------===//

Operation *MLIRGen::emitIf(const ts::Node &node, ArrayRef<Value> inputs,
                           ArrayRef<Type> resultTypes, Location loc) {
  if (inputs.size() != 1 || !inputs[0].getType().isInteger(1)) {
    // 2018 graphs branch on tensors; keep such an If whole, as a generic node.
    if (inputs.size() == 1 && isa<prim::TensorType>(inputs[0].getType()))
      return emitGeneric(node, inputs, resultTypes, loc);
    error(node.pos) << "prim::If takes one bool condition, got "
                    << describeTypes(ValueRange(inputs).getTypes());
    return nullptr;
  }
  if (node.blocks.size() != 2) {
    error(node.pos) << "prim::If needs 2 blocks, got " << node.blocks.size();
    return nullptr;
  }
  auto ifOp = prim::IfOp::create(builder, loc, resultTypes, inputs[0]);
  for (auto [index, block] : llvm::enumerate(node.blocks)) {
    if (!block.params.empty()) {
      error(block.pos) << "prim::If blocks take no parameters";
      return nullptr;
    }
    if (block.returns.size() != resultTypes.size()) {
      error(block.returnPos)
          << "block" << index << " of prim::If returns " << block.returns.size()
          << " values, but the node has " << resultTypes.size() << " outputs";
      return nullptr;
    }
    Block *target = addBlock(ifOp->getRegion(index), block.params);
    Scope scope(*symbols);
    if (failed(
            emitBlockBody(block, *target, prim::YieldOp::getOperationName())))
      return nullptr;
  }
  return ifOp;
}

Operation *MLIRGen::emitLoop(const ts::Node &node, ArrayRef<Value> inputs,
                             ArrayRef<Type> resultTypes, Location loc) {
  if (inputs.size() < 2) {
    error(node.pos) << "prim::Loop takes a trip count, a condition and the "
                       "loop-carried values; got "
                    << inputs.size() << " inputs";
    return nullptr;
  }
  size_t carried = inputs.size() - 2;
  if (resultTypes.size() != carried) {
    error(node.pos) << "prim::Loop carries " << carried << " values but has "
                    << resultTypes.size() << " outputs";
    return nullptr;
  }
  if (node.blocks.size() != 1) {
    error(node.pos) << "prim::Loop needs 1 block, got " << node.blocks.size();
    return nullptr;
  }
  const ts::Block &block = node.blocks.front();
  if (block.params.size() != carried + 1) {
    error(block.pos) << "prim::Loop block takes " << block.params.size()
                     << " parameters; expected the iteration number and "
                     << carried << " loop-carried values";
    return nullptr;
  }
  if (block.returns.size() != carried + 1) {
    error(block.returnPos) << "prim::Loop block returns "
                           << block.returns.size()
                           << " values; expected the continue condition and "
                           << carried << " loop-carried values";
    return nullptr;
  }
  auto loop = prim::LoopOp::create(builder, loc, resultTypes, inputs[0],
                                   inputs[1], inputs.drop_front(2));
  Block *target = addBlock(loop.getBody(), block.params);
  if (!target)
    return nullptr;
  Scope scope(*symbols);
  if (failed(emitBlockBody(block, *target, prim::YieldOp::getOperationName())))
    return nullptr;
  return loop;
}

Operation *MLIRGen::emitSubgraphNode(const ts::Node &node, unsigned section,
                                     ArrayRef<Value> inputs,
                                     ArrayRef<Type> resultTypes, Location loc) {
  const ts::Graph &graph = file.subgraphs[section];
  // `prim::FusionGroup_0` names the subgraph; the op is prim.FusionGroup.
  StringRef base = node.kind.rsplit('_').first;
  StringRef opName = llvm::StringSwitch<StringRef>(base)
                         .Case("prim::FusionGroup", "prim.FusionGroup")
                         .Case("prim::TensorExprGroup", "prim.TensorExprGroup")
                         .Case("prim::FallbackGraph", "prim.FallbackGraph")
                         .Case("prim::DifferentiableGraph",
                               "prim.DifferentiableGraph")
                         .Default("");
  if (!node.blocks.empty()) {
    error(node.pos) << "a subgraph node takes no blocks";
    return nullptr;
  }
  if (graph.body.params.size() != inputs.size()) {
    error(node.pos) << "'" << node.kind << "' takes "
                    << graph.body.params.size() << " inputs, got "
                    << inputs.size();
    return nullptr;
  }
  // A differentiated subgraph's forward returns the captured values after
  // the node's outputs.
  bool extraReturns = opName == "prim.DifferentiableGraph";
  if (extraReturns ? graph.body.returns.size() < resultTypes.size()
                   : graph.body.returns.size() != resultTypes.size()) {
    error(node.pos) << "'" << node.kind << "' returns "
                    << graph.body.returns.size() << " values, but the node has "
                    << resultTypes.size() << " outputs";
    return nullptr;
  }
  if (expanding.contains(section)) {
    error(node.pos) << "subgraph '" << graph.name << "' uses itself";
    return nullptr;
  }

  OperationState state(loc, opName.empty() ? prim::GenericOp::getOperationName()
                                           : opName);
  if (opName.empty())
    state.addAttribute("kind", builder.getStringAttr(node.kind));
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  if (DictionaryAttr attrs = convertNodeAttrs(node))
    state.addAttribute("node_attrs", attrs);
  Region *region = state.addRegion();
  if (failed(emitSection(section, *region,
                         opName.empty() ? prim::YieldOp::getOperationName()
                                        : prim::ReturnOp::getOperationName())))
    return nullptr;
  return builder.create(state);
}

/// Builds section `section` into `region`, ending in `terminator`.
LogicalResult MLIRGen::emitSection(unsigned section, Region &region,
                                   StringRef terminator) {
  const ts::Graph &graph = file.subgraphs[section];
  expanded[section] = true;
  Block *target = addBlock(region, graph.body.params);
  if (!target)
    return failure();
  // A subgraph sees only its own values, and the sections it holds first.
  SymbolTable subgraphSymbols;
  LatestDefs subgraphLatestDefs;
  SymbolTable *outer = std::exchange(symbols, &subgraphSymbols);
  LatestDefs *outerLatest = std::exchange(latestDefs, &subgraphLatestDefs);
  unsigned outerGraph =
      std::exchange(currentGraph, SectionTree::graphOf(section));
  expanding.insert(section);
  llvm::scope_exit restore([&] {
    symbols = outer;
    latestDefs = outerLatest;
    currentGraph = outerGraph;
    expanding.erase(section);
  });
  Scope scope(*symbols);
  return emitBlockBody(graph.body, *target, terminator);
}

/// A section of the main graph that no node names: kept whole beside the
/// function, so that it exports back in its place.
LogicalResult MLIRGen::emitUnusedSection(unsigned section) {
  const ts::Graph &graph = file.subgraphs[section];
  auto unused =
      prim::UnusedSubgraphOp::create(builder, at(graph.pos), graph.name);
  return emitSection(section, unused.getBody(),
                     prim::ReturnOp::getOperationName());
}

//===----------------------------------------------------------------------===//
// aten, typed prim ops and generic nodes
//===----------------------------------------------------------------------===//

Operation *MLIRGen::emitByName(StringRef opName, const ts::Node &node,
                               ArrayRef<Value> inputs,
                               ArrayRef<Type> resultTypes, Location loc) {
  OperationState state(loc, opName);
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  for (const ts::NamedAttr &attr : node.attrs) {
    Attribute value = convertNodeAttr(attr.value, tensorRefName(node));
    if (!value)
      return nullptr;
    state.addAttribute(attr.name, value);
  }
  return builder.create(state);
}

/// The container ops whose verifiers relate operand and result types.
static bool checksContainerTypes(StringRef primKind) {
  return llvm::is_contained({"TupleConstruct", "TupleUnpack", "TupleIndex",
                             "ListConstruct", "ListUnpack", "DictConstruct"},
                            primKind);
}

Operation *MLIRGen::emitTypedPrim(const ts::Node &node, ArrayRef<Value> inputs,
                                  ArrayRef<Type> resultTypes, Location loc) {
  StringRef primKind = StringRef(node.kind).drop_front(6);
  Operation *op =
      emitByName(("prim." + primKind).str(), node, inputs, resultTypes, loc);
  if (!op || !checksContainerTypes(primKind))
    return op;
  // torch's parser records the types a node declares without checking them
  // against its inputs, and its tests rely on it (`%l : Tensor[] =
  // prim::TupleConstruct(%x)`, a tuple of a tuple declared a tuple of
  // tensors). Such a node keeps its kind as a generic node: it exports as
  // written, and the passes, which know only the typed op, leave it alone.
  bool typesAgree = true;
  {
    ScopedDiagnosticHandler quiet(context,
                                  [](Diagnostic &) { return success(); });
    typesAgree = succeeded(verify(op, /*verifyRecursively=*/false));
  }
  if (typesAgree)
    return op;
  op->erase();
  return emitGeneric(node, inputs, resultTypes, loc);
}

Operation *MLIRGen::emitAten(const ts::Node &node, ArrayRef<Value> inputs,
                             ArrayRef<Type> resultTypes, Location loc) {
  const aten::SchemaRegistry &registry = aten::SchemaRegistry::get();
  auto candidates = registry.lookup(node.kind);
  if (candidates.empty()) {
    // Still imported (an operator library may define it at run time), but
    // an aten name torch does not have is most often a typo: say so now,
    // not when the graph first runs.
    if (StringRef(node.kind).starts_with("aten::")) {
      InFlightDiagnostic diag = emitWarning(at(node.pos))
                                << "unknown operator " << node.kind;
      std::vector<StringRef> nearest = registry.nearestNames(node.kind);
      if (!nearest.empty()) {
        diag << "; did you mean ";
        llvm::interleave(nearest, diag, ", ");
        diag << "?";
      }
    }
    return emitGeneric(node, inputs, resultTypes, loc);
  }
  TypeRange operandTypes = ValueRange(inputs).getTypes();
  const aten::Schema *schema = resolveOverload(candidates, operandTypes);
  if (!schema) {
    // A node no overload accepts still imports, as a generic node, when it
    // has as many operands as some overload takes (older graphs omit
    // trailing defaults and use overloads that no longer exist; the 2018
    // format threads `World` tokens). A count no overload takes is an error.
    auto countFits = [&](const aten::Schema *candidate) {
      size_t required = 0;
      for (const aten::SchemaArg &arg : candidate->arguments)
        required += !arg.hasDefault;
      return inputs.size() >= required &&
             (candidate->isVararg ||
              inputs.size() <= candidate->arguments.size());
    };
    auto isLegacyToken = [](Type type) {
      return isa<prim::WorldType, prim::HandleType>(type);
    };
    if (file.legacyFormat || llvm::any_of(candidates, countFits) ||
        llvm::any_of(operandTypes, isLegacyToken) ||
        llvm::any_of(resultTypes, isLegacyToken))
      return emitGeneric(node, inputs, resultTypes, loc);
    auto diag = error(node.pos);
    diag << "no overload of " << node.kind << " takes " << operandTypes.size()
         << " operands " << describeTypes(operandTypes) << "; candidates:";
    for (const aten::Schema *candidate : candidates.take_front(8))
      diag << "\n  " << candidate->text;
    if (candidates.size() > 8)
      diag << "\n  ... and " << candidates.size() - 8 << " more";
    return nullptr;
  }
  // torch's parser lets a node drop every output (`aten::append(%l, %x)`
  // as a statement); the typed op has the schema's results, so such a node
  // stays generic.
  if (resultTypes.empty() && !schema->returns.empty())
    return emitGeneric(node, inputs, resultTypes, loc);
  bool resultsFit =
      schema->isVarret || schema->returns.size() == resultTypes.size();
  // Untyped outputs take the schema's return types, as in torch's parser.
  SmallVector<Type> typed(resultTypes);
  if (resultsFit && !schema->isVarret) {
    for (auto [i, def] : llvm::enumerate(node.outputs))
      if (def.type->implicit)
        if (Type t = convertSchemaType(context, schema->returns[i].type))
          typed[i] = t;
    resultTypes = typed;
  }
  if (!resultsFit) {
    error(node.pos) << node.kind << " resolves to " << schema->text
                    << ", which has " << schema->returns.size()
                    << " results, but the node has " << resultTypes.size()
                    << " outputs";
    return nullptr;
  }
  if (schema->typedOpName.empty()) {
    // The overload resolution chose stays with the node, so that what runs
    // it (a runtime kernel) need not resolve it again.
    Operation *op = emitGeneric(node, inputs, resultTypes, loc);
    if (op && !schema->overload.empty())
      op->setAttr("tsir.overload", builder.getStringAttr(schema->overload));
    return op;
  }
  return emitByName(schema->typedOpName, node, inputs, resultTypes, loc);
}

Operation *MLIRGen::emitGeneric(const ts::Node &node, ArrayRef<Value> inputs,
                                ArrayRef<Type> resultTypes, Location loc) {
  OperationState state(loc, prim::GenericOp::getOperationName());
  state.addAttribute("kind", builder.getStringAttr(node.kind));
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  if (!node.attrs.empty()) {
    DictionaryAttr attrs = convertNodeAttrs(node);
    if (!attrs)
      return nullptr;
    state.addAttribute("node_attrs", attrs);
  }
  for (const ts::Block &block : node.blocks) {
    Region *region = state.addRegion();
    Block *target = addBlock(*region, block.params);
    if (!target)
      return nullptr;
    Scope scope(*symbols);
    if (failed(
            emitBlockBody(block, *target, prim::YieldOp::getOperationName())))
      return nullptr;
  }
  return builder.create(state);
}

OwningOpRef<ModuleOp> tsir::buildModule(MLIRContext *context,
                                        StringRef bufferName,
                                        const ts::GraphFile &file,
                                        const WeightsFile *weights,
                                        ArrayRef<std::string> runtimeWeights) {
  return MLIRGen(context, bufferName, file, weights, runtimeWeights).build();
}
