//===- Convolution.cpp - convert-aten-to-linalg: convolutions -------------===//
//
// conv1d/2d/3d, conv1d/2d/3d with "same"/"valid" padding, convolution and
// _convolution (plain and transposed) and conv_transpose2d, lowered to
// linalg's NC(D)(H)W convolution ops: explicit zero padding by tensor.pad,
// groups through the NGCHW op (or one linalg.generic in 1-D and 3-D), the
// bias broadcast over channels as the init, an unbatched input given a
// batch of one. A transposed convolution becomes a direct one with the
// kernel flipped: of stride 1 per output phase when it has a stride (and
// no dilation), else over the input spread out by the stride.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "StructuredBuilders.h"

#include "../Common/Utils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace tsir::conversion;
namespace aten = tsir::aten;

namespace {

/// A convolution's constant parameters, one entry per spatial dim.
struct ConvParams {
  SmallVector<int64_t> stride, dilation, padLow, padHigh, outputPadding;
  int64_t groups = 1;
  bool transposed = false;
};

/// A direct grouped convolution as one linalg.generic, for the ranks that
/// have no grouped named op: input [N, G, C/G, x...], weight
/// [G, F/G, C/G, k...], accumulating into init [N, G, F/G, y...].
Value buildGroupedConvGeneric(OpBuilder &b, Location loc, Value input,
                              Value weight, Value init,
                              ArrayRef<int64_t> stride,
                              ArrayRef<int64_t> dilation) {
  int64_t spatial = stride.size();
  // Loops: n, g, f, y..., c, k...
  int64_t numLoops = 4 + 2 * spatial;
  auto dim = [&](int64_t i) { return b.getAffineDimExpr(i); };
  AffineExpr n = dim(0), g = dim(1), f = dim(2), c = dim(3 + spatial);
  SmallVector<AffineExpr> inputExprs = {n, g, c}, weightExprs = {g, f, c},
                          outExprs = {n, g, f};
  for (int64_t i = 0; i < spatial; ++i) {
    AffineExpr y = dim(3 + i), k = dim(4 + spatial + i);
    inputExprs.push_back(y * stride[i] + k * dilation[i]);
    weightExprs.push_back(k);
    outExprs.push_back(y);
  }
  SmallVector<AffineMap> maps = {
      AffineMap::get(numLoops, 0, inputExprs, b.getContext()),
      AffineMap::get(numLoops, 0, weightExprs, b.getContext()),
      AffineMap::get(numLoops, 0, outExprs, b.getContext())};
  SmallVector<utils::IteratorType> iterators(3 + spatial,
                                             utils::IteratorType::parallel);
  iterators.append(1 + spatial, utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{input, weight}, init, maps,
             iterators,
             [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               Value sum;
               if (isa<FloatType>(args[0].getType()))
                 sum = arith::AddFOp::create(
                     nested, nestedLoc, args[2],
                     arith::MulFOp::create(nested, nestedLoc, args[0],
                                           args[1]));
               else
                 sum = arith::AddIOp::create(
                     nested, nestedLoc, args[2],
                     arith::MulIOp::create(nested, nestedLoc, args[0],
                                           args[1]));
               linalg::YieldOp::create(nested, nestedLoc, sum);
             })
      .getResult(0);
}

/// A direct convolution of a batched, already padded `input`
/// [N, C, x...] with `weight` [F, C/groups, k...] into `init`
/// [N, F, y...].
Value buildDirectConv(OpBuilder &b, Location loc, Value input, Value weight,
                      Value init, ArrayRef<int64_t> stride,
                      ArrayRef<int64_t> dilation, int64_t groups) {
  int64_t spatial = stride.size();
  Attribute strides = b.getI64TensorAttr(stride);
  Attribute dilations = b.getI64TensorAttr(dilation);
  Type type = init.getType();
  if (groups == 1) {
    SmallVector<Value> ins = {input, weight};
    if (spatial == 1)
      return linalg::Conv1DNcwFcwOp::create(b, loc, type, ins, init, strides,
                                            dilations)
          .getResult(0);
    if (spatial == 2)
      return linalg::Conv2DNchwFchwOp::create(b, loc, type, ins, init, strides,
                                              dilations)
          .getResult(0);
    return linalg::Conv3DNcdhwFcdhwOp::create(b, loc, type, ins, init, strides,
                                              dilations)
        .getResult(0);
  }
  // Groups: split the channel dims of the input, weight and init as
  // [G, C/G], [G, F/G] and [G, F/G], convolve, and merge them back.
  int64_t rank = spatial + 2;
  SmallVector<ReassociationIndices> splitDim0 = {{0, 1}},
                                    splitDim1 = {{0}, {1, 2}};
  for (int64_t i = 1; i < rank; ++i)
    splitDim0.push_back({i + 1});
  for (int64_t i = 2; i < rank; ++i)
    splitDim1.push_back({i + 1});
  auto split = [&](Value value, int64_t dim) {
    SmallVector<OpFoldResult> sizes = getSizes(b, loc, value);
    int64_t channels = *getConstantIntValue(sizes[dim]);
    sizes[dim] = b.getIndexAttr(channels / groups);
    sizes.insert(sizes.begin() + dim, b.getIndexAttr(groups));
    return expandTo(b, loc, value, dim == 0 ? splitDim0 : splitDim1, sizes);
  };
  Value groupedInput = split(input, 1);
  Value groupedWeight = split(weight, 0);
  Value groupedInit = split(init, 1);
  Value result;
  if (spatial == 2)
    result = linalg::Conv2DNgchwGfchwOp::create(
                 b, loc, groupedInit.getType(),
                 ValueRange{groupedInput, groupedWeight}, groupedInit, strides,
                 dilations)
                 .getResult(0);
  else
    result = buildGroupedConvGeneric(b, loc, groupedInput, groupedWeight,
                                     groupedInit, stride, dilation);
  return collapse(b, loc, result, splitDim1);
}

/// Where a transposed convolution's input lands in the spread input the
/// direct one reads, along one dim: element i at `edge + i * stride`, where
/// `edge = dilation * (k - 1) - pad`, of a spread length `length`.
struct SpreadDim {
  int64_t edge, length, first, last;
};

SpreadDim spreadDim(int64_t in, int64_t kernel, int64_t stride, int64_t pad,
                    int64_t dilation, int64_t outputPadding) {
  SpreadDim dim;
  dim.edge = dilation * (kernel - 1) - pad;
  dim.length = (in - 1) * stride + 1 + 2 * dim.edge + outputPadding;
  // The elements first..last land inside [0, length); padding beyond the
  // kernel's reach crops the others.
  dim.first = dim.edge < 0 ? (-dim.edge + stride - 1) / stride : 0;
  dim.last = std::min(in - 1, (dim.length - 1 - dim.edge) / stride);
  return dim;
}

/// The input of a transposed convolution as the equivalent direct one
/// reads it: its elements `stride` apart, with `dilation * (k - 1) - pad`
/// zeros before and that plus `output_padding` after (negative counts crop).
Value spreadForTransposedConv(OpBuilder &b, Location loc, Value input,
                              ArrayRef<int64_t> kernel,
                              const ConvParams &params) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t spatial = kernel.size();
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  SmallVector<OpFoldResult> destSizes(sizes.begin(), sizes.begin() + 2);
  SmallVector<OpFoldResult> srcOffsets(2, b.getIndexAttr(0)),
      srcSizes(sizes.begin(), sizes.begin() + 2),
      destOffsets(2, b.getIndexAttr(0)),
      unitStrides(2 + spatial, b.getIndexAttr(1)),
      destStrides(2, b.getIndexAttr(1));
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t s = params.stride[i];
    SpreadDim dim =
        spreadDim(type.getDimSize(2 + i), kernel[i], s, params.padLow[i],
                  params.dilation[i], params.outputPadding[i]);
    destSizes.push_back(b.getIndexAttr(dim.length));
    srcOffsets.push_back(b.getIndexAttr(dim.first));
    srcSizes.push_back(b.getIndexAttr(dim.last - dim.first + 1));
    destOffsets.push_back(b.getIndexAttr(dim.edge + dim.first * s));
    destStrides.push_back(b.getIndexAttr(s));
  }
  Value kept = tensor::ExtractSliceOp::create(b, loc, input, srcOffsets,
                                              srcSizes, unitStrides);
  Value zeros = createFilled(b, loc, destSizes, type.getElementType(), 0.0);
  return tensor::InsertSliceOp::create(b, loc, kept, zeros, destOffsets,
                                       srcSizes, destStrides);
}

