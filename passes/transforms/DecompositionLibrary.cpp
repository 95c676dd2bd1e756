//===- DecompositionLibrary.cpp - decompositions.txt, read once -----------===//
//
// decompositions.txt read as a graph library (GraphLibrary.h): every
// entry is a `decomposition SCHEMA...` line and its graph. Importing the
// graphs costs milliseconds and the pipelines create many tsir-decompose
// passes, so `defines` answers from the header lines alone.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/DecompositionLibrary.h"

#include "tsir/Transforms/GraphLibrary.h"

using namespace mlir;
using namespace tsir;

static constexpr llvm::StringLiteral kDecompositionsText =
#include "DecompositionsText.inc"
    ;

bool DecompositionLibrary::defines(Operation *op) {
  static const llvm::StringSet<> schemas =
      graphLibrarySchemas(kDecompositionsText, {"decomposition"});
  return op->getNumRegions() == 0 && schemas.contains(schemaOf(op));
}

FailureOr<DecompositionLibrary>
DecompositionLibrary::load(MLIRContext *context) {
  DecompositionLibrary library;
  library.graphs = std::make_shared<OwningOpRef<ModuleOp>>(
      ModuleOp::create(UnknownLoc::get(context)));
  auto onEntry = [&](const GraphLibraryEntry &entry) -> LogicalResult {
    for (StringRef schema : entry.schemas)
      if (!library.bySchema.try_emplace(schema, entry.graph).second)
        return emitError(UnknownLoc::get(context))
               << "decompositions.txt:" << entry.line << ": " << schema
               << " has two decompositions";
    return success();
  };
  if (failed(readGraphLibrary(library.graphs->get(), kDecompositionsText,
                              "decompositions.txt", {"decomposition"}, {},
                              onEntry)))
    return failure();
  return library;
}

func::FuncOp DecompositionLibrary::lookup(Operation *op) const {
  if (op->getNumRegions() != 0)
    return {};
  return bySchema.lookup(schemaOf(op));
}
