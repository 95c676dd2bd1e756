//===- InlineSubgraphs.cpp - prim-inline-subgraphs (placeholder) ------------===//
//
// PLACEHOLDER: being written; does nothing yet.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Passes.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMINLINESUBGRAPHSPASS
#include "TsirPasses.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {
struct PrimInlineSubgraphsPass : tsir::impl::PrimInlineSubgraphsPassBase<PrimInlineSubgraphsPass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace

