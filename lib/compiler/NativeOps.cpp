//===- NativeOps.cpp - Ops the interpreter evaluates itself ---------------===//
//
// See NativeOps.h. Scalar arithmetic and `int(x)` are ScalarSemantics.h's,
// the definitions the constant folder and the lowering follow too.
//
//===----------------------------------------------------------------------===//

#include "NativeOps.h"

#include "tsir/Dialect/Aten/ScalarSemantics.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tsir;

namespace {
enum class Native {
  None,
  // A scalar::BinaryOp or scalar::CompareOp, named by the op.
  Arithmetic,
  Comparison,
  Neg,
  Not,
  ToInt,
  ToFloat,
  ToBool,
  Sizes,
  SizeOfDim,
  Dim,
  Numel,
  Dtype,
  Device,
  // Views, made on the runtime tensor so that they share its storage.
  Select,
  Slice,
  View,
  Permute,
  Transpose,
  Unsqueeze,
  Squeeze,
  SqueezeDim,
  Expand,
  TransposeMatrix,
  Narrow,
  Alias,
  // Comparisons of lists of ints (sizes) and of strings.
  ListEq,
  ListNe,
  Contains,
  StrEq,
  StrNe,
  // Comparisons of devices.
  DeviceEq,
  DeviceNe,
  // Identity (`x is None`, `x is not None`).
  Is,
  IsNot,
  // cat/stack of a list built at run time.
  Cat,
  Stack,
};
} // namespace

static Native nativeKind(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (isa<prim::DtypeOp>(op))
    return Native::Dtype;
  if (isa<prim::DeviceOp>(op))
    return Native::Device;
  // `-t.item()` (aten::neg.Scalar, which has no typed op): a Scalar,
  // negated as the int or float it holds.
  if (auto generic = dyn_cast<prim::GenericOp>(op)) {
    auto overload = op->getAttrOfType<StringAttr>("tsir.overload");
    if (generic.getKind() == "aten::neg" && overload &&
        overload.getValue() == "Scalar")
      return Native::Neg;
  }
  if (!name.consume_front("aten."))
    return Native::None;
  auto [base, overload] = name.split('.');
  if (name == "size")
    return Native::Sizes;
  if (name == "size.int")
    return Native::SizeOfDim;
  if (name == "dim")
    return Native::Dim;
  if (name == "numel")
    return Native::Numel;
  if (name == "__not__")
    return Native::Not;
  if (name == "cat")
    return Native::Cat;
  if (name == "stack")
    return Native::Stack;
  Native comparison = llvm::StringSwitch<Native>(name)
                          .Case("eq.int_list", Native::ListEq)
                          .Case("ne.int_list", Native::ListNe)
                          .Case("__contains__.int_list", Native::Contains)
                          .Case("eq.str", Native::StrEq)
                          .Case("ne.str", Native::StrNe)
                          .Case("eq.device", Native::DeviceEq)
                          .Case("ne.device", Native::DeviceNe)
                          .Case("__is__", Native::Is)
                          .Case("__isnot__", Native::IsNot)
                          .Default(Native::None);
  if (comparison != Native::None)
    return comparison;

  Native view = llvm::StringSwitch<Native>(name)
                    .Case("select.int", Native::Select)
                    .Case("slice.Tensor", Native::Slice)
                    .Case("view", Native::View)
                    .Case("permute", Native::Permute)
                    .Case("transpose.int", Native::Transpose)
                    .Case("unsqueeze", Native::Unsqueeze)
                    .Case("squeeze", Native::Squeeze)
                    .Case("squeeze.dim", Native::SqueezeDim)
                    .Case("expand", Native::Expand)
                    .Case("t", Native::TransposeMatrix)
                    .Case("narrow", Native::Narrow)
                    .Case("alias", Native::Alias)
                    .Case("detach", Native::Alias)
                    .Default(Native::None);
  if (view != Native::None)
    return view;
  bool scalarOverload = llvm::is_contained(
      {StringRef("int"), StringRef("float"), StringRef("int_float"),
       StringRef("float_int"), StringRef("bool")},
      overload);
  if (!scalarOverload)
    return Native::None;
  if (scalar::binaryOpNamed(name))
    return Native::Arithmetic;
  if (scalar::compareOpNamed(name))
    return Native::Comparison;
  return llvm::StringSwitch<Native>(base)
      .Case("neg", Native::Neg)
      .Case("Int", Native::ToInt)
      .Case("Float", Native::ToFloat)
      .Case("Bool", Native::ToBool)
      .Default(Native::None);
}

