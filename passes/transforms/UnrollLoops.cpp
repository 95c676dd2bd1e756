//===- UnrollLoops.cpp - prim-unroll-loops --------------------------------===//
//
// TorchScript's loop unrolling (torch/csrc/jit/passes/loop_unrolling.cpp) on
// prim.Loop. Only for-like loops are touched: both the initial and the
// yielded condition are the constant true, so the loop runs exactly
// max(n, 0) times. Their bodies must be small: at most `max-body-size` ops,
// counted as TorchScript's limitedBlockSize does (ops of nested blocks
// included, block terminators included, constants not). Loops are visited
// innermost first, so an outer loop is measured after its inner loops have
// been unrolled.
//
// - A constant trip count below `full-unroll-limit` unrolls fully: the loop
//   is replaced by that many copies of its body, the iteration number of
//   copy k being the constant k and the carried values threaded from one
//   copy to the next.
// - Any other trip count n is split in two loops: a main loop that runs
//   n / F times with F = `unroll-factor` copies of the body, then the
//   original loop as the epilogue, running the remaining n - (n / F) * F
//   iterations on the main loop's results. In copy k of main iteration j
//   the iteration number is j * F + k; in epilogue iteration i it is
//   (n / F) * F + i.
//
// TorchScript divides with aten::__round_to_zero_floordiv, which tsir has
// no typed op for; aten.floordiv.int rounds down instead, which for a
// negative n would leave the epilogue n mod F > 0 iterations. The count is
// therefore clamped at zero first (n * int(n >= 0)), unless it is known not
// to be negative (a non-negative constant, a size, a length). The iteration
// number is computed from the main loop's own counter instead of
// TorchScript's extra loop-carried counter; the values are the same.
//
// The pass visits each loop once. The pattern (populateUnrollLoopsPatterns)
// applies the same rewrite wherever a greedy driver finds a loop, so outer
// loops may be measured before their inner loops are unrolled; it skips
// loops whose trip count is the `n / F` or `n - (n / F) * F` of an earlier
// unrolling, so that the driver terminates.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/Passes.h"

#include "FoldUtils.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tsir {
#define GEN_PASS_DEF_PRIMUNROLLLOOPSPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

