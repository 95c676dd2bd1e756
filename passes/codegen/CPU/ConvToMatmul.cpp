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
// A grouped 2-d convolution (NGCHW input, GFCHW weight) is the same
// product once per group, g a batch dimension of it:
//
//   out[n, g, f, p] += weight[g, f, k] * columns[n, g, k, p]
//
// Depthwise convolutions (one input channel per group) are left to
// tsir-cpu-depthwise-conv-rows: their product would be a few rows by
// nine, which no register tile fills.
//
// Columns larger than `column-budget` bytes are not built whole: the
// convolution is first tiled (scf.for, TilingInterface) over its batch and
// leading output dims into convolutions whose columns fit, and each of
// those becomes a product. A 3x3x3 layer of a video net over 16x56x56
// would copy 347 MB, every page of it faulted in fresh each run, and the
// product would stream it back from memory; a chunk stays in cache and
// its buffer is reused.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

#include "StaticConv.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRCONVTOMATMULPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {

/// Output positions below which the columns are laid out window-innermost
/// (one AVX-512 vector of f32).
constexpr int64_t kFewPositions = 16;

/// The tile sizes (one per loop of `conv`, 0 for a loop left whole) that
/// bring its columns, `columnBytes` in all, under `budget` bytes. `dims`
/// are the (loop, size) pairs the columns grow with, outermost first (the
/// batch, then the output dims); each is cut to the largest divisor of its
/// size that fits (so every tile has the same static shape), or to 1 and
/// the next dim cut too. None when the columns fit whole.
std::optional<SmallVector<int64_t>>
columnTiles(unsigned loopCount, ArrayRef<std::pair<unsigned, int64_t>> dims,
            int64_t columnBytes, int64_t budget) {
  if (columnBytes <= budget)
    return std::nullopt;
  SmallVector<int64_t> tiles(loopCount, 0);
  int64_t bytes = columnBytes;
  for (auto [loop, size] : dims) {
    // The bytes of one index of this dim, with the dims after it whole.
    int64_t slice = bytes / size;
    int64_t tile = 1;
    for (int64_t t = size; t >= 1; --t)
      if (size % t == 0 && t * slice <= budget) {
        tile = t;
        break;
      }
    // A tile of the whole dim leaves it uncut (no loop of one trip).
    tiles[loop] = tile == size ? 0 : tile;
    bytes = tile * slice;
    if (bytes <= budget)
      break;
  }
  return tiles;
}

/// A convolution with `s` spatial dims (1-d NCW/FCW, 2-d NCHW/FCHW, 3-d
/// NCDHW/FCDHW) as out[n, f, p] += weight[f, k] * columns[n, k, p], with
/// k = (c, k_1..k_s) and p = (o_1..o_s). With `Grouped` (NGCHW/GFCHW) the
/// group is a batch dimension of the product, after n.
template <typename ConvOp, bool Grouped = false>
struct ConvToMatmul : OpRewritePattern<ConvOp> {
  ConvToMatmul(MLIRContext *context, int64_t columnBudget)
      : OpRewritePattern<ConvOp>(context), columnBudget(columnBudget) {}

  /// The most bytes of columns built at once (tsir-conv-to-matmul's
  /// `column-budget`).
  int64_t columnBudget;

