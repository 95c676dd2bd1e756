//===- FoldProfilingGuards.cpp - tsir-fold-profiling-guards --------------===//
//
// The graphs TorchScript's profiling executor prints once it has optimized
// (`torch.jit.last_executed_optimized_graph()`, `graph_for`) guard their
// fast paths on what it profiled:
//
//   %t : Float(2, 2), %ok : bool = prim::TypeCheck[types=[Float(2, 2)]](%a)
//   %x..., %ok : bool = prim::RequiresGradCheck[types=[...]](%a, %b)
//
// each feeding a prim::If whose other branch is the unoptimized graph (a
// prim::FallbackGraph, or a call of a fallback function tsir cannot run).
// Both branches compute the same values. Once tsir-refine-types has given
// the inputs their types, the guards fold:
//
// - a TypeCheck is true when every input's dtype and sizes (and device,
//   where both say) are the profiled ones, false when one differs, and
//   left as it is while they are unknown (the fused branch is written for
//   the profiled sizes, so it must not run on others). Strides and
//   requires_grad do not decide it: tsir hands compiled code dense
//   tensors, and neither changes a value;
// - a RequiresGradCheck is true: tsir computes gradients in its own
//   executors (docs/autodiff.md), never through autograd's flags, and the
//   differentiable branch computes the same forward values.
//
// The checked values become the inputs, cast to the profiled types.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRFOLDPROFILINGGUARDSPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {

/// Whether a tensor of type `actual` passes a check against `profiled`;
/// nullopt while `actual` does not say.
std::optional<bool> passesCheck(Type actual, Type profiled) {
  auto have = dyn_cast<prim::TensorType>(actual);
  auto want = dyn_cast<prim::TensorType>(profiled);
  if (!have || !want)
    return std::nullopt;
  if (want.getDtype()) {
    if (!have.getDtype())
      return std::nullopt;
    if (have.getDtype() != want.getDtype())
      return false;
  }
  if (want.getHasSizes()) {
    if (!have.getHasSizes())
      return std::nullopt;
    if (have.getSizes().size() != want.getSizes().size())
      return false;
    for (auto [size, expected] : llvm::zip(have.getSizes(), want.getSizes())) {
      if (expected == prim::TensorType::kUnknownSize)
        continue;
      if (size == prim::TensorType::kUnknownSize)
        return std::nullopt;
      if (size != expected)
        return false;
    }
  }
  if (want.getDevice() && have.getDevice() &&
      want.getDevice() != have.getDevice())
    return false;
  return true;
}

/// Replaces `guard`'s checked values by its inputs (cast to the types the
/// guard gives them) and its verdict by `verdict`.
void foldGuard(PatternRewriter &rewriter, Operation *guard, bool verdict) {
  SmallVector<Value> replacements;
  for (auto [input, result] :
       llvm::zip(guard->getOperands(), guard->getResults())) {
    Value value = input;
    if (value.getType() != result.getType())
      value = prim::UncheckedCastOp::create(rewriter, guard->getLoc(),
                                            result.getType(), input);
    replacements.push_back(value);
  }
  replacements.push_back(prim::ConstantOp::create(
      rewriter, guard->getLoc(), rewriter.getI1Type(),
      rewriter.getBoolAttr(verdict)));
  rewriter.replaceOp(guard, replacements);
}

struct FoldTypeCheck : OpRewritePattern<prim::TypeCheckOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::TypeCheckOp check,
                                PatternRewriter &rewriter) const override {
    bool verdict = true;
    for (auto [input, profiled] :
         llvm::zip(check.getInputs(), check.getTypes())) {
      std::optional<bool> passes = passesCheck(
          input.getType(), cast<TypeAttr>(profiled).getValue());
      if (!passes)
        return rewriter.notifyMatchFailure(check, "an input's type is open");
      verdict &= *passes;
    }
    foldGuard(rewriter, check, verdict);
    return success();
  }
};

struct FoldRequiresGradCheck : OpRewritePattern<prim::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::GenericOp check,
                                PatternRewriter &rewriter) const override {
    if (check.getKind() != "prim::RequiresGradCheck" ||
        check->getNumRegions() != 0 ||
        check->getNumResults() != check->getNumOperands() + 1 ||
        !check->getResults().back().getType().isInteger(1))
      return failure();
    foldGuard(rewriter, check, true);
    return success();
  }
};

struct TsirFoldProfilingGuardsPass
    : tsir::impl::TsirFoldProfilingGuardsPassBase<TsirFoldProfilingGuardsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldTypeCheck, FoldRequiresGradCheck>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
