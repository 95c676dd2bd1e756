//===- InlineSubgraphs.cpp - prim-inline-subgraphs ------------------------===//
//
// Replaces `prim.FusionGroup`, `prim.TensorExprGroup`, `prim.FallbackGraph`
// and `prim.DifferentiableGraph` ops with the ops of their bodies, as
// TorchScript's SubgraphUtils::unmergeSubgraph does, so that the other
// passes see one flat graph and imported fused graphs can be re-fused by
// tsir's own fuser.
//
// The body's block arguments become the op's operands and the op's results
// the values its `prim.Return` returns. A subgraph's signature may refine
// what flows in and out of it (a fallback graph takes the profiled type of
// an unrefined tensor); where a value would lose precision an
// `prim.unchecked_cast` states the type the body was written for, and a
// returned value whose type differs from the result's is cast back, so the
// graph still verifies (func.return wants exact types). The results' value
// names move to the values that replace them.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMINLINESUBGRAPHSPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {

/// `loc` with its node's result names replaced by `name` for one result.
Location renameResult(Location loc, unsigned numResults, unsigned index,
                      StringRef name) {
  NodeLocation parts = decodeNodeLocation(loc);
  if (parts.resultNames.size() != numResults)
    return loc; // not a node location with one name per result
  parts.resultNames[index] = name;
  return makeNodeLocation(loc->getContext(), parts);
}

/// The location of a cast producing the subgraph's result named `name`.
Location resultCastLocation(Operation *subgraph, StringRef name) {
  NodeLocation parts = decodeNodeLocation(subgraph->getLoc());
  parts.resultNames.clear();
  if (!name.empty())
    parts.resultNames.push_back(name);
  return makeNodeLocation(subgraph->getContext(), parts);
}

/// The location of a cast standing for the body's argument `arg`: a node
/// named as the argument, at its place in the graph text.
Location argumentCastLocation(BlockArgument arg) {
  NodeLocation parts;
  StringRef name = getArgumentName(arg.getLoc());
  if (!name.empty())
    parts.resultNames.push_back(name);
  if (auto nameLoc = dyn_cast<NameLoc>(arg.getLoc()))
    parts.position = dyn_cast<FileLineColLoc>(nameLoc.getChildLoc());
  return makeNodeLocation(arg.getContext(), parts);
}

void inlineSubgraph(Operation *subgraph, IRRewriter &rewriter) {
  Block &body = subgraph->getRegion(0).front();
  rewriter.setInsertionPoint(subgraph);

  SmallVector<Value> inputs;
  for (auto [operand, arg] :
       llvm::zip(subgraph->getOperands(), body.getArguments())) {
    if (prim::isSubtypeOf(operand.getType(), arg.getType())) {
      inputs.push_back(operand);
      continue;
    }
    inputs.push_back(prim::UncheckedCastOp::create(
        rewriter, argumentCastLocation(arg), arg.getType(), operand));
  }

  NodeLocation outer = decodeNodeLocation(subgraph->getLoc());
  auto resultName = [&](unsigned i) -> StringRef {
    return outer.resultNames.size() == subgraph->getNumResults()
               ? outer.resultNames[i]
               : StringRef();
  };

  Operation *terminator = body.getTerminator();
  // A differentiated subgraph's forward returns the values its backward
  // captures after the results: running the graph, nothing reads them.
  SmallVector<Value> returned(
      terminator->getOperands().take_front(subgraph->getNumResults()));
  // The outer names go to the body's ops that compute the results (not to
  // inputs passed through, which keep their own names), once per value.
  llvm::SmallDenseSet<Value, 8> renamed;
  for (auto [i, value] : llvm::enumerate(returned)) {
    Operation *def = value.getDefiningOp();
    StringRef name = resultName(i);
    if (!def || def->getBlock() != &body || name.empty() ||
        value.getType() != subgraph->getResult(i).getType())
      continue;
    if (!renamed.insert(value).second)
      continue;
    def->setLoc(renameResult(def->getLoc(), def->getNumResults(),
                             cast<OpResult>(value).getResultNumber(), name));
  }
  // Block arguments die with the block: what they stand for is returned.
  for (Value &value : returned)
    if (auto arg = dyn_cast<BlockArgument>(value);
        arg && arg.getOwner() == &body)
      value = inputs[arg.getArgNumber()];
  rewriter.eraseOp(terminator);
  rewriter.inlineBlockBefore(&body, subgraph, inputs);

  SmallVector<Value> replacements;
  for (auto [i, value] : llvm::enumerate(returned)) {
    Type type = subgraph->getResult(i).getType();
    if (value.getType() == type) {
      replacements.push_back(value);
      continue;
    }
    replacements.push_back(prim::UncheckedCastOp::create(
        rewriter, resultCastLocation(subgraph, resultName(i)), type, value));
  }
  rewriter.replaceOp(subgraph, replacements);
}

struct PrimInlineSubgraphsPass
    : tsir::impl::PrimInlineSubgraphsPassBase<PrimInlineSubgraphsPass> {
  using Base::Base;
  void runOnOperation() override {
    // Post-order: a subgraph nested in another is inlined into it first.
    SmallVector<Operation *> subgraphs;
    getOperation().walk([&](Operation *op) {
      if (isa<prim::FusionGroupOp, prim::TensorExprGroupOp,
              prim::FallbackGraphOp, prim::DifferentiableGraphOp>(op))
        subgraphs.push_back(op);
    });
    if (subgraphs.empty())
      return markAllAnalysesPreserved();
    IRRewriter rewriter(&getContext());
    for (Operation *subgraph : subgraphs)
      inlineSubgraph(subgraph, rewriter);
  }
};

} // namespace
