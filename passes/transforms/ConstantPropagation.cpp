//===- ConstantPropagation.cpp - prim-constant-propagation ----------------===//
//
// TorchScript's ConstantPropagation (torch/csrc/jit/passes/
// constant_propagation.cpp) on the prim/aten dialects. Two halves:
//
// - Folding: one walk in program order runs each op whose operands are all
//   constants through the folding table (ConstantEvaluator.h) and replaces
//   its results with `prim.Constant`s that take the op's location. Like
//   TorchScript it skips ops with side effects, nondeterministic ops, ops
//   with blocks, and any op touching memory that something writes
//   (AliasAnalysis::hasWriters); it also reads dtypes, devices and sizes
//   from refined tensor types, which TorchScript's peephole does, sizes
//   also of tensors written in place as long as no write may resize them. Unlike
//   TorchScript it makes no constant that torch's graph parser cannot read
//   back (tuples, bool lists, NaN), so that the result still exports.
// - Control flow: greedy patterns (populateControlFlowSimplificationPatterns)
//   inline a `prim.If` with a constant condition, delete loops that never
//   run, drop loop-carried values the body never changes and If results
//   that are the same value (or equal constants) on both branches.
//
// The two alternate until the control flow stops changing, since an inlined
// branch can make more operands constant. TorchScript runs its DCE after a
// change; here the constants left unused go, and the rest is prim-dce's
// job.
//
//===----------------------------------------------------------------------===//

#include "ConstantEvaluator.h"
#include "FoldUtils.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/AliasAnalysis.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/BitVector.h"

#include <optional>

namespace tsir {
#define GEN_PASS_DEF_PRIMCONSTANTPROPAGATIONPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

//===----------------------------------------------------------------------===//
// The folding table
//===----------------------------------------------------------------------===//

ConstantEvaluatorTable::ConstantEvaluatorTable() {
  registerScalarEvaluators(*this);
  registerContainerEvaluators(*this);
  registerTensorEvaluators(*this);
}

const ConstantEvaluatorTable &ConstantEvaluatorTable::get() {
  static const ConstantEvaluatorTable table;
  return table;
}

const ConstantEvaluatorEntry *
ConstantEvaluatorTable::lookup(Operation *op) const {
  if (auto generic = dyn_cast<prim::GenericOp>(op)) {
    auto it = byKind.find(generic.getKind());
    return it == byKind.end() ? nullptr : &it->second;
  }
  std::optional<RegisteredOperationName> name = op->getRegisteredInfo();
  if (!name)
    return nullptr;
  auto it = byOp.find(name->getTypeID());
  return it == byOp.end() ? nullptr : &it->second;
}

//===----------------------------------------------------------------------===//
// Folding
//===----------------------------------------------------------------------===//

namespace {

/// Whether a constant `value` of `type` has a literal that torch's graph
/// parser (torch._C.parse_ir) reads back: ints, bools, strings, devices,
/// None, floats other than NaN, infinities and subnormals (std::stod takes
/// none of them), and non-empty flat lists of ints, floats or strings. Tuple
/// literals, empty, nested and bool lists are printed by TorchScript but not
/// read.
bool hasTorchLiteral(Attribute value, Type type) {
  if (auto number = dyn_cast<FloatAttr>(value))
    return number.getValue().isFinite() && !number.getValue().isDenormal();
  auto array = dyn_cast<ArrayAttr>(value);
  if (!array)
    return true;
  auto list = dyn_cast<prim::ListType>(type);
  if (!list || array.empty())
    return false;
  Type element = list.getElementType();
  if (!element.isInteger(64) && !element.isF64() &&
      !isa<prim::StrType>(element))
    return false;
  return llvm::all_of(
      array, [&](Attribute item) { return hasTorchLiteral(item, element); });
}

/// Whether a folded `value` of `type` is an empty list.
bool isEmptyList(Attribute value, Type type) {
  auto array = dyn_cast_or_null<ArrayAttr>(value);
  return array && array.empty() && isa<prim::ListType>(type);
}

bool touchesMutableValues(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isMutableType) ||
         llvm::any_of(op->getResultTypes(), isMutableType);
}

/// One folding walk over a function, in program order, so that chains of
/// constant ops fold in one go.
class ConstantFolder {
public:
  explicit ConstantFolder(func::FuncOp func)
      : func(func), rewriter(func.getContext()),
        table(ConstantEvaluatorTable::get()) {}

