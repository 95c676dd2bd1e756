//===- Creation.cpp - convert-aten-to-linalg: tensor creation -------------===//
//
// Ops that make a tensor from sizes and scalars: zeros/ones/full/empty and
// their *_like and new_* forms, fill_/zero_ (functional by now), 0-d
// tensors from scalars, tensor/as_tensor of a (nested) list, arange,
// linspace, eye and one_hot. The dtype, layout and device operands are not
// read: refinement already put the dtype in the result type. Random ops
// have no lowering (tsir has no generator state to reproduce torch's).
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "ShapeHelpers.h"

#include "../Common/Utils.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::conversion;

namespace {

/// Where a filled tensor's sizes and fill value come from.
struct FillSpec {
  /// The `int[]` operand with the sizes; kLike: operand 0's sizes;
  /// kScalar: a 0-d result.
  int sizes;
  /// The operand with the fill value (a scalar or a 0-d tensor), or -1 for
  /// `constant`.
  int fill;
  double constant;
  /// Leave the tensor uninitialized (empty, empty_like).
  bool uninitialized;
  static constexpr int kLike = -1, kScalar = -2;
};

/// A scalar of `type` from a converted scalar or 0-d tensor operand.
Value scalarOperand(OpBuilder &b, Location loc, Value value, Type type) {
  if (isa<RankedTensorType>(value.getType()))
    value = tensor::ExtractOp::create(b, loc, value, ValueRange{});
  if (!isa<IntegerType, FloatType>(value.getType()))
    return {};
  return castScalar(b, loc, value, type);
}

template <typename OpTy> struct ConvertFilled : OpConversionPattern<OpTy> {
  ConvertFilled(const TypeConverter &converter, MLIRContext *context,
                FillSpec spec)
      : OpConversionPattern<OpTy>(converter, context), spec(spec) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*this->getTypeConverter(), op);
    if (!type)
      return rewriter.notifyMatchFailure(op, "unknown result dtype or rank");
    Location loc = op.getLoc();
    ValueRange operands = adaptor.getOperands();
    SmallVector<OpFoldResult> sizes;
    if (spec.sizes == FillSpec::kLike) {
      sizes = tensor::getMixedSizes(rewriter, loc, operands[0]);
    } else if (spec.sizes >= 0) {
      auto ints = getIntListValues(rewriter, loc, op->getOperand(spec.sizes));
      if (!ints)
        return rewriter.notifyMatchFailure(op, "size is not a list of ints");
      IndexMath m{rewriter, loc};
      for (Value v : *ints)
        sizes.push_back(IndexMath::fold(m.fromInt(v)));
    }
    if (sizes.size() != static_cast<size_t>(type.getRank()))
      return rewriter.notifyMatchFailure(op, "result rank mismatch");
    sizes = mixResultSizes(type, sizes);
    if (spec.uninitialized) {
      rewriter.replaceOp(op, createEmpty(rewriter, loc, type, sizes));
      return success();
    }
    Type element = type.getElementType();
    Value fill =
        spec.fill < 0
            ? createScalarConstant(rewriter, loc, element, spec.constant)
            : scalarOperand(rewriter, loc, operands[spec.fill], element);
    if (!fill)
      return rewriter.notifyMatchFailure(op, "fill value is not a number");
    Value empty = createEmpty(rewriter, loc, type, sizes);
    rewriter.replaceOp(
        op, linalg::FillOp::create(rewriter, loc, fill, empty).getResult(0));
    return success();
  }

  FillSpec spec;
};

/// The leaves of a (nested) list of scalars, row-major, each as a scalar
/// of `type`; null entries where a leaf is not a number.
LogicalResult collectLeaves(ConversionPatternRewriter &rewriter, Location loc,
                            Value list, Type type,
                            SmallVectorImpl<Value> &leaves) {
  if (std::optional<SmallVector<Value>> elements = getListElements(list)) {
    for (Value element : *elements) {
      if (isa<prim::ListType>(element.getType())) {
        if (failed(collectLeaves(rewriter, loc, element, type, leaves)))
          return failure();
        continue;
      }
      Value leaf = scalarOperand(rewriter, loc,
                                 rewriter.getRemappedValue(element), type);
      if (!leaf)
        return failure();
      leaves.push_back(leaf);
    }
    return success();
  }
  auto constant = list.getDefiningOp<prim::ConstantOp>();
  auto array = constant ? dyn_cast<ArrayAttr>(constant.getValue()) : nullptr;
  if (!array)
    return failure();
  std::function<LogicalResult(ArrayAttr)> walk = [&](ArrayAttr attrs) {
    for (Attribute attr : attrs) {
      if (auto nested = dyn_cast<ArrayAttr>(attr)) {
        if (failed(walk(nested)))
          return failure();
        continue;
      }
      auto typed = dyn_cast<TypedAttr>(attr);
      if (!typed || !isa<IntegerType, FloatType>(typed.getType()))
        return failure();
      Value scalar = arith::ConstantOp::create(rewriter, loc, typed);
      leaves.push_back(castScalar(rewriter, loc, scalar, type));
    }
    return success();
  };
  return walk(array);
}

