//===- TypeConverter.cpp - prim types to builtin types --------------------===//
//
// The shared TsirTypeConverter (see its header) and the dtype helpers the
// patterns use to remember what the signless builtin types forget.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

using namespace mlir;

Type tsir::signlessElementType(Type dtype) {
  if (auto integer = dyn_cast_or_null<IntegerType>(dtype))
    return IntegerType::get(dtype.getContext(), integer.getWidth());
  if (isa_and_nonnull<FloatType>(dtype))
    return dtype;
  return {};
}

bool tsir::isUnsignedDtype(Type primTensorType) {
  auto tensor = dyn_cast<prim::TensorType>(primTensorType);
  if (!tensor)
    return false;
  auto integer = dyn_cast_or_null<IntegerType>(tensor.getDtype());
  return integer && integer.isUnsigned();
}

RankedTensorType tsir::convertTensorType(Type type) {
  auto tensor = dyn_cast<prim::TensorType>(type);
  if (!tensor || !tensor.getHasSizes())
    return {};
  Type element = signlessElementType(tensor.getDtype());
  if (!element)
    return {};
  SmallVector<int64_t> shape;
  for (int64_t size : tensor.getSizes())
    shape.push_back(size == prim::TensorType::kUnknownSize ? ShapedType::kDynamic
                                                           : size);
  return RankedTensorType::get(shape, element);
}

tsir::TsirTypeConverter::TsirTypeConverter() {
  // Everything that is not a prim tensor is already what the lowered code
  // uses (i64, f64, i1) or is left for later conversions to consume (lists,
  // tuples, None): identity.
  addConversion([](Type type) { return type; });
  // A tensor without a dtype or rank has no builtin form. Returning nullopt
  // lets the identity rule keep it a prim tensor, so the ops that touch it
  // stay illegal in the conversions and are reported there, each with what
  // it needs (the patterns and tsir-finalize-lowering say which value).
  addConversion([](prim::TensorType type) -> std::optional<Type> {
    if (RankedTensorType converted = convertTensorType(type))
      return converted;
    return std::nullopt;
  });
  auto materialize = [](OpBuilder &builder, Type type, ValueRange inputs,
                        Location loc) -> Value {
    if (inputs.size() != 1)
      return {};
    return UnrealizedConversionCastOp::create(builder, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(materialize);
  addTargetMaterialization(materialize);
}