/// A transposed convolution's weight [C, F/G, k...] as the direct
/// convolution's [F, C/G, k...], its taps reversed.
Value flipForTransposedConv(OpBuilder &b, Location loc, Value weight,
                            int64_t groups) {
  auto type = cast<RankedTensorType>(weight.getType());
  int64_t spatial = type.getRank() - 2;
  int64_t inPerGroup = type.getDimSize(0) / groups;
  int64_t outPerGroup = type.getDimSize(1);
  SmallVector<ReassociationIndices> splitDim0 = {{0, 1}};
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(groups),
                                     b.getIndexAttr(inPerGroup)};
  SmallVector<int64_t> flippedShape = {groups, outPerGroup, inPerGroup};
  for (int64_t i = 1; i < type.getRank(); ++i) {
    splitDim0.push_back({i + 1});
    sizes.push_back(b.getIndexAttr(type.getDimSize(i)));
    if (i >= 2)
      flippedShape.push_back(type.getDimSize(i));
  }
  Value grouped = expandTo(b, loc, weight, splitDim0, sizes);
  // out[g, f, c, k] = in[g, c, f, K - 1 - k]
  int64_t rank = spatial + 3;
  SmallVector<AffineExpr> exprs = {b.getAffineDimExpr(0), b.getAffineDimExpr(2),
                                   b.getAffineDimExpr(1)};
  for (int64_t i = 0; i < spatial; ++i)
    exprs.push_back(type.getDimSize(2 + i) - 1 - b.getAffineDimExpr(3 + i));
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, exprs, b.getContext()),
                                 b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init =
      tensor::EmptyOp::create(b, loc, flippedShape, type.getElementType());
  Value flipped =
      linalg::GenericOp::create(
          b, loc, init.getType(), grouped, init, maps, iterators,
          [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
            linalg::YieldOp::create(nested, nestedLoc, args[0]);
          })
          .getResult(0);
  SmallVector<ReassociationIndices> mergeDim0 = {{0, 1}};
  for (int64_t i = 2; i < rank; ++i)
    mergeDim0.push_back({i});
  return collapse(b, loc, flipped, mergeDim0);
}

