//===- GraphDecompositions.cpp - Ops defined by graphs in a text file -----===//
//
// populateGraphDecompositionPatterns (Decompositions.h). decompositions.txt
// defines ops that have no lowering of their own as TorchScript graphs of
// ops that do, as torch._decomp and torch._refs define them in Python:
// `addmv` is `beta * self + alpha * mv`, `cdist` a norm of differences. The
// file is compiled into the library and read once per context with tsir's
// own importer (GraphLibrary.h); a node whose schema has an entry is
// replaced by a copy of its graph. The graphs branch on sizes, dims and
// optional arguments with prim::If; the refinement rounds after
// tsir-decompose fold those branches for the graph's input spec.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Decompositions.h"

#include "tsir/Transforms/GraphLibrary.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace tsir;

static constexpr llvm::StringLiteral kDecompositionsText =
#include "DecompositionsText.inc"
    ;

namespace {

/// The graphs of decompositions.txt, by schema, in a module they share.
struct DecompositionLibrary {
  OwningOpRef<ModuleOp> module;
  llvm::StringMap<func::FuncOp> bySchema;
};

/// Any aten op, or generic node, whose schema the library defines.
struct DecomposeByGraph : RewritePattern {
  DecomposeByGraph(MLIRContext *context,
                   std::shared_ptr<DecompositionLibrary> library)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        library(std::move(library)) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumRegions() != 0)
      return failure();
    func::FuncOp graph = library->bySchema.lookup(schemaOf(op));
    if (!graph)
      return failure();
    return inlineGraphAt(rewriter, op, graph);
  }

  std::shared_ptr<DecompositionLibrary> library;
};

} // namespace

LogicalResult
tsir::populateGraphDecompositionPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  auto library = std::make_shared<DecompositionLibrary>();
  library->module = ModuleOp::create(UnknownLoc::get(context));
  auto onEntry = [&](const GraphLibraryEntry &entry) -> LogicalResult {
    for (StringRef schema : entry.schemas)
      if (!library->bySchema.try_emplace(schema, entry.graph).second)
        return emitError(UnknownLoc::get(context))
               << "decompositions.txt:" << entry.line << ": " << schema
               << " has two decompositions";
    return success();
  };
  if (failed(readGraphLibrary(library->module.get(), kDecompositionsText,
                              "decompositions.txt", {"decomposition"}, {},
                              onEntry)))
    return failure();
  patterns.add<DecomposeByGraph>(context, std::move(library));
  return success();
}
