//===- LowerToLLVMPipeline.cpp - tsir-lower-to-llvm -----------------------===//
//
// The CPU lowering as one pipeline that reads top to bottom: value
// semantics, the conversions to linalg on tensors, bufferization with
// deallocation, large ops cut into chunks that run on OpenMP threads,
// vectorization of the hot loops, and the conversions to the LLVM dialect.
// Each step is also a pass of its own in tsir-opt.
//
//===----------------------------------------------------------------------===//

#include "tsir/Pipelines/Pipelines.h"
#include "tsir/Conversion/Passes.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tsir::buildLowerToLinalgPipeline(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(createTsirDecomposePass());
  pm.addNestedPass<func::FuncOp>(createTsirValueSemanticsPass());
  pm.addNestedPass<func::FuncOp>(createConvertAtenToLinalgPass());
  pm.addNestedPass<func::FuncOp>(createConvertAtenToArithPass());
  pm.addNestedPass<func::FuncOp>(createConvertPrimToSCFPass());
  pm.addPass(createTsirFinalizeLoweringPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // What a loop body computes from values defined outside it runs once,
  // before the loop: TorchScript loops recompute such values every
  // iteration (an LSTM step's `w.t()` of a weight passed in).
  pm.addNestedPass<func::FuncOp>(createTsirHoistLoopInvariantsPass());
}

void tsir::buildFuseAndBufferizePipeline(
    OpPassManager &pm, bool deallocate,
    function_ref<void(OpPassManager &)> onFusedTensors) {
  // Elementwise producers fuse into their consumers while still on tensors,
  // so a chain of pointwise ops becomes one loop nest.
  pm.addNestedPass<func::FuncOp>(createTsirFuseElementwisePass());
  pm.addPass(createCanonicalizerPass());
  // After fusion, which would otherwise fuse what these passes split apart
  // (an im2col copy back into its matrix product).
  if (onFusedTensors)
    onFusedTensors(pm);

  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A loop-carried tensor is usually a new value each iteration (z = z * z):
  // let loops yield fresh buffers instead of rejecting the loop.
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  if (deallocate) {
    bufferization::BufferDeallocationPipelineOptions dealloc;
    bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  }
  // The clones deallocation inserts (a result that is a view of an input
  // must be returned as a buffer the caller owns) become alloc + copy.
  pm.addPass(createConvertBufferizationToMemRefPass());
}

/// The GEMM kernels' register tiles for vectors of `width` f32 lanes. With
/// AVX-512's 32 registers: 8 x 2 vectors of C (16 accumulators) in the
/// broadcast kernel, 4 x 4 in the dot kernel. With AVX2's 16: 6 x 2 (12,
/// beside B's two vectors and A's broadcast) and 2 x 4 (8, beside the 2 + 4
/// vectors each k step loads); the AVX-512 tiles would spill there.
static tsir::TsirCPUContractionKernelsPassOptions
contractionKernelSizes(int64_t width) {
  tsir::TsirCPUContractionKernelsPassOptions sizes;
  sizes.vectorWidth = width;
  if (width < 16) {
    sizes.broadcastRows = 6;
    sizes.dotRows = 2;
  }
  return sizes;
}

