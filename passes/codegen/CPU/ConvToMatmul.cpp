//===- ConvToMatmul.cpp - tsir-conv-to-matmul ---------------------------===//
//
// A 1-d, 2-d or 3-d convolution (NCW/NCHW/NCDHW input, FCW/FCHW/FCDHW
// weight) as a matrix product, so that it runs on the CPU's GEMM
// micro-kernel (tsir-cpu-contraction-kernels) instead of a scalar loop
// nest whose innermost loop is the 3-wide kernel window:
//
//   out[n, f, p] += weight[f, k] * columns[n, k, p]
//
// with k = (c, kh, kw) and p = (oh, ow) in 2-d (one more kernel and output
// dim in 3-d, one fewer in 1-d). `columns` is the im2col copy of the
// input, written by a linalg.generic whose innermost loop walks ow, so it
// vectorizes. In 3-d it is k_d*k_h*k_w times the input, as torch's
// vol2col is. A 1x1 convolution of stride 1 needs no copy: the input
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

/// A convolution with `s` spatial dims (1-d NCW/FCW, 2-d NCHW/FCHW, 3-d
/// NCDHW/FCDHW) as out[n, f, p] += weight[f, k] * columns[n, k, p], with
/// k = (c, k_1..k_s) and p = (o_1..o_s).
template <typename ConvOp>
struct ConvToMatmul : OpRewritePattern<ConvOp> {
  using OpRewritePattern<ConvOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvOp conv,
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
    MLIRContext *context = rewriter.getContext();
    unsigned spatial = inputType.getRank() - 2;
    SmallVector<int64_t> strides(conv.getStrides().template getValues<int64_t>());
    SmallVector<int64_t> dilations(
        conv.getDilations().template getValues<int64_t>());
    ArrayRef<int64_t> kernel = weightType.getShape().drop_front(2);
    ArrayRef<int64_t> outputSizes = initType.getShape().drop_front(2);
    // Dims [first, first + count) as one group of a reassociation.
    auto group = [](int64_t first, int64_t count) {
      return ReassociationIndices(llvm::to_vector(
          llvm::seq<int64_t>(first, first + count)));
    };

    // columns[n, c*k_1*..*k_s, o_1*..*o_s].
    Value columns;
    bool pointwise =
        llvm::all_of(kernel, [](int64_t k) { return k == 1; }) &&
        llvm::all_of(strides, [](int64_t s) { return s == 1; }) &&
        inputType.getShape().drop_front(2) == outputSizes;
    if (pointwise) {
      columns = tensor::CollapseShapeOp::create(
          rewriter, loc, input,
          ArrayRef<ReassociationIndices>{{0}, {1}, group(2, spatial)});
    } else {
      // The copy iterates (n, c, k_1..k_s, o_1..o_s); its innermost loop
      // walks the last output dim, so it vectorizes.
      unsigned rank = 2 + 2 * spatial;
      SmallVector<AffineExpr> reads = {getAffineDimExpr(0, context),
                                       getAffineDimExpr(1, context)};
      for (unsigned d = 0; d < spatial; ++d)
        reads.push_back(
            getAffineDimExpr(2 + spatial + d, context) * strides[d] +
            getAffineDimExpr(2 + d, context) * dilations[d]);
      AffineMap read = AffineMap::get(rank, 0, reads, context);
      AffineMap write = AffineMap::getMultiDimIdentityMap(rank, context);
      SmallVector<int64_t> copySizes = {inputType.getDimSize(0),
                                        inputType.getDimSize(1)};
      llvm::append_range(copySizes, kernel);
      llvm::append_range(copySizes, outputSizes);
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, copySizes, elementType);
      Value copy =
          linalg::GenericOp::create(
              rewriter, loc, empty.getType(), ValueRange{input},
              ValueRange{empty}, ArrayRef<AffineMap>{read, write},
              SmallVector<utils::IteratorType>(rank,
                                               utils::IteratorType::parallel),
              [](OpBuilder &b, Location nestedLoc, ValueRange args) {
                linalg::YieldOp::create(b, nestedLoc, args[0]);
              })
              .getResult(0);
      columns = tensor::CollapseShapeOp::create(
          rewriter, loc, copy,
          ArrayRef<ReassociationIndices>{
              {0}, group(1, 1 + spatial), group(2 + spatial, spatial)});
    }
    Value matrix = tensor::CollapseShapeOp::create(
        rewriter, loc, weight,
        ArrayRef<ReassociationIndices>{{0}, group(1, 1 + spatial)});
    SmallVector<ReassociationIndices> outputDims = {{0}, {1},
                                                    group(2, spatial)};
    Value accumulator =
        tensor::CollapseShapeOp::create(rewriter, loc, init, outputDims);

    // out[n, f, p] += matrix[f, k] * columns[n, k, p]
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
    patterns.add<ConvToMatmul<linalg::Conv1DNcwFcwOp>,
                 ConvToMatmul<linalg::Conv2DNchwFchwOp>,
                 ConvToMatmul<linalg::Conv3DNcdhwFcdhwOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
