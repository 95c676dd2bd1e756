//===- Differentiate.cpp - tsir-differentiate -----------------------------===//
//
// Reverse-mode differentiation of `@graph`, as TorchScript's
// `differentiate` (torch/csrc/jit/runtime/autodiff.cpp) does it: the
// values that depend on a `wrt` value are the active ones; walking the
// graph backwards from its outputs, each active op's formula
// (derivatives.txt, through DerivativeTable) is instantiated into the
// backward function, and the gradients reaching a value from its several
// uses are added up.
//
// Ops with a decomposition (dropout's training mode, group_norm, conv1d)
// are replaced by it first, and its branches on constant flags folded.
//
// The backward is built directly as its own function. A forward value a
// formula reads is captured: it becomes a backward argument and a forward
// result, except constants and weights, and scalars and shapes computed
// without side effects, which the backward computes again (there they
// fold, the backward being specialized to its own tensors' sizes).
// After the backward is built, the ops and captures it does not need go,
// and what is left is recorded as #prim.gradient on the forward.
//
//===----------------------------------------------------------------------===//

#include "DerivativeTable.h"
#include "EinsumGradient.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Aten/SchemaRegistry.h"
#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/AliasAnalysis.h"
#include "tsir/Transforms/DecompositionLibrary.h"
#include "tsir/Transforms/GraphLibrary.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRDIFFERENTIATEPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;
using namespace tsir::autodiff;

namespace {

/// Whether buildPlaceholder makes a value of `type`.
bool canBuildPlaceholder(Type type) {
  return type.isInteger(64) || type.isInteger(1) || type.isF64() ||
         isa<prim::ListType>(type);
}

/// A value of `type` for a branch that does not compute a value the
/// backward reads from the other branch: the prim.If's condition, the
/// same in the backward, decides which one is read, so any value of the
/// type will do (a scalar, or a list, such as a size one branch
/// computes). Null for other types.
Value buildPlaceholder(OpBuilder &builder, Location loc, Type type) {
  if (type.isInteger(64))
    return prim::ConstantOp::create(builder, loc, type,
                                    builder.getI64IntegerAttr(0));
  if (type.isInteger(1))
    return prim::ConstantOp::create(builder, loc, type,
                                    builder.getBoolAttr(false));
  if (type.isF64())
    return prim::ConstantOp::create(builder, loc, type,
                                    builder.getF64FloatAttr(0));
  if (isa<prim::ListType>(type))
    return prim::ListConstructOp::create(builder, loc, type, ValueRange{});
  return {};
}

/// The name a `wrt` entry calls `value` by: a graph input's or a weight's
/// value name (a weight imported without data is named by its reference).
/// An input without one (MLIR written by hand, or printed without its
/// locations) is called as MLIR prints it, `arg0`.
std::string nameOf(Value value) {
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    StringRef name = getArgumentName(argument.getLoc());
    return name.empty() ? "arg" + std::to_string(argument.getArgNumber())
                        : name.str();
  }
  Operation *op = value.getDefiningOp();
  if (auto constant = dyn_cast<prim::ConstantOp>(op))
    if (auto ref = dyn_cast<prim::TensorRefAttr>(constant.getValue()))
      return ref.getName().str();
  NodeLocation parts = decodeNodeLocation(op->getLoc());
  unsigned index = cast<OpResult>(value).getResultNumber();
  return index < parts.resultNames.size() ? parts.resultNames[index].str()
                                          : "";
}

/// `x` for `x.1`: TorchScript makes names unique with a numeric suffix.
StringRef withoutUniqueSuffix(StringRef name) {
  auto [stem, suffix] = name.rsplit('.');
  if (!suffix.empty() && !stem.empty() &&
      llvm::all_of(suffix, [](char c) { return c >= '0' && c <= '9'; }))
    return stem;
  return name;
}

bool isTensor(Value value) { return isa<prim::TensorType>(value.getType()); }

/// Whether a value of `type` can hold something with a gradient.
bool canCarryGradient(Type type) {
  return isa<prim::TensorType, prim::ListType, prim::TupleType,
             prim::OptionalType>(type);
}

/// A weight: a tensor constant.
bool isWeight(Operation *op) {
  auto constant = dyn_cast<prim::ConstantOp>(op);
  return constant && isa<prim::TensorType>(constant.getType());
}

/// Whether `op` computes a scalar or a list of scalars (a size, a dim, a
/// shape built from them) without side effects, so that the backward can
/// compute it again from its own inputs instead of taking it as one: there
/// it folds once the backward is specialized to its tensors' sizes.
bool isRecomputable(Operation *op) {
  if (op->getNumRegions() != 0 || op->getNumResults() != 1)
    return false;
  Type type = op->getResult(0).getType();
  if (auto list = dyn_cast<prim::ListType>(type))
    type = list.getElementType();
  if (!type.isIntOrFloat())
    return false;
  if (!isa<prim::ListConstructOp>(op))
    return isMemoryEffectFree(op);
  // A list literal, if nothing writes into it.
  return llvm::all_of(op->getUsers(), [](Operation *user) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(user);
    return effects && !effects.hasEffect<MemoryEffects::Write>();
  });
}

/// An op the backward can drop: its results are unused, it cannot raise
/// (a formula's guard) or have another side effect, and it writes no
/// memory (a formula's `append` to a list it reads later, whose own result
/// nothing uses).
bool isDead(Operation *op, const AliasAnalysis &aliases) {
  if (op->getNumResults() == 0 || !op->use_empty())
    return false;
  return !hasSideEffects(op) && !aliases.writesMemory(op);
}

class Differentiator {
public:
  Differentiator(func::FuncOp graph, const DerivativeTable &table)
      : graph(graph), table(table), builder(graph.getContext()) {}