  /// Returns whether anything was folded.
  bool run() {
    foldRegion(func.getBody());
    return changed;
  }

private:
  void foldRegion(Region &region) {
    for (Block &block : region)
      for (Operation &op : llvm::make_early_inc_range(block)) {
        if (op.getNumRegions() == 0) {
          tryFold(&op);
          continue;
        }
        // A subgraph (fusion group) is a separate graph in TorchScript,
        // which this pass does not enter.
        if (!op.hasTrait<OpTrait::IsIsolatedFromAbove>())
          for (Region &nested : op.getRegions())
            foldRegion(nested);
      }
  }

  /// Built on first need, as TorchScript's getOrCreateAliasDb: most folds
  /// touch no mutable value and never need it.
  const AliasAnalysis &aliases() {
    if (!aliasAnalysis)
      aliasAnalysis.emplace(func);
    return *aliasAnalysis;
  }

  /// Whether the entry may run on `op` as far as memory is concerned.
  bool mayFold(Operation *op, const ConstantEvaluatorEntry &entry) {
    if (isa<prim::GenericOp>(op) && !getPureGenericSchema(op)) {
      // Known pure kinds, but the alias analysis treats such a generic op
      // as opaque: fold them only on immutable values.
      return !touchesMutableValues(op);
    }
    if (hasSideEffects(op) || isNondeterministic(op))
      return false;
    // In-place ops keep a tensor's dtype and device, and all but the
    // resizing ones (resize_, t_, ...) its sizes.
    if (entry.input == EvaluatorInput::TensorDtypeOrDevice)
      return true;
    if (entry.input == EvaluatorInput::TensorShape &&
        llvm::none_of(op->getOperands(), [&](Value operand) {
          return isa<prim::TensorType>(operand.getType()) &&
                 aliases().mayBeResized(operand);
        }))
      return true;
    return !touchesMutableValues(op) || !aliases().hasWriters(op);
  }

  void tryFold(Operation *op) {
    const ConstantEvaluatorEntry *entry = table.lookup(op);
    if (!entry)
      return;
    SmallVector<Attribute, 4> operands;
    for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
      Attribute value = getConstantValue(operand);
      bool readsType = entry->input != EvaluatorInput::Constants &&
                       index == 0 && isa<prim::TensorType>(operand.getType());
      if (!value && !readsType)
        return;
      operands.push_back(value);
    }
    if (!mayFold(op, *entry))
      return;
    SmallVector<Attribute, 2> values;
    if (failed(entry->evaluate(op, operands, values)) ||
        values.size() != op->getNumResults())
      return;
    // As TorchScript's tryInsertConstant: a None takes the result's type
    // (`int?`); anything that cannot be a constant of it stays an op. So
    // does a constant torch could not read back (a NaN, a tuple):
    // TorchScript folds those in memory, but a folded graph must still
    // export to text torch loads.
    // An empty list, which has no literal, is what TorchScript writes for
    // it: a `prim::ListConstruct()`.
    for (auto [result, value] : llvm::zip(op->getResults(), values))
      if (!isEmptyList(value, result.getType()) &&
          (!isValidConstant(value, result.getType()) ||
           !hasTorchLiteral(value, result.getType())))
        return;

    rewriter.setInsertionPoint(op);
    for (auto [result, value] : llvm::zip(op->getResults(), values)) {
      Value replacement =
          isEmptyList(value, result.getType())
              ? prim::ListConstructOp::create(rewriter,
                                              getValueLocation(result),
                                              result.getType(), ValueRange{})
                    .getResult()
              : prim::ConstantOp::create(rewriter, getValueLocation(result),
                                         result.getType(), value)
                    .getResult();
      result.replaceAllUsesWith(replacement);
    }
    op->erase();
    changed = true;
  }

  func::FuncOp func;
  IRRewriter rewriter;
  const ConstantEvaluatorTable &table;
  std::optional<AliasAnalysis> aliasAnalysis;
  bool changed = false;
};

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

std::optional<int64_t> getConstantInt(Value value) {
  if (auto attr = dyn_cast_or_null<IntegerAttr>(getConstantValue(value)))
    return attr.getValue().getSExtValue();
  return std::nullopt;
}