void tsir::buildLinalgToLLVMPipeline(OpPassManager &pm,
                                     const LowerToLLVMOptions &options) {
  // Convolutions become matrix products for the GEMM kernels below.
  buildFuseAndBufferizePipeline(
      pm, options.deallocate, [&](OpPassManager &tensors) {
        if (options.vectorize) {
          tensors.addNestedPass<func::FuncOp>(createTsirConvToMatmulPass());
          tensors.addNestedPass<func::FuncOp>(
              createTsirCPUDepthwiseConvRowsPass({options.vectorWidth}));
          tensors.addNestedPass<func::FuncOp>(
              createTsirCPUWindowLoopOrderPass());
        }
      });

  // Matrix products as register-blocked vector kernels; their blocks are
  // scf.forall iterations.
  if (options.vectorize)
    pm.addPass(createTsirCPUContractionKernelsPass(
        contractionKernelSizes(options.vectorWidth)));
  // Elementwise ops over their longest contiguous run, so that the loop
  // LLVM vectorizes is not a 7-wide row.
  if (options.vectorize)
    pm.addNestedPass<func::FuncOp>(createTsirCPUCollapseElementwiseDimsPass());
  // Threads: each other large op becomes an scf.forall of chunks along its
  // outer parallel loops (ops already inside a forall keep theirs).
  if (options.parallel)
    pm.addNestedPass<func::FuncOp>(createTsirParallelizeLoopsPass());
  // Transcendental functions as arithmetic, so that LLVM vectorizes the
  // loops that compute them.
  if (options.vectorize)
    pm.addNestedPass<func::FuncOp>(createTsirApproximateMathPass());
  // Reductions along contiguous rows keep partial results in vector
  // registers; LLVM would leave each row's chain of adds scalar.
  if (options.vectorize)
    pm.addNestedPass<func::FuncOp>(createTsirCPUVectorizeReductionsPass());
  // Window reductions along a contiguous row (depthwise convolutions) keep
  // their accumulators in registers across the window; the loops LLVM
  // vectorizes would load and store them once per tap.
  if (options.vectorize)
    pm.addNestedPass<func::FuncOp>(createTsirCPUVectorizeWindowsPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // Each sequential loop nest a function of its own: LLVM compiles many
  // small functions faster than one huge graph function, and in parallel.
  pm.addPass(createTsirOutlineLoopNestsPass());
  if (options.parallel) {
    // Each outermost forall becomes an OpenMP parallel region with a
    // worksharing loop over its chunks; parallel loops inside it run
    // sequentially in their thread.
    pm.addPass(createForallToParallelLoopPass());
    pm.addNestedPass<func::FuncOp>(
        createTsirSerializeNestedParallelLoopsPass());
    pm.addPass(createConvertSCFToOpenMPPass());
    // The memref.alloca_scope it wraps each loop body in has no allocas
    // here: canonicalization inlines it (convert-scf-to-cf cannot put the
    // loops inside it into blocks).
    pm.addPass(createCanonicalizerPass());
  } else {
    pm.addPass(createForallToForLoopPass());
  }
  // Failed index checks become errors the caller gets, not aborts.
  pm.addPass(createTsirLowerRuntimeChecksPass());
  pm.addPass(createTsirExpandDynamicReshapesPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // Math functions with an LLVM intrinsic use it; the others (erf, atan2,
  // ...) become libm calls, which the JIT resolves in the process.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // Buffers come from the runtime's cache (tsir-runtime/BufferCache.h)
  // rather than straight from malloc, which maps and page-faults every large
  // buffer again on every call.
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  // This also gives the omp ops LLVM types (the OpenMP dialect's
  // ConvertToLLVMPatternInterface, which registerAllExtensions registers).
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void tsir::buildLowerToLLVMPipeline(OpPassManager &pm,
                                    const LowerToLLVMOptions &options) {
  buildLowerToLinalgPipeline(pm);
  buildLinalgToLLVMPipeline(pm, options);
}

/// Registers a pipeline that runs on a whole module. Nested in another op
/// (`func.func(tsir-lower-to-llvm)`) its module passes cannot run, which
/// MLIR's pass manager treats as a programming error and aborts on; here
/// it is the user's error, named as such.
template <typename Options>
static void registerModulePipeline(
    StringRef arg, StringRef description,
    std::function<void(OpPassManager &, const Options &)> builder) {
  registerPassPipeline(
      arg, description,
      [arg, builder](OpPassManager &pm, StringRef text,
                     function_ref<LogicalResult(const Twine &)> errorHandler)
          -> LogicalResult {
        StringRef anchor = pm.getOpAnchorName();
        if (anchor != ModuleOp::getOperationName() &&
            anchor != OpPassManager::getAnyOpAnchorName())
          return errorHandler("'" + arg + "' runs on a builtin.module, not "
                              "nested in '" + anchor + "': write it as " +
                              "builtin.module(" + arg + ")");
        Options options;
        if (failed(options.parseFromString(text)))
          return failure();
        builder(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> handler) {
        handler(Options());
      });
}

void tsir::registerLoweringPipelines() {
  registerModulePipeline<EmptyPipelineOptions>(
      "tsir-lower-to-linalg",
      "value semantics and the conversions from prim/aten to linalg on "
      "tensors",
      [](OpPassManager &pm, const EmptyPipelineOptions &) {
        buildLowerToLinalgPipeline(pm);
      });
  registerModulePipeline<LowerToLLVMOptions>(
      "tsir-lower-to-llvm",
      "lower a specialized graph from prim/aten to the LLVM dialect",
      buildLowerToLLVMPipeline);
  registerModulePipeline<LowerToNVVMOptions>(
      "tsir-lower-to-nvvm",
      "lower a specialized graph from prim/aten to the LLVM dialect with its "
      "kernels compiled for an NVIDIA GPU (docs/gpu.md)",
      buildLowerToNVVMPipeline);
}
