//===- MLIRGenConstants.cpp - Constants, weights and node attributes -----===//
//
// prim::Constant values as typed attributes (inline tensors as dense
// elements, `<Tensor>` weights as dense_resource blobs from the weights
// file or #prim.tensor_ref without it, quantized tensors, lists of
// tensors as weight lists) and the attributes of other nodes, for MLIRGen
// (MLIRGen.h).
//
//===----------------------------------------------------------------------===//

#include "MLIRGen.h"

#include "OverloadResolution.h"
#include "SchemaTypes.h"
#include "SubgraphSections.h"
#include "Weights.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Importer/Parser.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/ScopedHashTable.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <complex>

using namespace mlir;
using namespace tsir;
using namespace tsir::detail;
namespace prim = tsir::prim;

//===----------------------------------------------------------------------===//
// Constants and attributes
//===----------------------------------------------------------------------===//

/// Whether `v` converts to int64_t without undefined behaviour.
static bool fitsInt64(double v) { return v >= -0x1p63 && v < 0x1p63; }

Attribute MLIRGen::convertInlineTensor(const ts::AttrValue &value,
                                       Type declared) {
  StringRef dtypeName = value.tensorDtype;
  Type dtype;
  auto declaredTensor = dyn_cast_or_null<prim::TensorType>(declared);
  if (dtypeName.empty() && declaredTensor && declaredTensor.getDtype()) {
    // The 2019 `{1}` form does not print a dtype; the node's type may.
    dtype = declaredTensor.getDtype();
  } else if (dtypeName.empty()) {
    // Nor does anything else here: integral values are Long.
    bool integral = llvm::all_of(value.tensorValues, [](double v) {
      return fitsInt64(v) && v == std::trunc(v);
    });
    dtype = integral ? prim::dtypeFromTorchName(context, "Long")
                     : prim::dtypeFromTorchName(context, "Double");
  } else {
    dtype = prim::dtypeFromTorchName(context, dtypeName);
  }
  if (auto quantized = dyn_cast_or_null<prim::QuantizedType>(dtype))
    return convertQuantizedTensor(value, quantized);
  if (value.quantizer) {
    error(value.quantizer->pos)
        << "a quantizer on an inline tensor of dtype '" << dtypeName
        << "', which is not a quantized dtype";
    return {};
  }
  if (!dtype || isa<ComplexType>(dtype)) {
    error(value.pos) << "inline tensor of dtype '" << dtypeName
                     << "' is not supported";
    return {};
  }
  // torch prints every one-element tensor as `{v}` and reads its sizes
  // back from the node's type (`Long(1, 1)`), where the type gives them.
  ArrayRef<int64_t> shape = value.tensorShape;
  if (dtypeName.empty() && value.tensorValues.size() == 1 && declaredTensor &&
      declaredTensor.getHasSizes() &&
      llvm::all_of(declaredTensor.getSizes(), [](int64_t size) {
        return size == 1;
      }))
    shape = declaredTensor.getSizes();
  int64_t numElements = 1;
  for (int64_t dim : shape)
    numElements *= dim;
  if (numElements != static_cast<int64_t>(value.tensorValues.size())) {
    error(value.pos) << "inline tensor prints " << value.tensorValues.size()
                     << " values but its shape holds " << numElements;
    return {};
  }
  auto type = RankedTensorType::get(shape, dtype);
  if (auto floatType = dyn_cast<FloatType>(dtype)) {
    SmallVector<APFloat> values;
    for (double v : value.tensorValues) {
      APFloat f(v);
      bool lost;
      APFloat::opStatus status = f.convert(floatType.getFloatSemantics(),
                                           APFloat::rmNearestTiesToEven, &lost);
      // Rounding is expected (torch prints rounded values); a finite value
      // that becomes infinite in the dtype is not what the graph holds.
      if (status & APFloat::opOverflow) {
        error(value.pos) << "inline tensor value " << v
                         << " does not fit its dtype "
                         << prim::torchNameOfDtype(dtype);
        return {};
      }
      values.push_back(f);
    }
    return DenseElementsAttr::get(type, values);
  }
  // Integer and bool values must be integers the dtype holds: torch prints
  // them exactly, so anything else (300 in a Char tensor, 0.5 in a Long
  // one, 2 in a Bool one) is a malformed graph, not something to wrap or
  // truncate silently.
  auto intType = cast<IntegerType>(dtype);
  unsigned width = intType.getWidth();
  bool isUnsigned = intType.isUnsigned() || width == 1;
  auto fits = [&](int64_t v) {
    return isUnsigned ? v >= 0 && llvm::isUIntN(width, v)
                      : llvm::isIntN(width, v);
  };
  auto rejectValue = [&](auto v) {
    error(value.pos) << "inline tensor value " << v
                     << " does not fit its dtype "
                     << prim::torchNameOfDtype(dtype);
    return Attribute();
  };
  SmallVector<APInt> values;
  if (value.tensorInts.size() == value.tensorValues.size()) {
    // The printed integers exactly: int64 values above 2^53 have no double.
    for (int64_t v : value.tensorInts) {
      if (!fits(v))
        return rejectValue(v);
      values.push_back(APInt(width, v, /*isSigned=*/!isUnsigned,
                             /*implicitTrunc=*/true));
    }
    return DenseElementsAttr::get(type, values);
  }
  for (double v : value.tensorValues) {
    // Converting inf, nan or a double beyond int64 to an integer is
    // undefined behaviour, so range-check before converting.
    if (!fitsInt64(v) || v != std::trunc(v) || !fits(static_cast<int64_t>(v)))
      return rejectValue(v);
    values.push_back(APInt(width, static_cast<int64_t>(v),
                           /*isSigned=*/!isUnsigned, /*implicitTrunc=*/true));
  }
  return DenseElementsAttr::get(type, values);
}