/// `prim.If` on a constant: the taken block's ops replace the If.
struct InlineConstantIf : OpRewritePattern<prim::IfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(prim::IfOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> condition = getConstantInt(op.getCondition());
    if (!condition)
      return failure();
    Block &taken =
        (*condition ? op.getThenRegion() : op.getElseRegion()).front();
    Operation *yield = taken.getTerminator();
    SmallVector<Value> yielded(yield->getOperands());
    rewriter.inlineBlockBefore(&taken, op);
    rewriter.eraseOp(yield);
    for (auto [result, value] : llvm::zip(op.getResults(), yielded))
      replaceValueWith(rewriter, result, value);
    rewriter.eraseOp(op);
    return success();
  }
};

/// A loop whose trip count is at most 0 or whose first condition is false
/// never runs: its results are its initial values.
struct RemoveLoopThatNeverRuns : OpRewritePattern<prim::LoopOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(prim::LoopOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> tripCount = getConstantInt(op.getMaxTripCount());
    std::optional<int64_t> condition = getConstantInt(op.getInitialCondition());
    if (!(tripCount && *tripCount <= 0) && !(condition && *condition == 0))
      return failure();
    for (auto [result, init] : llvm::zip(op.getResults(), op.getInitArgs()))
      replaceValueWith(rewriter, result, init);
    rewriter.eraseOp(op);
    return success();
  }
};

