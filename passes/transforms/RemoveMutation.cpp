//===- RemoveMutation.cpp - prim-remove-mutation --------------------------===//
//
// TorchScript's RemoveListMutation and RemoveTensorMutation
// (torch/csrc/jit/passes/remove_mutation.cpp), run in that order over the
// function as `_jit_pass_remove_mutation` does.
//
// A mutation can go when the value it writes is fresh and nothing can see
// the write but the value itself:
// - the value is made in the same block as the mutation by an op without
//   regions or side effects whose result aliases none of its operands (or
//   by a `prim.ListConstruct`), not a block argument; or it is a `prim.If`
//   result whose two yielded values are such values, used only there;
// - creation and mutation can be made one step: TorchScript's
//   AliasDb::moveBeforeTopologicallyValid. Between the two, no op has side
//   effects, and no op that depends on the creation (uses its results,
//   directly or through ops that do; or writes what it reads) reads or
//   writes what the mutation writes, or feeds the mutation. In particular
//   any other use of the value before the mutation keeps it.
//   One deviation: an op whose only side effect is raising (a shape check,
//   `if ...: raise`, as F.batch_norm makes in training mode) may stand
//   between if it does not depend on the creation. TorchScript keeps the
//   mutation there; but the value is fresh memory no one else sees, and a
//   raise ends the graph, so when it is written cannot be observed.
// Then every later use of the value, nested ones included, sees the
// functional result instead, and the value itself is only read once.
//
// Tensor ops: an aten op whose name ends in `_`, that writes its first
// operand and nothing else and returns it, becomes the op without the `_`
// (the same overload when that is a typed op, else the first typed overload
// with the same argument types), unless another operand may alias the first.
// `zero_` becomes `zeros_like`, `fill_.Scalar` becomes `full_like` with the
// tensor's dtype, as in TorchScript. (TorchScript's `normal_` rewrite needs
// ops tsir has no typed op for, so `normal_` stays.)
//
// List ops: `append`, `insert` at a constant index and `_set_item` at a
// constant index inside the list on a `prim.ListConstruct` are folded into
// the construct, which moves down to where the mutation was. A copy of a
// constant list that such an op writes is first made a literal, and a
// literal that its block only appends to (or extends by a literal) and
// reads becomes one literal per
// read (tsir additions: TorchScript folds only literals, and only writes
// with no read of the list before them).
//
// Freshness is read from the creating op's schema (an unannotated result
// is new memory) rather than from the alias sets. TorchScript asks its
// AliasDb whether the value may contain an alias of the creator's
// operands, a flow-insensitive question; tsir's sets are coarser still
// (a tensor put in a list literal joins the wildcard set), and using them
// would keep the common `x.relu_(); cat([x, y])`, which TorchScript
// rewrites. Fresh memory reaches nothing before the mutation unless some
// op between uses it, which the atomicity check rejects, so the rewrite is
// sound either way; TorchScript is stricter only where a value later goes
// into a nested container or is appended to a list.
//
// The alias analysis is built once, when the first candidate needs it. A
// functional result takes over the alias set of the value it replaces, as
// TorchScript's AliasDb update does; the ops the pass creates write
// nothing. The creation is not moved next to the mutation as TorchScript
// does (the functional op takes the mutation's place), except for list
// literals, which must come after the elements they gain.
//
//===----------------------------------------------------------------------===//

#include "FoldUtils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Aten/SchemaRegistry.h"
#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/AliasAnalysis.h"
#include "tsir/Transforms/FunctionalVariants.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMREMOVEMUTATIONPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {

std::optional<int64_t> getConstantInt(Value value) {
  IntegerAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  return attr.getValue().getSExtValue();
}

bool hasAnnotation(const aten::SchemaType &type) {
  if (!type.alias.empty())
    return true;
  return llvm::any_of(type.elements, hasAnnotation);
}

/// The op's schema, if its operands and results follow it one to one.
const aten::Schema *getMatchingSchema(Operation *op) {
  const aten::Schema *schema = getSchema(op);
  if (!schema || schema->isVararg || schema->isVarret ||
      schema->arguments.size() != op->getNumOperands() ||
      schema->returns.size() != op->getNumResults())
    return nullptr;
  return schema;
}

