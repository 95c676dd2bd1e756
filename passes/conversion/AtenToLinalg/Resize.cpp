//===- Resize.cpp - convert-aten-to-linalg: upsampling --------------------===//
//
// upsample_nearest2d.vec, upsample_bilinear2d.vec and __interpolate (nearest
// or bilinear, constant arguments) as a gathering linalg.generic over the
// NCHW output. The source index of each output row and column follows
// torch's CPU kernels (UpSample.h, UpSampleKernel.cpp) to the float: the
// scale is in/out, or 1/scale_factor when one is given, computed in the
// element type, and nearest reads floor(dst * scale) while bilinear
// interpolates at (dst + 0.5) * scale - 0.5 clamped at 0 (or dst * (in - 1)
// / (out - 1) with align_corners). Bilinear upsampling runs in two passes,
// along W over the input's rows and then along H (buildResize).
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "ShapeHelpers.h"

#include "../Common/Broadcast.h"
#include "../Common/Utils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {

enum class ResizeMode { Nearest, Bilinear };

/// How one spatial dim is resized: its sizes, the scale factor the caller
/// gave (if any) and align_corners.
struct AxisResize {
  int64_t in, out;
  std::optional<double> scaleFactor;
  bool alignCorners = false;

  /// torch's compute_scales_value / area_pixel_compute_scale, in the
  /// element type's precision (`isF32`: float, else double).
  double scale(bool isF32, ResizeMode mode) const {
    if (mode == ResizeMode::Bilinear && alignCorners) {
      if (out <= 1)
        return 0;
      return isF32 ? static_cast<double>(static_cast<float>(in - 1) /
                                         static_cast<float>(out - 1))
                   : static_cast<double>(in - 1) / static_cast<double>(out - 1);
    }
    if (scaleFactor && *scaleFactor > 0)
      return isF32 ? static_cast<double>(static_cast<float>(1.0 / *scaleFactor))
                   : 1.0 / *scaleFactor;
    return isF32 ? static_cast<double>(static_cast<float>(in) /
                                       static_cast<float>(out))
                 : static_cast<double>(in) / static_cast<double>(out);
  }
};

/// The ints or floats of a list operand (a prim.ListConstruct of constants
/// or a list prim.Constant) as doubles; nullopt if not constant.
std::optional<SmallVector<double>> matchConstantFloatList(Value list) {
  if (std::optional<SmallVector<Value>> elements = getListElements(list)) {
    SmallVector<double> values;
    for (Value element : *elements) {
      std::optional<double> v = matchConstantFloat(element);
      if (!v)
        return std::nullopt;
      values.push_back(*v);
    }
    return values;
  }
  auto constant = list.getDefiningOp<prim::ConstantOp>();
  if (!constant)
    return std::nullopt;
  auto array = dyn_cast_or_null<ArrayAttr>(constant->getAttr("value"));
  if (!array)
    return std::nullopt;
  SmallVector<double> values;
  for (Attribute attr : array) {
    if (auto f = dyn_cast<FloatAttr>(attr))
      values.push_back(f.getValueAsDouble());
    else if (auto i = dyn_cast<IntegerAttr>(attr))
      values.push_back(static_cast<double>(i.getInt()));
    else
      return std::nullopt;
  }
  return values;
}

/// The float index (element type) of output index `dst` along a dim.
Value sourceCoordinate(OpBuilder &b, Location loc, Value dst, Type floatType,
                       double scale, ResizeMode mode, bool alignCorners) {
  Value dstInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), dst);
  Value dstFloat = arith::SIToFPOp::create(b, loc, floatType, dstInt);
  Value scaleValue = createScalarConstant(b, loc, floatType, scale);
  if (mode == ResizeMode::Nearest || alignCorners)
    return arith::MulFOp::create(b, loc, scaleValue, dstFloat);
  Value half = createScalarConstant(b, loc, floatType, 0.5);
  Value src = arith::SubFOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, scaleValue,
                            arith::AddFOp::create(b, loc, dstFloat, half)),
      half);
  Value zero = createScalarConstant(b, loc, floatType, 0);
  Value negative =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, src, zero);
  return arith::SelectOp::create(b, loc, negative, zero, src);
}

/// floor of a non-negative float as an index, clamped to `last`.
Value floorIndex(OpBuilder &b, Location loc, Value src, int64_t last) {
  Value floored = math::FloorOp::create(b, loc, src);
  Value asInt = arith::FPToSIOp::create(b, loc, b.getI64Type(), floored);
  Value index = arith::IndexCastOp::create(b, loc, b.getIndexType(), asInt);
  return arith::MinSIOp::create(b, loc, index,
                                arith::ConstantIndexOp::create(b, loc, last));
}