  LogicalResult run(ArrayRef<std::string> wrtNames);

private:
  LogicalResult resolveWrt(ArrayRef<std::string> wrtNames);
  void markActive(Block &block);
  /// Refuses a `with torch.no_grad():` block that reads
  /// the differentiated path: torch records nothing inside it (an in-place
  /// op there passes the gradient through untouched), which the formulas
  /// cannot say.
  LogicalResult checkGradModeBlocks(Block &block);
  /// Refuses an op that writes in place into memory a tensor on the
  /// differentiated path may point to. prim-remove-mutation keeps such a
  /// write where other values can see it (through a view: `c[1:2].zero_()`,
  /// or into an input); the formulas are functional, so the write's effect
  /// on those values would be lost, and the gradient silently wrong.
  LogicalResult checkInPlaceWrites();
  /// Gives each active prim.If one more result per value its branches
  /// define, so that the backward can read them (the other branch yields
  /// a stand-in, never read: the backward takes the same branch).
  /// Nested prim.Ifs first, so that a value of an inner branch leaves
  /// through every prim.If around it.
  void exportBranchValues(Block &block);
  /// Differentiates the ops of `block` that gradients reach, last first.
  LogicalResult differentiateBlock(Block &block);
  /// prim.If branch by branch: a prim.If of the backward on the same
  /// condition, each branch differentiating the forward's, yielding the
  /// gradients of the outer values the branches read.
  LogicalResult differentiateIf(prim::IfOp op);
  /// prim.Loop in reverse, from a tape: the forward appends to a list each
  /// value of an iteration that the backward reads, and a backward loop
  /// runs the iterations last first, reading them back, carrying the
  /// gradients of the loop-carried values and of the outer values the
  /// body reads.
  LogicalResult differentiateLoop(prim::LoopOp op);
  /// The backward's value, in the iteration being differentiated, of a
  /// value the innermost loop's body defines (the tape entry); null for
  /// any other value.
  Value readFromTape(Value value);
  /// A new tape of `value`, defined in `loop`'s body: an empty list
  /// before the loop, which each iteration appends the value to where it
  /// is defined (a block argument as the iteration starts).
  Value makeTape(prim::LoopOp loop, Value value);
  /// The active values from outside `op` that the ops of its regions
  /// read, in order: differentiating `op` gives their gradients (a list a
  /// loop fills for a stack takes none itself).
  SmallVector<Value> outerActiveValues(Operation *op);
  /// Forgets the backward values built inside `reverse`, which are not
  /// visible after it.
  void forgetValuesBuiltIn(Operation *reverse);
  void collectOutputs(Value output);
  func::FuncOp createBackward();
  LogicalResult differentiate(Operation *op);
  /// Lists are plumbing, not math: a list's gradient is the list of its
  /// elements' gradients (ListConstruct, ListUnpack), and the ops over a
  /// list literal (broadcast_tensors, cat, stack) give each element its
  /// part.
  LogicalResult differentiateListOp(Operation *op);
  /// The gradients of a list's elements: the gradient list unpacked.
  SmallVector<Value> unpackGradient(Value list, unsigned count);
  /// The backward's value for the forward value `value`.
  Value capture(Value value);
  void accumulate(Value value, Value gradient, Location loc);
  Value zerosLike(Value backwardValue, Location loc);
  void removeDeadCode();
  void removeUnreadTapes();
  void finishForward();

  func::FuncOp graph, backward;
  const DerivativeTable &table;
  OpBuilder builder;

  SmallVector<Value> wrt;
  SmallVector<std::string> wrtNames;
  DenseSet<Value> active;
  /// The tensor outputs, tuples flattened, in order: one gradient each.
  SmallVector<Value> outputs;
  DenseMap<Value, Value> gradients;
  /// Forward value -> its backward counterpart (argument or clone).
  DenseMap<Value, Value> backwardValues;
  /// The captured forward values, in the order of the backward's first
  /// arguments.
  SmallVector<Value> captured;
  /// A value a forward branch defines -> the prim.If result exporting it.
  DenseMap<Value, Value> exported;
  /// Whether the backward needed a value it cannot have (reported).
  bool captureFailed = false;
  /// A forward loop being differentiated: the backward's index of the
  /// iteration at hand, and the tape (a forward list) of each body value
  /// the backward reads.
  struct LoopTape {
    prim::LoopOp forward;
    Value index;
    DenseMap<Value, Value> tapes;
  };
  SmallVector<LoopTape> loops;
  /// Every tape made in the forward: those the finished backward does not
  /// read go again (removeUnreadTapes).
  SmallVector<Value> tapes;
  /// A list a loop appends to once per iteration, which aten::stack then
  /// reads: the stack's gradient and dim, from which the backward loop
  /// takes each iteration's element.
  struct StackedAppends {
    Value gradient, dim;
  };
  DenseMap<Value, StackedAppends> stackedAppends;
  /// Whether `list` starts empty and is appended to once per iteration of
  /// a loop at the graph's top level, and written no other way.
  bool isAppendedPerIteration(prim::ListConstructOp list, Operation *reader);
  /// Whether `op` appends to such a list, or holds an op that does.
  bool fillsStackedList(Operation *op);
  /// Where the loc of what a formula builds comes from: the forward op.
  Location currentLoc = UnknownLoc::get(graph.getContext());
};

LogicalResult Differentiator::resolveWrt(ArrayRef<std::string> names) {
  // The candidates: tensor inputs, then weights, as the graph lists them.
  SmallVector<Value> candidates;
  for (BlockArgument argument : graph.getArguments())
    if (isTensor(argument))
      candidates.push_back(argument);
  graph.walk([&](Operation *op) {
    if (isWeight(op))
      candidates.push_back(op->getResult(0));
  });
  bool all = names.empty() || llvm::is_contained(names, "all");
  if (all) {
    for (Value value : candidates) {
      wrt.push_back(value);
      wrtNames.push_back(nameOf(value));
    }
    return success();
  }
  for (StringRef name : names) {
    std::string wanted = name.ltrim('%').str();
    auto found = llvm::find_if(
        candidates, [&](Value value) { return nameOf(value) == wanted; });
    // `x` for TorchScript's `x.1`, when only one input is called so.
    if (found == candidates.end()) {
      auto isWanted = [&](Value value) {
        return withoutUniqueSuffix(nameOf(value)) == wanted;
      };
      if (llvm::count_if(candidates, isWanted) == 1)
        found = llvm::find_if(candidates, isWanted);
    }
    if (found == candidates.end()) {
      std::string known;
      for (Value value : candidates) {
        std::string name = nameOf(value);
        known += (known.empty() ? "" : ", ") +
                 (name.empty() ? std::string("an unnamed weight") : "%" + name);
      }
      return graph.emitError()
             << "tsir-differentiate: no tensor input or weight named %"
             << wanted << " to differentiate with respect to (the graph has "
             << (known.empty() ? std::string("none") : known) << ")";
    }
    wrt.push_back(*found);
    wrtNames.push_back(wanted);
  }
  return success();
}

