//===- IndexChecks.cpp - Indices checked at run time, as torch does -------===//
//
// See IndexChecks.h.
//
//===----------------------------------------------------------------------===//

#include "IndexChecks.h"

#include "ShapeHelpers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tsir::conversion;

namespace {

/// Whether a constant `indices` tensor passes the check, if that is known
/// now (the tensor and the bounds are constants).
std::optional<bool> passesNow(Value indices, Value lower, Value upper,
                              Value except) {
  DenseIntElementsAttr elements;
  std::optional<int64_t> lo = getConstantIntValue(lower);
  std::optional<int64_t> hi = getConstantIntValue(upper);
  std::optional<int64_t> skip;
  if (except && !(skip = getConstantIntValue(except)))
    return std::nullopt;
  if (!lo || !hi || !matchPattern(indices, m_Constant(&elements)))
    return std::nullopt;
  for (const APInt &element : elements) {
    int64_t value = element.getSExtValue();
    if ((value < *lo || value >= *hi) && value != skip)
      return false;
  }
  return true;
}

/// `index` (an `index` value) outside [lower, upper) and not `except`.
Value outOfRange(OpBuilder &b, Location loc, Value index, Value lower,
                 Value upper, Value except) {
  Value below =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, lower);
  Value above =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, upper);
  Value out = arith::OrIOp::create(b, loc, below, above);
  if (!except)
    return out;
  Value kept = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne, index,
      arith::IndexCastOp::create(b, loc, b.getIndexType(), except));
  return arith::AndIOp::create(b, loc, out, kept);
}

/// Fails with `message` at run time where `failed` (an i1) is true.
void assertNot(OpBuilder &b, Location loc, Value failed, StringRef message) {
  Value ok = arith::XOrIOp::create(
      b, loc, failed, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
  cf::AssertOp::create(b, loc, ok, message);
}

} // namespace

void tsir::conversion::checkIndicesInRange(OpBuilder &b, Location loc,
                                           Value indices, Value lower,
                                           Value upper, StringRef message,
                                           Value except) {
  if (passesNow(indices, lower, upper, except) == true)
    return;
  auto type = cast<RankedTensorType>(indices.getType());
  int64_t rank = type.getRank();
  Type i1 = b.getI1Type();
  Value none = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
  Value init = linalg::FillOp::create(
                   b, loc, ValueRange{none},
                   ValueRange{tensor::EmptyOp::create(
                       b, loc, ArrayRef<int64_t>{}, i1)})
                   .getResult(0);
  SmallVector<AffineMap> maps = {
      b.getMultiDimIdentityMap(rank),
      AffineMap::get(rank, 0, {}, b.getContext())};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::reduction);
  auto anyOut = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{indices}, ValueRange{init},
      maps, iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value index = arith::IndexCastOp::create(nb, l, nb.getIndexType(),
                                                 args[0]);
        Value out = outOfRange(nb, l, index, lower, upper, except);
        linalg::YieldOp::create(nb, l,
                                arith::OrIOp::create(nb, l, args[1], out)
                                    .getResult());
      });
  assertNot(b, loc,
            tensor::ExtractOp::create(b, loc, anyOut.getResult(0),
                                      ValueRange{}),
            message);
}

void tsir::conversion::checkIndexInRange(OpBuilder &b, Location loc,
                                         Value index, Value lower, Value upper,
                                         StringRef message) {
  std::optional<int64_t> value = getConstantIntValue(index);
  std::optional<int64_t> lo = getConstantIntValue(lower);
  std::optional<int64_t> hi = getConstantIntValue(upper);
  if (value && lo && hi && *value >= *lo && *value < *hi)
    return;
  assertNot(b, loc, outOfRange(b, loc, index, lower, upper, Value()), message);
}

Value tsir::conversion::clampIndex(OpBuilder &b, Location loc, Value index,
                                   Value size) {
  IndexMath m{b, loc};
  return m.max(m.constant(0), m.min(index, m.sub(size, m.constant(1))));
}

std::string tsir::conversion::outOfBoundsMessage(int64_t dim,
                                                 std::optional<int64_t> size) {
  std::string message =
      "index is out of bounds for dimension " + std::to_string(dim);
  if (size && !ShapedType::isDynamic(*size))
    message += " with size " + std::to_string(*size);
  return message;
}
