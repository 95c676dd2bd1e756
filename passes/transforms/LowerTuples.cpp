//===- LowerTuples.cpp - prim-lower-tuples --------------------------------===//
//
// TorchScript's tuple lowering (torch/csrc/jit/passes/lower_tuples.cpp):
// LowerSimpleTuples inside blocks, and the If/Loop flattening of
// LowerAllTuples, where it can be done without failing.
//
// - `prim.TupleUnpack` and `prim.TupleIndex` (constant index, negative
//   counting from the end, in bounds) of a `prim.TupleConstruct` or of a
//   tuple constant become the elements.
// - A tuple-typed `prim.If` result whose tuple is built explicitly on both
//   branches becomes one result per element; a tuple-typed loop-carried
//   value built explicitly before the loop and at the end of the body
//   becomes one carried value per element. Inside the body the tuple is
//   rebuilt from the element arguments (its unpacks then fold), and after
//   the op it is rebuilt from the element results, which is dead unless
//   something still needs the tuple (a return, an opaque op).
//
// "Built explicitly" is what LowerAllTuples requires of every block
// return: a TupleConstruct (or a tuple constant), also through If results
// and loop results that are themselves flattened, and through the loop's
// own carried value. Where it does not hold, LowerAllTuples fails the whole
// graph; here the op keeps its tuple. Nested tuples flatten recursively.
// The function's own arguments and results keep their types.
//
// The patterns run greedily on the tuple ops and the If/Loop ops with
// tuple results only (and on what they create), so that a graph without
// tuples costs one walk. Tuple constructs left without uses go, as
// TorchScript runs dead code elimination after lowering; nothing else is
// erased or folded.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/Passes.h"

#include "FoldUtils.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMLOWERTUPLESPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {

/// The op's location with the given result names (`""`: none).
Location withNames(Location loc, ArrayRef<StringRef> names) {
  NodeLocation parts = decodeNodeLocation(loc);
  parts.resultNames.assign(names.begin(), names.end());
  return makeNodeLocation(loc.getContext(), parts);
}

/// The elements of a tuple constant, or null.
ArrayAttr getConstantElements(Value tuple) {
  auto constant = tuple.getDefiningOp<prim::ConstantOp>();
  if (!constant || !isa<prim::TupleType>(constant.getType()))
    return nullptr;
  return dyn_cast<ArrayAttr>(constant.getValue());
}

/// Whether the tuple's elements are at hand without unpacking it.
bool isConstructed(Value tuple) {
  return tuple.getDefiningOp<prim::TupleConstructOp>() ||
         getConstantElements(tuple);
}

/// Element `index` of a constructed tuple; constants are materialized at
/// the builder's insertion point.
Value getElement(OpBuilder &builder, Location loc, Value tuple,
                 unsigned index) {
  if (auto construct = tuple.getDefiningOp<prim::TupleConstructOp>())
    return construct.getElements()[index];
  auto type = cast<prim::TupleType>(tuple.getType());
  return prim::ConstantOp::create(builder, loc, type.getTypes()[index],
                                  getConstantElements(tuple)[index]);
}

/// The elements of a tuple: those of its construct, or of a `prim.Tuple-
/// Unpack` made at the builder's insertion point, to be folded once the
/// tuple is flattened in turn.
SmallVector<Value> getElements(OpBuilder &builder, Location loc, Value tuple) {
  auto type = cast<prim::TupleType>(tuple.getType());
  SmallVector<Value> elements;
  if (isConstructed(tuple)) {
    for (unsigned i = 0, e = type.getTypes().size(); i < e; ++i)
      elements.push_back(getElement(builder, loc, tuple, i));
    return elements;
  }
  auto unpack =
      prim::TupleUnpackOp::create(builder, loc, type.getTypes(), tuple);
  llvm::append_range(elements, unpack.getResults());
  return elements;
}

