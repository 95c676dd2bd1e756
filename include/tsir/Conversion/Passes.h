//===- Passes.h - tsir's conversions and the lowering pipeline --*- C++ -*-===//
//
// The convert-* passes (passes/Conversion.td), the populate functions that
// let other drivers reuse their patterns, and the lowering pipelines
// (tsir-lower-to-llvm for the CPU, tsir-lower-to-nvvm for NVIDIA GPUs).
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_CONVERSION_PASSES_H
#define TSIR_CONVERSION_PASSES_H

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tsir {

#define GEN_PASS_DECL
#include "tsir/Conversion/Passes.h.inc"

/// aten tensor ops -> linalg/tensor/arith/math (convert-aten-to-linalg).
void populateAtenToLinalgPatterns(const mlir::TypeConverter &typeConverter,
                                  mlir::RewritePatternSet &patterns);

/// Scalar aten ops and constants -> arith/math (convert-aten-to-arith).
void populateAtenToArithPatterns(const mlir::TypeConverter &typeConverter,
                                 mlir::RewritePatternSet &patterns);

/// Whether `op` is a prim.Generic that convert-aten-to-arith lowers:
/// Python's abs/min/max on two numbers (`prim::min.int`, ...), which have
/// no typed op.
bool isLoweredPrimScalarOp(mlir::Operation *op);

/// prim.If/prim.Loop -> scf (convert-prim-to-scf).
void populatePrimToSCFPatterns(const mlir::TypeConverter &typeConverter,
                               mlir::RewritePatternSet &patterns);

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

#define GEN_PASS_REGISTRATION
#include "tsir/Conversion/Passes.h.inc"

} // namespace tsir

#endif // TSIR_CONVERSION_PASSES_H
