//===- Shuffles.cpp - Pixel and channel shuffles as reshapes and permutes -===//
//
// populateShuffleDecompositionPatterns (Decompositions.h). ATen defines
// the shuffles (aten/src/ATen/native/PixelShuffle.cpp, ChanelShuffle.cpp)
// as a reshape, a permutation and a reshape back, for an input of static
// sizes; they have no typed op (prim.Generic nodes):
//
//   pixel_shuffle(x [*, C*r*r, H, W], r):   [*, C, r, r, H, W]
//       -> permute to [*, C, H, r, W, r] -> [*, C, H*r, W*r]
//   pixel_unshuffle(x [*, C, H*r, W*r], r): [*, C, H, r, W, r]
//       -> permute to [*, C, r, r, H, W] -> [*, C*r*r, H, W]
//   channel_shuffle(x [N, C, *], g):        [N, g, C/g, *]
//       -> swap dims 1 and 2 -> [N, C, *]
//
// Sizes that do not divide stay whole, and the op is reported.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Decompositions.h"

#include "tsir/Transforms/ConstantMatchers.h"
#include "ConstantBuilders.h"
#include "GenericPattern.h"
#include "tsir/Dialect/Aten/AtenDialect.h"

#include <numeric>

using namespace mlir;
using namespace tsir;
using namespace tsir::decompose;

namespace {

/// reshape(permute(reshape(x, split), order), merged): the node's result.
Value splitPermuteMerge(PatternRewriter &rewriter, prim::GenericOp op,
                        ArrayRef<int64_t> split, ArrayRef<int64_t> order,
                        ArrayRef<int64_t> merged) {
  Location loc = op.getLoc();
  Type any = anyTensor(rewriter);
  Value x = aten::ReshapeOp::create(rewriter, loc, any, op.getInputs()[0],
                                    intList(rewriter, loc, split));
  x = aten::PermuteOp::create(rewriter, loc, any, x,
                              intList(rewriter, loc, order));
  return aten::ReshapeOp::create(rewriter, loc, op->getResult(0).getType(), x,
                                 intList(rewriter, loc, merged));
}

/// The identity permutation of `rank` dims, then `tail` offset past them.
SmallVector<int64_t> leadingThen(int64_t rank, ArrayRef<int64_t> tail) {
  SmallVector<int64_t> order(rank);
  std::iota(order.begin(), order.end(), 0);
  for (int64_t dim : tail)
    order.push_back(rank + dim);
  return order;
}

struct DecomposePixelShuffle : GenericKindPattern {
  DecomposePixelShuffle(MLIRContext *context, bool shuffle)
      : GenericKindPattern(context,
                           shuffle ? "aten::pixel_shuffle"
                                   : "aten::pixel_unshuffle",
                           2, 1),
        shuffle(shuffle) {}

  LogicalResult rewriteNode(prim::GenericOp op,
                            PatternRewriter &rewriter) const override {
    std::optional<Shape> x = Shape::of(op.getInputs()[0]);
    std::optional<int64_t> r =
        matchConstantInt(op.getInputs()[1]);
    if (!x || x->sizes.size() < 3 || !r || *r <= 0)
      return rewriter.notifyMatchFailure(op, "needs static sizes and a "
                                             "constant positive factor");
    ArrayRef<int64_t> sizes = x->sizes;
    int64_t lead = sizes.size() - 3;
    int64_t c = sizes[lead], h = sizes[lead + 1], w = sizes[lead + 2];
    SmallVector<int64_t> split(sizes.begin(), sizes.begin() + lead);
    SmallVector<int64_t> merged = split;
    if (shuffle) {
      if (c % (*r * *r) != 0)
        return rewriter.notifyMatchFailure(op, "channels not divisible");
      int64_t oc = c / (*r * *r);
      split.append({oc, *r, *r, h, w});
      merged.append({oc, h * *r, w * *r});
      rewriter.replaceOp(op, splitPermuteMerge(rewriter, op, split,
                                               leadingThen(lead, {0, 3, 1, 4, 2}),
                                               merged));
    } else {
      if (h % *r != 0 || w % *r != 0)
        return rewriter.notifyMatchFailure(op, "sizes not divisible");
      split.append({c, h / *r, *r, w / *r, *r});
      merged.append({c * *r * *r, h / *r, w / *r});
      rewriter.replaceOp(op, splitPermuteMerge(rewriter, op, split,
                                               leadingThen(lead, {0, 2, 4, 1, 3}),
                                               merged));
    }
    return success();
  }

  bool shuffle;
};

struct DecomposeChannelShuffle : GenericKindPattern {
  DecomposeChannelShuffle(MLIRContext *context)
      : GenericKindPattern(context, "aten::channel_shuffle", 2, 1) {}

  LogicalResult rewriteNode(prim::GenericOp op,
                            PatternRewriter &rewriter) const override {
    std::optional<Shape> x = Shape::of(op.getInputs()[0]);
    std::optional<int64_t> groups =
        matchConstantInt(op.getInputs()[1]);
    if (!x || x->sizes.size() < 3 || !groups || *groups <= 0 ||
        x->sizes[1] % *groups != 0)
      return rewriter.notifyMatchFailure(op, "needs static sizes and groups "
                                             "that divide the channels");
    ArrayRef<int64_t> sizes = x->sizes;
    SmallVector<int64_t> split = {sizes[0], *groups, sizes[1] / *groups};
    split.append(sizes.begin() + 2, sizes.end());
    SmallVector<int64_t> order(split.size());
    std::iota(order.begin(), order.end(), 0);
    std::swap(order[1], order[2]);
    rewriter.replaceOp(op,
                       splitPermuteMerge(rewriter, op, split, order, sizes));
    return success();
  }
};

} // namespace

void tsir::populateShuffleDecompositionPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<DecomposePixelShuffle>(context, /*shuffle=*/true);
  patterns.add<DecomposePixelShuffle>(context, /*shuffle=*/false);
  patterns.add<DecomposeChannelShuffle>(context);
}
