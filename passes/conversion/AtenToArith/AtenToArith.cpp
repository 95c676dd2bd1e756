//===- AtenToArith.cpp - The convert-aten-to-arith pass -------------------===//
//
// TorchScript's scalar int/float/bool ops and scalar constants lowered to
// arith/math with TorchScript's semantics.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"
#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tsir {
#define GEN_PASS_DEF_CONVERTATENTOARITHPASS
#include "TsirConversion.h.inc"
} // namespace tsir

using namespace mlir;

void tsir::populateAtenToArithPatterns(const TypeConverter &typeConverter,
                                       RewritePatternSet &patterns) {}

namespace {
struct ConvertAtenToArithPass
    : tsir::impl::ConvertAtenToArithPassBase<ConvertAtenToArithPass> {
  void runOnOperation() override {}
};
} // namespace