/// A loop-carried value the body yields back unchanged (its own block
/// argument, or the initial value itself) is the initial value throughout:
/// uses inside and after the loop take the initial value.
struct RemoveInvariantLoopCarried : OpRewritePattern<prim::LoopOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(prim::LoopOp op,
                                PatternRewriter &rewriter) const override {
    Block &body = op.getBodyBlock();
    auto yield = cast<prim::YieldOp>(body.getTerminator());
    unsigned count = op.getNumResults();
    llvm::BitVector invariant(count);
    for (unsigned i = 0; i < count; ++i) {
      Value next = yield.getOperand(i + 1);
      if (next == op.getCarriedArgs()[i] || next == op.getInitArgs()[i])
        invariant.set(i);
    }
    if (invariant.none())
      return failure();

    SmallVector<Value> inits(op.getInitArgs());
    // The yields go first, so that replacing the block arguments below
    // needs no cast for them.
    llvm::BitVector droppedYields(yield.getNumOperands());
    for (unsigned i : invariant.set_bits())
      droppedYields.set(i + 1);
    rewriter.modifyOpInPlace(yield,
                             [&] { yield->eraseOperands(droppedYields); });
    for (unsigned i : invariant.set_bits())
      replaceValueWith(rewriter, op.getCarriedArgs()[i], inits[i]);

    SmallVector<Type> keptTypes;
    SmallVector<Value> keptInits;
    SmallVector<Type> argTypes = {body.getArgument(0).getType()};
    SmallVector<Location> argLocs = {body.getArgument(0).getLoc()};
    for (unsigned i = 0; i < count; ++i) {
      if (invariant.test(i))
        continue;
      keptTypes.push_back(op.getResult(i).getType());
      keptInits.push_back(inits[i]);
      argTypes.push_back(op.getCarriedArgs()[i].getType());
      argLocs.push_back(op.getCarriedArgs()[i].getLoc());
    }
    auto loop = prim::LoopOp::create(rewriter, dropResultNames(op, invariant),
                                     keptTypes, op.getMaxTripCount(),
                                     op.getInitialCondition(), keptInits);
    loop->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    Block *newBody;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      newBody = rewriter.createBlock(&loop.getBody(), loop.getBody().end(),
                                     argTypes, argLocs);
    }
    SmallVector<Value> argValues = {newBody->getArgument(0)};
    unsigned kept = 0;
    for (unsigned i = 0; i < count; ++i)
      argValues.push_back(invariant.test(i) ? inits[i]
                                            : newBody->getArgument(++kept));
    rewriter.mergeBlocks(&body, newBody, argValues);

    kept = 0;
    for (unsigned i = 0; i < count; ++i) {
      if (invariant.test(i))
        replaceValueWith(rewriter, op.getResult(i), inits[i]);
      else
        rewriter.replaceAllUsesWith(op.getResult(i), loop.getResult(kept++));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// An If result that both branches yield as the same value (defined before
/// the If), or as equal constants, is that value.
struct RemoveRedundantIfResults : OpRewritePattern<prim::IfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(prim::IfOp op,
                                PatternRewriter &rewriter) const override {
    auto thenYield =
        cast<prim::YieldOp>(op.getThenRegion().front().getTerminator());
    auto elseYield =
        cast<prim::YieldOp>(op.getElseRegion().front().getTerminator());
    unsigned count = op.getNumResults();
    SmallVector<Value> replacements(count);
    llvm::BitVector redundant(count);
    for (unsigned i = 0; i < count; ++i) {
      Value a = thenYield.getOperand(i), b = elseYield.getOperand(i);
      if (a == b) {
        replacements[i] = a;
        redundant.set(i);
        continue;
      }
      Attribute value = getConstantValue(a);
      if (value && value == getConstantValue(b) && a.getType() == b.getType())
        redundant.set(i);
    }
    if (redundant.none())
      return failure();

    for (unsigned i : redundant.set_bits()) {
      Value replacement = replacements[i];
      if (!replacement) {
        // Equal constants inside the branches: a copy before the If, named
        // and typed as the result where that is valid (a None for `int?`).
        Value a = thenYield.getOperand(i);
        Attribute value = getConstantValue(a);
        Type type = op.getResult(i).getType();
        if (!isValidConstant(value, type))
          type = a.getType();
        replacement = prim::ConstantOp::create(
            rewriter, getValueLocation(op.getResult(i)), type, value);
      }
      replaceValueWith(rewriter, op.getResult(i), replacement);
    }

    SmallVector<Type> keptTypes;
    for (unsigned i = 0; i < count; ++i)
      if (!redundant.test(i))
        keptTypes.push_back(op.getResult(i).getType());
    auto newIf = prim::IfOp::create(rewriter, dropResultNames(op, redundant),
                                    keptTypes, op.getCondition());
    newIf->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    for (prim::YieldOp yield : {thenYield, elseYield})
      rewriter.modifyOpInPlace(yield, [&] { yield->eraseOperands(redundant); });
    rewriter.inlineRegionBefore(op.getThenRegion(), newIf.getThenRegion(),
                                newIf.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseRegion(), newIf.getElseRegion(),
                                newIf.getElseRegion().end());
    unsigned kept = 0;
    for (unsigned i = 0; i < count; ++i)
      if (!redundant.test(i))
        rewriter.replaceAllUsesWith(op.getResult(i), newIf.getResult(kept++));
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct PrimConstantPropagationPass
    : tsir::impl::PrimConstantPropagationPassBase<PrimConstantPropagationPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    populateControlFlowSimplificationPatterns(set);
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(set));
    return success();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // The patterns see only the control-flow ops (and what they create), so
    // the cost follows the number of If/Loop ops, not the graph size.
    // Constants stay where they are: pooling them is prim-constant-pooling's
    // job.
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true)
        .setStrictness(GreedyRewriteStrictness::ExistingAndNewOps)
        .enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    // Each round folds what is constant, then simplifies control flow; an
    // inlined branch or a removed loop can make more operands constant.
    constexpr unsigned kMaxRounds = 8;
    bool changed = false;
    for (unsigned round = 0; round < kMaxRounds; ++round) {
      changed |= ConstantFolder(func).run();
      SmallVector<Operation *> controlFlow;
      func.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (isa<prim::IfOp, prim::LoopOp>(op))
          controlFlow.push_back(op);
      });
      if (controlFlow.empty())
        break;
      bool simplified = false;
      // Not converging within the driver's limit only means less folding.
      (void)applyOpPatternsGreedily(controlFlow, *patterns, config,
                                    &simplified);
      changed |= simplified;
      if (!simplified)
        break;
    }
    // Conditions of inlined Ifs, trip counts of removed loops: constants
    // nothing uses any more, which TorchScript's DCE after a change drops.
    if (changed)
      func.walk([](prim::ConstantOp constant) {
        if (constant->use_empty())
          constant->erase();
      });
    else
      markAllAnalysesPreserved(); // unchanged IR needs no re-verification
  }

  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

} // namespace

void tsir::populateControlFlowSimplificationPatterns(
    RewritePatternSet &patterns) {
  patterns.add<InlineConstantIf, RemoveLoopThatNeverRuns,
               RemoveInvariantLoopCarried, RemoveRedundantIfResults>(
      patterns.getContext());
}