bool tsir::isNativeOp(Operation *op) {
  return nativeKind(op) != Native::None && op->getNumResults() == 1;
}

bool tsir::isNativeView(Operation *op) {
  Native kind = nativeKind(op);
  return kind >= Native::Select && kind <= Native::Alias &&
         op->getNumResults() == 1;
}

bool tsir::isNativeConcatenation(Operation *op) {
  Native kind = nativeKind(op);
  return (kind == Native::Cat || kind == Native::Stack) &&
         op->getNumResults() == 1;
}

bool tsir::isNativeScalarOp(Operation *op) {
  auto isScalar = [](Type type) {
    return type.isInteger(64) || type.isInteger(1) || type.isF64();
  };
  return isNativeOp(op) && llvm::all_of(op->getOperandTypes(), isScalar) &&
         llvm::all_of(op->getResultTypes(), isScalar);
}

static bool isNumber(const rt::Value &value) {
  return value.isInt() || value.isDouble() || value.isBool();
}

static double asDouble(const rt::Value &value) {
  if (value.isDouble())
    return value.toDouble();
  if (value.isInt())
    return double(value.toInt());
  return value.toBool() ? 1.0 : 0.0;
}

static int64_t asInt(const rt::Value &value) {
  if (value.isInt())
    return value.toInt();
  if (value.isBool())
    return value.toBool();
  return scalar::floatToInt(value.toDouble());
}

static rt::StatusOr<rt::Value> tensorQuery(Native kind,
                                           const std::vector<rt::Value> &in) {
  if (in.empty() || !in[0].isTensor())
    return rt::Status::error("expected a tensor");
  const rt::Tensor &tensor = in[0].toTensor();
  switch (kind) {
  case Native::Sizes: {
    std::vector<rt::Value> sizes;
    for (int64_t size : tensor.sizes())
      sizes.emplace_back(size);
    return rt::Value::list(std::move(sizes));
  }
  case Native::SizeOfDim: {
    if (in.size() != 2 || !in[1].isInt())
      return rt::Status::error("expected a tensor and a dim");
    int64_t dim = in[1].toInt(), rank = tensor.dim();
    if (dim < -rank || dim >= rank)
      return rt::Status::error("Dimension out of range (expected to be in "
                               "range of [" +
                               std::to_string(-rank) + ", " +
                               std::to_string(rank - 1) + "], but got " +
                               std::to_string(dim) + ")");
    return rt::Value(tensor.size(dim));
  }
  case Native::Dim:
    return rt::Value(tensor.dim());
  case Native::Numel:
    return rt::Value(tensor.numel());
  case Native::Dtype:
    return rt::Value(rt::dtypeScalarType(tensor.dtype()));
  default:
    return rt::Value(tensor.device());
  }
}

/// The ints of an `int[]` value.
static rt::StatusOr<std::vector<int64_t>> intList(const rt::Value &value) {
  if (!value.isList())
    return rt::Status::error("expected a list of ints");
  std::vector<int64_t> ints;
  for (const rt::Value &element : value.toList()) {
    if (!element.isInt())
      return rt::Status::error("expected a list of ints");
    ints.push_back(element.toInt());
  }
  return ints;
}

/// An optional int argument (`int?`): `fallback` for None.
static rt::StatusOr<int64_t> optionalInt(const rt::Value &value,
                                         int64_t fallback) {
  if (value.isNone())
    return fallback;
  if (!value.isInt())
    return rt::Status::error("expected an int or None");
  return value.toInt();
}

static rt::StatusOr<rt::Value> tensorView(Native kind,
                                          const std::vector<rt::Value> &in) {
  if (in.empty() || !in[0].isTensor())
    return rt::Status::error("expected a tensor");
  const rt::Tensor &self = in[0].toTensor();
  auto intAt = [&](size_t i) -> rt::StatusOr<int64_t> {
    if (i >= in.size() || !in[i].isInt())
      return rt::Status::error("expected an int argument");
    return in[i].toInt();
  };
  rt::StatusOr<rt::Tensor> result = rt::Status::error("not a view");
  switch (kind) {
  case Native::Select: {
    TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, intAt(1));
    TSIR_RT_ASSIGN_OR_RETURN(int64_t index, intAt(2));
    result = self.select(dim, index);
    break;
  }
  case Native::Slice: {
    if (in.size() != 5)
      return rt::Status::error("expected five arguments");
    TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, intAt(1));
    TSIR_RT_ASSIGN_OR_RETURN(int64_t start, optionalInt(in[2], 0));
    TSIR_RT_ASSIGN_OR_RETURN(
        int64_t end, optionalInt(in[3], std::numeric_limits<int64_t>::max()));
    TSIR_RT_ASSIGN_OR_RETURN(int64_t step, intAt(4));
    result = self.slice(dim, start, end, step);
    break;
  }
  case Native::Narrow: {
    TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, intAt(1));
    TSIR_RT_ASSIGN_OR_RETURN(int64_t start, intAt(2));
    TSIR_RT_ASSIGN_OR_RETURN(int64_t length, intAt(3));
    if (dim >= -self.dim() && dim < self.dim() && start < 0)
      start += self.size(dim);
    result = self.slice(dim, start, start + length, 1);
    break;
  }
  case Native::View:
  case Native::Permute:
  case Native::Expand: {
    if (in.size() < 2)
      return rt::Status::error("expected a list of sizes");
    TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> ints, intList(in[1]));
    result = kind == Native::View      ? self.view(ints)
             : kind == Native::Permute ? self.permute(ints)
                                       : self.expand(ints);
    break;
  }
  case Native::Transpose: {
    TSIR_RT_ASSIGN_OR_RETURN(int64_t dim0, intAt(1));
    TSIR_RT_ASSIGN_OR_RETURN(int64_t dim1, intAt(2));
    result = self.transpose(dim0, dim1);
    break;
  }
  case Native::TransposeMatrix:
    result =
        self.dim() < 2 ? rt::StatusOr<rt::Tensor>(self) : self.transpose(0, 1);
    break;
  case Native::Unsqueeze: {
    TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, intAt(1));
    result = self.unsqueeze(dim);
    break;
  }
  case Native::SqueezeDim: {
    TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, intAt(1));
    result = self.squeeze(dim);
    break;
  }
  case Native::Squeeze:
    result = self.squeeze();
    break;
  default:
    result = self;
    break;
  }
  if (!result.ok())
    return result.status();
  return rt::Value(*result);
}

/// `==`/`!=` of two int lists, two strings or two devices, `in` of an
/// int list, `is`/`is not`.
static rt::StatusOr<rt::Value> compareValues(Native kind,
                                             const std::vector<rt::Value> &in) {
  if (in.size() != 2)
    return rt::Status::error("expected two operands");
  if (kind == Native::StrEq || kind == Native::StrNe) {
    if (!in[0].isString() || !in[1].isString())
      return rt::Status::error("expected two strings");
    bool equal = in[0].toStringRef() == in[1].toStringRef();
    return rt::Value(kind == Native::StrEq ? equal : !equal);
  }
  if (kind == Native::DeviceEq || kind == Native::DeviceNe) {
    if (!in[0].isDevice() || !in[1].isDevice())
      return rt::Status::error("expected two devices");
    bool equal = in[0].toDevice() == in[1].toDevice();
    return rt::Value(kind == Native::DeviceEq ? equal : !equal);
  }
  if (kind == Native::Is || kind == Native::IsNot) {
    // None is one object; a list, dict or object the graph made is the
    // same one only if it shares its storage.
    bool same;
    if (in[0].isNone() || in[1].isNone())
      same = in[0].isNone() && in[1].isNone();
    else if (in[0].isDict() && in[1].isDict())
      same = &in[0].toDict() == &in[1].toDict();
    else if (in[0].isList() && in[1].isList())
      same = &in[0].toList() == &in[1].toList();
    else
      return rt::Status::error("tsir compares the identity of None, lists, "
                               "dicts and objects only");
    return rt::Value(kind == Native::Is ? same : !same);
  }
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> lhs, intList(in[0]));
  if (kind == Native::Contains) {
    if (!in[1].isInt())
      return rt::Status::error("expected an int");
    return rt::Value(llvm::is_contained(lhs, in[1].toInt()));
  }
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> rhs, intList(in[1]));
  return rt::Value((lhs == rhs) == (kind == Native::ListEq));
}

/// A rough order of torch's type promotion among the runtime dtypes.
static int promotionRank(rt::DType dtype) {
  switch (dtype) {
  case rt::DType::Bool:
    return 0;
  case rt::DType::UInt8:
  case rt::DType::Int8:
    return 1;
  case rt::DType::Int16:
    return 2;
  case rt::DType::Int32:
    return 3;
  case rt::DType::Int64:
    return 4;
  case rt::DType::Float16:
  case rt::DType::BFloat16:
    return 5;
  case rt::DType::Float32:
    return 6;
  case rt::DType::Float64:
    return 7;
  }
  return 0;
}

/// The dtype tsir-refine-types gave `op`'s result, if any.
static std::optional<rt::DType> resultDtype(Operation *op) {
  auto type = dyn_cast<prim::TensorType>(op->getResult(0).getType());
  if (!type || !type.getDtype())
    return std::nullopt;
  StringRef name = prim::torchNameOfDtype(type.getDtype());
  return rt::dtypeFromTorchName(std::string_view(name.data(), name.size()));
}

/// torch.cat and torch.stack of a runtime list of tensors.
static rt::StatusOr<rt::Value> concatenate(Operation *op, Native kind,
                                           const std::vector<rt::Value> &in) {
  const char *name = kind == Native::Cat ? "torch.cat" : "stack";
  if (in.size() != 2 || !in[0].isList() || !in[1].isInt())
    return rt::Status::error("expected a list of tensors and a dim");
  std::vector<rt::Tensor> parts;
  for (const rt::Value &element : in[0].toList()) {
    if (!element.isTensor())
      return rt::Status::error("expected a list of tensors");
    parts.push_back(element.toTensor());
  }
  if (parts.empty())
    return rt::Status::error(std::string(name) +
                             (kind == Native::Cat
                                  ? "(): expected a non-empty list of Tensors"
                                  : " expects a non-empty TensorList"));
  std::optional<rt::DType> dtype = resultDtype(op);
  if (!dtype) {
    dtype = parts.front().dtype();
    for (const rt::Tensor &part : parts)
      if (promotionRank(part.dtype()) > promotionRank(*dtype))
        dtype = part.dtype();
  }
  // stack is cat of the parts, each with a new dim of size 1.
  int64_t dim = in[1].toInt();
  if (kind == Native::Stack) {
    std::vector<int64_t> first = parts.front().sizes();
    for (size_t i = 0; i < parts.size(); ++i) {
      if (parts[i].sizes() != first)
        return rt::Status::error(
            "stack expects each tensor to be equal size, but got " +
            rt::sizesToString(first) + " at entry 0 and " +
            rt::sizesToString(parts[i].sizes()) + " at entry " +
            std::to_string(i));
      TSIR_RT_ASSIGN_OR_RETURN(parts[i], parts[i].unsqueeze(dim));
    }
  }
  // torch skips legacy empty 1-d parts beside parts of other ranks.
  const rt::Tensor *reference = &parts.front();
  for (const rt::Tensor &part : parts)
    if (!(part.dim() == 1 && part.size(0) == 0)) {
      reference = &part;
      break;
    }
  int64_t rank = reference->dim();
  if (rank == 0)
    return rt::Status::error("zero-dimensional tensor cannot be concatenated");
  if (dim < -rank || dim >= rank)
    return rt::Status::error("Dimension out of range (expected to be in range "
                             "of [" +
                             std::to_string(-rank) + ", " +
                             std::to_string(rank - 1) + "], but got " +
                             std::to_string(dim) + ")");
  if (dim < 0)
    dim += rank;
  std::vector<int64_t> sizes = reference->sizes();
  sizes[dim] = 0;
  std::vector<const rt::Tensor *> used;
  for (const rt::Tensor &part : parts) {
    if (part.dim() == 1 && part.size(0) == 0 && rank != 1)
      continue;
    for (int64_t d = 0; d < rank; ++d)
      if (part.dim() != rank || (d != dim && part.size(d) != sizes[d]))
        return rt::Status::error(std::string(name) +
                                 "(): Sizes of tensors must match except in "
                                 "dimension " +
                                 std::to_string(dim) + ": " +
                                 rt::sizesToString(reference->sizes()) +
                                 " and " + rt::sizesToString(part.sizes()));
    sizes[dim] += part.size(dim);
    used.push_back(&part);
  }
  TSIR_RT_ASSIGN_OR_RETURN(rt::Tensor result,
                           rt::Tensor::tryEmpty(sizes, *dtype));
  int64_t offset = 0;
  for (const rt::Tensor *part : used) {
    int64_t size = part->size(dim);
    TSIR_RT_ASSIGN_OR_RETURN(rt::Tensor slot,
                             result.slice(dim, offset, offset + size));
    TSIR_RT_RETURN_IF_ERROR(slot.copyFrom(*part));
    offset += size;
  }
  return rt::Value(result);
}

