//===- ConstantPropagation.cpp - prim-constant-propagation (placeholder) ----===//
//
// PLACEHOLDER: being written; does nothing yet.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Passes.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMCONSTANTPROPAGATIONPASS
#include "TsirPasses.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {
struct PrimConstantPropagationPass : tsir::impl::PrimConstantPropagationPassBase<PrimConstantPropagationPass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace

void tsir::populateControlFlowSimplificationPatterns(RewritePatternSet &) {}
