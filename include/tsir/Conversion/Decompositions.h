//===- Decompositions.h - aten-to-aten rewrites before lowering -*- C++ -*-===//
//
// Rewrites that stay in the prim/aten dialects and make graphs easier to
// lower: run them with the optimizer (before convert-aten-to-linalg), where
// the list peepholes can fold what they expose.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_CONVERSION_DECOMPOSITIONS_H
#define TSIR_CONVERSION_DECOMPOSITIONS_H

#include "mlir/IR/PatternMatch.h"

namespace tsir {

/// chunk, split.Tensor, split.sizes, split_with_sizes and unbind.int whose
/// input has a refined dtype and a static size along a constant dim (and
/// constant chunk/split sizes) become a `prim.ListConstruct` of
/// `aten.slice.Tensor` (or `aten.select.int`) results, each with its
/// refined type. The lists of a loop body, or read by `__getitem__` with a
/// computed index, then hold ordinary tensors; a ListUnpack or a constant
/// `__getitem__` of them folds away.
void populateStaticListDecompositionPatterns(mlir::RewritePatternSet &patterns);

/// Composite ops that PyTorch defines as another aten op (mT, mH, adjoint,
/// matrix_H, numpy_T, movedim.intlist, ravel, atleast_{1,2,3}d,
/// broadcast_to, flipud, fliplr) become that op, with the replaced op's
/// refined type.
void populateCompositeDecompositionPatterns(mlir::RewritePatternSet &patterns);

/// Ops of several results as one op per result: var_mean/std_mean (var or
/// std, and mean), aminmax (amin, amax), and broadcast_tensors/meshgrid over
/// list literals of statically sized tensors (a list literal of expands).
void populateMultiResultDecompositionPatterns(
    mlir::RewritePatternSet &patterns);

} // namespace tsir

#endif // TSIR_CONVERSION_DECOMPOSITIONS_H
