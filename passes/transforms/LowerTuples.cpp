//===- LowerTuples.cpp - prim-lower-tuples (placeholder) --------------------===//
//
// PLACEHOLDER: being written; does nothing yet.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Passes.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMLOWERTUPLESPASS
#include "TsirPasses.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {
struct PrimLowerTuplesPass : tsir::impl::PrimLowerTuplesPassBase<PrimLowerTuplesPass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace

void tsir::populateLowerTuplesPatterns(RewritePatternSet &) {}
