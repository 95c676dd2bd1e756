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
//===----------------------------------------------------------------------===//

#include "tsir/Compiler/Diagnostics.h"
#include "Segments.h"

#include "tsir/Dialect/Aten/SchemaRegistry.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;
using namespace tsir;

static const aten::Schema *schemaOf(Operation *op) {
  return aten::SchemaRegistry::get().lookupTypedOp(
      op->getName().getStringRef());
}

/// Whether `op`'s result is a view of its first operand (`Tensor(a)`), or
/// the operand itself written in place (`Tensor(a!)`).
static bool aliasesFirstOperand(Operation *op) {
  const aten::Schema *schema = schemaOf(op);
  return schema && schema->returns.size() == 1 && op->getNumResults() == 1 &&
         op->getNumOperands() > 0 && !schema->arguments.empty() &&
         !schema->returns.front().aliasSet.empty() &&
         schema->returns.front().aliasSet == schema->arguments.front().aliasSet;
}

/// Whether `op` writes a tensor operand in place.
static bool writesInPlace(Operation *op) {
  const aten::Schema *schema = schemaOf(op);
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
    if (aliasesFirstOperand(op)) {
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
