//===- DeadCodeElimination.cpp - prim-dce ---------------------------------===//
//
// TorchScript's dead code elimination (passes/dead_code_elimination.cpp) on
// the prim and aten dialects: an inverse mark-and-sweep over the graph.
//
// Marking starts from the graph's outputs and from every op that must run
// whatever its uses: side effects (print, raise, SetAttr, calls, unknown
// nodes) and writes to memory the caller can see (graph inputs, weights
// the caller binds, container contents, wildcard memory). Walking each block backwards, an op is live if
// one of its results is live or if it writes memory that a live value may
// alias; a live op makes its operands live, and the ops around it. Writes
// are order-sensitive as in TorchScript: a write after the last use of what
// it writes is dead. Loop bodies are marked until nothing changes, since a
// value used at the top of the body may be written at its bottom for the
// next iteration.
//
// Beyond TorchScript's rule (a carried value whose body argument has any
// use stays), a loop-carried value is dead when its loop result is unused
// and its body argument is used by nothing live, e.g. a counter that only
// feeds its own next value; the fixpoint over the body finds those.
//
// The sweep erases unmarked ops, then removes `prim.If` results nothing
// uses and dead loop-carried values (result, init operand, body argument
// and yielded value), keeping the value names in the op's location in step.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/AliasAnalysis.h"
#include "tsir/Transforms/Passes.h"

#include "FoldUtils.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMDCEPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {

/// Ops whose regions the pass looks into. Fusion groups and fallback graphs
/// are separate graphs in TorchScript, which its DCE does not enter; here
/// they are whole ops, kept or erased as one.
bool hasVisibleRegions(Operation *op) {
  return op->getNumRegions() != 0 &&
         !op->hasTrait<OpTrait::IsIsolatedFromAbove>();
}

class DeadCodeEliminator {
public:
  DeadCodeEliminator(func::FuncOp func) : func(func), aliases(func) {}

  /// Returns whether anything was removed.
  bool run() {
    Block &entry = func.getBody().front();
    findOpsThatMustRun();
    markBlock(entry);
    sweepBlock(entry);
    return changed;
  }

private:
  //===--------------------------------------------------------------------===//
  // Marking
  //===--------------------------------------------------------------------===//

  /// TorchScript's `hasSideEffects` of DCE: the op's own side effects, an
  /// untracked write (to memory the caller sees), or either in a nested op.
  void findOpsThatMustRun() {
    func.walk([&](Operation *op) {
      if (op == func || mustRun.contains(op))
        return; // already known through a nested op
      bool own = op->getNumRegions() == 0
                     ? hasSideEffects(op) || writesToWildcard(op)
                     : isOpaque(op);
      if (!own)
        return;
      // Post-order: the ops around `op` come later in the walk.
      for (Operation *cur = op; cur != func; cur = cur->getParentOp())
        if (!mustRun.insert(cur).second)
          break;
    });
  }

  /// The op writes memory that may alias the graph's inputs, a weight the
  /// caller binds, or anything the graph cannot see. Every write an op
  /// without regions makes is to one of its operands, or to the wildcard
  /// through an operand made wildcard.
  bool writesToWildcard(Operation *op) const {
    if (!aliases.writesMemory(op))
      return false;
    return llvm::any_of(op->getOperands(), [&](Value operand) {
      return (aliases.mayAliasWildcard(operand) ||
              aliases.mayAliasBoundWeight(operand)) &&
             aliases.writesToAlias(op, operand);
    });
  }

  /// Adds `value` to the live values (and its alias set to the live sets).
  bool addLive(Value value) {
    if (!liveValues.insert(value).second)
      return false;
    ++epoch;
    if (const void *set = aliases.aliasSet(value))
      liveSets.insert(set);
    return true;
  }

  bool isLive(Value value) const { return liveValues.contains(value); }

  /// A marked op's operands are live; a loop's init operands only with their
  /// carried values (see markLoop).
  void addOperandsLive(Operation *op) {
    if (auto loop = dyn_cast<prim::LoopOp>(op)) {
      addLive(loop.getMaxTripCount());
      addLive(loop.getInitialCondition());
      return;
    }
    for (Value operand : op->getOperands())
      addLive(operand);
  }

