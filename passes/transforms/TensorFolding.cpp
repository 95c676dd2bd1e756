//===- TensorFolding.cpp - Folding arithmetic on small constant tensors ---===//
//
// TorchScript's constant propagation runs any op whose inputs are all
// constants, tensors included. Graphs compute small things with tensors:
// torchvision's detection transform takes its resize scale as
//
//   im_shape = torch.tensor(image.shape[-2:])
//   scale = torch.min(self_min_size / torch.min(im_shape).to(float32),
//                     self_max_size / torch.max(im_shape).to(float32))
//   scale_factor = scale.item()
//
// and, specialized, every input of that is a constant: folded, the image's
// resized sizes are known and the network after it compiles for them. The
// evaluators here cover that arithmetic on constant tensors of Long, Float
// and Double elements, at most 64 of them (larger constants are weights,
// not shape arithmetic): torch.tensor of a flat list, NumToTensor,
// to(dtype) and to(device="cpu"), detach, the whole-tensor min and max,
// elementwise min/max of two tensors of one shape (or a 0-d one), add,
// sub, mul and div of two tensors of one dtype, reciprocal, floor, ceil,
// mul/div by a Python number, item, int() and float(). Traces compute
// sizes this way too: interpolate's output size is
// `floor(tensor(size).to(float32) * scale)`. Float32 results are computed
// in float32, as torch computes them.
//
//===----------------------------------------------------------------------===//

#include "ConstantEvaluator.h"
#include "FoldUtils.h"

#include "tsir-runtime/ScalarSemantics.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace tsir;

namespace {

/// The most elements a folded tensor may have.
constexpr int64_t kMaxElements = 64;

/// A constant tensor's elements as doubles (exact for the Long values shape
/// arithmetic produces), its element type and shape.
struct SmallTensor {
  Type elementType; // f32, f64 or si64
  SmallVector<int64_t> shape;
  SmallVector<double> values;