/// tensor(t[] data) and as_tensor.list: the leaves of the list, in order.
template <typename OpTy>
struct ConvertTensorFromList : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*this->getTypeConverter(), op);
    if (!type || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "result shape is not known");
    Location loc = op.getLoc();
    SmallVector<Value> leaves;
    if (failed(collectLeaves(rewriter, loc, op.getData(), type.getElementType(),
                             leaves)) ||
        static_cast<int64_t>(leaves.size()) != type.getNumElements())
      return rewriter.notifyMatchFailure(
          op, "data is not a list of numbers of the result's shape");
    if (leaves.empty()) {
      rewriter.replaceOp(
          op, tensor::EmptyOp::create(rewriter, loc, type, ValueRange{}));
      return success();
    }
    rewriter.replaceOp(
        op, tensor::FromElementsOp::create(rewriter, loc, type, leaves));
    return success();
  }
};

/// as_tensor(Tensor data, dtype): a conversion of the elements.
struct ConvertAsTensor : OpConversionPattern<aten::AsTensorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(aten::AsTensorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getResultTensorType(*getTypeConverter(), op);
    if (!type)
      return rewriter.notifyMatchFailure(op, "unknown result dtype or rank");
    Location loc = op.getLoc();
    Value converted = convertElementType(
        rewriter, loc, adaptor.getData(), type.getElementType(),
        isUnsignedDtype(op.getData().getType()));
    rewriter.replaceOp(op, castToType(rewriter, loc, converted, type));
    return success();
  }
};

} // namespace

template <typename OpTy>
static void addFilled(RewritePatternSet &patterns,
                      const TypeConverter &typeConverter, FillSpec spec) {
  patterns.add<ConvertFilled<OpTy>>(typeConverter, patterns.getContext(), spec);
}

void tsir::conversion::populateCreationPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  constexpr int like = FillSpec::kLike, scalar = FillSpec::kScalar;
  auto filled = [](int sizes, int fill, double constant = 0) {
    return FillSpec{sizes, fill, constant, false};
  };
  FillSpec empty{0, -1, 0, true}, emptyLike{like, -1, 0, true};
  addFilled<aten::ZerosOp>(patterns, typeConverter, filled(0, -1, 0));
  addFilled<aten::OnesOp>(patterns, typeConverter, filled(0, -1, 1));
  addFilled<aten::FullOp>(patterns, typeConverter, filled(0, 1));
  addFilled<aten::EmptyMemoryFormatOp>(patterns, typeConverter, empty);
  addFilled<aten::ZerosLikeOp>(patterns, typeConverter, filled(like, -1, 0));
  addFilled<aten::OnesLikeOp>(patterns, typeConverter, filled(like, -1, 1));
  addFilled<aten::FullLikeOp>(patterns, typeConverter, filled(like, 1));
  addFilled<aten::EmptyLikeOp>(patterns, typeConverter, emptyLike);
  addFilled<aten::NewZerosOp>(patterns, typeConverter, filled(1, -1, 0));
  addFilled<aten::NewOnesOp>(patterns, typeConverter, filled(1, -1, 1));
  addFilled<aten::NewFullOp>(patterns, typeConverter, filled(1, 2));
  addFilled<aten::Fill_ScalarOp>(patterns, typeConverter, filled(like, 1));
  addFilled<aten::Fill_TensorOp>(patterns, typeConverter, filled(like, 1));
  addFilled<aten::Zero_Op>(patterns, typeConverter, filled(like, -1, 0));
  addFilled<aten::ScalarTensorOp>(patterns, typeConverter, filled(scalar, 0));
  addFilled<aten::TensorFloatOp>(patterns, typeConverter, filled(scalar, 0));
  addFilled<aten::TensorIntOp>(patterns, typeConverter, filled(scalar, 0));
  addFilled<aten::TensorBoolOp>(patterns, typeConverter, filled(scalar, 0));
  addFilled<aten::AsTensorFloatOp>(patterns, typeConverter, filled(scalar, 0));
  addFilled<aten::AsTensorIntOp>(patterns, typeConverter, filled(scalar, 0));
  addFilled<aten::AsTensorBoolOp>(patterns, typeConverter, filled(scalar, 0));
  patterns.add<ConvertTensorFromList<aten::TensorOp>,
               ConvertTensorFromList<aten::AsTensorListOp>, ConvertAsTensor>(
      typeConverter, context);
  populateRangePatterns(typeConverter, patterns);
}
