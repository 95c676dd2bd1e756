//===- ParallelizeLoops.cpp - tsir-parallelize-loops -----------------------===//
//
// Compiled graphs run each big linalg op on several threads. This pass
// decides which ops are worth it and cuts them into a fixed number of
// chunks along their outer parallel loops, as an scf.forall that the
// pipeline turns into an OpenMP worksharing loop. The number of chunks is
// a property of the op's size, not of the thread count, so the same plan
// runs on any number of threads and computes the same bits
// (passes/Conversion.td, docs/lowering.md "Threads").
//
//===----------------------------------------------------------------------===//

#include "tsir/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <optional>

namespace tsir {
#define GEN_PASS_DEF_TSIRPARALLELIZELOOPSPASS
#include "tsir/Conversion/Passes.h.inc"
} // namespace tsir

using namespace mlir;

namespace {
/// How many chunks each loop of an op is cut into (0: not cut).
using ChunkCounts = SmallVector<int64_t>;

struct ChunkLimits {
  int64_t minIterations;
  int64_t chunkIterations;
  int64_t maxChunks;
};
} // namespace

/// Whether linalg's tiling computes the slices of an operand read through
/// `map` right. It assumes each index grows with the loops: sums of loop
/// indices times positive constants, plus constants (a convolution's
/// `oh * s + kh`). A reversed index (`2 - kh`, the flipped kernel of a
/// transposed convolution) gets a slice of size 1 (MLIR 22's TileCheck
/// asserts against such coefficients in debug builds only).
static bool isIncreasingInEveryLoop(AffineMap map) {
  bool increasing = true;
  for (AffineExpr result : map.getResults())
    result.walk([&](AffineExpr expr) {
      auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
      if (!binary || expr.getKind() == AffineExprKind::Add)
        return;
      auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS());
      if (expr.getKind() != AffineExprKind::Mul || !factor ||
          factor.getValue() <= 0)
        increasing = false;
    });
  return increasing;
}

/// The chunks of `op`, or nothing when it is too small to be worth a fork,
/// has no parallel loop to cut, or reads an operand in a way tiling cannot
/// slice (isIncreasingInEveryLoop).
static std::optional<ChunkCounts> planChunks(linalg::LinalgOp op,
                                             const ChunkLimits &limits) {
  if (!llvm::all_of(op.getIndexingMapsArray(), isIncreasingInEveryLoop))
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (ranges.empty())
    return std::nullopt;
  // The work: every point of the iteration space, reductions included. A
  // dynamic size is taken as large (it is a size the spec did not fix,
  // usually a tensor grown in a loop).
  bool dynamic = false;
  uint64_t points = 1;
  for (int64_t range : ranges) {
    if (ShapedType::isDynamic(range)) {
      dynamic = true;
      continue;
    }
    if (range == 0)
      return std::nullopt;
    points = llvm::SaturatingMultiply(points, uint64_t(range));
  }
  if (!dynamic && points < uint64_t(limits.minIterations))
    return std::nullopt;
  int64_t chunks =
      dynamic ? limits.maxChunks
              : int64_t(std::clamp<uint64_t>(
                    points / uint64_t(limits.chunkIterations), 2,
                    uint64_t(limits.maxChunks)));

  // Outermost parallel loops first; each takes as many chunks as it has
  // iterations, and the next one the rest.
  ChunkCounts counts(ranges.size(), 0);
  int64_t left = chunks;
  bool cut = false;
  for (auto [loop, range] : llvm::enumerate(ranges)) {
    if (left <= 1)
      break;
    if (!linalg::isParallelIterator(iterators[loop]) || range == 1)
      continue;
    cut = true;
    if (ShapedType::isDynamic(range) || range >= left) {
      counts[loop] = left;
      break;
    }
    counts[loop] = range;
    left = llvm::divideCeil(left, range);
  }
  if (!cut)
    return std::nullopt;
  return counts;
}

/// Cuts `op` into `counts` chunks per loop: an scf.forall whose body runs
/// the op on subviews of its operands.
static LogicalResult cutIntoChunks(RewriterBase &rewriter, linalg::LinalgOp op,
                                   const ChunkCounts &counts) {
  scf::SCFTilingOptions options;
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  options.setTileSizeComputationFunction(
      [counts](OpBuilder &builder, Operation *tiled) {
        auto linalgOp = cast<linalg::LinalgOp>(tiled);
        Location loc = tiled->getLoc();
        SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
        SmallVector<Range> loopRanges;
        SmallVector<OpFoldResult> sizes;
        for (auto [loop, count] : llvm::enumerate(counts)) {
          if (count == 0) {
            sizes.push_back(builder.getIndexAttr(0));
            continue;
          }
          if (!ShapedType::isDynamic(ranges[loop])) {
            sizes.push_back(builder.getIndexAttr(
                llvm::divideCeil(ranges[loop], count)));
            continue;
          }
          // A dynamic extent: ceil(extent / count) at run time, at least 1:
          // an empty extent (a batch of 0) would make a chunk size of 0,
          // and the forall's trip count a division by it.
          if (loopRanges.empty())
            loopRanges = linalgOp.createLoopRanges(builder, loc);
          AffineExpr extent = builder.getAffineSymbolExpr(0);
          AffineMap chunk = AffineMap::get(
              0, 1, {extent.ceilDiv(count), builder.getAffineConstantExpr(1)},
              builder.getContext());
          sizes.push_back(affine::makeComposedFoldedAffineMax(
              builder, loc, chunk, {loopRanges[loop].size}));
        }
        return sizes;
      });
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return failure();
  // On buffers the op has no results: the chunks write its outputs.
  rewriter.eraseOp(op);
  return success();
}

namespace {
struct TsirParallelizeLoopsPass
    : tsir::impl::TsirParallelizeLoopsPassBase<TsirParallelizeLoopsPass> {
  using TsirParallelizeLoopsPassBase::TsirParallelizeLoopsPassBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    TsirParallelizeLoopsPassBase::getDependentDialects(registry);
    // tileUsingSCF needs the linalg ops' TilingInterface.
    linalg::registerTilingInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    if (minIterations < 1 || chunkIterations < 1 || maxChunks < 2) {
      getOperation().emitError(
          "tsir-parallelize-loops: min-iterations and chunk-iterations must "
          "be positive and max-chunks at least 2");
      return signalPassFailure();
    }
    ChunkLimits limits{minIterations, chunkIterations, maxChunks};
    SmallVector<std::pair<linalg::LinalgOp, ChunkCounts>> work;
    getOperation().walk([&](linalg::LinalgOp op) {
      // Ops already in a parallel loop (another pass's tiles) run on the
      // threads of that loop; nested parallel regions would fork per tile.
      if (!op.hasPureBufferSemantics() ||
          op->getParentOfType<scf::ForallOp>() ||
          op->getParentOfType<scf::ParallelOp>() ||
          !isa<TilingInterface>(op.getOperation()))
        return;
      if (std::optional<ChunkCounts> counts = planChunks(op, limits))
        work.emplace_back(op, std::move(*counts));
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, counts] : work)
      if (failed(cutIntoChunks(rewriter, op, counts))) {
        op->emitError("tsir-parallelize-loops: cannot cut this op into "
                      "chunks");
        return signalPassFailure();
      }
  }
};
} // namespace
