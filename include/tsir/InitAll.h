//===- InitAll.h - Register every tsir dialect and pass ---------*- C++ -*-===//
//
// One place that knows everything tsir provides, so tools and embedders
// register it with two calls.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_INITALL_H
#define TSIR_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace tsir {

/// Adds the prim and aten dialects to `registry`, and registerGPUTargets.
void registerAllDialects(mlir::DialectRegistry &registry);

/// What tsir-lower-to-nvvm's output needs beyond the CPU's: the NVVM target
/// that compiles kernels, and the LLVM IR translations of the GPU and NVVM
/// dialects and of gpu.binary (so translateModuleToLLVMIR and the
/// ExecutionEngine accept it).
void registerGPUTargets(mlir::DialectRegistry &registry);

/// Registers every tsir pass and pipeline with the global pass registry.
void registerAllPasses();

} // namespace tsir

#endif // TSIR_INITALL_H