/// An inline quantized tensor: the printed (dequantized) values and the
/// quantizer as printed; or, for the boxed scalar torch prints for one
/// element (`{0.3}`), the value alone.
Attribute MLIRGen::convertQuantizedTensor(const ts::AttrValue &value,
                                          prim::QuantizedType dtype) {
  auto f64 = builder.getF64Type();
  auto valuesType = RankedTensorType::get(value.tensorShape, f64);
  auto values =
      DenseElementsAttr::get(valuesType, ArrayRef<double>(value.tensorValues));
  const ts::Quantizer *q = value.quantizer.get();
  if (!q)
    return prim::QuantizedTensorAttr::get(context, values, dtype, {}, {}, {},
                                          {});
  // Formatting.cpp prints `scale:`/`zero_point:` for a per-tensor affine
  // quantizer and `scales:`/`zero_points:`/`axis:` for a per-channel one.
  bool perTensor = q->scale || q->zeroPoint;
  bool perChannel = q->scales || q->zeroPoints || q->axis;
  if (perTensor && perChannel) {
    error(q->pos) << "a quantizer is per tensor ('scale', 'zero_point') or "
                     "per channel ('scales', 'zero_points', 'axis'), not both";
    return {};
  }
  DenseElementsAttr scales, zeroPoints;
  IntegerAttr axis;
  if (perTensor) {
    if (!q->scale || !q->zeroPoint) {
      error(q->pos) << "a per-tensor quantizer needs both 'scale' and "
                       "'zero_point'";
      return {};
    }
    scales = DenseElementsAttr::get(RankedTensorType::get({}, f64), *q->scale);
    zeroPoints = DenseElementsAttr::get(
        RankedTensorType::get({},
                              builder.getIntegerType(64, /*isSigned=*/true)),
        APInt(64, *q->zeroPoint, /*isSigned=*/true));
  } else if (perChannel) {
    if (!q->scales || !q->zeroPoints || !q->axis) {
      error(q->pos) << "a per-channel quantizer needs 'scales', "
                       "'zero_points' and 'axis'";
      return {};
    }
    scales =
        dyn_cast_or_null<DenseElementsAttr>(convertInlineTensor(*q->scales));
    zeroPoints = scales ? dyn_cast_or_null<DenseElementsAttr>(
                              convertInlineTensor(*q->zeroPoints))
                        : DenseElementsAttr();
    if (!zeroPoints)
      return {};
    axis = builder.getI64IntegerAttr(*q->axis);
  }
  auto emitError = [&] { return error(q->pos); };
  return prim::QuantizedTensorAttr::getChecked(
      emitError, context, values, Type(dtype),
      builder.getStringAttr(q->qscheme), scales, zeroPoints, axis);
}

