//===- UnrollLoops.cpp - prim-unroll-loops (placeholder) --------------------===//
//
// PLACEHOLDER: being written; does nothing yet.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Passes.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMUNROLLLOOPSPASS
#include "TsirPasses.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {
struct PrimUnrollLoopsPass : tsir::impl::PrimUnrollLoopsPassBase<PrimUnrollLoopsPass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace

void tsir::populateUnrollLoopsPatterns(RewritePatternSet &,
                                       const PrimUnrollLoopsPassOptions &) {}
