//===- Passes.h - TorchScript's graph passes --------------------*- C++ -*-===//
//
// The passes declared in passes/Passes.td (create…Pass, options structs,
// registration), the pattern sets the pattern-based ones are built from,
// and the tsir-optimize pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_TRANSFORMS_PASSES_H
#define TSIR_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

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

/// Options of the tsir-optimize pipeline.
struct OptimizePipelineOptions
    : public mlir::PassPipelineOptions<OptimizePipelineOptions> {
  Option<bool> unroll{*this, "unroll", llvm::cl::desc("unroll small for-loops"),
                      llvm::cl::init(true)};
  Option<unsigned> unrollFactor{
      *this, "unroll-factor",
      llvm::cl::desc("copies of the body per iteration of a partially "
                     "unrolled loop (1: unroll only loops with a constant "
                     "trip count, fully)"),
      llvm::cl::init(8)};
  Option<bool> fuse{*this, "fuse",
                    llvm::cl::desc("group elementwise ops into fusion groups"),
                    llvm::cl::init(true)};
  Option<bool> inlineSubgraphs{
      *this, "inline-subgraphs",
      llvm::cl::desc("inline imported fusion/fallback subgraphs first"),
      llvm::cl::init(true)};
};

/// TorchScript's profiling-executor order: inline subgraphs, DCE, CSE,
/// constant propagation, constant pooling, peephole, lower tuples, remove
/// mutation, unroll loops, then fusion. Adds to a pass manager on func.func.
void buildOptimizePipeline(mlir::OpPassManager &pm,
                           const OptimizePipelineOptions &options);

/// Registers `tsir-optimize` (on the module; nests on each func.func).
void registerOptimizePipeline();

#define GEN_PASS_REGISTRATION
#include "tsir/Transforms/Passes.h.inc"

} // namespace tsir

#endif // TSIR_TRANSFORMS_PASSES_H
