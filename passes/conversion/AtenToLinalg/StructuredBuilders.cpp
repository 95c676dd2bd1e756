//===- StructuredBuilders.cpp - Shape helpers for linear/conv/pool --------===//
//
// Tensor builders, reshapes, broadcasting, padding and window parameters
// shared by the Linear, Convolution and Pooling families (see
// StructuredBuilders.h).
//
//===----------------------------------------------------------------------===//

#include "StructuredBuilders.h"

#include "../Common/Utils.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

namespace tsir::conversion {

SmallVector<OpFoldResult> getSizes(OpBuilder &b, Location loc, Value tensor) {
  return tensor::getMixedSizes(b, loc, tensor);
}

Value createFilled(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                   Type elementType, double value) {
  Value empty = tensor::EmptyOp::create(b, loc, sizes, elementType);
  Value fill = createScalarConstant(b, loc, elementType, value);
  return linalg::FillOp::create(b, loc, fill, empty).getResult(0);
}

Value expandTo(OpBuilder &b, Location loc, Value src,
               ArrayRef<ReassociationIndices> reassociation,
               ArrayRef<OpFoldResult> sizes) {
  auto srcType = cast<RankedTensorType>(src.getType());
  SmallVector<int64_t> shape;
  for (OpFoldResult size : sizes)
    shape.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
  auto type = RankedTensorType::get(shape, srcType.getElementType());
  return tensor::ExpandShapeOp::create(b, loc, type, src, reassociation, sizes);
}

Value collapse(OpBuilder &b, Location loc, Value src,
               ArrayRef<ReassociationIndices> reassociation) {
  return tensor::CollapseShapeOp::create(b, loc, src, reassociation);
}

/// The reassociation that merges dims 0 and 1 and keeps the others.
static SmallVector<ReassociationIndices> mergeLeadingPair(int64_t rank) {
  SmallVector<ReassociationIndices> reassociation = {{0, 1}};
  for (int64_t dim = 2; dim < rank; ++dim)
    reassociation.push_back({dim});
  return reassociation;
}

Value addUnitBatch(OpBuilder &b, Location loc, Value src) {
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, src);
  sizes.insert(sizes.begin(), b.getIndexAttr(1));
  return expandTo(b, loc, src, mergeLeadingPair(sizes.size()), sizes);
}

Value dropUnitBatch(OpBuilder &b, Location loc, Value src) {
  int64_t rank = cast<RankedTensorType>(src.getType()).getRank();
  return collapse(b, loc, src, mergeLeadingPair(rank));
}

Value broadcastTo(OpBuilder &b, Location loc, Value src,
                  ArrayRef<OpFoldResult> sizes, Type elementType,
                  bool srcUnsigned) {
  auto srcType = cast<RankedTensorType>(src.getType());
  int64_t rank = sizes.size();
  int64_t offset = rank - srcType.getRank();
  SmallVector<AffineExpr> srcExprs;
  for (int64_t dim = 0; dim < srcType.getRank(); ++dim) {
    std::optional<int64_t> outSize = getConstantIntValue(sizes[dim + offset]);
    // A static 1 against any other size repeats; dynamic dims are taken to
    // match, as refine-types has checked what it could.
    if (srcType.getDimSize(dim) == 1 && outSize != 1)
      srcExprs.push_back(b.getAffineConstantExpr(0));
    else
      srcExprs.push_back(b.getAffineDimExpr(dim + offset));
  }
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank, 0, srcExprs, b.getContext()),
      b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init = tensor::EmptyOp::create(b, loc, sizes, elementType);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), src, init, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value cast =
            castScalar(nested, nestedLoc, args[0], elementType, srcUnsigned);
        linalg::YieldOp::create(nested, nestedLoc, cast);
      });
  return generic.getResult(0);
}

Value padConstant(OpBuilder &b, Location loc, Value src, ArrayRef<int64_t> low,
                  ArrayRef<int64_t> high, Value padValue) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return src;
  auto srcType = cast<RankedTensorType>(src.getType());
  RankedTensorType type = tensor::PadOp::inferResultType(srcType, low, high);
  return tensor::PadOp::create(
      b, loc, type, src, getAsIndexOpFoldResult(b.getContext(), low),
      getAsIndexOpFoldResult(b.getContext(), high), padValue);
}

Value castToType(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(b, loc, type, value);
}

std::optional<SmallVector<int64_t>> matchWindowParam(Value list, size_t n) {
  std::optional<SmallVector<int64_t>> ints = matchConstantIntList(list);
  if (!ints)
    return std::nullopt;
  if (ints->size() == 1 && n > 1)
    return SmallVector<int64_t>(n, ints->front());
  if (ints->size() != n)
    return std::nullopt;
  return ints;
}

int64_t slidingWindowOutputSize(int64_t in, int64_t kernel, int64_t stride,
                                int64_t pad, int64_t dilation, bool ceilMode) {
  int64_t span = in + 2 * pad - dilation * (kernel - 1) - 1;
  int64_t out = (span + (ceilMode ? stride - 1 : 0)) / stride + 1;
  // The last window must start inside the input or the left padding.
  if (ceilMode && (out - 1) * stride >= in + pad)
    --out;
  return out;
}

} // namespace tsir::conversion
