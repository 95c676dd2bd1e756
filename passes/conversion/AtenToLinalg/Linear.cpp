//===- Linear.cpp - convert-aten-to-linalg: matrix products ---------------===//
//
// mm, bmm, matmul (every rank combination torch.matmul accepts), addmm,
// baddbmm, linear, dot and outer, lowered to linalg's named contractions
// (matmul, batch_matmul, matvec, vecmat, dot) on zero- or bias-filled
// inits; broadcast batch dims fall back to one linalg.generic. einsum is in
// Einsum.cpp.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "StructuredBuilders.h"

#include "../Common/Utils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tsir::conversion;
namespace aten = tsir::aten;

namespace {

Value multiply(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MulFOp::create(b, loc, x, y);
  return arith::MulIOp::create(b, loc, x, y);
}

Value add(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

/// The converted result type of `op`'s only result, or null.
RankedTensorType getResultType(const TypeConverter *converter, Operation *op) {
  return dyn_cast_or_null<RankedTensorType>(
      converter->convertType(op->getResult(0).getType()));
}

/// Whether every value in `values` is a ranked tensor of `elementType`:
/// torch's products refuse mixed dtypes, so no promotion happens here.
bool allOfElementType(ValueRange values, Type elementType) {
  return llvm::all_of(values, [&](Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    return type && type.getElementType() == elementType;
  });
}

/// Whether two dim sizes are both static and differ.
bool sizesDiffer(int64_t a, int64_t b) {
  return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
}

/// Whether `lhs @ rhs` is well formed as torch.matmul sees it: equal
/// contraction dims, and batch dims that are equal or (with
/// `broadcastBatch`) 1.
bool matmulShapesAgree(RankedTensorType lhs, RankedTensorType rhs,
                       bool broadcastBatch) {
  int64_t lhsRank = lhs.getRank(), rhsRank = rhs.getRank();
  if (sizesDiffer(lhs.getDimSize(lhsRank - 1),
                  rhs.getDimSize(rhsRank == 1 ? 0 : rhsRank - 2)))
    return false;
  for (int64_t i = 3; i <= std::min(lhsRank, rhsRank); ++i) {
    int64_t a = lhs.getDimSize(lhsRank - i), b = rhs.getDimSize(rhsRank - i);
    if (sizesDiffer(a, b) && (!broadcastBatch || (a != 1 && b != 1)))
      return false;
  }
  return true;
}

/// Replaces `op` with `value` cast to `resultType`, or fails (the
/// conversion rolls back what the pattern built) where the shapes
/// disagree: a refinement the operands contradict.
LogicalResult replaceWithResult(ConversionPatternRewriter &rewriter,
                                Operation *op, Value value,
                                RankedTensorType resultType) {
  if (!tensor::CastOp::areCastCompatible(value.getType(), resultType))
    return rewriter.notifyMatchFailure(op, "result shape disagrees");
  rewriter.replaceOp(op, castToType(rewriter, op->getLoc(), value, resultType));
  return success();
}

/// The batched product of torch.matmul where batch dims broadcast, as one
/// linalg.generic: loops over the broadcast batch dims, m (when lhs is a
/// matrix), n (when rhs is), and the reduced k.
Value buildBroadcastMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                           Type elementType) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  int64_t lhsRank = lhsType.getRank(), rhsRank = rhsType.getRank();
  int64_t lhsBatch = std::max<int64_t>(lhsRank - 2, 0);
  int64_t rhsBatch = std::max<int64_t>(rhsRank - 2, 0);
  int64_t batch = std::max(lhsBatch, rhsBatch);
  bool hasM = lhsRank >= 2, hasN = rhsRank >= 2;
  SmallVector<OpFoldResult> lhsSizes = getSizes(b, loc, lhs);
  SmallVector<OpFoldResult> rhsSizes = getSizes(b, loc, rhs);

