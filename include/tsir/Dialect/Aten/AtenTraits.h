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

namespace tsir::aten::OpTrait {

/// Torch 1.13's TensorExpr fuser set (FuseTensorExprs): the elementwise
/// ops tsir-create-fusion-groups puts into fusion groups.
template <typename ConcreteType>
class TensorExprFusible
    : public mlir::OpTrait::TraitBase<ConcreteType, TensorExprFusible> {};

} // namespace tsir::aten::OpTrait

#endif // TSIR_DIALECT_ATEN_ATENTRAITS_H
