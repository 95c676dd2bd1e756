//===- CreateFusionGroups.cpp - tsir-create-fusion-groups -----------------===//
//
// Groups connected elementwise tensor ops into `prim.FusionGroup` ops, as
// TorchScript's fusers do before handing a group to a kernel generator.
//
// Which ops fuse: the functional ops of TensorExpr's elementwise set in torch
// 1.13 (get_tensorexpr_elementwise_set), checked op by op against torch's
// own FuseTensorExprs and declared as the `fusible` family in typed_ops.txt
// (the op trait aten::OpTrait::TensorExprFusible), with its per-node checks
// (tensorexpr::isSupported, typesAreSupported): no `Scalar`
// (`!prim.number`) operand, constant `dtype` and `device` arguments,
// constant non-tensor arguments for `aten::to`, and the dtype rules where
// the tensor types say enough (no complex or Byte inputs, float-only
// fmod/remainder, int-only shifts, a floating base for pow). Torch also
// needs complete tensor types (NNC compiles for one shape) and a device it
// can compile for; tsir's graphs are mostly unrefined, so those are not
// required here. Ops without a typed op (`prim.Generic`) are
// opaque and never fuse. An op fuses only if none of its operands or
// results may be written anywhere in the graph (AliasDb's hasWriters): it
// then reads memory nobody changes, so it may run at any point between its
// operands' definitions and its results' uses.
//
// How groups form (linear in the block, one forward sweep, union-find):
// a group is placed, as one op, at index p = min(first outside use of any
// of its results, last member + 1) in the block's original order, and no op
// that is not fused ever moves. The group is valid iff every value it reads
// from outside is defined before p. Each group keeps:
//   - lo: the earliest index the group may sit at (one past the last
//     outside op whose result it reads; for a value of another group, the
//     index of the member reading it, conservatively),
//   - hi: the earliest outside use of its results seen so far,
// and a fusible op joins the groups of its operands only if lo <= hi still
// holds for the union. An op never joins across an op with side effects
// (TorchScript never reorders around one). The bounds are conservative
// (uses inside a later merged group still count), so the exact placement,
// computed at the end, is always valid; two groups where one reads the
// other get placements in that order (see the note in placeGroups). This
// finds everything TorchScript finds by moving a consumer's producers next
// to it, except where it would also move unfused ops out of the way (an
// op between members that uses one member and is used by none): TorchScript
// moves such an op after the group, here the group then stops short.
// TorchScript grows groups from consumers, here from producers, so where
// both orders are valid the members chosen can differ. Constants the group
// reads are cloned into the body (once per value, as TorchScript's constant
// pooling of the subgraph leaves them); other scalars become inputs.
//
// Groups with fewer than `min-group-size` ops are not made. Groups never
// cross a block: each block of prim.If / prim.Loop (any region op but the
// subgraph ops) is fused on its own. TorchScript's TensorExpr fuser also
// merges independent groups that end up adjacent (horizontal fusion); the
// legacy fuser, whose prim::FusionGroup this pass emits, does not, and
// neither does this pass.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Aten/SchemaRegistry.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/AliasAnalysis.h"
#include "tsir/Transforms/Passes.h"
#include "tsir/Transforms/SubgraphOutlining.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

