//===- PartitionedJIT.h - The CPU JIT, in partitions -----------*- C++ -*-===//
//
// A CPU plan's LLVM module is compiled to objects, above a size in
// partitions optimized and compiled on as many threads
// (compileInPartitions, as tsir-compile's: LLVM's code generation is most
// of a large graph's compile), and the objects are linked in memory by
// ORC's LLJIT (Plan.cpp). MLIR's ExecutionEngine, which a CUDA module
// still takes, compiles one module on one thread, and its destructor
// compiles again: the lookup of its platform's deinitializers sent a
// small module through the whole O3 and code generation pipeline, about
// 10 ms a plan (17% of a process that compiled 60 one-op segments).
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_PARTITIONEDJIT_H
#define TSIR_LIB_COMPILER_PARTITIONEDJIT_H

#include "tsir-runtime/AbiCall.h"
#include "tsir-runtime/Status.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <vector>

namespace llvm {
class DataLayout;
class Module;
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace tsir {

/// How many partitions the JIT splits `module` (in the LLVM dialect) into:
/// one per 20,000 ops ($TSIR_JIT_PARTITION_OPS), at least one, at most one
/// per core; 0 for a CUDA module, which ExecutionEngine compiles (its
/// kernels load from a module constructor, which LLJIT alone would not
/// run).
unsigned jitPartitions(mlir::ModuleOp module);

/// The objects of `module` in `parts` partitions, each optimized and
/// compiled on a thread of its own (one partition: on this thread), for
/// linking in memory.
rt::StatusOr<std::vector<llvm::SmallVector<char, 0>>>
compileJITPartitions(std::unique_ptr<llvm::Module> module, unsigned parts);

/// Links `objects` in memory, with the process's symbols and tsir's
/// support functions, and looks `entryName` up into `entry`. The JIT owns
/// the code: it must outlive every call of `entry`.
rt::StatusOr<std::unique_ptr<llvm::orc::LLJIT>>
linkJITPartitions(const std::vector<llvm::SmallVector<char, 0>> &objects,
                  const llvm::DataLayout &layout, llvm::StringRef entryName,
                  tsir_abi_entry &entry);

} // namespace tsir

#endif // TSIR_LIB_COMPILER_PARTITIONEDJIT_H
