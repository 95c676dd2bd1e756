//===- Passes.h - TorchScript's graph passes --------------------*- C++ -*-===//
//
// The passes declared in passes/Passes.td (create…Pass, options structs,
// registration) and the pattern sets the pattern-based ones are built
// from. The tsir-optimize pipeline is in tsir/Pipelines/Pipelines.h.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_TRANSFORMS_PASSES_H
#define TSIR_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace tsir {

#define GEN_PASS_DECL
#include "tsir/Transforms/Passes.h.inc"

/// tsir-refine-types with its spec as types rather than text: one per
/// argument of each function, where a null type keeps the argument's type,
/// `!prim.none` says an Optional input is None, and a tensor type refines
/// a Tensor (or Optional[Tensor]) input. The executor builds it from the
/// values of a call.
std::unique_ptr<mlir::Pass> createTsirRefineTypesPass(
    llvm::ArrayRef<mlir::Type> spec);

/// Peephole rewrites: `x.t().t()`, no-op expand/type_as, NumToTensor/Int,
/// `is None` and unwrap_optional, len/__getitem__ of never-mutated list
/// literals, tuple construct/unpack pairs. The list rewrites check for
/// writers themselves, so the set is safe to apply anywhere.
void populatePeepholePatterns(mlir::RewritePatternSet &patterns);

/// Control-flow simplifications of constant propagation: `prim.If` with a
/// constant condition, loops that never run, loop-carried values that never
/// change, `If` results equal on both branches.
void populateControlFlowSimplificationPatterns(
    mlir::RewritePatternSet &patterns);

/// Tuple construct/unpack/index elimination, also across If/Loop.
void populateLowerTuplesPatterns(mlir::RewritePatternSet &patterns);

/// Loop unrolling with the pass's limits.
void populateUnrollLoopsPatterns(mlir::RewritePatternSet &patterns,
                                 const PrimUnrollLoopsPassOptions &options);

#define GEN_PASS_REGISTRATION
#include "tsir/Transforms/Passes.h.inc"

} // namespace tsir

#endif // TSIR_TRANSFORMS_PASSES_H
