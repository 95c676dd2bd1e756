//===- CompilePipeline.h - From an imported graph to a plan -----*- C++ -*-===//
//
// The steps the executor runs for one argument spec: specialize and
// optimize, externalize the weights, lower to linalg (where the plan's
// signature is read), lower to LLVM, and JIT-compile.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_COMPILEPIPELINE_H
#define TSIR_LIB_COMPILER_COMPILEPIPELINE_H

#include "Plan.h"

#include "mlir/IR/BuiltinOps.h"

namespace tsir {

struct CompileOptions {
  std::string spec;
  bool optimize = true;
  bool printIRAfterAll = false;
  unsigned firstCallerArgument = 0;
};

/// Compiles `graph` (the module holding `func.func @graph` as imported,
/// which is not modified) for `options.spec`. Errors carry the collected
/// MLIR diagnostics.
rt::StatusOr<std::unique_ptr<Plan>> compileGraph(mlir::ModuleOp graph,
                                                 const CompileOptions &options);

} // namespace tsir

#endif // TSIR_LIB_COMPILER_COMPILEPIPELINE_H