Attribute MLIRGen::convertWeight(const WeightTensor &weight, StringRef name,
                                 ts::SourcePos pos) {
  Type dtype = llvm::StringSwitch<Type>(weight.dtype)
                   .Case("F32", builder.getF32Type())
                   .Case("F64", builder.getF64Type())
                   .Case("F16", builder.getF16Type())
                   .Case("BF16", builder.getBF16Type())
                   .Case("I64", builder.getIntegerType(64, true))
                   .Case("I32", builder.getIntegerType(32, true))
                   .Case("I16", builder.getIntegerType(16, true))
                   .Case("I8", builder.getIntegerType(8, true))
                   .Case("U8", builder.getIntegerType(8, false))
                   .Case("BOOL", builder.getI1Type())
                   .Default(Type());
  if (!dtype) {
    error(pos) << "weight '" << name << "' has unsupported dtype "
               << weight.dtype;
    return {};
  }
  auto type = RankedTensorType::get(weight.shape, dtype);
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      weight.data, alignof(uint64_t));
  return DenseResourceElementsAttr::get(type, name, std::move(blob));
}

/// A weight must have the dtype and sizes its constant declares, where the
/// declared type says them.
LogicalResult MLIRGen::checkWeightFits(ShapedType weight,
                                       prim::TensorType declared,
                                       StringRef name, ts::SourcePos pos) {
  bool fits =
      !declared.getDtype() || declared.getDtype() == weight.getElementType();
  if (fits && declared.getHasSizes()) {
    ArrayRef<int64_t> sizes = declared.getSizes();
    fits = sizes.size() == static_cast<size_t>(weight.getRank());
    for (size_t i = 0; fits && i < sizes.size(); ++i)
      fits = sizes[i] < 0 || sizes[i] == weight.getDimSize(i);
  }
  if (fits)
    return success();
  error(pos) << "weight '" << name << "' in " << weights->getPath() << " is "
             << weight << ", which does not fit the constant's type "
             << declared;
  return failure();
}

