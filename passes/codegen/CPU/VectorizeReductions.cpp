//===- VectorizeReductions.cpp - tsir-cpu-vectorize-reductions ------------===//
//
// Reductions along a contiguous innermost dimension as vector loops.
//
// convert-linalg-to-loops makes each output of a reduction a scalar chain:
// load the output, combine one element, store it back. LLVM does not
// vectorize a floating-point chain (reassociating it changes the rounding),
// so a row sum runs at one element per add latency: a softmax over rows
// of 4096 floats took five times PyTorch's time, a layer norm or a
// logsumexp nearly three.
//
// This pass writes the loop PyTorch's reduction kernels have instead. For
// each output, W partial results (W lanes, two or more vector registers so
// that independent adds overlap) live in registers across every reduced
// dimension; the innermost one, contiguous in memory, steps W elements at a
// time, its last partial step masked; the lanes are combined pairwise once
// at the end and then with the output's initial value. The body of the
// generic runs on vectors as it is: its ops are elementwise.
//
// The sum is then taken in a different order than the sequential one, as
// PyTorch's own vectorized kernels do: W interleaved partial sums, each a
// W-th of the length, are more accurate than one sequential sum, not less.
//
// Left alone (to convert-linalg-to-loops): an innermost dimension that is
// parallel, short (under 16) or strided; bodies that read linalg.index, or
// hold ops that are not elementwise or that could trap on the masked
// lanes (integer division); combiners other than one arith op with a
// neutral element (argmax's compare-and-select); bool and index buffers.
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

#include "Lanes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRCPUVECTORIZEREDUCTIONSPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {

/// Shorter innermost reductions stay scalar: one masked step and the
/// combining of the lanes would cost more than the chain.
constexpr int64_t kMinLength = 16;

/// A reduction the pass rewrites.
struct RowReduction {
  linalg::GenericOp op;
  /// The loops around each output's reduction, in the generic's order.
  SmallVector<unsigned> parallelDims;
  /// The reduced loops, in the generic's order; the last is the innermost
  /// loop, the one the vectors run along.
  SmallVector<unsigned> reductionDims;
  /// Per output, the op that combines it with a new value.
  SmallVector<Operation *> combiners;
  int64_t lanes;
};

/// Whether `map`'s results are loop dims or constants only.
bool hasDimOrConstantResults(AffineMap map) {
  return llvm::all_of(map.getResults(), [](AffineExpr expr) {
    return isa<AffineDimExpr, AffineConstantExpr>(expr);
  });
}

FailureOr<RowReduction> matchRowReduction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0)
    return failure();
  unsigned inner = op.getNumLoops() - 1;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators[inner] != utils::IteratorType::reduction)
    return failure();
  int64_t length = op.getStaticLoopRanges()[inner];
  if (!ShapedType::isDynamic(length) && length < kMinLength)
    return failure();

  RowReduction r{op, {}, {}, {}, 0};
  for (unsigned d = 0; d <= inner; ++d)
    (iterators[d] == utils::IteratorType::reduction ? r.reductionDims
                                                    : r.parallelDims)
        .push_back(d);

  unsigned widest = 0;
  if (!tsir::cpu::isLaneBody(op, widest))
    return failure();

  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !tsir::cpu::isLaneType(type.getElementType()))
      return failure();
    widest = std::max(widest, type.getElementTypeBitWidth());
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!hasDimOrConstantResults(map))
      return failure();
    bool isInit = op.isDpsInit(&operand);
    for (auto [position, expr] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim)
        continue;
      // An output is indexed by the parallel loops only; an input reads
      // the innermost loop as its own last, unit-stride dim, or not at all.
      if (isInit &&
          iterators[dim.getPosition()] == utils::IteratorType::reduction)
        return failure();
      if (!isInit && dim.getPosition() == inner &&
          (position + 1 != map.getNumResults() || !type.isLastDimUnitStride()))
        return failure();
    }
  }

  for (auto [index, arg] : llvm::enumerate(op.getRegionOutputArgs())) {
    SmallVector<Operation *> combinerOps;
    if (!arg.hasOneUse() ||
        !matchReduction(op.getRegionOutputArgs(), index, combinerOps) ||
        combinerOps.size() != 1 ||
        !linalg::getCombinerOpKind(combinerOps.front()) ||
        !arith::getNeutralElement(combinerOps.front()))
      return failure();
    r.combiners.push_back(combinerOps.front());
  }
  // Two 512-bit registers per value of the widest type, at least.
  r.lanes = widest <= 32 ? 32 : 16;
  return r;
}