namespace tsir {
#define GEN_PASS_DEF_TSIRCREATEFUSIONGROUPSPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

//===----------------------------------------------------------------------===//
// Which ops fuse
//===----------------------------------------------------------------------===//

static bool isConstant(Value value) {
  return value.getDefiningOp<prim::ConstantOp>() != nullptr;
}

static Type knownDtype(Type type) {
  if (auto tensor = dyn_cast<prim::TensorType>(type))
    return tensor.getDtype();
  return {};
}

/// TorchScript's typesAreSupported, for what the types say: an unknown
/// dtype passes (torch would refuse it for want of a complete type).
static bool dtypesAreSupported(Operation *op) {
  StringRef name = op->getName().getStringRef();
  bool floatOnly =
      name.starts_with("aten.fmod.") || name.starts_with("aten.remainder.");
  bool intOnly = name.starts_with("aten.__lshift__.") ||
                 name.starts_with("aten.__rshift__.");
  for (Value operand : op->getOperands()) {
    Type type = operand.getType();
    if (!isa<prim::TensorType>(type)) {
      // Integer divisors must raise, and shifts have no float rules.
      if (floatOnly && !type.isF64())
        return false;
      if (intOnly && !type.isInteger(64))
        return false;
      continue;
    }
    Type dtype = knownDtype(type);
    if (!dtype)
      continue;
    // The TensorExpr fuser takes neither complex nor quantized tensors.
    if (isa<ComplexType, prim::QuantizedType>(dtype) ||
        dtype.isUnsignedInteger(8))
      return false;
    if (floatOnly && !isa<FloatType>(dtype))
      return false;
    if (intOnly && isa<FloatType>(dtype))
      return false;
  }
  if (name == "aten.pow.Tensor_Scalar")
    if (Type base = knownDtype(op->getOperand(0).getType()))
      return isa<FloatType>(base);
  return true;
}

/// The argument checks of tensorexpr::isSupported and of typesAreSupported
/// for `aten::to`, by schema argument name.
static bool argumentsAreSupported(Operation *op) {
  const aten::Schema *schema = getSchema(op);
  if (!schema)
    return false;
  bool isTo = op->getName().getStringRef().starts_with("aten.to.");
  for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
    // A `Scalar` may be an int or a float at run time: the output type
    // would depend on a value no type guard sees.
    if (isa<prim::NumberType>(operand.getType()))
      return false;
    if (index >= schema->arguments.size())
      return false;
    StringRef argName = schema->arguments[index].name;
    if ((argName == "dtype" || argName == "device") && !isConstant(operand))
      return false;
    if (!isTo || index == 0)
      continue;
    if (!isConstant(operand))
      return false;
    if (argName == "pin_memory") {
      Attribute value = operand.getDefiningOp<prim::ConstantOp>().getValue();
      auto flag = dyn_cast<IntegerAttr>(value);
      if (!isa<UnitAttr>(value) && !(flag && flag.getValue().isZero()))
        return false;
    }
  }
  return true;
}

/// An op this pass may put into a fusion group.
static bool isFusible(Operation *op, const AliasAnalysis &aliases) {
  // Torch 1.13's TensorExpr set, declared in typed_ops.txt.
  if (!op->hasTrait<aten::OpTrait::TensorExprFusible>())
    return false;
  // Elementwise on tensors: one tensor result, at least one tensor operand.
  if (op->getNumResults() != 1 ||
      !isa<prim::TensorType>(op->getResult(0).getType()) ||
      llvm::none_of(op->getOperandTypes(),
                    [](Type type) { return isa<prim::TensorType>(type); }))
    return false;
  if (!argumentsAreSupported(op) || !dtypesAreSupported(op))
    return false;
  // Moving the op must not move a read across a write.
  return !aliases.hasWriters(op);
}

//===----------------------------------------------------------------------===//
// Forming groups in one block
//===----------------------------------------------------------------------===//

namespace {

constexpr unsigned kNoUse = std::numeric_limits<unsigned>::max();

/// A group, as kept at its union-find root (see the file comment).
struct GroupBounds {
  unsigned lo = 0;
  unsigned hi = kNoUse;
  unsigned last = 0;
  unsigned segment = 0;
  unsigned size = 1;
};

/// Forms and builds the fusion groups of one block.
class BlockFuser {
public:
  BlockFuser(Block &block, const llvm::DenseSet<Operation *> &fusible,
             unsigned minGroupSize,
             llvm::SetVector<Operation *> &clonedConstants)
      : block(block), fusible(fusible), minGroupSize(minGroupSize),
        clonedConstants(clonedConstants) {}

  void run();

private:
  /// The index of `value`'s defining op if it is an op of this block.
  std::optional<unsigned> localDef(Value value) const;
  /// The union-find root of a member; members only.
  unsigned find(unsigned index);
  void formGroups();
  void join(unsigned index);
  void recordOutsideUses(unsigned index);
  void placeAndBuild();
  void build(ArrayRef<Operation *> members, Operation *anchor);

  Block &block;
  const llvm::DenseSet<Operation *> &fusible;
  unsigned minGroupSize;
  llvm::SetVector<Operation *> &clonedConstants;

