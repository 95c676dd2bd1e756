//===- MapParallelLoops.cpp - tsir-gpu-map-parallel-loops -----------------===//
//
// Upstream's gpu-map-parallel-loops maps loop i of a nest to block i and
// thread i, which gives a 3-d loop nest 256^3 threads per block after
// tiling, or too few threads for a tall, narrow tensor. tsir's loops come
// one per linalg op, so every one is flattened to 1-d and cut into blocks
// of `block-size` threads: the launch shape depends only on the number of
// elements (passes/Conversion.td, docs/gpu.md).
//
//===----------------------------------------------------------------------===//

#include "GPUUtils.h"

#include "tsir/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRGPUMAPPARALLELLOOPSPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

static gpu::ParallelLoopDimMappingAttr mapTo(MLIRContext *context,
                                             gpu::Processor processor) {
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  return gpu::ParallelLoopDimMappingAttr::get(context, processor, identity,
                                              identity);
}

namespace {
struct TsirGPUMapParallelLoopsPass
    : tsir::impl::TsirGPUMapParallelLoopsPassBase<TsirGPUMapParallelLoopsPass> {
  using TsirGPUMapParallelLoopsPassBase::TsirGPUMapParallelLoopsPassBase;

  void runOnOperation() override {
    if (blockSize < 1 || blockSize > 1024) {
      getOperation().emitError("block-size must be in 1..1024, not ")
          << blockSize;
      return signalPassFailure();
    }
    SmallVector<scf::ParallelOp> outermost;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>() &&
          !loop->getParentOfType<gpu::LaunchOp>())
        outermost.push_back(loop);
    });
    // What runs on the host now must not touch device memory: a load or
    // store left outside the loops and kernels is a bug of the placement.
    WalkResult hostAccess = getOperation().walk([&](Operation *op) {
      if (!isa<memref::LoadOp, memref::StoreOp>(op) ||
          op->getParentOfType<scf::ParallelOp>() ||
          op->getParentOfType<gpu::LaunchOp>())
        return WalkResult::advance();
      Value memref = isa<memref::LoadOp>(op)
                         ? cast<memref::LoadOp>(op).getMemRef()
                         : cast<memref::StoreOp>(op).getMemRef();
      if (!tsir::gpu_lowering::bufferRoot(memref).getDefiningOp<gpu::AllocOp>())
        return WalkResult::advance();
      op->emitError("tsir-gpu-map-parallel-loops: the host accesses a "
                    "device buffer here; run tsir-gpu-place-buffers first");
      return WalkResult::interrupt();
    });
    if (hostAccess.wasInterrupted())
      return signalPassFailure();
    MLIRContext *context = &getContext();
    IRRewriter rewriter(context);
    for (scf::ParallelOp loop : outermost) {
      if (loop.getNumReductions() != 0) {
        loop.emitError("tsir-gpu-map-parallel-loops: a parallel loop with "
                       "scf.reduce results cannot be mapped to threads");
        return signalPassFailure();
      }
      if (loop.getNumLoops() > 1) {
        std::vector<unsigned> all(loop.getNumLoops());
        std::iota(all.begin(), all.end(), 0);
        // collapseParallelLoops builds the new loop right before the old
        // one, which it erases.
        Operation *next = loop->getNextNode();
        collapseParallelLoops(rewriter, loop, {all});
        loop = cast<scf::ParallelOp>(next->getPrevNode());
      }
      auto [blocks, threads] =
          scf::tileParallelLoop(loop, {blockSize}, /*noMinMaxBounds=*/true);
      // CUDA rejects an empty grid: an empty loop launches one block whose
      // bounds guard does nothing.
      OpBuilder b(blocks);
      Value upper = blocks.getUpperBound()[0];
      Value one = arith::ConstantIndexOp::create(b, blocks.getLoc(), 1);
      blocks.getUpperBoundMutable()[0].assign(
          arith::MaxSIOp::create(b, blocks.getLoc(), upper, one));
      (void)gpu::setMappingAttr(blocks, mapTo(context, gpu::Processor::BlockX));
      (void)gpu::setMappingAttr(threads,
                                mapTo(context, gpu::Processor::ThreadX));
      scf::ParallelOp tile = threads;
      tile.walk([&](scf::ParallelOp nested) {
        if (nested == tile)
          return;
        SmallVector<gpu::ParallelLoopDimMappingAttr> sequential(
            nested.getNumLoops(), mapTo(context, gpu::Processor::Sequential));
        (void)gpu::setMappingAttr(nested, sequential);
      });
    }
  }
};
} // namespace