  bool isFloat() const { return isa<FloatType>(elementType); }
};

std::optional<SmallTensor> smallTensor(Attribute attribute) {
  auto elements = dyn_cast_or_null<DenseElementsAttr>(attribute);
  if (!elements || elements.getNumElements() > kMaxElements)
    return std::nullopt;
  SmallTensor tensor;
  tensor.elementType = elements.getElementType();
  tensor.shape.assign(elements.getType().getShape().begin(),
                      elements.getType().getShape().end());
  if (tensor.elementType.isF32() || tensor.elementType.isF64()) {
    for (const APFloat &value : elements.getValues<APFloat>())
      tensor.values.push_back(value.convertToDouble());
    return tensor;
  }
  if (tensor.elementType.isSignedInteger(64)) {
    for (const APInt &value : elements.getValues<APInt>())
      tensor.values.push_back(double(value.getSExtValue()));
    return tensor;
  }
  return std::nullopt;
}

/// `value` rounded as an element of `elementType` holds it.
double asElement(Type elementType, double value) {
  if (elementType.isF32())
    return double(float(value));
  if (elementType.isSignedInteger(64))
    return double(int64_t(value));
  return value;
}

/// `tensor` converted to `elementType`, each value rounded as an element
/// of it holds it (to(dtype)'s conversion).
void convertTo(SmallTensor &tensor, Type elementType) {
  tensor.elementType = elementType;
  for (double &value : tensor.values)
    value = asElement(elementType, value);
}

/// `fn` of the elements of two tensors of one dtype whose shapes agree or
/// one of which is 0-d (broadcast), each result rounded to the dtype;
/// nullopt when they do not pair or `fn` gives no value.
std::optional<SmallTensor>
combine(const SmallTensor &a, const SmallTensor &b,
        llvm::function_ref<std::optional<double>(double, double)> fn) {
  if (a.elementType != b.elementType ||
      (!a.shape.empty() && !b.shape.empty() && a.shape != b.shape))
    return std::nullopt;
  SmallTensor result = a.shape.empty() ? b : a;
  for (size_t i = 0; i < result.values.size(); ++i) {
    std::optional<double> value = fn(a.values[a.shape.empty() ? 0 : i],
                                     b.values[b.shape.empty() ? 0 : i]);
    if (!value)
      return std::nullopt;
    result.values[i] = asElement(result.elementType, *value);
  }
  return result;
}

Attribute toAttribute(const SmallTensor &tensor) {
  auto type = RankedTensorType::get(tensor.shape, tensor.elementType);
  if (tensor.elementType.isSignedInteger(64)) {
    SmallVector<APInt> values;
    for (double value : tensor.values)
      values.push_back(APInt(64, int64_t(value), /*isSigned=*/true));
    return DenseElementsAttr::get(type, values);
  }
  SmallVector<APFloat> values;
  for (double value : tensor.values)
    values.push_back(tensor.elementType.isF32() ? APFloat(float(value))
                                                : APFloat(value));
  return DenseElementsAttr::get(type, values);
}

/// The element type of TorchScript's ScalarType number `number`, for the
/// three this file folds (Long, Float, Double).
Type elementTypeOf(MLIRContext *context, int64_t number) {
  switch (number) {
  case 4:
    return IntegerType::get(context, 64, IntegerType::Signed);
  case 6:
    return Float32Type::get(context);
  case 7:
    return Float64Type::get(context);
  default:
    return Type();
  }
}

std::optional<double> numberOf(Attribute attribute) {
  if (auto integer = dyn_cast_or_null<IntegerAttr>(attribute))
    return double(integer.getValue().getSExtValue());
  if (auto real = dyn_cast_or_null<FloatAttr>(attribute))
    return real.getValueAsDouble();
  return std::nullopt;
}

/// torch.tensor(data, dtype=None, device=None, requires_grad=False) of a
/// flat list of numbers: Long for ints, Float for floats, unless a dtype
/// is given.
LogicalResult evalTensorOfList(Operation *op, ArrayRef<Attribute> operands,
                               SmallVectorImpl<Attribute> &results) {
  auto list = dyn_cast_or_null<ArrayAttr>(operands[0]);
  if (!list || list.empty() || int64_t(list.size()) > kMaxElements)
    return failure();
  // On the CPU only: a device given is a string constant.
  if (auto device = dyn_cast_or_null<StringAttr>(operands[2]);
      device && device.getValue() != "cpu")
    return failure();
  SmallTensor tensor;
  bool floats = isa<FloatAttr>(list[0]);
  for (Attribute element : list) {
    std::optional<double> value = numberOf(element);
    if (!value || isa<FloatAttr>(element) != floats)
      return failure();
    tensor.values.push_back(*value);
  }
  tensor.shape.push_back(list.size());
  MLIRContext *context = op->getContext();
  tensor.elementType = elementTypeOf(context, floats ? 6 : 4);
  if (auto dtype = dyn_cast_or_null<IntegerAttr>(operands[1])) {
    tensor.elementType = elementTypeOf(context, dtype.getInt());
    if (!tensor.elementType)
      return failure();
  }
  convertTo(tensor, tensor.elementType);
  results.push_back(toAttribute(tensor));
  return success();
}

/// x.to(dtype) for Long, Float and Double.
LogicalResult evalToDtype(Operation *op, ArrayRef<Attribute> operands,
                          SmallVectorImpl<Attribute> &results) {
  std::optional<SmallTensor> tensor = smallTensor(operands[0]);
  auto dtype = dyn_cast_or_null<IntegerAttr>(operands[1]);
  Type elementType =
      dtype ? elementTypeOf(op->getContext(), dtype.getInt()) : Type();
  if (!tensor || !elementType)
    return failure();
  convertTo(*tensor, elementType);
  results.push_back(toAttribute(*tensor));
  return success();
}

/// NumToTensor(n): a 0-d Long tensor of an int, Double of a float.
LogicalResult evalNumToTensor(Operation *op, ArrayRef<Attribute> operands,
                              SmallVectorImpl<Attribute> &results) {
  std::optional<double> number = numberOf(operands[0]);
  if (!number || isa_and_nonnull<BoolAttr>(operands[0]))
    return failure();
  SmallTensor tensor;
  tensor.elementType =
      elementTypeOf(op->getContext(), isa<FloatAttr>(operands[0]) ? 7 : 4);
  tensor.values = {*number};
  results.push_back(toAttribute(tensor));
  return success();
}

/// x.to(device, dtype, ...) onto the CPU: to(dtype), or x itself.
LogicalResult evalToDevice(Operation *op, ArrayRef<Attribute> operands,
                           SmallVectorImpl<Attribute> &results) {
  auto device = dyn_cast_or_null<StringAttr>(operands[1]);
  if (!device || device.getValue() != "cpu")
    return failure();
  std::optional<SmallTensor> tensor = smallTensor(operands[0]);
  if (!tensor)
    return failure();
  if (auto dtype = dyn_cast_or_null<IntegerAttr>(operands[2])) {
    Type elementType = elementTypeOf(op->getContext(), dtype.getInt());
    if (!elementType)
      return failure();
    convertTo(*tensor, elementType);
  }
  results.push_back(toAttribute(*tensor));
  return success();
}

/// x.detach(): x.
LogicalResult evalDetach(Operation *op, ArrayRef<Attribute> operands,
                         SmallVectorImpl<Attribute> &results) {
  std::optional<SmallTensor> tensor = smallTensor(operands[0]);
  if (!tensor)
    return failure();
  results.push_back(toAttribute(*tensor));
  return success();
}

/// a + b, a - b (alpha 1), a * b, a / b of two tensors of one dtype whose
/// shapes agree or one of which is 0-d; div is true division, so of
/// floating tensors only. Each element is TorchScript's float arithmetic
/// (scalar::applyFloat), computed in double and rounded to the dtype,
/// which for one operation on two float32 values is float32's own result.
template <scalar::BinaryOp Kind>
LogicalResult evalBinary(Operation *op, ArrayRef<Attribute> operands,
                         SmallVectorImpl<Attribute> &results) {
  std::optional<SmallTensor> a = smallTensor(operands[0]);
  std::optional<SmallTensor> b = smallTensor(operands[1]);
  if (!a || !b || (Kind == scalar::BinaryOp::Div && !a->isFloat()))
    return failure();
  if (Kind == scalar::BinaryOp::Add || Kind == scalar::BinaryOp::Sub) {
    std::optional<double> alpha = numberOf(operands[2]);
    if (!alpha || *alpha != 1.0)
      return failure();
  }
  std::optional<SmallTensor> result =
      combine(*a, *b, [](double x, double y) {
        return scalar::applyFloat(Kind, x, y);
      });
  if (!result)
    return failure();
  results.push_back(toAttribute(*result));
  return success();
}

/// floor(x) / ceil(x) of a floating tensor (of an integer one: x).
template <bool IsFloor>
LogicalResult evalRound(Operation *op, ArrayRef<Attribute> operands,
                        SmallVectorImpl<Attribute> &results) {
  std::optional<SmallTensor> tensor = smallTensor(operands[0]);
  if (!tensor)
    return failure();
  for (double &value : tensor->values)
    value = IsFloor ? std::floor(value) : std::ceil(value);
  results.push_back(toAttribute(*tensor));
  return success();
}

/// int(x) / float(x) of a one-element tensor: truncated to an int, or a
/// float.
template <bool IsInt>
LogicalResult evalNumber(Operation *op, ArrayRef<Attribute> operands,
                         SmallVectorImpl<Attribute> &results) {
  std::optional<SmallTensor> tensor = smallTensor(operands[0]);
  if (!tensor || tensor->values.size() != 1 || !std::isfinite(tensor->values[0]))
    return failure();
  Builder builder(op->getContext());
  double value = tensor->values[0];
  results.push_back(IsInt ? Attribute(builder.getI64IntegerAttr(int64_t(value)))
                          : Attribute(builder.getF64FloatAttr(value)));
  return success();
}

/// torch.min(x) / torch.max(x): a 0-d tensor (an empty one raises).
template <bool IsMin>
LogicalResult evalReduce(Operation *op, ArrayRef<Attribute> operands,
                         SmallVectorImpl<Attribute> &results) {
  std::optional<SmallTensor> tensor = smallTensor(operands[0]);
  if (!tensor || tensor->values.empty() ||
      llvm::any_of(tensor->values, [](double v) { return std::isnan(v); }))
    return failure();
  double best = tensor->values.front();
  for (double value : tensor->values)
    best = IsMin ? std::min(best, value) : std::max(best, value);
  tensor->shape.clear();
  tensor->values = {best};
  results.push_back(toAttribute(*tensor));
  return success();
}

/// torch.min(a, b) / torch.max(a, b) of one dtype, where the shapes agree
/// or one is 0-d.
template <bool IsMin>
LogicalResult evalElementwise(Operation *op, ArrayRef<Attribute> operands,
                              SmallVectorImpl<Attribute> &results) {
  std::optional<SmallTensor> a = smallTensor(operands[0]);
  std::optional<SmallTensor> b = smallTensor(operands[1]);
  if (!a || !b)
    return failure();
  std::optional<SmallTensor> result =
      combine(*a, *b, [](double x, double y) -> std::optional<double> {
        if (std::isnan(x) || std::isnan(y))
          return std::nullopt;
        return IsMin ? std::min(x, y) : std::max(x, y);
      });
  if (!result)
    return failure();
  results.push_back(toAttribute(*result));
  return success();
}

/// 1 / x of a floating tensor.
LogicalResult evalReciprocal(Operation *op, ArrayRef<Attribute> operands,
                             SmallVectorImpl<Attribute> &results) {
  std::optional<SmallTensor> tensor = smallTensor(operands[0]);
  if (!tensor || !tensor->isFloat() ||
      llvm::is_contained(tensor->values, 0.0))
    return failure();
  for (double &value : tensor->values)
    value = asElement(tensor->elementType,
                      tensor->elementType.isF32() ? double(1.0f / float(value))
                                                  : 1.0 / value);
  results.push_back(toAttribute(*tensor));
  return success();
}

/// x * s and x / s of a floating tensor and a Python number: the tensor's
/// dtype, computed in it.
template <bool IsDiv>
LogicalResult evalByScalar(Operation *op, ArrayRef<Attribute> operands,
                           SmallVectorImpl<Attribute> &results) {
  std::optional<SmallTensor> tensor = smallTensor(operands[0]);
  std::optional<double> scalar = numberOf(operands[1]);
  if (!tensor || !scalar || !tensor->isFloat() || (IsDiv && *scalar == 0))
    return failure();
  for (double &value : tensor->values) {
    if (tensor->elementType.isF32())
      value = IsDiv ? float(value) / float(*scalar)
                    : float(value) * float(*scalar);
    else
      value = IsDiv ? value / *scalar : value * *scalar;
  }
  results.push_back(toAttribute(*tensor));
  return success();
}

/// x.item() of a one-element tensor: a float, or an int for a Long one.
LogicalResult evalItem(Operation *op, ArrayRef<Attribute> operands,
                       SmallVectorImpl<Attribute> &results) {
  std::optional<SmallTensor> tensor = smallTensor(operands[0]);
  if (!tensor || tensor->values.size() != 1)
    return failure();
  Builder builder(op->getContext());
  results.push_back(tensor->isFloat()
                        ? Attribute(builder.getF64FloatAttr(tensor->values[0]))
                        : Attribute(builder.getI64IntegerAttr(
                              int64_t(tensor->values[0]))));
  return success();
}

} // namespace