  /// Marks `op` live, and the ops its block is nested in (an op holding a
  /// live op is live). Returns whether anything was newly marked.
  bool mark(Operation *op) {
    if (!marked.insert(op).second)
      return false;
    ++epoch;
    addOperandsLive(op);
    for (Operation *parent = op->getParentOp(); parent != func;
         parent = parent->getParentOp()) {
      if (!marked.insert(parent).second)
        break; // its parents are marked already
      addOperandsLive(parent);
    }
    return true;
  }

  /// TorchScript's markIfLive: a live result, or a write to memory a live
  /// value may point to.
  bool markIfLive(Operation *op) {
    if (marked.contains(op))
      return false;
    if (llvm::any_of(op->getResults(), [&](Value v) { return isLive(v); }))
      return mark(op);
    for (const void *set : aliases.writtenSets(op))
      if (liveSets.contains(set))
        return mark(op);
    return false;
  }

  /// The values a block's terminator passes on are live as far as what
  /// receives them is: graph outputs always, `If` results when live, and
  /// everything for other region ops (conservatively). Loops: markLoop.
  bool markTerminator(Block &block) {
    Operation *terminator = block.getTerminator();
    Operation *parent = block.getParentOp();
    bool changed = false;
    if (auto ifOp = dyn_cast<prim::IfOp>(parent)) {
      for (auto [result, yielded] :
           llvm::zip(ifOp.getResults(), terminator->getOperands()))
        if (isLive(result))
          changed |= addLive(yielded);
      return changed;
    }
    if (isa<prim::LoopOp>(parent))
      return false;
    if (parent != func)
      changed |= mark(parent);
    for (Value operand : terminator->getOperands())
      changed |= addLive(operand);
    return changed;
  }

  /// One backward walk over `block` (TorchScript's mark(Block*)).
  bool markBlock(Block &block) {
    bool changed = false;
    for (Operation &op : block.without_terminator())
      if (mustRun.contains(&op))
        changed |= mark(&op);
    changed |= markTerminator(block);
    for (Operation &op : llvm::reverse(block)) {
      if (&op == block.getTerminator())
        continue;
      if (auto loop = dyn_cast<prim::LoopOp>(op)) {
        changed |= markLoop(loop);
      } else if (hasVisibleRegions(&op)) {
        if (!isa<prim::IfOp>(op))
          changed |= mark(&op); // an unknown region op is kept whole
        for (Region &region : op.getRegions())
          for (Block &nested : region)
            changed |= markBlock(nested);
      }
      changed |= markIfLive(&op);
    }
    return changed;
  }

  /// Marks a loop body until nothing changes. The loop is live once a
  /// result is or an op inside it is; then its condition is, and carried
  /// value i is live (its yielded value and init operand with it) when its
  /// result or its body argument is.
  bool markLoop(prim::LoopOp loop) {
    // Marking is monotone in (marked, live values, live sets): if nothing
    // changed since the body last converged, walking it again finds nothing.
    auto converged = convergedAt.find(loop);
    if (converged != convergedAt.end() && converged->second == epoch)
      return false;
    Block &body = loop.getBodyBlock();
    Operation *yield = body.getTerminator();
    bool anyChanged = false;
    bool changed;
    do {
      changed = false;
      if (llvm::any_of(loop.getResults(), [&](Value v) { return isLive(v); }))
        changed |= mark(loop);
      if (marked.contains(loop)) {
        changed |= addLive(yield->getOperand(0));
        for (auto [i, arg] : llvm::enumerate(loop.getCarriedArgs())) {
          if (!isLive(loop.getResult(i)) && !isLive(arg))
            continue;
          changed |= addLive(yield->getOperand(i + 1));
          changed |= addLive(loop.getInitArgs()[i]);
        }
      }
      changed |= markBlock(body);
      anyChanged |= changed;
    } while (changed);
    convergedAt[loop] = epoch;
    return anyChanged;
  }

  //===--------------------------------------------------------------------===//
  // Sweeping
  //===--------------------------------------------------------------------===//

