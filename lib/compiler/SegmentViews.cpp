//===- SegmentViews.cpp - Views and in-place writes across segments -------===//
//
// A compiled segment returns tensors of its own: a view it makes (or the
// result of an in-place op, which is its operand) leaves it as a copy.
// That is invisible until something writes in place through the view or
// its base in another step; then TorchScript would update both and tsir
// only one. Such graphs are refused, naming the write, rather than run to
// a wrong result. (Writes to values that are no view, such as graph
// inputs, reach every holder: segments write their inputs back.)
//
// The ops that address storage by strides (as_strided and its scatter) read
// a value's elements as its storage, which torch's storage is only for a
// tensor that owns it densely: one made by a view that reorders or offsets
// its base (t(), a slice) is refused too.
//
//===----------------------------------------------------------------------===//

#include "tsir/Compiler/Diagnostics.h"
#include "Segments.h"

#include "tsir/Dialect/Aten/SchemaRegistry.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/AliasAnalysis.h"

#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;
using namespace tsir;

/// Whether `op` writes a tensor operand in place.
static bool writesInPlace(Operation *op) {
  const aten::Schema *schema = getTypedOrGenericSchema(op);
  if (!schema)
    return false;
  for (auto [index, argument] : llvm::enumerate(schema->arguments))
    if (argument.isWrite && index < op->getNumOperands() &&
        isa<prim::TensorType>(op->getOperand(index).getType()))
      return true;
  return false;
}

ViewAcrossSegments
tsir::findViewAcrossSegments(func::FuncOp func,
                             ArrayRef<std::unique_ptr<Segment>> segments) {
  // The segment each op runs in (nested ops: their top-level op's).
  DenseMap<Operation *, Segment *> segmentOf;
  for (const std::unique_ptr<Segment> &segment : segments)
    for (Operation *op : segment->ops)
      op->walk([&](Operation *nested) { segmentOf[nested] = segment.get(); });

  // Values that share memory: views with their bases, in-place results
  // with what they write.
  llvm::EquivalenceClasses<Value> aliases;
  SmallVector<Operation *> views, writes;
  func.walk([&](Operation *op) {
    if (resultAliasesFirstOperand(op)) {
      aliases.unionSets(op->getResult(0), op->getOperand(0));
      views.push_back(op);
    }
    if (writesInPlace(op))
      writes.push_back(op);
  });
  // Only views that leave the segment making them lose their aliasing.
  llvm::erase_if(views, [&](Operation *view) {
    Segment *maker = segmentOf.lookup(view);
    return !maker ||
           llvm::all_of(view->getResult(0).getUsers(), [&](Operation *user) {
             return segmentOf.lookup(user) == maker;
           });
  });
  for (Operation *write : writes) {
    Segment *writer = segmentOf.lookup(write);
    for (Operation *view : views) {
      if (view == write || segmentOf.lookup(view) == writer)
        continue;
      bool shared = llvm::any_of(write->getOperands(), [&](Value operand) {
        return aliases.contains(operand) &&
               aliases.isEquivalent(operand, view->getResult(0));
      });
      if (!shared)
        continue;
      return {write, view};
    }
  }
  return {};
}

std::string tsir::describeViewAcrossSegments(const ViewAcrossSegments &found) {
  std::string where = formatLocation(found.write->getLoc());
  std::string viewWhere = formatLocation(found.view->getLoc());
  return (where.empty() ? "" : where + ": ") + "error: in-place " +
         OpRoles::torchName(found.write) + " writes memory that " +
         OpRoles::torchName(found.view) +
         (viewWhere.empty() ? "" : " (" + viewWhere + ")") +
         " shares in another compiled segment; views do not survive "
         "segment boundaries, so this graph cannot run with the "
         "interpreter yet";
}

/// Whether `value` is laid out in torch as a dense row-major tensor from the
/// start of its storage, as tsir holds every value: anything but a view,
/// or a view that keeps the order and the offset of a base that is.
static bool ownsDenseStorage(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || !resultAliasesFirstOperand(def) || writesInPlace(def))
    return true;
  static constexpr llvm::StringLiteral kOrderKeeping[] = {
      "aten::view",      "aten::reshape",    "aten::_reshape_alias",
      "aten::flatten",   "aten::unflatten",  "aten::squeeze",
      "aten::unsqueeze", "aten::contiguous", "aten::view_as",
      "aten::reshape_as", "aten::detach",    "aten::alias"};
  std::string kind = OpRoles::torchName(def);
  StringRef base = StringRef(kind).split('.').first;
  return llvm::is_contained(kOrderKeeping, base) &&
         ownsDenseStorage(def->getOperand(0));
}

rt::Status tsir::checkStorageSemantics(func::FuncOp func) {
  // Views made by a runtime kernel (generic ops: typed views compile, or
  // run natively, to real views) are copies, and the values they share
  // memory with.
  llvm::EquivalenceClasses<Value> aliases;
  SmallVector<Operation *> kernelViews;
  std::string error;
  func.walk([&](Operation *op) {
    std::string kind = OpRoles::torchName(op);
    StringRef base = StringRef(kind).split('.').first;
    if (op->getNumOperands() > 0 &&
        llvm::is_contained({"aten::as_strided", "aten::as_strided_scatter"},
                           base) &&
        !ownsDenseStorage(op->getOperand(0))) {
      error = formatError(
          op->getLoc(),
          kind + " addresses the storage of a view made by " +
              OpRoles::torchName(op->getOperand(0).getDefiningOp()) +
              ", which tsir holds as a dense copy; call it on the base, or "
              "on contiguous() of the view");
      return WalkResult::interrupt();
    }
    if (resultAliasesFirstOperand(op)) {
      aliases.unionSets(op->getResult(0), op->getOperand(0));
      if (isa<prim::GenericOp>(op) && !writesInPlace(op))
        kernelViews.push_back(op);
    }
    return WalkResult::advance();
  });
  if (!error.empty())
    return rt::Status::located(error);
  if (kernelViews.empty())
    return rt::Status::ok();
  Operation *write = nullptr, *view = nullptr;
  func.walk([&](Operation *op) {
    if (!writesInPlace(op) || llvm::is_contained(kernelViews, op))
      return WalkResult::advance();
    for (Operation *candidate : kernelViews)
      for (Value operand : op->getOperands())
        if (aliases.contains(operand) &&
            aliases.isEquivalent(operand, candidate->getResult(0))) {
          write = op;
          view = candidate;
          return WalkResult::interrupt();
        }
    return WalkResult::advance();
  });
  if (!write)
    return rt::Status::ok();
  return rt::Status::located(formatError(
      write->getLoc(),
      "in-place " + OpRoles::torchName(write) + " writes memory that " +
          OpRoles::torchName(view) + " shares, but tsir computes " +
          OpRoles::torchName(view) +
          " as a copy (by a runtime kernel), so the write would not reach "
          "both"));
}