Attribute MLIRGen::convertConstant(const ts::AttrValue &value, Type type,
                                   StringRef valueName) {
  using Kind = ts::AttrValue::Kind;
  auto mismatch = [&]() -> Attribute {
    error(value.pos) << "constant value does not fit its type " << type;
    return {};
  };
  if (auto optional = dyn_cast<prim::OptionalType>(type)) {
    // `None` reads as the type NoneType; in a constant it is the value.
    if (value.kind == Kind::Type && value.type &&
        value.type->kind == ts::TypeExpr::Kind::None)
      return UnitAttr::get(context);
    return convertConstant(value, optional.getElementType(), valueName);
  }
  if (auto complex = dyn_cast<ComplexType>(type)) {
    if (value.kind != Kind::Complex && value.kind != Kind::Float &&
        value.kind != Kind::Int)
      return mismatch();
    double real = value.kind == Kind::Int ? static_cast<double>(value.intValue)
                                          : value.floatValue;
    double imag = value.kind == Kind::Complex ? value.imagValue : 0;
    return builder.getArrayAttr(
        {builder.getF64FloatAttr(real), builder.getF64FloatAttr(imag)});
  }
  if (type.isInteger(64)) {
    if (value.kind == Kind::Int)
      return builder.getI64IntegerAttr(value.intValue);
    if (value.kind == Kind::Bool)
      return builder.getI64IntegerAttr(value.boolValue);
    return mismatch();
  }
  if (type.isInteger(1)) {
    if (value.kind == Kind::Int && (value.intValue == 0 || value.intValue == 1))
      return builder.getBoolAttr(value.intValue);
    if (value.kind == Kind::Bool)
      return builder.getBoolAttr(value.boolValue);
    return mismatch();
  }
  if (type.isF64()) {
    if (value.kind == Kind::Float)
      return builder.getF64FloatAttr(value.floatValue);
    if (value.kind == Kind::Int)
      return builder.getF64FloatAttr(static_cast<double>(value.intValue));
    return mismatch();
  }
  if (isa<prim::NumberType, prim::AnyType>(type)) {
    if (value.kind == Kind::Complex)
      return convertConstant(value, ComplexType::get(builder.getF64Type()),
                             valueName);
    if (value.kind == Kind::Int)
      return builder.getI64IntegerAttr(value.intValue);
    if (value.kind == Kind::Float)
      return builder.getF64FloatAttr(value.floatValue);
    return mismatch();
  }
  if (isa<prim::StrType, prim::DeviceType, prim::FunctionType>(type)) {
    if (value.kind == Kind::Str)
      return builder.getStringAttr(value.str);
    return mismatch();
  }
  if (auto enumType = dyn_cast<prim::EnumType>(type)) {
    // `__torch__.Color.RED` reads as a qualified name: the enum's, then the
    // member's.
    StringRef member;
    if (value.kind == Kind::Type && value.type &&
        value.type->kind == ts::TypeExpr::Kind::Class) {
      StringRef name = value.type->name;
      if (name.consume_front(enumType.getName()) && name.consume_front("."))
        member = name;
    }
    if (member.empty() || member.contains('.')) {
      error(value.pos) << "expected a member of " << enumType.getName()
                       << " such as '" << enumType.getName() << ".NAME'";
      return {};
    }
    return prim::EnumMemberAttr::get(context, enumType.getName(), member);
  }
  if (isa<prim::TensorType>(type)) {
    if (value.kind == Kind::Tensor)
      return convertInlineTensor(value, type);
    if (value.kind == Kind::TensorRef)
      return prim::TensorRefAttr::get(context, valueName);
    return mismatch();
  }
  if (auto list = dyn_cast<prim::ListType>(type)) {
    const ts::AttrValue *items = &value;
    if (value.kind == Kind::Annotated && !value.elements.empty())
      items = &value.elements[0];
    if (items->kind != Kind::List)
      return mismatch();
    SmallVector<Attribute> elements;
    for (const ts::AttrValue &item : items->elements) {
      Attribute element =
          convertConstant(item, list.getElementType(), valueName);
      if (!element)
        return {};
      elements.push_back(element);
    }
    return builder.getArrayAttr(elements);
  }
  if (auto tuple = dyn_cast<prim::TupleType>(type)) {
    if (value.kind != Kind::Tuple ||
        value.elements.size() != tuple.getTypes().size())
      return mismatch();
    SmallVector<Attribute> elements;
    for (auto [item, elementType] :
         llvm::zip(value.elements, tuple.getTypes())) {
      Attribute element = convertConstant(item, elementType, valueName);
      if (!element)
        return {};
      elements.push_back(element);
    }
    return builder.getArrayAttr(elements);
  }
  return mismatch();
}

