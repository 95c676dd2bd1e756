//===- Concat.cpp - convert-aten-to-linalg: cat and stack -----------------===//
//
// cat and stack as tensor.insert_slice of each list element into one
// tensor.empty, with torch's type promotion (the result dtype) and its rule
// that 1-D empty tensors are skipped. The tensor list is the
// prim.ListConstruct that feeds the op; its elements are read through the
// rewriter's mapping. The list-producing split ops are in Split.cpp.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "ShapeHelpers.h"

#include "../Common/Utils.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {

/// The converted elements of the tensor list `list`, each cast to
/// `elementType`; nullopt if the list is not a ListConstruct of lowered
/// tensors.
std::optional<SmallVector<Value>>
getTensorList(ConversionPatternRewriter &rewriter, Location loc, Value list,
              Type elementType) {
  std::optional<SmallVector<Value>> elements = getListElements(list);
  if (!elements)
    return std::nullopt;
  SmallVector<Value> tensors;
  for (Value element : *elements) {
    Value converted = rewriter.getRemappedValue(element);
    if (!converted || !isa<RankedTensorType>(converted.getType()))
      return std::nullopt;
    tensors.push_back(convertElementType(rewriter, loc, converted, elementType,
                                         isUnsignedDtype(element.getType())));
  }
  return tensors;
}

/// Inserts `tensors` into an empty tensor of `type`, one after the other
/// along `dim`; with `stacked`, each is one slice of a new dim `dim`.
Value concatenate(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<Value> tensors, int64_t dim, bool stacked) {
  IndexMath m{b, loc};
  SmallVector<OpFoldResult> resultSizes =
      tensor::getMixedSizes(b, loc, tensors[0]);
  Value total = m.constant(0);
  for (Value tensor : tensors)
    total =
        m.add(total, stacked ? m.constant(1) : getDimSize(b, loc, tensor, dim));
  if (stacked)
    resultSizes.insert(resultSizes.begin() + dim, IndexMath::fold(total));
  else
    resultSizes[dim] = IndexMath::fold(total);
  Value result = createEmpty(b, loc, type, mixResultSizes(type, resultSizes));
  Value offset = m.constant(0);
  for (Value tensor : tensors) {
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, tensor);
    Value extent = stacked ? m.constant(1) : m.value(sizes[dim]);
    if (stacked)
      sizes.insert(sizes.begin() + dim, b.getIndexAttr(1));
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
    offsets[dim] = IndexMath::fold(offset);
    SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
    result = insertSlice(b, loc, tensor, result, offsets, sizes, strides);
    offset = m.add(offset, extent);
  }
  return result;
}

template <typename OpTy> struct ConvertCatLike : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  static constexpr bool stacked = std::is_same_v<OpTy, aten::StackOp>;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*this->getTypeConverter(), op);
    if (!type || type.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "unknown result dtype or rank");
    std::optional<int64_t> dim = matchConstantInt(op.getDim());
    if (dim)
      dim = normalizeDim(*dim, type.getRank());
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim is not a valid constant");
    Location loc = op.getLoc();
    auto tensors =
        getTensorList(rewriter, loc, op.getTensors(), type.getElementType());
    if (!tensors || tensors->empty())
      return rewriter.notifyMatchFailure(
          op, "tensors is not a non-empty prim.ListConstruct of typed "
              "tensors");
    // torch.cat skips 1-D empty tensors whatever the other tensors' rank.
    SmallVector<Value> parts;
    int64_t partRank = stacked ? type.getRank() - 1 : type.getRank();
    for (Value tensor : *tensors) {
      auto partType = cast<RankedTensorType>(tensor.getType());
      if (!stacked && partType.getRank() == 1 && partType.getDimSize(0) == 0)
        continue;
      if (partType.getRank() != partRank)
        return rewriter.notifyMatchFailure(op, "tensors of different ranks");
      // A part with nothing along the dim adds nothing (and an insert at
      // the end would be out of bounds for the verifier).
      if (!stacked && partType.getDimSize(*dim) == 0)
        continue;
      parts.push_back(tensor);
    }
    if (parts.empty() && type.hasStaticShape()) {
      rewriter.replaceOp(
          op, tensor::EmptyOp::create(rewriter, loc, type, ValueRange{}));
      return success();
    }
    if (parts.empty())
      return rewriter.notifyMatchFailure(op, "only empty parts, dynamic "
                                             "result");
    rewriter.replaceOp(op,
                       concatenate(rewriter, loc, type, parts, *dim, stacked));
    return success();
  }
};

} // namespace

void tsir::conversion::populateConcatPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<ConvertCatLike<aten::CatOp>, ConvertCatLike<aten::StackOp>>(
      typeConverter, patterns.getContext());
  populateSplitPatterns(typeConverter, patterns);
}
