//===- SpecializedGraphCache.cpp - Specialized graphs in the plan cache ---===//
//
// See SpecializedGraphCache.h.
//
//===----------------------------------------------------------------------===//

#include "SpecializedGraphCache.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tsir;

static constexpr llvm::StringLiteral kSuffix = ".mlir";

/// The module's text with its locations, which errors and runtime checks
/// name.
static std::string textOf(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo());
  return text;
}

/// `text` parsed into `context`, its diagnostics kept out of the caller's.
static OwningOpRef<ModuleOp> parse(llvm::StringRef text, MLIRContext *context) {
  ScopedDiagnosticHandler quiet(context,
                                [](Diagnostic &) { return success(); });
  return parseSourceString<ModuleOp>(text, ParserConfig(context));
}

std::optional<SpecializedGraph>
tsir::loadSpecializedGraph(const PlanCache &cache, const std::string &key,
                           MLIRContext *context, unsigned numGraphArguments) {
  std::optional<std::string> text = cache.readBytes(key, kSuffix);
  if (!text)
    return std::nullopt;
  SpecializedGraph graph;
  graph.module = parse(*text, context);
  if (!graph.module || !graph.func())
    return std::nullopt;
  graph.numGraphArguments = numGraphArguments;
  return graph;
}

void tsir::saveSpecializedGraph(const PlanCache &cache, const std::string &key,
                                const SpecializedGraph &graph) {
  ModuleOp module = graph.module.get();
  std::string text = textOf(module);
  OwningOpRef<ModuleOp> again = parse(text, module.getContext());
  if (again && textOf(*again) == text)
    cache.storeBytes(key, kSuffix, text);
}
