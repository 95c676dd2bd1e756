//===- DerivativeTable.cpp - The derivative formulas, read once -----------===//
//
// derivatives.txt read as a graph library (GraphLibrary.h): `derivative
// SCHEMA` and `decomposition SCHEMA` entries have a graph,
// `nondifferentiable SCHEMA...` entries only their schemas.
//
//===----------------------------------------------------------------------===//

#include "DerivativeTable.h"

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/GraphLibrary.h"

using namespace mlir;
using namespace tsir;
using namespace tsir::autodiff;

static constexpr llvm::StringLiteral kDerivativesText =
#include "DerivativesText.inc"
    ;

FailureOr<DerivativeTable> DerivativeTable::load(MLIRContext *context) {
  DerivativeTable table;
  table.formulas = std::make_shared<OwningOpRef<ModuleOp>>(
      ModuleOp::create(UnknownLoc::get(context)));
  auto onEntry = [&](const GraphLibraryEntry &entry) -> LogicalResult {
    bool decomposition = entry.word == "decomposition";
    for (StringRef name : entry.schemas) {
      bool fresh = entry.word == "nondifferentiable"
                       ? table.nondifferentiable.insert(name).second
                       : (decomposition ? table.decompositions
                                        : table.bySchema)
                             .try_emplace(name, entry.graph)
                             .second;
      if (!fresh)
        return emitError(UnknownLoc::get(context))
               << "derivatives.txt:" << entry.line << ": " << name
               << " has two entries of one kind";
    }
    return success();
  };
  if (failed(readGraphLibrary(table.formulas->get(), kDerivativesText,
                              "derivatives.txt",
                              {"derivative", "decomposition"},
                              {"nondifferentiable"}, onEntry)))
    return failure();
  return table;
}

func::FuncOp DerivativeTable::lookup(Operation *op) const {
  return bySchema.lookup(schemaOf(op));
}

func::FuncOp DerivativeTable::lookupDecomposition(Operation *op) const {
  return decompositions.lookup(schemaOf(op));
}

bool tsir::autodiff::isListPlumbing(Operation *op) {
  if (isa<prim::ListConstructOp, prim::ListUnpackOp>(op))
    return true;
  std::string schema = schemaOf(op);
  return schema == "aten::broadcast_tensors" || schema == "aten::cat" ||
         schema == "aten::stack" || schema == "aten::einsum";
}

bool DerivativeTable::isNondifferentiable(Operation *op) const {
  return nondifferentiable.contains(schemaOf(op));
}