namespace {

struct UnrollLimits {
  unsigned maxBodySize;
  unsigned unrollFactor;
  unsigned fullUnrollLimit;
};

std::optional<int64_t> getConstantInt(Value value) {
  IntegerAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  return attr.getValue().getSExtValue();
}

bool isTrueConstant(Value value) {
  IntegerAttr attr;
  return value.getType().isInteger(1) &&
         matchPattern(value, m_Constant(&attr)) && attr.getValue().isOne();
}

prim::YieldOp getYield(prim::LoopOp loop) {
  return cast<prim::YieldOp>(loop.getBodyBlock().getTerminator());
}

/// TorchScript's isForLoop: both conditions are the constant true.
bool isForLoop(prim::LoopOp loop) {
  return isTrueConstant(loop.getInitialCondition()) &&
         isTrueConstant(getYield(loop).getResults().front());
}

/// TorchScript's limitedBlockSize: the ops of `block` and of the blocks
/// nested in it, each block's terminator included (TorchScript counts the
/// return node) and constants not; counting stops at `limit`. Fusion groups
/// are separate graphs in TorchScript, one node here as there.
unsigned limitedBlockSize(Block &block, unsigned limit) {
  unsigned count = 0;
  for (Operation &op : block) {
    if (!op.hasTrait<OpTrait::IsIsolatedFromAbove>())
      for (Region &region : op.getRegions())
        for (Block &nested : region) {
          count += limitedBlockSize(nested, limit - count);
          if (count >= limit)
            return limit;
        }
    if (!isa<prim::ConstantOp>(op) && ++count >= limit)
      return limit;
  }
  return count;
}

Value createInt(OpBuilder &builder, Location loc, int64_t value) {
  return prim::ConstantOp::create(builder, loc, builder.getI64Type(),
                                  builder.getI64IntegerAttr(value));
}

/// Trip counts that are never negative, which need no clamping.
bool isKnownNonNegative(Value count) {
  if (std::optional<int64_t> constant = getConstantInt(count))
    return *constant >= 0;
  Operation *def = count.getDefiningOp();
  return def &&
         isa<aten::SizeIntOp, aten::LenTOp, aten::LenTensorOp, aten::LenStrOp,
             aten::DimOp, aten::NumelOp, aten::PrivateRangeLengthOp>(def);
}

/// Clones the body of `loop` (without its terminator) at the builder's
/// insertion point, with the iteration number `counter` (null if unused)
/// and the carried values `carried`. Returns the values the copy yields,
/// the condition first.
SmallVector<Value> cloneBody(RewriterBase &rewriter, prim::LoopOp loop,
                             Value counter, ValueRange carried,
                             SmallVectorImpl<Operation *> &clones) {
  Block &body = loop.getBodyBlock();
  IRMapping mapping;
  if (counter)
    mapping.map(loop.getIterationArg(), counter);
  for (auto [arg, value] : llvm::zip(loop.getCarriedArgs(), carried))
    mapping.map(arg, castTo(rewriter, loop.getLoc(), value, arg.getType()));
  for (Operation &op : body.without_terminator())
    clones.push_back(rewriter.clone(op, mapping));
  SmallVector<Value> yielded;
  for (Value value : getYield(loop).getResults())
    yielded.push_back(mapping.lookupOrDefault(value));
  return yielded;
}

/// As TorchScript does after repeating a body: copies of ops whose results
/// the next copy does not need go, so that they do not count against an
/// enclosing loop's size.
void eraseDeadClones(RewriterBase &rewriter, ArrayRef<Operation *> clones) {
  for (Operation *op : llvm::reverse(clones))
    if (isOpTriviallyDead(op))
      rewriter.eraseOp(op);
}

void unrollFully(RewriterBase &rewriter, prim::LoopOp loop, int64_t tripCount) {
  Location loc = withoutResultNames(loop.getLoc());
  bool counterUsed = !loop.getIterationArg().use_empty();
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> carried(loop.getInitArgs());
  SmallVector<Operation *> clones;
  for (int64_t i = 0; i < tripCount; ++i) {
    Value counter = counterUsed ? createInt(rewriter, loc, i) : Value();
    SmallVector<Value> yielded =
        cloneBody(rewriter, loop, counter, carried, clones);
    carried.assign(yielded.begin() + 1, yielded.end());
  }
  SmallVector<Value> results;
  for (auto [result, value] : llvm::zip(loop.getResults(), carried))
    results.push_back(castTo(rewriter, loc, value, result.getType()));
  rewriter.replaceOp(loop, results);
  eraseDeadClones(rewriter, clones);
}

void unrollPartially(RewriterBase &rewriter, prim::LoopOp loop,
                     unsigned factor) {
  Location loc = withoutResultNames(loop.getLoc());
  Type i64 = rewriter.getI64Type();
  bool counterUsed = !loop.getIterationArg().use_empty();
  rewriter.setInsertionPoint(loop);

  // The trip counts of both loops, as TorchScript computes them.
  Value count = loop.getMaxTripCount();
  if (!isKnownNonNegative(count)) {
    Value zero = createInt(rewriter, loc, 0);
    Value nonNegative =
        aten::GeIntOp::create(rewriter, loc, rewriter.getI1Type(), count, zero);
    Value oneIfNonNegative =
        aten::IntBoolOp::create(rewriter, loc, i64, nonNegative);
    count = aten::MulIntOp::create(rewriter, loc, i64, count, oneIfNonNegative);
  }
  Value factorValue = createInt(rewriter, loc, factor);
  Value mainTrips =
      aten::FloordivIntOp::create(rewriter, loc, i64, count, factorValue);
  Value mainIterations =
      aten::MulIntOp::create(rewriter, loc, i64, mainTrips, factorValue);
  Value epilogueTrips =
      aten::SubIntOp::create(rewriter, loc, i64, count, mainIterations);

  // The main loop: `factor` copies of the body per iteration.
  auto mainLoop =
      prim::LoopOp::create(rewriter, loc, loop.getResultTypes(), mainTrips,
                           loop.getInitialCondition(), loop.getInitArgs());
  Block &body = loop.getBodyBlock();
  SmallVector<Location> argLocs;
  for (BlockArgument arg : body.getArguments())
    argLocs.push_back(arg.getLoc());
  Block *mainBody = rewriter.createBlock(&mainLoop.getBody(), {},
                                         body.getArgumentTypes(), argLocs);
  Value base;
  if (counterUsed)
    base = aten::MulIntOp::create(rewriter, loc, i64, mainBody->getArgument(0),
                                  factorValue);
  SmallVector<Value> yielded(1, loop.getInitialCondition());
  llvm::append_range(yielded, mainBody->getArguments().drop_front());
  SmallVector<Operation *> clones;
  for (unsigned k = 0; k < factor; ++k) {
    Value counter;
    if (counterUsed)
      counter = k == 0 ? base
                       : aten::AddIntOp::create(rewriter, loc, i64, base,
                                                createInt(rewriter, loc, k))
                             .getResult();
    yielded = cloneBody(rewriter, loop, counter,
                        ArrayRef<Value>(yielded).drop_front(), clones);
  }
  prim::YieldOp::create(rewriter, getYield(loop).getLoc(), yielded);
  eraseDeadClones(rewriter, clones);

  // The original loop becomes the epilogue.
  rewriter.modifyOpInPlace(loop, [&] {
    loop.getMaxTripCountMutable().assign(epilogueTrips);
    loop.getInitArgsMutable().assign(mainLoop.getResults());
  });
  if (counterUsed) {
    BlockArgument iteration = loop.getIterationArg();
    rewriter.setInsertionPointToStart(&body);
    auto counter =
        aten::AddIntOp::create(rewriter, loc, i64, mainIterations, iteration);
    rewriter.replaceAllUsesExcept(iteration, counter.getResult(),
                                  counter.getOperation());
  }
}

/// Whether `loop` walks a list literal of tensors by its iteration number
/// (`for corr_volume in self.corr_pyramid`, once the list is a literal):
/// its elements may differ in shape, which no one compiled body takes.
bool walksTensorListLiteral(prim::LoopOp loop) {
  BlockArgument iteration = loop.getIterationArg();
  // The index is the iteration number, or derived from it as a `range`
  // with a start and step prints (`for i in range(len(x) - 2, -1, -1)`,
  // torchvision's FPN walking its levels top down).
  SmallVector<Value> indices = {iteration};
  for (Operation *user : iteration.getUsers())
    if (auto derived = dyn_cast<aten::PrivateDeriveIndexOp>(user))
      if (derived->getOperand(0) == iteration)
        indices.push_back(derived.getResult());
  return llvm::any_of(indices, [&](Value index) {
    return llvm::any_of(index.getUsers(), [&](Operation *user) {
      auto read = dyn_cast<aten::DunderGetitemTOp>(user);
      auto list = read ? read.getList().getDefiningOp<prim::ListConstructOp>()
                       : prim::ListConstructOp();
      return list && read.getIdx() == index && !loop->isAncestor(list) &&
             isa<prim::TensorType>(
                 cast<prim::ListType>(list.getType()).getElementType());
    });
  });
}

/// Unrolls `loop` if TorchScript would: a for loop with a small body. A
/// loop over a list literal of tensors unrolls fully whatever its body's
/// size (tsir's addition: its elements' shapes differ from one iteration
/// to the next, RAFT's correlation pyramid).
LogicalResult unrollLoop(RewriterBase &rewriter, prim::LoopOp loop,
                         const UnrollLimits &limits) {
  if (!isForLoop(loop))
    return failure();
  bool small = limitedBlockSize(loop.getBodyBlock(), limits.maxBodySize + 1) <=
               limits.maxBodySize;
  std::optional<int64_t> tripCount = getConstantInt(loop.getMaxTripCount());
  if (tripCount && *tripCount < int64_t(limits.fullUnrollLimit) &&
      (small || walksTensorListLiteral(loop))) {
    unrollFully(rewriter, loop, *tripCount);
    return success();
  }
  // A factor of 0 or 1 would not unroll anything (and 0 would divide by 0).
  if (!small || limits.unrollFactor < 2)
    return failure();
  unrollPartially(rewriter, loop, limits.unrollFactor);
  return success();
}

/// Whether `loop`'s trip count is one the partial unrolling computed
/// (`n / F` for the main loop, `n - (n / F) * F` for the epilogue): such a
/// loop has been unrolled already, and a greedy driver must not unroll it
/// again and again.
bool isUnrollResult(prim::LoopOp loop, unsigned factor) {
  auto isDivByFactor = [&](Value value) {
    auto div = value.getDefiningOp<aten::FloordivIntOp>();
    return div && getConstantInt(div.getB()) == int64_t(factor);
  };
  Value count = loop.getMaxTripCount();
  if (isDivByFactor(count))
    return true;
  auto sub = count.getDefiningOp<aten::SubIntOp>();
  if (!sub)
    return false;
  auto mul = sub.getB().getDefiningOp<aten::MulIntOp>();
  return mul && isDivByFactor(mul.getA()) &&
         getConstantInt(mul.getB()) == int64_t(factor);
}

struct UnrollLoopPattern : OpRewritePattern<prim::LoopOp> {
  UnrollLoopPattern(MLIRContext *context, UnrollLimits limits)
      : OpRewritePattern(context), limits(limits) {}