LogicalResult Differentiator::checkInPlaceWrites() {
  WalkResult walked = graph.walk([&](Operation *op) {
    const aten::Schema *schema = getTypedOrGenericSchema(op);
    if (!schema)
      return WalkResult::advance();
    for (auto [index, argument] : llvm::enumerate(schema->arguments)) {
      if (!argument.isWrite || index >= op->getNumOperands())
        continue;
      Value written = op->getOperand(index);
      if (!isa<prim::TensorType>(written.getType()) ||
          !active.contains(written))
        continue;
      op->emitError() << "tsir-differentiate: " << schemaOf(op)
                      << " writes in place into a tensor the gradient flows "
                         "through; prim-remove-mutation makes such a write "
                         "functional when no other value can see it (run "
                         "it first), and differentiating a write that others "
                         "see (through a view, or into an input) is not "
                         "implemented";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walked.wasInterrupted());
}

LogicalResult Differentiator::checkGradModeBlocks(Block &block) {
  auto contextKind = [](Operation &op) -> StringRef {
    auto generic = dyn_cast<prim::GenericOp>(op);
    if (!generic || generic->getNumOperands() != 1)
      return "";
    auto type = dyn_cast<prim::ClassType>(generic->getOperand(0).getType());
    if (!type || type.getName() != "__torch__.torch.autograd.grad_mode.no_grad")
      return "";
    return generic.getKind();
  };
  int depth = 0;
  for (Operation &op : block) {
    StringRef kind = contextKind(op);
    if (kind == "prim::Enter") {
      ++depth;
      continue;
    }
    if (kind == "prim::Exit") {
      --depth;
      continue;
    }
    if (depth == 0)
      continue;
    bool reads = op.walk([&](Operation *inner) {
                     return llvm::any_of(inner->getOperands(),
                                         [&](Value operand) {
                                           return active.contains(operand);
                                         })
                                ? WalkResult::interrupt()
                                : WalkResult::advance();
                   }).wasInterrupted();
    if (reads)
      return op.emitError("tsir-differentiate: an op inside `with "
                          "torch.no_grad()` reads a value being "
                          "differentiated; torch records no gradient there, "
                          "which tsir's formulas cannot express yet");
  }
  return success();
}

void Differentiator::markActive(Block &block) {
  for (Operation &op : block) {
    if (auto loop = dyn_cast<prim::LoopOp>(op)) {
      // A carried value is active when its initial value or the value an
      // iteration yields for it is; until nothing changes.
      Block &body = loop.getBodyBlock();
      auto yield = cast<prim::YieldOp>(body.getTerminator());
      bool changed = true;
      while (changed) {
        changed = false;
        for (auto [index, argument] : llvm::enumerate(loop.getCarriedArgs())) {
          bool carries = active.contains(loop.getInitArgs()[index]) ||
                         active.contains(yield.getResults()[index + 1]);
          if (carries && canCarryGradient(argument.getType()) &&
              active.insert(argument).second)
            changed = true;
        }
        markActive(body);
      }
      for (auto [index, result] : llvm::enumerate(loop.getResults()))
        if (active.contains(loop.getCarriedArgs()[index]))
          active.insert(result);
      continue;
    }
    if (auto ifOp = dyn_cast<prim::IfOp>(op)) {
      // A result is active when either branch yields an active value.
      for (Region &region : op.getRegions())
        markActive(region.front());
      for (Region &region : op.getRegions()) {
        auto yield = cast<prim::YieldOp>(region.front().getTerminator());
        for (auto [result, yielded] :
             llvm::zip(ifOp.getResults(), yield.getResults()))
          if (active.contains(yielded) &&
              canCarryGradient(result.getType()))
            active.insert(result);
      }
      continue;
    }
    bool reads = llvm::any_of(op.getOperands(), [&](Value operand) {
      return active.contains(operand);
    });
    // Other control flow reads active values from inside its regions too.
    if (!reads && op.getNumRegions() != 0)
      reads = op.walk([&](Operation *inner) {
                  return llvm::any_of(inner->getOperands(),
                                      [&](Value v) { return active.contains(v); })
                             ? WalkResult::interrupt()
                             : WalkResult::advance();
                }).wasInterrupted();
    if (!reads || table.isNondifferentiable(&op))
      continue;
    for (Value result : op.getResults())
      if (canCarryGradient(result.getType()))
        active.insert(result);
    // Writing an active tensor into a list makes the list active: what
    // reads the list (stack) is then on the path, and refuses a list that
    // is not a literal rather than leave the gradient a silent zero.
    if (isa<aten::AppendTOp, aten::InsertTOp, aten::ExtendTOp,
            aten::PrivateSetItemTOp>(op) &&
        canCarryGradient(op.getOperand(0).getType()))
      active.insert(op.getOperand(0));
  }
}

void Differentiator::exportBranchValues(Block &block) {
  // A loop's branches, whose values the tape then keeps.
  for (Operation &op : block)
    if (auto loop = dyn_cast<prim::LoopOp>(op);
        loop && llvm::any_of(loop.getResults(),
                             [&](Value v) { return active.contains(v); }))
      exportBranchValues(loop.getBodyBlock());
  // The prim.Ifs whose results take gradients.
  SmallVector<prim::IfOp> ifs;
  for (Operation &op : block)
    if (auto ifOp = dyn_cast<prim::IfOp>(op);
        ifOp && llvm::any_of(ifOp.getResults(),
                             [&](Value v) { return active.contains(v); }))
      ifs.push_back(ifOp);
  for (prim::IfOp ifOp : ifs) {
    // The prim.Ifs nested in its branches first: what they export is then
    // defined in these branches, and exported again from this one.
    for (Region &region : ifOp->getRegions())
      exportBranchValues(region.front());
    // What each branch defines, in order.
    SmallVector<Value> defined;
    for (Region &region : ifOp->getRegions())
      for (Operation &inner : region.front().without_terminator()) {
        if (isa<prim::ConstantOp>(inner))
          continue;
        for (Value result : inner.getResults())
          if (!isRecomputable(&inner))
            defined.push_back(result);
      }
    // Values with no stand-in of their type in the other branch stay put.
    auto hasStandIns = [&](Value value) {
      if (canBuildPlaceholder(value.getType()))
        return true;
      for (Region &region : ifOp->getRegions()) {
        Block &body = region.front();
        if (value.getParentBlock() == &body)
          continue;
        auto yield = cast<prim::YieldOp>(body.getTerminator());
        if (!llvm::is_contained(yield.getResults().getTypes(),
                                value.getType()) &&
            !llvm::is_contained(graph.getArgumentTypes(), value.getType()))
          return false;
      }
      return true;
    };
    llvm::erase_if(defined, [&](Value value) { return !hasStandIns(value); });
    if (defined.empty())
      continue;
    SmallVector<Type> types(ifOp.getResultTypes());
    for (Value value : defined)
      types.push_back(value.getType());
    OpBuilder rebuild(ifOp);
    auto widened = prim::IfOp::create(rebuild, ifOp.getLoc(), types,
                                      ifOp.getCondition());
    widened->setAttrs(ifOp->getAttrs());
    for (auto [from, to] :
         llvm::zip(ifOp->getRegions(), widened->getRegions())) {
      to.takeBody(from);
      Block &body = to.front();
      auto yield = cast<prim::YieldOp>(body.getTerminator());
      SmallVector<Value> yielded(yield.getResults());
      for (Value value : defined) {
        if (value.getParentBlock() == &body) {
          yielded.push_back(value);
          continue;
        }
        // A stand-in of the same type from this branch's scope: a value
        // this branch yields, or a graph input.
        Value standIn;
        for (Value candidate : yield.getResults())
          if (candidate.getType() == value.getType())
            standIn = candidate;
        for (BlockArgument argument : graph.getArguments())
          if (!standIn && argument.getType() == value.getType())
            standIn = argument;
        OpBuilder atEnd(yield);
        if (!standIn)
          standIn = buildPlaceholder(atEnd, yield.getLoc(), value.getType());
        // Without one the value is not kept; a formula that reads it is
        // reported then (capture).
        yielded.push_back(standIn);
      }
      OpBuilder atYield(yield);
      prim::YieldOp::create(atYield, yield.getLoc(), yielded);
      yield.erase();
    }
    for (auto [old, now] :
         llvm::zip(ifOp.getResults(),
                   widened.getResults().take_front(ifOp.getNumResults()))) {
      old.replaceAllUsesWith(now);
      if (active.erase(old))
        active.insert(now);
    }
    for (auto [value, result] : llvm::zip(
             defined, widened.getResults().drop_front(ifOp.getNumResults())))
      exported[value] = result;
    ifOp.erase();
  }
}

void Differentiator::collectOutputs(Value output) {
  if (auto tuple = output.getDefiningOp<prim::TupleConstructOp>()) {
    for (Value element : tuple.getElements())
      collectOutputs(element);
    return;
  }
  if (isTensor(output))
    outputs.push_back(output);
}

func::FuncOp Differentiator::createBackward() {
  OpBuilder moduleBuilder(graph);
  moduleBuilder.setInsertionPointAfter(graph);
  auto function = func::FuncOp::create(
      moduleBuilder, graph.getLoc(), (graph.getSymName() + "_backward").str(),
      moduleBuilder.getFunctionType({}, {}));
  Block *body = function.addEntryBlock();
  builder.setInsertionPointToEnd(body);
  // One gradient argument per tensor output; captured values go before.
  for (auto [index, output] : llvm::enumerate(outputs)) {
    Location loc = NameLoc::get(
        builder.getStringAttr("grad_" + std::to_string(index)));
    BlockArgument gradient =
        body->addArgument(prim::TensorType::get(graph.getContext()), loc);
    if (active.contains(output))
      accumulate(output, gradient, loc);
  }
  return function;
}

Value Differentiator::capture(Value value) {
  if (Value known = backwardValues.lookup(value))
    return known;
  Value counterpart;
  Operation *definition = value.getDefiningOp();
  if (auto constant = dyn_cast_or_null<prim::ConstantOp>(definition)) {
    // Constants and weights are cheaper to rebuild than to pass.
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&backward.front());
    counterpart = builder.clone(*constant)->getResult(0);
  } else if (definition && isRecomputable(definition)) {
    IRMapping mapping;
    for (Value operand : definition->getOperands())
      mapping.map(operand, capture(operand));
    counterpart = builder.clone(*definition, mapping)->getResult(0);
  } else if (Value result = exported.lookup(value)) {
    // Defined in a branch: passed on as the prim.If's result.
    counterpart = capture(result);
  } else if (Value taped = readFromTape(value)) {
    // Defined in the body of the loop being differentiated.
    counterpart = taped;
  } else if (value.getParentRegion() != &graph.getBody()) {
    // Defined in a branch and not kept: an argument stands in for it, and
    // the pass fails.
    mlir::emitError(value.getLoc())
        << "tsir-differentiate: a value of type " << value.getType()
        << " computed inside a branch is needed by the backward and cannot "
           "be kept";
    captureFailed = true;
    counterpart = backward.front().addArgument(value.getType(), value.getLoc());
  } else {
    std::string name = nameOf(value);
    Location loc = NameLoc::get(builder.getStringAttr(
        "saved_" + (name.empty() ? std::to_string(captured.size()) : name)));
    counterpart = backward.front().insertArgument(captured.size(),
                                                  value.getType(), loc);
    captured.push_back(value);
  }
  backwardValues[value] = counterpart;
  return counterpart;
}

Value Differentiator::zerosLike(Value backwardValue, Location loc) {
  Type none = prim::NoneType::get(builder.getContext());
  auto noneValue = [&] {
    return prim::ConstantOp::create(builder, loc, none, builder.getUnitAttr());
  };
  return aten::ZerosLikeOp::create(builder, loc,
                                   prim::TensorType::get(builder.getContext()),
                                   backwardValue, noneValue(), noneValue(),
                                   noneValue(), noneValue(), noneValue());
}

void Differentiator::accumulate(Value value, Value gradient, Location loc) {
  Value &sum = gradients[value];
  if (!sum) {
    sum = gradient;
    return;
  }
  Value one = prim::ConstantOp::create(builder, loc, builder.getI64Type(),
                                       builder.getI64IntegerAttr(1));
  sum = aten::AddTensorOp::create(builder, loc,
                                  prim::TensorType::get(builder.getContext()),
                                  sum, gradient, one);
}

SmallVector<Value> Differentiator::unpackGradient(Value list,
                                                  unsigned count) {
  SmallVector<Type> types(count, prim::TensorType::get(builder.getContext()));
  auto unpack = prim::ListUnpackOp::create(builder, currentLoc, types,
                                           gradients.lookup(list));
  return SmallVector<Value>(unpack.getResults());
}

LogicalResult Differentiator::differentiateListOp(Operation *op) {
  Type tensor = prim::TensorType::get(builder.getContext());
  auto listOf = [&](ValueRange elements) {
    return prim::ListConstructOp::create(
        builder, currentLoc,
        prim::ListType::get(builder.getContext(), tensor), elements);
  };
  // Two uses of one list would add lists (concatenate them): the forward
  // list has one consumer, or it is not differentiated here.
  auto single = [&](Value list) -> LogicalResult {
    if (gradients.count(list))
      return op->emitError("tsir-differentiate: a list of tensors used "
                           "twice on the path being differentiated is not "
                           "supported yet");
    return success();
  };
  if (auto construct = dyn_cast<prim::ListConstructOp>(op)) {
    SmallVector<Value> elements =
        unpackGradient(construct.getResult(), construct.getElements().size());
    for (auto [element, gradient] :
         llvm::zip(construct.getElements(), elements))
      if (active.contains(element))
        accumulate(element, gradient, currentLoc);
    return success();
  }
  if (auto unpack = dyn_cast<prim::ListUnpackOp>(op)) {
    if (failed(single(unpack.getList())))
      return failure();
    SmallVector<Value> elements;
    for (Value result : unpack.getResults()) {
      Value gradient = gradients.lookup(result);
      elements.push_back(gradient ? gradient
                                  : zerosLike(capture(result), currentLoc));
    }
    accumulate(unpack.getList(), listOf(elements), currentLoc);
    return success();
  }
  // The ops over a list literal: broadcast_tensors, cat, stack, einsum
  // (whose list follows its equation).
  std::string schema = schemaOf(op);
  bool isEinsum = schema == "aten::einsum";
  Value input = op->getOperand(isEinsum ? 1 : 0);
  auto construct = input.getDefiningOp<prim::ListConstructOp>();
  if (!construct)
    return op->emitError() << "tsir-differentiate: " << schema
                           << " is differentiable only of a list built in "
                              "the graph";
  // A list a loop fills, one append per iteration, then stacked: each
  // iteration's element takes its slice of the gradient in the backward
  // loop (differentiate, aten::append).
  if (schema == "aten::stack" && isAppendedPerIteration(construct, op)) {
    if (failed(single(input)))
      return failure();
    Value gradient = gradients.lookup(op->getResult(0));
    stackedAppends[input] = {gradient, capture(op->getOperand(1))};
    return success();
  }
  // Its elements are the literal's only if nothing writes into it (an
  // append in a loop left rolled): otherwise the gradients of what was
  // appended would be lost, a silent zero.
  for (Operation *user : construct->getUsers()) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(user);
    if (user != op && (!effects ||
                       effects.hasEffect<MemoryEffects::Write>()))
      return op->emitError()
             << "tsir-differentiate: " << schema << " of a list that "
             << schemaOf(user)
             << " writes into (an append in a loop that did not unroll) is "
                "not differentiable yet";
  }
  if (failed(single(input)))
    return failure();
  OperandRange tensors = construct.getElements();
  Value gradient = gradients.lookup(op->getResult(0));
  auto intValue = [&](int64_t value) -> Value {
    return prim::ConstantOp::create(builder, currentLoc, builder.getI64Type(),
                                    builder.getI64IntegerAttr(value));
  };
  SmallVector<Value> pieces;
  if (schema == "aten::broadcast_tensors") {
    // Each gradient summed back to its tensor's sizes.
    for (auto [element, piece] :
         llvm::zip(tensors, unpackGradient(op->getResult(0), tensors.size()))) {
      Value sizes = aten::SizeOp::create(
          builder, currentLoc,
          prim::ListType::get(builder.getContext(), builder.getI64Type()),
          capture(element));
      pieces.push_back(prim::GenericOp::create(
                           builder, currentLoc, TypeRange{tensor},
                           "aten::sum_to_size", ValueRange{piece, sizes},
                           DictionaryAttr(), /*blocksCount=*/0)
                           .getResult(0));
    }
  } else if (schema == "aten::cat") {
    // Each tensor's gradient is its stretch of the gradient along dim.
    Value dim = capture(op->getOperand(1));
    Value start = intValue(0), step = intValue(1);
    for (Value element : tensors) {
      Value length = aten::SizeIntOp::create(
          builder, currentLoc, builder.getI64Type(), capture(element), dim);
      Value end = aten::AddIntOp::create(builder, currentLoc,
                                         builder.getI64Type(), start, length);
      pieces.push_back(aten::SliceTensorOp::create(
          builder, currentLoc, tensor, gradient, dim, start, end, step));
      start = end;
    }
  } else if (isEinsum) {
    auto constant = op->getOperand(0).getDefiningOp<prim::ConstantOp>();
    auto equation =
        constant ? dyn_cast<StringAttr>(constant.getValueAttr()) : nullptr;
    if (!equation)
      return op->emitError("tsir-differentiate: the derivative of "
                           "aten::einsum needs its equation to be a constant");
    SmallVector<Value> operands;
    for (Value element : tensors)
      operands.push_back(capture(element));
    std::string why;
    FailureOr<SmallVector<Value>> built = buildEinsumGradients(
        builder, currentLoc, equation.getValue(), operands, gradient, why);
    if (failed(built))
      return op->emitError() << "the derivative for 'aten::einsum' is not "
                                "implemented here: "
                             << why;
    pieces = std::move(*built);
  } else {
    // stack: each tensor's gradient is its index along the new dim.
    Value dim = capture(op->getOperand(1));
    for (int64_t index = 0, e = tensors.size(); index < e; ++index)
      pieces.push_back(aten::SelectIntOp::create(
          builder, currentLoc, tensor, gradient, dim, intValue(index)));
  }
  accumulate(input, listOf(pieces), currentLoc);
  return success();
}