/// One output phase of a transposed convolution of stride s along one
/// dim: the outputs y = s*q + r, q < `count`. Only the flipped kernel's
/// taps k = `firstTap` + s*t, t < `taps`, meet input elements there, and
/// output q reads input q + t + `base`: a convolution of stride 1 of the
/// input as it is, with the kernel's taps s apart.
struct PhaseDim {
  int64_t count, firstTap, taps, base;
};

PhaseDim phaseDim(int64_t residue, int64_t outLength, int64_t kernel,
                  int64_t stride, int64_t pad) {
  PhaseDim dim;
  int64_t edge = kernel - 1 - pad;
  dim.count =
      residue < outLength ? (outLength - residue + stride - 1) / stride : 0;
  dim.firstTap = ((edge - residue) % stride + stride) % stride;
  dim.taps =
      dim.firstTap < kernel ? (kernel - dim.firstTap + stride - 1) / stride : 0;
  // r + firstTap - edge is a multiple of the stride.
  dim.base = (residue + dim.firstTap - edge) / stride;
  return dim;
}

/// A transposed convolution of stride > 1 (dilation 1), batched input
/// [N, C, x...], flipped `weight` [F, C/G, k...], as one direct
/// convolution of stride 1 per output phase (each combination of output
/// residues modulo the strides), each written into its strided slice of
/// the output. Spreading the input with zeros (the general lowering)
/// makes all but 1/s of each dim's multiplications by zero: at stride 2
/// in 2-d, 4x the work. `makeInit` builds an init of the given sizes (the
/// bias broadcast, or zeros).
Value buildPhasedTransposedConv(
    OpBuilder &b, Location loc, Value input, Value weight,
    ArrayRef<int64_t> kernel, const ConvParams &params,
    ArrayRef<int64_t> outLengths,
    function_ref<Value(ArrayRef<OpFoldResult>)> makeInit) {
  auto inputType = cast<RankedTensorType>(input.getType());
  Type elementType = inputType.getElementType();
  int64_t spatial = kernel.size();
  SmallVector<OpFoldResult> inSizes = getSizes(b, loc, input);
  auto weightType = cast<RankedTensorType>(weight.getType());
  SmallVector<OpFoldResult> outSizes = {
      inSizes[0], b.getIndexAttr(weightType.getDimSize(0))};
  for (int64_t length : outLengths)
    outSizes.push_back(b.getIndexAttr(length));
  Value result = tensor::EmptyOp::create(b, loc, outSizes, elementType);
  Value zero = createScalarConstant(b, loc, elementType, 0.0);
  int64_t phases = 1;
  for (int64_t s : params.stride)
    phases *= s;
  for (int64_t phase = 0; phase < phases; ++phase) {
    // This phase's residue along each dim, the last dim fastest.
    SmallVector<PhaseDim> dims(spatial);
    SmallVector<int64_t> residues(spatial);
    int64_t rest = phase;
    for (int64_t i = spatial - 1; i >= 0; --i) {
      residues[i] = rest % params.stride[i];
      rest /= params.stride[i];
      dims[i] = phaseDim(residues[i], outLengths[i], kernel[i],
                         params.stride[i], params.padLow[i]);
    }
    if (llvm::any_of(dims, [](const PhaseDim &d) { return d.count == 0; }))
      continue;
    SmallVector<OpFoldResult> phaseSizes(outSizes.begin(),
                                         outSizes.begin() + 2);
    for (const PhaseDim &d : dims)
      phaseSizes.push_back(b.getIndexAttr(d.count));
    Value phaseOut = makeInit(phaseSizes);
    // The input elements this phase reads, [base, base + count + taps - 1)
    // along each dim: those inside the input, zeros around them.
    SmallVector<OpFoldResult> sliceOffsets(2, b.getIndexAttr(0)),
        sliceSizes(inSizes.begin(), inSizes.begin() + 2),
        unitStrides(2 + spatial, b.getIndexAttr(1));
    SmallVector<int64_t> low = {0, 0}, high = {0, 0};
    bool meetsInput = true;
    for (int64_t i = 0; i < spatial; ++i) {
      const PhaseDim &d = dims[i];
      int64_t length = inputType.getDimSize(2 + i);
      int64_t end = d.base + d.count + d.taps - 1;
      int64_t from = std::max<int64_t>(d.base, 0);
      int64_t to = std::min(end, length);
      if (d.taps == 0 || to <= from) {
        meetsInput = false;
        break;
      }
      sliceOffsets.push_back(b.getIndexAttr(from));
      sliceSizes.push_back(b.getIndexAttr(to - from));
      low.push_back(from - d.base);
      high.push_back(end - to);
    }
    if (meetsInput) {
      Value read = tensor::ExtractSliceOp::create(b, loc, input, sliceOffsets,
                                                  sliceSizes, unitStrides);
      Value padded = padConstant(b, loc, read, low, high, zero);
      SmallVector<OpFoldResult> tapOffsets(2, b.getIndexAttr(0)),
          tapSizes = {b.getIndexAttr(weightType.getDimSize(0)),
                      b.getIndexAttr(weightType.getDimSize(1))},
          tapStrides(2, b.getIndexAttr(1));
      for (int64_t i = 0; i < spatial; ++i) {
        tapOffsets.push_back(b.getIndexAttr(dims[i].firstTap));
        tapSizes.push_back(b.getIndexAttr(dims[i].taps));
        tapStrides.push_back(b.getIndexAttr(params.stride[i]));
      }
      Value taps = tensor::ExtractSliceOp::create(b, loc, weight, tapOffsets,
                                                  tapSizes, tapStrides);
      SmallVector<int64_t> ones(spatial, 1);
      phaseOut = buildDirectConv(b, loc, padded, taps, phaseOut, ones, ones,
                                 params.groups);
    }
    SmallVector<OpFoldResult> offsets(2, b.getIndexAttr(0)),
        strides(2, b.getIndexAttr(1));
    for (int64_t i = 0; i < spatial; ++i) {
      offsets.push_back(b.getIndexAttr(residues[i]));
      strides.push_back(b.getIndexAttr(params.stride[i]));
    }
    result = tensor::InsertSliceOp::create(b, loc, phaseOut, result, offsets,
                                           phaseSizes, strides);
  }
  return result;
}