class MutationRemover {
public:
  explicit MutationRemover(func::FuncOp func) : func(func) {}

  /// Whether anything changed.
  bool run() {
    expandCopiedConstantLists();
    splitAppendedLiterals(func.getBody());
    splitDictWrites();
    removeListMutation(func.getBody());
    removeTensorMutation(func.getBody());
    return changed;
  }

private:
  //===--------------------------------------------------------------------===//
  // Alias queries that know about the pass's own changes
  //===--------------------------------------------------------------------===//

  AliasAnalysis &getAliases() {
    if (!aliases)
      aliases.emplace(func);
    return *aliases;
  }

  const void *aliasSet(Value value) {
    auto it = createdSets.find(value);
    if (it != createdSets.end())
      return it->second;
    return getAliases().aliasSet(value);
  }

  /// The sets `op` (with its nested ops) reads: those of every operand.
  void collectReads(Operation *op, llvm::SmallPtrSetImpl<const void *> &sets) {
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (const void *set = aliasSet(operand))
          sets.insert(set);
    });
  }

  /// The sets `creator` reads, as collectReads gives them. A list literal
  /// that folds one mutation after another grows by one element each time,
  /// so its sets are kept and grown with it instead of rescanned: with
  /// tens of thousands of appends, rescanning made the pass quadratic.
  const llvm::SmallPtrSetImpl<const void *> &
  creatorReads(Operation *creator,
               llvm::SmallPtrSetImpl<const void *> &scratch) {
    if (!isa<prim::ListConstructOp>(creator)) {
      collectReads(creator, scratch);
      return scratch;
    }
    auto [it, inserted] = literalReads.try_emplace(creator);
    if (inserted)
      collectReads(creator, it->second);
    return it->second;
  }

  void collectWrites(Operation *op, llvm::SmallPtrSetImpl<const void *> &sets) {
    if (created.contains(op))
      return;
    for (const void *set : getAliases().writtenSets(op))
      sets.insert(set);
  }

  /// TorchScript's `hasSideEffectOrAlias`, negated: `value` is a fresh value
  /// made by an op TorchScript can reason about.
  bool isFresh(Value value) const {
    auto result = dyn_cast<OpResult>(value);
    if (!result)
      return false; // graph inputs, loop-carried values
    Operation *def = result.getOwner();
    if (def->getNumRegions() != 0 || hasSideEffects(def) || isOpaque(def))
      return false;
    // A weight the caller binds (#prim.tensor_ref) is the caller's memory,
    // a module's buffer: a write to it (a batch norm's running statistics)
    // must reach it.
    if (auto constant = dyn_cast<prim::ConstantOp>(def);
        constant && isa<prim::TensorRefAttr>(constant.getValue()))
      return false;
    // New memory: a list literal (it holds its elements but is its own
    // list), a number wrapped in a tensor, a constant (TorchScript's
    // AliasDb gives a constant its own memory too), the functional results
    // this pass made.
    if (isa<prim::ListConstructOp, prim::NumToTensorOp, prim::ConstantOp,
            prim::UninitializedOp>(def) ||
        created.contains(def))
      return true;
    // A result without an alias annotation is new memory.
    const aten::Schema *schema = getMatchingSchema(def);
    return schema &&
           !hasAnnotation(schema->returns[result.getResultNumber()].type);
  }

  /// TorchScript's AliasDb::moveBeforeTopologicallyValid(creator, mutation),
  /// as a dry run: whether `creator` could move to just before `mutation`,
  /// the ops in between that depend on it moving to just after. They must
  /// not depend on the mutation.
  bool canMakeAtomic(Operation *creator, Operation *mutation) {
    // (The creator is above the mutation, which uses what it makes.)
    if (creator->getBlock() != mutation->getBlock() || hasSideEffects(creator))
      return false;
    llvm::SmallPtrSet<const void *, 8> scratchReads, creatorWrites;
    const llvm::SmallPtrSetImpl<const void *> &creatorReads =
        this->creatorReads(creator, scratchReads);
    collectWrites(creator, creatorWrites);
    // The ops between that depend on the creator, and their reads/writes.
    llvm::SmallPtrSet<Operation *, 8> dependents;
    llvm::SmallPtrSet<const void *, 8> reads, writes;

    auto usesResultOf = [](Operation *op, auto &&isProducer) {
      WalkResult walk = op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (Operation *def = operand.getDefiningOp())
            if (isProducer(def))
              return WalkResult::interrupt();
        return WalkResult::advance();
      });
      return walk.wasInterrupted();
    };
    auto intersects = [](const llvm::SmallPtrSetImpl<const void *> &a,
                         const llvm::SmallPtrSetImpl<const void *> &b) {
      return llvm::any_of(a, [&](const void *set) { return b.contains(set); });
    };

    for (Operation *op = creator->getNextNode(); op != mutation;
         op = op->getNextNode()) {
      // Never valid to reorder around a node with side effects, except
      // one that can only raise and does not depend on the creator (below).
      bool raises = hasSideEffects(op);
      if (raises && !onlyRaises(op))
        return false;
      llvm::SmallPtrSet<const void *, 8> opReads, opWrites;
      collectReads(op, opReads);
      collectWrites(op, opWrites);
      bool depends =
          usesResultOf(op,
                       [&](Operation *def) {
                         return def == creator || dependents.contains(def);
                       }) ||
          intersects(opWrites, creatorReads) || intersects(opWrites, reads) ||
          intersects(opWrites, creatorWrites) || intersects(opWrites, writes) ||
          intersects(creatorWrites, opReads) || intersects(writes, opReads);
      if (!depends)
        continue;
      if (raises)
        return false;
      dependents.insert(op);
      reads.insert(opReads.begin(), opReads.end());
      writes.insert(opWrites.begin(), opWrites.end());
    }

    // The dependents would move past the mutation: they must not feed it,
    // nor touch what it touches.
    if (dependents.empty())
      return true;
    llvm::SmallPtrSet<const void *, 8> mutationReads, mutationWrites;
    collectReads(mutation, mutationReads);
    collectWrites(mutation, mutationWrites);
    return !usesResultOf(
               mutation,
               [&](Operation *def) { return dependents.contains(def); }) &&
           !intersects(mutationWrites, reads) &&
           !intersects(mutationWrites, writes) &&
           !intersects(writes, mutationReads);
  }

  //===--------------------------------------------------------------------===//
  // Lists
  //===--------------------------------------------------------------------===//

  /// `l = list(constant).copy()` (or `list(l)`) made mutable for the writes that follow
  /// (torchvision's Swin: `shift_size = shift_size.copy()`, then
  /// `shift_size[0] = 0` under a test the specialized shapes decide). A
  /// copy is a fresh list, as a literal of the constant's elements is, so
  /// the copy becomes that literal and the writes fold into it below. Only
  /// copies that something writes are expanded, before the alias analysis
  /// is built; lists of immutable elements only (a constant holds no tensor).
  void expandCopiedConstantLists() {
    llvm::SmallVector<std::pair<Operation *, ArrayAttr>> copies;
    func.walk([&](Operation *copy) {
      // `l.copy()` and `list(l)` both make a fresh list.
      if (!isa<aten::CopyTOp, aten::ListTOp>(copy))
        return;
      auto constant = copy->getOperand(0).getDefiningOp<prim::ConstantOp>();
      auto elements =
          constant ? dyn_cast<ArrayAttr>(constant.getValue()) : ArrayAttr();
      if (elements && llvm::any_of(copy->getUsers(), [](Operation *user) {
            return isa<aten::AppendTOp, aten::InsertTOp,
                       aten::PrivateSetItemTOp>(user);
          }))
        copies.push_back({copy, elements});
    });
    for (auto [copy, constantElements] : copies) {
      auto type = cast<prim::ListType>(copy->getResult(0).getType());
      OpBuilder builder(copy);
      llvm::SmallVector<Value> elements;
      for (Attribute element : constantElements)
        elements.push_back(prim::ConstantOp::create(
            builder, copy->getLoc(), type.getElementType(), element));
      Value literal = prim::ListConstructOp::create(builder, copy->getLoc(),
                                                    type, elements);
      copy->getResult(0).replaceAllUsesWith(literal);
      copy->erase();
      changed = true;
    }
  }

  /// A list literal that is only appended to (or extended by a literal,
  /// or has constant elements
  /// written: `images[i] = image` in an unrolled loop) in its own block, and read
  /// there or in the control flow after (loops, branches), holds at each
  /// read the elements appended before it; each read then gets a literal
  /// of those, and the appends go. DenseNet's blocks
  /// are `features.append(layer(cat(features)))` over and over, which
  /// TorchScript's folding keeps (the list is read before each append):
  /// after this, every `cat` has a literal and its sizes refine. The reads
  /// (cat, stack, len, indexing, unpacking, and the copies `+`, `list()`,
  /// `copy()` and slicing make) take the list's elements and
  /// keep no reference to it, so which list object they read cannot be
  /// observed; an append's result must be unused for the same reason.
  void splitAppendedLiterals(Region &region) {
    // Collected first: splitting erases appends further down the block.
    SmallVector<prim::ListConstructOp> lists;
    region.walk([&](prim::ListConstructOp list) { lists.push_back(list); });
    for (prim::ListConstructOp list : lists)
      splitAppends(list);
  }

  /// The dict analogue of splitAppendedLiterals: a dict literal
  /// (`prim.DictConstruct` of constant str keys: `out = OrderedDict()`,
  /// then `out[name] = x` per layer, as torchvision's
  /// IntermediateLayerGetter and FPN build their features) written only in
  /// its own block at constant keys, and read (onlyReadsDict) there or in
  /// control flow after: each read gets a literal of the entries written
  /// before it (a key written again keeps its place and takes the new
  /// value, as a dict does), and the writes go.
  void splitDictWrites() {
    SmallVector<prim::DictConstructOp> dicts;
    func.walk([&](prim::DictConstructOp dict) { dicts.push_back(dict); });
    for (prim::DictConstructOp dict : dicts)
      splitDictWrites(dict);
  }

  void splitDictWrites(prim::DictConstructOp dict) {
    Block *block = dict->getBlock();
    SmallVector<std::pair<Operation *, Operation *>> users;
    bool writes = false;
    for (OpOperand &use : dict.getResult().getUses()) {
      Operation *user = use.getOwner();
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor)
        return;
      if (auto write = dyn_cast<aten::PrivateSetItemStrOp>(user)) {
        if (ancestor != user || use.getOperandNumber() != 0 ||
            write.getOperand(2) == dict.getResult() ||
            !getConstantString(write.getOperand(1)))
          return;
        writes = true;
      } else if (!onlyReadsDict(use)) {
        return;
      }
      users.push_back({ancestor, user});
    }
    // Its own entries, in order: every key a constant.
    SmallVector<std::pair<Value, Value>> entries;
    ValueRange operands = dict->getOperands();
    for (size_t i = 0; i + 1 < operands.size(); i += 2) {
      if (!getConstantString(operands[i]))
        return;
      entries.push_back({operands[i], operands[i + 1]});
    }
    if (!writes)
      return;
    llvm::sort(users, [](const auto &a, const auto &b) {
      return a.first != b.first && a.first->isBeforeInBlock(b.first);
    });
    users.erase(llvm::unique(users), users.end());
    Value current = dict.getResult();
    bool stale = false;
    for (auto [ancestor, user] : users) {
      if (auto write = dyn_cast<aten::PrivateSetItemStrOp>(user)) {
        StringRef key = *getConstantString(write.getOperand(1));
        auto *entry = llvm::find_if(entries, [&](const auto &e) {
          return *getConstantString(e.first) == key;
        });
        if (entry != entries.end())
          entry->second = write.getOperand(2);
        else
          entries.push_back({write.getOperand(1), write.getOperand(2)});
        write.erase();
        stale = true;
        continue;
      }
      if (stale) {
        OpBuilder builder(ancestor);
        SmallVector<Value> keysAndValues;
        for (auto [key, value] : entries) {
          keysAndValues.push_back(key);
          keysAndValues.push_back(value);
        }
        current = prim::DictConstructOp::create(builder, dict.getLoc(),
                                                dict.getType(), keysAndValues);
        stale = false;
      }
      user->replaceUsesOfWith(dict.getResult(), current);
    }
    if (dict->use_empty())
      dict.erase();
    changed = true;
  }

  /// The element `setItem` writes in a list of `length` elements (Python's
  /// negative indices from the end); nullopt if it is not a constant in
  /// range.
  static std::optional<unsigned> elementIndex(aten::PrivateSetItemTOp setItem,
                                              int64_t length) {
    std::optional<int64_t> index = getConstantInt(setItem.getIdx());
    if (!index)
      return std::nullopt;
    int64_t position = *index < 0 ? *index + length : *index;
    if (position < 0 || position >= length)
      return std::nullopt;
    return unsigned(position);
  }

  /// How many elements `extend` appends: the length of a list literal
  /// nothing else uses or of a constant (FPN's `names.extend(["p6",
  /// "p7"])`, `results.extend([p6, p7])`); nullopt for any other list.
  static std::optional<size_t> extendedLength(aten::ExtendTOp extend) {
    Value other = extend.getOther();
    if (auto literal = other.getDefiningOp<prim::ListConstructOp>())
      if (literal->hasOneUse())
        return literal.getElements().size();
    if (auto constant = other.getDefiningOp<prim::ConstantOp>())
      if (auto elements = dyn_cast<ArrayAttr>(constant.getValue()))
        return elements.size();
    return std::nullopt;
  }

  /// The elements `extend` appends, as values before it (extendedLength
  /// said it takes a literal or a constant).
  static void appendExtended(aten::ExtendTOp extend,
                             SmallVectorImpl<Value> &elements) {
    Value other = extend.getOther();
    if (auto literal = other.getDefiningOp<prim::ListConstructOp>()) {
      llvm::append_range(elements, literal.getElements());
      return;
    }
    auto constant = other.getDefiningOp<prim::ConstantOp>();
    Type elementType = cast<prim::ListType>(other.getType()).getElementType();
    OpBuilder builder(extend);
    for (Attribute element : cast<ArrayAttr>(constant.getValue()))
      elements.push_back(prim::ConstantOp::create(builder, extend.getLoc(),
                                                  elementType, element));
  }

  void splitAppends(prim::ListConstructOp list) {
    Block *block = list->getBlock();
    // Each user with the op of the list's block that holds it: a read may
    // sit in a loop or branch after the appends (RAFT reads its pyramid
    // in the refinement loop), an append must be in the block itself.
    SmallVector<std::pair<Operation *, Operation *>> users;
    bool appends = false;
    for (Operation *user : list->getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor)
        return;
      if (isa<aten::AppendTOp, aten::PrivateSetItemTOp, aten::ExtendTOp>(
              user)) {
        // The element (or list) written is the user's last operand.
        if (ancestor != user || user->getOperand(0) != list.getResult() ||
            user->getOperands().back() == list.getResult() ||
            !user->use_empty())
          return;
        if (auto setItem = dyn_cast<aten::PrivateSetItemTOp>(user))
          if (!getConstantInt(setItem.getIdx()))
            return;
        if (auto extend = dyn_cast<aten::ExtendTOp>(user))
          if (!extendedLength(extend))
            return;
        appends = true;
      } else if (!isa<aten::CatOp, aten::StackOp, aten::LenTOp,
                      aten::DunderGetitemTOp, prim::ListUnpackOp,
                      aten::AddTOp, aten::ListTOp, aten::CopyTOp,
                      aten::SliceTOp>(user)) {
        return;
      }
      users.push_back({ancestor, user});
    }
    if (!appends)
      return;
    // Reads under one op see the same elements: their order is free.
    llvm::sort(users, [](const auto &a, const auto &b) {
      return a.first != b.first && a.first->isBeforeInBlock(b.first);
    });
    users.erase(llvm::unique(users), users.end());
    // Each `_set_item` must write an element the list has when it runs
    // (one out of range raises at run time, and stays).
    int64_t length = list.getElements().size();
    for (auto [ancestor, user] : users) {
      if (isa<aten::AppendTOp>(user))
        ++length;
      else if (auto extend = dyn_cast<aten::ExtendTOp>(user))
        length += *extendedLength(extend);
      else if (auto setItem = dyn_cast<aten::PrivateSetItemTOp>(user))
        if (!elementIndex(setItem, length))
          return;
    }
    SmallVector<Value> elements(list.getElements());
    Value current = list.getResult();
    bool stale = false;
    for (auto [ancestor, user] : users) {
      if (auto append = dyn_cast<aten::AppendTOp>(user)) {
        elements.push_back(append.getEl());
        append.erase();
        stale = true;
        continue;
      }
      if (auto extend = dyn_cast<aten::ExtendTOp>(user)) {
        appendExtended(extend, elements);
        extend.erase();
        stale = true;
        continue;
      }
      if (auto setItem = dyn_cast<aten::PrivateSetItemTOp>(user)) {
        elements[*elementIndex(setItem, elements.size())] = setItem.getEl();
        setItem.erase();
        stale = true;
        continue;
      }
      if (stale) {
        OpBuilder builder(ancestor);
        current = prim::ListConstructOp::create(builder, list.getLoc(),
                                                list.getType(), elements);
        stale = false;
      }
      user->replaceUsesOfWith(list.getResult(), current);
    }
    if (list->use_empty())
      list.erase();
    changed = true;
  }

  /// For `append`, `insert` and `_set_item` on a list literal: where the
  /// element goes in the literal's operands, and whether it replaces one.
  /// None if TorchScript would not fold the op.
  std::optional<std::pair<unsigned, bool>>
  getFoldPosition(Operation *op, prim::ListConstructOp list) {
    int64_t size = list.getElements().size();
    if (isa<aten::AppendTOp>(op))
      return std::make_pair(unsigned(size), false);
    if (auto insert = dyn_cast<aten::InsertTOp>(op)) {
      std::optional<int64_t> index = getConstantInt(insert.getIdx());
      if (!index)
        return std::nullopt;
      // Python's list.insert: negative from the end, clamped to the list.
      int64_t pos = *index < 0 ? std::max<int64_t>(*index + size, 0) : *index;
      return std::make_pair(unsigned(std::min(pos, size)), false);
    }
    if (auto setItem = dyn_cast<aten::PrivateSetItemTOp>(op)) {
      std::optional<unsigned> pos = elementIndex(setItem, size);
      if (!pos)
        return std::nullopt; // raises at run time: keep it
      return std::make_pair(*pos, true);
    }
    return std::nullopt;
  }

  void removeListMutation(Region &region) {
    for (Block &block : region)
      for (Operation &op : llvm::make_early_inc_range(block)) {
        for (Region &nested : op.getRegions())
          removeListMutation(nested);
        if (!isa<aten::AppendTOp, aten::InsertTOp, aten::PrivateSetItemTOp>(op))
          continue;
        auto list = op.getOperand(0).getDefiningOp<prim::ListConstructOp>();
        if (!list)
          continue;
        std::optional<std::pair<unsigned, bool>> position =
            getFoldPosition(&op, list);
        if (!position || !canMakeAtomic(list, &op))
          continue;
        Value element = op.getOperand(op.getNumOperands() - 1);
        // The literal moves down to the mutation, below the element's
        // definition; nothing between reads the list (that would conflict
        // with the write), so this is the move TorchScript makes.
        list->moveBefore(&op);
        auto [index, replace] = *position;
        auto reads = literalReads.find(list);
        if (replace) {
          list->setOperand(index, element);
          // The replaced element's sets may no longer be read.
          if (reads != literalReads.end())
            literalReads.erase(reads);
        } else {
          list->insertOperands(index, element);
          if (reads != literalReads.end())
            if (const void *set = aliasSet(element))
              reads->second.insert(set);
        }
        for (Value result : op.getResults())
          result.replaceAllUsesWith(list.getResult());
        op.erase();
        changed = true;
      }
  }

  //===--------------------------------------------------------------------===//
  // Tensors
  //===--------------------------------------------------------------------===//

  /// TorchScript's inplaceOpVariant plus the lookup of the functional op:
  /// the typed op `op` becomes, or none.
  std::optional<OperationName> getFunctionalVariant(Operation *op) {
    auto [it, inserted] = functionalVariants.try_emplace(op->getName());
    if (inserted)
      it->second = lookupFunctionalVariant(op);
    return it->second;
  }

  std::optional<OperationName> lookupFunctionalVariant(Operation *op) {
    return tsir::lookupFunctionalVariant(op);
  }

  /// The functional op replacing in-place `op`, created before it, with
  /// the ops computing its extra operands; null if there is none. `made`
  /// receives every op created.
  Operation *createFunctional(OpBuilder &builder, Operation *op,
                              llvm::SmallPtrSetImpl<Operation *> &made) {
    return createFunctionalVariant(builder, op, [&](Operation *newOp) {
      created.insert(newOp);
      made.insert(newOp);
    });
  }

  /// Whether TorchScript's inplaceOpVariant holds for `op`.
  bool isInplaceVariant(Operation *op) {
    if (isa<aten::Zero_Op, aten::Fill_ScalarOp>(op))
      return true;
    if (!getFunctionalVariant(op))
      return false;
    // TorchScript also requires that no other operand may alias the first,
    // which is written. For a first operand that passes the other checks
    // (fresh, nothing between its creation and here touches it), only the
    // value itself can: memory made by its creator is reachable from
    // earlier values only through ops using it, which the atomicity check
    // rejects. The flow-insensitive alias sets would say more (a value
    // later stored in a list is wildcard memory) and keep mutations
    // TorchScript removes.
    return !llvm::is_contained(op->getOperands().drop_front(),
                               op->getOperand(0));
  }

  /// TorchScript's tryMakeUnaliasedIfOutputAndMutationAtomic: `value` is an
  /// If result whose yielded values are fresh and used only there.
  bool isUnaliasedIfResult(Value value, Operation *mutation) {
    auto ifOp = value.getDefiningOp<prim::IfOp>();
    if (!ifOp)
      return false;
    unsigned index = cast<OpResult>(value).getResultNumber();
    for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
      Value yielded = region->front().getTerminator()->getOperand(index);
      if (!yielded.hasOneUse() || !isFresh(yielded))
        return false;
    }
    return canMakeAtomic(ifOp, mutation);
  }

  void removeTensorMutation(Region &region) {
    OpBuilder builder(func.getContext());
    for (Block &block : region)
      for (Operation &op : llvm::make_early_inc_range(block)) {
        for (Region &nested : op.getRegions())
          removeTensorMutation(nested);
        if (!isa_and_nonnull<aten::AtenDialect>(op.getDialect()) ||
            op.getNumResults() != 1 || op.getNumOperands() == 0 ||
            !isInplaceVariant(&op))
          continue;
        Value self = op.getOperand(0);
        bool atomic =
            (isFresh(self) && canMakeAtomic(self.getDefiningOp(), &op)) ||
            isUnaliasedIfResult(self, &op);
        if (!atomic)
          continue;
        llvm::SmallPtrSet<Operation *, 8> made;
        Operation *functional = createFunctional(builder, &op, made);
        if (!functional)
          continue;
        Value result = functional->getResult(0);
        // The functional result stands for the mutated value from here on,
        // with its alias set; the mutated value is only read once more.
        createdSets[result] = aliasSet(self);
        op.getResult(0).replaceAllUsesWith(result);
        self.replaceUsesWithIf(result, [&](OpOperand &use) {
          return !made.contains(use.getOwner());
        });
        op.erase();
        changed = true;
      }
  }

  func::FuncOp func;
  bool changed = false;
  /// Built on first use, before the first change: most graphs have no
  /// mutation to look at.
  std::optional<AliasAnalysis> aliases;
  /// Ops the pass created (they write nothing) and the alias sets of the
  /// values they made that stand for an earlier value.
  llvm::DenseSet<Operation *> created;
  llvm::DenseMap<Value, const void *> createdSets;
  /// creatorReads' sets of the list literals folded into so far.
  llvm::DenseMap<Operation *, llvm::SmallPtrSet<const void *, 8>> literalReads;
  /// getFunctionalVariant's answers, per op name (the schema lookups are
  /// string searches).
  llvm::DenseMap<OperationName, std::optional<OperationName>>
      functionalVariants;
};

struct PrimRemoveMutationPass
    : tsir::impl::PrimRemoveMutationPassBase<PrimRemoveMutationPass> {
  using Base::Base;
  void runOnOperation() override {
    if (!MutationRemover(getOperation()).run())
      markAllAnalysesPreserved(); // unchanged IR needs no re-verification
  }
};

} // namespace
