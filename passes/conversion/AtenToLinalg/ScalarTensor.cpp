//===- ScalarTensor.cpp - convert-aten-to-linalg: constants and scalars ---===//
//
// Tensor constants and the traffic between tensors and scalars: inline and
// weight-file tensor constants, tensor prim.Uninitialized placeholders,
// prim.NumToTensor, the one-element tensor to scalar ops (Int/Float/
// Bool.Tensor, item, the *Implicit casts), and the metadata queries that
// the types answer (size, dim, numel, len, is_floating_point, prim.dtype,
// `is None` on a tensor).
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "../../transforms/FoldUtils.h"
#include "../AtenToArith/Patterns.h"
#include "../Common/Broadcast.h"
#include "../Common/Utils.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace tsir;

/// The ranked builtin type of a converted tensor operand, or null.
static RankedTensorType rankedType(Value value) {
  return dyn_cast<RankedTensorType>(value.getType());
}

/// The Python scalar type a tensor of `dtype` gives out: float, bool or
/// int (null for complex dtypes).
static Type naturalScalarType(Type dtype) {
  MLIRContext *context = dtype.getContext();
  if (isa<FloatType>(dtype))
    return Float64Type::get(context);
  if (dtype.isInteger(1))
    return IntegerType::get(context, 1);
  if (isa<IntegerType>(dtype))
    return IntegerType::get(context, 64);
  return {};
}

static Value i64Constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
}

namespace {

/// A tensor-valued prim.Constant: inline data (`{1}`, `dense<...>`) or a
/// weight loaded from a safetensors file (`dense_resource`), retyped to
/// signless elements. A `<Tensor>` without data cannot run.
struct TensorConstantPattern : OpConversionPattern<prim::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(prim::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<prim::TensorType>(op.getType()))
      return rewriter.notifyMatchFailure(op, "not a tensor constant");
    Attribute value = op.getValue();
    if (auto ref = dyn_cast<prim::TensorRefAttr>(value))
      return op.emitError() << "weight '" << ref.getName()
                            << "' has no data: import the graph with "
                               "--weights, or pass the weight as an input";
    auto resultType =
        getTypeConverter()->convertType<RankedTensorType>(op.getType());
    if (!resultType)
      return op.emitError() << "tensor constant of type " << op.getType()
                            << " has no builtin form (it needs a dtype and "
                               "sizes)";
    auto elements = dyn_cast<ElementsAttr>(value);
    if (!elements)
      return rewriter.notifyMatchFailure(op, "not an elements attribute");
    Type element = signlessElementType(elements.getElementType());
    if (element != resultType.getElementType())
      return op.emitError()
             << "tensor constant holds " << elements.getElementType()
             << " elements but its type says " << resultType.getElementType();
    auto dataType =
        RankedTensorType::get(elements.getShapedType().getShape(), element);
    if (!tensor::CastOp::areCastCompatible(dataType, resultType))
      return op.emitError() << "tensor constant of shape " << dataType
                            << " does not fit its type " << resultType;

    TypedAttr data;
    if (auto dense = dyn_cast<DenseElementsAttr>(value))
      data = dense.getElementType() == element ? dense : dense.bitcast(element);
    else if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
      // The blob is the same bytes; only the element type loses its sign.
      data = DenseResourceElementsAttr::get(dataType, resource.getRawHandle());
    else
      return rewriter.notifyMatchFailure(op, "unsupported elements attribute");
    Value constant = arith::ConstantOp::create(rewriter, op.getLoc(), data);
    if (dataType != resultType)
      constant =
          tensor::CastOp::create(rewriter, op.getLoc(), resultType, constant);
    rewriter.replaceOp(op, constant);
    return success();
  }
};

/// TorchScript's placeholder for a tensor a path never defines (a value a
/// `break` leaves unset): nothing reads it, so an uninitialized tensor of
/// its type does. Only a static type says how big.
struct TensorUninitializedPattern : OpConversionPattern<prim::UninitializedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(prim::UninitializedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<prim::TensorType>(op.getType()))
      return rewriter.notifyMatchFailure(op, "not a tensor");
    auto type = getTypeConverter()->convertType<RankedTensorType>(op.getType());
    if (!type || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs a static tensor type");
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, type, ValueRange());
    return success();
  }
};

