//===- AtenToArith.cpp - The convert-aten-to-arith pass -------------------===//
//
// A thin pass around the scalar patterns (Patterns.h): every aten op whose
// operands and results are all ints, floats, bools or None, every `is`
// test its types decide, Python's abs/min/max on scalars (prim.Generic
// `prim::abs`/`min`/`max`), and every int/float/bool prim.Constant and
// prim.Uninitialized must lower to arith/math. Ops on lists, strings or
// unknown `number`s are left to the runtime and to later passes.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "tsir/Conversion/Passes.h"
#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tsir {
#define GEN_PASS_DEF_CONVERTATENTOARITHPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

void tsir::populateAtenToArithPatterns(const TypeConverter &typeConverter,
                                       RewritePatternSet &patterns) {
  conversion::populateScalarArithmeticPatterns(typeConverter, patterns);
  conversion::populateScalarLogicPatterns(typeConverter, patterns);
  conversion::populatePrimScalarOpPatterns(typeConverter, patterns);
}

/// Whether `op` computes on scalars alone (None operands included, as the
/// `is None` tests have), which makes it this conversion's job.
static bool isScalarOnly(Operation *op) {
  auto isScalar = [](Type type) {
    return tsir::conversion::isBuiltinScalarType(type) ||
           isa<tsir::prim::NoneType>(type);
  };
  return llvm::all_of(op->getOperandTypes(), isScalar) &&
         llvm::all_of(op->getResultTypes(), isScalar);
}

namespace {
struct ConvertAtenToArithPass
    : tsir::impl::ConvertAtenToArithPassBase<ConvertAtenToArithPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    tsir::conversion::refineKnownNumbers(getOperation());
    tsir::TsirTypeConverter typeConverter;
    RewritePatternSet patterns(context);
    tsir::populateAtenToArithPatterns(typeConverter, patterns);

    ConversionTarget target(*context);
    target.addLegalDialect<arith::ArithDialect, math::MathDialect,
                           scf::SCFDialect>();
    target.addDynamicallyLegalDialect<tsir::aten::AtenDialect>(
        [](Operation *op) {
          return !isScalarOnly(op) &&
                 !tsir::conversion::isLowerableIdentityTest(op);
        });
    target.addDynamicallyLegalOp<tsir::prim::GenericOp>(
        [](Operation *op) { return !tsir::isLoweredPrimScalarOp(op); });
    target.addDynamicallyLegalOp<
        tsir::prim::ConstantOp, tsir::prim::UninitializedOp>([](Operation *op) {
      return !tsir::conversion::isBuiltinScalarType(op->getResult(0).getType());
    });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