/// `op`'s scalar::CompareOp on two numbers: ints exactly, else in double.
static rt::Value compareNumbers(Operation *op, const rt::Value &lhs,
                                const rt::Value &rhs) {
  StringRef name = op->getName().getStringRef();
  name.consume_front("aten.");
  scalar::CompareOp kind = *scalar::compareOpNamed(name);
  if (!lhs.isDouble() && !rhs.isDouble())
    return rt::Value(scalar::applyCompare(kind, asInt(lhs), asInt(rhs)));
  return rt::Value(scalar::applyCompare(kind, asDouble(lhs), asDouble(rhs)));
}

/// `op`'s scalar::BinaryOp on two numbers: bitwise ops on ints (bools
/// stay bools), the others on ints where both are ints and the op keeps
/// them ints, else on doubles.
static rt::StatusOr<rt::Value> arithmetic(Operation *op, const rt::Value &lhs,
                                          const rt::Value &rhs) {
  StringRef name = op->getName().getStringRef();
  name.consume_front("aten.");
  scalar::BinaryOp kind = *scalar::binaryOpNamed(name);
  std::string error;
  bool bitwise = kind == scalar::BinaryOp::BitAnd ||
                 kind == scalar::BinaryOp::BitOr ||
                 kind == scalar::BinaryOp::BitXor;
  bool integers = !lhs.isDouble() && !rhs.isDouble();
  if (bitwise || (integers && kind != scalar::BinaryOp::Div &&
                  kind != scalar::BinaryOp::Pow)) {
    std::optional<int64_t> value =
        scalar::applyInt(kind, asInt(lhs), asInt(rhs), &error);
    if (!value)
      return rt::Status::error(error);
    if (bitwise && lhs.isBool() && rhs.isBool())
      return rt::Value(*value != 0);
    return rt::Value(*value);
  }
  std::optional<double> value =
      scalar::applyFloat(kind, asDouble(lhs), asDouble(rhs), &error);
  if (!value)
    return rt::Status::error(error);
  return rt::Value(*value);
}

rt::StatusOr<std::vector<rt::Value>>
tsir::evaluateNative(Operation *op, const std::vector<rt::Value> &inputs) {
  Native kind = nativeKind(op);
  rt::StatusOr<rt::Value> result = rt::Status::error("not a native op");
  switch (kind) {
  case Native::None:
    break;
  case Native::Sizes:
  case Native::SizeOfDim:
  case Native::Dim:
  case Native::Numel:
  case Native::Dtype:
  case Native::Device:
    result = tensorQuery(kind, inputs);
    break;
  case Native::Select:
  case Native::Slice:
  case Native::View:
  case Native::Permute:
  case Native::Transpose:
  case Native::Unsqueeze:
  case Native::Squeeze:
  case Native::SqueezeDim:
  case Native::Expand:
  case Native::TransposeMatrix:
  case Native::Narrow:
  case Native::Alias:
    result = tensorView(kind, inputs);
    break;
  case Native::Cat:
  case Native::Stack:
    result = concatenate(op, kind, inputs);
    break;
  case Native::ListEq:
  case Native::ListNe:
  case Native::Contains:
  case Native::StrEq:
  case Native::StrNe:
  case Native::DeviceEq:
  case Native::DeviceNe:
  case Native::Is:
  case Native::IsNot:
    result = compareValues(kind, inputs);
    break;
  case Native::Neg:
  case Native::Not:
  case Native::ToInt:
  case Native::ToFloat:
  case Native::ToBool: {
    if (inputs.size() != 1 || !isNumber(inputs[0])) {
      result = rt::Status::error("expected a number");
      break;
    }
    const rt::Value &in = inputs[0];
    if (kind == Native::Neg)
      result = in.isDouble()
                   ? rt::Value(-in.toDouble())
                   : rt::Value(*scalar::applyInt(scalar::BinaryOp::Sub, 0,
                                                 asInt(in)));
    else if (kind == Native::Not)
      result = rt::Value(!in.toBool());
    else if (kind == Native::ToInt)
      result = rt::Value(asInt(in));
    else if (kind == Native::ToFloat)
      result = rt::Value(asDouble(in));
    else
      result = rt::Value(in.isDouble() ? in.toDouble() != 0 : asInt(in) != 0);
    break;
  }
  default:
    if (inputs.size() != 2 || !isNumber(inputs[0]) || !isNumber(inputs[1])) {
      result = rt::Status::error("expected two numbers");
      break;
    }
    result = kind == Native::Arithmetic
                 ? arithmetic(op, inputs[0], inputs[1])
                 : rt::StatusOr<rt::Value>(
                       compareNumbers(op, inputs[0], inputs[1]));
    break;
  }
  if (!result.ok())
    return result.status();
  return std::vector<rt::Value>{*result};
}
