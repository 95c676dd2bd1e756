//===- GraphDecompositions.cpp - Ops defined by graphs in a text file -----===//
//
// populateGraphDecompositionPatterns (Decompositions.h). decompositions.txt
// defines ops that have no lowering of their own as TorchScript graphs of
// ops that do, as torch._decomp and torch._refs define them in Python:
// `addmv` is `beta * self + alpha * mv`, `cdist` a norm of differences.
// The file is read once per pattern set (DecompositionLibrary.h); a node
// whose schema has an entry is replaced by a copy of its graph. The graphs
// branch on sizes, dims and optional arguments with prim::If; the
// refinement rounds after tsir-decompose fold those branches for the
// graph's input spec.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Decompositions.h"

#include "tsir/Transforms/DecompositionLibrary.h"
#include "tsir/Transforms/GraphLibrary.h"

using namespace mlir;
using namespace tsir;

namespace {

/// Any op, or generic node, whose schema the library defines.
struct DecomposeByGraph : RewritePattern {
  DecomposeByGraph(MLIRContext *context, DecompositionLibrary library)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        library(std::move(library)) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumRegions() != 0)
      return failure();
    func::FuncOp graph = library.lookup(op);
    if (!graph)
      return failure();
    return inlineGraphAt(rewriter, op, graph);
  }

  DecompositionLibrary library;
};

} // namespace

LogicalResult
tsir::populateGraphDecompositionPatterns(RewritePatternSet &patterns) {
  FailureOr<DecompositionLibrary> library =
      DecompositionLibrary::load(patterns.getContext());
  if (failed(library))
    return failure();
  patterns.add<DecomposeByGraph>(patterns.getContext(), std::move(*library));
  return success();
}
