//===- TargetCPU.h - The CPU compiled code is for ---------------*- C++ -*-===//
//
// One place that turns a CPU name ("host", or an LLVM CPU name such as
// x86-64-v3) into an LLVM target machine, and into the vector width the
// CPU kernels are tiled for: AVX-512 has 32 registers of 16 f32 lanes,
// AVX2 16 registers of 8, and a register tile sized for one spills on
// the other.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_TARGETCPU_H
#define TSIR_LIB_COMPILER_TARGETCPU_H

#include "tsir-runtime/Status.h"

#include "llvm/Target/TargetMachine.h"

#include <cstdint>
#include <memory>
#include <string>

namespace tsir {

/// How the code is loaded: by the JIT, or from a shared library (position-
/// independent, small code model).
enum class CodeModelFor { JIT, SharedLibrary };

/// Registers the host's LLVM target and its code emitter, once per process:
/// a target machine needs them, and so does a JIT that only links objects
/// (a saved plan, the first thing a process may load).
void initializeNativeTarget();

/// A target machine for `targetCpu`: "host" is this machine's CPU with the
/// features it exposes (a virtual machine may hide some), anything else an
/// LLVM CPU name on this machine's architecture.
rt::StatusOr<std::unique_ptr<llvm::TargetMachine>>
createCpuTargetMachine(const std::string &targetCpu, CodeModelFor loadedBy);

/// The f32 lanes of `targetCpu`'s widest vector register: 16 with AVX-512,
/// 8 with AVX or AVX2, 4 otherwise (SSE, NEON). LLVM takes a CPU name it
/// does not know as the architecture's baseline (and says so on stderr),
/// and so does this: 4 on x86-64. 16 if no target machine can be made.
int64_t vectorLanesF32(const std::string &targetCpu);

} // namespace tsir

#endif // TSIR_LIB_COMPILER_TARGETCPU_H
