//===- EinsumGradient.h - The gradients of aten::einsum ---------*- C++ -*-===//
//
// einsum's gradient with respect to each operand is another einsum: the
// output's gradient contracted with the other operands, back to that
// operand's subscripts ("ij,jk->ik" gives "ik,jk->ij" for the first). The
// equation is a string that the formula language of derivatives.txt
// cannot rewrite, so tsir-differentiate builds these here.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_AUTODIFF_EINSUMGRADIENT_H
#define TSIR_PASSES_AUTODIFF_EINSUMGRADIENT_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tsir::autodiff {

/// The gradient of each of `operands` (the backward's values of the
/// forward einsum's tensors) given `gradient`, the output's, built at
/// `builder`'s insertion point. Fails with `why` set for an equation whose
/// gradient is not an einsum: an index repeated within one operand (a
/// diagonal), or an ellipsis that only one operand has and the output
/// drops.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
buildEinsumGradients(mlir::OpBuilder &builder, mlir::Location loc,
                     llvm::StringRef equation, mlir::ValueRange operands,
                     mlir::Value gradient, std::string &why);

} // namespace tsir::autodiff

#endif // TSIR_PASSES_AUTODIFF_EINSUMGRADIENT_H
