//===- InitAll.cpp - Register every tsir dialect and pass -----------------===//
//
// The definitions behind tsir/InitAll.h.
//
//===----------------------------------------------------------------------===//

#include "tsir/InitAll.h"

#include "tsir/Pipelines/Pipelines.h"
#include "tsir/Conversion/Passes.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Importer/Importer.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"

void tsir::registerAllDialects(mlir::DialectRegistry &registry) {
  registry
      .insert<prim::PrimDialect, aten::AtenDialect, mlir::func::FuncDialect>();
  // Passes that take types as text (tsir-refine-types's arg-spec) read
  // them through the prim dialect, with the importer's parser.
  registerTorchTypeText(registry);
  registerGPUTargets(registry);
  // The CPU lowering's threads are OpenMP ops until LLVM IR.
  mlir::registerOpenMPDialectTranslation(registry);
}

void tsir::registerGPUTargets(mlir::DialectRegistry &registry) {
  registry.insert<mlir::gpu::GPUDialect, mlir::NVVM::NVVMDialect>();
  // #nvvm.target compiles gpu.modules (gpu-module-to-binary).
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  // gpu.binary/gpu.launch_func and NVVM ops translate to LLVM IR: the
  // binary becomes a global and a module load at startup. Compiling a
  // kernel translates its gpu.module to LLVM IR too, in any tool.
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerGPUDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
  mlir::gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}

void tsir::registerAllPasses() {
  // Upstream's passes are registered by the tools themselves.
  registerTsirTransformsPasses();
  registerTsirConversionPasses();
  registerAllPipelines();
}