  // Loop dims: batch..., [m], [n], k.
  int64_t numLoops = batch + hasM + hasN + 1;
  AffineExpr m = b.getAffineDimExpr(batch);
  AffineExpr n = b.getAffineDimExpr(batch + hasM);
  AffineExpr k = b.getAffineDimExpr(numLoops - 1);
  SmallVector<OpFoldResult> outSizes;
  SmallVector<AffineExpr> lhsExprs, rhsExprs, outExprs;
  for (int64_t dim = 0; dim < batch; ++dim) {
    int64_t lhsDim = dim - (batch - lhsBatch);
    int64_t rhsDim = dim - (batch - rhsBatch);
    bool lhsOne = lhsDim < 0 || lhsType.getDimSize(lhsDim) == 1;
    bool rhsOne = rhsDim < 0 || rhsType.getDimSize(rhsDim) == 1;
    // The batch size: the operand's that is not a broadcast 1.
    outSizes.push_back(lhsOne && rhsDim >= 0 ? rhsSizes[rhsDim]
                                             : lhsSizes[lhsDim]);
    AffineExpr loop = b.getAffineDimExpr(dim);
    if (lhsDim >= 0)
      lhsExprs.push_back(lhsOne && !rhsOne ? b.getAffineConstantExpr(0) : loop);
    if (rhsDim >= 0)
      rhsExprs.push_back(rhsOne && !lhsOne ? b.getAffineConstantExpr(0) : loop);
    outExprs.push_back(loop);
  }
  if (hasM) {
    lhsExprs.push_back(m);
    outExprs.push_back(m);
    outSizes.push_back(lhsSizes[lhsRank - 2]);
  }
  lhsExprs.push_back(k);
  rhsExprs.push_back(k);
  if (hasN) {
    rhsExprs.push_back(n);
    outExprs.push_back(n);
    outSizes.push_back(rhsSizes[rhsRank - 1]);
  }
  SmallVector<AffineMap> maps = {
      AffineMap::get(numLoops, 0, lhsExprs, b.getContext()),
      AffineMap::get(numLoops, 0, rhsExprs, b.getContext()),
      AffineMap::get(numLoops, 0, outExprs, b.getContext())};
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  Value init = createFilled(b, loc, outSizes, elementType, 0.0);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{lhs, rhs}, init, maps,
             iterators,
             [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               Value product = multiply(nested, nestedLoc, args[0], args[1]);
               linalg::YieldOp::create(
                   nested, nestedLoc, add(nested, nestedLoc, args[2], product));
             })
      .getResult(0);
}

/// `lhs @ rhs` with torch.matmul's rules: vector·vector is a dot, matrix
/// times vector and vector times matrix keep their vector dim, batch dims
/// broadcast. Named ops wherever the shapes allow them.
Value buildMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                  Type elementType) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  int64_t lhsRank = lhsType.getRank(), rhsRank = rhsType.getRank();
  SmallVector<OpFoldResult> lhsSizes = getSizes(b, loc, lhs);
  SmallVector<OpFoldResult> rhsSizes = getSizes(b, loc, rhs);
  auto zeros = [&](ArrayRef<OpFoldResult> sizes) {
    return createFilled(b, loc, sizes, elementType, 0.0);
  };

  if (lhsRank == 1 && rhsRank == 1) {
    Value init = zeros({});
    return linalg::DotOp::create(b, loc, init.getType(), ValueRange{lhs, rhs},
                                 init)
        .getResult(0);
  }
  if (lhsRank == 2 && rhsRank == 1) {
    Value init = zeros({lhsSizes[0]});
    return linalg::MatvecOp::create(b, loc, init.getType(),
                                    ValueRange{lhs, rhs}, init)
        .getResult(0);
  }
  if (lhsRank == 1 && rhsRank == 2) {
    Value init = zeros({rhsSizes[1]});
    return linalg::VecmatOp::create(b, loc, init.getType(),
                                    ValueRange{lhs, rhs}, init)
        .getResult(0);
  }
  if (lhsRank == 2 && rhsRank == 2) {
    Value init = zeros({lhsSizes[0], rhsSizes[1]});
    return linalg::MatmulOp::create(b, loc, init.getType(),
                                    ValueRange{lhs, rhs}, init)
        .getResult(0);
  }
  // A batch of matrices times one matrix or vector: the batch folds into
  // the rows of one 2-D product, as torch does.
  if (lhsRank >= 3 && rhsRank <= 2) {
    ReassociationIndices batchAndRows =
        llvm::to_vector(llvm::seq<int64_t>(0, lhsRank - 1));
    Value flat = collapse(b, loc, lhs, {batchAndRows, {lhsRank - 1}});
    Value product = buildMatmul(b, loc, flat, rhs, elementType);
    SmallVector<OpFoldResult> outSizes(lhsSizes.begin(), lhsSizes.end() - 1);
    SmallVector<ReassociationIndices> reassociation = {batchAndRows};
    if (rhsRank == 2) {
      outSizes.push_back(rhsSizes[1]);
      reassociation.push_back({lhsRank - 1});
    }
    return expandTo(b, loc, product, reassociation, outSizes);
  }
  // Equal batch dims (nothing to broadcast): one batch_matmul over the
  // flattened batch.
  bool sameBatch = lhsRank == rhsRank;
  for (int64_t dim = 0; sameBatch && dim < lhsRank - 2; ++dim)
    sameBatch = lhsType.getDimSize(dim) == rhsType.getDimSize(dim) ||
                (lhsType.getDimSize(dim) != 1 && rhsType.getDimSize(dim) != 1);
  if (!sameBatch)
    return buildBroadcastMatmul(b, loc, lhs, rhs, elementType);
  int64_t rank = lhsRank;
  ReassociationIndices batchDims =
      llvm::to_vector(llvm::seq<int64_t>(0, rank - 2));
  SmallVector<ReassociationIndices> flatten = {
      batchDims, {rank - 2}, {rank - 1}};
  Value lhs3 = rank == 3 ? lhs : collapse(b, loc, lhs, flatten);
  Value rhs3 = rank == 3 ? rhs : collapse(b, loc, rhs, flatten);
  SmallVector<OpFoldResult> lhs3Sizes = getSizes(b, loc, lhs3);
  Value init = zeros({lhs3Sizes[0], lhs3Sizes[1], rhsSizes[rank - 1]});
  Value product = linalg::BatchMatmulOp::create(b, loc, init.getType(),
                                                ValueRange{lhs3, rhs3}, init)
                      .getResult(0);
  if (rank == 3)
    return product;
  SmallVector<OpFoldResult> outSizes(lhsSizes.begin(), lhsSizes.end() - 1);
  outSizes.push_back(rhsSizes[rank - 1]);
  return expandTo(b, loc, product, flatten, outSizes);
}