bool Differentiator::fillsStackedList(Operation *op) {
  // An append into such a list, or a loop whose body has one: their
  // results take no gradient, the appended values do.
  return op->walk([&](aten::AppendTOp append) {
             return stackedAppends.count(append.getOperand(0))
                        ? WalkResult::interrupt()
                        : WalkResult::advance();
           }).wasInterrupted();
}

bool Differentiator::isAppendedPerIteration(prim::ListConstructOp list,
                                            Operation *reader) {
  if (list.getNumOperands() != 0)
    return false;
  int appends = 0;
  for (Operation *user : list->getUsers()) {
    if (user == reader)
      continue;
    auto loop = dyn_cast_or_null<prim::LoopOp>(user->getParentOp());
    if (!isa<aten::AppendTOp>(user) || !loop ||
        loop->getParentOp() != graph.getOperation() ||
        !loop->isBeforeInBlock(reader))
      return false;
    ++appends;
  }
  return appends == 1;
}

LogicalResult Differentiator::differentiate(Operation *op) {
  std::string schema = schemaOf(op);
  // What is built for the op is located at it, without its names.
  currentLoc = withoutResultNames(op->getLoc());
  if (auto append = dyn_cast<aten::AppendTOp>(op)) {
    // The element an iteration appended to a stacked list: its slice of
    // the stack's gradient, at the iteration's number.
    auto found = stackedAppends.find(append.getOperand(0));
    if (found == stackedAppends.end() || loops.empty() ||
        append->getParentOp() != loops.back().forward)
      return op->emitError() << "tsir-differentiate: " << schema
                             << " of a value being differentiated is "
                                "differentiable only into a list that one "
                                "loop fills and aten::stack reads";
    if (!found->second.gradient)
      return success();
    Value element = aten::SelectIntOp::create(
        builder, currentLoc, prim::TensorType::get(builder.getContext()),
        found->second.gradient, found->second.dim, loops.back().index);
    accumulate(append.getOperand(1), element, currentLoc);
    return success();
  }
  if (isListPlumbing(op))
    return differentiateListOp(op);
  if (auto ifOp = dyn_cast<prim::IfOp>(op))
    return differentiateIf(ifOp);
  if (auto loop = dyn_cast<prim::LoopOp>(op))
    return differentiateLoop(loop);
  if (op->getNumRegions() != 0)
    return op->emitError() << "tsir-differentiate: " << schema
                           << " holds a block and is on the path being "
                              "differentiated, which only prim::If may be";
  func::FuncOp formula = table.lookup(op);
  if (!formula) {
    return op->emitError() << "the derivative for '" << schema
                           << "' is not implemented "
                              "(passes/autodiff/derivatives.txt lists the "
                              "differentiable ops)";
  }
  unsigned numInputs = op->getNumOperands(), numResults = op->getNumResults();
  Block &body = formula.front();
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());
  if (body.getNumArguments() != numInputs + 2 * numResults ||
      returnOp.getNumOperands() != numInputs)
    return op->emitError() << "tsir-differentiate: the formula of " << schema
                           << " takes " << body.getNumArguments()
                           << " values and returns "
                           << returnOp.getNumOperands() << ", but the op has "
                           << numInputs << " inputs and " << numResults
                           << " results";

  IRMapping mapping;
  for (auto [argument, operand] :
       llvm::zip(body.getArguments().take_front(numInputs), op->getOperands()))
    mapping.map(argument, capture(operand));
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    mapping.map(body.getArgument(numInputs + index), capture(result));
    Value gradient = gradients.lookup(result);
    if (!gradient)
      gradient = zerosLike(capture(result), currentLoc);
    mapping.map(body.getArgument(numInputs + numResults + index), gradient);
  }
  cloneGraphBodyAt(builder, body, mapping, currentLoc);
  for (auto [operand, gradient] :
       llvm::zip(op->getOperands(), returnOp.getOperands())) {
    Value mapped = mapping.lookupOrDefault(gradient);
    if (!active.contains(operand) || isa<prim::NoneType>(mapped.getType()))
      continue;
    accumulate(operand, mapped, currentLoc);
  }
  return success();
}