/// Writes one reduction's loops in place of its generic.
class ReductionEmitter {
public:
  ReductionEmitter(ImplicitLocOpBuilder &b, RowReduction r)
      : b(b), r(r), iv(r.op.getNumLoops()),
        sizes(tsir::cpu::buildLoopSizes(b, r.op)) {
    // The innermost reduced dim: how much of it whole steps cover, and
    // what is left to the masked step.
    Value length = sizes[r.reductionDims.back()];
    wholeSteps = b.createOrFold<arith::SubIOp>(
        length, b.createOrFold<arith::RemSIOp>(length, index(r.lanes)));
    remaining = b.createOrFold<arith::SubIOp>(length, wholeSteps);
    if (!isZeroInteger(remaining))
      lastStepMask = tsir::cpu::buildFirstLanesMask(b, r.lanes, remaining);
  }

  /// One scf.for per parallel dim around the reduction of each output
  /// point.
  void emit() {
    tsir::cpu::buildLoopNest(b, r.parallelDims, sizes, iv, {}, [&](ValueRange) {
      emitOutputPoint();
      return SmallVector<Value>();
    });
  }

private:
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, value);
  }

  VectorType vectorOf(Type element) {
    return VectorType::get({r.lanes}, element);
  }

  /// The lanes start at the combiners' neutral elements, take in every
  /// reduced element, and are then combined with the output's old value.
  void emitOutputPoint() {
    SmallVector<Value> accs;
    for (auto [combiner, init] :
         llvm::zip(r.combiners, r.op.getDpsInitsMutable())) {
      Type element = getElementTypeOrSelf(init.get().getType());
      TypedAttr neutral = *arith::getNeutralElement(combiner);
      accs.push_back(arith::ConstantOp::create(
          b, DenseElementsAttr::get(vectorOf(element), neutral)));
    }
    // One scf.for carrying the lanes per outer reduced dim; the innermost
    // one in vector steps.
    accs = tsir::cpu::buildLoopNest(
        b, ArrayRef<unsigned>(r.reductionDims).drop_back(), sizes, iv, accs,
        [&](ValueRange args) { return emitInnermostLoop(args); });
    for (auto [combiner, init, acc] :
         llvm::zip(r.combiners, r.op.getDpsInitsMutable(), accs)) {
      SmallVector<Value> indices = indicesOf(&init);
      Value old = memref::LoadOp::create(b, init.get(), indices);
      Value total = combine(combiner, old, combineLanes(combiner, acc));
      memref::StoreOp::create(b, total, init.get(), indices);
    }
  }

  SmallVector<Value> emitInnermostLoop(ValueRange accs) {
    unsigned dim = r.reductionDims.back();
    // The inputs that do not read the innermost dim (softmax's row max):
    // one element each, read once for the whole row.
    IRMapping invariants;
    for (auto [operand, arg] :
         llvm::zip(r.op.getDpsInputOperands(), r.op.getRegionInputArgs()))
      if (!readsInnermost(operand))
        invariants.map(
            arg, memref::LoadOp::create(b, operand->get(), indicesOf(operand)));
    SmallVector<Value> result = tsir::cpu::buildCountedLoop(
        b, wholeSteps, r.lanes, accs, [&](Value i, ValueRange args) {
          iv[dim] = i;
          return emitStep(invariants, args, Value());
        });
    if (!lastStepMask)
      return result;
    // The partial last step (a step with no lane on when a dynamic length
    // is a multiple of W).
    iv[dim] = wholeSteps;
    return emitStep(invariants, result, lastStepMask);
  }

  bool readsInnermost(OpOperand *operand) {
    return r.op.getMatchingIndexingMap(operand).isFunctionOfDim(
        r.reductionDims.back());
  }

  /// The generic's body on W consecutive elements of the innermost
  /// reduced dim, the `invariants` read before the loop; lanes off in
  /// `mask` keep their partial results.
  SmallVector<Value> emitStep(const IRMapping &invariants, ValueRange accs,
                              Value mask) {
    IRMapping mapping = invariants;
    for (auto [operand, arg] :
         llvm::zip(r.op.getDpsInputOperands(), r.op.getRegionInputArgs()))
      if (readsInnermost(operand))
        mapping.map(arg, loadLanes(operand, mask));
    for (auto [acc, arg] : llvm::zip(accs, r.op.getRegionOutputArgs()))
      mapping.map(arg, acc);
    for (Operation &bodyOp : r.op.getBlock()->without_terminator())
      tsir::cpu::cloneOnLanes(b, bodyOp, mapping, r.lanes);
    SmallVector<Value> next;
    for (auto [acc, yielded] :
         llvm::zip(accs, r.op.getBlock()->getTerminator()->getOperands())) {
      Value value = mapping.lookupOrDefault(yielded);
      next.push_back(mask ? arith::SelectOp::create(b, mask, value, acc)
                          : value);
    }
    return next;
  }

  /// W elements of an input along the innermost reduced dim.
  Value loadLanes(OpOperand *operand, Value mask) {
    SmallVector<Value> indices = indicesOf(operand);
    VectorType type = vectorOf(getElementTypeOrSelf(operand->get().getType()));
    if (!mask)
      return vector::LoadOp::create(b, type, operand->get(), indices);
    Value zeros =
        arith::ConstantOp::create(b, cast<TypedAttr>(b.getZeroAttr(type)));
    return vector::MaskedLoadOp::create(b, type, operand->get(), indices, mask,
                                        zeros);
  }

  /// `combiner` applied to `lhs` and `rhs` (of any one type).
  Value combine(Operation *combiner, Value lhs, Value rhs) {
    Operation *clone = b.clone(*combiner);
    clone->setOperands({lhs, rhs});
    clone->getResult(0).setType(lhs.getType());
    return clone->getResult(0);
  }

  /// The lanes of `acc` combined pairwise, halving the width each time.
  Value combineLanes(Operation *combiner, Value acc) {
    for (int64_t width = r.lanes / 2; width >= 1; width /= 2) {
      // vector.shuffle, not extract_strided_slice: convert-to-llvm lowers
      // only the former.
      auto half = [&](int64_t offset) -> Value {
        auto lanes =
            llvm::to_vector(llvm::seq<int64_t>(offset, offset + width));
        return vector::ShuffleOp::create(b, acc, acc, lanes);
      };
      acc = combine(combiner, half(0), half(width));
    }
    return vector::ExtractOp::create(b, acc, ArrayRef<int64_t>{0});
  }

  SmallVector<Value> indicesOf(OpOperand *operand) {
    return tsir::cpu::buildIndices(b, r.op.getMatchingIndexingMap(operand), iv);
  }

  ImplicitLocOpBuilder &b;
  RowReduction r;
  /// The current value of each loop dim.
  SmallVector<Value> iv;
  SmallVector<Value> sizes;
  Value wholeSteps, remaining, lastStepMask;
};

struct TsirCPUVectorizeReductionsPass
    : tsir::impl::TsirCPUVectorizeReductionsPassBase<
          TsirCPUVectorizeReductionsPass> {
  void runOnOperation() override {
    SmallVector<RowReduction> reductions;
    getOperation().walk([&](linalg::GenericOp op) {
      if (FailureOr<RowReduction> r = matchRowReduction(op); succeeded(r))
        reductions.push_back(*r);
    });
    for (RowReduction &r : reductions) {
      ImplicitLocOpBuilder b(r.op.getLoc(), r.op);
      ReductionEmitter(b, r).emit();
      r.op.erase();
    }
  }
};

} // namespace
