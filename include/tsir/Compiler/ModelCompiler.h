//===- ModelCompiler.h - Ahead-of-time compilation to a model.so -*- C++ -*-===//
//
// What `tsir-compile` does: specialize a graph to one input spec, lower it
// with the same passes the JIT runs (CPU, or GPU through NVVM), and write
// a shared library that the runtime alone can load and run (tsir_model.h,
// tsir-runtime/Model.h). Only the last step differs from the JIT: machine
// code goes into an object file, which is linked with the model ABI, the
// weights and a table of the signature into model.so.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_COMPILER_MODELCOMPILER_H
#define TSIR_COMPILER_MODELCOMPILER_H

#include <string>

namespace tsir {

struct ModelCompileOptions {
  /// The spec of the caller's inputs (a frozen module's `self` excluded):
  /// `Float(1, 3, 224, 224), int`. Tensors need a dtype and sizes; scalars
  /// are `int`, `float`, `bool` or `_`.
  std::string spec;
  /// "cpu" or "cuda".
  std::string device = "cpu";
  /// What to write to `output`.
  enum class Emit { Library, Object, LLVMIR, MLIR, PTX } emit = Emit::Library;
  std::string output;
  /// Put the weights into the library (the default), or leave them in
  /// their safetensors file, which the runtime maps when it loads the model.
  bool embedWeights = true;
  /// The CPU to generate code for: "host" (the machine compiling), or an
  /// LLVM CPU name such as "x86-64-v3" for a machine elsewhere.
  std::string targetCpu = "host";
  /// GPU models: the SM architecture.
  std::string gpuArch = "sm_90";
  /// The model ABI archive (libTsirModelABI.a) linked into the library.
  std::string abiArchive;
  /// GPU models: the directory of libTsirRuntime.so (its CUDA entry points).
  std::string runtimeLibraryDir;
  /// The C compiler driver that links the library; empty: $TSIR_LINKER,
  /// else the first of clang-22, clang, cc on PATH.
  std::string linker;
  bool printIRAfterAll = false;
};

/// tsir's `lib` folder beside the `bin` that holds the running program
/// (`argv0`, with `anchor` an address inside it), in the build tree and in
/// an installed prefix alike: where the model ABI and the runtime are.
std::string libraryDirectoryBeside(const char *argv0, void *anchor);

/// The model ABI archive in tsir's `lib` folder `libraryDirectory`.
std::string modelAbiArchive(const std::string &libraryDirectory);

} // namespace tsir

#endif // TSIR_COMPILER_MODELCOMPILER_H