/// mm, bmm and matmul: `self @ other` with the operand ranks each allows.
template <typename OpTy> struct ConvertProduct : OpConversionPattern<OpTy> {
  ConvertProduct(const TypeConverter &converter, MLIRContext *context,
                 int64_t rank)
      : OpConversionPattern<OpTy>(converter, context), rank(rank) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(this->getTypeConverter(), op);
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result dtype or rank unknown");
    Value lhs = adaptor.getOperands()[0], rhs = adaptor.getOperands()[1];
    if (!allOfElementType({lhs, rhs}, resultType.getElementType()))
      return rewriter.notifyMatchFailure(op, "operand dtypes differ");
    int64_t lhsRank = cast<RankedTensorType>(lhs.getType()).getRank();
    int64_t rhsRank = cast<RankedTensorType>(rhs.getType()).getRank();
    // rank 0 means any rank torch.matmul accepts (>= 1).
    if (rank ? lhsRank != rank || rhsRank != rank : !lhsRank || !rhsRank)
      return rewriter.notifyMatchFailure(op, "unsupported operand ranks");
    if (!matmulShapesAgree(cast<RankedTensorType>(lhs.getType()),
                           cast<RankedTensorType>(rhs.getType()),
                           /*broadcastBatch=*/rank == 0))
      return rewriter.notifyMatchFailure(op, "operand shapes disagree");
    Value product = buildMatmul(rewriter, op.getLoc(), lhs, rhs,
                                resultType.getElementType());
    return replaceWithResult(rewriter, op, product, resultType);
  }

  int64_t rank;
};