/// Where bilinear interpolation reads along one dim for output index
/// `dst`: the two source indices and their weights.
struct BilinearTaps {
  Value low, high, lowWeight, highWeight;
};

BilinearTaps bilinearTaps(OpBuilder &b, Location loc, Value dst,
                          const AxisResize &r, Type computeType, bool isF32) {
  Value src = sourceCoordinate(b, loc, dst, computeType,
                               r.scale(isF32, ResizeMode::Bilinear),
                               ResizeMode::Bilinear, r.alignCorners);
  Value floored = math::FloorOp::create(b, loc, src);
  Value zero = createScalarConstant(b, loc, computeType, 0);
  Value one = createScalarConstant(b, loc, computeType, 1);
  Value lambda = arith::MinimumFOp::create(
      b, loc,
      arith::MaximumFOp::create(
          b, loc, arith::SubFOp::create(b, loc, src, floored), zero),
      one);
  BilinearTaps taps;
  taps.low = floorIndex(b, loc, src, r.in - 1);
  Value last = arith::ConstantIndexOp::create(b, loc, r.in - 1);
  Value hasNext =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, taps.low, last);
  taps.high = arith::SelectOp::create(
      b, loc, hasNext,
      arith::AddIOp::create(b, loc, taps.low,
                            arith::ConstantIndexOp::create(b, loc, 1)),
      taps.low);
  taps.highWeight = lambda;
  taps.lowWeight = arith::SubFOp::create(b, loc, one, lambda);
  return taps;
}

/// `lowWeight * atLow + highWeight * atHigh`.
Value weightedSum(OpBuilder &b, Location loc, const BilinearTaps &taps,
                  Value atLow, Value atHigh) {
  return arith::AddFOp::create(
      b, loc, arith::MulFOp::create(b, loc, taps.lowWeight, atLow),
      arith::MulFOp::create(b, loc, taps.highWeight, atHigh));
}

/// `lowWeight * source[.., low, ..] + highWeight * source[.., high, ..]`
/// along `dim` at `position`, in the compute type.
Value interpolateAlong(OpBuilder &b, Location loc, Value source,
                       SmallVector<Value> position, int64_t dim,
                       const BilinearTaps &taps, Type computeType) {
  auto read = [&](Value index) -> Value {
    position[dim] = index;
    Value element = tensor::ExtractOp::create(b, loc, source, position);
    return castElement(b, loc, element, computeType);
  };
  return weightedSum(b, loc, taps, read(taps.low), read(taps.high));
}

