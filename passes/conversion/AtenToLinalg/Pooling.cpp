//===- Pooling.cpp - convert-aten-to-linalg: pooling ----------------------===//
//
// max_pool1d/2d, avg_pool1d/2d and adaptive_avg_pool1d/2d/3d lowered to
// linalg's NCW/NCHW pooling ops over an input padded with -inf or zeros
// (ceil_mode adds the padding its extra window reads), average divisors
// following torch's count_include_pad/divisor_override rules; adaptive
// pooling with uneven windows, and adaptive_max_pool2d with its indices,
// as one linalg.generic whose body loops over each cell's window.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "StructuredBuilders.h"

#include "../Common/Utils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace tsir::conversion;
namespace aten = tsir::aten;

namespace {

enum class PoolKind { Max, Avg };

/// A pooling window's constant parameters, one entry per spatial dim.
struct Window {
  SmallVector<int64_t> kernel, stride, padding, dilation;
  bool ceilMode = false;
};

/// Reads a pooling op's window; an empty stride means the kernel, a null
/// `dilation` means 1. Nullopt when a parameter is not constant.
std::optional<Window> matchWindow(Value kernel, Value stride, Value padding,
                                  Value dilation, Value ceilMode,
                                  int64_t spatial) {
  Window window;
  auto kernels = matchWindowParam(kernel, spatial);
  auto pads = matchWindowParam(padding, spatial);
  std::optional<bool> ceil = matchConstantBool(ceilMode);
  if (!kernels || !pads || !ceil)
    return std::nullopt;
  window.kernel = *kernels;
  window.padding = *pads;
  window.ceilMode = *ceil;
  std::optional<SmallVector<int64_t>> strides = matchConstantIntList(stride);
  if (strides && strides->empty())
    window.stride = *kernels;
  else if (auto expanded = matchWindowParam(stride, spatial))
    window.stride = *expanded;
  else
    return std::nullopt;
  if (dilation) {
    auto dilations = matchWindowParam(dilation, spatial);
    if (!dilations)
      return std::nullopt;
    window.dilation = *dilations;
  } else {
    window.dilation.assign(spatial, 1);
  }
  return window;
}

/// The identity of max: -inf, or the lowest signed integer.
Value createLowest(OpBuilder &b, Location loc, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(type, APFloat::getInf(floatType.getFloatSemantics(),
                                             /*Negative=*/true)));
  return arith::ConstantOp::create(
      b, loc,
      b.getIntegerAttr(type,
                       APInt::getSignedMinValue(type.getIntOrFloatBitWidth())));
}

/// The per-output-index divisor of an average along one dim, as torch's
/// avg_pool computes it: the window clipped to the padded input, and with
/// !countIncludePad further to the input itself.
SmallVector<int64_t> averageDivisors(int64_t in, int64_t out, int64_t kernel,
                                     int64_t stride, int64_t pad,
                                     bool countIncludePad) {
  SmallVector<int64_t> divisors;
  for (int64_t o = 0; o < out; ++o) {
    int64_t start = o * stride - pad;
    int64_t end = std::min(start + kernel, in + pad);
    int64_t poolSize = end - start;
    int64_t count = std::min(end, in) - std::max<int64_t>(start, 0);
    divisors.push_back(countIncludePad ? poolSize : count);
  }
  return divisors;
}

/// `sum` [N, C, y...] divided per element by the product over the spatial
/// dims of `divisors[i][y_i]`: one constant when every divisor agrees, a
/// small constant vector per dim where they differ.
Value divideByWindowSizes(OpBuilder &b, Location loc, Value sum,
                          ArrayRef<SmallVector<int64_t>> divisors) {
  auto type = cast<RankedTensorType>(sum.getType());
  Type elementType = type.getElementType();
  int64_t rank = type.getRank();
  double uniform = 1.0;
  SmallVector<Value> inputs = {sum};
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  for (auto [dim, perIndex] : llvm::enumerate(divisors)) {
    if (llvm::all_equal(perIndex)) {
      uniform *= perIndex.front();
      continue;
    }
    SmallVector<Attribute> values;
    for (int64_t divisor : perIndex)
      values.push_back(b.getFloatAttr(elementType, divisor));
    auto vectorType = RankedTensorType::get(
        {static_cast<int64_t>(perIndex.size())}, elementType);
    inputs.push_back(arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vectorType, values)));
    maps.push_back(AffineMap::get(rank, 0, b.getAffineDimExpr(2 + dim)));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init =
      tensor::EmptyOp::create(b, loc, getSizes(b, loc, sum), elementType);
  return linalg::GenericOp::create(
             b, loc, type, inputs, init, maps, iterators,
             [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               ValueRange factors = args.drop_front().drop_back();
               Value divisor;
               if (uniform != 1.0 || factors.empty())
                 divisor = createScalarConstant(nested, nestedLoc, elementType,
                                                uniform);
               for (Value factor : factors)
                 divisor = divisor ? arith::MulFOp::create(nested, nestedLoc,
                                                           divisor, factor)
                                         .getResult()
                                   : factor;
               linalg::YieldOp::create(
                   nested, nestedLoc,
                   arith::DivFOp::create(nested, nestedLoc, args[0], divisor)
                       .getResult());
             })
      .getResult(0);
}

