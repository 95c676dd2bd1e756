//===- ApproximateMath.cpp - tsir-approximate-math ------------------------===//
//
// f32 tanh/exp/expm1/log/log1p/log2/erf as MLIR's polynomial
// approximations. As libm calls (math-to-libm) they are opaque to LLVM's
// loop vectorizer, which leaves a fused pointwise loop scalar: the seed
// chain `tanh(d * (a + b))` ran at a thirtieth of memory bandwidth. The
// approximations are arithmetic (with the range reductions libm does), so
// the loop vectorizes. The predicate keeps the set to functions whose
// approximations are accurate over the whole f32 range.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRAPPROXIMATEMATHPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {
struct TsirApproximateMathPass
    : tsir::impl::TsirApproximateMathPassBase<TsirApproximateMathPass> {
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    populateMathPolynomialApproximationPatterns(set, [](StringRef name) {
      name.consume_front("math.");
      return llvm::is_contained({"tanh", "exp", "expm1", "log", "log1p",
                                 "log2", "erf"},
                                name);
    });
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    if (failed(applyPatternsGreedily(getOperation(), patterns)))
      return signalPassFailure();
  }

  FrozenRewritePatternSet patterns;
};
} // namespace
