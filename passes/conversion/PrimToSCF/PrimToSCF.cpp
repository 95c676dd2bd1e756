//===- PrimToSCF.cpp - The convert-prim-to-scf pass -----------------------===//
//
// prim.If and prim.Loop lowered to scf.if, scf.for and scf.while with
// TorchScript's loop semantics.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"
#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace tsir {
#define GEN_PASS_DEF_CONVERTPRIMTOSCFPASS
#include "TsirConversion.h.inc"
} // namespace tsir

using namespace mlir;

void tsir::populatePrimToSCFPatterns(const TypeConverter &typeConverter,
                                     RewritePatternSet &patterns) {}

namespace {
struct ConvertPrimToSCFPass
    : tsir::impl::ConvertPrimToSCFPassBase<ConvertPrimToSCFPass> {
  void runOnOperation() override {}
};
} // namespace