/// A scalar as a 0-d tensor of the result's dtype.
struct NumToTensorPattern : OpConversionPattern<prim::NumToTensorOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(prim::NumToTensorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getTypeConverter()->convertType<RankedTensorType>(op.getType());
    Value number = adaptor.getNumber();
    if (!resultType || resultType.getRank() != 0 ||
        !conversion::isBuiltinScalarType(number.getType()))
      return rewriter.notifyMatchFailure(op, "needs a scalar and a 0-d type");
    Value element = conversion::castElement(rewriter, op.getLoc(), number,
                                            resultType.getElementType());
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(op, resultType,
                                                        ValueRange{element});
    return success();
  }
};

/// The one element of a tensor as an int, float or bool (Int.Tensor,
/// Float.Tensor, Bool.Tensor, item, IntImplicit, FloatImplicit,
/// ScalarImplicit), cast with torch's rules. torch raises on a tensor of
/// any other size; a statically known one is refused here.
class TensorToScalarPattern : public ConversionPattern {
public:
  TensorToScalarPattern(const TypeConverter &typeConverter,
                        MLIRContext *context, StringRef opName)
      : ConversionPattern(typeConverter, opName, /*benefit=*/1, context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = op->getResult(0).getType();
    // `item()` and ScalarImplicit return a Scalar (`number`), which holds
    // a float, int or bool by the tensor's dtype: build that, and the
    // conversion casts it to `number` for users that still need one.
    auto operandType = dyn_cast<prim::TensorType>(op->getOperand(0).getType());
    if (isa<prim::NumberType>(resultType) && operandType &&
        operandType.getDtype())
      resultType = naturalScalarType(operandType.getDtype());
    if (!resultType || !conversion::isBuiltinScalarType(resultType))
      return op->emitError() << "result of type " << op->getResult(0).getType()
                             << " cannot be lowered: give the graph value "
                                "a type of int, float or bool";
    RankedTensorType tensorType = rankedType(operands[0]);
    if (!tensorType)
      return rewriter.notifyMatchFailure(op, "operand is not converted");
    if (tensorType.hasStaticShape() && tensorType.getNumElements() != 1)
      return op->emitError() << "needs a tensor of one element, not one of "
                             << tensorType.getNumElements();
    Location loc = op->getLoc();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    SmallVector<Value> indices(tensorType.getRank(), zero);
    Value element =
        tensor::ExtractOp::create(rewriter, loc, operands[0], indices);
    bool isUnsigned = isUnsignedDtype(op->getOperand(0).getType());
    Value scalar =
        conversion::castElement(rewriter, loc, element, resultType, isUnsigned);
    // A `number` result holds the scalar through a cast, which the Scalar
    // ops of convert-aten-to-arith peel.
    if (scalar.getType() != op->getResult(0).getType())
      scalar = UnrealizedConversionCastOp::create(
                   rewriter, loc, op->getResult(0).getType(), scalar)
                   .getResult(0);
    rewriter.replaceOp(op, scalar);
    return success();
  }
};

/// `x.size(d)`, with Python's negative dims; a dim that is not a constant
/// is normalized at run time.
struct SizeIntPattern : OpConversionPattern<aten::SizeIntOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::SizeIntOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = rankedType(adaptor.getSelf());
    if (!type)
      return rewriter.notifyMatchFailure(op, "operand is not converted");
    int64_t rank = type.getRank();
    if (rank == 0)
      return op.emitError("a 0-d tensor has no dims to take the size of");
    Location loc = op.getLoc();
    Value size;
    if (std::optional<int64_t> dim =
            conversion::matchConstantInt(adaptor.getDim())) {
      std::optional<int64_t> normalized = conversion::normalizeDim(*dim, rank);
      if (!normalized)
        return op.emitError()
               << "dim " << *dim << " is out of range for a tensor of rank "
               << rank;
      size =
          conversion::getDimSize(rewriter, loc, adaptor.getSelf(), *normalized);
    } else {
      Value dimValue = adaptor.getDim();
      Value negative =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                dimValue, i64Constant(rewriter, loc, 0));
      Value wrapped = arith::AddIOp::create(rewriter, loc, dimValue,
                                            i64Constant(rewriter, loc, rank));
      dimValue =
          arith::SelectOp::create(rewriter, loc, negative, wrapped, dimValue);
      Value index = arith::IndexCastOp::create(
          rewriter, loc, rewriter.getIndexType(), dimValue);
      size = tensor::DimOp::create(rewriter, loc, adaptor.getSelf(), index);
    }
    rewriter.replaceOp(op, rewriter.createOrFold<arith::IndexCastOp>(
                               loc, rewriter.getI64Type(), size));
    return success();
  }
};

