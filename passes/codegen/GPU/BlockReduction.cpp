//===- BlockReduction.cpp - A reduction as a block per output element -----===//
//
// A linalg op with only reduction loops (sum, max, mean's sum of a whole
// tensor) has no parallel dimension to spread over threads and would run on
// one thread; one with a few long rows (softmax's and layer_norm's row
// statistics, a global pool) leaves most of the GPU idle with a thread per
// row. When the body is "output = combine(output, f(inputs))" with
// `combine` one of gpu.all_reduce's arith ops, the reduction is
// associative: a block per output element, whose threads each fold a
// strided share of its elements, and gpu.all_reduce (warp shuffles and
// shared memory, lowered by convert-gpu-to-nvvm) combines the partials.
//
//===----------------------------------------------------------------------===//

#include "GPUUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using gpu::AllReduceOperation;

static std::optional<AllReduceOperation> reductionKind(Operation *op) {
  using Kind = std::optional<AllReduceOperation>;
  return llvm::TypeSwitch<Operation *, Kind>(op)
      .Case<arith::AddFOp, arith::AddIOp>(
          [](auto) { return AllReduceOperation::ADD; })
      .Case<arith::MulFOp, arith::MulIOp>(
          [](auto) { return AllReduceOperation::MUL; })
      .Case([](arith::MinUIOp) { return AllReduceOperation::MINUI; })
      .Case([](arith::MinSIOp) { return AllReduceOperation::MINSI; })
      .Case([](arith::MaxUIOp) { return AllReduceOperation::MAXUI; })
      .Case([](arith::MaxSIOp) { return AllReduceOperation::MAXSI; })
      .Case([](arith::MinNumFOp) { return AllReduceOperation::MINNUMF; })
      .Case([](arith::MaxNumFOp) { return AllReduceOperation::MAXNUMF; })
      .Case([](arith::MinimumFOp) { return AllReduceOperation::MINIMUMF; })
      .Case([](arith::MaximumFOp) { return AllReduceOperation::MAXIMUMF; })
      .Default([](Operation *) { return Kind(); });
}

/// The element types gpu.shuffle lowers for NVVM.
static bool isShuffleType(Type type) {
  return type.isF32() || type.isF64() || type.isInteger(32) ||
         type.isInteger(64);
}

/// Splits `linear` into the indices of `dims` (row-major over `sizes`),
/// writing them into `ivs`.
static void delinearize(OpBuilder &b, Location loc, Value linear,
                        ArrayRef<unsigned> dims, ArrayRef<Value> sizes,
                        MutableArrayRef<Value> ivs) {
  for (unsigned dim : llvm::reverse(dims)) {
    ivs[dim] = arith::RemUIOp::create(b, loc, linear, sizes[dim]);
    linear = arith::DivUIOp::create(b, loc, linear, sizes[dim]);
  }
}

static SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                                   ArrayRef<Value> ivs) {
  SmallVector<Value> indices;
  for (unsigned r = 0; r < map.getNumResults(); ++r)
    indices.push_back(
        affine::AffineApplyOp::create(b, loc, map.getSubMap({r}), ivs));
  return indices;
}

bool tsir::gpu_lowering::prefersBlockPerOutput(linalg::LinalgOp op,
                                               int64_t &threads,
                                               int64_t maxThreads) {
  if (op.getNumReductionLoops() == 0)
    return false;
  int64_t outputs = 1, reduced = 1;
  bool dynamicReduction = false;
  for (auto [size, type] :
       llvm::zip(op.getStaticLoopRanges(), op.getIteratorTypesArray())) {
    bool parallel = linalg::isParallelIterator(type);
    if (ShapedType::isDynamic(size)) {
      if (parallel)
        return false;
      dynamicReduction = true;
      continue;
    }
    (parallel ? outputs : reduced) *= size;
  }
  // Enough rows keep every SM busy with a thread per row; a block per row
  // pays off when there are few rows of many elements (softmax and
  // layer_norm statistics, a global pool, a whole-tensor sum).
  if (op.getNumParallelLoops() != 0 &&
      (outputs > 4096 || (!dynamicReduction && reduced < 32)))
    return false;
  threads = maxThreads;
  if (!dynamicReduction)
    threads = std::min<int64_t>(
        maxThreads, std::max<int64_t>(32, llvm::PowerOf2Ceil(reduced)));
  return true;
}

