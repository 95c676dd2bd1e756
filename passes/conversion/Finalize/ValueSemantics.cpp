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
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Conversion/Passes.h"
#include "tsir/Dialect/Aten/SchemaRegistry.h"
#include "tsir/Transforms/FunctionalVariants.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRVALUESEMANTICSPASS
#include "tsir/Conversion/Passes.h.inc"
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

/// A view whose writes have a functional form that writes its base: a
/// slice (slice_scatter) or a select (select_scatter).
static bool isScatterableView(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name == "aten.slice.Tensor" || name == "aten.select.int";
}

static bool isView(Operation *op) {
  const aten::Schema *schema = schemaOf(op);
  return schema && schema->returns.size() == 1 &&
         !schema->returns.front().aliasSet.empty() &&
         !schema->returns.front().isWrite;
}

/// Whether `value`'s only reader of its elements is `reader`: its other
/// users ask for its dtype, device, sizes or rank, which a write to its
/// elements leaves as they were (TorchScript's `m[a:b] = v` reads the
/// slice's dtype and device to make the tensor it copies in).
static bool onlyReadBy(Value value, Operation *reader) {
  return llvm::all_of(value.getUsers(), [&](Operation *user) {
    return user == reader ||
           isa<prim::DtypeOp, prim::DeviceOp, aten::SizeOp, aten::SizeIntOp,
               aten::DimOp>(user);
  });
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
    // executor copies back into the caller's tensors. Weights (the trailing
    // arguments tsir-externalize-weights made) alike: a training-mode batch
    // norm's running statistics and `num_batches_tracked += 1` go into the
    // weights' memory, as torch updates a module's buffers.
    auto *primDialect = getContext().getLoadedDialect<prim::PrimDialect>();
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
    primDialect->getWrittenInputsAttrHelper().setAttr(
        func, ArrayAttr::get(&getContext(), positions));
  }

  /// The graph input each rewritten value is the latest version of.
  DenseMap<Value, BlockArgument> latestOf;

  /// The value copy_ `op` gives `target`: its source broadcast to the
  /// target's shape (copy_ broadcasts); null when the dtypes differ (or are
  /// unknown), which needs a conversion tsir does not make here yet.
  Value copiedValue(OpBuilder &builder, Operation *op, Value target) {
    Value source = op->getOperand(1);
    if (source.getType() == target.getType())
      return source;
    auto targetType = dyn_cast<prim::TensorType>(target.getType());
    auto sourceType = dyn_cast<prim::TensorType>(source.getType());
    if (!targetType || !sourceType || !targetType.getDtype() ||
        !sourceType.getDtype())
      return {};
    // copy_ converts to the target's dtype as `to` does (float to int
    // truncates, anything to bool is `!= 0`).
    if (targetType.getDtype() != sourceType.getDtype()) {
      OperationState convert(op->getLoc(), "aten.type_as");
      convert.addOperands({source, target});
      convert.addTypes(prim::TensorType::get(
          op->getContext(), targetType.getDtype(), sourceType.getHasSizes(),
          sourceType.getSizes(), false, {}, sourceType.getDevice(), {}, {}));
      source = builder.create(convert)->getResult(0);
    }
    OperationState expand(op->getLoc(), "aten.expand_as");
    expand.addOperands({source, target});
    expand.addTypes(target.getType());
    return builder.create(expand)->getResult(0);
  }

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
    // A write through slices and selects of a value (`m[a:b, c:d] = v`).
    if (Operation *producer = self.getDefiningOp();
        producer && isScatterableView(producer) && onlyReadBy(self, op))
      return rewriteThroughViews(op, written);
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
      replacement = copiedValue(builder, op, self);
      if (!replacement)
        return op->emitError("copy_ between tensors whose dtypes are not "
                             "known is not supported yet");
    } else {
      replacement = createFunctionalVariant(builder, op)->getResult(0);
    }
    replaceWrite(op, self, replacement, replacement, written);
    return success();
  }

  /// The write of `op` through a chain of slices and selects of a base
  /// value: the new value of the innermost view (the op's functional form,
  /// or copy_'s source broadcast to it) is scattered into each view's base
  /// in turn (slice_scatter, select_scatter), and the outermost base's new
  /// value replaces it after the op, as any write of a value would.
  LogicalResult rewriteThroughViews(Operation *op,
                                    llvm::MapVector<BlockArgument, Value> &written) {
    Value view = op->getOperand(0);
    SmallVector<Operation *> chain;
    Value base = view;
    Operation *reader = op;
    while (Operation *producer = base.getDefiningOp()) {
      if (!isScatterableView(producer) || !onlyReadBy(base, reader))
        break;
      reader = producer;
      chain.push_back(producer);
      base = producer->getOperand(0);
    }
    auto unsupported = [&](const Twine &why) {
      return op->emitError() << "in-place " << op->getName().getStringRef()
                             << " writes through a view ("
                             << chain.back()->getName().getStringRef() << "): "
                             << why << ", which is not supported yet";
    };
    Block *block = op->getBlock();
    if (base.getParentBlock() != block)
      return unsupported("its base is defined outside the block");
    if (Operation *producer = base.getDefiningOp(); producer && isView(producer))
      return unsupported("its base is a view too");
    // Another view of the base, taken before the write and read after it,
    // would have to see the write.
    for (Operation *user : base.getUsers()) {
      if (user == chain.back() || !isView(user) || user->getBlock() != block ||
          op->isBeforeInBlock(user))
        continue;
      for (Operation *reader : user->getUsers()) {
        Operation *inBlock = block->findAncestorOpInBlock(*reader);
        if (inBlock && inBlock != op && op->isBeforeInBlock(inBlock))
          return unsupported("another view of its base is read after it");
      }
    }

    OpBuilder builder(op);
    Location loc = op->getLoc();
    Value updated;
    if (op->getName().getStringRef() == "aten.copy_") {
      updated = copiedValue(builder, op, view);
      if (!updated)
        return unsupported("copy_ from a tensor of another dtype");
    } else {
      updated = createFunctionalVariant(builder, op)->getResult(0);
    }
    Value viewValue = updated;
    for (Operation *step : chain) {
      bool isSlice = step->getName().getStringRef() == "aten.slice.Tensor";
      OperationState scatter(loc, isSlice ? "aten.slice_scatter"
                                          : "aten.select_scatter");
      SmallVector<Value> operands = {step->getOperand(0), updated};
      operands.append(step->operand_begin() + 1, step->operand_end());
      scatter.addOperands(operands);
      scatter.addTypes(step->getOperand(0).getType());
      updated = builder.create(scatter)->getResult(0);
    }
    // The op's own result is the view's new value.
    replaceWrite(op, base, updated, viewValue, written);
    return success();
  }

  /// Ends the write of in-place `op` to `self`, whose new value is
  /// `replacement`: uses of `self` after the op read it, the op's own
  /// result becomes `result`, the op goes, and `replacement` is the graph
  /// input's latest value if `self` was (the input itself, or what an
  /// earlier in-place op on it made).
  void replaceWrite(Operation *op, Value self, Value replacement, Value result,
                    llvm::MapVector<BlockArgument, Value> &written) {
    Block *block = op->getBlock();
    self.replaceUsesWithIf(replacement, [&](OpOperand &use) {
      Operation *user = block->findAncestorOpInBlock(*use.getOwner());
      return user && user != op && op->isBeforeInBlock(user);
    });
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
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
  }
};
} // namespace
