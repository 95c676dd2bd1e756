//===- CommonSubexpressionElimination.cpp - prim-cse (placeholder) ----------===//
//
// PLACEHOLDER: being written; does nothing yet.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Passes.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMCSEPASS
#include "TsirPasses.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {
struct PrimCSEPass : tsir::impl::PrimCSEPassBase<PrimCSEPass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace

