//===- DepthwiseConvRows.cpp - tsir-cpu-depthwise-conv-rows --------------===//
//
// A depthwise convolution (one input channel per group: MobileNet's,
// MNASNet's, EfficientNet's) computed along the flattened rows of its
// padded input, so that the vectorized loop is as long as the whole
// feature map instead of one output row.
//
// With ow innermost (tsir-cpu-window-loop-order) the loop LLVM vectorizes
// is one output row: 7 or 14 wide in a network's late layers, under one
// AVX-512 register, so it ran as the vector loop's scalar remainder. Read
// the padded input [H, W] as one row of H*W elements instead. At stride
// 1, output (oh, ow) at j = oh*W + ow reads input j + kh*dh*W + kw*dw for
// tap (kh, kw), an offset that does not depend on j:
//
//   wide[n, g, f, j] += weight[g, f, kh, kw] * input[n, g, j + offset(kh, kw)]
//
// At stride s the input is first split into s*s phases (phase (a, b)
// holds rows a, a+s, ... and columns b, b+s, ...; one copy), each with
// pitch = W/s columns. Tap (kh, kw) then reads phase (kh*dh mod s,
// kw*dw mod s) at j + (kh*dh div s)*pitch + kw*dw div s: unit stride
// again.
//
// The wide output has `pitch` columns per row, of which the first OW are
// the convolution's; the others read across a row's end and are discarded
// (a slice, no copy). j runs to a multiple of the vector width so the
// loop has no scalar remainder; the input gets the few zero rows this
// reads past its end. The bias the output starts from is broadcast again
// at the wide shape.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

#include "StaticConv.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRCPUDEPTHWISECONVROWSPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {

/// `source` zero-padded at the high end to `shape`. When `source` is
/// itself a zero padding (the convolution's own), one pad does both.
Value padHigh(PatternRewriter &rewriter, Location loc, Value source,
              ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(source.getType());
  if (type.getShape() == shape)
    return source;
  Value zero = arith::ConstantOp::create(
      rewriter, loc, rewriter.getZeroAttr(type.getElementType()));
  SmallVector<int64_t> low(shape.size(), 0), high;
  for (auto [size, wanted] : llvm::zip(type.getShape(), shape))
    high.push_back(wanted - size);
  auto inner = source.getDefiningOp<tensor::PadOp>();
  Value innerValue = inner ? inner.getConstantPaddingValue() : Value();
  if (innerValue && matchPattern(innerValue, m_AnyZeroFloat()) &&
      !ShapedType::isDynamicShape(inner.getStaticLow()) &&
      !ShapedType::isDynamicShape(inner.getStaticHigh())) {
    source = inner.getSource();
    low.assign(inner.getStaticLow().begin(), inner.getStaticLow().end());
    for (auto [more, before] : llvm::zip(high, inner.getStaticHigh()))
      more += before;
  }
  MLIRContext *context = rewriter.getContext();
  return tensor::PadOp::create(rewriter, loc, type.clone(shape), source,
                               getAsIndexOpFoldResult(context, low),
                               getAsIndexOpFoldResult(context, high), zero);
}

