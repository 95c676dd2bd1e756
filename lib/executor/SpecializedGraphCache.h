//===- SpecializedGraphCache.h - Specialized graphs in the plan cache -*- C++
//-*-===//
//
// Private to lib/executor. A graph that runs in the interpreter is
// specialized and optimized as a whole before it is cut into segments:
// Keypoint R-CNN's 17 rounds of tsir-refine-until-stable take 1.2 s,
// most of what a process that loads every segment plan from the cache
// still spends. The plan cache keeps that specialized graph as MLIR text
// (`<key>.mlir`), and the next process parses it instead.
//
// Only text that reads back as itself is saved (printed, parsed, printed
// again, compared), so an op or attribute that does not round-trip is
// specialized every time rather than loaded wrong. Text that does not
// parse is a miss: specialized, and saved again.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_EXECUTOR_SPECIALIZEDGRAPHCACHE_H
#define TSIR_LIB_EXECUTOR_SPECIALIZEDGRAPHCACHE_H

#include "PlanCache.h"
#include "compiler/CompilePipeline.h"

#include <optional>
#include <string>

namespace tsir {

/// The specialized graph `cache` holds under `key`, parsed into `context`;
/// none if there is none or it does not parse. `numGraphArguments` is the
/// graph's argument count before its weights were appended.
std::optional<SpecializedGraph>
loadSpecializedGraph(const PlanCache &cache, const std::string &key,
                     mlir::MLIRContext *context, unsigned numGraphArguments);

/// Saves `graph` under `key` when its text reads back as the same text.
void saveSpecializedGraph(const PlanCache &cache, const std::string &key,
                          const SpecializedGraph &graph);

} // namespace tsir

#endif // TSIR_LIB_EXECUTOR_SPECIALIZEDGRAPHCACHE_H
