//===- GPUPipelineTest.cpp - tsir-lower-to-nvvm from C++ ------------------===//
//
// The way lib/compiler drives the GPU pipeline: a context set up with the
// registrations the executor makes (tsir::registerAllDialects among them),
// buildLinalgToNVVMPipeline on linalg on tensors, then
// translateModuleToLLVMIR, which needs tsir's GPU registrations
// (registerGPUTargets) for the NVVM target and gpu.binary. No GPU needed.
//
//===----------------------------------------------------------------------===//

#include "tsir/Pipelines/Pipelines.h"
#include "tsir/Conversion/Passes.h"
#include "tsir/InitAll.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

constexpr const char *kPointwise = R"mlir(
#id = affine_map<(d0) -> (d0)>
func.func @graph(%a: tensor<300xf32>) -> tensor<300xf32>
    attributes {llvm.emit_c_interface} {
  %e = tensor.empty() : tensor<300xf32>
  %r = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<300xf32>) outs(%e : tensor<300xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<300xf32>
  return %r : tensor<300xf32>
}
)mlir";

TEST(GPUPipeline, LowersAndTranslatesToLLVMIR) {
  DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  tsir::registerAllDialects(registry);
  MLIRContext context(registry);

  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kPointwise, &context);
  ASSERT_TRUE(module);
  PassManager pm(&context);
  tsir::LowerToNVVMOptions options;
  options.format = "isa"; // needs no ptxas
  tsir::buildLinalgToNVVMPipeline(pm, options);
  ASSERT_TRUE(succeeded(pm.run(*module)));

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext);
  ASSERT_TRUE(llvmModule);
  EXPECT_TRUE(llvmModule->getFunction("_mlir_ciface_graph"));
  for (const char *entry :
       {"mgpuModuleLoadJIT", "mgpuModuleGetFunction", "mgpuLaunchKernel",
        "mgpuMemAlloc", "mgpuMemcpy", "mgpuMemFree", "mgpuStreamSynchronize"})
    EXPECT_TRUE(llvmModule->getFunction(entry)) << entry;
}

TEST(GPUPipeline, BadFormatIsAnError) {
  DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  tsir::registerAllDialects(registry);
  MLIRContext context(registry);
  context.getDiagEngine().registerHandler([](Diagnostic &) {});
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kPointwise, &context);
  ASSERT_TRUE(module);
  PassManager pm(&context);
  tsir::LowerToNVVMOptions options;
  options.format = "wasm";
  tsir::buildLinalgToNVVMPipeline(pm, options);
  EXPECT_TRUE(failed(pm.run(*module)));
}

} // namespace
