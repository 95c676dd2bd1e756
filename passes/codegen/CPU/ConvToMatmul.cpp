//===- ConvToMatmul.cpp - tsir-conv-to-matmul ---------------------------===//
//
// A 2-d convolution (NCHW input, FCHW weight) as a matrix product, so that
// it runs on the CPU's GEMM micro-kernel (tsir-cpu-contraction-kernels)
// instead of a scalar loop nest whose innermost loop is the 3-wide kernel
// window:
//
//   out[n, f, p] += weight[f, k] * columns[n, k, p]
//
// with k = (c, kh, kw) and p = (oh, ow). `columns` is the im2col copy of
// the input, written by a linalg.generic whose innermost loop walks ow, so
// it vectorizes. A 1x1 convolution of stride 1 needs no copy: the input
// already is that matrix. MLIR's linalg::rewriteInIm2Col builds the same
// product, but its copy indexes a flattened (oh, ow) with div/mod through
// tensor.extract, which stays scalar.
//
// Grouped convolutions keep their direct form.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRCONVTOMATMULPASS
#include "TsirConversion.h.inc"
} // namespace tsir

using namespace mlir;

namespace {

struct ConvToMatmul : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp conv,
                                PatternRewriter &rewriter) const override {
    if (!conv.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(conv, "expects tensors");
    Value input = conv.getInputs()[0], weight = conv.getInputs()[1];
    Value init = conv.getOutputs()[0];
    auto inputType = cast<RankedTensorType>(input.getType());
    auto weightType = cast<RankedTensorType>(weight.getType());
    auto initType = cast<RankedTensorType>(init.getType());
    if (!inputType.hasStaticShape() || !weightType.hasStaticShape() ||
        !initType.hasStaticShape())
      return rewriter.notifyMatchFailure(conv, "expects static shapes");
    Type elementType = initType.getElementType();
    if (!isa<FloatType>(elementType) ||
        inputType.getElementType() != elementType ||
        weightType.getElementType() != elementType)
      return rewriter.notifyMatchFailure(conv, "expects one float type");

    Location loc = conv.getLoc();
    int64_t batch = inputType.getDimSize(0), channels = inputType.getDimSize(1);
    int64_t kernelH = weightType.getDimSize(2), kernelW = weightType.getDimSize(3);
    int64_t outH = initType.getDimSize(2), outW = initType.getDimSize(3);
    SmallVector<int64_t> strides(conv.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(conv.getDilations().getValues<int64_t>());

    // columns[n, c*kh*kw, oh*ow].
    Value columns;
    bool pointwise = kernelH == 1 && kernelW == 1 && strides[0] == 1 &&
                     strides[1] == 1 && inputType.getDimSize(2) == outH &&
                     inputType.getDimSize(3) == outW;
    if (pointwise) {
      columns = tensor::CollapseShapeOp::create(
          rewriter, loc, input, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
    } else {
      MLIRContext *context = rewriter.getContext();
      AffineExpr n, c, kh, kw, oh, ow;
      bindDims(context, n, c, kh, kw, oh, ow);
      AffineMap read = AffineMap::get(
          6, 0,
          {n, c, oh * strides[0] + kh * dilations[0],
           ow * strides[1] + kw * dilations[1]},
          context);
      AffineMap write = AffineMap::getMultiDimIdentityMap(6, context);
      Value empty = tensor::EmptyOp::create(
          rewriter, loc,
          ArrayRef<int64_t>{batch, channels, kernelH, kernelW, outH, outW},
          elementType);
      Value copy =
          linalg::GenericOp::create(
              rewriter, loc, empty.getType(), ValueRange{input},
              ValueRange{empty}, ArrayRef<AffineMap>{read, write},
              SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
              [](OpBuilder &b, Location nestedLoc, ValueRange args) {
                linalg::YieldOp::create(b, nestedLoc, args[0]);
              })
              .getResult(0);
      columns = tensor::CollapseShapeOp::create(
          rewriter, loc, copy,
          ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}, {4, 5}});
    }
    Value matrix = tensor::CollapseShapeOp::create(
        rewriter, loc, weight, ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    SmallVector<ReassociationIndices> outputDims = {{0}, {1}, {2, 3}};
    Value accumulator =
        tensor::CollapseShapeOp::create(rewriter, loc, init, outputDims);

    // out[n, f, p] += matrix[f, k] * columns[n, k, p]
    MLIRContext *context = rewriter.getContext();
    AffineExpr n, f, p, k;
    bindDims(context, n, f, p, k);
    SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {f, k}, context),
                                   AffineMap::get(4, 0, {n, k, p}, context),
                                   AffineMap::get(4, 0, {n, f, p}, context)};
    SmallVector<utils::IteratorType> iterators(3,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    Value product =
        linalg::GenericOp::create(
            rewriter, loc, accumulator.getType(), ValueRange{matrix, columns},
            ValueRange{accumulator}, maps, iterators,
            [](OpBuilder &b, Location nestedLoc, ValueRange args) {
              Value mul = arith::MulFOp::create(b, nestedLoc, args[0], args[1]);
              linalg::YieldOp::create(
                  b, nestedLoc, arith::AddFOp::create(b, nestedLoc, args[2], mul)
                                    .getResult());
            })
            .getResult(0);
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(conv, initType, product,
                                                       outputDims);
    return success();
  }
};

struct ConvToMatmulPass
    : tsir::impl::TsirConvToMatmulPassBase<ConvToMatmulPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ConvToMatmul>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
