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
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace tsir {
#define GEN_PASS_DEF_CONVERTATENTOLINALGPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {
/// `prim.unchecked_cast` between tensor types (an `Optional[Tensor]`
/// refined to `Tensor`, a plain `Tensor` to a refined one): the value
/// itself, with a `tensor.cast` where the builtin types differ.
struct UncheckedCastToTensorCast
    : OpConversionPattern<tsir::prim::UncheckedCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tsir::prim::UncheckedCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    Value input = adaptor.getOperands().front();
    if (!type || !isa<RankedTensorType>(input.getType()))
      return rewriter.notifyMatchFailure(op, "not a cast between tensors");
    if (input.getType() != type)
      input = tensor::CastOp::create(rewriter, op.getLoc(), type, input);
    rewriter.replaceOp(op, input);
    return success();
  }
};
} // namespace

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
  populateSortingPatterns(typeConverter, patterns);
  populatePaddingPatterns(typeConverter, patterns);
  populateResizePatterns(typeConverter, patterns);
  populateMiscPatterns(typeConverter, patterns);
  patterns.add<UncheckedCastToTensorCast>(typeConverter,
                                          patterns.getContext());
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
    // The run-time checks of indices (IndexChecks.h).
    target.addLegalOp<cf::AssertOp>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    target.addDynamicallyLegalDialect<tsir::aten::AtenDialect>(
        [](Operation *op) { return !touchesPrimTensor(op); });
    target.addDynamicallyLegalOp<tsir::prim::NumToTensorOp>(
        [](Operation *op) { return !touchesPrimTensor(op); });
    target.addDynamicallyLegalOp<tsir::prim::UncheckedCastOp>(
        [](Operation *op) {
          // Only casts from one tensor type to another are this pass's.
          return !isa<tsir::prim::TensorType>(op->getResultTypes().front()) ||
                 !isa<tsir::prim::TensorType, tsir::prim::OptionalType>(
                     op->getOperandTypes().front());
        });
    target.addDynamicallyLegalOp<tsir::prim::ConstantOp>(
        [](Operation *op) { return !touchesPrimTensor(op); });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
