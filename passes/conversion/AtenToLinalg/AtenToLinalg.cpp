//===- AtenToLinalg.cpp - The convert-aten-to-linalg pass -----------------===//
//
// A thin pass around the op-family patterns (PopulatePatterns.h): every aten
// op that touches a tensor, and tensor-valued prim ops, must lower; the
// partial conversion leaves casts to the prim types where unconverted users
// (control flow, lists, the function's signature) still need them.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tsir/Conversion/Passes.h"
#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace tsir {
#define GEN_PASS_DEF_CONVERTATENTOLINALGPASS
#include "TsirConversion.h.inc"
} // namespace tsir

using namespace mlir;

void tsir::populateAtenToLinalgPatterns(const TypeConverter &typeConverter,
                                        RewritePatternSet &patterns) {
  using namespace conversion;
  populateElementwisePatterns(typeConverter, patterns);
  populateReductionPatterns(typeConverter, patterns);
  populateNormalizationPatterns(typeConverter, patterns);
  populateLinearPatterns(typeConverter, patterns);
  populateConvolutionPatterns(typeConverter, patterns);
  populatePoolingPatterns(typeConverter, patterns);
  populateViewsPatterns(typeConverter, patterns);
  populateConcatPatterns(typeConverter, patterns);
  populateIndexingPatterns(typeConverter, patterns);
  populateCreationPatterns(typeConverter, patterns);
  populateScalarTensorPatterns(typeConverter, patterns);
}

/// Whether `op` has a prim tensor operand or result, which makes it this
/// conversion's job.
static bool touchesPrimTensor(Operation *op) {
  auto isTensor = [](Type type) { return isa<tsir::prim::TensorType>(type); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

namespace {
struct ConvertAtenToLinalgPass
    : tsir::impl::ConvertAtenToLinalgPassBase<ConvertAtenToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    tsir::TsirTypeConverter typeConverter;
    RewritePatternSet patterns(context);
    tsir::populateAtenToLinalgPatterns(typeConverter, patterns);

    ConversionTarget target(*context);
    target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect,
                           arith::ArithDialect, math::MathDialect,
                           bufferization::BufferizationDialect,
                           scf::SCFDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    target.addDynamicallyLegalDialect<tsir::aten::AtenDialect>(
        [](Operation *op) { return !touchesPrimTensor(op); });
    target.addDynamicallyLegalOp<tsir::prim::NumToTensorOp>(
        [](Operation *op) { return !touchesPrimTensor(op); });
    target.addDynamicallyLegalOp<tsir::prim::ConstantOp>(
        [](Operation *op) { return !touchesPrimTensor(op); });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
