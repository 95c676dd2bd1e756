//===- FunctionalizeViewWrites.cpp - tsir-functionalize-view-writes -------===//
//
// In-place writes through a view, which prim-remove-mutation (TorchScript's
// RemoveMutation) keeps because another value sees them, made functional
// where the view's base is fresh memory made in the same block (a clone,
// any op's new result):
// - a base that nothing but the view reads (`torch.flatten(pool(x))`
//   followed by an in-place `dropout_`, EfficientNet's classifier): the
//   write becomes the functional op on the view;
// - a slice or select of a base that is read afterwards
//   (`b = w.clone(); b[k:2 * k].zero_()`, Swin v2's qkv bias): the
//   functional op on the view, scattered back into the base by
//   `slice_scatter`/`select_scatter`, and every later reader of the base
//   (or of the view, or of the write's result) reads the new value.
// A write is left as it is when its base is not fresh (an input, a weight,
// a view of a view), when another view of the base, made before the write,
// is read after it (it would have seen the write), and when the op has no
// functional form; tsir-differentiate then refuses it at the op rather
// than differentiate as if it had not happened. Not one of TorchScript's
// passes: the executor's gradient pipeline runs it after
// prim-remove-mutation (docs/autodiff.md).
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Aten/SchemaRegistry.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/AliasAnalysis.h"
#include "tsir/Transforms/FunctionalVariants.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRFUNCTIONALIZEVIEWWRITESPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {

/// Whether `value` is new memory: the result of an op without regions or
/// side effects whose schema gives that result no alias annotation. A
/// constant (a weight) is not: it is read-only.
bool isFresh(Value value) {
  auto result = dyn_cast<OpResult>(value);
  if (!result || !isa<prim::TensorType>(value.getType()))
    return false;
  Operation *def = result.getOwner();
  if (def->getNumRegions() != 0 || isa<prim::ConstantOp>(def) ||
      hasSideEffects(def) || isOpaque(def))
    return false;
  const aten::Schema *schema = getTypedOrGenericSchema(def);
  unsigned index = result.getResultNumber();
  return schema && index < schema->returns.size() &&
         schema->returns[index].aliasSet.empty();
}

/// Whether `user` runs after `op`: it, or its ancestor in `op`'s block,
/// comes later in that block.
bool runsAfter(Operation *user, Operation *op) {
  Operation *ancestor = op->getBlock()->findAncestorOpInBlock(*user);
  return ancestor && op->isBeforeInBlock(ancestor);
}

/// Whether a view of `value` made before `write` (other than `except`), or
/// a view of such a view, is read after `write`: it would have seen the
/// write.
bool viewReadAfter(Value value, Operation *except, Operation *write) {
  for (Operation *user : value.getUsers()) {
    if (user == except || user == write || !isViewOfFirstOperand(user) ||
        user->getOperand(0) != value || runsAfter(user, write))
      continue;
    Value view = user->getResult(0);
    if (llvm::any_of(
            view.getUsers(),
            [&](Operation *reader) { return runsAfter(reader, write); }) ||
        viewReadAfter(view, nullptr, write))
      return true;
  }
  return false;
}

/// Makes `write` (an in-place op on a view of a fresh base) functional, as
/// the file's header says; false when it stays.
bool functionalize(Operation *write) {
  if (!isa_and_nonnull<aten::AtenDialect>(write->getDialect()) ||
      write->getNumResults() != 1 || write->getNumOperands() == 0 ||
      !hasFunctionalVariant(write))
    return false;
  Value view = write->getOperand(0);
  Operation *viewOp = view.getDefiningOp();
  if (!viewOp || viewOp->getBlock() != write->getBlock() ||
      !isViewOfFirstOperand(viewOp))
    return false;
  Value base = viewOp->getOperand(0);
  bool baseUnread = base.hasOneUse();
  bool scatters = isa<aten::SliceTensorOp, aten::SelectIntOp>(viewOp);
  if (!isFresh(base) || base.getDefiningOp()->getBlock() != write->getBlock() ||
      (!baseUnread && !scatters) || viewReadAfter(base, viewOp, write) ||
      viewReadAfter(view, write, write))
    return false;

  OpBuilder builder(write);
  Operation *functional = createFunctionalVariant(builder, write);
  if (!functional)
    return false;
  Value written = functional->getResult(0);
  write->getResult(0).replaceAllUsesWith(written);
  view.replaceUsesWithIf(written, [&](OpOperand &use) {
    return use.getOwner() != write && runsAfter(use.getOwner(), write);
  });
  if (!baseUnread) {
    Location loc = write->getLoc();
    Operation *scattered;
    if (auto slice = dyn_cast<aten::SliceTensorOp>(viewOp))
      scattered = aten::SliceScatterOp::create(
          builder, loc, base.getType(), base, written, slice.getDim(),
          slice.getStart(), slice.getEnd(), slice.getStep());
    else {
      auto select = cast<aten::SelectIntOp>(viewOp);
      scattered = aten::SelectScatterOp::create(builder, loc, base.getType(),
                                                base, written, select.getDim(),
                                                select.getIndex());
    }
    base.replaceUsesWithIf(scattered->getResult(0), [&](OpOperand &use) {
      return use.getOwner() != scattered && runsAfter(use.getOwner(), write);
    });
  }
  write->erase();
  return true;
}

struct TsirFunctionalizeViewWritesPass
    : tsir::impl::TsirFunctionalizeViewWritesPassBase<
          TsirFunctionalizeViewWritesPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<Operation *> writes;
    getOperation().walk([&](Operation *op) {
      if (op->getNumRegions() == 0 && hasFunctionalVariant(op))
        writes.push_back(op);
    });
    bool changed = false;
    for (Operation *write : writes)
      changed |= functionalize(write);
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