/// The type of a constant written without one, from its value: what the
/// value is when torch runs the node.
Type MLIRGen::inferConstantType(const ts::AttrValue &value) {
  using Kind = ts::AttrValue::Kind;
  switch (value.kind) {
  case Kind::Int:
    return builder.getI64Type();
  case Kind::Float:
    return builder.getF64Type();
  case Kind::Bool:
    return builder.getI1Type();
  case Kind::Complex:
    return ComplexType::get(builder.getF64Type());
  case Kind::Str:
    return prim::StrType::get(context);
  case Kind::List: {
    if (value.elements.empty())
      return {};
    Type element = inferConstantType(value.elements.front());
    for (const ts::AttrValue &item : value.elements)
      if (!element || inferConstantType(item) != element)
        return {};
    return prim::ListType::get(context, element);
  }
  case Kind::Tuple: {
    SmallVector<Type> types;
    for (const ts::AttrValue &item : value.elements) {
      Type t = inferConstantType(item);
      if (!t)
        return {};
      types.push_back(t);
    }
    return prim::TupleType::get(context, types);
  }
  case Kind::Annotated:
    return value.type ? convertType(*value.type) : Type();
  default:
    return {}; // tensors: the Tensor type torch gives it
  }
}

bool MLIRGen::hasWeight(StringRef name) const {
  return weights ? weights->lookup(name) != nullptr
                 : runtimeWeights.contains(name);
}

FailureOr<Operation *>
MLIRGen::emitTensorListConstant(const ts::NamedAttr &attr, Type type,
                                StringRef name, Location loc) {
  // `%l : Tensor[] = prim::Constant[value=[<Tensor>, <Tensor>]]()`, which
  // freezing makes of a module's list of parameters (nn.LSTM's, Swin v2's
  // index): element i is the weight `name[i]` (`[` is in no value name), a
  // constant of its own, and the list is built of them, so that each is a
  // weight like any other downstream. torch 1.13 prints nn.LSTM's
  // `_flat_weights` as `[<Tensors>]`, without a count: its elements are
  // then the weights name[0], name[1], ... that hasWeight finds.
  auto list = dyn_cast<prim::ListType>(type);
  if (!list)
    return static_cast<Operation *>(nullptr);
  Type element = list.getElementType();
  if (auto optional = dyn_cast<prim::OptionalType>(element))
    element = optional.getElementType();
  auto tensorType = dyn_cast<prim::TensorType>(element);
  const ts::AttrValue *items = &attr.value;
  if (items->kind == ts::AttrValue::Kind::Annotated && !items->elements.empty())
    items = &items->elements[0];
  if (!tensorType || items->kind != ts::AttrValue::Kind::List)
    return static_cast<Operation *>(nullptr);
  size_t count = items->elements.size();
  if (count == 1 &&
      items->elements[0].kind == ts::AttrValue::Kind::TensorListRef) {
    count = 0;
    while (hasWeight((name + "[" + Twine(count) + "]").str()))
      ++count;
    if (count == 0) {
      error(attr.pos) << "the list constant %" << name
                      << " prints as [<Tensors>], without its elements, "
                         "and no weights hold them: give a weights file "
                         "with '"
                      << name << "[0]', '" << name << "[1]', ... ("
                      << "tsir.save_weights writes them)";
      return failure();
    }
  } else if (!llvm::all_of(items->elements, [](const ts::AttrValue &item) {
               return item.kind == ts::AttrValue::Kind::TensorRef;
             })) {
    return static_cast<Operation *>(nullptr);
  }
  SmallVector<Value> elements;
  for (size_t i = 0; i < count; ++i) {
    std::string elementName = (name + "[" + Twine(i) + "]").str();
    // Without a weights file (the executor binds weights when it runs), a
    // reference by name, as for any `<Tensor>`.
    Attribute value = prim::TensorRefAttr::get(context, elementName);
    if (weights) {
      const WeightTensor *weight = weights->lookup(elementName);
      if (!weight) {
        error(attr.pos) << "weight '" << elementName << "' (element " << i
                        << " of the list constant %" << name << ") is not in "
                        << weights->getPath();
        return failure();
      }
      value = convertWeight(*weight, elementName, attr.pos);
      if (!value)
        return failure();
    }
    elements.push_back(
        prim::ConstantOp::create(builder, loc, tensorType, value));
  }
  return prim::ListConstructOp::create(builder, loc, list, elements)
      .getOperation();
}

