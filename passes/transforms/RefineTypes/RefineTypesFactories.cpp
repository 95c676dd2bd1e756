//===- RefineTypesFactories.cpp - Factory and conversion rules ------------===//
//
// tsir-refine-types' rules for the ops that make tensors from nothing or
// change only their dtype or device: factories (zeros, full, arange, eye,
// zeros_like, new_zeros, tensor literals), `to`/`type_as`/`cpu`,
// `view(dtype)`, `NumToTensor` and tensor constants. Unspecified dtypes
// take torch's defaults (Float; Long for integer aranges and randint; the
// fill value's kind for full) and unspecified devices are the CPU.
//
//===----------------------------------------------------------------------===//

#include "RefineTypesRules.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace tsir;
using namespace tsir::refine;

//===----------------------------------------------------------------------===//
// Factories and conversions
//===----------------------------------------------------------------------===//

/// Sizes from an `int[]` argument: unknown entries stay unknown; a negative
/// entry (an error at run time) gives nothing.
static std::optional<SmallVector<int64_t, 4>>
sizesFromList(const RuleContext &context, Value list) {
  if (!list)
    return std::nullopt;
  auto entries = context.getIntList(list);
  if (!entries)
    return std::nullopt;
  SmallVector<int64_t, 4> sizes;
  for (std::optional<int64_t> entry : *entries) {
    if (entry && *entry < 0)
      return std::nullopt;
    sizes.push_back(entry ? *entry : kUnknown);
  }
  return sizes;
}

/// A `dtype` argument: `fallback` when None, the constant's dtype, or null
/// when not known.
static Type dtypeArgOr(const RuleContext &context, Value arg, Type fallback) {
  if (!arg || context.isNone(arg))
    return fallback;
  return context.getDtypeArg(arg);
}

/// A `device` argument: `fallback` when None, else the constant's device.
static StringAttr deviceArgOr(const RuleContext &context, Value arg,
                              StringAttr fallback) {
  if (!arg || context.isNone(arg))
    return fallback;
  return context.getDeviceArg(arg);
}

/// A factory only makes a strided tensor when its layout is None or strided
/// (0); sparse layouts have other facts.
static bool isStridedLayout(const RuleContext &context, Operation *op) {
  Value layout = namedOperand(op, "layout");
  if (!layout || context.isNone(layout))
    return true;
  std::optional<int64_t> code = context.getInt(layout);
  return code && *code == 0;
}

static StringAttr cpuDevice(MLIRContext *context) {
  return StringAttr::get(context, "cpu");
}

/// zeros/ones/empty/rand/randn/full/randint/randperm/eye/linspace/arange:
/// a new tensor of the given sizes, dtype and device.
static void factoryRule(Operation *op, RuleContext &context,
                        MutableArrayRef<Type> results) {
  if (!isStridedLayout(context, op))
    return;
  MLIRContext *ctx = context.getContext();
  StringRef name = op->getName().getStringRef();
  TensorFacts result;
  Type fallback = defaultFloatDtype(ctx);
  if (name == "aten.full") {
    fallback = context.scalarDtype(namedOperand(op, "fill_value"));
  } else if (name.starts_with("aten.randint") || name == "aten.randperm") {
    fallback = longDtype(ctx);
  } else if (name.starts_with("aten.arange")) {
    // Integers give Long; any floating bound gives the default dtype.
    fallback = longDtype(ctx);
    for (StringRef bound : {"start", "end", "step"}) {
      Value value = namedOperand(op, bound);
      if (!value)
        continue;
      Type dtype = context.scalarDtype(value);
      if (!dtype) {
        fallback = {};
        break;
      }
      if (!isIntegralDtype(dtype))
        fallback = dtype;
    }
  }
  result.dtype = dtypeArgOr(context, namedOperand(op, "dtype"), fallback);
  result.device =
      deviceArgOr(context, namedOperand(op, "device"), cpuDevice(ctx));

  if (Value size = namedOperand(op, "size")) {
    result.sizes = sizesFromList(context, size);
  } else if (name == "aten.eye") {
    std::optional<int64_t> n = context.getInt(op->getOperand(0));
    int64_t size = n && *n >= 0 ? *n : kUnknown;
    result.sizes = SmallVector<int64_t, 4>{size, size};
  } else if (name == "aten.linspace" || name == "aten.randperm") {
    std::optional<int64_t> n = context.getInt(
        namedOperand(op, name == "aten.linspace" ? "steps" : "n"));
    result.sizes = SmallVector<int64_t, 4>{n && *n >= 0 ? *n : kUnknown};
  } else if (name.starts_with("aten.arange")) {
    Value startArg = namedOperand(op, "start"),
          stepArg = namedOperand(op, "step");
    std::optional<double> start = startArg ? context.getFloat(startArg) : 0.0;
    std::optional<double> end = context.getFloat(namedOperand(op, "end"));
    std::optional<double> step = stepArg ? context.getFloat(stepArg) : 1.0;
    int64_t size = kUnknown;
    if (start && end && step && *step != 0) {
      double count = std::ceil((*end - *start) / *step);
      if (count >= 0)
        size = static_cast<int64_t>(count);
    }
    result.sizes = SmallVector<int64_t, 4>{size};
  }
  setResult(context, results, 0, result);
}