/// Whether `value`, a tuple of `arity` elements, is built explicitly: by a
/// construct or a constant, or as a flattenable If or loop result, or it is
/// one of `assumed` (loop-carried arguments being flattened).
bool isExplicitTuple(Value value, size_t arity,
                     const llvm::SmallPtrSetImpl<Value> &assumed) {
  auto type = dyn_cast<prim::TupleType>(value.getType());
  if (!type || type.getTypes().size() != arity)
    return false;
  if (isConstructed(value) || assumed.contains(value))
    return true;
  auto result = dyn_cast<OpResult>(value);
  if (!result)
    return false;
  unsigned index = result.getResultNumber();
  if (auto ifOp = dyn_cast<prim::IfOp>(result.getOwner())) {
    for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
      if (!isExplicitTuple(region->front().getTerminator()->getOperand(index),
                           arity, assumed))
        return false;
    return true;
  }
  if (auto loop = dyn_cast<prim::LoopOp>(result.getOwner())) {
    if (!isExplicitTuple(loop.getInitArgs()[index], arity, assumed))
      return false;
    llvm::SmallPtrSet<Value, 4> inner(assumed.begin(), assumed.end());
    inner.insert(loop.getCarriedArgs()[index]);
    return isExplicitTuple(
        loop.getBodyBlock().getTerminator()->getOperand(index + 1), arity,
        inner);
  }
  return false;
}

size_t arityOf(Type type) {
  auto tuple = dyn_cast<prim::TupleType>(type);
  return tuple ? tuple.getTypes().size() : 0;
}

//===----------------------------------------------------------------------===//
// Unpack and index
//===----------------------------------------------------------------------===//

struct FoldTupleUnpack : OpRewritePattern<prim::TupleUnpackOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(prim::TupleUnpackOp op,
                                PatternRewriter &rewriter) const override {
    Value tuple = op.getTuple();
    if (!isConstructed(tuple) || arityOf(tuple.getType()) != op.getNumResults())
      return failure();
    SmallVector<Value> elements;
    for (OpResult result : op.getResults())
      elements.push_back(castTo(
          rewriter, op.getLoc(),
          getElement(rewriter, op.getLoc(), tuple, result.getResultNumber()),
          result.getType()));
    rewriter.replaceOp(op, elements);
    return success();
  }
};

