//===- ValueSemantics.cpp - tsir-value-semantics: in-place ops made functional ===//
//
// See passes/Conversion.td.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRVALUESEMANTICSPASS
#include "TsirConversion.h.inc"
} // namespace tsir

using namespace mlir;

namespace {
struct TsirValueSemanticsPass : tsir::impl::TsirValueSemanticsPassBase<TsirValueSemanticsPass> {
  void runOnOperation() override {}
};
} // namespace