LogicalResult Differentiator::differentiateBlock(Block &block) {
  for (Operation &op :
       llvm::make_early_inc_range(llvm::reverse(block.without_terminator()))) {
    bool reached = llvm::any_of(op.getResults(), [&](Value result) {
      return gradients.count(result) != 0;
    }) || fillsStackedList(&op);
    bool isActive = llvm::any_of(op.getResults(), [&](Value result) {
      return active.contains(result);
    });
    if (!reached || !isActive || isWeight(&op))
      continue;
    if (failed(differentiate(&op)))
      return failure();
  }
  return success();
}

LogicalResult Differentiator::differentiateIf(prim::IfOp op) {
  Location loc = currentLoc;
  // The active values from outside that the branches read: their
  // gradients are the backward prim.If's results.
  SmallVector<Value> outer = outerActiveValues(op);
  Type tensor = prim::TensorType::get(builder.getContext());
  auto reverse = prim::IfOp::create(builder, loc,
                                    SmallVector<Type>(outer.size(), tensor),
                                    capture(op.getCondition()));
  DenseMap<Value, Value> outerGradients = gradients;
  for (auto [forwardRegion, backwardRegion] :
       llvm::zip(op->getRegions(), reverse->getRegions())) {
    Block &forwardBlock = forwardRegion.front();
    Block *backwardBlock = new Block();
    backwardRegion.push_back(backwardBlock);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(backwardBlock);
    // Within the branch, the outer values gather their gradients afresh.
    gradients = outerGradients;
    for (Value value : outer)
      gradients.erase(value);
    auto yield = cast<prim::YieldOp>(forwardBlock.getTerminator());
    for (auto [result, yielded] :
         llvm::zip(op.getResults(), yield.getResults()))
      if (Value gradient = outerGradients.lookup(result);
          gradient && active.contains(yielded))
        accumulate(yielded, gradient, loc);
    if (failed(differentiateBlock(forwardBlock)))
      return failure();
    SmallVector<Value> results;
    for (Value value : outer) {
      Value gradient = gradients.lookup(value);
      results.push_back(gradient ? gradient : zerosLike(capture(value), loc));
    }
    prim::YieldOp::create(builder, loc, results);
    forgetValuesBuiltIn(reverse);
  }
  gradients = std::move(outerGradients);
  for (auto [value, gradient] : llvm::zip(outer, reverse.getResults()))
    accumulate(value, gradient, loc);
  return success();
}

