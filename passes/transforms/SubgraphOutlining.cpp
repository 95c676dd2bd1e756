//===- SubgraphOutlining.cpp - Ops moved into a subgraph op ---------------===//
//
// See SubgraphOutlining.h.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/SubgraphOutlining.h"

#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/AliasAnalysis.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace tsir;

/// The TorchScript name a value carries in its location, or "".
static StringRef valueName(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return getArgumentName(arg.getLoc());
  auto result = cast<OpResult>(value);
  NodeLocation location = decodeNodeLocation(result.getOwner()->getLoc());
  unsigned number = result.getResultNumber();
  return number < location.resultNames.size() ? location.resultNames[number]
                                              : StringRef();
}

Operation *
tsir::outlineSubgraph(ArrayRef<Operation *> members, Operation *anchor,
                      SubgraphBuilder create,
                      llvm::SetVector<Operation *> &clonedConstants) {
  MLIRContext *context = anchor->getContext();
  llvm::DenseSet<Operation *> memberSet(members.begin(), members.end());
  Block *block = members.front()->getBlock();
  auto isInside = [&](Operation *op) {
    Operation *ancestor = op ? block->findAncestorOpInBlock(*op) : nullptr;
    return ancestor && memberSet.contains(ancestor);
  };

  // What the members read from outside, at any depth, and what of theirs
  // is read outside.
  llvm::SetVector<Value> inputs, constants;
  SmallVector<Value> outputs;
  for (Operation *member : members) {
    member->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (isInside(def) ||
            (isa<BlockArgument>(operand) &&
             isInside(operand.getParentBlock()->getParentOp())))
          continue;
        if (def && isa<prim::ConstantOp>(def))
          constants.insert(operand);
        else
          inputs.insert(operand);
      }
    });
    for (Value result : member->getResults())
      if (llvm::any_of(result.getUsers(),
                       [&](Operation *user) { return !isInside(user); }))
        outputs.push_back(result);
  }

  NodeLocation location;
  for (Value output : outputs)
    location.resultNames.push_back(valueName(output));
  location.position = decodeNodeLocation(members.back()->getLoc()).position;
  OpBuilder builder(anchor);
  Operation *subgraph =
      create(builder, makeNodeLocation(context, location),
             TypeRange(ValueRange(outputs)), inputs.getArrayRef());
  Block *body = new Block();
  subgraph->getRegion(0).push_back(body);

  llvm::DenseMap<Value, Value> inside;
  for (Value input : inputs) {
    StringRef name = valueName(input);
    Location argLoc =
        name.empty() ? UnknownLoc::get(context)
                     : Location(NameLoc::get(StringAttr::get(context, name)));
    inside[input] = body->addArgument(input.getType(), argLoc);
  }
  builder.setInsertionPointToEnd(body);
  // Immutable constants with the same value share one clone; tensor
  // constants are mutable, so each keeps its own.
  llvm::DenseMap<std::pair<Attribute, Type>, Value> pooled;
  for (Value constant : constants) {
    auto op = constant.getDefiningOp<prim::ConstantOp>();
    clonedConstants.insert(op);
    bool poolable = !isMutableType(constant.getType());
    if (poolable)
      if (Value shared = pooled.lookup({op.getValue(), constant.getType()})) {
        inside[constant] = shared;
        continue;
      }
    Value clone = builder.clone(*op)->getResult(0);
    inside[constant] = clone;
    if (poolable)
      pooled[{op.getValue(), constant.getType()}] = clone;
  }
  for (Operation *member : members) {
    member->moveBefore(body, body->end());
    member->walk([&](Operation *nested) {
      for (OpOperand &operand : nested->getOpOperands())
        if (Value replacement = inside.lookup(operand.get()))
          operand.set(replacement);
    });
  }
  builder.setInsertionPointToEnd(body);
  prim::ReturnOp::create(builder, subgraph->getLoc(), outputs);

  for (auto [output, result] : llvm::zip(outputs, subgraph->getResults()))
    output.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !body->getParent()->isAncestor(
          use.getOwner()->getParentRegion());
    });
  return subgraph;
}
