//===- RefineTypes.cpp - tsir-refine-types (placeholder) --------------------===//
//
// PLACEHOLDER: being written; does nothing yet.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Passes.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRREFINETYPESPASS
#include "TsirPasses.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {
struct TsirRefineTypesPass : tsir::impl::TsirRefineTypesPassBase<TsirRefineTypesPass> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace

