//===- ConstantPooling.cpp - prim-constant-pooling ------------------------===//
//
// TorchScript's constant pooling (passes/constant_pooling.cpp, torch 1.13):
// every `prim.Constant` of the graph, those in `If`/`Loop` bodies included,
// is deduplicated against the ones seen before it (same type and value) and
// the first of each value is hoisted to the top of the graph, so later
// passes find one definition per constant that dominates every use.
//
// Merging two constants makes their values one object, which is only safe
// if nobody can tell: TorchScript refuses when either may be written
// (a list constant that gets appended to, a tensor constant written in
// place) or when both may be seen by the graph's caller. Scalars, strings
// and None are immutable and always merge. A constant that may not merge
// stays where it is. Hoisted constants keep their order (TorchScript puts
// each one before the previous, reversing them); nothing depends on it.
//
// Fusion groups and fallback graphs are separate graphs in TorchScript,
// pooled on their own; their constants are left alone here.
//
//===----------------------------------------------------------------------===//

#include "EscapeQueries.h"

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/AliasAnalysis.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseMap.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMCONSTANTPOOLINGPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {

class ConstantPooler {
public:
  ConstantPooler(func::FuncOp func)
      : entry(func.getBody().front()), aliases(func), escapes(aliases, func) {}

  /// Returns whether any constant was merged or moved.
  bool run() {
    poolBlock(entry);
    return changed;
  }

private:
  void poolBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (op.getNumRegions() != 0) {
        if (!op.hasTrait<OpTrait::IsIsolatedFromAbove>())
          for (Region &region : op.getRegions())
            for (Block &nested : region)
              poolBlock(nested);
        continue;
      }
      if (auto constant = dyn_cast<prim::ConstantOp>(op))
        pool(constant);
    }
  }

  void pool(prim::ConstantOp constant) {
    // Attributes are uniqued: same value and type is the same key.
    auto key = std::make_pair(constant.getValue(), constant.getType());
    auto [it, inserted] = firstOfValue.try_emplace(key, constant);
    if (inserted) {
      hoist(constant);
      return;
    }
    prim::ConstantOp existing = it->second;
    // Mutable constants are distinct objects in TorchScript; making them
    // one is only safe if nobody writes them and not both escape.
    if (!escapes.safeToChangeAliasing(constant.getResult(),
                                      existing.getResult()))
      return;
    escapes.replaced(constant.getResult(), existing.getResult());
    constant.getResult().replaceAllUsesWith(existing.getResult());
    constant.erase();
    changed = true;
  }

  /// Moves `constant` after the constants hoisted so far, at the top of the
  /// graph.
  void hoist(prim::ConstantOp constant) {
    Operation *op = constant.getOperation();
    if (!lastHoisted) {
      if (op != &entry.front()) {
        op->moveBefore(&entry.front());
        changed = true;
      }
    } else if (op != lastHoisted->getNextNode()) {
      op->moveAfter(lastHoisted);
      changed = true;
    }
    lastHoisted = op;
  }

  Block &entry;
  bool changed = false;
  /// Built once; the pass erases and moves constants only, which changes
  /// nothing the analysis says about the values that remain.
  AliasAnalysis aliases;
  EscapeQueries escapes;
  llvm::DenseMap<std::pair<Attribute, Type>, prim::ConstantOp> firstOfValue;
  Operation *lastHoisted = nullptr;
};

struct PrimConstantPoolingPass
    : tsir::impl::PrimConstantPoolingPassBase<PrimConstantPoolingPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // A TorchScript graph is one block; anything else is not ours to judge.
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    // Unchanged IR needs no re-verification (the pass manager's rule).
    if (!ConstantPooler(func).run())
      markAllAnalysesPreserved();
  }
};

} // namespace
