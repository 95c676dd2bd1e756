//===- LowerToNVVMPipeline.cpp - tsir-lower-to-nvvm -----------------------===//
//
// The NVIDIA GPU lowering as one pipeline that reads top to bottom, the
// sibling of tsir-lower-to-llvm: the same fusion and bufferization, then the
// buffers placed on the device, each loop nest mapped to a grid of blocks
// of threads and outlined as a kernel, the kernels compiled to PTX/cubin
// against libdevice, and the host side lowered like the CPU pipeline's.
// The graph keeps the CPU calling convention (docs/gpu.md).
//
//===----------------------------------------------------------------------===//

#include "tsir/Pipelines/Pipelines.h"
#include "tsir/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <cstdlib>
#include <optional>

using namespace mlir;

std::string tsir::defaultCudaToolkitPath() {
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *path = std::getenv(variable); path && *path)
      return path;
  return "/usr/local/cuda";
}

namespace {
/// Stands in for the pipeline when its options are wrong, so that the
/// caller gets an error naming the option instead of a pipeline that runs
/// halfway (gpu-module-to-binary reports a bad format without failing).
struct RejectOptionsPass
    : PassWrapper<RejectOptionsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RejectOptionsPass)
  explicit RejectOptionsPass(std::string message)
      : message(std::move(message)) {}
  StringRef getArgument() const final { return "tsir-reject-options"; }
  void runOnOperation() override {
    getOperation().emitError("tsir-lower-to-nvvm: ") << message;
    signalPassFailure();
  }
  std::string message;
};

std::optional<std::string> checkOptions(const tsir::LowerToNVVMOptions &o) {
  if (o.format != "fatbin" && o.format != "bin" && o.format != "isa")
    return "format must be fatbin, bin or isa, not '" + o.format + "'";
  if (!StringRef(o.gpuArch).starts_with("sm_"))
    return "gpu-arch must name an NVIDIA chip (sm_90, ...), not '" + o.gpuArch +
           "'";
  if (o.blockSize < 1 || o.blockSize > 1024)
    return "block-size must be in 1..1024, not " + std::to_string(o.blockSize);
  if (o.optLevel < 0 || o.optLevel > 3)
    return "opt-level must be in 0..3, not " + std::to_string(o.optLevel);
  return std::nullopt;
}
} // namespace

void tsir::buildLinalgToNVVMPipeline(OpPassManager &pm,
                                     const LowerToNVVMOptions &options) {
  if (std::optional<std::string> error = checkOptions(options)) {
    pm.addPass(std::make_unique<RejectOptionsPass>(*error));
    return;
  }
  // 0. The index checks read what the host cannot see, device memory: they
  // go (the reads and writes they guard stay clamped to bounds).
  TsirLowerRuntimeChecksPassOptions checks;
  checks.report = false;
  pm.addPass(createTsirLowerRuntimeChecksPass(checks));

  // 1. As on the CPU: pointwise chains fuse into one loop nest (one kernel),
  // then bufferization with deallocation.
  buildFuseAndBufferizePipeline(pm, /*deallocate=*/true);

  // 2. Buffers on the device, copies only at the graph's inputs and
  // results; reductions to few elements become a block per element;
  // serial linalg ops and host element accesses become kernels.
  TsirGPUPlaceBuffersPassOptions place;
  place.blockSize = options.blockSize;
  pm.addNestedPass<func::FuncOp>(createTsirGPUPlaceBuffersPass(place));

  // 3. Each other linalg op becomes a parallel loop (reduction dims stay
  // serial loops inside it: one thread per output element), flattened and
  // cut into blocks of threads, and a gpu.launch.
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  TsirGPUMapParallelLoopsPassOptions map;
  map.blockSize = options.blockSize;
  pm.addNestedPass<func::FuncOp>(createTsirGPUMapParallelLoopsPass(map));
  pm.addNestedPass<func::FuncOp>(createConvertParallelLoopToGpuPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // 4. Kernels move into gpu.modules; host-side GPU ops go on a stream,
  // with a wait before any host op that touches memory and at the return.
  // Constants and sizes move into the kernels, where NVPTX folds them
  // (a division by a constant row length is a multiply, not a 64-bit
  // division by a kernel argument).
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());

  // 5. The kernels to NVVM, compiled for the chip.
  GpuNVVMAttachTargetOptions target;
  target.chip = options.gpuArch;
  target.features = options.ptxFeatures;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createTsirExpandDynamicReshapesPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());

  // 6. The host: math as on the CPU, the GPU ops as mgpu* runtime calls,
  // the kernels embedded as a gpu.binary, the rest to LLVM.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.toolkit.empty() ? defaultCudaToolkitPath()
                                               : std::string(options.toolkit);
  binary.compilationTarget = options.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void tsir::buildLowerToNVVMPipeline(OpPassManager &pm,
                                    const LowerToNVVMOptions &options) {
  buildLowerToLinalgPipeline(pm);
  buildLinalgToNVVMPipeline(pm, options);
}