/// The kernel taps along one spatial dim that read at least one element
/// of the input rather than only its zero padding: [first, last].
std::pair<int64_t, int64_t> liveTaps(int64_t in, int64_t kernel, int64_t stride,
                                     int64_t dilation, int64_t padLow,
                                     int64_t out) {
  // Tap k reads rows o * stride + k * dilation - padLow, o in [0, out).
  auto reads = [&](int64_t k) {
    int64_t firstRow = k * dilation - padLow;
    int64_t lastRow = (out - 1) * stride + firstRow;
    if (lastRow < 0 || firstRow >= in)
      return false;
    // Some row in [firstRow, lastRow], `stride` apart, is in [0, in).
    int64_t firstInside =
        firstRow >= 0 ? firstRow
                      : firstRow + llvm::divideCeil(-firstRow, stride) * stride;
    return firstInside < in && firstInside <= lastRow;
  };
  int64_t first = 0, last = kernel - 1;
  while (first < last && !reads(first))
    ++first;
  while (last > first && !reads(last))
    --last;
  return {first, last};
}

/// Drops the kernel taps that read only zero padding, as oneDNN's kernels
/// skip them: an atrous convolution whose dilation exceeds the feature
/// map (DeepLabV3's rates 24 and 36 on a 14x14 map) is a 1x1 convolution
/// in all but its cost. The weight keeps the live taps, the padding
/// shrinks by the taps dropped before them, and the output is the same up
/// to the products with zero that are no longer added.
void dropPaddingTaps(OpBuilder &b, Location loc, Value &weight,
                     ArrayRef<int64_t> inLengths, ArrayRef<int64_t> outLengths,
                     ConvParams &params) {
  auto weightType = cast<RankedTensorType>(weight.getType());
  int64_t spatial = inLengths.size();
  SmallVector<int64_t> offsets(weightType.getRank(), 0);
  SmallVector<int64_t> sizes(weightType.getShape());
  bool trimmed = false;
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t kernel = sizes[2 + i];
    auto [first, last] =
        liveTaps(inLengths[i], kernel, params.stride[i], params.dilation[i],
                 params.padLow[i], outLengths[i]);
    int64_t taps = last - first + 1;
    int64_t padLow = params.padLow[i] - first * params.dilation[i];
    int64_t padHigh = (outLengths[i] - 1) * params.stride[i] +
                      (taps - 1) * params.dilation[i] + 1 - padLow -
                      inLengths[i];
    // A window that would start or end inside the input (a negative
    // padding) is left whole: it never happens for taps that are padding.
    if (taps == kernel || padLow < 0 || padHigh < 0)
      continue;
    offsets[2 + i] = first;
    sizes[2 + i] = taps;
    params.padLow[i] = padLow;
    params.padHigh[i] = padHigh;
    if (taps == 1)
      params.dilation[i] = 1;
    trimmed = true;
  }
  if (!trimmed)
    return;
  SmallVector<int64_t> strides(weightType.getRank(), 1);
  weight = tensor::ExtractSliceOp::create(
      b, loc, weight, getAsIndexOpFoldResult(b.getContext(), offsets),
      getAsIndexOpFoldResult(b.getContext(), sizes),
      getAsIndexOpFoldResult(b.getContext(), strides));
}

