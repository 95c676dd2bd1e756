//===- Diagonals.cpp - convert-aten-to-linalg: diagonal, diag, diag_embed -===//
//
// The diagonal family as single linalg.generics whose input maps do the
// work: diagonal reads input[..., k, ..., k, ...] of the square block that
// holds the diagonal (a slice at the offset); diag of a vector and diag_embed write the input on one
// diagonal of a zero matrix, selecting on the loop indices; diag of a
// matrix is its diagonal. Part of the Views family; shapes must be static,
// as specialization makes them.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "ShapeHelpers.h"

#include "../Common/Broadcast.h"
#include "../Common/Utils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {

/// A linalg.generic producing `resultType` from `input` read through
/// `inputMap`; `body` gets the loop indices and the input element.
Value buildIndexedCopy(
    OpBuilder &b, Location loc, RankedTensorType resultType, Value input,
    AffineMap inputMap,
    function_ref<Value(OpBuilder &, Location, ValueRange, Value)> body) {
  int64_t rank = resultType.getRank();
  Value init = tensor::EmptyOp::create(b, loc, resultType.getShape(),
                                       resultType.getElementType());
  SmallVector<AffineMap> maps = {inputMap,
                                 b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, resultType, ValueRange{input}, ValueRange{init}, maps,
             iterators,
             [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               SmallVector<Value> indices;
               for (int64_t d = 0; d < rank; ++d)
                 indices.push_back(
                     linalg::IndexOp::create(nested, nestedLoc, d));
               linalg::YieldOp::create(
                   nested, nestedLoc, body(nested, nestedLoc, indices, args[0]));
             })
      ->getResult(0);
}

/// `input` (static shape) viewed along its diagonal: dims `dim1` and `dim2`
/// dropped and one dim of the diagonal's length appended.
FailureOr<Value> buildDiagonal(OpBuilder &b, Location loc, Value input,
                               RankedTensorType resultType, int64_t offset,
                               int64_t dim1, int64_t dim2) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  if (!inputType.hasStaticShape() || !resultType.hasStaticShape() ||
      dim1 == dim2 || resultType.getRank() != rank - 1)
    return failure();
  // The square block that holds the diagonal, so that both of its dims
  // are read with the same loop index (linalg requires a dim read by a
  // plain loop index to have exactly the loop's extent).
  int64_t length = resultType.getShape().back();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes;
  for (int64_t size : inputType.getShape())
    sizes.push_back(b.getIndexAttr(size));
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  offsets[dim1] = b.getIndexAttr(std::max<int64_t>(0, -offset));
  offsets[dim2] = b.getIndexAttr(std::max<int64_t>(0, offset));
  sizes[dim1] = sizes[dim2] = b.getIndexAttr(length);
  Value block = extractSlice(b, loc, input, offsets, sizes, strides);
  MLIRContext *context = b.getContext();
  SmallVector<AffineExpr> exprs(rank);
  int64_t loop = 0;
  for (int64_t d = 0; d < rank; ++d)
    if (d != dim1 && d != dim2)
      exprs[d] = getAffineDimExpr(loop++, context);
  exprs[dim1] = exprs[dim2] = getAffineDimExpr(rank - 2, context);
  AffineMap map = AffineMap::get(rank - 1, 0, exprs, context);
  return buildIndexedCopy(b, loc, resultType, block, map,
                          [](OpBuilder &, Location, ValueRange, Value x) {
                            return x;
                          });
}

