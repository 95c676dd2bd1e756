//===- ModelObject.h - A lowered graph as object files --------*- C++ -*-===//
//
// The LLVM half of ahead-of-time compilation: the graph, lowered to the
// LLVM dialect, becomes LLVM IR with the symbols runtime/include/
// tsir-runtime/ModelTable.h describes beside it (the packed entry point,
// the signature table, the weights); then an object file for the target
// CPU, position-independent. ModelLink.h links the objects into a
// model.so.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_MODELOBJECT_H
#define TSIR_LIB_COMPILER_MODELOBJECT_H

#include "TargetCPU.h"
#include "tsir-runtime/Status.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace tsir {

/// The data a model carries beside its code (ModelTable.h).
struct ModelData {
  std::vector<int64_t> table;
  std::string signatureJson;
  /// NUL-terminated names, in weight order.
  std::string weightNames;
  /// Embedded weights, each at a 64-byte aligned offset.
  std::string weights;
};

enum class ModelArtifact { Object, LLVMIR };

/// Translates `module` (LLVM dialect, `_mlir_ciface_graph` its entry) with
/// `data` to LLVM IR, optimizes it for `targetCpu` ("host" or an LLVM CPU
/// name) and writes an object file or the IR to `path`.
rt::Status writeModelArtifact(mlir::ModuleOp module, const ModelData &data,
                              const std::string &targetCpu,
                              ModelArtifact artifact, const std::string &path);

/// The same as object files in `directory`, the module split into up to
/// `parts` partitions that are optimized and compiled on as many threads
/// (LLVM's work on one module is serial, and most of a compile); returns
/// their paths. One part: one object, compiled on this thread.
rt::StatusOr<std::vector<std::string>>
writeModelObjects(mlir::ModuleOp module, const ModelData &data,
                  const std::string &targetCpu, const std::string &directory,
                  unsigned parts);

/// Adds `name(ptr packed)`, which loads each argument of
/// `_mlir_ciface_graph` through packed[i] and stores a returned scalar
/// through the last pointer: the packed convention of MLIR's
/// ExecutionEngine, which the model ABI and the JIT both call.
rt::Status addPackedEntry(llvm::Module &module, llvm::StringRef name);

/// How many partitions LLVM's work on a module is split into: one per core
/// (at most 8), unless $TSIR_COMPILE_THREADS says otherwise.
unsigned compileThreads();

/// Splits `module` into up to `parts` partitions of about equal size and
/// optimizes and compiles each on a thread of its own, for code loaded as
/// `loadedBy` says; `prepare` (if given) sees each partition, with its
/// index, first. Returns the object files, in memory. LLVM's work on one
/// module is serial, and most of a compile.
rt::StatusOr<std::vector<llvm::SmallVector<char, 0>>> compileInPartitions(
    std::unique_ptr<llvm::Module> module, const std::string &targetCpu,
    CodeModelFor loadedBy, unsigned parts,
    const std::function<void(llvm::Module &, unsigned)> &prepare = nullptr);

} // namespace tsir

#endif // TSIR_LIB_COMPILER_MODELOBJECT_H