/// zeros_like & co: the input's sizes, its dtype and device unless given.
static void likeRule(Operation *op, RuleContext &context,
                     MutableArrayRef<Type> results) {
  if (!isStridedLayout(context, op))
    return;
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts result = self;
  result.dtype = dtypeArgOr(context, namedOperand(op, "dtype"), self.dtype);
  result.device = deviceArgOr(context, namedOperand(op, "device"), self.device);
  setResult(context, results, 0, result);
}

/// new_zeros & co: the given sizes, the input's dtype and device unless
/// given.
static void newFactoryRule(Operation *op, RuleContext &context,
                           MutableArrayRef<Type> results) {
  if (!isStridedLayout(context, op))
    return;
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts result;
  result.sizes = sizesFromList(context, namedOperand(op, "size"));
  result.dtype = dtypeArgOr(context, namedOperand(op, "dtype"), self.dtype);
  result.device = deviceArgOr(context, namedOperand(op, "device"), self.device);
  setResult(context, results, 0, result);
}

/// The dtype of a scalar as `torch.tensor(x)` stores it: int Long, float
/// the default dtype, bool Bool.
static Type tensorDtypeOfScalarType(MLIRContext *context, Type type) {
  if (type.isInteger(64))
    return longDtype(context);
  if (type.isF64())
    return defaultFloatDtype(context);
  if (type.isInteger(1))
    return boolDtype(context);
  if (isa<ComplexType>(type))
    return defaultComplexDtype(context);
  return {};
}

/// The sizes of nested list literals of scalars (`[[1, 2], [3, 4]]`), and
/// the scalar type at the bottom; nothing if a list may be written or the
/// nesting is ragged.
static bool nestedListShape(const RuleContext &context, Value list,
                            SmallVectorImpl<int64_t> &sizes, Type &scalar) {
  auto listType = dyn_cast<prim::ListType>(list.getType());
  if (!listType) {
    scalar = list.getType();
    return true;
  }
  // A list constant (`image_mean = [0.485, 0.456, 0.406]` of a frozen
  // module) is a list of scalars.
  if (auto constant = list.getDefiningOp<prim::ConstantOp>()) {
    auto elements = dyn_cast_or_null<ArrayAttr>(constant.getValue());
    if (!elements || isa<prim::ListType>(listType.getElementType()) ||
        isa<prim::TensorType>(listType.getElementType()) ||
        context.getAliases().hasWriters(list))
      return false;
    sizes.push_back(elements.size());
    scalar = listType.getElementType();
    return true;
  }
  auto construct = list.getDefiningOp<prim::ListConstructOp>();
  if (!construct || context.getAliases().hasWriters(list))
    return false;
  sizes.push_back(construct.getElements().size());
  if (!isa<prim::ListType>(listType.getElementType())) {
    // Lists of tensors stack them: their sizes would be part of the shape.
    scalar = listType.getElementType();
    return !isa<prim::TensorType>(scalar);
  }
  if (construct.getElements().empty())
    return false;
  SmallVector<int64_t> inner;
  for (auto [index, element] : llvm::enumerate(construct.getElements())) {
    SmallVector<int64_t> elementSizes;
    if (!nestedListShape(context, element, elementSizes, scalar))
      return false;
    if (index > 0 && elementSizes != inner)
      return false;
    inner = elementSizes;
  }
  sizes.append(inner.begin(), inner.end());
  return true;
}

