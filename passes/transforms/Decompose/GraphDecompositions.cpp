//===- GraphDecompositions.cpp - Ops defined by graphs in a text file -----===//
//
// populateGraphDecompositionPatterns (Decompositions.h). decompositions.txt
// defines ops that have no lowering of their own as TorchScript graphs of
// ops that do, as torch._decomp and torch._refs define them in Python:
// `addmv` is `beta * self + alpha * mv`, `cdist` a norm of differences.
// A node whose schema has an entry (DecompositionLibrary.h) is replaced by
// a copy of its graph. The graphs
// branch on sizes, dims and optional arguments with prim::If; the
// refinement rounds after tsir-decompose fold those branches for the
// graph's input spec.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Decompositions.h"

#include "tsir/Transforms/DecompositionLibrary.h"
#include "tsir/Transforms/GraphLibrary.h"

#include <mutex>
#include <optional>

using namespace mlir;
using namespace tsir;

namespace {

/// Any op, or generic node, whose schema the library defines. The library
/// is imported the first time a graph has such an op (most graphs have
/// none), once for every copy of the pass: its patterns are shared by the
/// threads that run it.
struct DecomposeByGraph : RewritePattern {
  explicit DecomposeByGraph(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        loaded(std::make_shared<Loaded>()) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!DecompositionLibrary::defines(op))
      return failure();
    std::call_once(loaded->once, [&] {
      FailureOr<DecompositionLibrary> library =
          DecompositionLibrary::load(getContext());
      if (succeeded(library))
        loaded->library = std::move(*library);
    });
    if (!loaded->library)
      return failure();
    return inlineGraphAt(rewriter, op, loaded->library->lookup(op));
  }

  struct Loaded {
    std::once_flag once;
    std::optional<DecompositionLibrary> library;
  };
  std::shared_ptr<Loaded> loaded;
};

} // namespace

void tsir::populateGraphDecompositionPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeByGraph>(patterns.getContext());
}
