//===- ModelCompile.h - Ahead-of-time compilation of one graph --*- C++ -*-===//
//
// Private to lib/compiler: GraphExecutor::compileModel's work, on the
// executor's graph, signature and weights (see tsir/Compiler/ModelCompiler.h).
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_MODELCOMPILE_H
#define TSIR_LIB_COMPILER_MODELCOMPILE_H

#include "OpRoles.h"
#include "Signature.h"

#include "tsir/Compiler/ModelCompiler.h"

#include "tsir-runtime/Tensor.h"

#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <string>

namespace tsir {

class CompileProgress;

/// Where the graph's weights come from: tensors by name, and the file they
/// were read from (named in a model that leaves them there).
struct WeightSource {
  const std::map<std::string, rt::Tensor> &tensors;
  std::string path;
};

/// Compiles `graph` for `spec`, the executor's spec of a call (`self`
/// included); with no spec, for the text of `options.spec` (tsir-compile's
/// --spec).
rt::Status compileModel(mlir::ModuleOp graph, const GraphInputs &signature,
                        const WeightSource &weights, const OpRoles &roles,
                        const ModelCompileOptions &options,
                        CompileProgress *progress = nullptr,
                        const ArgumentSpec *spec = nullptr);

} // namespace tsir

#endif // TSIR_LIB_COMPILER_MODELCOMPILE_H
