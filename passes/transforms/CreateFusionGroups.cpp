//===- CreateFusionGroups.cpp - tsir-create-fusion-groups (placeholder) -----===//
//
// PLACEHOLDER: being written; does nothing yet.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Passes.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRCREATEFUSIONGROUPSPASS
#include "TsirPasses.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {
struct TsirCreateFusionGroupsPass : tsir::impl::TsirCreateFusionGroupsPassBase<TsirCreateFusionGroupsPass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace

