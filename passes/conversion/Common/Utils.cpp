//===- Utils.cpp - Helpers shared by tsir's conversion patterns -----------===//
//
// Scalar casts and tensor builders for the convert-*
// patterns (see Utils.h).
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;

namespace tsir::conversion {

Value castScalar(OpBuilder &b, Location loc, Value value, Type type,
                 bool srcUnsigned) {
  Type from = value.getType();
  if (from == type)
    return value;
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(type);
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(type);
  // To bool: anything non-zero is true.
  if (toInt && toInt.getWidth() == 1) {
    if (fromFloat) {
      Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(from, 0.0));
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                     zero);
    }
    Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(from, 0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value, zero);
  }
  if (fromInt && toInt) {
    if (toInt.getWidth() < fromInt.getWidth())
      return arith::TruncIOp::create(b, loc, type, value);
    if (srcUnsigned || fromInt.getWidth() == 1)
      return arith::ExtUIOp::create(b, loc, type, value);
    return arith::ExtSIOp::create(b, loc, type, value);
  }
  if (fromInt && toFloat) {
    if (srcUnsigned || fromInt.getWidth() == 1)
      return arith::UIToFPOp::create(b, loc, type, value);
    return arith::SIToFPOp::create(b, loc, type, value);
  }
  if (fromFloat && toInt)
    return arith::FPToSIOp::create(b, loc, type, value);
  if (fromFloat && toFloat) {
    if (toFloat.getWidth() < fromFloat.getWidth())
      return arith::TruncFOp::create(b, loc, type, value);
    if (toFloat.getWidth() > fromFloat.getWidth())
      return arith::ExtFOp::create(b, loc, type, value);
    // f16 <-> bf16: through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    return arith::TruncFOp::create(b, loc, type, wide);
  }
  return value;
}

Value createEmptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                        ValueRange dynamicSizes) {
  return tensor::EmptyOp::create(b, loc, type, dynamicSizes);
}

Value getDimSize(OpBuilder &b, Location loc, Value tensor, int64_t dim) {
  return b.createOrFold<tensor::DimOp>(loc, tensor, dim);
}

SmallVector<Value> getDynamicDimSizes(OpBuilder &b, Location loc,
                                      Value tensor) {
  SmallVector<Value> sizes;
  auto type = cast<RankedTensorType>(tensor.getType());
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (type.isDynamicDim(dim))
      sizes.push_back(getDimSize(b, loc, tensor, dim));
  return sizes;
}

Value createFilledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                         Value fill, ValueRange dynamicSizes) {
  Value empty = createEmptyTensor(b, loc, type, dynamicSizes);
  return linalg::FillOp::create(b, loc, fill, empty).getResult(0);
}

Value createScalarConstant(OpBuilder &b, Location loc, Type type, double v) {
  if (isa<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, v));
  if (type.isInteger(1))
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(v != 0));
  return arith::ConstantOp::create(b, 
      loc, b.getIntegerAttr(type, static_cast<int64_t>(v)));
}

} // namespace tsir::conversion

arith::CmpFPredicate tsir::conversion::floatPredicate(scalar::CompareOp op) {
  switch (op) {
  case scalar::CompareOp::Eq:
    return arith::CmpFPredicate::OEQ;
  case scalar::CompareOp::Ne:
    return arith::CmpFPredicate::UNE;
  case scalar::CompareOp::Lt:
    return arith::CmpFPredicate::OLT;
  case scalar::CompareOp::Le:
    return arith::CmpFPredicate::OLE;
  case scalar::CompareOp::Gt:
    return arith::CmpFPredicate::OGT;
  case scalar::CompareOp::Ge:
    return arith::CmpFPredicate::OGE;
  }
  llvm_unreachable("unknown comparison");
}

arith::CmpIPredicate tsir::conversion::intPredicate(scalar::CompareOp op,
                                                    bool isUnsigned) {
  switch (op) {
  case scalar::CompareOp::Eq:
    return arith::CmpIPredicate::eq;
  case scalar::CompareOp::Ne:
    return arith::CmpIPredicate::ne;
  case scalar::CompareOp::Lt:
    return isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
  case scalar::CompareOp::Le:
    return isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
  case scalar::CompareOp::Gt:
    return isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
  case scalar::CompareOp::Ge:
    return isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
  }
  llvm_unreachable("unknown comparison");
}