/// `input` written on the diagonal `offset` of the plane (dim1, dim2) of a
/// zero result one rank higher (diag_embed; diag of a vector).
FailureOr<Value> buildDiagEmbed(OpBuilder &b, Location loc, Value input,
                                RankedTensorType resultType, int64_t offset,
                                int64_t dim1, int64_t dim2) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = resultType.getRank();
  if (!inputType.hasStaticShape() || !resultType.hasStaticShape() ||
      dim1 == dim2 || inputType.getRank() != rank - 1)
    return failure();
  MLIRContext *context = b.getContext();
  // The input's dims are the result's other dims, in order, then the
  // diagonal's index: the row for offset >= 0, else the column.
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    if (d != dim1 && d != dim2)
      exprs.push_back(getAffineDimExpr(d, context));
  exprs.push_back(getAffineDimExpr(offset >= 0 ? dim1 : dim2, context));
  AffineMap map = AffineMap::get(rank, 0, exprs, context);
  // The plane is the input's length plus |offset| on each side.
  int64_t length = inputType.getShape().back();
  if (resultType.getDimSize(dim1) != length + std::abs(offset) ||
      resultType.getDimSize(dim2) != length + std::abs(offset))
    return failure();
  // Off the diagonal the map reads up to |offset| elements past the
  // input's end (those elements are not selected): read a zero-padded
  // input, so that every read is in bounds.
  Value padded = input;
  if (offset != 0) {
    SmallVector<int64_t> paddedShape(inputType.getShape());
    paddedShape.back() += std::abs(offset);
    SmallVector<OpFoldResult> low(inputType.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> high(inputType.getRank(), b.getIndexAttr(0));
    high.back() = b.getIndexAttr(std::abs(offset));
    Value zero = createScalarConstant(b, loc, inputType.getElementType(), 0);
    padded = tensor::PadOp::create(
        b, loc, RankedTensorType::get(paddedShape, inputType.getElementType()),
        input, low, high, zero);
  }
  Type element = resultType.getElementType();
  return buildIndexedCopy(
      b, loc, resultType, padded, map,
      [&](OpBuilder &nb, Location l, ValueRange indices, Value x) -> Value {
        // On the diagonal when column - row == offset.
        Value difference =
            arith::SubIOp::create(nb, l, indices[dim2], indices[dim1]);
        Value onDiagonal = arith::CmpIOp::create(
            nb, l, arith::CmpIPredicate::eq, difference,
            arith::ConstantIndexOp::create(nb, l, offset));
        return arith::SelectOp::create(nb, l, onDiagonal, x,
                                       createScalarConstant(nb, l, element, 0));
      });
}

struct ConvertDiagonal : OpConversionPattern<aten::DiagonalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::DiagonalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    auto inputType = dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    std::optional<int64_t> offset = matchConstantInt(op.getOffset());
    std::optional<int64_t> dim1 = matchConstantInt(op.getDim1());
    std::optional<int64_t> dim2 = matchConstantInt(op.getDim2());
    if (!type || !inputType || !offset || !dim1 || !dim2)
      return rewriter.notifyMatchFailure(op, "needs a typed result and "
                                             "constant arguments");
    dim1 = normalizeDim(*dim1, inputType.getRank());
    dim2 = normalizeDim(*dim2, inputType.getRank());
    if (!dim1 || !dim2)
      return rewriter.notifyMatchFailure(op, "invalid dims");
    FailureOr<Value> result = buildDiagonal(
        rewriter, op.getLoc(), adaptor.getSelf(), type, *offset, *dim1, *dim2);
    if (failed(result))
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    rewriter.replaceOp(op, *result);
    return success();
  }
};

struct ConvertDiagEmbed : OpConversionPattern<aten::DiagEmbedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::DiagEmbedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    std::optional<int64_t> offset = matchConstantInt(op.getOffset());
    std::optional<int64_t> dim1 = matchConstantInt(op.getDim1());
    std::optional<int64_t> dim2 = matchConstantInt(op.getDim2());
    if (!type || !offset || !dim1 || !dim2)
      return rewriter.notifyMatchFailure(op, "needs a typed result and "
                                             "constant arguments");
    dim1 = normalizeDim(*dim1, type.getRank());
    dim2 = normalizeDim(*dim2, type.getRank());
    if (!dim1 || !dim2)
      return rewriter.notifyMatchFailure(op, "invalid dims");
    FailureOr<Value> result = buildDiagEmbed(
        rewriter, op.getLoc(), adaptor.getSelf(), type, *offset, *dim1, *dim2);
    if (failed(result))
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    rewriter.replaceOp(op, *result);
    return success();
  }
};

/// diag: a vector on a diagonal of a square matrix, or a matrix's diagonal.
struct ConvertDiag : OpConversionPattern<aten::DiagOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::DiagOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    auto inputType = dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    std::optional<int64_t> offset = matchConstantInt(op.getDiagonal());
    if (!type || !inputType || !offset)
      return rewriter.notifyMatchFailure(op, "needs a typed result and a "
                                             "constant diagonal");
    FailureOr<Value> result =
        inputType.getRank() == 1
            ? buildDiagEmbed(rewriter, op.getLoc(), adaptor.getSelf(), type,
                             *offset, 0, 1)
            : buildDiagonal(rewriter, op.getLoc(), adaptor.getSelf(), type,
                            *offset, 0, 1);
    if (failed(result))
      return rewriter.notifyMatchFailure(op, "needs a static 1-d or 2-d input");
    rewriter.replaceOp(op, *result);
    return success();
  }
};

} // namespace

void tsir::conversion::populateDiagonalPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<ConvertDiagonal, ConvertDiagEmbed, ConvertDiag>(
      typeConverter, patterns.getContext());
}