  LogicalResult matchAndRewrite(prim::LoopOp loop,
                                PatternRewriter &rewriter) const override {
    if (isUnrollResult(loop, limits.unrollFactor))
      return failure();
    return unrollLoop(rewriter, loop, limits);
  }

  UnrollLimits limits;
};

struct PrimUnrollLoopsPass
    : tsir::impl::PrimUnrollLoopsPassBase<PrimUnrollLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    UnrollLimits limits{maxBodySize, unrollFactor, fullUnrollLimit};
    // Post-order: inner loops first, as TorchScript unrolls the loops of a
    // node's blocks before the node. Every loop is considered once, so the
    // epilogues (the original loops) are not unrolled again.
    SmallVector<prim::LoopOp> loops;
    getOperation().walk([&](prim::LoopOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    bool changed = false;
    for (prim::LoopOp loop : loops)
      changed |= succeeded(unrollLoop(rewriter, loop, limits));
    if (!changed)
      markAllAnalysesPreserved(); // unchanged IR needs no re-verification
  }
};

} // namespace

void tsir::populateUnrollLoopsPatterns(
    RewritePatternSet &patterns, const PrimUnrollLoopsPassOptions &options) {
  patterns.add<UnrollLoopPattern>(patterns.getContext(),
                                  UnrollLimits{options.maxBodySize,
                                               options.unrollFactor,
                                               options.fullUnrollLimit});
}
