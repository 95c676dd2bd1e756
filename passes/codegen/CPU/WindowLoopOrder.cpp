//===- WindowLoopOrder.cpp - tsir-cpu-window-loop-order ------------------===//
//
// Sliding-window ops (pooling, grouped and depthwise convolutions: what
// tsir-conv-to-matmul leaves) iterate their window innermost:
// out[n, c, oh, ow] = max over kh, kw of in[n, c, oh*s + kh, ow*s + kw].
// convert-linalg-to-loops nests loops in the op's dimension order, so the
// innermost loop runs 3 times over a window and LLVM cannot vectorize it.
// Moving the window loops outside the output's innermost dimension (ow)
// makes the innermost loop a long stride-1 (or stride-s) walk along a row
// of the input and the output, which LLVM vectorizes. MobileNet's depthwise
// convolutions ran scalar before this.
//
// A global pooling (a window as large as its input: squeeze-excitation's
// average pool) is made a plain reduction instead, whose window rows stay
// innermost.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRCPUWINDOWLOOPORDERPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {

/// Whether some operand is indexed by a parallel and a reduction dimension
/// added together (oh*s + kh): a window, as opposed to a plain reduction,
/// whose rows should stay innermost.
bool slidesAWindow(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (AffineMap map : op.getIndexingMapsArray())
    for (AffineExpr expr : map.getResults()) {
      bool parallel = false, reduction = false;
      expr.walk([&](AffineExpr e) {
        if (auto dim = dyn_cast<AffineDimExpr>(e))
          (linalg::isParallelIterator(iterators[dim.getPosition()]) ? parallel
                                                                    : reduction) =
              true;
      });
      if (parallel && reduction)
        return true;
    }
  return false;
}

/// The new loop order (old dimension per new position): the parallel
/// dimensions but the output's innermost one, the reductions, then that
/// one. None when the op has no window or its innermost loop is already
/// the output's innermost dimension.
std::optional<SmallVector<unsigned>> windowOutward(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0 ||
      linalg::isaContractionOpInterface(op) || !slidesAWindow(op))
    return std::nullopt;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outMap.getNumResults() == 0)
    return std::nullopt;
  auto inner = dyn_cast<AffineDimExpr>(outMap.getResults().back());
  unsigned numLoops = op.getNumLoops();
  if (!inner || inner.getPosition() == numLoops - 1)
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> order;
  for (unsigned d = 0; d < numLoops; ++d)
    if (linalg::isParallelIterator(iterators[d]) && d != inner.getPosition())
      order.push_back(d);
  for (unsigned d = 0; d < numLoops; ++d)
    if (!linalg::isParallelIterator(iterators[d]))
      order.push_back(d);
  order.push_back(inner.getPosition());
  return order;
}

/// The parallel dims that slide a window (oh in oh*s + kh) whose static
/// extent is 1 in every window of `op`: a global pooling, whose window is
/// the whole input. None when some window dim is longer.
std::optional<SmallVector<unsigned>> singleWindowDims(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> dims;
  for (AffineMap map : op.getIndexingMapsArray())
    for (AffineExpr expr : map.getResults()) {
      SmallVector<unsigned> parallel;
      bool reduction = false;
      expr.walk([&](AffineExpr e) {
        if (auto dim = dyn_cast<AffineDimExpr>(e)) {
          if (linalg::isParallelIterator(iterators[dim.getPosition()]))
            parallel.push_back(dim.getPosition());
          else
            reduction = true;
        }
      });
      if (!reduction || parallel.empty())
        continue;
      for (unsigned d : parallel) {
        if (ranges[d] != 1)
          return std::nullopt;
        if (!llvm::is_contained(dims, d))
          dims.push_back(d);
      }
    }
  if (dims.empty())
    return std::nullopt;
  return dims;
}

/// `op` as a linalg.generic: itself, or its named op generalized.
FailureOr<linalg::GenericOp> asGeneric(PatternRewriter &rewriter,
                                       linalg::LinalgOp op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    return generic;
  return linalg::generalizeNamedOp(rewriter, op);
}

/// A global pooling (every window starts at 0) as the plain reduction it
/// is: the inputs read (kh, kw) instead of (oh*s + kh, ow*s + kw), with
/// oh = ow = 0. The window is then innermost and contiguous, which
/// tsir-cpu-collapse-elementwise-dims and tsir-cpu-vectorize-reductions
/// take as one row of H*W; reordered as a window, the squeeze-excitation
/// pools of MobileNet v3 and EfficientNet ran as scalar chains of adds
/// under a row of one output.
struct GlobalWindowAsReduction : OpInterfaceRewritePattern<linalg::LinalgOp> {
  GlobalWindowAsReduction(MLIRContext *context)
      : OpInterfaceRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumReductionLoops() == 0 ||
        linalg::isaContractionOpInterface(op) || !slidesAWindow(op))
      return rewriter.notifyMatchFailure(op, "not a window op");
    std::optional<SmallVector<unsigned>> dims = singleWindowDims(op);
    if (!dims)
      return rewriter.notifyMatchFailure(op, "not a global window");
    FailureOr<linalg::GenericOp> generic = asGeneric(rewriter, op);
    if (failed(generic))
      return failure();
    // Inputs only: the outputs keep indexing oh and ow, whose extent
    // (1) they give the loops.
    MLIRContext *context = rewriter.getContext();
    AffineExpr zero = getAffineConstantExpr(0, context);
    SmallVector<AffineMap> maps = generic->getIndexingMapsArray();
    for (OpOperand *input : generic->getDpsInputOperands()) {
      AffineMap &map = maps[input->getOperandNumber()];
      for (unsigned d : *dims)
        map = map.replace(getAffineDimExpr(d, context), zero, map.getNumDims(),
                          map.getNumSymbols());
    }
    rewriter.modifyOpInPlace(*generic, [&] {
      generic->setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    return success();
  }
};

struct WindowLoopOrder : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<unsigned>> order = windowOutward(op);
    if (!order)
      return rewriter.notifyMatchFailure(op, "not a window op to reorder");
    FailureOr<linalg::GenericOp> generic = asGeneric(rewriter, op);
    if (failed(generic))
      return failure();
    return success(
        succeeded(linalg::interchangeGenericOp(rewriter, *generic, *order)));
  }
};

struct WindowLoopOrderPass
    : tsir::impl::TsirCPUWindowLoopOrderPassBase<WindowLoopOrderPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<GlobalWindowAsReduction, WindowLoopOrder>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
