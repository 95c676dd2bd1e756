//===- PrimToSCF.cpp - The convert-prim-to-scf pass -----------------------===//
//
// prim.If and prim.Loop lowered to scf.if, scf.for and scf.while with
// TorchScript's loop semantics, on the builtin types of the shared type
// converter.
//
// A prim.Loop runs its body while `iteration < maxTripCount` and the
// condition holds, the initial condition being tested before the first
// iteration. A for-loop (condition constant true on entry and in the body)
// becomes an scf.for over [0, maxTripCount), which runs zero times for a
// trip count <= 0, unless a carried tensor's shape may change (see
// LoopPattern). Any other loop becomes an scf.while carrying
// (iteration, carried..., condition); the iteration count is dropped when
// the trip count is INT64_MAX (a Python `while`) and the body never reads
// it, as nothing could then observe it. The condition comes last so that
// every value scf.condition forwards sits at the position of its before
// block argument, which one-shot bufferization requires of tensors.
//
// Where a branch or the body yields a value of a more refined type than
// its slot (a static shape into a dynamic one), a tensor.cast meets them.
//
//===----------------------------------------------------------------------===//

#include "../Common/Utils.h"
#include "tsir/Conversion/Passes.h"
#include "tsir/Conversion/TypeConverter.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

namespace tsir {
#define GEN_PASS_DEF_CONVERTPRIMTOSCFPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;

/// `values` cast, one by one, to `types`: tensors through tensor.cast where
/// their shapes are compatible. Fails on any other mismatch.
static FailureOr<SmallVector<Value>>
castToTypes(OpBuilder &b, Location loc, ValueRange values, TypeRange types) {
  if (values.size() != types.size())
    return failure();
  SmallVector<Value> cast;
  for (auto [value, type] : llvm::zip_equal(values, types)) {
    if (value.getType() == type) {
      cast.push_back(value);
      continue;
    }
    if (!tensor::CastOp::areCastCompatible(value.getType(), type))
      return failure();
    cast.push_back(tensor::CastOp::create(b, loc, type, value));
  }
  return cast;
}

/// The converted types of `types`, or failure with a diagnostic at `op`
/// naming the first type that has no builtin form.
static FailureOr<SmallVector<Type>> convertTypesAt(Operation *op,
                                                   const TypeConverter &tc,
                                                   TypeRange types,
                                                   StringRef what) {
  SmallVector<Type> converted;
  for (auto [index, type] : llvm::enumerate(types)) {
    Type result = tc.convertType(type);
    // A prim tensor must become a builtin one; the shared converter hands an
    // unrefined one back unchanged rather than failing.
    if (!result || isa<prim::TensorType>(result)) {
      op->emitError() << what << " #" << index << " has type " << type
                      << ", which has no builtin form (tensors need a dtype "
                         "and a rank: run tsir-refine-types with an arg spec)";
      return failure();
    }
    converted.push_back(result);
  }
  return converted;
}

namespace {

struct IfPattern : OpConversionPattern<prim::IfOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(prim::IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Type>> resultTypes =
        convertTypesAt(op, *getTypeConverter(), op.getResultTypes(), "result");
    if (failed(resultTypes))
      return failure();
    auto ifOp = scf::IfOp::create(rewriter, op.getLoc(), *resultTypes,
                                  adaptor.getCondition(),
                                  /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    // The branches keep their prim.Yield terminators, which YieldPattern
    // turns into scf.yield once they sit in the scf.if.
    rewriter.inlineRegionBefore(op.getThenRegion(), ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseRegion(), ifOp.getElseRegion(),
                                ifOp.getElseRegion().end());
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

struct LoopPattern : OpConversionPattern<prim::LoopOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(prim::LoopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &tc = *getTypeConverter();
    Location loc = op.getLoc();
    FailureOr<SmallVector<Type>> carriedTypes =
        convertTypesAt(op, tc, ValueRange(op.getCarriedArgs()).getTypes(),
                       "loop-carried value");
    if (failed(carriedTypes))
      return failure();
    FailureOr<SmallVector<Type>> resultTypes =
        convertTypesAt(op, tc, op.getResultTypes(), "result");
    if (failed(resultTypes))
      return failure();
    FailureOr<SmallVector<Value>> inits =
        castToTypes(rewriter, loc, adaptor.getInitArgs(), *carriedTypes);
    if (failed(inits))
      return rewriter.notifyMatchFailure(op, "initial values do not fit");

    auto yield = cast<prim::YieldOp>(op.getBodyBlock().getTerminator());
    // A carried tensor whose slot is less static than its initial value
    // (a shape that grows in the loop) keeps the loop an scf.while:
    // canonicalization folds such a tensor.cast into an scf.for, making the
    // initial static shape an assumption of every iteration.
    bool widensCarried = llvm::any_of(
        llvm::zip_equal(adaptor.getInitArgs(), *carriedTypes), [](auto pair) {
          return std::get<0>(pair).getType() != std::get<1>(pair);
        });
    bool isFor =
        conversion::matchConstantBool(adaptor.getInitialCondition()) == true &&
        conversion::matchConstantBool(yield.getOperand(0)) == true &&
        !widensCarried;
    FailureOr<ValueRange> results =
        isFor ? lowerToFor(op, adaptor, *inits, rewriter)
              : lowerToWhile(op, adaptor, *inits, *carriedTypes, rewriter);
    if (failed(results))
      return failure();
    FailureOr<SmallVector<Value>> cast =
        castToTypes(rewriter, loc, *results, *resultTypes);
    if (failed(cast))
      return rewriter.notifyMatchFailure(op, "results do not fit");
    rewriter.replaceOp(op, *cast);
    return success();
  }

private:
  /// The body with its carried arguments converted, to merge into an scf
  /// block.
  FailureOr<Block *> convertBody(prim::LoopOp op,
                                 ConversionPatternRewriter &rewriter) const {
    return rewriter.convertRegionTypes(&op.getBody(), *getTypeConverter());
  }

  FailureOr<ValueRange> lowerToFor(prim::LoopOp op, OpAdaptor adaptor,
                                   ValueRange inits,
                                   ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    Value lower = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
    // scf.for compares signed: a negative trip count runs zero times.
    Value upper = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(), adaptor.getMaxTripCount());
    auto forOp = scf::ForOp::create(rewriter, loc, lower, upper, step, inits);
    Block *forBody = forOp.getBody();
    if (!forBody->empty())
      rewriter.eraseOp(&forBody->back());
    FailureOr<Block *> body = convertBody(op, rewriter);
    if (failed(body))
      return failure();
    rewriter.setInsertionPointToStart(forBody);
    SmallVector<Value> arguments = {arith::IndexCastOp::create(
        rewriter, loc, rewriter.getI64Type(), forOp.getInductionVar())};
    llvm::append_range(arguments, forOp.getRegionIterArgs());
    rewriter.mergeBlocks(*body, forBody, arguments);
    rewriter.setInsertionPointAfter(forOp);
    return ValueRange(forOp.getResults());
  }

  FailureOr<ValueRange>
  lowerToWhile(prim::LoopOp op, OpAdaptor adaptor, ValueRange inits,
               TypeRange carriedTypes,
               ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    Value maxTripCount = adaptor.getMaxTripCount();
    bool counted = conversion::matchConstantInt(maxTripCount) !=
                       std::numeric_limits<int64_t>::max() ||
                   !op.getIterationArg().use_empty();

    SmallVector<Value> whileInits;
    SmallVector<Type> afterTypes;
    if (counted) {
      whileInits.push_back(arith::ConstantOp::create(
          rewriter, loc, rewriter.getI64IntegerAttr(0)));
      afterTypes.push_back(i64);
    }
    whileInits.append(inits.begin(), inits.end());
    whileInits.push_back(adaptor.getInitialCondition());
    afterTypes.append(carriedTypes.begin(), carriedTypes.end());
    SmallVector<Type> beforeTypes(ValueRange(whileInits).getTypes());
    auto whileOp = scf::WhileOp::create(rewriter, loc, afterTypes, whileInits);

    // before: go on while the condition holds and iterations remain.
    Block *before =
        rewriter.createBlock(&whileOp.getBefore(), {}, beforeTypes,
                             SmallVector<Location>(beforeTypes.size(), loc));
    Value go = before->getArguments().back();
    if (counted) {
      Value remaining =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                before->getArgument(0), maxTripCount);
      go = arith::AndIOp::create(rewriter, loc, remaining, go);
    }
    SmallVector<Value> forwarded;
    if (counted)
      forwarded.push_back(before->getArgument(0));
    llvm::append_range(forwarded,
                       before->getArguments().drop_front(counted).drop_back());
    scf::ConditionOp::create(rewriter, loc, go, forwarded);

    // after: the body; its prim.Yield becomes the scf.yield that counts.
    Block *after =
        rewriter.createBlock(&whileOp.getAfter(), {}, afterTypes,
                             SmallVector<Location>(afterTypes.size(), loc));
    FailureOr<Block *> body = convertBody(op, rewriter);
    if (failed(body))
      return failure();
    rewriter.setInsertionPointToStart(after);
    SmallVector<Value> arguments;
    if (counted)
      arguments.push_back(after->getArgument(0));
    else // The body never reads it.
      arguments.push_back(arith::ConstantOp::create(
          rewriter, loc, rewriter.getI64IntegerAttr(0)));
    llvm::append_range(arguments, after->getArguments().drop_front(counted));
    rewriter.mergeBlocks(*body, after, arguments);
    rewriter.setInsertionPointAfter(whileOp);
    return ValueRange(whileOp.getResults().drop_front(counted));
  }
};

/// prim.Yield inside the scf op that replaced its prim.If or prim.Loop.
struct YieldPattern : OpConversionPattern<prim::YieldOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(prim::YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange values = adaptor.getOperands();
    Operation *parent = op->getParentOp();
    SmallVector<Value> yielded;
    if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
      FailureOr<SmallVector<Value>> cast =
          castToTypes(rewriter, loc, values, ifOp.getResultTypes());
      if (failed(cast))
        return rewriter.notifyMatchFailure(op, "yielded values do not fit");
      yielded = *cast;
    } else if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
      // The condition is constant true in a for-loop: drop it.
      FailureOr<SmallVector<Value>> cast = castToTypes(
          rewriter, loc, values.drop_front(), forOp.getResultTypes());
      if (failed(cast))
        return rewriter.notifyMatchFailure(op, "yielded values do not fit");
      yielded = *cast;
    } else if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
      // (iteration?, carried..., condition), as the before block takes.
      Block *after = &whileOp.getAfter().front();
      bool counted = after->getNumArguments() == values.size();
      TypeRange carriedTypes =
          TypeRange(whileOp.getBefore().front().getArgumentTypes())
              .drop_front(counted)
              .drop_back();
      FailureOr<SmallVector<Value>> cast =
          castToTypes(rewriter, loc, values.drop_front(), carriedTypes);
      if (failed(cast))
        return rewriter.notifyMatchFailure(op, "yielded values do not fit");
      if (counted) {
        Value one = arith::ConstantOp::create(rewriter, loc,
                                              rewriter.getI64IntegerAttr(1));
        yielded.push_back(
            arith::AddIOp::create(rewriter, loc, after->getArgument(0), one));
      }
      llvm::append_range(yielded, *cast);
      yielded.push_back(values.front());
    } else {
      return rewriter.notifyMatchFailure(op, "parent is not an scf op");
    }
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, yielded);
    return success();
  }
};

} // namespace

void tsir::populatePrimToSCFPatterns(const TypeConverter &typeConverter,
                                     RewritePatternSet &patterns) {
  patterns.add<IfPattern, LoopPattern, YieldPattern>(typeConverter,
                                                     patterns.getContext());
}

namespace {
struct ConvertPrimToSCFPass
    : tsir::impl::ConvertPrimToSCFPassBase<ConvertPrimToSCFPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    TsirTypeConverter typeConverter;
    RewritePatternSet patterns(context);
    populatePrimToSCFPatterns(typeConverter, patterns);

    ConversionTarget target(*context);
    target.addLegalDialect<scf::SCFDialect, arith::ArithDialect,
                           tensor::TensorDialect>();
    target.addIllegalOp<prim::IfOp, prim::LoopOp>();
    // A generic node's block is not control flow: its yield stays.
    target.addDynamicallyLegalOp<prim::YieldOp>([](prim::YieldOp op) {
      return isa<prim::GenericOp>(op->getParentOp());
    });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
