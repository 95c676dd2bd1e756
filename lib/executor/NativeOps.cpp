//===- NativeOps.cpp - Ops the interpreter evaluates itself ---------------===//
//
// See NativeOps.h. Scalar arithmetic and `int(x)` are ScalarSemantics.h's,
// the definitions the constant folder and the lowering follow too.
//
//===----------------------------------------------------------------------===//

#include "NativeOps.h"

#include "tsir/Dialect/Aten/ScalarSemantics.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tsir;


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

static rt::StatusOr<rt::Value> tensorQuery(NativeKind kind,
                                           const std::vector<rt::Value> &in) {
  if (in.empty() || !in[0].isTensor())
    return rt::Status::error("expected a tensor");
  const rt::Tensor &tensor = in[0].toTensor();
  switch (kind) {
  case NativeKind::Sizes: {
    std::vector<rt::Value> sizes;
    for (int64_t size : tensor.sizes())
      sizes.emplace_back(size);
    return rt::Value::list(std::move(sizes));
  }
  case NativeKind::SizeOfDim: {
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
  case NativeKind::Dim:
    return rt::Value(tensor.dim());
  case NativeKind::Numel:
    return rt::Value(tensor.numel());
  case NativeKind::Dtype:
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

static rt::StatusOr<rt::Value> tensorView(NativeKind kind,
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
  case NativeKind::Select: {
    TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, intAt(1));
    TSIR_RT_ASSIGN_OR_RETURN(int64_t index, intAt(2));
    result = self.select(dim, index);
    break;
  }
  case NativeKind::Slice: {
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
  case NativeKind::Narrow: {
    TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, intAt(1));
    TSIR_RT_ASSIGN_OR_RETURN(int64_t start, intAt(2));
    TSIR_RT_ASSIGN_OR_RETURN(int64_t length, intAt(3));
    if (dim >= -self.dim() && dim < self.dim() && start < 0)
      start += self.size(dim);
    result = self.slice(dim, start, start + length, 1);
    break;
  }
  case NativeKind::View:
  case NativeKind::Permute:
  case NativeKind::Expand: {
    if (in.size() < 2)
      return rt::Status::error("expected a list of sizes");
    TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> ints, intList(in[1]));
    result = kind == NativeKind::View      ? self.view(ints)
             : kind == NativeKind::Permute ? self.permute(ints)
                                       : self.expand(ints);
    break;
  }
  case NativeKind::Transpose: {
    TSIR_RT_ASSIGN_OR_RETURN(int64_t dim0, intAt(1));
    TSIR_RT_ASSIGN_OR_RETURN(int64_t dim1, intAt(2));
    result = self.transpose(dim0, dim1);
    break;
  }
  case NativeKind::TransposeMatrix:
    result =
        self.dim() < 2 ? rt::StatusOr<rt::Tensor>(self) : self.transpose(0, 1);
    break;
  case NativeKind::Unsqueeze: {
    TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, intAt(1));
    result = self.unsqueeze(dim);
    break;
  }
  case NativeKind::SqueezeDim: {
    TSIR_RT_ASSIGN_OR_RETURN(int64_t dim, intAt(1));
    result = self.squeeze(dim);
    break;
  }
  case NativeKind::Squeeze:
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
static rt::StatusOr<rt::Value> compareValues(NativeKind kind,
                                             const std::vector<rt::Value> &in) {
  if (in.size() != 2)
    return rt::Status::error("expected two operands");
  if (kind == NativeKind::StrEq || kind == NativeKind::StrNe) {
    if (!in[0].isString() || !in[1].isString())
      return rt::Status::error("expected two strings");
    bool equal = in[0].toStringRef() == in[1].toStringRef();
    return rt::Value(kind == NativeKind::StrEq ? equal : !equal);
  }
  if (kind == NativeKind::DeviceEq || kind == NativeKind::DeviceNe) {
    if (!in[0].isDevice() || !in[1].isDevice())
      return rt::Status::error("expected two devices");
    bool equal = in[0].toDevice() == in[1].toDevice();
    return rt::Value(kind == NativeKind::DeviceEq ? equal : !equal);
  }
  if (kind == NativeKind::Is || kind == NativeKind::IsNot) {
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
    return rt::Value(kind == NativeKind::Is ? same : !same);
  }
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> lhs, intList(in[0]));
  if (kind == NativeKind::Contains) {
    if (!in[1].isInt())
      return rt::Status::error("expected an int");
    return rt::Value(llvm::is_contained(lhs, in[1].toInt()));
  }
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> rhs, intList(in[1]));
  return rt::Value((lhs == rhs) == (kind == NativeKind::ListEq));
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
static rt::StatusOr<rt::Value> concatenate(Operation *op, NativeKind kind,
                                           const std::vector<rt::Value> &in) {
  const char *name = kind == NativeKind::Cat ? "torch.cat" : "stack";
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
                             (kind == NativeKind::Cat
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
  if (kind == NativeKind::Stack) {
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
  NativeKind kind = nativeKind(op);
  rt::StatusOr<rt::Value> result = rt::Status::error("not a native op");
  switch (kind) {
  case NativeKind::None:
    break;
  case NativeKind::Sizes:
  case NativeKind::SizeOfDim:
  case NativeKind::Dim:
  case NativeKind::Numel:
  case NativeKind::Dtype:
  case NativeKind::Device:
    result = tensorQuery(kind, inputs);
    break;
  case NativeKind::Select:
  case NativeKind::Slice:
  case NativeKind::View:
  case NativeKind::Permute:
  case NativeKind::Transpose:
  case NativeKind::Unsqueeze:
  case NativeKind::Squeeze:
  case NativeKind::SqueezeDim:
  case NativeKind::Expand:
  case NativeKind::TransposeMatrix:
  case NativeKind::Narrow:
  case NativeKind::Alias:
    result = tensorView(kind, inputs);
    break;
  case NativeKind::Cat:
  case NativeKind::Stack:
    result = concatenate(op, kind, inputs);
    break;
  case NativeKind::ListEq:
  case NativeKind::ListNe:
  case NativeKind::Contains:
  case NativeKind::StrEq:
  case NativeKind::StrNe:
  case NativeKind::DeviceEq:
  case NativeKind::DeviceNe:
  case NativeKind::Is:
  case NativeKind::IsNot:
    result = compareValues(kind, inputs);
    break;
  case NativeKind::Neg:
  case NativeKind::Not:
  case NativeKind::ToInt:
  case NativeKind::ToFloat:
  case NativeKind::ToBool: {
    if (inputs.size() != 1 || !isNumber(inputs[0])) {
      result = rt::Status::error("expected a number");
      break;
    }
    const rt::Value &in = inputs[0];
    if (kind == NativeKind::Neg)
      result = in.isDouble()
                   ? rt::Value(-in.toDouble())
                   : rt::Value(*scalar::applyInt(scalar::BinaryOp::Sub, 0,
                                                 asInt(in)));
    else if (kind == NativeKind::Not)
      result = rt::Value(!in.toBool());
    else if (kind == NativeKind::ToInt)
      result = rt::Value(asInt(in));
    else if (kind == NativeKind::ToFloat)
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
    result = kind == NativeKind::Arithmetic
                 ? arithmetic(op, inputs[0], inputs[1])
                 : rt::StatusOr<rt::Value>(
                       compareNumbers(op, inputs[0], inputs[1]));
    break;
  }
  if (!result.ok())
    return result.status();
  return std::vector<rt::Value>{*result};
}