/// addmm and baddbmm: `beta * self + alpha * (mat1 @ mat2)`, self broadcast
/// to the product's shape. With beta = alpha = 1 self is the product's init;
/// beta = 0 ignores self (NaNs included), as torch does.
template <typename OpTy> struct ConvertAddProduct : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = getResultType(this->getTypeConverter(), op);
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result dtype or rank unknown");
    Type elementType = resultType.getElementType();
    Value self = adaptor.getSelf();
    Value lhs = adaptor.getOperands()[1], rhs = adaptor.getOperands()[2];
    int64_t rank = std::is_same_v<OpTy, aten::AddmmOp> ? 2 : 3;
    if (!allOfElementType({self, lhs, rhs}, elementType))
      return rewriter.notifyMatchFailure(op, "operand dtypes differ");
    if (cast<RankedTensorType>(lhs.getType()).getRank() != rank ||
        cast<RankedTensorType>(rhs.getType()).getRank() != rank ||
        cast<RankedTensorType>(self.getType()).getRank() > rank)
      return rewriter.notifyMatchFailure(op, "unsupported operand ranks");
    if (!matmulShapesAgree(cast<RankedTensorType>(lhs.getType()),
                           cast<RankedTensorType>(rhs.getType()),
                           /*broadcastBatch=*/false))
      return rewriter.notifyMatchFailure(op, "operand shapes disagree");

    SmallVector<OpFoldResult> lhsSizes = getSizes(rewriter, loc, lhs);
    SmallVector<OpFoldResult> outSizes(lhsSizes.begin(), lhsSizes.end() - 1);
    outSizes.push_back(getSizes(rewriter, loc, rhs).back());
    std::optional<double> beta = matchConstantFloat(op.getBeta());
    std::optional<double> alpha = matchConstantFloat(op.getAlpha());
    bool selfAsInit = beta == 1.0 && alpha == 1.0;
    Value init = selfAsInit
                     ? broadcastTo(rewriter, loc, self, outSizes, elementType)
                     : createFilled(rewriter, loc, outSizes, elementType, 0.0);
    Value product;
    if (rank == 2)
      product = linalg::MatmulOp::create(rewriter, loc, init.getType(),
                                         ValueRange{lhs, rhs}, init)
                    .getResult(0);
    else
      product = linalg::BatchMatmulOp::create(rewriter, loc, init.getType(),
                                              ValueRange{lhs, rhs}, init)
                    .getResult(0);
    if (!selfAsInit)
      product = scaleAndAdd(rewriter, loc, product, self, adaptor.getAlpha(),
                            beta == 0.0 ? Value() : adaptor.getBeta());
    return replaceWithResult(rewriter, op, product, resultType);
  }

  /// `alpha * product + beta * self` (without the self term when `beta` is
  /// null), self broadcast to the product's shape.
  static Value scaleAndAdd(OpBuilder &b, Location loc, Value product,
                           Value self, Value alpha, Value beta) {
    auto type = cast<RankedTensorType>(product.getType());
    Type elementType = type.getElementType();
    int64_t rank = type.getRank();
    alpha = castScalar(b, loc, alpha, elementType);
    SmallVector<Value> inputs = {product};
    SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
    if (beta) {
      beta = castScalar(b, loc, beta, elementType);
      inputs.push_back(
          broadcastTo(b, loc, self, getSizes(b, loc, product), elementType));
      maps.push_back(b.getMultiDimIdentityMap(rank));
    }
    maps.push_back(b.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Value init =
        tensor::EmptyOp::create(b, loc, getSizes(b, loc, product), elementType);
    return linalg::GenericOp::create(
               b, loc, type, inputs, init, maps, iterators,
               [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
                 Value result = multiply(nested, nestedLoc, alpha, args[0]);
                 if (beta)
                   result = add(nested, nestedLoc, result,
                                multiply(nested, nestedLoc, beta, args[1]));
                 linalg::YieldOp::create(nested, nestedLoc, result);
               })
        .getResult(0);
  }
};