/// The resized NCHW `input` as a tensor of `type`.
///
/// Nearest is one gather. Bilinear is torch's
/// `h0 * (w0 * x00 + w1 * x01) + h1 * (w0 * x10 + w1 * x11)`, computed in
/// two passes when it upsamples along H: first each input row resized
/// along W (the bracketed sums), then each output row as the weighted sum
/// of two of those rows. The same operations in the same order, so the
/// same values; but the second pass reads whole rows at indices fixed per
/// output row, which LLVM vectorizes, and the first is over the input's
/// rows only. As one gather of four elements per output, the final
/// 224 x 224 upsampling of LRASPP was a third of its run.
Value buildResize(OpBuilder &b, Location loc, Value input,
                  RankedTensorType type, ResizeMode mode, AxisResize h,
                  AxisResize w) {
  Type computeType = getComputeType(type.getElementType());
  bool isF32 = !computeType.isF64();
  SmallVector<OpFoldResult> outSizes = tensor::getMixedSizes(b, loc, input);
  outSizes[2] = b.getIndexAttr(h.out);
  outSizes[3] = b.getIndexAttr(w.out);
  if (mode == ResizeMode::Nearest) {
    // floor(dst * scale), as torch's kernel for NCHW tensors computes it.
    // (Its channels-last kernel, which torch also takes for a tensor with
    // one channel, short-cuts out == in and out == 2 in, which differs when
    // a scale factor is given whose inverse is not exactly 1 or 1/2.)
    return buildGather(
        b, loc, type, outSizes, {}, {},
        [&](OpBuilder &nb, Location l, ValueRange, ValueRange at) -> Value {
          SmallVector<Value> position(at.begin(), at.end());
          AxisResize axes[2] = {h, w};
          for (int axis = 0; axis < 2; ++axis) {
            Value src =
                sourceCoordinate(nb, l, at[2 + axis], computeType,
                                 axes[axis].scale(isF32, mode), mode, false);
            position[2 + axis] = floorIndex(nb, l, src, axes[axis].in - 1);
          }
          return tensor::ExtractOp::create(nb, l, input, position);
        });
  }
  if (h.in > h.out) {
    // Downsampling along H: a first pass over every input row would do
    // more work than the output needs.
    return buildGather(
        b, loc, type, outSizes, {}, {},
        [&](OpBuilder &nb, Location l, ValueRange, ValueRange at) -> Value {
          BilinearTaps rows = bilinearTaps(nb, l, at[2], h, computeType, isF32);
          BilinearTaps cols = bilinearTaps(nb, l, at[3], w, computeType, isF32);
          SmallVector<Value> position(at.begin(), at.end());
          auto rowSum = [&](Value row) {
            position[2] = row;
            return interpolateAlong(nb, l, input, position, 3, cols,
                                    computeType);
          };
          Value result =
              weightedSum(nb, l, rows, rowSum(rows.low), rowSum(rows.high));
          return castElement(nb, l, result, type.getElementType());
        });
  }
  SmallVector<OpFoldResult> rowSizes = outSizes;
  rowSizes[2] = b.getIndexAttr(h.in);
  SmallVector<int64_t> rowShape(type.getShape());
  rowShape[2] = h.in;
  auto rowType = RankedTensorType::get(rowShape, computeType);
  Value rows = buildGather(
      b, loc, rowType, rowSizes, {}, {},
      [&](OpBuilder &nb, Location l, ValueRange, ValueRange at) -> Value {
        BilinearTaps cols = bilinearTaps(nb, l, at[3], w, computeType, isF32);
        return interpolateAlong(nb, l, input, SmallVector<Value>(at), 3, cols,
                                computeType);
      });
  return buildGather(
      b, loc, type, outSizes, {}, {},
      [&](OpBuilder &nb, Location l, ValueRange, ValueRange at) -> Value {
        BilinearTaps taps = bilinearTaps(nb, l, at[2], h, computeType, isF32);
        Value result = interpolateAlong(nb, l, rows, SmallVector<Value>(at), 2,
                                        taps, computeType);
        return castElement(nb, l, result, type.getElementType());
      });
}

/// Checks the shapes of a 2-d resize and reads how each spatial dim is
/// resized: `outputSize` (null or constant ints) or `scaleFactors`
/// (constant floats), as torch's upsample_*2d.vec take them.
FailureOr<std::pair<AxisResize, AxisResize>>
readAxes(Operation *op, RankedTensorType inputType, RankedTensorType type,
         std::optional<SmallVector<int64_t>> outputSize,
         std::optional<SmallVector<double>> scaleFactors, bool alignCorners,
         ConversionPatternRewriter &rewriter) {
  if (inputType.getRank() != 4 || type.getRank() != 4) {
    op->emitError() << "2-d upsampling needs an NCHW input, not one of rank "
                    << inputType.getRank();
    return failure();
  }
  for (int64_t dim = 2; dim < 4; ++dim)
    if (inputType.isDynamicDim(dim) || type.isDynamicDim(dim))
      return rewriter.notifyMatchFailure(op, "spatial sizes are not static");
  if (outputSize && outputSize->size() != 2) {
    op->emitError("output_size must have 2 elements");
    return failure();
  }
  if (scaleFactors && scaleFactors->size() != 2) {
    op->emitError("scale_factors must have 2 elements");
    return failure();
  }
  AxisResize axes[2];
  for (int axis = 0; axis < 2; ++axis) {
    AxisResize &r = axes[axis];
    r.in = inputType.getDimSize(2 + axis);
    r.out = type.getDimSize(2 + axis);
    r.alignCorners = alignCorners;
    int64_t expected = outputSize
                           ? (*outputSize)[axis]
                           : static_cast<int64_t>(static_cast<double>(r.in) *
                                                  (*scaleFactors)[axis]);
    if (!outputSize)
      r.scaleFactor = (*scaleFactors)[axis];
    if (expected != r.out) {
      op->emitError() << "result size " << r.out
                      << " disagrees with the output size " << expected;
      return failure();
    }
  }
  return std::make_pair(axes[0], axes[1]);
}

