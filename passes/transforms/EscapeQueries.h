//===- EscapeQueries.h - what a graph's caller can see ----------*- C++ -*-===//
//
// TorchScript's AliasDb queries about values the caller of a graph can
// reach (mayContainAlias with the graph outputs, escapesScope,
// safeToChangeAliasingRelationship), on top of tsir's AliasAnalysis. CSE
// and constant pooling ask them before making two values one: merging is
// unsafe when something writes either value, or when both are visible
// outside the graph, since the caller could then mutate one and see the
// other change. Private to the passes in this folder.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_TRANSFORMS_ESCAPEQUERIES_H
#define TSIR_PASSES_TRANSFORMS_ESCAPEQUERIES_H

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/AliasAnalysis.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseSet.h"

namespace tsir {

/// Whether a value of `type` holds mutable values that can be reached
/// through it (list elements, dict entries, object attributes). The alias
/// analysis models all such contents as wildcard memory.
inline bool holdsMutableContents(mlir::Type type) {
  if (auto list = llvm::dyn_cast<prim::ListType>(type))
    return isMutableType(list.getElementType());
  if (auto dict = llvm::dyn_cast<prim::DictType>(type))
    return isMutableType(dict.getKeyType()) ||
           isMutableType(dict.getValueType());
  if (llvm::isa<prim::ClassType, prim::AnyType, prim::AnyListType,
                prim::AnyTupleType, prim::FutureType>(type))
    return true;
  if (auto optional = llvm::dyn_cast<prim::OptionalType>(type))
    return holdsMutableContents(optional.getElementType());
  if (auto tuple = llvm::dyn_cast<prim::TupleType>(type))
    return llvm::any_of(tuple.getTypes(), holdsMutableContents);
  if (auto union_ = llvm::dyn_cast<prim::UnionType>(type))
    return llvm::any_of(union_.getTypes(), holdsMutableContents);
  return false;
}

/// The escape queries for one graph. The graph's outputs are taken when
/// built; a pass that replaces values reports it with `replaced`.
class EscapeQueries {
public:
  EscapeQueries(const AliasAnalysis &aliases, mlir::func::FuncOp func)
      : aliases(aliases) {
    for (mlir::Value output :
         func.getBody().front().getTerminator()->getOperands())
      addOutput(output);
  }

  /// AliasDb::mayContainAlias(values, graph outputs): a value may alias a
  /// graph output, or one may be reached through the other.
  bool mayContainOutputAlias(mlir::ValueRange values) const {
    for (mlir::Value value : values) {
      const void *set = aliases.aliasSet(value);
      if (!set)
        continue; // immutable
      if (outputSets.contains(set))
        return true;
      if ((holdsMutableContents(value.getType()) ||
           aliases.mayAliasWildcard(value)) &&
          (outputsHoldContents || outputsMayBeWildcard))
        return true;
    }
    return false;
  }

  /// AliasDb::escapesScope: the values may be seen from outside the graph,
  /// as graph inputs, outputs, or wildcard memory (which graph inputs and
  /// everything held in containers are).
  bool escapesScope(mlir::ValueRange values) const {
    if (mayContainOutputAlias(values))
      return true;
    return llvm::any_of(values, [&](mlir::Value value) {
      return aliases.mayAliasWildcard(value) ||
             holdsMutableContents(value.getType());
    });
  }

  /// AliasDb::safeToChangeAliasingRelationship: `a` and `b` may be made
  /// one value.
  bool safeToChangeAliasing(mlir::ValueRange a, mlir::ValueRange b) const {
    auto written = [&](mlir::Value v) { return aliases.hasWriters(v); };
    if (llvm::any_of(a, written) || llvm::any_of(b, written))
      return false;
    return !(escapesScope(a) && escapesScope(b));
  }

  /// `from` is about to be replaced by `to`: if `from` reached the graph
  /// outputs, `to` now does.
  void replaced(mlir::Value from, mlir::Value to) {
    const void *set = aliases.aliasSet(from);
    if (set && outputSets.contains(set))
      addOutput(to);
  }

private:
  void addOutput(mlir::Value output) {
    if (const void *set = aliases.aliasSet(output))
      outputSets.insert(set);
    outputsHoldContents |= holdsMutableContents(output.getType());
    outputsMayBeWildcard |= aliases.mayAliasWildcard(output);
  }

  const AliasAnalysis &aliases;
  /// Alias sets of the graph outputs.
  llvm::DenseSet<const void *> outputSets;
  bool outputsHoldContents = false;
  bool outputsMayBeWildcard = false;
};

} // namespace tsir

#endif // TSIR_PASSES_TRANSFORMS_ESCAPEQUERIES_H
