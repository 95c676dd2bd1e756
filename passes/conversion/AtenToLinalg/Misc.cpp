//===- Misc.cpp - convert-aten-to-linalg: losses, dropout, metadata -------===//
//
// Dropout in inference (the identity), and ops that only look at a tensor's
// metadata or are identities on tensors (equal, stride.int, cpu,
// _unwrap_optional). The family's losses are in Losses.cpp.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "ShapeHelpers.h"

#include "../Common/Utils.h"

#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {

//===----------------------------------------------------------------------===//
// Identities
//===----------------------------------------------------------------------===//

/// dropout, dropout_, feature_dropout, alpha_dropout and
/// feature_alpha_dropout with train=False (or p=0) return their input.
/// tsir-decompose has put decompositions.txt's graphs (which draw the
/// training masks) in place of those it saw; what reaches this lowering
/// is the in-place form and the functional op tsir-value-semantics made of
/// it, which only the eval mode lowers here.
template <typename OpTy>
struct ConvertInferenceDropout : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*this->getTypeConverter(), op);
    if (!type)
      return rewriter.notifyMatchFailure(op, "unknown dtype or rank");
    std::optional<bool> train = matchConstantBool(op.getTrain());
    if (!train)
      return op.emitError("dropout needs a constant train flag (call "
                          "model.eval() before scripting)");
    // With p = 0 training keeps every element and scales by 1.
    std::optional<double> p = matchConstantFloat(op.getP());
    if (*train && !(p && *p == 0.0))
      return op.emitError("dropout in training mode is random and not "
                          "supported");
    rewriter.replaceOp(op, castToType(rewriter, op.getLoc(),
                                      adaptor.getOperands().front(), type));
    return success();
  }
};

/// Ops whose tensor result is their (converted) tensor operand: cpu (tsir
/// runs on the CPU) and _unwrap_optional of a tensor.
template <typename OpTy> struct ConvertToOperand : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*this->getTypeConverter(), op);
    Value input = adaptor.getOperands().front();
    if (!type || !isa<RankedTensorType>(input.getType()))
      return rewriter.notifyMatchFailure(op, "not a typed tensor");
    rewriter.replaceOp(op, castToType(rewriter, op.getLoc(), input, type));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Metadata
//===----------------------------------------------------------------------===//

/// stride(dim): lowered tensors are contiguous, so the stride of a dim is the
/// product of the sizes after it. The dim may be known only at run time:
/// each size then counts when its dim is past the (normalized) dim.
struct ConvertStrideInt : OpConversionPattern<aten::StrideIntOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::StrideIntOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getSelf();
    auto type = dyn_cast<RankedTensorType>(input.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "unknown rank");
    int64_t rank = type.getRank();
    if (rank == 0)
      return op.emitError("stride() of a 0-d tensor has no dim to read");
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    if (std::optional<int64_t> constDim = matchConstantInt(op.getDim())) {
      std::optional<int64_t> dim = normalizeDim(*constDim, rank);
      if (!dim)
        return op.emitError()
               << "dim " << *constDim
               << " is out of range for a tensor of rank " << rank;
      Value stride = createScalarConstant(rewriter, loc, i64, 1);
      for (int64_t d = *dim + 1; d < rank; ++d)
        stride = arith::MulIOp::create(
            rewriter, loc, stride,
            arith::IndexCastOp::create(rewriter, loc, i64,
                                       getDimSize(rewriter, loc, input, d)));
      rewriter.replaceOp(op, stride);
      return success();
    }
    Value dim = adaptor.getDim();
    Value zero = createScalarConstant(rewriter, loc, i64, 0);
    Value rankValue = createScalarConstant(rewriter, loc, i64, rank);
    Value negative = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt, dim, zero);
    dim = arith::SelectOp::create(
        rewriter, loc, negative,
        arith::AddIOp::create(rewriter, loc, dim, rankValue), dim);
    Value one = createScalarConstant(rewriter, loc, i64, 1);
    Value stride = one;
    for (int64_t d = 1; d < rank; ++d) {
      Value size = arith::IndexCastOp::create(
          rewriter, loc, i64, getDimSize(rewriter, loc, input, d));
      Value counts =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, dim,
                                createScalarConstant(rewriter, loc, i64, d));
      stride = arith::MulIOp::create(
          rewriter, loc, stride,
          arith::SelectOp::create(rewriter, loc, counts, size, one));
    }
    rewriter.replaceOp(op, stride);
    return success();
  }
};

