//===- SerializeNestedParallelLoops.cpp - Inner parallel loops in order ---===//
//
// convert-scf-to-openmp makes every scf.parallel an omp.parallel region, so
// a parallel loop inside another would fork a team of threads in every
// iteration of the outer one. The outer loop already keeps every thread
// busy; the inner ones run sequentially inside it (passes/Conversion.td).
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRSERIALIZENESTEDPARALLELLOOPSPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {
struct TsirSerializeNestedParallelLoopsPass
    : tsir::impl::TsirSerializeNestedParallelLoopsPassBase<
          TsirSerializeNestedParallelLoopsPass> {
  void runOnOperation() override {
    // Innermost first (post-order), so each rewrite leaves its parents'
    // bodies intact for the ones after it.
    SmallVector<scf::ParallelOp> nested;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (loop->getParentOfType<scf::ParallelOp>())
        nested.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : nested) {
      if (loop.getNumReductions() != 0) {
        loop.emitError("tsir-serialize-nested-parallel-loops: a nested "
                       "parallel loop with scf.reduce results cannot be made "
                       "sequential");
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(loop);
      if (failed(scf::parallelForToNestedFors(rewriter, loop))) {
        loop.emitError("tsir-serialize-nested-parallel-loops: cannot make "
                       "this parallel loop sequential");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
