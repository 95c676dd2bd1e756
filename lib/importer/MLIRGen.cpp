//===- MLIRGen.cpp - Build prim/aten MLIR from a parsed graph -------------===//
//
// Walks the syntax tree of a graph file and builds `func.func @graph`:
// resolves value names by scope, checks block arities, resolves aten
// overloads, turns constants into typed attributes (weights into
// dense_resource blobs), and expands `with` subgraphs into regions; a
// section that no node uses becomes a prim.UnusedSubgraph beside the
// function. Every error names its place in the text.
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

class MLIRGen {
public:
  MLIRGen(MLIRContext *context, StringRef bufferName, const ts::GraphFile &file,
          const WeightsFile *weights)
      : context(context), builder(context),
        fileName(StringAttr::get(context, bufferName)), file(file),
        weights(weights) {}

  OwningOpRef<ModuleOp> build();

private:
  using Scope = llvm::ScopedHashTableScope<StringRef, Value>;

  Location at(ts::SourcePos pos) {
    return FileLineColLoc::get(fileName, pos.line, pos.col);
  }
  InFlightDiagnostic error(ts::SourcePos pos) {
    hadError = true;
    return emitError(at(pos));
  }

  Type convertType(const ts::TypeExpr &type);
  LogicalResult convertTypes(const std::vector<ts::ValueDef> &defs,
                             SmallVectorImpl<Type> &types);
  Value lookup(const ts::ValueUse &use);
  LogicalResult define(const ts::ValueDef &def, Value value);
  LogicalResult resolveInputs(const ts::Node &node,
                              SmallVectorImpl<Value> &inputs);

  Location nodeLocation(const ts::Node &node);
  Block *addBlock(Region &region, const std::vector<ts::ValueDef> &params);
  LogicalResult emitBlockBody(const ts::Block &block, Block &target,
                              StringRef terminator);
  LogicalResult emitNode(const ts::Node &node);
  Operation *emitIf(const ts::Node &node, ArrayRef<Value> inputs,
                    ArrayRef<Type> resultTypes, Location loc);
  Operation *emitTypedPrim(const ts::Node &node, ArrayRef<Value> inputs,
                           ArrayRef<Type> resultTypes, Location loc);
  Operation *emitLoop(const ts::Node &node, ArrayRef<Value> inputs,
                      ArrayRef<Type> resultTypes, Location loc);
  Operation *emitSubgraphNode(const ts::Node &node, unsigned section,
                              ArrayRef<Value> inputs,
                              ArrayRef<Type> resultTypes, Location loc);
  LogicalResult emitSection(unsigned section, Region &region,
                            StringRef terminator);
  LogicalResult emitUnusedSection(unsigned section);
  Operation *emitConstant(const ts::Node &node, ArrayRef<Type> resultTypes,
                          Location loc);
  Operation *emitAten(const ts::Node &node, ArrayRef<Value> inputs,
                      ArrayRef<Type> resultTypes, Location loc);
  Operation *emitGeneric(const ts::Node &node, ArrayRef<Value> inputs,
                         ArrayRef<Type> resultTypes, Location loc);
  Operation *emitByName(StringRef opName, const ts::Node &node,
                        ArrayRef<Value> inputs, ArrayRef<Type> resultTypes,
                        Location loc);

  // `valueName` is the node's (first) output name, without the `%`: a
  // `<Tensor>` becomes #prim.tensor_ref<"valueName">, so that two weights of
  // one type stay distinct constants.
  Attribute convertNodeAttr(const ts::AttrValue &value, StringRef valueName);
  DictionaryAttr convertNodeAttrs(const ts::Node &node);
  Attribute convertConstant(const ts::AttrValue &value, Type type,
                            StringRef valueName);
  Attribute convertInlineTensor(const ts::AttrValue &value, Type declared = {});
  Attribute convertQuantizedTensor(const ts::AttrValue &value,
                                   prim::QuantizedType dtype);
  Type inferConstantType(const ts::AttrValue &value);
  Attribute complexNodeAttr(double real, double imag);
  /// A constant list of `<Tensor>`s as a list of weight constants; null if
  /// it is not such a list (an ordinary constant), failure on an error.
  FailureOr<Operation *> emitTensorListConstant(const ts::NamedAttr &attr,
                                                Type type, StringRef name,
                                                Location loc);
  Attribute convertWeight(const WeightTensor &weight, StringRef name,
                          ts::SourcePos pos);
  LogicalResult checkWeightFits(ShapedType weight, prim::TensorType declared,
                                StringRef name, ts::SourcePos pos);

  MLIRContext *context;
  OpBuilder builder;
  StringAttr fileName;
  const ts::GraphFile &file;
  const WeightsFile *weights;
  using SymbolTable = llvm::ScopedHashTable<StringRef, Value>;
  SymbolTable mainSymbols;
  // The values in sight: the graph's, or a subgraph's while it is built.
  SymbolTable *symbols = &mainSymbols;
  // Each name's latest definition in text order, per graph, and where it is.
  // The names point into the AST, which outlives the build, so the map
  // need not copy them (a StringMap allocates an entry per name).
  using LatestDefs = llvm::DenseMap<StringRef, std::pair<Value, ts::SourcePos>>;
  LatestDefs mainLatestDefs;
  LatestDefs *latestDefs = &mainLatestDefs;
  // Which graph holds each `with` section; set by build().
  std::optional<SectionTree> sections;
  // The graph whose nodes are being built, as a SectionTree graph id: the
  // sections a node names are looked up from there.
  unsigned currentGraph = SectionTree::kMainGraph;
  // Sections being expanded, to reject a subgraph that uses itself.
  llvm::DenseSet<unsigned> expanding;
  // The sections expanded so far; the rest are unused.
  std::vector<bool> expanded;
  // The bodies being built inside one another, subgraphs included.
  unsigned depth = 0;
  // A section that several nodes name is copied for each; the copies may
  // add this many nodes to those of the text, which bounds the growth of
  // sections that name one another twice, level after level.
  static constexpr size_t kMaxCopiedNodes = size_t(1) << 16;
  size_t nodesBuilt = 0;
  size_t nodeBudget = 0;
  bool hadError = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// Types and values
//===----------------------------------------------------------------------===//

Type MLIRGen::convertType(const ts::TypeExpr &type) {
  using Kind = ts::TypeExpr::Kind;
  auto element = [&](unsigned i) -> Type {
    if (i >= type.elements.size()) {
      error(type.pos) << "type is missing its element type";
      return {};
    }
    return convertType(*type.elements[i]);
  };
  auto elements = [&](SmallVectorImpl<Type> &out) -> bool {
    for (const auto &e : type.elements) {
      Type converted = convertType(*e);
      if (!converted)
        return false;
      out.push_back(converted);
    }
    return true;
  };
  switch (type.kind) {
  case Kind::Tensor: {
    Type dtype;
    if (!type.dtype.empty()) {
      dtype = prim::dtypeFromTorchName(context, type.dtype);
      if (!dtype) {
        error(type.pos) << "tensor dtype '" << type.dtype
                        << "' is not supported by tsir";
        return {};
      }
    }
    SmallVector<int64_t> legacy;
    for (auto [dim, marked] : llvm::enumerate(type.legacyNonContiguous))
      if (marked)
        legacy.push_back(dim);
    StringAttr device = type.device.empty()
                            ? StringAttr()
                            : StringAttr::get(context, type.device);
    BoolAttr grad = type.requiresGrad
                        ? BoolAttr::get(context, *type.requiresGrad)
                        : BoolAttr();
    // Checked, so that a type the dialect rejects (strides that do not
    // match the sizes) is an error at its place in the text, not a module
    // that fails its own verifier later.
    auto emitError = [&] { return error(type.pos); };
    return prim::TensorType::getChecked(
        emitError, context, dtype, type.hasSizes, ArrayRef<int64_t>(type.sizes),
        type.hasStrides, ArrayRef<int64_t>(type.strides), device, grad,
        ArrayRef<int64_t>(legacy));
  }
  case Kind::Int:
  case Kind::Layout:
  case Kind::ScalarTypeK:
  case Kind::MemoryFormat:
    return builder.getI64Type();
  case Kind::Float:
    return builder.getF64Type();
  case Kind::Bool:
    return builder.getI1Type();
  case Kind::Complex:
    return ComplexType::get(builder.getF64Type());
  case Kind::Str:
    return prim::StrType::get(context);
  case Kind::None:
    return prim::NoneType::get(context);
  case Kind::Device:
    return prim::DeviceType::get(context);
  case Kind::Number:
    return prim::NumberType::get(context);
  case Kind::List:
    if (Type e = element(0))
      return prim::ListType::get(context, e);
    return {};
  case Kind::Optional:
    if (Type e = element(0))
      return prim::OptionalType::get(context, e);
    return {};
  case Kind::Future:
    if (Type e = element(0))
      return prim::FutureType::get(context, e);
    return {};
  case Kind::Tuple: {
    SmallVector<Type> types;
    if (!elements(types))
      return {};
    return prim::TupleType::get(context, types);
  }
  case Kind::Union: {
    SmallVector<Type> types;
    if (!elements(types))
      return {};
    return prim::UnionType::get(context, types);
  }
  case Kind::Dict: {
    Type key = element(0), value = key ? element(1) : Type();
    if (!value)
      return {};
    return prim::DictType::get(context, key, value);
  }
  case Kind::AnyTuple:
    return prim::AnyTupleType::get(context);
  case Kind::AnyList:
    return prim::AnyListType::get(context);
  case Kind::Class:
    return prim::ClassType::get(context, type.name);
  case Kind::Function:
    return prim::FunctionType::get(context);
  case Kind::Generator:
    return prim::GeneratorType::get(context);
  case Kind::Any:
    return prim::AnyType::get(context);
  case Kind::World:
    return prim::WorldType::get(context);
  case Kind::Handle:
    return prim::HandleType::get(context);
  case Kind::Storage:
    return prim::StorageType::get(context);
  case Kind::Stream:
    return prim::StreamType::get(context);
  case Kind::Capsule:
    return prim::CapsuleType::get(context);
  case Kind::NamedTuple: {
    SmallVector<Type> types;
    if (!elements(types))
      return {};
    SmallVector<Attribute> names, defaults;
    bool anyDefault = false;
    for (const ts::TypeExpr::Field &field : type.fields) {
      names.push_back(builder.getStringAttr(field.name));
      anyDefault |= field.hasDefault;
      defaults.push_back(
          field.hasDefault ? Attribute(builder.getStringAttr(field.defaultText))
                           : Attribute(builder.getUnitAttr()));
    }
    return prim::TupleType::get(context, types, builder.getArrayAttr(names),
                                anyDefault ? builder.getArrayAttr(defaults)
                                           : ArrayAttr());
  }
  case Kind::Enum:
    return prim::EnumType::get(context, type.name);
  case Kind::AnyEnum:
    return prim::AnyEnumType::get(context);
  case Kind::QScheme:
    return prim::QSchemeType::get(context);
  }
  error(type.pos) << "unsupported type";
  return {};
}

LogicalResult MLIRGen::convertTypes(const std::vector<ts::ValueDef> &defs,
                                    SmallVectorImpl<Type> &types) {
  for (const ts::ValueDef &def : defs) {
    Type type = convertType(*def.type);
    if (!type)
      return failure();
    types.push_back(type);
  }
  return success();
}

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
  } else if (kind.starts_with("aten::") && node.attrs.empty() &&
             node.blocks.empty()) {
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
  if (graph.body.returns.size() != resultTypes.size()) {
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
// Constants and attributes
//===----------------------------------------------------------------------===//

/// Whether `v` converts to int64_t without undefined behaviour.
static bool fitsInt64(double v) { return v >= -0x1p63 && v < 0x1p63; }

Attribute MLIRGen::convertInlineTensor(const ts::AttrValue &value,
                                       Type declared) {
  StringRef dtypeName = value.tensorDtype;
  Type dtype;
  auto declaredTensor = dyn_cast_or_null<prim::TensorType>(declared);
  if (dtypeName.empty() && declaredTensor && declaredTensor.getDtype()) {
    // The 2019 `{1}` form does not print a dtype; the node's type may.
    dtype = declaredTensor.getDtype();
  } else if (dtypeName.empty()) {
    // Nor does anything else here: integral values are Long.
    bool integral = llvm::all_of(value.tensorValues, [](double v) {
      return fitsInt64(v) && v == std::trunc(v);
    });
    dtype = integral ? prim::dtypeFromTorchName(context, "Long")
                     : prim::dtypeFromTorchName(context, "Double");
  } else {
    dtype = prim::dtypeFromTorchName(context, dtypeName);
  }
  if (auto quantized = dyn_cast_or_null<prim::QuantizedType>(dtype))
    return convertQuantizedTensor(value, quantized);
  if (value.quantizer) {
    error(value.quantizer->pos)
        << "a quantizer on an inline tensor of dtype '" << dtypeName
        << "', which is not a quantized dtype";
    return {};
  }
  if (!dtype || isa<ComplexType>(dtype)) {
    error(value.pos) << "inline tensor of dtype '" << dtypeName
                     << "' is not supported";
    return {};
  }
  // torch prints every one-element tensor as `{v}` and reads its sizes
  // back from the node's type (`Long(1, 1)`), where the type gives them.
  ArrayRef<int64_t> shape = value.tensorShape;
  if (dtypeName.empty() && value.tensorValues.size() == 1 && declaredTensor &&
      declaredTensor.getHasSizes() &&
      llvm::all_of(declaredTensor.getSizes(), [](int64_t size) {
        return size == 1;
      }))
    shape = declaredTensor.getSizes();
  int64_t numElements = 1;
  for (int64_t dim : shape)
    numElements *= dim;
  if (numElements != static_cast<int64_t>(value.tensorValues.size())) {
    error(value.pos) << "inline tensor prints " << value.tensorValues.size()
                     << " values but its shape holds " << numElements;
    return {};
  }
  auto type = RankedTensorType::get(shape, dtype);
  if (auto floatType = dyn_cast<FloatType>(dtype)) {
    SmallVector<APFloat> values;
    for (double v : value.tensorValues) {
      APFloat f(v);
      bool lost;
      APFloat::opStatus status = f.convert(floatType.getFloatSemantics(),
                                           APFloat::rmNearestTiesToEven, &lost);
      // Rounding is expected (torch prints rounded values); a finite value
      // that becomes infinite in the dtype is not what the graph holds.
      if (status & APFloat::opOverflow) {
        error(value.pos) << "inline tensor value " << v
                         << " does not fit its dtype "
                         << prim::torchNameOfDtype(dtype);
        return {};
      }
      values.push_back(f);
    }
    return DenseElementsAttr::get(type, values);
  }
  // Integer and bool values must be integers the dtype holds: torch prints
  // them exactly, so anything else (300 in a Char tensor, 0.5 in a Long
  // one, 2 in a Bool one) is a malformed graph, not something to wrap or
  // truncate silently.
  auto intType = cast<IntegerType>(dtype);
  unsigned width = intType.getWidth();
  bool isUnsigned = intType.isUnsigned() || width == 1;
  auto fits = [&](int64_t v) {
    return isUnsigned ? v >= 0 && llvm::isUIntN(width, v)
                      : llvm::isIntN(width, v);
  };
  auto rejectValue = [&](auto v) {
    error(value.pos) << "inline tensor value " << v
                     << " does not fit its dtype "
                     << prim::torchNameOfDtype(dtype);
    return Attribute();
  };
  SmallVector<APInt> values;
  if (value.tensorInts.size() == value.tensorValues.size()) {
    // The printed integers exactly: int64 values above 2^53 have no double.
    for (int64_t v : value.tensorInts) {
      if (!fits(v))
        return rejectValue(v);
      values.push_back(APInt(width, v, /*isSigned=*/!isUnsigned,
                             /*implicitTrunc=*/true));
    }
    return DenseElementsAttr::get(type, values);
  }
  for (double v : value.tensorValues) {
    // Converting inf, nan or a double beyond int64 to an integer is
    // undefined behaviour, so range-check before converting.
    if (!fitsInt64(v) || v != std::trunc(v) || !fits(static_cast<int64_t>(v)))
      return rejectValue(v);
    values.push_back(APInt(width, static_cast<int64_t>(v),
                           /*isSigned=*/!isUnsigned, /*implicitTrunc=*/true));
  }
  return DenseElementsAttr::get(type, values);
}

/// An inline quantized tensor: the printed (dequantized) values and the
/// quantizer as printed; or, for the boxed scalar torch prints for one
/// element (`{0.3}`), the value alone.
Attribute MLIRGen::convertQuantizedTensor(const ts::AttrValue &value,
                                          prim::QuantizedType dtype) {
  auto f64 = builder.getF64Type();
  auto valuesType = RankedTensorType::get(value.tensorShape, f64);
  auto values =
      DenseElementsAttr::get(valuesType, ArrayRef<double>(value.tensorValues));
  const ts::Quantizer *q = value.quantizer.get();
  if (!q)
    return prim::QuantizedTensorAttr::get(context, values, dtype, {}, {}, {},
                                          {});
  // Formatting.cpp prints `scale:`/`zero_point:` for a per-tensor affine
  // quantizer and `scales:`/`zero_points:`/`axis:` for a per-channel one.
  bool perTensor = q->scale || q->zeroPoint;
  bool perChannel = q->scales || q->zeroPoints || q->axis;
  if (perTensor && perChannel) {
    error(q->pos) << "a quantizer is per tensor ('scale', 'zero_point') or "
                     "per channel ('scales', 'zero_points', 'axis'), not both";
    return {};
  }
  DenseElementsAttr scales, zeroPoints;
  IntegerAttr axis;
  if (perTensor) {
    if (!q->scale || !q->zeroPoint) {
      error(q->pos) << "a per-tensor quantizer needs both 'scale' and "
                       "'zero_point'";
      return {};
    }
    scales = DenseElementsAttr::get(RankedTensorType::get({}, f64), *q->scale);
    zeroPoints = DenseElementsAttr::get(
        RankedTensorType::get({},
                              builder.getIntegerType(64, /*isSigned=*/true)),
        APInt(64, *q->zeroPoint, /*isSigned=*/true));
  } else if (perChannel) {
    if (!q->scales || !q->zeroPoints || !q->axis) {
      error(q->pos) << "a per-channel quantizer needs 'scales', "
                       "'zero_points' and 'axis'";
      return {};
    }
    scales =
        dyn_cast_or_null<DenseElementsAttr>(convertInlineTensor(*q->scales));
    zeroPoints = scales ? dyn_cast_or_null<DenseElementsAttr>(
                              convertInlineTensor(*q->zeroPoints))
                        : DenseElementsAttr();
    if (!zeroPoints)
      return {};
    axis = builder.getI64IntegerAttr(*q->axis);
  }
  auto emitError = [&] { return error(q->pos); };
  return prim::QuantizedTensorAttr::getChecked(
      emitError, context, values, Type(dtype),
      builder.getStringAttr(q->qscheme), scales, zeroPoints, axis);
}

Attribute MLIRGen::convertWeight(const WeightTensor &weight, StringRef name,
                                 ts::SourcePos pos) {
  Type dtype = llvm::StringSwitch<Type>(weight.dtype)
                   .Case("F32", builder.getF32Type())
                   .Case("F64", builder.getF64Type())
                   .Case("F16", builder.getF16Type())
                   .Case("BF16", builder.getBF16Type())
                   .Case("I64", builder.getIntegerType(64, true))
                   .Case("I32", builder.getIntegerType(32, true))
                   .Case("I16", builder.getIntegerType(16, true))
                   .Case("I8", builder.getIntegerType(8, true))
                   .Case("U8", builder.getIntegerType(8, false))
                   .Case("BOOL", builder.getI1Type())
                   .Default(Type());
  if (!dtype) {
    error(pos) << "weight '" << name << "' has unsupported dtype "
               << weight.dtype;
    return {};
  }
  auto type = RankedTensorType::get(weight.shape, dtype);
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      weight.data, alignof(uint64_t));
  return DenseResourceElementsAttr::get(type, name, std::move(blob));
}

/// A weight must have the dtype and sizes its constant declares, where the
/// declared type says them.
LogicalResult MLIRGen::checkWeightFits(ShapedType weight,
                                       prim::TensorType declared,
                                       StringRef name, ts::SourcePos pos) {
  bool fits =
      !declared.getDtype() || declared.getDtype() == weight.getElementType();
  if (fits && declared.getHasSizes()) {
    ArrayRef<int64_t> sizes = declared.getSizes();
    fits = sizes.size() == static_cast<size_t>(weight.getRank());
    for (size_t i = 0; fits && i < sizes.size(); ++i)
      fits = sizes[i] < 0 || sizes[i] == weight.getDimSize(i);
  }
  if (fits)
    return success();
  error(pos) << "weight '" << name << "' in " << weights->getPath() << " is "
             << weight << ", which does not fit the constant's type "
             << declared;
  return failure();
}

Attribute MLIRGen::convertConstant(const ts::AttrValue &value, Type type,
                                   StringRef valueName) {
  using Kind = ts::AttrValue::Kind;
  auto mismatch = [&]() -> Attribute {
    error(value.pos) << "constant value does not fit its type " << type;
    return {};
  };
  if (auto optional = dyn_cast<prim::OptionalType>(type)) {
    // `None` reads as the type NoneType; in a constant it is the value.
    if (value.kind == Kind::Type && value.type &&
        value.type->kind == ts::TypeExpr::Kind::None)
      return UnitAttr::get(context);
    return convertConstant(value, optional.getElementType(), valueName);
  }
  if (auto complex = dyn_cast<ComplexType>(type)) {
    if (value.kind != Kind::Complex && value.kind != Kind::Float &&
        value.kind != Kind::Int)
      return mismatch();
    double real = value.kind == Kind::Int ? static_cast<double>(value.intValue)
                                          : value.floatValue;
    double imag = value.kind == Kind::Complex ? value.imagValue : 0;
    return builder.getArrayAttr(
        {builder.getF64FloatAttr(real), builder.getF64FloatAttr(imag)});
  }
  if (type.isInteger(64)) {
    if (value.kind == Kind::Int)
      return builder.getI64IntegerAttr(value.intValue);
    if (value.kind == Kind::Bool)
      return builder.getI64IntegerAttr(value.boolValue);
    return mismatch();
  }
  if (type.isInteger(1)) {
    if (value.kind == Kind::Int && (value.intValue == 0 || value.intValue == 1))
      return builder.getBoolAttr(value.intValue);
    if (value.kind == Kind::Bool)
      return builder.getBoolAttr(value.boolValue);
    return mismatch();
  }
  if (type.isF64()) {
    if (value.kind == Kind::Float)
      return builder.getF64FloatAttr(value.floatValue);
    if (value.kind == Kind::Int)
      return builder.getF64FloatAttr(static_cast<double>(value.intValue));
    return mismatch();
  }
  if (isa<prim::NumberType, prim::AnyType>(type)) {
    if (value.kind == Kind::Complex)
      return convertConstant(value, ComplexType::get(builder.getF64Type()),
                             valueName);
    if (value.kind == Kind::Int)
      return builder.getI64IntegerAttr(value.intValue);
    if (value.kind == Kind::Float)
      return builder.getF64FloatAttr(value.floatValue);
    return mismatch();
  }
  if (isa<prim::StrType, prim::DeviceType, prim::FunctionType>(type)) {
    if (value.kind == Kind::Str)
      return builder.getStringAttr(value.str);
    return mismatch();
  }
  if (auto enumType = dyn_cast<prim::EnumType>(type)) {
    // `__torch__.Color.RED` reads as a qualified name: the enum's, then the
    // member's.
    StringRef member;
    if (value.kind == Kind::Type && value.type &&
        value.type->kind == ts::TypeExpr::Kind::Class) {
      StringRef name = value.type->name;
      if (name.consume_front(enumType.getName()) && name.consume_front("."))
        member = name;
    }
    if (member.empty() || member.contains('.')) {
      error(value.pos) << "expected a member of " << enumType.getName()
                       << " such as '" << enumType.getName() << ".NAME'";
      return {};
    }
    return prim::EnumMemberAttr::get(context, enumType.getName(), member);
  }
  if (isa<prim::TensorType>(type)) {
    if (value.kind == Kind::Tensor)
      return convertInlineTensor(value, type);
    if (value.kind == Kind::TensorRef)
      return prim::TensorRefAttr::get(context, valueName);
    return mismatch();
  }
  if (auto list = dyn_cast<prim::ListType>(type)) {
    const ts::AttrValue *items = &value;
    if (value.kind == Kind::Annotated && !value.elements.empty())
      items = &value.elements[0];
    if (items->kind != Kind::List)
      return mismatch();
    SmallVector<Attribute> elements;
    for (const ts::AttrValue &item : items->elements) {
      Attribute element =
          convertConstant(item, list.getElementType(), valueName);
      if (!element)
        return {};
      elements.push_back(element);
    }
    return builder.getArrayAttr(elements);
  }
  if (auto tuple = dyn_cast<prim::TupleType>(type)) {
    if (value.kind != Kind::Tuple ||
        value.elements.size() != tuple.getTypes().size())
      return mismatch();
    SmallVector<Attribute> elements;
    for (auto [item, elementType] :
         llvm::zip(value.elements, tuple.getTypes())) {
      Attribute element = convertConstant(item, elementType, valueName);
      if (!element)
        return {};
      elements.push_back(element);
    }
    return builder.getArrayAttr(elements);
  }
  return mismatch();
}

/// The type of a constant written without one, from its value: what the
/// value is when torch runs the node.
Type MLIRGen::inferConstantType(const ts::AttrValue &value) {
  using Kind = ts::AttrValue::Kind;
  switch (value.kind) {
  case Kind::Int:
    return builder.getI64Type();
  case Kind::Float:
    return builder.getF64Type();
  case Kind::Bool:
    return builder.getI1Type();
  case Kind::Complex:
    return ComplexType::get(builder.getF64Type());
  case Kind::Str:
    return prim::StrType::get(context);
  case Kind::List: {
    if (value.elements.empty())
      return {};
    Type element = inferConstantType(value.elements.front());
    for (const ts::AttrValue &item : value.elements)
      if (!element || inferConstantType(item) != element)
        return {};
    return prim::ListType::get(context, element);
  }
  case Kind::Tuple: {
    SmallVector<Type> types;
    for (const ts::AttrValue &item : value.elements) {
      Type t = inferConstantType(item);
      if (!t)
        return {};
      types.push_back(t);
    }
    return prim::TupleType::get(context, types);
  }
  case Kind::Annotated:
    return value.type ? convertType(*value.type) : Type();
  default:
    return {}; // tensors: the Tensor type torch gives it
  }
}

FailureOr<Operation *>
MLIRGen::emitTensorListConstant(const ts::NamedAttr &attr, Type type,
                                StringRef name, Location loc) {
  // `%l : Tensor[] = prim::Constant[value=[<Tensor>, <Tensor>]]()`, which
  // freezing makes of a module's list of parameters (nn.LSTM's, Swin v2's
  // index): element i is the weight `name[i]` (`[` is in no value name), a
  // constant of its own, and the list is built of them, so that each is a
  // weight like any other downstream.
  auto list = dyn_cast<prim::ListType>(type);
  if (!list)
    return static_cast<Operation *>(nullptr);
  Type element = list.getElementType();
  if (auto optional = dyn_cast<prim::OptionalType>(element))
    element = optional.getElementType();
  auto tensorType = dyn_cast<prim::TensorType>(element);
  const ts::AttrValue *items = &attr.value;
  if (items->kind == ts::AttrValue::Kind::Annotated && !items->elements.empty())
    items = &items->elements[0];
  if (!tensorType || items->kind != ts::AttrValue::Kind::List ||
      !llvm::all_of(items->elements, [](const ts::AttrValue &item) {
        return item.kind == ts::AttrValue::Kind::TensorRef;
      }))
    return static_cast<Operation *>(nullptr);
  SmallVector<Value> elements;
  for (size_t i = 0; i < items->elements.size(); ++i) {
    std::string elementName = (name + "[" + Twine(i) + "]").str();
    // Without a weights file (the executor binds weights when it runs), a
    // reference by name, as for any `<Tensor>`.
    Attribute value = prim::TensorRefAttr::get(context, elementName);
    if (weights) {
      const WeightTensor *weight = weights->lookup(elementName);
      if (!weight) {
        error(attr.pos) << "weight '" << elementName << "' (element " << i
                        << " of the list constant %" << name << ") is not in "
                        << weights->getPath();
        return failure();
      }
      value = convertWeight(*weight, elementName, attr.pos);
      if (!value)
        return failure();
    }
    elements.push_back(
        prim::ConstantOp::create(builder, loc, tensorType, value));
  }
  return prim::ListConstructOp::create(builder, loc, list, elements)
      .getOperation();
}

Operation *MLIRGen::emitConstant(const ts::Node &node,
                                 ArrayRef<Type> resultTypes, Location loc) {
  if (resultTypes.size() != 1 || !node.inputs.empty() || !node.blocks.empty()) {
    error(node.pos) << "prim::Constant takes no inputs or blocks and has one "
                       "output";
    return nullptr;
  }
  Type type = resultTypes.front();
  StringRef name = node.outputs.front().name;
  Attribute value;
  const ts::NamedAttr *attr = nullptr;
  for (const ts::NamedAttr &a : node.attrs) {
    if (attr) {
      error(a.pos) << "prim::Constant takes one attribute";
      return nullptr;
    }
    attr = &a;
  }
  if (attr && attr->name == "value" && node.outputs.front().type->implicit) {
    // `%c = prim::Constant[value=1]()`: torch types the output Tensor but
    // makes the value an int when it runs; tsir types it by its value.
    if (Type inferred = inferConstantType(attr->value))
      type = inferred;
  }
  if (!attr) {
    // `%t : Tensor = prim::Constant()` is torch's undefined tensor, a
    // None-like value; a tensor type of any refinement may hold it.
    // torch's parser reads a value-less constant of any other type too (its
    // alias analysis tests make `%l : Tensor[][] = prim::Constant()` to
    // get a value of that type); it has no value to fold or run, so it
    // stays a generic node, which exports as written.
    if (!isa<prim::NoneType, prim::OptionalType, prim::TensorType>(type))
      return emitGeneric(node, {}, resultTypes, loc);
    value = UnitAttr::get(context);
  } else if (attr->name == "name" && isa<prim::FunctionType>(type) &&
             attr->value.kind == ts::AttrValue::Kind::Str) {
    value = builder.getStringAttr(attr->value.str);
  } else if (attr->name != "value") {
    error(attr->pos) << "unexpected attribute '" << attr->name
                     << "' on prim::Constant";
    return nullptr;
  } else if (FailureOr<Operation *> list =
                 emitTensorListConstant(*attr, type, name, loc);
             failed(list) || *list) {
    return failed(list) ? nullptr : *list;
  } else if (isa<prim::TensorType>(type) && weights &&
             (attr->value.kind == ts::AttrValue::Kind::TensorRef ||
              attr->value.kind == ts::AttrValue::Kind::Tensor)) {
    // The weights file holds the exact values of `<Tensor>` constants and of
    // the small ones torch printed (rounded) inline.
    if (const WeightTensor *weight = weights->lookup(name)) {
      value = convertWeight(*weight, name, attr->pos);
      if (value && failed(checkWeightFits(
                       cast<ElementsAttr>(value).getShapedType(),
                       cast<prim::TensorType>(type), name, attr->pos)))
        return nullptr;
    } else if (attr->value.kind == ts::AttrValue::Kind::TensorRef) {
      error(attr->pos) << "weight '" << name << "' is not in "
                       << weights->getPath();
      return nullptr;
    } else {
      value = convertInlineTensor(attr->value, type);
    }
  } else {
    value = convertConstant(attr->value, type, name);
  }
  if (!value)
    return nullptr;
  return prim::ConstantOp::create(builder, loc, type, value);
}

Attribute MLIRGen::convertNodeAttr(const ts::AttrValue &value,
                                   StringRef valueName) {
  using Kind = ts::AttrValue::Kind;
  switch (value.kind) {
  case Kind::Int:
    return builder.getI64IntegerAttr(value.intValue);
  case Kind::Float:
    return builder.getF64FloatAttr(value.floatValue);
  case Kind::Complex:
    return complexNodeAttr(value.floatValue, value.imagValue);
  case Kind::Bool:
    return builder.getBoolAttr(value.boolValue);
  case Kind::Str:
    return builder.getStringAttr(value.str);
  case Kind::GraphRef:
    // `<Graph>`: torch prints a graph attribute without its body. No other
    // node attribute value is a unit attribute, so it stands for one.
    return UnitAttr::get(context);
  case Kind::Tensor:
    return convertInlineTensor(value);
  case Kind::TensorRef:
    return prim::TensorRefAttr::get(context, valueName);
  case Kind::Type:
    if (Type type = convertType(*value.type))
      return TypeAttr::get(type);
    return {};
  case Kind::List:
  case Kind::Tuple:
  case Kind::Annotated: {
    SmallVector<Attribute> elements;
    const auto &items = value.kind == Kind::Annotated && !value.elements.empty()
                            ? value.elements[0].elements
                            : value.elements;
    for (const ts::AttrValue &item : items) {
      Attribute element = convertNodeAttr(item, valueName);
      if (!element)
        return {};
      elements.push_back(element);
    }
    return builder.getArrayAttr(elements);
  }
  }
  return {};
}

/// A complex node attribute (`c=-3.14j`) is a 0-d complex<f64> elements
/// attribute: a builtin attribute that no other attribute value reads as.
Attribute MLIRGen::complexNodeAttr(double real, double imag) {
  auto type = RankedTensorType::get({}, ComplexType::get(builder.getF64Type()));
  return DenseElementsAttr::get(type, {std::complex<double>(real, imag)});
}

/// The name a `<Tensor>` attribute of `node` is given: its first output's.
static StringRef tensorRefName(const ts::Node &node) {
  return node.outputs.empty() ? StringRef() : node.outputs.front().name;
}

DictionaryAttr MLIRGen::convertNodeAttrs(const ts::Node &node) {
  if (node.attrs.empty())
    return {};
  SmallVector<NamedAttribute> attrs;
  for (const ts::NamedAttr &attr : node.attrs) {
    Attribute value = convertNodeAttr(attr.value, tensorRefName(node));
    if (!value)
      return {};
    attrs.push_back(builder.getNamedAttr(attr.name, value));
  }
  return DictionaryAttr::get(context, attrs);
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
                                        const WeightsFile *weights) {
  return MLIRGen(context, bufferName, file, weights).build();
}
