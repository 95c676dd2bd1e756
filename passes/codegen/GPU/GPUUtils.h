//===- GPUUtils.h - Helpers shared by tsir's GPU passes ---------*- C++ -*-===//
//
// What tsir-gpu-place-buffers needs from its neighbours: finding the buffer
// behind a view, building a gpu.launch, and the block-per-output reduction
// kernel (BlockReduction.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_GPU_GPUUTILS_H
#define TSIR_PASSES_CONVERSION_GPU_GPUUTILS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace tsir::gpu_lowering {

/// The buffer `value` is a view of, through view ops and metadata reads.
mlir::Value bufferRoot(mlir::Value value);

/// A gpu.launch of `blocks` x `threads` (one when null) with an empty body
/// ending in gpu.terminator, at the builder's insertion point.
mlir::gpu::LaunchOp createLaunch(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value blocks, mlir::Value threads);

/// Replaces `op`, a linalg op with reduction loops whose body combines its
/// output with one arith op of gpu.all_reduce's kinds, by a block of
/// `blockSize` threads per output element: each thread folds a strided
/// part of the reduced elements, gpu.all_reduce combines the partials,
/// thread 0 stores. Fails and leaves `op` alone when the body or the output
/// indexing has another shape.
mlir::LogicalResult buildBlockReduction(mlir::linalg::LinalgOp op,
                                        int64_t blockSize);

/// Whether `op` (with reduction loops) is better as a block per output
/// element than as a thread per output element: it has no parallel loop,
/// or few outputs (at most 4096) of many reduced elements (at least 32).
/// Sets `threads` to the block size to use, at most `maxThreads`.
bool prefersBlockPerOutput(mlir::linalg::LinalgOp op, int64_t &threads,
                           int64_t maxThreads);

} // namespace tsir::gpu_lowering

#endif // TSIR_PASSES_CONVERSION_GPU_GPUUTILS_H