/// linear: `input @ weight^T + bias` for an input of any rank >= 1, its
/// leading dims folded into the rows of one linalg.matmul that reads the
/// weight transposed through its indexing maps, accumulating into the
/// broadcast bias.
struct ConvertLinear : OpConversionPattern<aten::LinearOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::LinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result dtype or rank unknown");
    Type elementType = resultType.getElementType();
    Value input = adaptor.getInput(), weight = adaptor.getWeight();
    bool hasBias = !isNone(op.getBias());
    Value bias = hasBias ? adaptor.getBias() : Value();
    if (!allOfElementType({input, weight}, elementType) ||
        (hasBias && !allOfElementType({bias}, elementType)))
      return rewriter.notifyMatchFailure(op, "operand dtypes differ");
    int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
    auto weightType = cast<RankedTensorType>(weight.getType());
    if (rank < 1 || weightType.getRank() != 2)
      return rewriter.notifyMatchFailure(
          op, "expects an input of rank >= 1 and a 2-D weight");
    if (sizesDiffer(
            cast<RankedTensorType>(input.getType()).getDimSize(rank - 1),
            weightType.getDimSize(1)))
      return rewriter.notifyMatchFailure(op, "operand shapes disagree");

    // The input as rows [M, K].
    SmallVector<OpFoldResult> inputSizes = getSizes(rewriter, loc, input);
    ReassociationIndices leading =
        llvm::to_vector(llvm::seq<int64_t>(0, std::max<int64_t>(rank - 1, 1)));
    Value rows;
    if (rank == 1)
      rows = expandTo(rewriter, loc, input, {{0, 1}},
                      {rewriter.getIndexAttr(1), inputSizes[0]});
    else if (rank == 2)
      rows = input;
    else
      rows = collapse(rewriter, loc, input, {leading, {rank - 1}});

    SmallVector<OpFoldResult> outSizes = {getSizes(rewriter, loc, rows)[0],
                                          getSizes(rewriter, loc, weight)[0]};
    Value init = hasBias
                     ? broadcastTo(rewriter, loc, bias, outSizes, elementType)
                     : createFilled(rewriter, loc, outSizes, elementType, 0.0);
    auto matmul = linalg::MatmulOp::create(rewriter, loc, init.getType(),
                                           ValueRange{rows, weight}, init);
    AffineExpr m, n, k;
    bindDims(rewriter.getContext(), m, n, k);
    auto map = [&](ArrayRef<AffineExpr> exprs) -> Attribute {
      return AffineMapAttr::get(
          AffineMap::get(3, 0, exprs, rewriter.getContext()));
    };
    matmul.setIndexingMapsAttr(
        rewriter.getArrayAttr({map({m, k}), map({n, k}), map({m, n})}));
    Value result = matmul.getResult(0);

    if (rank == 1) {
      result = collapse(rewriter, loc, result, {{0, 1}});
    } else if (rank > 2) {
      SmallVector<OpFoldResult> sizes(inputSizes.begin(), inputSizes.end() - 1);
      sizes.push_back(outSizes[1]);
      result = expandTo(rewriter, loc, result, {leading, {rank - 1}}, sizes);
    }
    return replaceWithResult(rewriter, op, result, resultType);
  }
};

/// outer: `out[i, j] = self[i] * vec2[j]`.
struct ConvertOuter : OpConversionPattern<aten::OuterOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::OuterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result dtype or rank unknown");
    Value lhs = adaptor.getSelf(), rhs = adaptor.getVec2();
    if (!allOfElementType({lhs, rhs}, resultType.getElementType()))
      return rewriter.notifyMatchFailure(op, "operand dtypes differ");
    if (cast<RankedTensorType>(lhs.getType()).getRank() != 1 ||
        cast<RankedTensorType>(rhs.getType()).getRank() != 1)
      return rewriter.notifyMatchFailure(op, "expects two vectors");
    AffineExpr i, j;
    bindDims(rewriter.getContext(), i, j);
    SmallVector<AffineMap> maps = {
        AffineMap::get(2, 0, {i}, rewriter.getContext()),
        AffineMap::get(2, 0, {j}, rewriter.getContext()),
        rewriter.getMultiDimIdentityMap(2)};
    Value init = tensor::EmptyOp::create(
        rewriter, loc,
        SmallVector<OpFoldResult>{getSizes(rewriter, loc, lhs)[0],
                                  getSizes(rewriter, loc, rhs)[0]},
        resultType.getElementType());
    SmallVector<utils::IteratorType> iterators(2,
                                               utils::IteratorType::parallel);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, init.getType(), ValueRange{lhs, rhs}, init, maps,
            iterators,
            [](OpBuilder &b, Location nestedLoc, ValueRange args) {
              linalg::YieldOp::create(b, nestedLoc,
                                      multiply(b, nestedLoc, args[0], args[1]));
            })
            .getResult(0);
    return replaceWithResult(rewriter, op, result, resultType);
  }
};

} // namespace

void tsir::conversion::populateLinearPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ConvertProduct<aten::MatmulOp>>(typeConverter, context, 0);
  patterns.add<ConvertProduct<aten::MmOp>>(typeConverter, context, 2);
  patterns.add<ConvertProduct<aten::BmmOp>>(typeConverter, context, 3);
  patterns.add<ConvertProduct<aten::DotOp>>(typeConverter, context, 1);
  patterns.add<ConvertAddProduct<aten::AddmmOp>,
               ConvertAddProduct<aten::BaddbmmOp>, ConvertLinear, ConvertOuter>(
      typeConverter, context);
  populateEinsumPatterns(typeConverter, patterns);
}