/// equal: true when the shapes and all elements are equal (NaN is unequal
/// to itself, as in torch). Different static shapes are a constant false;
/// dynamic ones are compared first, around the element comparison.
struct ConvertEqual : OpConversionPattern<aten::EqualOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::EqualOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value lhs = adaptor.getSelf(), rhs = adaptor.getOther();
    auto lhsType = dyn_cast<RankedTensorType>(lhs.getType());
    auto rhsType = dyn_cast<RankedTensorType>(rhs.getType());
    if (!lhsType || !rhsType)
      return rewriter.notifyMatchFailure(op, "unknown dtype or rank");
    if (lhsType.getElementType() != rhsType.getElementType() ||
        isUnsignedDtype(op.getSelf().getType()) !=
            isUnsignedDtype(op.getOther().getType()))
      return op.emitError() << "equal of tensors of different dtypes ("
                            << lhsType.getElementType() << ", "
                            << rhsType.getElementType() << ")";
    Location loc = op.getLoc();
    Type i1 = rewriter.getI1Type();
    Value sameShape;
    if (lhsType.getRank() != rhsType.getRank())
      sameShape = createScalarConstant(rewriter, loc, i1, 0);
    for (int64_t d = 0; !sameShape && d < lhsType.getRank(); ++d) {
      int64_t l = lhsType.getDimSize(d), r = rhsType.getDimSize(d);
      if (!ShapedType::isDynamic(l) && !ShapedType::isDynamic(r)) {
        if (l != r)
          sameShape = createScalarConstant(rewriter, loc, i1, 0);
      }
    }
    if (sameShape) {
      rewriter.replaceOp(op, sameShape);
      return success();
    }
    sameShape = createScalarConstant(rewriter, loc, i1, 1);
    for (int64_t d = 0; d < lhsType.getRank(); ++d) {
      if (!lhsType.isDynamicDim(d) && !rhsType.isDynamicDim(d))
        continue;
      Value eq = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       getDimSize(rewriter, loc, lhs, d),
                                       getDimSize(rewriter, loc, rhs, d));
      sameShape = arith::AndIOp::create(rewriter, loc, sameShape, eq);
    }
    auto compareElements = [&](OpBuilder &b, Location l) -> Value {
      Value rhsCast = rhs;
      if (rhsType != lhsType)
        rhsCast = tensor::CastOp::create(b, l, lhsType, rhs);
      int64_t rank = lhsType.getRank();
      auto scalarType = RankedTensorType::get({}, i1);
      Value init = createFilledTensor(b, l, scalarType,
                                      createScalarConstant(b, l, i1, 1));
      AffineMap identity = b.getMultiDimIdentityMap(rank);
      AffineMap toScalar = AffineMap::get(rank, 0, b.getContext());
      SmallVector<utils::IteratorType> iterators(
          rank, utils::IteratorType::reduction);
      auto generic = linalg::GenericOp::create(
          b, l, TypeRange{scalarType}, ValueRange{lhs, rhsCast},
          ValueRange{init}, ArrayRef<AffineMap>{identity, identity, toScalar},
          iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value eq =
                isa<FloatType>(args[0].getType())
                    ? arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OEQ,
                                            args[0], args[1])
                          .getResult()
                    : arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq,
                                            args[0], args[1])
                          .getResult();
            linalg::YieldOp::create(
                nb, nl, ValueRange{arith::AndIOp::create(nb, nl, eq, args[2])});
          });
      return tensor::ExtractOp::create(b, l, generic.getResult(0),
                                       ValueRange{});
    };
    bool dynamic = !lhsType.hasStaticShape() || !rhsType.hasStaticShape();
    if (!dynamic) {
      rewriter.replaceOp(op, compareElements(rewriter, loc));
      return success();
    }
    auto ifOp = scf::IfOp::create(
        rewriter, loc, sameShape,
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, compareElements(b, l));
        },
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, createScalarConstant(b, l, i1, 0));
        });
    rewriter.replaceOp(op, ifOp.getResult(0));
    return success();
  }
};

} // namespace

void tsir::conversion::populateMiscPatterns(const TypeConverter &typeConverter,
                                            RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ConvertInferenceDropout<aten::DropoutOp>,
               ConvertInferenceDropout<aten::Dropout_Op>,
               ConvertInferenceDropout<aten::FeatureDropoutOp>,
               ConvertInferenceDropout<aten::AlphaDropoutOp>,
               ConvertInferenceDropout<aten::FeatureAlphaDropoutOp>,
               ConvertToOperand<aten::CpuOp>,
               ConvertToOperand<aten::PrivateUnwrapOptionalOp>,
               ConvertStrideInt, ConvertEqual>(typeConverter, context);
  populateLossPatterns(typeConverter, patterns);
}