  std::vector<Operation *> ops;
  llvm::DenseMap<Operation *, unsigned> indexOf;
  /// Union-find parent per op index; -1 for ops that are not in a group.
  std::vector<int> parent;
  /// Valid at roots.
  std::vector<GroupBounds> bounds;
};

} // namespace

std::optional<unsigned> BlockFuser::localDef(Value value) const {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != &block)
    return std::nullopt;
  return indexOf.lookup(def);
}

unsigned BlockFuser::find(unsigned index) {
  while (parent[index] != static_cast<int>(index)) {
    parent[index] = parent[parent[index]];
    index = parent[index];
  }
  return index;
}

void BlockFuser::run() {
  for (Operation &op : block) {
    indexOf[&op] = ops.size();
    ops.push_back(&op);
  }
  parent.assign(ops.size(), -1);
  bounds.assign(ops.size(), GroupBounds());
  formGroups();
  placeAndBuild();
}

void BlockFuser::formGroups() {
  unsigned segment = 0;
  for (unsigned index = 0, e = ops.size(); index < e; ++index) {
    Operation *op = ops[index];
    if (fusible.contains(op)) {
      bounds[index].segment = segment;
      join(index);
      continue;
    }
    recordOutsideUses(index);
    // Nothing moves across an op with side effects: it starts a new
    // segment, and groups stay within one.
    if (hasSideEffects(op))
      ++segment;
  }
}

/// Puts the fusible op at `index` into a group: with all its operands'
/// groups if the union stays placeable, else with one of them, else alone.
void BlockFuser::join(unsigned index) {
  Operation *op = ops[index];
  GroupBounds &self = bounds[index];
  self.last = index;
  SmallVector<unsigned, 4> producers;
  unsigned outsideLo = 0;
  for (Value operand : op->getOperands()) {
    std::optional<unsigned> def = localDef(operand);
    if (!def || isConstant(operand))
      continue;
    if (parent[*def] < 0) {
      outsideLo = std::max(outsideLo, *def + 1);
      continue;
    }
    unsigned root = find(*def);
    if (!llvm::is_contained(producers, root))
      producers.push_back(root);
  }

  auto sameSegment = [&](unsigned root) {
    return bounds[root].segment == self.segment;
  };
  SmallVector<unsigned, 4> merged;
  // All producers at once.
  if (llvm::all_of(producers, sameSegment)) {
    unsigned lo = outsideLo, hi = kNoUse;
    for (unsigned root : producers) {
      lo = std::max(lo, bounds[root].lo);
      hi = std::min(hi, bounds[root].hi);
    }
    if (lo <= hi)
      merged = producers;
  }
  // One producer: the others' values then come from outside, read here.
  if (merged.empty() && !producers.empty()) {
    for (unsigned root : producers) {
      unsigned lo = std::max({outsideLo, bounds[root].lo, index});
      if (sameSegment(root) && lo <= bounds[root].hi) {
        merged.push_back(root);
        break;
      }
    }
  }

  self.lo = outsideLo;
  if (merged.size() != producers.size())
    self.lo = std::max(self.lo, index);
  parent[index] = index;
  for (unsigned root : merged) {
    self.lo = std::max(self.lo, bounds[root].lo);
    self.hi = std::min(self.hi, bounds[root].hi);
    self.size += bounds[root].size;
    parent[root] = index;
  }
  // Producers left out see this op as an outside use.
  for (unsigned root : producers)
    if (!llvm::is_contained(merged, root))
      bounds[root].hi = std::min(bounds[root].hi, index);
}

/// The op at `index` stays where it is: each group it (or an op nested in
/// it) reads from must be placed before it.
void BlockFuser::recordOutsideUses(unsigned index) {
  auto record = [&](Value operand) {
    std::optional<unsigned> def = localDef(operand);
    if (!def || parent[*def] < 0)
      return;
    unsigned root = find(*def);
    bounds[root].hi = std::min(bounds[root].hi, index);
  };
  Operation *op = ops[index];
  if (op->getNumRegions() == 0) {
    llvm::for_each(op->getOperands(), record);
    return;
  }
  op->walk([&](Operation *nested) {
    llvm::for_each(nested->getOperands(), record);
  });
}

