//===- CreateAutodiffSubgraphs.cpp - tsir-create-autodiff-subgraphs ------===//
//
// TorchScript's CreateAutodiffSubgraphs (torch/csrc/jit/passes/
// create_autodiff_subgraphs.cpp): the runs of ops that autodiff can
// differentiate become `prim.DifferentiableGraph` ops, which export as the
// `prim::DifferentiableGraph_N` nodes and `with` sections torch prints, and
// which tsir-differentiate, after prim-inline-subgraphs, differentiates.
//
// An op is differentiable when derivatives.txt has a formula, a
// decomposition or a `nondifferentiable` line for its schema, when
// decompositions.txt defines it (it differentiates through its graph),
// when tsir-differentiate handles it itself (list construction and
// unpacking, cat, stack, broadcast_tensors), and a prim.If is when every op
// of its branches is. Constants neither join nor end a run: a subgraph
// gets its own clones of those it reads, as TorchScript's does.
//
// A run is a maximal sequence of differentiable ops of one block; one of
// fewer than `threshold` ops (constants not counted) stays as it is, as
// TorchScript inlines subgraphs below its threshold (2 in the
// GraphExecutor). The blocks of the ops left out (a loop's body, a branch
// holding an op without a formula) are partitioned on their own.
//
// Where tsir differs: TorchScript grows a subgraph by moving nodes past
// those it cannot merge when its alias analysis allows; tsir takes runs as
// they stand, never moving an op, so an op without a derivative (integer
// arithmetic on sizes, say) ends a run where torch might reach past it.
//
//===----------------------------------------------------------------------===//

#include "DerivativeTable.h"

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/DecompositionLibrary.h"
#include "tsir/Transforms/Passes.h"
#include "tsir/Transforms/SubgraphOutlining.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRCREATEAUTODIFFSUBGRAPHSPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;
using namespace tsir::autodiff;

namespace {

class Partitioner {
public:
  Partitioner(const DerivativeTable &table, unsigned threshold)
      : table(table), threshold(threshold) {}

  void partition(Block &block) {
    SmallVector<Operation *> run;
    for (Operation &op : llvm::make_early_inc_range(block.without_terminator())) {
      if (isa<prim::ConstantOp>(op))
        continue;
      if (isDifferentiable(&op)) {
        run.push_back(&op);
        continue;
      }
      outline(run, &op);
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          partition(nested);
    }
    outline(run, block.getTerminator());
  }

  /// Erases the constants cloned into subgraphs that nothing reads now.
  void eraseUnusedConstants() {
    for (Operation *constant : clonedConstants)
      if (constant->use_empty())
        constant->erase();
  }

private:
  bool isDifferentiable(Operation *op) const {
    if (isa<prim::ConstantOp>(op) || isListPlumbing(op))
      return true;
    if (auto ifOp = dyn_cast<prim::IfOp>(op)) {
      for (Region &region : ifOp->getRegions())
        for (Operation &nested : region.front().without_terminator())
          if (!isDifferentiable(&nested))
            return false;
      return true;
    }
    if (op->getNumRegions() != 0)
      return false;
    return table.lookup(op) || table.lookupDecomposition(op) ||
           table.isNondifferentiable(op) || DecompositionLibrary::defines(op);
  }

  /// Makes `run` a prim.DifferentiableGraph before `anchor` if it is large
  /// enough, and empties it.
  void outline(SmallVector<Operation *> &run, Operation *anchor) {
    if (run.size() >= threshold && !run.empty())
      outlineSubgraph(
          run, anchor,
          [](OpBuilder &builder, Location loc, TypeRange results,
             ValueRange inputs) -> Operation * {
            return prim::DifferentiableGraphOp::create(
                builder, loc, results, inputs, DictionaryAttr());
          },
          clonedConstants);
    run.clear();
  }

  const DerivativeTable &table;
  unsigned threshold;
  llvm::SetVector<Operation *> clonedConstants;
};

struct TsirCreateAutodiffSubgraphsPass
    : tsir::impl::TsirCreateAutodiffSubgraphsPassBase<
          TsirCreateAutodiffSubgraphsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<DerivativeTable> loaded = DerivativeTable::load(context);
    if (failed(loaded))
      return failure();
    table = std::make_shared<DerivativeTable>(std::move(*loaded));
    return success();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.getBody().empty())
      return;
    Partitioner partitioner(*table, threshold);
    partitioner.partition(func.getBody().front());
    partitioner.eraseUnusedConstants();
  }

  std::shared_ptr<DerivativeTable> table;
};

} // namespace
