//===- LLVMOptimizer.h - tsir's LLVM optimization of a lowered graph -*- C++ -*-===//
//
// The one LLVM optimization pipeline that the JIT (Plan.cpp) and the
// ahead-of-time models (ModelObject.cpp) both run, so that a model.so runs
// as fast as the same graph under tsir-run.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_LLVMOPTIMIZER_H
#define TSIR_LIB_COMPILER_LLVMOPTIMIZER_H

#include "llvm/Support/Error.h"

#include <functional>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace tsir {

/// Sets LLVM's process-wide options that the pipeline relies on (the
/// unroll threshold), once per process. makeLLVMOptimizer calls it; a
/// caller that optimizes on several threads calls it first, before it
/// starts them, so that no thread's passes read an option while another
/// thread sets it.
void configureLLVMOptions();

/// O3 for `machine`, with loop unrolling held to a threshold of 50 (O3's
/// is 300) unless the process was given `-unroll-threshold` itself.
std::function<llvm::Error(llvm::Module *)>
makeLLVMOptimizer(llvm::TargetMachine *machine);

} // namespace tsir

#endif // TSIR_LIB_COMPILER_LLVMOPTIMIZER_H