/// Lowers one convolution; `bias` is null when None.
FailureOr<Value> lowerConvolution(ConversionPatternRewriter &rewriter,
                                  Operation *op, Value input, Value weight,
                                  Value bias, ConvParams params,
                                  RankedTensorType resultType) {
  Location loc = op->getLoc();
  auto inputType = cast<RankedTensorType>(input.getType());
  auto weightType = cast<RankedTensorType>(weight.getType());
  Type elementType = resultType.getElementType();
  int64_t spatial = weightType.getRank() - 2;
  if (spatial < 1 || spatial > 3 ||
      static_cast<int64_t>(params.stride.size()) != spatial)
    return rewriter.notifyMatchFailure(op, "expects a 3-D to 5-D weight");
  if (inputType.getElementType() != elementType ||
      weightType.getElementType() != elementType ||
      (bias &&
       cast<RankedTensorType>(bias.getType()).getElementType() != elementType))
    return rewriter.notifyMatchFailure(op, "operand dtypes differ");
  bool unbatched = inputType.getRank() == spatial + 1;
  if (!unbatched && inputType.getRank() != spatial + 2)
    return rewriter.notifyMatchFailure(op, "input rank does not match weight");
  if (!weightType.hasStaticShape() ||
      llvm::any_of(inputType.getShape().drop_front(unbatched ? 0 : 1),
                   ShapedType::isDynamic))
    return rewriter.notifyMatchFailure(
        op, "needs static channel and spatial sizes");
  if (params.groups < 1 ||
      llvm::any_of(params.stride, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(params.dilation, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(params.padLow, [](int64_t v) { return v < 0; }) ||
      llvm::any_of(params.padHigh, [](int64_t v) { return v < 0; }))
    return rewriter.notifyMatchFailure(op, "invalid parameters");

  // Check the shapes before building anything: channels, bias, and the
  // output size refine-types computed.
  SmallVector<int64_t> kernel(weightType.getShape().drop_front(2));
  ArrayRef<int64_t> inShape = inputType.getShape().take_back(spatial + 1);
  int64_t channels = inShape[0], groups = params.groups;
  int64_t features = params.transposed ? weightType.getDimSize(1) * groups
                                       : weightType.getDimSize(0);
  int64_t channelsPerGroup =
      params.transposed ? channels / groups : weightType.getDimSize(1);
  if (channels % groups != 0 || features % groups != 0 ||
      channels != channelsPerGroup * groups ||
      (params.transposed && weightType.getDimSize(0) != channels))
    return rewriter.notifyMatchFailure(op, "weight does not match input");
  if (bias && cast<RankedTensorType>(bias.getType()).getShape() !=
                  ArrayRef<int64_t>{features})
    return rewriter.notifyMatchFailure(op, "bias does not match weight");
  SmallVector<int64_t> expectedShape(inputType.getShape().drop_back(spatial));
  expectedShape.back() = features;
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t reach = params.dilation[i] * (kernel[i] - 1);
    int64_t out =
        params.transposed
            ? (inShape[1 + i] - 1) * params.stride[i] - 2 * params.padLow[i] +
                  reach + params.outputPadding[i] + 1
            : (inShape[1 + i] + params.padLow[i] + params.padHigh[i] - reach -
               1) / params.stride[i] +
                  1;
    if (out < 1)
      return rewriter.notifyMatchFailure(op, "kernel larger than the input");
    // torch bounds output_padding by the stride or the dilation; the input
    // must keep an element after the padding crops it.
    if (params.transposed) {
      SpreadDim dim = spreadDim(inShape[1 + i], kernel[i], params.stride[i],
                                params.padLow[i], params.dilation[i],
                                params.outputPadding[i]);
      if (params.outputPadding[i] < 0 ||
          params.outputPadding[i] >=
              std::max(params.stride[i], params.dilation[i]) ||
          dim.last < dim.first)
        return rewriter.notifyMatchFailure(op, "invalid output_padding");
    }
    expectedShape.push_back(out);
  }
  if (failed(verifyCompatibleShape(expectedShape, resultType.getShape())))
    return rewriter.notifyMatchFailure(op, "result shape disagrees");

  // An unbatched input is a batch of one.
  if (unbatched) {
    input = addUnitBatch(rewriter, loc, input);
    inputType = cast<RankedTensorType>(input.getType());
  }
  // The output's initial value: the bias broadcast over it, or zeros.
  auto makeInit = [&](ArrayRef<OpFoldResult> sizes) -> Value {
    if (!bias)
      return createFilled(rewriter, loc, sizes, elementType, 0.0);
    Value empty = tensor::EmptyOp::create(rewriter, loc, sizes, elementType);
    SmallVector<int64_t> broadcastDims = {0};
    for (int64_t i = 0; i < spatial; ++i)
      broadcastDims.push_back(2 + i);
    return linalg::BroadcastOp::create(rewriter, loc, bias, empty,
                                       broadcastDims)
        .getResult()[0];
  };
  ArrayRef<int64_t> outLengths =
      ArrayRef<int64_t>(expectedShape).take_back(spatial);
  Value result;
  bool strided = llvm::any_of(params.stride, [](int64_t s) { return s > 1; });
  bool undilated =
      llvm::all_of(params.dilation, [](int64_t d) { return d == 1; });
  if (params.transposed && strided && undilated) {
    weight = flipForTransposedConv(rewriter, loc, weight, groups);
    result = buildPhasedTransposedConv(rewriter, loc, input, weight, kernel,
                                       params, outLengths, makeInit);
  } else {
    if (params.transposed) {
      input = spreadForTransposedConv(rewriter, loc, input, kernel, params);
      weight = flipForTransposedConv(rewriter, loc, weight, groups);
      params.padLow.assign(spatial, 0);
      params.padHigh.assign(spatial, 0);
      params.stride.assign(spatial, 1);
    } else {
      dropPaddingTaps(rewriter, loc, weight,
                      inputType.getShape().take_back(spatial), outLengths,
                      params);
    }
    Value zero = createScalarConstant(rewriter, loc, elementType, 0.0);
    SmallVector<int64_t> low = {0, 0}, high = {0, 0};
    low.append(params.padLow);
    high.append(params.padHigh);
    Value padded = padConstant(rewriter, loc, input, low, high, zero);
    SmallVector<OpFoldResult> outSizes = {getSizes(rewriter, loc, input)[0],
                                          rewriter.getIndexAttr(features)};
    for (int64_t size : outLengths)
      outSizes.push_back(rewriter.getIndexAttr(size));
    result = buildDirectConv(rewriter, loc, padded, weight, makeInit(outSizes),
                             params.stride, params.dilation, params.groups);
  }
  if (unbatched)
    result = dropUnitBatch(rewriter, loc, result);
  return castToType(rewriter, loc, result, resultType);
}

/// Reads stride, padding, dilation and groups; nullopt when one is not
/// constant.
std::optional<ConvParams> matchParams(Value stride, Value padding,
                                      Value dilation, Value groups,
                                      int64_t spatial) {
  ConvParams params;
  auto strides = matchWindowParam(stride, spatial);
  auto pads = matchWindowParam(padding, spatial);
  auto dilations = matchWindowParam(dilation, spatial);
  std::optional<int64_t> groupCount = matchConstantInt(groups);
  if (!strides || !pads || !dilations || !groupCount)
    return std::nullopt;
  params.stride = *strides;
  params.padLow = *pads;
  params.padHigh = *pads;
  params.dilation = *dilations;
  params.outputPadding.assign(spatial, 0);
  params.groups = *groupCount;
  return params;
}

int64_t spatialRank(Value weight) {
  return cast<RankedTensorType>(weight.getType()).getRank() - 2;
}

/// What every convolution pattern does once its op's parameters are read
/// (`readParams`): lower the convolution, with the bias unless it is None.
template <typename OpTy> struct ConvPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    auto resultType = dyn_cast_or_null<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getResult().getType()));
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result dtype or rank unknown");
    FailureOr<ConvParams> params = readParams(op, adaptor, rewriter);
    if (failed(params))
      return failure();
    Value bias = isNone(op.getBias()) ? Value() : adaptor.getBias();
    FailureOr<Value> result =
        lowerConvolution(rewriter, op, adaptor.getInput(), adaptor.getWeight(),
                         bias, *params, resultType);
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }

  /// The op's stride, padding, dilation, groups (and transposition), or a
  /// match failure where they are not constant or not supported.
  virtual FailureOr<ConvParams>
  readParams(OpTy op, OpAdaptor adaptor,
             ConversionPatternRewriter &rewriter) const = 0;
};

