//===- BlockReduction.cpp - A whole-tensor reduction as one block ---------===//
//
// A linalg op with only reduction loops (sum, max, mean's sum of a whole
// tensor) has no parallel dimension to spread over threads, and would run
// on one thread. When its body is "output = combine(output, f(inputs))"
// with `combine` one of gpu.all_reduce's arith ops, the reduction is
// associative: one block of threads each folds a strided share of the
// elements, and gpu.all_reduce (a warp-shuffle tree, lowered by
// convert-gpu-to-nvvm) combines the partials.
//
//===----------------------------------------------------------------------===//

#include "GPUUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
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

LogicalResult tsir::gpu_lowering::buildBlockReduction(linalg::LinalgOp op,
                                                      int64_t blockSize) {
  if (op.getNumParallelLoops() != 0 || op.getNumLoops() == 0 ||
      op.getNumDpsInits() != 1 || !op.hasPureBufferSemantics() ||
      op.getNumLoops() != op.getNumReductionLoops())
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
  // No parallel loops: the output is indexed by constants only.
  SmallVector<int64_t> outputIndices;
  for (AffineExpr expr : op.getMatchingIndexingMap(output).getResults()) {
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (!constant)
      return failure();
    outputIndices.push_back(constant.getValue());
  }

  Location loc = op.getLoc();
  OpBuilder b(op);
  SmallVector<Value> sizes;
  Value total = arith::ConstantIndexOp::create(b, loc, 1);
  for (Range range : op.createLoopRanges(b, loc)) {
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
    total = arith::MulIOp::create(b, loc, total, sizes.back());
  }
  Value threads = arith::ConstantIndexOp::create(b, loc, blockSize);
  gpu::LaunchOp launch = createLaunch(b, loc, Value(), threads);
  OpBuilder k(launch.getBody().front().getTerminator());
  Value tid = launch.getThreadIds().x;
  Value init = arith::ConstantOp::create(k, loc, *neutral);

  // Each thread folds elements tid, tid + blockSize, ...
  auto loop = scf::ForOp::create(
      k, loc, tid, total, threads, ValueRange{init},
      [&](OpBuilder &l, Location loc, Value iv, ValueRange partials) {
        SmallVector<Value> ivs(sizes.size());
        Value linear = iv;
        for (int64_t dim = sizes.size() - 1; dim >= 0; --dim) {
          ivs[dim] = arith::RemUIOp::create(l, loc, linear, sizes[dim]);
          linear = arith::DivUIOp::create(l, loc, linear, sizes[dim]);
        }
        IRMapping map;
        for (OpOperand *input : op.getDpsInputOperands()) {
          BlockArgument arg = op.getMatchingBlockArgument(input);
          if (!isa<MemRefType>(input->get().getType())) {
            map.map(arg, input->get());
            continue;
          }
          AffineMap access = op.getMatchingIndexingMap(input);
          SmallVector<Value> indices;
          for (unsigned r = 0; r < access.getNumResults(); ++r)
            indices.push_back(affine::AffineApplyOp::create(
                l, loc, access.getSubMap({r}), ivs));
          map.map(arg, memref::LoadOp::create(l, loc, input->get(), indices));
        }
        for (Operation &inner : body->without_terminator()) {
          if (&inner == combiner)
            continue;
          if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
            map.map(index.getResult(), ivs[index.getDim()]);
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
    SmallVector<Value> indices;
    for (int64_t index : outputIndices)
      indices.push_back(arith::ConstantIndexOp::create(t, loc, index));
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
