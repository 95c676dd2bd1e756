//===- GenericPattern.h - Decomposing nodes that have no typed op -*- C++ -*-===//
//
// An aten op outside typed_ops.txt imports as a prim.Generic node that
// keeps its kind (`aten::bilinear`). A decomposition of such a node matches
// its kind and arity here and builds typed ops in its place. The ops it
// builds take unrefined tensor types, except those that replace the node's
// results, which take the node's own types: the result is type-correct
// whatever refinement knew, and the next refinement round refines the rest.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_DECOMPOSE_GENERICPATTERN_H
#define TSIR_PASSES_CONVERSION_DECOMPOSE_GENERICPATTERN_H

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/PatternMatch.h"

namespace tsir::decompose {

/// The type of an intermediate tensor: `Tensor`, refined later.
inline prim::TensorType anyTensor(mlir::PatternRewriter &rewriter) {
  return prim::TensorType::get(rewriter.getContext());
}

class GenericKindPattern : public mlir::OpRewritePattern<prim::GenericOp> {
public:
  /// Matches `kind` nodes of `numInputs` inputs and `numResults` results,
  /// and of the schema overload `overload` when one is given (the importer
  /// records it as `tsir.overload`: `aten::lstm` is `input` or `data`).
  GenericKindPattern(mlir::MLIRContext *context, llvm::StringRef kind,
                     unsigned numInputs, unsigned numResults,
                     llvm::StringRef overload = "")
      : OpRewritePattern(context), kind(kind), overload(overload),
        numInputs(numInputs), numResults(numResults) {}

  mlir::LogicalResult
  matchAndRewrite(prim::GenericOp op,
                  mlir::PatternRewriter &rewriter) const final {
    if (op.getKind() != kind || op.getInputs().size() != numInputs ||
        op->getNumResults() != numResults || op->getNumRegions() != 0)
      return mlir::failure();
    if (!overload.empty()) {
      auto recorded = op->getAttrOfType<mlir::StringAttr>("tsir.overload");
      if (!recorded || recorded.getValue() != overload)
        return mlir::failure();
    }
    return rewriteNode(op, rewriter);
  }

protected:
  virtual mlir::LogicalResult
  rewriteNode(prim::GenericOp op, mlir::PatternRewriter &rewriter) const = 0;

private:
  std::string kind, overload;
  unsigned numInputs, numResults;
};

} // namespace tsir::decompose

#endif // TSIR_PASSES_CONVERSION_DECOMPOSE_GENERICPATTERN_H