Operation *MLIRGen::emitConstant(const ts::Node &node,
                                 ArrayRef<Type> resultTypes, Location loc) {
  if (resultTypes.size() != 1 || !node.inputs.empty() || !node.blocks.empty()) {
    error(node.pos) << "prim::Constant takes no inputs or blocks and has one "
                       "output";
    return nullptr;
  }
  Type type = resultTypes.front();
  StringRef name = node.outputs.front().name;
  Attribute value;
  // The profiling executor's fallback function, `%f : Function =
  // prim::Constant[name="fallback_function", fallback=1]()`, has no value
  // tsir could call: it stays a generic node, which exports as written
  // (the branch that calls it folds away once its guard does). Any other
  // constant has one attribute.
  auto isFallbackFunction = [&] {
    return isa<prim::FunctionType>(type) && node.attrs.size() == 2 &&
           llvm::all_of(node.attrs, [](const ts::NamedAttr &a) {
             return a.name == "name" || a.name == "fallback";
           }) &&
           node.attrs[0].name != node.attrs[1].name;
  };
  if (isFallbackFunction())
    return emitGeneric(node, {}, resultTypes, loc);
  const ts::NamedAttr *attr = nullptr;
  for (const ts::NamedAttr &a : node.attrs) {
    if (attr) {
      error(a.pos) << "prim::Constant takes one attribute";
      return nullptr;
    }
    attr = &a;
  }
  if (attr && attr->name == "value" && node.outputs.front().type->implicit) {
    // `%c = prim::Constant[value=1]()`: torch types the output Tensor but
    // makes the value an int when it runs; tsir types it by its value.
    if (Type inferred = inferConstantType(attr->value))
      type = inferred;
  }
  if (!attr) {
    // `%t : Tensor = prim::Constant()` is torch's undefined tensor, a
    // None-like value; a tensor type of any refinement may hold it.
    // torch's parser reads a value-less constant of any other type too (its
    // alias analysis tests make `%l : Tensor[][] = prim::Constant()` to
    // get a value of that type); it has no value to fold or run, so it
    // stays a generic node, which exports as written.
    if (!isa<prim::NoneType, prim::OptionalType, prim::TensorType>(type))
      return emitGeneric(node, {}, resultTypes, loc);
    value = UnitAttr::get(context);
  } else if (attr->name == "name" && isa<prim::FunctionType>(type) &&
             attr->value.kind == ts::AttrValue::Kind::Str) {
    value = builder.getStringAttr(attr->value.str);
  } else if (attr->name != "value") {
    error(attr->pos) << "unexpected attribute '" << attr->name
                     << "' on prim::Constant";
    return nullptr;
  } else if (FailureOr<Operation *> list =
                 emitTensorListConstant(*attr, type, name, loc);
             failed(list) || *list) {
    return failed(list) ? nullptr : *list;
  } else if (auto dict = dyn_cast<prim::DictType>(type)) {
    return emitDictConstant(*attr, dict, name, loc);
  } else if (isa<prim::TensorType>(type) && weights &&
             (attr->value.kind == ts::AttrValue::Kind::TensorRef ||
              attr->value.kind == ts::AttrValue::Kind::Tensor)) {
    // The weights file holds the exact values of `<Tensor>` constants and of
    // the small ones torch printed (rounded) inline.
    if (const WeightTensor *weight = weights->lookup(name)) {
      value = convertWeight(*weight, name, attr->pos);
      if (value && failed(checkWeightFits(
                       cast<ElementsAttr>(value).getShapedType(),
                       cast<prim::TensorType>(type), name, attr->pos)))
        return nullptr;
    } else if (attr->value.kind == ts::AttrValue::Kind::TensorRef) {
      error(attr->pos) << "weight '" << name << "' is not in "
                       << weights->getPath();
      return nullptr;
    } else {
      value = convertInlineTensor(attr->value, type);
    }
  } else {
    value = convertConstant(attr->value, type, name);
  }
  if (!value)
    return nullptr;
  return prim::ConstantOp::create(builder, loc, type, value);
}