/// torch.tensor / torch.as_tensor of scalars and list literals.
static void tensorLiteralRule(Operation *op, RuleContext &context,
                              MutableArrayRef<Type> results) {
  MLIRContext *ctx = context.getContext();
  Value data = op->getOperand(0);
  TensorFacts result;
  if (isa<prim::TensorType>(data.getType())) { // as_tensor(Tensor)
    TensorFacts input = context.tensor(data);
    result = input;
    result.dtype = dtypeArgOr(context, namedOperand(op, "dtype"), input.dtype);
    result.device =
        deviceArgOr(context, namedOperand(op, "device"), input.device);
    setResult(context, results, 0, result);
    return;
  }
  SmallVector<int64_t> sizes;
  Type scalar;
  if (nestedListShape(context, data, sizes, scalar))
    result.sizes.emplace(sizes.begin(), sizes.end());
  else
    scalar = {};
  Type fallback = scalar ? tensorDtypeOfScalarType(ctx, scalar) : Type();
  result.dtype = dtypeArgOr(context, namedOperand(op, "dtype"), fallback);
  result.device =
      deviceArgOr(context, namedOperand(op, "device"), cpuDevice(ctx));
  setResult(context, results, 0, result);
}

/// scalar_tensor: 0-d, the default dtype unless given (even for ints).
static void scalarTensorRule(Operation *op, RuleContext &context,
                             MutableArrayRef<Type> results) {
  MLIRContext *ctx = context.getContext();
  TensorFacts result;
  result.sizes.emplace();
  result.dtype =
      dtypeArgOr(context, namedOperand(op, "dtype"), defaultFloatDtype(ctx));
  result.device =
      deviceArgOr(context, namedOperand(op, "device"), cpuDevice(ctx));
  setResult(context, results, 0, result);
}

/// prim::NumToTensor: a 0-d CPU tensor of the scalar's own precision (int
/// Long, float Double, bool Bool).
static void numToTensorRule(Operation *op, RuleContext &context,
                            MutableArrayRef<Type> results) {
  MLIRContext *ctx = context.getContext();
  Type type = op->getOperand(0).getType();
  TensorFacts result;
  if (type.isInteger(64))
    result.dtype = longDtype(ctx);
  else if (type.isF64())
    result.dtype = Float64Type::get(ctx);
  else if (type.isInteger(1))
    result.dtype = boolDtype(ctx);
  else if (isa<ComplexType>(type))
    result.dtype = ComplexType::get(Float64Type::get(ctx));
  result.sizes.emplace();
  result.device = cpuDevice(ctx);
  setResult(context, results, 0, result);
}

/// A tensor constant: the sizes and dtype of its elements attribute.
static void constantRule(Operation *op, RuleContext &context,
                         MutableArrayRef<Type> results) {
  auto constant = cast<prim::ConstantOp>(op);
  auto elements = dyn_cast<ElementsAttr>(constant.getValue());
  if (!isa<prim::TensorType>(constant.getType()) || !elements)
    return;
  ShapedType shaped = elements.getShapedType();
  TensorFacts result;
  if (!prim::torchNameOfDtype(shaped.getElementType()).empty())
    result.dtype = shaped.getElementType();
  if (shaped.hasStaticShape())
    result.sizes.emplace(shaped.getShape().begin(), shaped.getShape().end());
  setResult(context, results, 0, result);
}