Value Differentiator::readFromTape(Value value) {
  if (loops.empty())
    return {};
  LoopTape &loop = loops.back();
  Block &body = loop.forward.getBodyBlock();
  if (value.getParentBlock() != &body)
    return {};
  // The iteration number is the index of the iteration at hand.
  if (value == loop.forward.getIterationArg())
    return loop.index;
  Value &tape = loop.tapes[value];
  if (!tape) {
    tape = makeTape(loop.forward, value);
    tapes.push_back(tape);
  }
  return aten::DunderGetitemTOp::create(builder, currentLoc, value.getType(),
                                        capture(tape), loop.index);
}

Value Differentiator::makeTape(prim::LoopOp loop, Value value) {
  OpBuilder forward(loop);
  Type listType = prim::ListType::get(builder.getContext(), value.getType());
  Value tape = prim::ListConstructOp::create(forward, loop.getLoc(), listType,
                                             ValueRange{});
  if (isa<BlockArgument>(value))
    forward.setInsertionPointToStart(&loop.getBodyBlock());
  else
    forward.setInsertionPointAfter(value.getDefiningOp());
  aten::AppendTOp::create(forward, value.getLoc(), listType, tape, value);
  return tape;
}

SmallVector<Value> Differentiator::outerActiveValues(Operation *op) {
  SmallVector<Value> outer;
  for (Region &region : op->getRegions())
    region.walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (active.contains(operand) &&
            !op->isAncestor(operand.getParentBlock()->getParentOp()) &&
            !stackedAppends.count(operand) &&
            !llvm::is_contained(outer, operand))
          outer.push_back(operand);
    });
  return outer;
}