template <typename OpTy, ResizeMode mode>
struct ConvertUpsample2dVec : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*this->getTypeConverter(), op);
    Value input = adaptor.getInput();
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    if (!type || !inputType)
      return rewriter.notifyMatchFailure(op, "unknown dtype or rank");
    if (!isa<FloatType>(getComputeType(type.getElementType())))
      return rewriter.notifyMatchFailure(op, "upsampling of integers");
    std::optional<SmallVector<int64_t>> outputSize;
    std::optional<SmallVector<double>> scaleFactors;
    if (!isNone(op.getOutputSize())) {
      outputSize = matchConstantIntList(op.getOutputSize());
      if (!outputSize)
        return rewriter.notifyMatchFailure(op, "output_size not constant");
    } else {
      scaleFactors = matchConstantFloatList(op.getScaleFactors());
      if (!scaleFactors)
        return rewriter.notifyMatchFailure(op, "no constant output_size or "
                                               "scale_factors");
    }
    bool alignCorners = false;
    if constexpr (mode == ResizeMode::Bilinear) {
      std::optional<bool> align = matchConstantBool(op.getAlignCorners());
      if (!align)
        return rewriter.notifyMatchFailure(op, "align_corners not constant");
      alignCorners = *align;
    }
    auto axes = readAxes(op, inputType, type, outputSize, scaleFactors,
                         alignCorners, rewriter);
    if (failed(axes))
      return failure();
    rewriter.replaceOp(op, buildResize(rewriter, op.getLoc(), input, type, mode,
                                       axes->first, axes->second));
    return success();
  }
};

/// __interpolate (an `int? size`, `float? scale_factor`, as older
/// TorchScript called F.interpolate) in modes nearest and bilinear on NCHW
/// inputs, with constant arguments; the other modes and antialias are
/// refused.
struct ConvertInterpolate : OpConversionPattern<aten::PrivateInterpolateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::PrivateInterpolateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    Value input = adaptor.getInput();
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    if (!type || !inputType)
      return rewriter.notifyMatchFailure(op, "unknown dtype or rank");
    std::optional<StringRef> modeName = matchConstantString(op.getMode());
    std::optional<ResizeMode> mode;
    if (modeName == "nearest")
      mode = ResizeMode::Nearest;
    else if (modeName == "bilinear")
      mode = ResizeMode::Bilinear;
    std::optional<bool> antialias = matchConstantBool(op.getAntialias());
    if (!mode || !antialias || *antialias)
      return op.emitError("__interpolate is lowered only in modes 'nearest' "
                          "and 'bilinear' without antialias, with constant "
                          "arguments");
    std::optional<bool> recompute =
        isNone(op.getRecomputeScaleFactor())
            ? std::optional<bool>(false)
            : matchConstantBool(op.getRecomputeScaleFactor());
    std::optional<bool> align = isNone(op.getAlignCorners())
                                    ? std::optional<bool>(false)
                                    : matchConstantBool(op.getAlignCorners());
    if (!recompute || !align)
      return rewriter.notifyMatchFailure(op, "flags not constant");
    if (*mode == ResizeMode::Nearest && *align)
      return op.emitError("align_corners is only for the interpolating modes");
    std::optional<SmallVector<int64_t>> outputSize;
    std::optional<SmallVector<double>> scaleFactors;
    if (!isNone(op.getSize())) {
      std::optional<int64_t> size = matchConstantInt(op.getSize());
      if (!size)
        return rewriter.notifyMatchFailure(op, "size not constant");
      outputSize = SmallVector<int64_t>{*size, *size};
    } else {
      std::optional<double> factor = matchConstantFloat(op.getScaleFactor());
      if (!factor)
        return rewriter.notifyMatchFailure(op, "no constant size or "
                                               "scale_factor");
      if (*recompute) {
        // The output size from the factor, then in/out as the scale.
        int64_t h =
            static_cast<int64_t>(std::floor(inputType.getDimSize(2) * *factor));
        int64_t w =
            static_cast<int64_t>(std::floor(inputType.getDimSize(3) * *factor));
        outputSize = SmallVector<int64_t>{h, w};
      } else {
        scaleFactors = SmallVector<double>{*factor, *factor};
      }
    }
    auto axes = readAxes(op, inputType, type, outputSize, scaleFactors, *align,
                         rewriter);
    if (failed(axes))
      return failure();
    rewriter.replaceOp(op, buildResize(rewriter, op.getLoc(), input, type,
                                       *mode, axes->first, axes->second));
    return success();
  }
};

} // namespace

void tsir::conversion::populateResizePatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<
      ConvertUpsample2dVec<aten::UpsampleNearest2dVecOp, ResizeMode::Nearest>,
      ConvertUpsample2dVec<aten::UpsampleBilinear2dVecOp, ResizeMode::Bilinear>,
      ConvertInterpolate>(typeConverter, patterns.getContext());
}