struct FoldTupleIndex : OpRewritePattern<prim::TupleIndexOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(prim::TupleIndexOp op,
                                PatternRewriter &rewriter) const override {
    Value tuple = op.getTuple();
    IntegerAttr index;
    if (!isConstructed(tuple) ||
        !matchPattern(op.getIndex(), m_Constant(&index)))
      return failure();
    int64_t size = arityOf(tuple.getType());
    int64_t position = index.getValue().getSExtValue();
    if (position < 0)
      position += size;
    // Out of bounds raises at run time: keep it.
    if (position < 0 || position >= size)
      return failure();
    Value element = getElement(rewriter, op.getLoc(), tuple, position);
    rewriter.replaceOp(
        op, castTo(rewriter, op.getLoc(), element, op.getResult().getType()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// If and Loop
//===----------------------------------------------------------------------===//

/// For each of `values` (old results or carried slots), whether it is
/// flattened; the new types, one per element for those; the new names.
struct Flattening {
  SmallVector<bool> flattened;
  SmallVector<Type> types;
  SmallVector<StringRef> names;

  Flattening(TypeRange oldTypes, ArrayRef<StringRef> oldNames,
             llvm::function_ref<bool(unsigned)> shouldFlatten) {
    for (auto [i, type] : llvm::enumerate(oldTypes)) {
      StringRef name = i < oldNames.size() ? oldNames[i] : StringRef();
      flattened.push_back(shouldFlatten(i));
      if (!flattened.back()) {
        types.push_back(type);
        names.push_back(name);
        continue;
      }
      for (Type element : cast<prim::TupleType>(type).getTypes()) {
        types.push_back(element);
        names.push_back("");
      }
    }
  }

  bool any() const { return llvm::is_contained(flattened, true); }

  /// `values` with the flattened ones replaced by their elements, made
  /// at the builder's insertion point.
  SmallVector<Value> expand(OpBuilder &builder, Location loc,
                            ValueRange values) const {
    SmallVector<Value> expanded;
    for (auto [value, flatten] : llvm::zip(values, flattened)) {
      if (flatten)
        llvm::append_range(expanded, getElements(builder, loc, value));
      else
        expanded.push_back(value);
    }
    return expanded;
  }

  /// The old values rebuilt from the new ones: flattened ones by a
  /// TupleConstruct at the builder's insertion point.
  SmallVector<Value> rebuild(OpBuilder &builder, Location loc,
                             TypeRange oldTypes, ArrayRef<StringRef> oldNames,
                             ValueRange values) const {
    SmallVector<Value> rebuilt;
    for (auto [i, type] : llvm::enumerate(oldTypes)) {
      if (!flattened[i]) {
        rebuilt.push_back(values.front());
        values = values.drop_front();
        continue;
      }
      size_t arity = arityOf(type);
      StringRef name = i < oldNames.size() ? oldNames[i] : StringRef();
      rebuilt.push_back(prim::TupleConstructOp::create(
          builder, withNames(loc, name), type, values.take_front(arity)));
      values = values.drop_front(arity);
    }
    return rebuilt;
  }
};

struct FlattenIfTuples : OpRewritePattern<prim::IfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(prim::IfOp op,
                                PatternRewriter &rewriter) const override {
    auto thenYield =
        cast<prim::YieldOp>(op.getThenRegion().front().getTerminator());
    auto elseYield =
        cast<prim::YieldOp>(op.getElseRegion().front().getTerminator());
    llvm::SmallPtrSet<Value, 1> none;
    NodeLocation location = decodeNodeLocation(op.getLoc());
    Flattening flattening(
        op.getResultTypes(), location.resultNames, [&](unsigned i) {
          size_t arity = arityOf(op.getResult(i).getType());
          return arity != 0 &&
                 isExplicitTuple(thenYield.getOperand(i), arity, none) &&
                 isExplicitTuple(elseYield.getOperand(i), arity, none);
        });
    if (!flattening.any())
      return failure();

    for (prim::YieldOp yield : {thenYield, elseYield}) {
      rewriter.setInsertionPoint(yield);
      SmallVector<Value> operands =
          flattening.expand(rewriter, yield.getLoc(), yield.getOperands());
      rewriter.modifyOpInPlace(yield, [&] { yield->setOperands(operands); });
    }
    rewriter.setInsertionPoint(op);
    auto newIf =
        prim::IfOp::create(rewriter, withNames(op.getLoc(), flattening.names),
                           flattening.types, op.getCondition());
    rewriter.inlineRegionBefore(op.getThenRegion(), newIf.getThenRegion(),
                                newIf.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseRegion(), newIf.getElseRegion(),
                                newIf.getElseRegion().end());
    rewriter.setInsertionPointAfter(newIf);
    rewriter.replaceOp(
        op, flattening.rebuild(rewriter, op.getLoc(), op.getResultTypes(),
                               location.resultNames, newIf.getResults()));
    return success();
  }
};

struct FlattenLoopTuples : OpRewritePattern<prim::LoopOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(prim::LoopOp op,
                                PatternRewriter &rewriter) const override {
    Block &body = op.getBodyBlock();
    auto yield = cast<prim::YieldOp>(body.getTerminator());
    // The carried tuples built explicitly before the loop, then those of
    // them also built explicitly at the end of the body, assuming the
    // others are flattened: until nothing changes.
    llvm::SmallPtrSet<Value, 4> assumed, none;
    for (auto [init, arg, result] :
         llvm::zip(op.getInitArgs(), op.getCarriedArgs(), op.getResults()))
      if (size_t arity = arityOf(arg.getType()))
        if (arityOf(result.getType()) == arity &&
            isExplicitTuple(init, arity, none))
          assumed.insert(arg);
    for (bool changed = true; changed;) {
      changed = false;
      for (auto [arg, next] :
           llvm::zip(op.getCarriedArgs(), yield.getOperands().drop_front()))
        if (assumed.contains(arg) &&
            !isExplicitTuple(next, arityOf(arg.getType()), assumed)) {
          assumed.erase(arg);
          changed = true;
        }
    }
    if (assumed.empty())
      return failure();

    NodeLocation location = decodeNodeLocation(op.getLoc());
    Flattening flattening(
        TypeRange(ValueRange(op.getCarriedArgs())), location.resultNames,
        [&](unsigned i) { return assumed.contains(op.getCarriedArgs()[i]); });
    Location loc = op.getLoc();
    Location unnamedLoc = withNames(loc, {});

    // The new loop and its body: the iteration number, then the elements.
    rewriter.setInsertionPoint(op);
    SmallVector<Value> inits =
        flattening.expand(rewriter, unnamedLoc, op.getInitArgs());
    auto newLoop = prim::LoopOp::create(
        rewriter, withNames(loc, flattening.names), flattening.types,
        op.getMaxTripCount(), op.getInitialCondition(), inits);
    SmallVector<Type> argTypes{op.getIterationArg().getType()};
    llvm::append_range(argTypes, flattening.types);
    SmallVector<Location> argLocs(argTypes.size(), unnamedLoc);
    argLocs[0] = op.getIterationArg().getLoc();
    Block *newBody =
        rewriter.createBlock(&newLoop.getBody(), {}, argTypes, argLocs);
    SmallVector<Value> argReplacements{newBody->getArgument(0)};
    llvm::append_range(
        argReplacements,
        flattening.rebuild(rewriter, unnamedLoc,
                           TypeRange(ValueRange(op.getCarriedArgs())), {},
                           newBody->getArguments().drop_front()));
    rewriter.mergeBlocks(&body, newBody, argReplacements);

    // The body yields the elements.
    rewriter.setInsertionPoint(yield);
    SmallVector<Value> yielded{yield.getOperand(0)};
    llvm::append_range(yielded,
                       flattening.expand(rewriter, yield.getLoc(),
                                         yield.getOperands().drop_front()));
    rewriter.modifyOpInPlace(yield, [&] { yield->setOperands(yielded); });

    rewriter.setInsertionPointAfter(newLoop);
    rewriter.replaceOp(
        op, flattening.rebuild(rewriter, loc, op.getResultTypes(),
                               location.resultNames, newLoop.getResults()));
    return success();
  }
};

struct PrimLowerTuplesPass
    : tsir::impl::PrimLowerTuplesPassBase<PrimLowerTuplesPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateLowerTuplesPatterns(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    GreedyRewriteConfig config;
    config.enableFolding(false);
    config.enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    // One round normally converges; a rewrite that enables another on an
    // op the driver did not revisit is picked up by the next round.
    bool changedAny = false;
    for (int round = 0; round < 10; ++round) {
      SmallVector<Operation *> ops;
      getOperation().walk([&](Operation *op) {
        bool tupleResults =
            isa<prim::IfOp, prim::LoopOp, prim::ConstantOp>(op) &&
            llvm::any_of(op->getResultTypes(),
                         [](Type type) { return isa<prim::TupleType>(type); });
        if (tupleResults || isa<prim::TupleConstructOp, prim::TupleUnpackOp,
                                prim::TupleIndexOp>(op))
          ops.push_back(op);
      });
      bool changed = false;
      if (!ops.empty())
        (void)applyOpPatternsGreedily(ops, frozen, config, &changed);
      if (!changed)
        break;
      changedAny = true;
    }
    if (!changedAny)
      markAllAnalysesPreserved(); // unchanged IR needs no re-verification
  }
};

} // namespace

void tsir::populateLowerTuplesPatterns(RewritePatternSet &patterns) {
  patterns
      .add<FoldTupleUnpack, FoldTupleIndex, FlattenIfTuples, FlattenLoopTuples>(
          patterns.getContext());
}
