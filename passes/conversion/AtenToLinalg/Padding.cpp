//===- Padding.cpp - convert-aten-to-linalg: padding and triangles --------===//
//
// constant_pad_nd and pad (constant, reflect, replicate, circular) lowered
// to tensor.extract_slice/tensor.pad or to a gathering linalg.generic, and
// tril/triu as a masking linalg.generic.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "ShapeHelpers.h"

#include "../Common/Utils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <type_traits>

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {

/// Torch's pad list ([low, high] of the last dim, then of the one before, …)
/// as low/high pads per dim of a rank-`rank` tensor; nullopt when it is not
/// constant, has an odd length or pads more dims than there are.
struct DimPads {
  SmallVector<int64_t> low, high;
};
std::optional<DimPads> readPads(Value padList, int64_t rank) {
  std::optional<SmallVector<int64_t>> pads = matchConstantIntList(padList);
  if (!pads || pads->size() % 2 != 0 ||
      static_cast<int64_t>(pads->size() / 2) > rank)
    return std::nullopt;
  DimPads result{SmallVector<int64_t>(rank, 0), SmallVector<int64_t>(rank, 0)};
  for (size_t i = 0; i < pads->size() / 2; ++i) {
    result.low[rank - 1 - i] = (*pads)[2 * i];
    result.high[rank - 1 - i] = (*pads)[2 * i + 1];
  }
  return result;
}

/// Constant padding: negative pads crop first (an extract_slice), positive
/// ones then pad with `fill` (a tensor.pad).
Value padWithConstant(OpBuilder &b, Location loc, Value input,
                      const DimPads &pads, Value fill) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  bool crops = llvm::any_of(pads.low, [](int64_t p) { return p < 0; }) ||
               llvm::any_of(pads.high, [](int64_t p) { return p < 0; });
  if (crops) {
    IndexMath m{b, loc};
    SmallVector<OpFoldResult> offsets, sizes, strides(rank, b.getIndexAttr(1));
    for (int64_t dim = 0; dim < rank; ++dim) {
      int64_t cropLow = std::max<int64_t>(-pads.low[dim], 0);
      int64_t cropHigh = std::max<int64_t>(-pads.high[dim], 0);
      offsets.push_back(b.getIndexAttr(cropLow));
      Value size = getDimSize(b, loc, input, dim);
      sizes.push_back(
          IndexMath::fold(m.sub(size, m.constant(cropLow + cropHigh))));
    }
    input = extractSlice(b, loc, input, offsets, sizes, strides);
  }
  SmallVector<int64_t> low, high;
  for (int64_t dim = 0; dim < rank; ++dim) {
    low.push_back(std::max<int64_t>(pads.low[dim], 0));
    high.push_back(std::max<int64_t>(pads.high[dim], 0));
  }
  return padConstant(b, loc, input, low, high, fill);
}

enum class PadMode { Reflect, Replicate, Circular };

/// Padding whose new elements copy the input's: each result index `o` of a
/// dim of `n` elements reads input index `i = o - low` folded back into
/// [0, n) by the mode (reflect: about the edge elements, without repeating
/// them; replicate: clamped). Negative pads crop, as the same formula says,
/// which is what torch's reflection and replication kernels compute.
/// Circular padding wraps around the cropped input instead, as torch's
/// _pad_circular does.
Value padByCopy(OpBuilder &b, Location loc, Value input, const DimPads &pads,
                PadMode mode, RankedTensorType resultType) {
  int64_t rank = resultType.getRank();
  IndexMath m{b, loc};
  SmallVector<Value> inSizes;
  SmallVector<OpFoldResult> outSizes;
  for (int64_t dim = 0; dim < rank; ++dim) {
    inSizes.push_back(getDimSize(b, loc, input, dim));
    outSizes.push_back(IndexMath::fold(
        m.add(inSizes.back(), m.constant(pads.low[dim] + pads.high[dim]))));
  }
  return buildGather(
      b, loc, resultType, mixResultSizes(resultType, outSizes), {}, {},
      [&](OpBuilder &nb, Location l, ValueRange, ValueRange at) -> Value {
        SmallVector<Value> position;
        for (int64_t dim = 0; dim < rank; ++dim) {
          if (pads.low[dim] == 0 && pads.high[dim] == 0) {
            position.push_back(at[dim]);
            continue;
          }
          Value n = inSizes[dim];
          Value zero = arith::ConstantIndexOp::create(nb, l, 0);
          Value one = arith::ConstantIndexOp::create(nb, l, 1);
          Value i = arith::SubIOp::create(
              nb, l, at[dim],
              arith::ConstantIndexOp::create(nb, l, pads.low[dim]));
          Value last = arith::SubIOp::create(nb, l, n, one);
          switch (mode) {
          case PadMode::Reflect: {
            // -i below 0, 2 (n - 1) - i past the end.
            Value negated = arith::SubIOp::create(nb, l, zero, i);
            i = arith::MaxSIOp::create(nb, l, i, negated);
            Value mirrored = arith::SubIOp::create(
                nb, l, arith::AddIOp::create(nb, l, last, last), i);
            i = arith::MinSIOp::create(nb, l, i, mirrored);
            break;
          }
          case PadMode::Replicate:
            i = arith::MinSIOp::create(
                nb, l, arith::MaxSIOp::create(nb, l, i, zero), last);
            break;
          case PadMode::Circular: {
            // torch crops first and wraps around what is left: m elements
            // from max(-low, 0), placed after max(low, 0) new ones.
            int64_t cropLow = std::max<int64_t>(-pads.low[dim], 0);
            int64_t cropHigh = std::max<int64_t>(-pads.high[dim], 0);
            Value m = arith::SubIOp::create(
                nb, l, n,
                arith::ConstantIndexOp::create(nb, l, cropLow + cropHigh));
            Value shifted = arith::SubIOp::create(
                nb, l, at[dim],
                arith::ConstantIndexOp::create(
                    nb, l, std::max<int64_t>(pads.low[dim], 0)));
            Value rem = arith::RemSIOp::create(nb, l, shifted, m);
            rem = arith::RemSIOp::create(
                nb, l, arith::AddIOp::create(nb, l, rem, m), m);
            i = arith::AddIOp::create(
                nb, l, rem, arith::ConstantIndexOp::create(nb, l, cropLow));
            break;
          }
          }
          position.push_back(i);
        }
        return tensor::ExtractOp::create(nb, l, input, position);
      });
}

