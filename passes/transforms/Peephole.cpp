//===- Peephole.cpp - prim-peephole (placeholder) ---------------------------===//
//
// PLACEHOLDER: being written; does nothing yet.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Passes.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMPEEPHOLEPASS
#include "TsirPasses.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {
struct PrimPeepholePass : tsir::impl::PrimPeepholePassBase<PrimPeepholePass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace

void tsir::populatePeepholePatterns(RewritePatternSet &) {}