/// `x.dim()`, `x.numel()` and `len(x)`, from the converted type (and
/// tensor.dim for dynamic sizes).
template <typename OpTy> struct ShapeQueryPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value tensor = adaptor.getOperands().front();
    RankedTensorType type = rankedType(tensor);
    if (!type)
      return rewriter.notifyMatchFailure(op, "operand is not converted");
    Location loc = op.getLoc();
    Value result;
    if constexpr (std::is_same_v<OpTy, aten::DimOp>) {
      result = i64Constant(rewriter, loc, type.getRank());
    } else if constexpr (std::is_same_v<OpTy, aten::LenTensorOp>) {
      if (type.getRank() == 0)
        return op.emitError("len() of a 0-d tensor");
      result = rewriter.createOrFold<arith::IndexCastOp>(
          loc, rewriter.getI64Type(),
          conversion::getDimSize(rewriter, loc, tensor, 0));
    } else {
      result = i64Constant(rewriter, loc, 1);
      for (int64_t dim = 0; dim < type.getRank(); ++dim) {
        Value size = rewriter.createOrFold<arith::IndexCastOp>(
            loc, rewriter.getI64Type(),
            conversion::getDimSize(rewriter, loc, tensor, dim));
        result = rewriter.createOrFold<arith::MulIOp>(loc, result, size);
      }
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// `x.size()` as a constant int list when every size is static. A list of
/// run-time sizes would need the runtime's lists, so it is refused.
struct SizeListPattern : OpConversionPattern<aten::SizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(aten::SizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = rankedType(adaptor.getSelf());
    if (!type)
      return rewriter.notifyMatchFailure(op, "operand is not converted");
    if (!type.hasStaticShape())
      return op.emitError() << "size() of " << type
                            << " needs its sizes at compile time: specialize "
                               "the graph to static shapes (arg-spec)";
    SmallVector<Attribute> sizes;
    for (int64_t size : type.getShape())
      sizes.push_back(rewriter.getI64IntegerAttr(size));
    rewriter.replaceOpWithNewOp<prim::ConstantOp>(op, op.getType(),
                                                  rewriter.getArrayAttr(sizes));
    return success();
  }
};

/// `x.is_floating_point()` and `x.dtype`, which the dtype answers.
template <typename OpTy> struct DtypeQueryPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<prim::TensorType>(op->getOperand(0).getType());
    Type dtype = type ? type.getDtype() : Type();
    if (!dtype)
      return rewriter.notifyMatchFailure(op, "the dtype is unknown");
    if constexpr (std::is_same_v<OpTy, aten::IsFloatingPointOp>) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, rewriter.getBoolAttr(isa<FloatType>(dtype)));
    } else {
      std::optional<int64_t> number = scalarTypeNumber(dtype);
      if (!number)
        return rewriter.notifyMatchFailure(op, "dtype has no ScalarType");
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, rewriter.getI64IntegerAttr(*number));
    }
    return success();
  }
};

} // namespace

void tsir::conversion::populateScalarTensorPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<TensorConstantPattern, TensorUninitializedPattern,
               NumToTensorPattern, SizeIntPattern, SizeListPattern,
               ShapeQueryPattern<aten::DimOp>, ShapeQueryPattern<aten::NumelOp>,
               ShapeQueryPattern<aten::LenTensorOp>,
               DtypeQueryPattern<aten::IsFloatingPointOp>,
               DtypeQueryPattern<prim::DtypeOp>>(typeConverter, context);
  for (StringRef name : {aten::IntTensorOp::getOperationName(),
                         aten::FloatTensorOp::getOperationName(),
                         aten::BoolTensorOp::getOperationName(),
                         aten::ItemOp::getOperationName(),
                         aten::IntImplicitOp::getOperationName(),
                         aten::FloatImplicitOp::getOperationName(),
                         aten::ScalarImplicitOp::getOperationName()})
    patterns.add<TensorToScalarPattern>(typeConverter, context, name);
  // `x is None` on a tensor is false whatever x holds.
  populateIdentityTestPatterns(typeConverter, patterns);
}