/// conv1d/2d/3d and conv_transpose1d/2d/3d.
template <typename OpTy> struct ConvertConv : ConvPattern<OpTy> {
  using ConvPattern<OpTy>::ConvPattern;

  FailureOr<ConvParams>
  readParams(OpTy op, typename OpTy::Adaptor adaptor,
             ConversionPatternRewriter &rewriter) const override {
    int64_t spatial = spatialRank(adaptor.getWeight());
    std::optional<ConvParams> params =
        matchParams(op.getStride(), op.getPadding(), op.getDilation(),
                    op.getGroups(), spatial);
    if (!params)
      return rewriter.notifyMatchFailure(op, "non-constant parameters");
    if constexpr (std::is_same_v<OpTy, aten::ConvTranspose1dOp> ||
                  std::is_same_v<OpTy, aten::ConvTranspose2dInputOp> ||
                  std::is_same_v<OpTy, aten::ConvTranspose3dInputOp>) {
      auto outputPadding = matchWindowParam(op.getOutputPadding(), spatial);
      if (!outputPadding)
        return rewriter.notifyMatchFailure(op, "non-constant output_padding");
      params->outputPadding = *outputPadding;
      params->transposed = true;
    }
    return *params;
  }
};

/// conv1d/2d/3d.padding: "valid" is no padding; "same" pads d * (k - 1) in
/// all, the odd element at the end, as torch does (stride 1 only).
template <typename OpTy> struct ConvertConvPaddingMode : ConvPattern<OpTy> {
  using ConvPattern<OpTy>::ConvPattern;

  FailureOr<ConvParams>
  readParams(OpTy op, typename OpTy::Adaptor adaptor,
             ConversionPatternRewriter &rewriter) const override {
    auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
    int64_t spatial = weightType.getRank() - 2;
    auto strides = matchWindowParam(op.getStride(), spatial);
    auto dilations = matchWindowParam(op.getDilation(), spatial);
    std::optional<int64_t> groups = matchConstantInt(op.getGroups());
    std::optional<StringRef> mode = matchConstantString(op.getPadding());
    if (!strides || !dilations || !groups || !mode)
      return rewriter.notifyMatchFailure(op, "non-constant parameters");
    ConvParams params;
    params.stride = *strides;
    params.dilation = *dilations;
    params.groups = *groups;
    params.outputPadding.assign(spatial, 0);
    params.padLow.assign(spatial, 0);
    params.padHigh.assign(spatial, 0);
    if (*mode == "same") {
      if (llvm::any_of(*strides, [](int64_t s) { return s != 1; }))
        return rewriter.notifyMatchFailure(op, "'same' needs stride 1");
      for (int64_t i = 0; i < spatial; ++i) {
        int64_t total = (*dilations)[i] * (weightType.getDimSize(2 + i) - 1);
        params.padLow[i] = total / 2;
        params.padHigh[i] = total - total / 2;
      }
    } else if (*mode != "valid") {
      return rewriter.notifyMatchFailure(op, "unknown padding mode");
    }
    return params;
  }
};