Operation *MLIRGen::emitDictConstant(const ts::NamedAttr &attr,
                                     prim::DictType type, StringRef name,
                                     Location loc) {
  // A dict is mutable, as a list is: the constant is built as a dict of
  // constant keys and values, a fresh one each time the node runs.
  const ts::AttrValue *items = &attr.value;
  if (items->kind == ts::AttrValue::Kind::Annotated && !items->elements.empty())
    items = &items->elements[0];
  if (items->kind != ts::AttrValue::Kind::Dict) {
    error(attr.pos) << "the constant %" << name << " of type Dict holds no "
                    << "dict ({} or {key: value, ...})";
    return nullptr;
  }
  SmallVector<Value> keysAndValues;
  for (auto [index, item] : llvm::enumerate(items->elements)) {
    Type itemType = index % 2 ? type.getValueType() : type.getKeyType();
    Attribute value = convertConstant(item, itemType, name);
    if (!value)
      return nullptr;
    keysAndValues.push_back(
        prim::ConstantOp::create(builder, loc, itemType, value));
  }
  return prim::DictConstructOp::create(builder, loc, type, keysAndValues);
}

Attribute MLIRGen::convertNodeAttr(const ts::AttrValue &value,
                                   StringRef valueName) {
  using Kind = ts::AttrValue::Kind;
  switch (value.kind) {
  case Kind::Int:
    return builder.getI64IntegerAttr(value.intValue);
  case Kind::Float:
    return builder.getF64FloatAttr(value.floatValue);
  case Kind::Complex:
    return complexNodeAttr(value.floatValue, value.imagValue);
  case Kind::Bool:
    return builder.getBoolAttr(value.boolValue);
  case Kind::Str:
    return builder.getStringAttr(value.str);
  case Kind::Dict:
    error(value.pos) << "a dict is a value of prim::Constant only";
    return {};
  case Kind::GraphRef:
    // `<Graph>`: torch prints a graph attribute without its body. No other
    // node attribute value is a unit attribute, so it stands for one.
    return UnitAttr::get(context);
  case Kind::Tensor:
    return convertInlineTensor(value);
  case Kind::TensorRef:
    return prim::TensorRefAttr::get(context, valueName);
  case Kind::TensorListRef:
    return {}; // only a list constant holds one (emitTensorListConstant)
  case Kind::Type:
    if (Type type = convertType(*value.type))
      return TypeAttr::get(type);
    return {};
  case Kind::List:
  case Kind::Tuple:
  case Kind::Annotated: {
    SmallVector<Attribute> elements;
    const auto &items = value.kind == Kind::Annotated && !value.elements.empty()
                            ? value.elements[0].elements
                            : value.elements;
    for (const ts::AttrValue &item : items) {
      Attribute element = convertNodeAttr(item, valueName);
      if (!element)
        return {};
      elements.push_back(element);
    }
    return builder.getArrayAttr(elements);
  }
  }
  return {};
}

/// A complex node attribute (`c=-3.14j`) is a 0-d complex<f64> elements
/// attribute: a builtin attribute that no other attribute value reads as.
Attribute MLIRGen::complexNodeAttr(double real, double imag) {
  auto type = RankedTensorType::get({}, ComplexType::get(builder.getF64Type()));
  return DenseElementsAttr::get(type, {std::complex<double>(real, imag)});
}

DictionaryAttr MLIRGen::convertNodeAttrs(const ts::Node &node) {
  if (node.attrs.empty())
    return {};
  SmallVector<NamedAttribute> attrs;
  for (const ts::NamedAttr &attr : node.attrs) {
    Attribute value = convertNodeAttr(attr.value, tensorRefName(node));
    if (!value)
      return {};
    attrs.push_back(builder.getNamedAttr(attr.name, value));
  }
  return DictionaryAttr::get(context, attrs);
}

