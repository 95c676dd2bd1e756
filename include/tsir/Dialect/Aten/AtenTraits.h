//===- AtenTraits.h - Op families of the aten dialect -----------*- C++ -*-===//
//
// The families typed_ops.txt names after an op (`add.Tensor fusible`) are
// op traits, so a pass asks the op (`op->hasTrait<TensorExprFusible>()`)
// and the list of members lives in one place. They carry no verifier: a
// family says what the op is, not what its operands must be.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_DIALECT_ATEN_ATENTRAITS_H
#define TSIR_DIALECT_ATEN_ATENTRAITS_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"

namespace tsir::aten::OpTrait {

/// Torch 1.13's TensorExpr fuser set (FuseTensorExprs): the elementwise
/// ops tsir-create-fusion-groups puts into fusion groups.
template <typename ConcreteType>
class TensorExprFusible
    : public mlir::OpTrait::TraitBase<ConcreteType, TensorExprFusible> {};

/// The result's shape is the broadcast of the first one, two or three
/// operands, and its dtype their promotion (at::result_type) refined by
/// the op's promotion kind: `unary`, `binary`, `ternary`.
template <typename ConcreteType>
class ElementwiseUnary
    : public mlir::OpTrait::TraitBase<ConcreteType, ElementwiseUnary> {};
template <typename ConcreteType>
class ElementwiseBinary
    : public mlir::OpTrait::TraitBase<ConcreteType, ElementwiseBinary> {};
template <typename ConcreteType>
class ElementwiseTernary
    : public mlir::OpTrait::TraitBase<ConcreteType, ElementwiseTernary> {};

/// Torch's type promotion kinds (ELEMENTWISE_TYPE_PROMOTION_KIND) other
/// than the default: `int_to_float` (integers and bool to the default
/// float), `always_bool`, `complex_to_real` (abs), `to_double`
/// (float_power).
template <typename ConcreteType>
class PromoteIntToFloat
    : public mlir::OpTrait::TraitBase<ConcreteType, PromoteIntToFloat> {};
template <typename ConcreteType>
class PromoteAlwaysBool
    : public mlir::OpTrait::TraitBase<ConcreteType, PromoteAlwaysBool> {};
template <typename ConcreteType>
class PromoteComplexToReal
    : public mlir::OpTrait::TraitBase<ConcreteType, PromoteComplexToReal> {};
template <typename ConcreteType>
class PromoteToDouble
    : public mlir::OpTrait::TraitBase<ConcreteType, PromoteToDouble> {};

/// A reduction over the op's `dim` operand (none: every dim), keeping the
/// reduced dims when its `keepdim` is true (`reduction`); an op along its
/// `dim` that keeps the shape (`along_dim`: softmax, cumsum).
template <typename ConcreteType>
class Reduction : public mlir::OpTrait::TraitBase<ConcreteType, Reduction> {};
template <typename ConcreteType>
class AlongDim : public mlir::OpTrait::TraitBase<ConcreteType, AlongDim> {};

/// The accumulation kinds of aten's reductions: `integer_to_long` (sum,
/// prod, cumsum accumulate integers and bool as Long), `to_long` (argmax's
/// indices).
template <typename ConcreteType>
class PromoteIntegerToLong
    : public mlir::OpTrait::TraitBase<ConcreteType, PromoteIntegerToLong> {};
template <typename ConcreteType>
class PromoteToLong
    : public mlir::OpTrait::TraitBase<ConcreteType, PromoteToLong> {};

/// The ops tsir's interpreter runs itself between compiled segments,
/// each through the runtime kernel of its name (NativeOpKinds.h):
/// `scalar_operator`, TorchScript's operators on ints, floats and bools
/// and the equality of int lists, strings and devices and `is`
/// (register_prim_ops.cpp); `tensor_query`, a tensor's sizes, rank and
/// element count; `storage_view`, a view the runtime makes on a tensor,
/// sharing its storage (the generator checks the schema's
/// `Tensor(a) self -> Tensor(a)`).
template <typename ConcreteType>
class ScalarOperator
    : public mlir::OpTrait::TraitBase<ConcreteType, ScalarOperator> {};
template <typename ConcreteType>
class TensorQuery : public mlir::OpTrait::TraitBase<ConcreteType, TensorQuery> {
};
template <typename ConcreteType>
class StorageView : public mlir::OpTrait::TraitBase<ConcreteType, StorageView> {
};

} // namespace tsir::aten::OpTrait

namespace tsir::aten {

/// How many leading operands an elementwise op (`unary`, `binary`,
/// `ternary`) broadcasts and promotes; 0 for any other op.
inline unsigned elementwiseArity(mlir::Operation *op) {
  if (op->hasTrait<OpTrait::ElementwiseUnary>())
    return 1;
  if (op->hasTrait<OpTrait::ElementwiseBinary>())
    return 2;
  if (op->hasTrait<OpTrait::ElementwiseTernary>())
    return 3;
  return 0;
}

/// An op's type promotion kind: torch's elementwise kinds, and the
/// accumulation kinds of reductions (typed_ops.txt allows each only on the
/// ops it applies to).
enum class PromotionKind {
  Default,
  IntToFloat,
  AlwaysBool,
  ComplexToReal,
  ToDouble,
  IntegerToLong,
  ToLong
};

inline PromotionKind promotionKind(mlir::Operation *op) {
  if (op->hasTrait<OpTrait::PromoteIntToFloat>())
    return PromotionKind::IntToFloat;
  if (op->hasTrait<OpTrait::PromoteAlwaysBool>())
    return PromotionKind::AlwaysBool;
  if (op->hasTrait<OpTrait::PromoteComplexToReal>())
    return PromotionKind::ComplexToReal;
  if (op->hasTrait<OpTrait::PromoteToDouble>())
    return PromotionKind::ToDouble;
  if (op->hasTrait<OpTrait::PromoteIntegerToLong>())
    return PromotionKind::IntegerToLong;
  if (op->hasTrait<OpTrait::PromoteToLong>())
    return PromotionKind::ToLong;
  return PromotionKind::Default;
}

} // namespace tsir::aten

#endif // TSIR_DIALECT_ATEN_ATENTRAITS_H