void tsir::registerTensorEvaluators(ConstantEvaluatorTable &table) {
  using namespace tsir::aten;
  table.add<TensorOp>(evalTensorOfList);
  table.add<ToDtypeOp>(evalToDtype);
  table.add<MinOp>(evalReduce<true>);
  table.add<MaxOp>(evalReduce<false>);
  table.add<MinOtherOp>(evalElementwise<true>);
  table.add<MaxOtherOp>(evalElementwise<false>);
  table.add<ReciprocalOp>(evalReciprocal);
  table.add<MulScalarOp>(evalByScalar<false>);
  table.add<DivScalarOp>(evalByScalar<true>);
  table.add<ItemOp>(evalItem);
  table.add<prim::NumToTensorOp>(evalNumToTensor);
  table.add<ToDeviceOp>(evalToDevice);
  table.add<DetachOp>(evalDetach);
  table.add<AddTensorOp>(evalBinary<scalar::BinaryOp::Add>);
  table.add<SubTensorOp>(evalBinary<scalar::BinaryOp::Sub>);
  table.add<MulTensorOp>(evalBinary<scalar::BinaryOp::Mul>);
  table.add<DivTensorOp>(evalBinary<scalar::BinaryOp::Div>);
  table.add<FloorOp>(evalRound<true>);
  table.add<CeilOp>(evalRound<false>);
  table.add<IntTensorOp>(evalNumber<true>);
  table.add<FloatTensorOp>(evalNumber<false>);
}