/// The first `sizes` of each dim of `source`.
Value leadingSlice(PatternRewriter &rewriter, Location loc, Value source,
                   ArrayRef<int64_t> sizes) {
  auto type = cast<RankedTensorType>(source.getType());
  if (type.getShape() == sizes)
    return source;
  SmallVector<OpFoldResult> offsets(sizes.size(), rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(sizes.size(), rewriter.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(
      rewriter, loc, type.clone(sizes), source, offsets,
      getAsIndexOpFoldResult(rewriter.getContext(), sizes), strides);
}

/// The convolution's initial value over the wide rows, or null. It is
/// the bias broadcast along the rows (a linalg op whose every operand but
/// its fresh output ignores the spatial dims): the same op is built again
/// over [N, G, F, length], which costs no more than the original.
Value wideBroadcast(PatternRewriter &rewriter, Location loc, Value init,
                    ArrayRef<int64_t> wideShape) {
  auto producer = init.getDefiningOp<linalg::LinalgOp>();
  if (!producer || producer->getNumResults() != 1 ||
      producer.getNumDpsInits() != 1 || producer.getNumLoops() != 5 ||
      producer.getNumParallelLoops() != 5 || producer.hasIndexSemantics())
    return Value();
  OpOperand *out = producer.getDpsInitOperand(0);
  if (!producer.getMatchingIndexingMap(out).isIdentity() ||
      producer.payloadUsesValueFromOperand(out))
    return Value();
  MLIRContext *context = rewriter.getContext();
  AffineExpr zero = getAffineConstantExpr(0, context);
  SmallVector<AffineExpr> dims = {getAffineDimExpr(0, context),
                                  getAffineDimExpr(1, context),
                                  getAffineDimExpr(2, context), zero, zero};
  SmallVector<AffineMap> maps;
  for (OpOperand *input : producer.getDpsInputOperands()) {
    AffineMap map = producer.getMatchingIndexingMap(input);
    if (map.isFunctionOfDim(3) || map.isFunctionOfDim(4))
      return Value();
    maps.push_back(map.replaceDimsAndSymbols(dims, {}, 4, 0));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(4, context));
  Value empty = tensor::EmptyOp::create(
      rewriter, loc, wideShape, getElementTypeOrSelf(init.getType()));
  Block *body = producer.getBlock();
  return linalg::GenericOp::create(
             rewriter, loc, empty.getType(), producer.getDpsInputs(),
             ValueRange{empty}, maps,
             SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
             [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
               IRMapping mapping;
               mapping.map(body->getArguments(), args);
               for (Operation &op : body->getOperations())
                 b.clone(op, mapping);
             })
      .getResult(0);
}

struct DepthwiseConvRows : OpRewritePattern<linalg::Conv2DNgchwGfchwOp> {
  DepthwiseConvRows(MLIRContext *context, int64_t vectorWidth)
      : OpRewritePattern(context), vectorWidth(vectorWidth) {}

  LogicalResult matchAndRewrite(linalg::Conv2DNgchwGfchwOp conv,
                                PatternRewriter &rewriter) const override {
    FailureOr<tsir::cpu::StaticConv> matched =
        tsir::cpu::matchStaticConv(conv, rewriter);
    if (failed(matched))
      return failure();
    auto [input, weight, init, inputType, weightType, initType, elementType] =
        *matched;
    if (inputType.getDimSize(2) != 1)
      return rewriter.notifyMatchFailure(conv, "not depthwise");

    // input [N, G, 1, H, W], weight [G, F, 1, KH, KW], out [N, G, F, OH, OW]
    SmallVector<int64_t> strides(conv.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(conv.getDilations().getValues<int64_t>());
    int64_t batch = inputType.getDimSize(0), groups = inputType.getDimSize(1);
    int64_t rows = inputType.getDimSize(3), cols = inputType.getDimSize(4);
    int64_t features = weightType.getDimSize(1);
    int64_t kernelH = weightType.getDimSize(3), kernelW = weightType.getDimSize(4);
    int64_t outH = initType.getDimSize(3), outW = initType.getDimSize(4);
    int64_t spanH = (kernelH - 1) * dilations[0];
    int64_t spanW = (kernelW - 1) * dilations[1];
    if ((outH - 1) * strides[0] + spanH >= rows ||
        (outW - 1) * strides[1] + spanW >= cols)
      return rewriter.notifyMatchFailure(conv, "window past the input");

    // The input as strides[0] x strides[1] phases of `pitch` columns:
    // phase (a, b) holds rows a, a + sh, ... and columns b, b + sw, ...
    // Tap (kh, kw) of output j reads phase ((kh*dh) mod sh, (kw*dw) mod sw)
    // at j + ((kh*dh) floordiv sh)*pitch + (kw*dw) floordiv sw.
    int64_t pitch = llvm::divideCeil(cols, strides[1]);
    // The wide output: j in [0, length), length a multiple of the width.
    int64_t length = llvm::alignTo(outH * pitch, vectorWidth);
    int64_t lastTap = spanH / strides[0] * pitch + spanW / strides[1];
    // Each phase's rows: the input's, and those the last j's last tap
    // reads; the output rows `length` covers.
    int64_t phaseRows =
        std::max(llvm::divideCeil(rows, strides[0]),
                 llvm::divideCeil(length + lastTap, pitch));
    int64_t wideRows = llvm::divideCeil(length, pitch);

    Location loc = conv.getLoc();
    MLIRContext *context = rewriter.getContext();
    Value padded = padHigh(
        rewriter, loc, input,
        {batch, groups, 1, phaseRows * strides[0], pitch * strides[1]});
    SmallVector<int64_t> phaseShape = {batch,     groups, strides[0],
                                       strides[1], phaseRows, pitch};
    Value phases;
    if (strides[0] == 1 && strides[1] == 1) {
      phases = tensor::ExpandShapeOp::create(
          rewriter, loc, initType.clone(phaseShape), padded,
          ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}, {4}, {5}});
    } else {
      // phases[n, g, a, b, i, c] = input[n, g, 0, i*sh + a, c*sw + b]
      AffineExpr n, g, a, b, i, c;
      bindDims(context, n, g, a, b, i, c);
      AffineExpr zero = getAffineConstantExpr(0, context);
      AffineMap read = AffineMap::get(
          6, 0, {n, g, zero, i * strides[0] + a, c * strides[1] + b}, context);
      phases =
          tsir::cpu::buildWindowCopy(rewriter, loc, padded, read, phaseShape);
    }
    Value flatInput = tensor::CollapseShapeOp::create(
        rewriter, loc, phases,
        ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3}, {4, 5}});
    Value taps = tensor::CollapseShapeOp::create(
        rewriter, loc, weight,
        ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    SmallVector<ReassociationIndices> rowsOfOutput = {{0}, {1}, {2}, {3, 4}};
    Value wideInit = wideBroadcast(rewriter, loc, init,
                                   {batch, groups, features, length});
    if (!wideInit) {
      // Any other initial value: padded, a copy.
      wideInit = tensor::CollapseShapeOp::create(
          rewriter, loc,
          padHigh(rewriter, loc, init,
                  {batch, groups, features, wideRows, pitch}),
          rowsOfOutput);
      wideInit = leadingSlice(rewriter, loc, wideInit,
                              {batch, groups, features, length});
    }

    // wide[n, g, f, j] += taps[g, f, kh, kw] * phases[n, g, a, b, j + offset]
    AffineExpr n, g, f, kh, kw, j;
    bindDims(context, n, g, f, kh, kw, j);
    AffineExpr tapRow = kh * dilations[0], tapCol = kw * dilations[1];
    AffineExpr at = j + tapRow.floorDiv(strides[0]) * pitch +
                    tapCol.floorDiv(strides[1]);
    SmallVector<AffineMap> maps = {
        AffineMap::get(
            6, 0, {n, g, tapRow % strides[0], tapCol % strides[1], at},
            context),
        AffineMap::get(6, 0, {g, f, kh, kw}, context),
        AffineMap::get(6, 0, {n, g, f, j}, context)};
    using utils::IteratorType;
    SmallVector<IteratorType> iterators = {
        IteratorType::parallel,  IteratorType::parallel,
        IteratorType::parallel,  IteratorType::reduction,
        IteratorType::reduction, IteratorType::parallel};
    Value wide = tsir::cpu::buildMultiplyAccumulate(
        rewriter, loc, flatInput, taps, wideInit, maps, iterators);

    // Back to [N, G, F, OH, OW]: the first OH rows of `pitch`, their first
    // OW.
    Value fullRows = leadingSlice(rewriter, loc, wide,
                                  {batch, groups, features, outH * pitch});
    Value grid = tensor::ExpandShapeOp::create(
        rewriter, loc, initType.clone({batch, groups, features, outH, pitch}),
        fullRows, rowsOfOutput);
    rewriter.replaceOp(conv, leadingSlice(rewriter, loc, grid,
                                          initType.getShape()));
    return success();
  }

  int64_t vectorWidth;
};

struct DepthwiseConvRowsPass
    : tsir::impl::TsirCPUDepthwiseConvRowsPassBase<DepthwiseConvRowsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DepthwiseConvRows>(&getContext(), vectorWidth);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
