//===- RemoveMutation.cpp - prim-remove-mutation (placeholder) --------------===//
//
// PLACEHOLDER: being written; does nothing yet.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Passes.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMREMOVEMUTATIONPASS
#include "TsirPasses.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {
struct PrimRemoveMutationPass : tsir::impl::PrimRemoveMutationPassBase<PrimRemoveMutationPass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace

