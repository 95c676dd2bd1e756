//===- ValueSemantics.cpp - tsir-value-semantics --------------------------===//
//
// In-place aten ops become their functional forms so that the graph has
// value semantics before it is lowered to tensors (see passes/Conversion.td).
// prim-remove-mutation already did this for fresh values with TorchScript's
// conservative rules; what reaches here are mutations of graph inputs and
// of values TorchScript could not prove unaliased. The executor guarantees
// that inputs do not alias one another, which makes these rewrites sound
// as long as no view of the mutated value exists: such a mutation would
// have to be replayed on the view's base, which is not implemented, and is
// reported instead.
//
//===----------------------------------------------------------------------===//

#include "../Common/Utils.h"
#include "tsir/Conversion/Passes.h"
#include "tsir/Dialect/Aten/SchemaRegistry.h"
#include "tsir/Transforms/FunctionalVariants.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRVALUESEMANTICSPASS
#include "TsirConversion.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

/// The schema of a typed aten op, or null.
static const aten::Schema *schemaOf(Operation *op) {
  return aten::SchemaRegistry::get().lookupTypedOp(
      op->getName().getStringRef());
}

/// Whether `op` writes its first operand, a tensor, in place (`add_`,
/// `relu_`, ...). Lists written in place (`append`) are the runtime's.
static bool isInPlace(Operation *op) {
  const aten::Schema *schema = schemaOf(op);
  return schema && !schema->arguments.empty() && op->getNumOperands() > 0 &&
         isa<prim::TensorType>(op->getOperand(0).getType()) &&
         schema->arguments.front().isWrite && op->getNumResults() == 1;
}

/// Whether `op`'s result is a view of its first operand (`Tensor(a)`).
/// `aten.slice.Tensor(x, dim, None|0, None, 1)` on a ranked x: x itself,
/// as a view.
static bool isWholeSlice(Operation *op) {
  if (op->getName().getStringRef() != "aten.slice.Tensor" ||
      op->getNumOperands() != 5)
    return false;
  std::optional<int64_t> start =
      tsir::conversion::matchConstantInt(op->getOperand(2));
  std::optional<int64_t> step =
      tsir::conversion::matchConstantInt(op->getOperand(4));
  bool fromStart =
      tsir::conversion::isNone(op->getOperand(2)) || (start && *start == 0);
  return fromStart && tsir::conversion::isNone(op->getOperand(3)) && step &&
         *step == 1;
}

static bool isView(Operation *op) {
  const aten::Schema *schema = schemaOf(op);
  return schema && schema->returns.size() == 1 &&
         !schema->returns.front().aliasSet.empty() &&
         !schema->returns.front().isWrite;
}

namespace {
struct TsirValueSemanticsPass
    : tsir::impl::TsirValueSemanticsPassBase<TsirValueSemanticsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<Operation *> inPlace;
    func.walk([&](Operation *op) {
      if (op->getDialect() && op->getDialect()->getNamespace() == "aten" &&
          isInPlace(op))
        inPlace.push_back(op);
    });
    if (inPlace.empty()) {
      markAllAnalysesPreserved();
      return;
    }
    // The latest value of each mutated graph input.
    llvm::MapVector<BlockArgument, Value> written;
    for (Operation *op : inPlace)
      if (failed(rewrite(op, written)))
        return signalPassFailure();
    if (written.empty())
      return;

    // Mutated inputs: their final values go out as extra results, which the
    // executor copies back into the caller's tensors.
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    SmallVector<Value> results(ret.getOperands());
    SmallVector<Attribute> positions;
    for (auto &[argument, value] : written) {
      results.push_back(value);
      positions.push_back(IntegerAttr::get(IntegerType::get(&getContext(), 64),
                                           argument.getArgNumber()));
    }
    OpBuilder builder(ret);
    func::ReturnOp::create(builder, ret.getLoc(), results);
    ret.erase();
    func.setType(FunctionType::get(&getContext(), func.getArgumentTypes(),
                                   TypeRange(ValueRange(results))));
    func->setAttr("tsir.writeback", ArrayAttr::get(&getContext(), positions));
  }

  /// The graph input each rewritten value is the latest version of.
  DenseMap<Value, BlockArgument> latestOf;

  LogicalResult rewrite(Operation *op,
                        llvm::MapVector<BlockArgument, Value> &written) {
    Value self = op->getOperand(0);
    bool isCopy = op->getName().getStringRef() == "aten.copy_";
    if (!isCopy && !hasFunctionalVariant(op))
      return op->emitError()
             << "no functional form of " << op->getName().getStringRef()
             << " to give the graph value semantics";
    // A write through a whole-tensor slice (`y[:, i] = v` slices dim 0
    // whole, then index_put_s it) writes the tensor itself.
    if (Operation *producer = self.getDefiningOp();
        producer && isWholeSlice(producer) && self.hasOneUse()) {
      self = producer->getOperand(0);
      op->setOperand(0, self);
      producer->erase();
    }
    // The value must not be seen through a view, or be one.
    if (Operation *producer = self.getDefiningOp();
        producer && isView(producer))
      return op->emitError()
             << "in-place " << op->getName().getStringRef()
             << " writes through a view (" << producer->getName().getStringRef()
             << "), which is not supported yet";
    for (Operation *user : self.getUsers())
      if (isView(user))
        return op->emitError() << "in-place " << op->getName().getStringRef()
                               << " writes a tensor that has a view ("
                               << user->getName().getStringRef()
                               << "), which is not supported yet";
    Block *block = op->getBlock();
    bool sameBlock = self.getParentBlock() == block;
    if (!sameBlock)
      return op->emitError()
             << "in-place " << op->getName().getStringRef()
             << " writes a value defined outside its block (a loop-carried "
                "or branch mutation), which is not supported yet";

    OpBuilder builder(op);
    Value replacement;
    if (isCopy) {
      Value source = op->getOperand(1);
      if (source.getType() != self.getType())
        return op->emitError("copy_ between tensors of different types is "
                             "not supported yet");
      replacement = source;
    } else {
      replacement = createFunctionalVariant(builder, op)->getResult(0);
    }
    // Uses of the old value after the write read the new one.
    self.replaceUsesWithIf(replacement, [&](OpOperand &use) {
      Operation *user = block->findAncestorOpInBlock(*use.getOwner());
      return user && user != op && op->isBeforeInBlock(user);
    });
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
    // The new value is the graph input's latest, if `self` was (the input
    // itself, or what an earlier in-place op on it made).
    BlockArgument argument = dyn_cast<BlockArgument>(self);
    if (argument && !(argument.getOwner()->isEntryBlock() &&
                      isa<func::FuncOp>(argument.getOwner()->getParentOp())))
      argument = {};
    if (auto it = latestOf.find(self); it != latestOf.end())
      argument = it->second;
    if (argument) {
      written[argument] = replacement;
      latestOf[replacement] = argument;
    }
    return success();
  }
};
} // namespace