  /// Erases unmarked ops, last first so that uses go before definitions.
  void sweepBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
      if (&op == block.getTerminator())
        continue;
      if (!marked.contains(&op) && op.use_empty()) {
        op.erase();
        changed = true;
        continue;
      }
      if (auto ifOp = dyn_cast<prim::IfOp>(op)) {
        sweepIf(ifOp);
      } else if (auto loop = dyn_cast<prim::LoopOp>(op)) {
        sweepLoop(loop);
      } else if (hasVisibleRegions(&op)) {
        for (Region &region : op.getRegions())
          for (Block &nested : region)
            sweepBlock(nested);
      }
    }
  }

  /// Drops the `If` results nothing uses (their users, all later, are swept
  /// already), then sweeps the branches, whose yielded values may now be
  /// dead.
  void sweepIf(prim::IfOp ifOp) {
    llvm::BitVector dead(ifOp.getNumResults());
    for (OpResult result : ifOp.getResults())
      if (result.use_empty())
        dead.set(result.getResultNumber());
    Region *regions[] = {&ifOp.getThenRegion(), &ifOp.getElseRegion()};
    if (dead.any()) {
      changed = true;
      for (Region *region : regions)
        region->front().getTerminator()->eraseOperands(dead);
      ifOp = rebuildWithoutResults(ifOp, dead);
    }
    for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
      sweepBlock(region->front());
  }

  /// Removes the carried values markLoop left dead, around the body's sweep:
  /// their yielded values go first so that what computes them can be swept.
  void sweepLoop(prim::LoopOp loop) {
    Block &body = loop.getBodyBlock();
    Operation *yield = body.getTerminator();
    unsigned numCarried = loop.getNumResults();
    llvm::BitVector dead(numCarried);
    for (unsigned i = 0; i < numCarried; ++i)
      if (!isLive(yield->getOperand(i + 1)))
        dead.set(i);
    if (dead.none()) {
      sweepBlock(body);
      return;
    }
    changed = true;
    // Dead means neither the result nor the body argument has a live user;
    // every user is unmarked and gets swept before the argument goes.
    llvm::BitVector deadYielded(numCarried + 1), deadArgs(numCarried + 1),
        deadOperands(numCarried + 2);
    for (unsigned i : dead.set_bits()) {
      deadYielded.set(i + 1);
      deadArgs.set(i + 1);
      deadOperands.set(i + 2);
    }
    yield->eraseOperands(deadYielded);
    sweepBlock(body);
    assert(llvm::all_of(dead.set_bits(),
                        [&](unsigned i) {
                          return body.getArgument(i + 1).use_empty() &&
                                 loop.getResult(i).use_empty();
                        }) &&
           "a dead carried value still has users");
    body.eraseArguments(deadArgs);
    loop->eraseOperands(deadOperands);
    rebuildWithoutResults(loop, dead);
  }

  /// Results cannot be erased in place: builds the op again with the kept
  /// results, moves the regions over, and drops the erased results' names
  /// from the location.
  template <typename OpTy>
  OpTy rebuildWithoutResults(OpTy op, const llvm::BitVector &erase) {
    SmallVector<Type> types;
    for (OpResult result : op->getResults())
      if (!erase.test(result.getResultNumber()))
        types.push_back(result.getType());

    OpBuilder builder(op);
    OperationState state(dropResultNames(op, erase), op->getName());
    state.addOperands(op->getOperands());
    state.addTypes(types);
    state.addAttributes(op->getAttrs());
    for (unsigned i = 0, e = op->getNumRegions(); i < e; ++i)
      state.addRegion();
    Operation *replacement = builder.create(state);
    for (auto [from, to] :
         llvm::zip(op->getRegions(), replacement->getRegions()))
      to.takeBody(from);
    unsigned next = 0;
    for (OpResult result : op->getResults())
      if (!erase.test(result.getResultNumber()))
        result.replaceAllUsesWith(replacement->getResult(next++));
    op->erase();
    return cast<OpTy>(replacement);
  }

  func::FuncOp func;
  AliasAnalysis aliases;
  bool changed = false;
  llvm::DenseSet<Operation *> mustRun;
  llvm::DenseSet<Operation *> marked;
  llvm::DenseSet<Value> liveValues;
  llvm::DenseSet<const void *> liveSets;
  /// Bumped whenever marked, liveValues or liveSets grow.
  uint64_t epoch = 0;
  llvm::DenseMap<Operation *, uint64_t> convergedAt;
};

struct PrimDCEPass : tsir::impl::PrimDCEPassBase<PrimDCEPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // A TorchScript graph is one block; anything else is not ours to judge.
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    // Unchanged IR needs no re-verification (the pass manager's rule).
    if (!DeadCodeEliminator(func).run())
      markAllAnalysesPreserved();
  }
};

} // namespace
