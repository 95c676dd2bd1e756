//===- FinalizeLowering.cpp - tsir-finalize-lowering: the graph's signature and leftovers ===//
//
// See passes/Conversion.td.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRFINALIZELOWERINGPASS
#include "TsirConversion.h.inc"
} // namespace tsir

using namespace mlir;

namespace {
struct TsirFinalizeLoweringPass : tsir::impl::TsirFinalizeLoweringPassBase<TsirFinalizeLoweringPass> {
  void runOnOperation() override {}
};
} // namespace
