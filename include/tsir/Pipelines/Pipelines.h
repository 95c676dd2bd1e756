//===- Pipelines.h - tsir's named pipelines ---------------------*- C++ -*-===//
//
// The pipelines tsir-opt names and the executor runs (passes/pipelines/):
// tsir-optimize (TorchScript's optimizer), tsir-specialize (one input
// spec), tsir-lower-to-linalg, tsir-lower-to-llvm (the CPU) and
// tsir-lower-to-nvvm (NVIDIA GPUs). Each is a builder, which adds its
// passes to a pass manager, and a registration.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PIPELINES_PIPELINES_H
#define TSIR_PIPELINES_PIPELINES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <string>

namespace tsir {

/// Options of the tsir-optimize pipeline.
struct OptimizePipelineOptions
    : public mlir::PassPipelineOptions<OptimizePipelineOptions> {
  Option<bool> unroll{*this, "unroll", llvm::cl::desc("unroll small for-loops"),
                      llvm::cl::init(true)};
  Option<unsigned> unrollFactor{
      *this, "unroll-factor",
      llvm::cl::desc("copies of the body per iteration of a partially "
                     "unrolled loop (1: unroll only loops with a constant "
                     "trip count, fully)"),
      llvm::cl::init(8)};
  Option<bool> fuse{*this, "fuse",
                    llvm::cl::desc("group elementwise ops into fusion groups"),
                    llvm::cl::init(true)};
  Option<bool> inlineSubgraphs{
      *this, "inline-subgraphs",
      llvm::cl::desc("inline imported fusion/fallback subgraphs first"),
      llvm::cl::init(true)};
};

/// TorchScript's profiling-executor order: inline subgraphs, DCE, CSE,
/// constant propagation, constant pooling, peephole, lower tuples, remove
/// mutation, unroll loops, then fusion. Adds to a pass manager on func.func.
void buildOptimizePipeline(mlir::OpPassManager &pm,
                           const OptimizePipelineOptions &options);

/// Registers `tsir-optimize` (on the module; nests on each func.func).
void registerOptimizePipeline();

/// The choices of the CPU lowering pipeline, in one place.
struct LowerToLLVMOptions
    : public mlir::PassPipelineOptions<LowerToLLVMOptions> {
  Option<bool> vectorize{*this, "vectorize",
                         llvm::cl::desc("vectorize the hot loops"),
                         llvm::cl::init(true)};
  Option<bool> deallocate{
      *this, "deallocate",
      llvm::cl::desc("insert deallocations (buffer-deallocation-pipeline)"),
      llvm::cl::init(true)};
  Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("run large ops on OpenMP threads (tsir-parallelize-loops, "
                     "convert-scf-to-openmp); compiled code then needs libomp"),
      llvm::cl::init(true)};
  Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("f32 lanes of the target CPU's vector registers: 16 "
                     "(AVX-512, 32 registers), 8 (AVX2) or 4 (SSE), both "
                     "with 16 registers; sizes the GEMM kernels' register "
                     "tiles"),
      llvm::cl::init(16)};
};

/// From value-semantics prim/aten to linalg on tensors: value semantics,
/// the conversions, finalization.
void buildLowerToLinalgPipeline(mlir::OpPassManager &pm);

/// From linalg on tensors to the LLVM dialect: bufferization with
/// deallocation, vectorization, and the conversions to LLVM.
void buildLinalgToLLVMPipeline(mlir::OpPassManager &pm,
                               const LowerToLLVMOptions &options);

/// Both of the above: tsir-lower-to-llvm.
void buildLowerToLLVMPipeline(mlir::OpPassManager &pm,
                              const LowerToLLVMOptions &options);

/// The choices of the GPU lowering pipeline (docs/gpu.md), in one place.
struct LowerToNVVMOptions
    : public mlir::PassPipelineOptions<LowerToNVVMOptions> {
  Option<std::string> gpuArch{*this, "gpu-arch",
                              llvm::cl::desc("the NVIDIA chip (sm_XX)"),
                              llvm::cl::init("sm_90")};
  // LLVM's default PTX ISA (6.0) is older than sm_90 and ptxas aborts on
  // it; PTX 8.0 is what CUDA 12+ ptxas needs for sm_90.
  Option<std::string> ptxFeatures{
      *this, "ptx-features",
      llvm::cl::desc("NVPTX target features (the PTX ISA version)"),
      llvm::cl::init("+ptx80")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("what the kernels are embedded as: fatbin, bin (cubin) "
                     "or isa (PTX text; needs no ptxas)"),
      llvm::cl::init("fatbin")};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("the CUDA toolkit (libdevice, ptxas, fatbinary); empty "
                     "means $CUDA_HOME, $CUDA_PATH, then /usr/local/cuda"),
      llvm::cl::init("")};
  Option<int> optLevel{*this, "opt-level",
                       llvm::cl::desc("optimization level of the kernels"),
                       llvm::cl::init(3)};
  Option<int64_t> blockSize{*this, "block-size",
                            llvm::cl::desc("threads per block"),
                            llvm::cl::init(256)};
  Option<bool> tf32{
      *this, "tf32",
      llvm::cl::desc("allow TF32 tensor cores for f32 matmul (no effect yet: "
                     "matmuls run on CUDA cores at full f32 accuracy)"),
      llvm::cl::init(false)};
};

/// The start both lowerings share: elementwise fusion on tensors, one-shot
/// bufferization with identity layouts at the function boundary, and
/// (`deallocate`) the ownership-based deallocation pipeline.
/// `onFusedTensors` adds the passes that run between fusion and
/// bufferization.
void buildFuseAndBufferizePipeline(
    mlir::OpPassManager &pm, bool deallocate,
    llvm::function_ref<void(mlir::OpPassManager &)> onFusedTensors = nullptr);

/// From linalg on tensors (the output of buildLowerToLinalgPipeline) to the
/// LLVM dialect with the kernels embedded as an NVVM binary: bufferization,
/// buffers placed on the device, loops mapped to blocks and threads,
/// kernels compiled for `options.gpuArch`, host side to LLVM. The graph
/// keeps the CPU calling convention (host memrefs in and out).
void buildLinalgToNVVMPipeline(mlir::OpPassManager &pm,
                               const LowerToNVVMOptions &options);

/// buildLowerToLinalgPipeline + buildLinalgToNVVMPipeline:
/// tsir-lower-to-nvvm.
void buildLowerToNVVMPipeline(mlir::OpPassManager &pm,
                              const LowerToNVVMOptions &options);

/// The toolkit the pipeline uses when `toolkit` is empty: $CUDA_HOME, then
/// $CUDA_PATH, then /usr/local/cuda.
std::string defaultCudaToolkitPath();

void registerLoweringPipelines();

/// tsir-specialize, the steps the executor runs for one input spec before
/// lowering, in three stages (the executor times and reports each):
/// inline subgraphs and bind the weights file's constants as arguments;
/// refine to the spec (`refineTypes`: tsir-refine-types with the spec as
/// text or as types) and decompose; then optimize without fusion, and
/// refine and fold until stable (tsir-refine-until-stable).
void buildBindWeightsPipeline(mlir::OpPassManager &pm,
                              llvm::ArrayRef<std::string> weightNames);
void buildRefineToSpecPipeline(mlir::OpPassManager &pm,
                               std::unique_ptr<mlir::Pass> refineTypes);
void buildSpecializedOptimizePipeline(mlir::OpPassManager &pm);
void registerSpecializePipeline();

/// Registers every pipeline above with MLIR's pass registry (tsir-opt).
inline void registerAllPipelines() {
  registerOptimizePipeline();
  registerSpecializePipeline();
  registerLoweringPipelines();
}

} // namespace tsir

#endif // TSIR_PIPELINES_PIPELINES_H
