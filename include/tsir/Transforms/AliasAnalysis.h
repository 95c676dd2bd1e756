//===- AliasAnalysis.h - TorchScript's alias rules over one graph -*- C++
//-*-===//
//
// The analysis TorchScript's passes consult before touching anything that
// might be mutated (torch/csrc/jit/ir/alias_analysis.h, AliasDb). It works
// on the schemas' alias annotations, not on MLIR's memory effects: the aten
// ops declare every mutable result MemAlloc so that upstream passes stay off
// them, which says nothing about what a view or an in-place result aliases.
//
// The model: every value of a mutable type (tensors, lists, dicts, objects,
// and containers or optionals of those) points into one alias set; sets are
// merged as the graph shows values may alias. One set, the wildcard, stands
// for all memory the graph cannot see: the graph's inputs, anything stored
// into or loaded from a container or object, and anything an unknown op
// touches. Writes are recorded per set. Every query is conservative: "may".
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_TRANSFORMS_ALIASANALYSIS_H
#define TSIR_TRANSFORMS_ALIASANALYSIS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tsir::aten {
struct Schema;
} // namespace tsir::aten

namespace tsir {

/// Whether values of `type` can be mutated or alias one another: tensors,
/// lists, dicts, objects, `Any`, and tuples/optionals/unions holding one.
bool isMutableType(mlir::Type type);

/// The schema of a typed aten op, or null for any other op.
const aten::Schema *getSchema(mlir::Operation *op);

/// The schema of a typed aten op, or of a generic node whose overload is
/// known (as the alias analysis reads it); null for any other op.
const aten::Schema *getTypedOrGenericSchema(mlir::Operation *op);

/// Whether `op`'s one result aliases its first operand (`Tensor(a) self ->
/// Tensor(a)`, or `Tensor(a!)` for the operand written in place), as its
/// typed or generic schema says.
bool resultAliasesFirstOperand(mlir::Operation *op);

/// Whether `op`'s one result is a view of its first operand (slice, select,
/// view, flatten): it aliases it, and the op does not write it.
bool isViewOfFirstOperand(mlir::Operation *op);

/// The schema of a generic node (an aten op with no typed op) whose schema
/// carries no alias annotation, no write and no named side effect
/// (`aten::format`, `aten::find`, list `aten::all`): like TorchScript's
/// AliasDb for such a schema, it only reads its operands and makes fresh
/// results, so it is not opaque. Null for any other op (varargs are fine:
/// unannotated, they are read too).
const aten::Schema *getPureGenericSchema(mlir::Operation *op);

/// TorchScript's `hasSideEffects`: ops that must run even if nothing uses
/// them (print, raise, warn, SetAttr, calls, unknown nodes), and region ops
/// holding one.
bool hasSideEffects(mlir::Operation *op);

/// Whether the only side effect of `op` (and of the ops in its regions) is
/// raising an exception: a shape check (`if ...: raise`), which writes no
/// memory and ends the graph.
bool onlyRaises(mlir::Operation *op);

/// TorchScript's `isNondeterministic`: random ops (rand*, dropout, bernoulli,
/// ...), whose two identical calls give different results.
bool isNondeterministic(mlir::Operation *op);

/// Ops TorchScript knows nothing about (prim.Generic without a pure schema,
/// calls, fallback graphs): they may read and write anything they can
/// reach.
bool isOpaque(mlir::Operation *op);

/// TorchScript's resizesInput: ops that may change the sizes of a tensor
/// they write (resize_, t_, squeeze_, an `out=` overload, ...). Other
/// in-place ops keep sizes, dtype and device.
bool resizesInput(mlir::Operation *op);

/// Alias sets and writes of one function (or any op with regions).
class AliasAnalysis {
public:
  explicit AliasAnalysis(mlir::Operation *root);

  /// `a` and `b` may point to the same memory. False if either is immutable.
  bool mayAlias(mlir::Value a, mlir::Value b) const;
  bool mayAlias(mlir::ValueRange a, mlir::ValueRange b) const;

  /// Some op anywhere in the root writes memory `value` may point to.
  bool hasWriters(mlir::Value value) const;
  /// Some operand or result of `op` has writers.
  bool hasWriters(mlir::Operation *op) const;

  /// `op` (or an op nested in it) writes some memory.
  bool writesMemory(mlir::Operation *op) const;
  /// `op` (or an op nested in it) writes memory one of `values` may point to.
  bool writesToAlias(mlir::Operation *op, mlir::ValueRange values) const;
  /// The alias sets `op` (with nested ops) writes, as set leaders.
  llvm::ArrayRef<const void *> writtenSets(mlir::Operation *op) const;

  /// `value` may point to memory outside the graph's own allocations: a
  /// graph input, a container element, an object attribute, or anything an
  /// opaque op touched.
  bool mayAliasWildcard(mlir::Value value) const;
  /// `value` may point to a weight the caller binds (a `#prim.tensor_ref`
  /// constant: a module's parameter or buffer), which outlives the graph.
  bool mayAliasBoundWeight(mlir::Value value) const;
  /// Some op in the root may change the sizes of memory `value` may point
  /// to (resizesInput): only then can its refined sizes go stale.
  bool mayBeResized(mlir::Value value) const;

  /// The leader of `value`'s alias set; null for immutable values. Two
  /// values may alias iff they have the same (non-null) leader.
  const void *aliasSet(mlir::Value value) const;

  /// All mutable values in `value`'s alias set (itself included).
  llvm::SmallVector<mlir::Value> aliasesOf(mlir::Value value) const;

private:
  /// isMutableType, remembered per composite type.
  bool isMutable(mlir::Type type) const;
  void analyze(mlir::Operation *op);
  void analyzeSchemaOp(mlir::Operation *op, const aten::Schema &schema);
  void analyzeOpaque(mlir::Operation *op);
  void addValue(mlir::Value value);
  void makeWildcard(mlir::Value value);
  void unite(mlir::Value a, mlir::Value b);
  void recordWrite(mlir::Operation *op, mlir::Value value);
  void recordWildcardWrite(mlir::Operation *op);
  const void *leader(const void *element) const;
  void finalize(mlir::Operation *root);

  /// Alias-set elements: each mutable value is one, plus the wildcard.
  mutable llvm::EquivalenceClasses<const void *> sets;
  /// A unique address for the wildcard set.
  char wildcardTag = 0;
  /// The ops' writes, as recorded (set members, not yet leaders).
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<const void *, 2>>
      rawWrites;
  /// After finalize: per op (nested writes included) the written leaders.
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<const void *, 2>> writes;
  llvm::DenseSet<const void *> writtenLeaders;
  mlir::Operation *root;
  /// The sets a resizing op writes, computed on first need.
  mutable std::optional<llvm::DenseSet<const void *>> resizedSets;
  /// The sets of the #prim.tensor_ref constants' results, as leaders.
  llvm::DenseSet<const void *> boundWeightSets;
  mutable llvm::DenseMap<mlir::Type, bool> mutableTypes;
};

} // namespace tsir

#endif // TSIR_TRANSFORMS_ALIASANALYSIS_H
