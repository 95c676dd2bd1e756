//===- optimize-fuzzer.cpp - libFuzzer harness: import, optimize, export --===//
//
// For inputs that import: verify, run the whole tsir-optimize pipeline,
// verify again and export back to TorchScript text. The passes see every
// graph shape the fuzzer finds the importer accepting.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "tsir/Exporter/Exporter.h"
#include "tsir/Pipelines/Pipelines.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext &context = tsir::fuzz::context();
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tsir::importTorchScript(text, "fuzz.txt", &context);
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  mlir::PassManager pm(&context);
  tsir::buildOptimizePipeline(pm.nest<mlir::func::FuncOp>(),
                              tsir::OptimizePipelineOptions());
  if (mlir::failed(pm.run(*module)))
    return 0;
  std::string exported;
  llvm::raw_string_ostream os(exported);
  (void)tsir::exportTorchScript(*module, os);
  return 0;
}