/// max or avg pooling of a [N, C, x...] or [C, x...] input through the
/// named pooling ops. `divisorOverride` is 0 when absent.
FailureOr<Value> lowerPool(ConversionPatternRewriter &rewriter, Operation *op,
                           Value input, const Window &window, PoolKind kind,
                           bool countIncludePad, int64_t divisorOverride,
                           RankedTensorType resultType) {
  Location loc = op->getLoc();
  int64_t spatial = window.kernel.size();
  Type elementType = resultType.getElementType();
  auto inputType = cast<RankedTensorType>(input.getType());
  if (inputType.getElementType() != elementType)
    return rewriter.notifyMatchFailure(op, "operand dtype differs");
  if (kind == PoolKind::Avg && !isa<FloatType>(elementType))
    return rewriter.notifyMatchFailure(op, "average of an integer tensor");
  bool unbatched = inputType.getRank() == spatial + 1;
  if (!unbatched && inputType.getRank() != spatial + 2)
    return rewriter.notifyMatchFailure(op, "unexpected input rank");
  ArrayRef<int64_t> inShape = inputType.getShape().take_back(spatial + 1);
  if (llvm::any_of(inShape, ShapedType::isDynamic))
    return rewriter.notifyMatchFailure(op, "needs static spatial sizes");

  // Check the window and the result shape before building anything.
  SmallVector<int64_t> low = {0, 0}, high = {0, 0};
  SmallVector<int64_t> expectedShape(inputType.getShape().drop_back(spatial));
  SmallVector<SmallVector<int64_t>> divisors;
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t in = inShape[1 + i], k = window.kernel[i], s = window.stride[i],
            p = window.padding[i], d = window.dilation[i];
    // torch refuses more padding than half the (dilated) window.
    if (k < 1 || s < 1 || d < 1 || p < 0 ||
        p > (kind == PoolKind::Max ? ((k - 1) * d + 1) / 2 : k / 2))
      return rewriter.notifyMatchFailure(op, "invalid window parameters");
    int64_t out = slidingWindowOutputSize(in, k, s, p, d, window.ceilMode);
    if (out < 1)
      return rewriter.notifyMatchFailure(op, "window larger than the input");
    expectedShape.push_back(out);
    // The last window's reach, which ceil_mode may take past the padding.
    int64_t reach = (out - 1) * s + d * (k - 1) + 1;
    low.push_back(p);
    high.push_back(std::max<int64_t>(reach - in - p, 0));
    divisors.push_back(
        divisorOverride
            ? SmallVector<int64_t>(out, i == 0 ? divisorOverride : 1)
            : averageDivisors(in, out, k, s, p, countIncludePad));
  }
  if (failed(verifyCompatibleShape(expectedShape, resultType.getShape())))
    return rewriter.notifyMatchFailure(op, "result shape disagrees");

  if (unbatched)
    input = addUnitBatch(rewriter, loc, input);
  SmallVector<OpFoldResult> outSizes = getSizes(rewriter, loc, input);
  outSizes.resize(2);
  for (int64_t size : ArrayRef<int64_t>(expectedShape).take_back(spatial))
    outSizes.push_back(rewriter.getIndexAttr(size));

  Value fill = kind == PoolKind::Max
                   ? createLowest(rewriter, loc, elementType)
                   : createScalarConstant(rewriter, loc, elementType, 0.0);
  Value padded = padConstant(rewriter, loc, input, low, high, fill);
  Value init = linalg::FillOp::create(
                   rewriter, loc, fill,
                   tensor::EmptyOp::create(rewriter, loc, outSizes, elementType)
                       .getResult())
                   .getResult(0);
  Value windowShape =
      tensor::EmptyOp::create(rewriter, loc, window.kernel, elementType);
  Attribute strides = rewriter.getI64TensorAttr(window.stride);
  Attribute dilations = rewriter.getI64TensorAttr(window.dilation);
  SmallVector<Value> ins = {padded, windowShape};
  Type type = init.getType();
  Value result;
  if (kind == PoolKind::Max && spatial == 1)
    result = linalg::PoolingNcwMaxOp::create(rewriter, loc, type, ins, init,
                                             strides, dilations)
                 .getResult(0);
  else if (kind == PoolKind::Max)
    result = linalg::PoolingNchwMaxOp::create(rewriter, loc, type, ins, init,
                                              strides, dilations)
                 .getResult(0);
  else if (spatial == 1)
    result = linalg::PoolingNcwSumOp::create(rewriter, loc, type, ins, init,
                                             strides, dilations)
                 .getResult(0);
  else
    result = linalg::PoolingNchwSumOp::create(rewriter, loc, type, ins, init,
                                              strides, dilations)
                 .getResult(0);
  if (kind == PoolKind::Avg)
    result = divideByWindowSizes(rewriter, loc, result, divisors);
  if (unbatched)
    result = dropUnitBatch(rewriter, loc, result);
  return castToType(rewriter, loc, result, resultType);
}

RankedTensorType convertResult(const TypeConverter *converter, Value result) {
  return dyn_cast_or_null<RankedTensorType>(
      converter->convertType(result.getType()));
}

template <typename OpTy> constexpr int64_t spatialRankOf() {
  if constexpr (std::is_same_v<OpTy, aten::MaxPool1dOp> ||
                std::is_same_v<OpTy, aten::AvgPool1dOp> ||
                std::is_same_v<OpTy, aten::AdaptiveAvgPool1dOp>)
    return 1;
  if constexpr (std::is_same_v<OpTy, aten::AdaptiveAvgPool3dOp>)
    return 3;
  return 2;
}

/// max_pool1d and max_pool2d.
template <typename OpTy> struct ConvertMaxPool : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        convertResult(this->getTypeConverter(), op.getResult());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result dtype or rank unknown");
    if (tsir::isUnsignedDtype(op.getSelf().getType()) ||
        resultType.getElementType().isInteger(1))
      return rewriter.notifyMatchFailure(op, "unsigned or bool input");
    std::optional<Window> window =
        matchWindow(op.getKernelSize(), op.getStride(), op.getPadding(),
                    op.getDilation(), op.getCeilMode(), spatialRankOf<OpTy>());
    if (!window)
      return rewriter.notifyMatchFailure(op, "non-constant parameters");
    FailureOr<Value> result =
        lowerPool(rewriter, op, adaptor.getSelf(), *window, PoolKind::Max,
                  /*countIncludePad=*/false, 0, resultType);
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

/// avg_pool1d and avg_pool2d.
template <typename OpTy> struct ConvertAvgPool : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        convertResult(this->getTypeConverter(), op.getResult());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result dtype or rank unknown");
    std::optional<Window> window =
        matchWindow(op.getKernelSize(), op.getStride(), op.getPadding(),
                    Value(), op.getCeilMode(), spatialRankOf<OpTy>());
    std::optional<bool> countIncludePad =
        matchConstantBool(op.getCountIncludePad());
    if (!window || !countIncludePad)
      return rewriter.notifyMatchFailure(op, "non-constant parameters");
    int64_t divisorOverride = 0;
    if constexpr (std::is_same_v<OpTy, aten::AvgPool2dOp>) {
      if (!isNone(op.getDivisorOverride())) {
        std::optional<int64_t> divisor =
            matchConstantInt(op.getDivisorOverride());
        if (!divisor || *divisor == 0)
          return rewriter.notifyMatchFailure(op, "unsupported divisor");
        divisorOverride = *divisor;
      }
    }
    FailureOr<Value> result =
        lowerPool(rewriter, op, adaptor.getSelf(), *window, PoolKind::Avg,
                  *countIncludePad, divisorOverride, resultType);
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

/// Adaptive pooling with windows of uneven size: a linalg.generic over the
/// output [N, C, y...] whose body loops over the cell's window
/// [floor(y * In / Out), ceil((y + 1) * In / Out)) per dim, reading the
/// input with tensor.extract. Max also yields the flat index h * W + w of
/// the first maximum (NaN counts as the maximum), as torch does.
SmallVector<Value> buildAdaptiveGeneric(OpBuilder &b, Location loc, Value input,
                                        ArrayRef<int64_t> outputSize,
                                        PoolKind kind) {
  auto inputType = cast<RankedTensorType>(input.getType());
  Type elementType = inputType.getElementType();
  int64_t spatial = outputSize.size(), rank = spatial + 2;
  SmallVector<OpFoldResult> outSizes = getSizes(b, loc, input);
  outSizes.resize(2);
  for (int64_t size : outputSize)
    outSizes.push_back(b.getIndexAttr(size));
  SmallVector<Value> inits = {
      tensor::EmptyOp::create(b, loc, outSizes, elementType)};
  if (kind == PoolKind::Max)
    inits.push_back(tensor::EmptyOp::create(b, loc, outSizes, b.getI64Type()));
  SmallVector<AffineMap> maps(inits.size(), b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);

  auto body = [&](OpBuilder &nb, Location nl, ValueRange) {
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(nb, nl, v).getResult();
    };
    SmallVector<Value> position = {linalg::IndexOp::create(nb, nl, 0),
                                   linalg::IndexOp::create(nb, nl, 1)};
    SmallVector<Value> starts, ends;
    for (int64_t i = 0; i < spatial; ++i) {
      int64_t in = inputType.getDimSize(2 + i), out = outputSize[i];
      Value y = linalg::IndexOp::create(nb, nl, 2 + i);
      Value yIn = arith::MulIOp::create(nb, nl, y, index(in));
      starts.push_back(arith::DivUIOp::create(nb, nl, yIn, index(out)));
      Value endNumerator =
          arith::AddIOp::create(nb, nl, yIn, index(in + out - 1));
      ends.push_back(arith::DivUIOp::create(nb, nl, endNumerator, index(out)));
    }
    // The flat index within the spatial plane of the point `at`.
    auto flatIndex = [&](OpBuilder &fb, ArrayRef<Value> at) {
      Value flat = at[0];
      for (int64_t i = 1; i < spatial; ++i)
        flat = arith::AddIOp::create(
            fb, nl,
            arith::MulIOp::create(fb, nl, flat,
                                  index(inputType.getDimSize(2 + i))),
            at[i]);
      return arith::IndexCastOp::create(fb, nl, fb.getI64Type(), flat)
          .getResult();
    };
    SmallVector<Value> initial;
    if (kind == PoolKind::Max)
      initial = {createLowest(nb, loc, elementType), flatIndex(nb, starts)};
    else
      initial = {createScalarConstant(nb, loc, elementType, 0.0)};

    // One scf.for per spatial dim, innermost combining one element.
    std::function<SmallVector<Value>(OpBuilder &, int64_t, ValueRange)>
        loopOver = [&](OpBuilder &lb, int64_t dim,
                       ValueRange carried) -> SmallVector<Value> {
      auto loop = scf::ForOp::create(
          lb, nl, starts[dim], ends[dim], index(1), carried,
          [&](OpBuilder &fb, Location, Value iv, ValueRange iterArgs) {
            position.push_back(iv);
            SmallVector<Value> next;
            if (dim + 1 < spatial) {
              next = loopOver(fb, dim + 1, iterArgs);
            } else {
              Value element =
                  tensor::ExtractOp::create(fb, nl, input, position);
              if (kind == PoolKind::Avg) {
                next = {arith::AddFOp::create(fb, nl, iterArgs[0], element)};
              } else {
                Value greater;
                if (isa<FloatType>(elementType)) {
                  Value gt = arith::CmpFOp::create(
                      fb, nl, arith::CmpFPredicate::OGT, element, iterArgs[0]);
                  Value nan = arith::CmpFOp::create(
                      fb, nl, arith::CmpFPredicate::UNO, element, element);
                  greater = arith::OrIOp::create(fb, nl, gt, nan);
                } else {
                  greater = arith::CmpIOp::create(
                      fb, nl, arith::CmpIPredicate::sgt, element, iterArgs[0]);
                }
                Value at =
                    flatIndex(fb, ArrayRef<Value>(position).drop_front(2));
                next = {
                    arith::SelectOp::create(fb, nl, greater, element,
                                            iterArgs[0]),
                    arith::SelectOp::create(fb, nl, greater, at, iterArgs[1])};
              }
            }
            position.pop_back();
            scf::YieldOp::create(fb, nl, next);
          });
      return SmallVector<Value>(loop.getResults());
    };
    SmallVector<Value> results = loopOver(nb, 0, initial);
    if (kind == PoolKind::Avg) {
      Value count = index(1);
      for (int64_t i = 0; i < spatial; ++i)
        count = arith::MulIOp::create(
            nb, nl, count, arith::SubIOp::create(nb, nl, ends[i], starts[i]));
      Value countInt =
          arith::IndexCastOp::create(nb, nl, nb.getI64Type(), count);
      Value countFloat = arith::SIToFPOp::create(nb, nl, elementType, countInt);
      results[0] = arith::DivFOp::create(nb, nl, results[0], countFloat);
    }
    linalg::YieldOp::create(nb, nl, results);
  };
  SmallVector<Type> types;
  for (Value init : inits)
    types.push_back(init.getType());
  return SmallVector<Value>(linalg::GenericOp::create(b, loc, types,
                                                      ValueRange(), inits, maps,
                                                      iterators, body)
                                .getResults());
}

/// adaptive_avg_pool1d/2d/3d and adaptive_max_pool2d (values and indices).
template <typename OpTy>
struct ConvertAdaptivePool : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  static constexpr PoolKind kind =
      std::is_same_v<OpTy, aten::AdaptiveMaxPool2dOp> ? PoolKind::Max
                                                      : PoolKind::Avg;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<RankedTensorType> resultTypes;
    for (Value result : op->getResults()) {
      resultTypes.push_back(convertResult(this->getTypeConverter(), result));
      if (!resultTypes.back())
        return rewriter.notifyMatchFailure(op, "result dtype or rank unknown");
    }
    Type elementType = resultTypes[0].getElementType();
    int64_t spatial = spatialRankOf<OpTy>();
    auto outputSize = matchWindowParam(op.getOutputSize(), spatial);
    if (!outputSize)
      return rewriter.notifyMatchFailure(op, "non-constant output size");
    Value input = adaptor.getSelf();
    auto inputType = cast<RankedTensorType>(input.getType());
    if (inputType.getElementType() != elementType ||
        (kind == PoolKind::Avg && !isa<FloatType>(elementType)) ||
        tsir::isUnsignedDtype(op.getSelf().getType()) ||
        elementType.isInteger(1))
      return rewriter.notifyMatchFailure(op, "unsupported dtype");
    bool unbatched = inputType.getRank() == spatial + 1;
    if (!unbatched && inputType.getRank() != spatial + 2)
      return rewriter.notifyMatchFailure(op, "unexpected input rank");
    ArrayRef<int64_t> inShape = inputType.getShape().take_back(spatial);
    if (llvm::any_of(inShape, ShapedType::isDynamic) ||
        llvm::any_of(*outputSize, [](int64_t size) { return size < 1; }))
      return rewriter.notifyMatchFailure(op, "needs static positive sizes");
    SmallVector<int64_t> expectedShape(inputType.getShape().drop_back(spatial));
    expectedShape.append(*outputSize);
    for (RankedTensorType type : resultTypes)
      if (failed(verifyCompatibleShape(expectedShape, type.getShape())))
        return rewriter.notifyMatchFailure(op, "result shape disagrees");

    // Even windows are a plain average pooling (through the named 1-d and
    // 2-d pooling ops; 3-d takes the generic path below).
    bool even = kind == PoolKind::Avg && spatial <= 2;
    for (int64_t i = 0; even && i < spatial; ++i)
      even = inShape[i] % (*outputSize)[i] == 0;
    if (even) {
      Window window;
      for (int64_t i = 0; i < spatial; ++i)
        window.kernel.push_back(inShape[i] / (*outputSize)[i]);
      window.stride = window.kernel;
      window.padding.assign(spatial, 0);
      window.dilation.assign(spatial, 1);
      FailureOr<Value> pooled =
          lowerPool(rewriter, op, input, window, PoolKind::Avg,
                    /*countIncludePad=*/true, 0, resultTypes[0]);
      if (failed(pooled))
        return failure();
      rewriter.replaceOp(op, *pooled);
      return success();
    }

    if (unbatched)
      input = addUnitBatch(rewriter, loc, input);
    SmallVector<Value> results =
        buildAdaptiveGeneric(rewriter, loc, input, *outputSize, kind);
    for (auto [index, result] : llvm::enumerate(results)) {
      if (unbatched)
        result = dropUnitBatch(rewriter, loc, result);
      result = castToType(rewriter, loc, result, resultTypes[index]);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void tsir::conversion::populatePoolingPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns
      .add<ConvertMaxPool<aten::MaxPool1dOp>, ConvertMaxPool<aten::MaxPool2dOp>,
           ConvertAvgPool<aten::AvgPool1dOp>, ConvertAvgPool<aten::AvgPool2dOp>,
           ConvertAdaptivePool<aten::AdaptiveAvgPool1dOp>,
           ConvertAdaptivePool<aten::AdaptiveAvgPool2dOp>,
           ConvertAdaptivePool<aten::AdaptiveAvgPool3dOp>,
           ConvertAdaptivePool<aten::AdaptiveMaxPool2dOp>>(
          typeConverter, patterns.getContext());
}
