//===- CollapseElementwiseDims.cpp - tsir-cpu-collapse-elementwise-dims ---===//
//
// An elementwise op over [N, C, H, W] buffers as a loop over [N, C, H*W]
// (or fewer dims still), so that its innermost loop, the one LLVM
// vectorizes, is as long as the contiguous data allows.
//
// convert-linalg-to-loops nests one loop per dim. In a network's late
// layers W is 7 or 14: under one AVX-512 register, so the vectorized loop
// never ran and every element went through its scalar remainder.
// EfficientNet-B0's SiLU and squeeze-excitation products over 14x14 and
// 7x7 maps were a fifth of its run.
//
// The trailing loop dims [k, n) collapse into one when every operand
// either indexes them as its own last dims, in order, over memory that is
// contiguous across them (memref.collapse_shape then views it as one dim),
// or does not read them at all (a broadcast, as the excitation's [C, 1, 1]
// scale). The op is rebuilt as a generic of k + 1 loops with the same
// body. A reduction's trailing reduced dims collapse the same way (a
// global average pool's 7x7 window becomes one run of 49, which
// tsir-cpu-vectorize-reductions then steps through in vectors); a run
// never mixes parallel and reduced dims.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRCPUCOLLAPSEELEMENTWISEDIMSPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {

/// Whether `expr` reads a loop dim at or after `first`.
bool readsFrom(AffineExpr expr, unsigned first) {
  bool reads = false;
  expr.walk([&](AffineExpr e) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      reads |= dim.getPosition() >= first;
  });
  return reads;
}

/// The reassociation of a rank-`rank` memref that keeps its first dims
/// and collapses its last `count` into one.
SmallVector<ReassociationIndices> collapsingLast(unsigned rank,
                                                 unsigned count) {
  SmallVector<ReassociationIndices> groups;
  for (unsigned i = 0; i + count < rank; ++i)
    groups.push_back({i});
  groups.push_back(llvm::to_vector(llvm::seq<int64_t>(rank - count, rank)));
  return groups;
}

/// How `operand` takes part when loop dims [first, loops) collapse: true
/// if it indexes them as its last dims (which then collapse too), false if
/// it does not read them; failure when they cannot collapse for it.
FailureOr<bool> indexesTrailing(linalg::LinalgOp op, OpOperand &operand,
                                unsigned first) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  unsigned loops = op.getNumLoops(), count = loops - first;
  ArrayRef<AffineExpr> results = map.getResults();
  if (llvm::none_of(results,
                    [&](AffineExpr e) { return readsFrom(e, first); }))
    return false;
  if (results.size() < count)
    return failure();
  unsigned lead = results.size() - count;
  for (unsigned i = 0; i < lead; ++i)
    if (readsFrom(results[i], first))
      return failure();
  for (unsigned i = 0; i < count; ++i) {
    auto dim = dyn_cast<AffineDimExpr>(results[lead + i]);
    if (!dim || dim.getPosition() != first + i)
      return failure();
  }
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  if (!type)
    return failure();
  if (!memref::CollapseShapeOp::isGuaranteedCollapsible(
          type, collapsingLast(results.size(), count)))
    return failure();
  return true;
}

struct CollapseElementwiseDims : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    unsigned loops = op.getNumLoops();
    if (!op.hasPureBufferSemantics() || op.hasIndexSemantics() || loops < 2)
      return rewriter.notifyMatchFailure(op, "not a generic on buffers");
    // The longest trailing run of dims of one iterator type (all parallel,
    // or the reduced H and W of a pooling mean) that collapses for every
    // operand.
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    auto collapses = [&](unsigned first) {
      return iterators[first] == iterators.back() &&
             llvm::all_of(op->getOpOperands(), [&](OpOperand &operand) {
               return succeeded(indexesTrailing(op, operand, first));
             });
    };
    unsigned first = loops - 1;
    while (first > 0 && collapses(first - 1))
      --first;
    if (first == loops - 1)
      return rewriter.notifyMatchFailure(op, "no dims to collapse");

    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    SmallVector<Value> inputs, outputs;
    SmallVector<AffineMap> maps;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      Value value = operand.get();
      SmallVector<AffineExpr> results(map.getResults());
      if (*indexesTrailing(op, operand, first)) {
        unsigned count = loops - first;
        value = memref::CollapseShapeOp::create(
            rewriter, loc, value, collapsingLast(results.size(), count));
        results.resize(results.size() - count);
        results.push_back(getAffineDimExpr(first, context));
      }
      maps.push_back(AffineMap::get(first + 1, 0, results, context));
      (op.isDpsInit(&operand) ? outputs : inputs).push_back(value);
    }
    iterators.resize(first + 1, iterators.back());
    auto collapsed = linalg::GenericOp::create(
        rewriter, loc, TypeRange{}, inputs, outputs, maps, iterators);
    rewriter.inlineRegionBefore(op.getRegion(), collapsed.getRegion(),
                                collapsed.getRegion().begin());
    rewriter.eraseOp(op);
    return success();
  }
};

struct CollapseElementwiseDimsPass
    : tsir::impl::TsirCPUCollapseElementwiseDimsPassBase<
          CollapseElementwiseDimsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<CollapseElementwiseDims>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