/// constant_pad_nd, and pad, whose mode is constant (fill with the value,
/// 0 when it is None) or one that copies the input's own elements.
template <typename OpTy> struct ConvertPad : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*this->getTypeConverter(), op);
    Value input = adaptor.getSelf();
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    if (!type || !inputType)
      return rewriter.notifyMatchFailure(op, "unknown dtype or rank");
    std::optional<DimPads> pads = readPads(op.getPad(), inputType.getRank());
    if (!pads)
      return rewriter.notifyMatchFailure(op, "pad is not a constant list of "
                                             "pairs for the input's dims");
    std::optional<StringRef> mode = "constant";
    if constexpr (std::is_same_v<OpTy, aten::PadOp>)
      mode = matchConstantString(op.getMode());
    if (!mode)
      return rewriter.notifyMatchFailure(op, "mode is not a constant");
    Location loc = op.getLoc();
    Value result;
    if (*mode == "constant") {
      Value fill =
          isNone(op.getValue())
              ? createScalarConstant(rewriter, loc, type.getElementType(), 0)
              : castScalar(rewriter, loc, adaptor.getValue(),
                           type.getElementType());
      result = padWithConstant(rewriter, loc, input, *pads, fill);
    } else {
      std::optional<PadMode> copyMode =
          llvm::StringSwitch<std::optional<PadMode>>(*mode)
              .Case("reflect", PadMode::Reflect)
              .Case("replicate", PadMode::Replicate)
              .Case("circular", PadMode::Circular)
              .Default(std::nullopt);
      if (!copyMode)
        return op.emitError() << "pad mode '" << *mode
                              << "' is not one of constant, reflect, "
                                 "replicate or circular";
      // torch pads only the last 1-3 dims in these modes and requires the
      // pads to fit in the input; a reflection of a pad >= n would read
      // outside the input.
      for (int64_t dim = 0; dim < inputType.getRank(); ++dim) {
        int64_t n = inputType.getDimSize(dim);
        int64_t widest = std::max(pads->low[dim], pads->high[dim]);
        if (widest == 0 && std::min(pads->low[dim], pads->high[dim]) == 0)
          continue;
        if (ShapedType::isDynamic(n))
          return rewriter.notifyMatchFailure(op, "padded dim is dynamic");
        bool fits = *copyMode == PadMode::Reflect    ? widest < n
                    : *copyMode == PadMode::Circular ? widest <= n
                                                     : true;
        if (!fits || -pads->low[dim] - pads->high[dim] >= n)
          return op.emitError()
                 << "pad of " << widest << " on a dim of " << n
                 << " elements is out of range in mode '" << *mode << "'";
      }
      result =
          padByCopy(rewriter, loc, castToType(rewriter, loc, input, inputType),
                    *pads, *copyMode, type);
    }
    rewriter.replaceOp(op, castToType(rewriter, loc, result, type));
    return success();
  }
};

/// tril keeps the elements with col - row <= diagonal, triu those with
/// col - row >= diagonal (of the last two dims), and zeroes the others.
template <typename OpTy, bool isLower>
struct ConvertTriangle : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*this->getTypeConverter(), op);
    Value input = adaptor.getSelf();
    if (!type || type.getRank() < 2)
      return rewriter.notifyMatchFailure(op, "needs a typed result of rank "
                                             ">= 2");
    Location loc = op.getLoc();
    input = castToType(rewriter, loc, input, type);
    Value diagonal = adaptor.getDiagonal();
    Value zero = createScalarConstant(rewriter, loc, type.getElementType(), 0);
    int64_t rank = type.getRank();
    Value result = buildGather(
        rewriter, loc, type, tensor::getMixedSizes(rewriter, loc, input),
        {input}, {rewriter.getMultiDimIdentityMap(rank)},
        [&](OpBuilder &b, Location l, ValueRange args, ValueRange at) -> Value {
          Type i64 = b.getI64Type();
          Value row = arith::IndexCastOp::create(b, l, i64, at[rank - 2]);
          Value col = arith::IndexCastOp::create(b, l, i64, at[rank - 1]);
          Value offset = arith::SubIOp::create(b, l, col, row);
          Value keep = arith::CmpIOp::create(
              b, l,
              isLower ? arith::CmpIPredicate::sle : arith::CmpIPredicate::sge,
              offset, diagonal);
          return arith::SelectOp::create(b, l, keep, args[0], zero);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tsir::conversion::populatePaddingPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ConvertPad<aten::ConstantPadNdOp>, ConvertPad<aten::PadOp>,
               ConvertTriangle<aten::TrilOp, true>,
               ConvertTriangle<aten::TriuOp, false>>(typeConverter, context);
}
