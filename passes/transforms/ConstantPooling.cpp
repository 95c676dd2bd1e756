//===- ConstantPooling.cpp - prim-constant-pooling (placeholder) ------------===//
//
// PLACEHOLDER: being written; does nothing yet.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Passes.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMCONSTANTPOOLINGPASS
#include "TsirPasses.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {
struct PrimConstantPoolingPass : tsir::impl::PrimConstantPoolingPassBase<PrimConstantPoolingPass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace

