//===- CommonSubexpressionElimination.cpp - prim-cse ----------------------===//
//
// TorchScript's common subexpression elimination
// (passes/common_subexpression_elimination.cpp) on the prim and aten
// dialects. Two ops are the same expression when they have the same name,
// operands, attributes and result types (locations aside); the later one is
// replaced by the earlier, whose location, and so value names, stay.
//
// TorchScript's rules, not MLIR's memory effects, decide what may merge (the
// aten ops declare every mutable result MemAlloc only to keep upstream CSE
// away): an op is skipped when it has side effects, is nondeterministic
// (rand*, dropout in training), has regions, or when anything in the graph
// may write one of its operands or results (AliasDb::hasWriters). So two
// `aten.add.Tensor` of the same operands merge, and so do two list literals
// nobody mutates, but nothing merges across a write to an input.
//
// Scopes: the ops of an enclosing block that come before an `If`/`Loop` are
// visible in its bodies, so an op in a body may be replaced by one of an
// enclosing block (unless both escape: graph inputs, outputs, wildcard
// memory), never the other way round and never between sibling blocks.
// Within a block, a merge that would make two graph outputs alias is
// refused, since the caller may mutate one of them.
//
//===----------------------------------------------------------------------===//

#include "EscapeQueries.h"

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/AliasAnalysis.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseSet.h"

#include <deque>

namespace tsir {
#define GEN_PASS_DEF_PRIMCSEPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {

/// Ops as set keys, equal when they compute the same expression.
struct ExpressionInfo : llvm::DenseMapInfo<Operation *> {
  static unsigned getHashValue(const Operation *op) {
    return OperationEquivalence::computeHash(
        const_cast<Operation *>(op), OperationEquivalence::directHashValue,
        OperationEquivalence::ignoreHashValue,
        OperationEquivalence::IgnoreLocations);
  }
  static bool isEqual(const Operation *lhs, const Operation *rhs) {
    if (lhs == rhs)
      return true;
    if (lhs == getEmptyKey() || lhs == getTombstoneKey() ||
        rhs == getEmptyKey() || rhs == getTombstoneKey())
      return false;
    return OperationEquivalence::isEquivalentTo(
        const_cast<Operation *>(lhs), const_cast<Operation *>(rhs),
        OperationEquivalence::IgnoreLocations);
  }
};

using ExpressionSet = llvm::DenseSet<Operation *, ExpressionInfo>;

class CommonSubexpressionEliminator {
public:
  CommonSubexpressionEliminator(func::FuncOp func)
      : aliases(func), escapes(aliases, func) {}

  void runOnBlock(Block &block) {
    scopes.emplace_back();
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (op.hasTrait<OpTrait::IsTerminator>())
        continue;
      // Control flow is looked into, and never merged itself.
      if (isa<prim::IfOp, prim::LoopOp>(op)) {
        for (Region &region : op.getRegions())
          for (Block &nested : region)
            runOnBlock(nested);
        continue;
      }
      if (op.getNumRegions() != 0 || hasSideEffects(&op) ||
          isNondeterministic(&op) || aliases.hasWriters(&op))
        continue;

      // An identical op of an enclosing block, from the innermost out.
      if (Operation *outer = lookupEnclosing(&op)) {
        if (escapes.safeToChangeAliasing(op.getResults(), outer->getResults()))
          replace(&op, outer);
        continue;
      }
      auto [existing, inserted] = scopes.back().insert(&op);
      if (inserted)
        continue;
      // Don't make two graph outputs alias.
      if (escapes.mayContainOutputAlias(op.getResults()) &&
          escapes.mayContainOutputAlias((*existing)->getResults()))
        continue;
      replace(&op, *existing);
    }
    scopes.pop_back();
  }

private:
  Operation *lookupEnclosing(Operation *op) const {
    for (size_t i = scopes.size() - 1; i-- > 0;) {
      auto it = scopes[i].find(op);
      if (it != scopes[i].end())
        return *it;
    }
    return nullptr;
  }

  /// Replaces `op` by `existing`, which keeps its location.
  void replace(Operation *op, Operation *existing) {
    for (auto [from, to] :
         llvm::zip(op->getResults(), existing->getResults())) {
      escapes.replaced(from, to);
      from.replaceAllUsesWith(to);
    }
    op->erase();
    changed = true;
  }

public:
  /// Whether any op was merged away.
  bool changed = false;

private:

  /// Built once; the pass only erases ops, so what it says of the values
  /// that remain stays true.
  AliasAnalysis aliases;
  EscapeQueries escapes;
  /// The blocks being visited, outermost first; a deque so that pushing a
  /// scope does not move the others.
  std::deque<ExpressionSet> scopes;
};

struct PrimCSEPass : tsir::impl::PrimCSEPassBase<PrimCSEPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // A TorchScript graph is one block; anything else is not ours to judge.
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    CommonSubexpressionEliminator eliminator(func);
    eliminator.runOnBlock(func.getBody().front());
    // Unchanged IR needs no re-verification (the pass manager's rule).
    if (!eliminator.changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