/// Places each group big enough at min(first outside use, last member + 1)
/// with exact uses, and builds it.
///
/// Why placements respect the reads between groups: if a member m of group
/// G reads a value of group G', then m counted as an outside use of G'
/// (so p(G') <= index(m)), and G's lo became at least index(m) when m
/// joined; G's lo <= hi then keeps every outside use of G after index(m),
/// and its last member is at index(m) or later, so p(G) > index(m) >= p(G').
/// Ops of groups too small to build stay in place, which only relaxes this.
void BlockFuser::placeAndBuild() {
  unsigned count = ops.size();
  llvm::MapVector<unsigned, SmallVector<Operation *>> groups;
  for (unsigned index = 0; index < count; ++index)
    if (parent[index] >= 0) {
      unsigned root = find(index);
      if (bounds[root].size >= minGroupSize)
        groups[root].push_back(ops[index]);
    }
  if (groups.empty())
    return;

  // Final roots, per op index, for ops of a group that is built; -1 else.
  std::vector<int> builtRoot(count, -1);
  for (auto &[root, members] : groups)
    for (Operation *member : members)
      builtRoot[indexOf.lookup(member)] = root;

  SmallVector<std::pair<unsigned, unsigned>> placements; // (p, root)
  for (auto &[root, members] : groups) {
    unsigned place = bounds[root].last + 1;
    for (Operation *member : members)
      for (OpOperand &use : member->getResult(0).getUses()) {
        Operation *user = block.findAncestorOpInBlock(*use.getOwner());
        unsigned userIndex = indexOf.lookup(user);
        if (builtRoot[userIndex] != static_cast<int>(root))
          place = std::min(place, userIndex);
      }
    placements.emplace_back(place, root);
  }
  // Ties cannot order a group before one it reads from (p(G') < p(G)), so
  // any order among equal placements is valid; the root breaks them.
  llvm::sort(placements);

  // The op each group goes before: the first op at or after its place that
  // stays in the block (the terminator at worst).
  std::vector<Operation *> nextStaying(count + 1, nullptr);
  for (unsigned index = count; index-- > 0;)
    nextStaying[index] =
        builtRoot[index] < 0 ? ops[index] : nextStaying[index + 1];
  for (auto [place, root] : placements)
    build(groups[root], nextStaying[place]);
}

//===----------------------------------------------------------------------===//
// Building a group
//===----------------------------------------------------------------------===//

/// Moves `members` (in block order) into a new prim.FusionGroup before
/// `anchor` (SubgraphOutlining.h).
void BlockFuser::build(ArrayRef<Operation *> members, Operation *anchor) {
  outlineSubgraph(
      members, anchor,
      [](OpBuilder &builder, Location loc, TypeRange results,
         ValueRange inputs) -> Operation * {
        return prim::FusionGroupOp::create(builder, loc, results, inputs,
                                           DictionaryAttr());
      },
      clonedConstants);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct TsirCreateFusionGroupsPass
    : tsir::impl::TsirCreateFusionGroupsPassBase<TsirCreateFusionGroupsPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// Subgraph bodies are kernels already (or their fallbacks): not fused
/// again.
static bool isSubgraphOp(Operation *op) {
  return isa<prim::FusionGroupOp, prim::TensorExprGroupOp,
             prim::FallbackGraphOp>(op);
}

void TsirCreateFusionGroupsPass::runOnOperation() {
  func::FuncOp func = getOperation();
  // Decide fusibility on the graph as given, before anything moves; the
  // alias analysis is not updated as groups form.
  AliasAnalysis aliases(func);
  llvm::DenseSet<Operation *> fusible;
  SmallVector<Block *> blocks;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isSubgraphOp(op))
      return WalkResult::skip();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        blocks.push_back(&block);
    if (isFusible(op, aliases))
      fusible.insert(op);
    return WalkResult::advance();
  });

  // Too few candidates for any group: the IR stays as it is, and unchanged
  // IR needs no re-verification (the pass manager's rule).
  if (fusible.size() < std::max(minGroupSize.getValue(), 1u))
    return markAllAnalysesPreserved();

  llvm::SetVector<Operation *> clonedConstants;
  for (Block *block : blocks)
    BlockFuser(*block, fusible, minGroupSize, clonedConstants).run();
  // Constants that only fused ops read now have clones inside the groups.
  for (Operation *constant : clonedConstants)
    if (constant->use_empty())
      constant->erase();
}