/// convolution, _convolution and _convolution.deprecated: the general
/// form, transposed or not (the cuDNN/benchmark flags do not change the
/// result).
template <typename OpTy> struct ConvertGeneralConv : ConvPattern<OpTy> {
  using ConvPattern<OpTy>::ConvPattern;

  FailureOr<ConvParams>
  readParams(OpTy op, typename OpTy::Adaptor adaptor,
             ConversionPatternRewriter &rewriter) const override {
    int64_t spatial = spatialRank(adaptor.getWeight());
    std::optional<ConvParams> params =
        matchParams(op.getStride(), op.getPadding(), op.getDilation(),
                    op.getGroups(), spatial);
    std::optional<bool> transposed = matchConstantBool(op.getTransposed());
    auto outputPadding = matchWindowParam(op.getOutputPadding(), spatial);
    if (!params || !transposed || !outputPadding)
      return rewriter.notifyMatchFailure(op, "non-constant parameters");
    params->transposed = *transposed;
    params->outputPadding = *outputPadding;
    // Without a batch dim the general form is not defined.
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    if (inputType.getRank() != spatial + 2)
      return rewriter.notifyMatchFailure(op, "expects a batched input");
    return *params;
  }
};

} // namespace

void tsir::conversion::populateConvolutionPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<ConvertConv<aten::Conv1dOp>, ConvertConv<aten::Conv2dOp>,
               ConvertConv<aten::Conv3dOp>, ConvertConv<aten::ConvTranspose1dOp>,
               ConvertConv<aten::ConvTranspose2dInputOp>,
               ConvertConv<aten::ConvTranspose3dInputOp>,
               ConvertConvPaddingMode<aten::Conv1dPaddingOp>,
               ConvertConvPaddingMode<aten::Conv2dPaddingOp>,
               ConvertConvPaddingMode<aten::Conv3dPaddingOp>,
               ConvertGeneralConv<aten::ConvolutionOp>,
               ConvertGeneralConv<aten::PrivateConvolutionOp>,
               ConvertGeneralConv<aten::PrivateConvolutionDeprecatedOp>>(
      typeConverter, patterns.getContext());
}