  /// The product of window-innermost `columns` [n, p, k] of a batch as one
  /// matrix product, out2[f, (n, p)] += matrix[f, k] * columns[(n, p), k],
  /// then out[n, f, p] as out2 transposed (expanded to `initType`). Done
  /// per n, the product is a few columns wide and reads all of `matrix`
  /// once per n: a weight gradient's correlation (n the input channels,
  /// `matrix` the output's gradient, k = batch x output positions)
  /// streamed its 6 MB n = 64 times in ResNet-18's first layers. As one
  /// product of n*p columns the GEMM kernels block it like any other.
  static Value foldBatchIntoColumns(PatternRewriter &rewriter, Location loc,
                                    Value matrix, Value columns, Value init,
                                    RankedTensorType initType,
                                    ArrayRef<ReassociationIndices> outputDims) {
    MLIRContext *context = rewriter.getContext();
    auto columnsType = cast<RankedTensorType>(columns.getType());
    int64_t batch = columnsType.getDimSize(0);
    int64_t positions = columnsType.getDimSize(1);
    int64_t features = initType.getDimSize(1);
    Type elementType = initType.getElementType();
    Value rows = tensor::CollapseShapeOp::create(
        rewriter, loc, columns, SmallVector<ReassociationIndices>{{0, 1}, {2}});
    // out2's initial value: a fill of the same value when the
    // convolution's is one (it usually is: zeros), else the init
    // transposed.
    SmallVector<int64_t> wide = {features, batch, positions};
    Value empty = tensor::EmptyOp::create(rewriter, loc, wide, elementType);
    Value start;
    if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
      start = linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], empty)
                  .getResult(0);
    } else {
      Value flat =
          tensor::CollapseShapeOp::create(rewriter, loc, init, outputDims);
      start = linalg::TransposeOp::create(rewriter, loc, flat, empty,
                                          ArrayRef<int64_t>{1, 0, 2})
                  .getResult()[0];
    }
    SmallVector<ReassociationIndices> pairs = {{0}, {1, 2}};
    Value accumulator =
        tensor::CollapseShapeOp::create(rewriter, loc, start, pairs);
    AffineExpr f = getAffineDimExpr(0, context);
    AffineExpr q = getAffineDimExpr(1, context);
    AffineExpr k = getAffineDimExpr(2, context);
    SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {f, k}, context),
                                   AffineMap::get(3, 0, {q, k}, context),
                                   AffineMap::get(3, 0, {f, q}, context)};
    SmallVector<utils::IteratorType> iterators = {
        utils::IteratorType::parallel, utils::IteratorType::parallel,
        utils::IteratorType::reduction};
    Value product = tsir::cpu::buildMultiplyAccumulate(
        rewriter, loc, matrix, rows, accumulator, maps, iterators);
    Value expanded = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get(wide, elementType), product,
        pairs);
    Value narrow = tensor::EmptyOp::create(
        rewriter, loc, SmallVector<int64_t>{batch, features, positions},
        elementType);
    Value transposed =
        linalg::TransposeOp::create(rewriter, loc, expanded, narrow,
                                    ArrayRef<int64_t>{1, 0, 2})
            .getResult()[0];
    return tensor::ExpandShapeOp::create(rewriter, loc, initType, transposed,
                                         outputDims);
  }

  LogicalResult matchAndRewrite(ConvOp conv,
                                PatternRewriter &rewriter) const override {
    FailureOr<tsir::cpu::StaticConv> matched =
        tsir::cpu::matchStaticConv(conv, rewriter);
    if (failed(matched))
      return failure();
    auto [input, weight, init, inputType, weightType, initType, elementType] =
        *matched;

    // g: the group dims before the channel (input, output) or the
    // feature (weight) dim.
    constexpr unsigned g = Grouped ? 1 : 0;
    if (Grouped && inputType.getDimSize(2) == 1)
      return rewriter.notifyMatchFailure(conv, "depthwise: its own pass");

    Location loc = conv.getLoc();
    MLIRContext *context = rewriter.getContext();
    unsigned spatial = inputType.getRank() - 2 - g;
    SmallVector<int64_t> strides(conv.getStrides().template getValues<int64_t>());
    SmallVector<int64_t> dilations(
        conv.getDilations().template getValues<int64_t>());
    ArrayRef<int64_t> kernel = weightType.getShape().drop_front(2 + g);
    ArrayRef<int64_t> outputSizes = initType.getShape().drop_front(2 + g);
    // Dims [first, first + count) as one group of a reassociation.
    auto group = [](int64_t first, int64_t count) {
      return ReassociationIndices(llvm::to_vector(
          llvm::seq<int64_t>(first, first + count)));
    };
    // The leading dims kept as they are: n and g, or g for the weight.
    auto leading = [&](unsigned count) {
      SmallVector<ReassociationIndices> dims;
      for (unsigned d = 0; d < count; ++d)
        dims.push_back({d});
      return dims;
    };

    // columns[n, c*k_1*..*k_s, o_1*..*o_s], or with `windowRows` its
    // transpose [n, o_1*..*o_s, c*k_1*..*k_s].
    int64_t positions = ShapedType::getNumElements(outputSizes);
    bool pointwise =
        llvm::all_of(kernel, [](int64_t k) { return k == 1; }) &&
        llvm::all_of(strides, [](int64_t s) { return s == 1; }) &&
        inputType.getShape().drop_front(2 + g) == outputSizes;
    // A few output positions and a long window: the correlation that is a
    // convolution's weight gradient (3x3 out, the kernel the whole
    // feature map). As out[f, p] += weight[f, k] * columns[k, p] its
    // product is 9 columns wide, under one vector, and its copy's
    // innermost loop 3 long. With the window innermost instead, the copy
    // walks input rows and the product is the dot kernel's (both operands
    // contiguous along k).
    bool windowRows = !pointwise && positions < kFewPositions;
    // The dims before the channels: n, and g when grouped.
    unsigned lead = 1 + g;
    if (!pointwise && !windowRows && !Grouped) {
      // The loops are (n, f, o_1..o_s, c, k_1..k_s): the columns grow with
      // n and each o_d.
      int64_t batch = inputType.getDimSize(0);
      SmallVector<std::pair<unsigned, int64_t>> dims = {{0, batch}};
      for (unsigned d = 0; d < spatial; ++d)
        dims.push_back({2 + d, outputSizes[d]});
      int64_t columnBytes = batch * positions * inputType.getDimSize(1) *
                            ShapedType::getNumElements(kernel) *
                            (elementType.getIntOrFloatBitWidth() / 8);
      if (std::optional<SmallVector<int64_t>> tiles = columnTiles(
              conv.getNumLoops(), dims, columnBytes, columnBudget)) {
        scf::SCFTilingOptions options;
        options.setTileSizes(getAsIndexOpFoldResult(context, *tiles));
        FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
            rewriter, cast<TilingInterface>(conv.getOperation()), options);
        if (failed(tiled))
          return rewriter.notifyMatchFailure(conv, "could not tile");
        // Each tile is a convolution of the same kind whose columns fit:
        // this pattern rewrites it next.
        rewriter.replaceOp(conv, tiled->replacements);
        return success();
      }
    }
    Value columns;
    if (pointwise) {
      SmallVector<ReassociationIndices> dims = leading(lead + 1);
      dims.push_back(group(lead + 1, spatial));
      columns =
          tensor::CollapseShapeOp::create(rewriter, loc, input, dims);
    } else {
      // The copy iterates (n, [g,] c, k_1..k_s, o_1..o_s), its innermost
      // loop along the last output dim, so it vectorizes; with
      // `windowRows`, (n, [g,] o_1..o_s, c, k_1..k_s), along the last
      // kernel dim.
      unsigned rank = 2 + g + 2 * spatial;
      unsigned channelDim = windowRows ? lead + spatial : lead;
      unsigned kernelDim = channelDim + 1;
      unsigned outputDim = windowRows ? lead : lead + 1 + spatial;
      SmallVector<AffineExpr> reads;
      for (unsigned d = 0; d < lead; ++d)
        reads.push_back(getAffineDimExpr(d, context));
      reads.push_back(getAffineDimExpr(channelDim, context));
      for (unsigned d = 0; d < spatial; ++d)
        reads.push_back(
            getAffineDimExpr(outputDim + d, context) * strides[d] +
            getAffineDimExpr(kernelDim + d, context) * dilations[d]);
      AffineMap read = AffineMap::get(rank, 0, reads, context);
      SmallVector<int64_t> copySizes(inputType.getShape().take_front(lead));
      SmallVector<int64_t> window = {inputType.getDimSize(lead)};
      llvm::append_range(window, kernel);
      ArrayRef<int64_t> outer = windowRows ? outputSizes : window;
      llvm::append_range(copySizes, outer);
      llvm::append_range(copySizes, windowRows ? window : outputSizes);
      Value copy =
          tsir::cpu::buildWindowCopy(rewriter, loc, input, read, copySizes);
      // [n, (g,)] then the outer block of dims, then the inner one.
      SmallVector<ReassociationIndices> dims = leading(lead);
      dims.push_back(group(lead, outer.size()));
      dims.push_back(group(lead + outer.size(), rank - lead - outer.size()));
      columns = tensor::CollapseShapeOp::create(rewriter, loc, copy, dims);
    }
    SmallVector<ReassociationIndices> weightDims = leading(1 + g);
    weightDims.push_back(group(1 + g, 1 + spatial));
    Value matrix =
        tensor::CollapseShapeOp::create(rewriter, loc, weight, weightDims);
    SmallVector<ReassociationIndices> outputDims = leading(2 + g);
    outputDims.push_back(group(2 + g, spatial));
    if (windowRows && !Grouped && inputType.getDimSize(0) > 1) {
      rewriter.replaceOp(conv,
                         foldBatchIntoColumns(rewriter, loc, matrix, columns,
                                              init, initType, outputDims));
      return success();
    }
    Value accumulator =
        tensor::CollapseShapeOp::create(rewriter, loc, init, outputDims);

    // out[n, g, f, p] += matrix[g, f, k] * columns[n, g, k, p] (columns
    // indexed [n, g, p, k] with `windowRows`), g absent when ungrouped.
    unsigned loops = 4 + g;
    AffineExpr n = getAffineDimExpr(0, context);
    AffineExpr f = getAffineDimExpr(1 + g, context);
    AffineExpr p = getAffineDimExpr(2 + g, context);
    AffineExpr k = getAffineDimExpr(3 + g, context);
    SmallVector<AffineExpr> groupDims;
    if (Grouped)
      groupDims.push_back(getAffineDimExpr(1, context));
    auto indexed = [&](SmallVector<AffineExpr> prefix,
                       ArrayRef<AffineExpr> rest) {
      llvm::append_range(prefix, rest);
      return AffineMap::get(loops, 0, prefix, context);
    };
    SmallVector<AffineExpr> batched = {n};
    llvm::append_range(batched, groupDims);
    SmallVector<AffineMap> maps = {
        indexed(groupDims, {f, k}),
        windowRows ? indexed(batched, {p, k}) : indexed(batched, {k, p}),
        indexed(batched, {f, p})};
    SmallVector<utils::IteratorType> iterators(3 + g,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    Value product = tsir::cpu::buildMultiplyAccumulate(
        rewriter, loc, matrix, columns, accumulator, maps, iterators);
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(conv, initType, product,
                                                       outputDims);
    return success();
  }
};

struct ConvToMatmulPass
    : tsir::impl::TsirConvToMatmulPassBase<ConvToMatmulPass> {
  using TsirConvToMatmulPassBase::TsirConvToMatmulPassBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    TsirConvToMatmulPassBase::getDependentDialects(registry);
    // tileUsingSCF needs the convolutions' TilingInterface.
    linalg::registerTilingInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    if (columnBudget < 1) {
      getOperation().emitError(
          "tsir-conv-to-matmul: column-budget must be positive");
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<ConvToMatmul<linalg::Conv1DNcwFcwOp>,
                 ConvToMatmul<linalg::Conv2DNchwFchwOp>,
                 ConvToMatmul<linalg::Conv3DNcdhwFcdhwOp>,
                 ConvToMatmul<linalg::Conv2DNgchwGfchwOp, /*Grouped=*/true>>(
        &getContext(), columnBudget);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
