//===- DeadCodeElimination.cpp - prim-dce (placeholder) ---------------------===//
//
// PLACEHOLDER: being written; does nothing yet.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Passes.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMDCEPASS
#include "TsirPasses.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {
struct PrimDCEPass : tsir::impl::PrimDCEPassBase<PrimDCEPass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace

