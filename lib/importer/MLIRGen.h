//===- MLIRGen.h - Build prim/aten MLIR from a parsed graph -----*- C++ -*-===//
//
// The second half of the importer: syntax tree to module. buildModule is
// the entry point; the builder class is here so that its parts can live in
// files of their own: MLIRGen.cpp (graphs, blocks, region ops, aten and
// prim nodes), MLIRGenTypes.cpp (TorchScript types as prim types) and
// MLIRGenConstants.cpp (constants, weights and node attributes). Private
// to lib/importer.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_IMPORTER_MLIRGEN_H
#define TSIR_LIB_IMPORTER_MLIRGEN_H

#include "SubgraphSections.h"
#include "Weights.h"

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Importer/AST.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopedHashTable.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <vector>

namespace tsir {

class WeightsFile;

/// Builds the module for `file`; `weights` may be null, and then
/// `runtimeWeights` names the weights bound at run time (ImportOptions).
/// Reports errors through the context's diagnostic engine and returns null
/// on failure.
mlir::OwningOpRef<mlir::ModuleOp>
buildModule(mlir::MLIRContext *context, llvm::StringRef bufferName,
            const ts::GraphFile &file, const WeightsFile *weights,
            llvm::ArrayRef<std::string> runtimeWeights = {});

namespace detail {
using namespace mlir;

class MLIRGen {
public:
  MLIRGen(MLIRContext *context, StringRef bufferName, const ts::GraphFile &file,
          const WeightsFile *weights, ArrayRef<std::string> runtimeWeights)
      : context(context), builder(context),
        fileName(StringAttr::get(context, bufferName)), file(file),
        weights(weights) {
    for (const std::string &name : runtimeWeights)
      this->runtimeWeights.insert(name);
  }

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
  /// A dict constant (`annotate(Dict[str, Tensor], {})`) as a
  /// prim.DictConstruct of constants.
  Operation *emitDictConstant(const ts::NamedAttr &attr, prim::DictType type,
                              StringRef name, Location loc);
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
  llvm::StringSet<> runtimeWeights;
  /// Whether the weights file, or else the run-time weights, hold `name`.
  bool hasWeight(StringRef name) const;
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

/// The name a `<Tensor>` attribute of `node` is given: its first output's.
inline StringRef tensorRefName(const ts::Node &node) {
  return node.outputs.empty() ? StringRef() : node.outputs.front().name;
}

} // namespace detail
} // namespace tsir

#endif // TSIR_LIB_IMPORTER_MLIRGEN_H