LogicalResult tsir::gpu_lowering::buildBlockReduction(linalg::LinalgOp op,
                                                      int64_t blockSize) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1 ||
      !op.hasPureBufferSemantics() ||
      op.getNumLoops() != op.getNumParallelLoops() + op.getNumReductionLoops())
    return failure();
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  Operation *combiner = yield.getOperand(0).getDefiningOp();
  if (!combiner || combiner->getBlock() != body ||
      combiner->getNumOperands() != 2 || combiner->getNumResults() != 1)
    return failure();
  std::optional<AllReduceOperation> kind = reductionKind(combiner);
  OpOperand *output = op.getDpsInitOperand(0);
  BlockArgument acc = op.getMatchingBlockArgument(output);
  if (!kind || !isShuffleType(acc.getType()) || !acc.hasOneUse() ||
      acc.getUses().begin()->getOwner() != combiner)
    return failure();
  unsigned accPos = combiner->getOperand(0) == acc ? 0 : 1;
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
  if (!neutral)
    return failure();
  // Each output element must belong to exactly one block: the output is
  // indexed by every parallel dimension and by no reduction dimension.
  SmallVector<unsigned> parallelDims, reductionDims;
  for (auto [dim, type] : llvm::enumerate(op.getIteratorTypesArray()))
    (linalg::isParallelIterator(type) ? parallelDims : reductionDims)
        .push_back(dim);
  AffineMap outputMap = op.getMatchingIndexingMap(output);
  if (!outputMap.isProjectedPermutation(/*allowZeroInResults=*/true) ||
      llvm::any_of(reductionDims,
                   [&](unsigned d) { return outputMap.isFunctionOfDim(d); }) ||
      !llvm::all_of(parallelDims,
                    [&](unsigned d) { return outputMap.isFunctionOfDim(d); }))
    return failure();

  Location loc = op.getLoc();
  OpBuilder b(op);
  SmallVector<Value> sizes;
  for (Range range : op.createLoopRanges(b, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value outputs = one, total = one;
  for (unsigned dim : parallelDims)
    outputs = arith::MulIOp::create(b, loc, outputs, sizes[dim]);
  for (unsigned dim : reductionDims)
    total = arith::MulIOp::create(b, loc, total, sizes[dim]);
  // CUDA rejects an empty grid: no outputs still launch one idle block.
  Value blocks = arith::MaxUIOp::create(b, loc, outputs, one);
  Value threads = arith::ConstantIndexOp::create(b, loc, blockSize);
  gpu::LaunchOp launch = createLaunch(b, loc, blocks, threads);
  OpBuilder k(launch.getBody().front().getTerminator());
  Value bid = launch.getBlockIds().x;
  Value tid = launch.getThreadIds().x;
  Value inRange =
      arith::CmpIOp::create(k, loc, arith::CmpIPredicate::ult, bid, outputs);
  auto guard = scf::IfOp::create(k, loc, inRange, /*withElse=*/false);
  k.setInsertionPoint(guard.thenBlock()->getTerminator());

  // Block `bid` computes output element `bid`; thread `tid` folds the
  // reduced elements tid, tid + blockSize, ... of it.
  SmallVector<Value> ivs(sizes.size());
  delinearize(k, loc, bid, parallelDims, sizes, ivs);
  Value init = arith::ConstantOp::create(k, loc, *neutral);
  auto loop = scf::ForOp::create(
      k, loc, tid, total, threads, ValueRange{init},
      [&](OpBuilder &l, Location loc, Value iv, ValueRange partials) {
        SmallVector<Value> loopIvs = ivs;
        delinearize(l, loc, iv, reductionDims, sizes, loopIvs);
        IRMapping map;
        for (OpOperand *input : op.getDpsInputOperands()) {
          BlockArgument arg = op.getMatchingBlockArgument(input);
          if (!isa<MemRefType>(input->get().getType())) {
            map.map(arg, input->get());
            continue;
          }
          SmallVector<Value> indices =
              applyMap(l, loc, op.getMatchingIndexingMap(input), loopIvs);
          map.map(arg, memref::LoadOp::create(l, loc, input->get(), indices));
        }
        for (Operation &inner : body->without_terminator()) {
          if (&inner == combiner)
            continue;
          if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
            map.map(index.getResult(), loopIvs[index.getDim()]);
            continue;
          }
          l.clone(inner, map);
        }
        map.map(acc, partials.front());
        Operation *combined = l.clone(*combiner, map);
        scf::YieldOp::create(l, loc, combined->getResult(0));
      });

  auto reduced = gpu::AllReduceOp::create(
      k, loc, loop.getResult(0),
      gpu::AllReduceOperationAttr::get(k.getContext(), *kind),
      /*uniform=*/true);
  Value zero = arith::ConstantIndexOp::create(k, loc, 0);
  Value first =
      arith::CmpIOp::create(k, loc, arith::CmpIPredicate::eq, tid, zero);
  scf::IfOp::create(k, loc, first, [&](OpBuilder &t, Location loc) {
    // The output map reads no reduction dimension; give them any value.
    SmallVector<Value> outputIvs = ivs;
    for (unsigned dim : reductionDims)
      outputIvs[dim] = zero;
    SmallVector<Value> indices = applyMap(t, loc, outputMap, outputIvs);
    Value old = memref::LoadOp::create(t, loc, output->get(), indices);
    IRMapping map;
    map.map(acc, old);
    map.map(combiner->getOperand(1 - accPos), reduced.getResult());
    Operation *combined = t.clone(*combiner, map);
    memref::StoreOp::create(t, loc, combined->getResult(0), output->get(),
                            indices);
    scf::YieldOp::create(t, loc);
  });
  op->erase();
  return success();
}