void Differentiator::forgetValuesBuiltIn(Operation *reverse) {
  for (auto it = backwardValues.begin(); it != backwardValues.end();) {
    auto current = it++;
    if (reverse->isAncestor(current->second.getParentBlock()->getParentOp()))
      backwardValues.erase(current);
  }
}

LogicalResult Differentiator::differentiateLoop(prim::LoopOp op) {
  Location loc = currentLoc;
  Block &body = op.getBodyBlock();
  if (op->getParentOp() != graph.getOperation() ||
      body.walk([](prim::LoopOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return op->emitError("tsir-differentiate: a prim::Loop inside a branch "
                         "or around another loop is on the path being "
                         "differentiated; only loops at the graph's top "
                         "level, around straight-line code and branches, "
                         "are differentiable yet");
  Type tensor = prim::TensorType::get(builder.getContext());
  Type i64 = builder.getI64Type();
  auto yield = cast<prim::YieldOp>(body.getTerminator());
  // The carried values that take gradients, and the active values from
  // outside that the body reads (their gradients add up over iterations).
  SmallVector<unsigned> carried;
  for (auto [index, argument] : llvm::enumerate(op.getCarriedArgs()))
    if (active.contains(argument))
      carried.push_back(index);
  SmallVector<Value> outer = outerActiveValues(op);
  // Their gradients are carried as tensors: a list (appended to in the
  // loop, or read whole) would need a gradient list the loop grows.
  auto isList = [&](Value value) { return !isTensor(value); };
  if (llvm::any_of(carried,
                   [&](unsigned index) {
                     return isList(op.getCarriedArgs()[index]);
                   }) ||
      llvm::any_of(outer, isList))
    return op->emitError("tsir-differentiate: a prim::Loop that carries or "
                         "reads a list of tensors on the path being "
                         "differentiated is not differentiable yet");
  // The count of iterations run: a tape of the iteration numbers.
  Value indexTape = makeTape(op, op.getIterationArg());
  Value count = aten::LenTOp::create(builder, loc, i64, capture(indexTape));
  // The backward loop carries each carried value's gradient (from the
  // loop result's) and each outer value's sum so far.
  SmallVector<Value> initial;
  for (unsigned index : carried) {
    Value result = op.getResult(index);
    Value gradient = gradients.lookup(result);
    initial.push_back(gradient ? gradient : zerosLike(capture(result), loc));
  }
  for (Value value : outer)
    initial.push_back(zerosLike(capture(value), loc));
  Value always = prim::ConstantOp::create(builder, loc, builder.getI1Type(),
                                          builder.getBoolAttr(true));
  auto reverse = prim::LoopOp::create(
      builder, loc, SmallVector<Type>(initial.size(), tensor), count, always,
      initial);
  Block *reverseBody = new Block();
  reverse.getBody().push_back(reverseBody);
  Value step = reverseBody->addArgument(i64, loc);
  for (Value value : initial)
    reverseBody->addArgument(value.getType(), loc);
  DenseMap<Value, Value> outerGradients = gradients;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(reverseBody);
    // Iteration count - 1 - step, last first.
    Value one = prim::ConstantOp::create(builder, loc, i64,
                                         builder.getI64IntegerAttr(1));
    Value last = aten::SubIntOp::create(builder, loc, i64, count, one);
    Value index = aten::SubIntOp::create(builder, loc, i64, last, step);
    loops.emplace_back();
    loops.back().forward = op;
    loops.back().index = index;
    gradients = outerGradients;
    for (Value value : outer)
      gradients.erase(value);
    for (auto [position, carriedIndex] : llvm::enumerate(carried)) {
      Value next = yield.getResults()[carriedIndex + 1];
      if (active.contains(next))
        accumulate(next, reverseBody->getArgument(1 + position), loc);
    }
    LogicalResult differentiated = differentiateBlock(body);
    if (succeeded(differentiated)) {
      SmallVector<Value> results = {always};
      for (unsigned index : carried) {
        Value argument = op.getCarriedArgs()[index];
        Value gradient = gradients.lookup(argument);
        results.push_back(gradient ? gradient
                                   : zerosLike(capture(argument), loc));
      }
      for (auto [position, value] : llvm::enumerate(outer)) {
        Value sum = reverseBody->getArgument(1 + carried.size() + position);
        if (Value gradient = gradients.lookup(value))
          sum = aten::AddTensorOp::create(builder, loc, tensor, sum, gradient,
                                          one);
        results.push_back(sum);
      }
      prim::YieldOp::create(builder, loc, results);
    }
    loops.pop_back();
    forgetValuesBuiltIn(reverse);
    if (failed(differentiated))
      return failure();
  }
  gradients = std::move(outerGradients);
  for (auto [position, index] : llvm::enumerate(carried)) {
    Value init = op.getInitArgs()[index];
    if (active.contains(init))
      accumulate(init, reverse.getResult(position), loc);
  }
  for (auto [position, value] : llvm::enumerate(outer))
    accumulate(value, reverse.getResult(carried.size() + position), loc);
  return success();
}

void Differentiator::removeDeadCode() {
  Block &body = backward.front();
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> ops;
    backward.walk([&](Operation *op) {
      if (op != backward.getOperation())
        ops.push_back(op);
    });
    // Users before what they use; an op erased takes its regions along.
    // The writes are those of the ops before this sweep erased any.
    AliasAnalysis aliases(backward);
    DenseSet<Operation *> gone;
    for (Operation *op : llvm::reverse(ops)) {
      if (gone.contains(op) || !isDead(op, aliases))
        continue;
      op->walk([&](Operation *inner) { gone.insert(inner); });
      op->erase();
      changed = true;
    }
  }
  // Captures the remaining code does not read are not passed.
  for (int64_t i = captured.size() - 1; i >= 0; --i)
    if (body.getArgument(i).use_empty()) {
      body.eraseArgument(i);
      captured.erase(captured.begin() + i);
    }
  backward.setFunctionType(builder.getFunctionType(
      body.getArgumentTypes(), body.getTerminator()->getOperandTypes()));
}

void Differentiator::removeUnreadTapes() {
  for (Value tape : tapes) {
    if (llvm::is_contained(captured, tape))
      continue;
    for (Operation *append : llvm::make_early_inc_range(tape.getUsers()))
      append->erase();
    tape.getDefiningOp()->erase();
  }
}

void Differentiator::finishForward() {
  auto returnOp = cast<func::ReturnOp>(graph.front().getTerminator());
  unsigned numOutputs = returnOp.getNumOperands();
  returnOp->insertOperands(numOutputs, captured);
  graph.setFunctionType(builder.getFunctionType(
      graph.getArgumentTypes(), returnOp.getOperandTypes()));
  SmallVector<Attribute> names;
  for (const std::string &name : wrtNames)
    names.push_back(builder.getStringAttr(name));
  graph->setAttr(prim::kGradientAttrName,
                 prim::GradientAttr::get(
                     graph.getContext(), FlatSymbolRefAttr::get(backward),
                     numOutputs, captured.size(), outputs.size(),
                     builder.getArrayAttr(names)));
}

LogicalResult Differentiator::run(ArrayRef<std::string> names) {
  if (graph.isExternal() || !graph.getBody().hasOneBlock())
    return graph.emitError("tsir-differentiate: the graph has no body");
  if (failed(resolveWrt(names)))
    return failure();
  active.insert(wrt.begin(), wrt.end());
  markActive(graph.front());
  if (failed(checkGradModeBlocks(graph.front())) ||
      failed(checkInPlaceWrites()))
    return failure();
  exportBranchValues(graph.front());
  auto returnOp = cast<func::ReturnOp>(graph.front().getTerminator());
  for (Value output : returnOp.getOperands())
    collectOutputs(output);

  backward = createBackward();
  if (failed(differentiateBlock(graph.front())))
    return failure();

  SmallVector<Value> results;
  for (Value value : wrt) {
    Value gradient = gradients.lookup(value);
    results.push_back(gradient ? gradient
                               : zerosLike(capture(value), graph.getLoc()));
  }
  func::ReturnOp::create(builder, graph.getLoc(), results);
  if (captureFailed)
    return failure();
  removeDeadCode();
  removeUnreadTapes();
  finishForward();
  return success();
}

/// Puts each op's decomposition in its place: derivatives.txt's (group_norm,
/// instance_norm, conv1d as conv2d, ...), then
/// decompositions.txt's (dropout, and every op defined there, which so
/// needs no formula of its own), round after round while a decomposition
/// leaves ops that decompose; returns whether there was any.
bool applyDecompositions(func::FuncOp graph, const DerivativeTable &table,
                         const DecompositionLibrary &library) {
  constexpr unsigned kMaxRounds = 8;
  IRRewriter rewriter(graph.getContext());
  bool any = false;
  for (unsigned round = 0; round < kMaxRounds; ++round) {
    SmallVector<std::pair<Operation *, func::FuncOp>> found;
    graph.walk([&](Operation *op) {
      func::FuncOp decomposition = table.lookupDecomposition(op);
      if (!decomposition)
        decomposition = library.lookup(op);
      if (decomposition)
        found.push_back({op, decomposition});
    });
    if (found.empty())
      break;
    for (auto [op, decomposition] : found)
      (void)inlineGraphAt(rewriter, op, decomposition);
    any = true;
  }
  return any;
}

struct TsirDifferentiatePass
    : tsir::impl::TsirDifferentiatePassBase<TsirDifferentiatePass> {
  using TsirDifferentiatePassBase::TsirDifferentiatePassBase;

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<DerivativeTable> loaded = DerivativeTable::load(context);
    if (failed(loaded))
      return failure();
    table = std::make_shared<DerivativeTable>(std::move(*loaded));
    FailureOr<DecompositionLibrary> decompositions =
        DecompositionLibrary::load(context);
    if (failed(decompositions))
      return failure();
    library = std::make_shared<DecompositionLibrary>(std::move(*decompositions));
    return success();
  }

  void runOnOperation() override {
    auto graph = getOperation().lookupSymbol<func::FuncOp>("graph");
    if (!graph) {
      getOperation().emitError("tsir-differentiate: no func.func @graph");
      return signalPassFailure();
    }
    // Subgraphs (tsir-create-autodiff-subgraphs' prim.DifferentiableGraph,
    // an imported fusion group) are differentiated as the ops they hold.
    OpPassManager inlineSubgraphs(func::FuncOp::getOperationName());
    inlineSubgraphs.addPass(createPrimInlineSubgraphsPass());
    if (failed(runPipeline(inlineSubgraphs, graph)))
      return signalPassFailure();
    // Decompositions branch on their flags (`training`): fold them before
    // differentiating what is left. Some build lists by appending in loops
    // of a constant trip count (im2col's windows): unrolled, the appends
    // become list literals, which the list ops' gradients read.
    if (applyDecompositions(graph, *table, *library)) {
      OpPassManager fold(func::FuncOp::getOperationName());
      fold.addPass(createPrimPeepholePass());
      fold.addPass(createPrimConstantPropagationPass());
      PrimUnrollLoopsPassOptions fullUnrolling;
      fullUnrolling.unrollFactor = 1;
      fold.addPass(createPrimUnrollLoopsPass(fullUnrolling));
      fold.addPass(createPrimConstantPropagationPass());
      fold.addPass(createPrimRemoveMutationPass());
      fold.addPass(createPrimDCEPass());
      if (failed(runPipeline(fold, graph)))
        return signalPassFailure();
    }
    if (failed(Differentiator(graph, *table).run(wrt)))
      signalPassFailure();
  }

  std::shared_ptr<DerivativeTable> table;
  std::shared_ptr<DecompositionLibrary> library;
};

} // namespace