/// Every `to` overload, `type_as` and `cpu`: the input's sizes with the
/// requested dtype and device.
static void conversionRule(Operation *op, RuleContext &context,
                           MutableArrayRef<Type> results) {
  StringRef name = op->getName().getStringRef();
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts result = self;
  if (name == "aten.to.other") {
    TensorFacts other = context.tensor(op->getOperand(1));
    result.dtype = other.dtype;
    result.device = other.device;
  } else if (name == "aten.type_as") {
    // self.to(other.options()): the device follows too.
    TensorFacts other = context.tensor(op->getOperand(1));
    result.dtype = other.dtype;
    result.device = other.device;
  } else if (name == "aten.cpu") {
    result.device = cpuDevice(context.getContext());
  } else {
    result.dtype = dtypeArgOr(context, namedOperand(op, "dtype"), self.dtype);
    result.device =
        deviceArgOr(context, namedOperand(op, "device"), self.device);
  }
  setResult(context, results, 0, result);
}

/// The size in bytes of one element of `dtype` (a quantized dtype's is
/// its storage integer's; QUInt4x2 packs two in a byte), or 0 if unknown.
static unsigned byteSize(Type dtype) {
  if (auto complex = dyn_cast<ComplexType>(dtype))
    return 2 * byteSize(complex.getElementType());
  if (auto quantized = dyn_cast<prim::QuantizedType>(dtype))
    dtype = quantized.getStorageType();
  if (!dtype.isIntOrFloat())
    return 0;
  return std::max(1u, dtype.getIntOrFloatBitWidth() / 8);
}

/// view.dtype: reinterprets the last dim's bytes.
static void viewDtypeRule(Operation *op, RuleContext &context,
                          MutableArrayRef<Type> results) {
  TensorFacts self = context.tensor(op->getOperand(0));
  TensorFacts result = self;
  result.dtype = context.getDtypeArg(op->getOperand(1));
  if (!result.dtype || !self.dtype || !byteSize(self.dtype) ||
      !byteSize(result.dtype)) {
    result.sizes.reset();
  } else if (byteSize(self.dtype) != byteSize(result.dtype) && self.sizes) {
    unsigned from = byteSize(self.dtype), to = byteSize(result.dtype);
    if (self.rank() == 0) {
      result.sizes.reset();
    } else {
      int64_t &last = result.sizes->back();
      if (last != kUnknown)
        last = from > to ? last * (from / to) : last / (to / from);
    }
  }
  setResult(context, results, 0, result);
}

void refine::addFactoryRules(llvm::StringMap<ShapeRule> &rules) {
  auto add = [&](std::initializer_list<StringRef> names, ShapeRule rule) {
    for (StringRef name : names)
      rules[(Twine("aten.") + name).str()] = rule;
  };
  add({"zeros", "ones", "full", "empty.memory_format", "rand", "rand.generator",
       "randn", "randn.generator", "randint", "randint.low", "randperm", "eye",
       "linspace", "arange", "arange.start", "arange.start_step"},
      factoryRule);
  add({"zeros_like", "ones_like", "full_like", "empty_like", "rand_like",
       "randn_like"},
      likeRule);
  add({"new_zeros", "new_ones", "new_full"}, newFactoryRule);
  add({"tensor", "tensor.float", "tensor.int", "tensor.bool", "as_tensor",
       "as_tensor.list", "as_tensor.float", "as_tensor.int", "as_tensor.bool"},
      tensorLiteralRule);
  add({"scalar_tensor"}, scalarTensorRule);
  add({"to.dtype", "to.device", "to.dtype_layout", "to.other", "to.prim_Device",
       "to.prim_dtype", "type_as", "cpu"},
      conversionRule);
  add({"view.dtype"}, viewDtypeRule);
  rules["prim.NumToTensor"] = numToTensorRule;
  rules["prim.Constant"] = constantRule;
}
