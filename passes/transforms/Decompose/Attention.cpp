//===- Attention.cpp - Multi-head attention as the ops that define it -----===//
//
// populateAttentionDecompositionPatterns (Decompositions.h). In eval mode
// nn.MultiheadAttention, nn.TransformerEncoderLayer and torchvision's ViT
// call `_native_multi_head_attention`, a fused kernel of ATen's. Its
// definition (aten/src/ATen/native/transformers/attention.cpp,
// native_multi_head_attention_cpu) is a composition of ops tsir lowers:
//
//   q, k, v = linear(query|key|value, qkv_weight[i*E:(i+1)*E], qkv_bias[..])
//   q = (q viewed [B, T, H, D], heads first) / sqrt(D); k, v likewise
//   p = softmax(q @ k^T, -1)                      [B, H, T, S]
//   out = linear((p @ v) heads last, viewed [B, T, E], proj_weight, proj_bias)
//   weights = p averaged over the heads (or p) when need_weights, else an
//             undefined tensor
//
// nn.TransformerEncoderLayer's `_transformer_encoder_layer_fwd` is the same
// attention (with its mask) plus a feed-forward block, residuals and layer
// norms.
//
// A mask is what torch 1.13's fast paths pass: a key padding mask [B, S]
// (nn.MultiheadAttention's key_padding_mask, nn.TransformerEncoderLayer's
// src_key_padding_mask; ATen takes it so for either mask_type), true (or
// non-zero) where a key is left out: those scores become -inf before the
// softmax, and a query with every key masked gets NaN, as in ATen.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/Decompositions.h"

#include "tsir/Transforms/ConstantMatchers.h"
#include "ConstantBuilders.h"
#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include <cmath>

using namespace mlir;
using namespace tsir;
using namespace tsir::decompose;

namespace {

struct DecomposeNativeMultiHeadAttention
    : OpRewritePattern<aten::PrivateNativeMultiHeadAttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(aten::PrivateNativeMultiHeadAttentionOp op,
                                PatternRewriter &rewriter) const override {
    // (query, key, value, embed_dim, num_head, qkv_weight, qkv_bias,
    //  proj_weight, proj_bias, mask, need_weights, average_attn_weights,
    //  mask_type)
    Value query = op->getOperand(0), key = op->getOperand(1),
          value = op->getOperand(2);
    std::optional<Shape> q = Shape::of(query), k = Shape::of(key);
    std::optional<int64_t> embed = matchConstantInt(op->getOperand(3));
    std::optional<int64_t> heads = matchConstantInt(op->getOperand(4));
    std::optional<bool> needWeights = matchConstantBool(op->getOperand(10));
    std::optional<bool> average = matchConstantBool(op->getOperand(11));
    Value mask = op->getOperand(9);
    std::optional<Shape> maskShape = Shape::of(mask);
    bool masked = !isNone(mask);
    if (!q || !k || q->sizes.size() != 3 || k->sizes.size() != 3 || !embed ||
        !heads || *heads <= 0 || *embed <= 0 || *embed % *heads != 0 ||
        !needWeights || !average || q->sizes[2] != *embed ||
        (masked && (!maskShape || maskShape->sizes.size() != 2 ||
                    maskShape->sizes[0] != q->sizes[0] ||
                    maskShape->sizes[1] != k->sizes[1])))
      return rewriter.notifyMatchFailure(op, "needs static 3-d inputs, "
                                             "constant sizes and no mask or "
                                             "a [B, S] one");
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    int64_t batch = q->sizes[0], target = q->sizes[1], source = k->sizes[1];
    int64_t e = *embed, h = *heads, d = e / h;
    auto type = [&](ArrayRef<int64_t> sizes) { return q->withSizes(sizes); };
    Value none = noneConstant(rewriter, loc);
    Value one = intConstant(rewriter, loc, 1);
    Value two = intConstant(rewriter, loc, 2);

    // One of the three projections: rows [i*E, (i+1)*E) of the packed
    // weight and bias, as heads first: [B, H, L, D].
    auto project = [&](Value input, int64_t length, int64_t index) {
      Value zero = intConstant(rewriter, loc, 0);
      Value begin = intConstant(rewriter, loc, index * e);
      Value end = intConstant(rewriter, loc, (index + 1) * e);
      Value weight =
          aten::SliceTensorOp::create(rewriter, loc, type({e, e}),
                                      op->getOperand(5), zero, begin, end, one);
      Value bias = aten::SliceTensorOp::create(
          rewriter, loc, type({e}), op->getOperand(6), zero, begin, end, one);
      Value projected = aten::LinearOp::create(
          rewriter, loc, type({batch, length, e}), input, weight, bias);
      Value split = aten::ReshapeOp::create(
          rewriter, loc, type({batch, length, h, d}), projected,
          intList(rewriter, loc, {batch, length, h, d}));
      return aten::TransposeIntOp::create(
                 rewriter, loc, type({batch, h, length, d}), split, one, two)
          .getResult();
    };
    Value qh = aten::DivScalarOp::create(
        rewriter, loc, type({batch, h, target, d}), project(query, target, 0),
        floatConstant(rewriter, loc, std::sqrt(double(d))));
    Value kh = project(key, source, 1);
    Value vh = project(value, source, 2);

    Value minusOne = intConstant(rewriter, loc, -1);
    Value minusTwo = intConstant(rewriter, loc, -2);
    Value kt = aten::TransposeIntOp::create(
        rewriter, loc, type({batch, h, d, source}), kh, minusTwo, minusOne);
    Value scores = aten::MatmulOp::create(
        rewriter, loc, type({batch, h, target, source}), qh, kt);
    if (masked) {
      // [B, S] as bool (ATen converts any other dtype so), seen as
      // [B, 1, 1, S] against the scores.
      Shape flags = *maskShape;
      flags.dtype = rewriter.getI1Type();
      Value leftOut = mask;
      if (!maskShape->dtype.isInteger(1))
        leftOut = aten::NeScalarOp::create(rewriter, loc,
                                        flags.withSizes(flags.sizes), mask,
                                        intConstant(rewriter, loc, 0));
      leftOut = aten::ReshapeOp::create(
          rewriter, loc, flags.withSizes({batch, 1, 1, source}), leftOut,
          intList(rewriter, loc, {batch, 1, 1, source}));
      scores = aten::MaskedFillScalarOp::create(
          rewriter, loc, type({batch, h, target, source}), scores, leftOut,
          floatConstant(rewriter, loc, -INFINITY));
    }
    Value probabilities = aten::SoftmaxIntOp::create(
        rewriter, loc, type({batch, h, target, source}), scores, minusOne,
        none);
    Value context_ = aten::MatmulOp::create(
        rewriter, loc, type({batch, h, target, d}), probabilities, vh);
    Value headsLast = aten::TransposeIntOp::create(
        rewriter, loc, type({batch, target, h, d}), context_, one, two);
    Value merged = aten::ReshapeOp::create(
        rewriter, loc, type({batch, target, e}), headsLast,
        intList(rewriter, loc, {batch, target, e}));
    Value output =
        aten::LinearOp::create(rewriter, loc, type({batch, target, e}), merged,
                               op->getOperand(7), op->getOperand(8));

    Value weights;
    if (!*needWeights) {
      // ATen returns an undefined tensor.
      weights = prim::ConstantOp::create(rewriter, loc,
                                         prim::TensorType::get(context),
                                         rewriter.getUnitAttr());
    } else if (*average) {
      Value summed = aten::SumDimIntListOp::create(
          rewriter, loc, type({batch, target, source}), probabilities,
          intList(rewriter, loc, {1}), boolConstant(rewriter, loc, false),
          none);
      weights = aten::DivScalarOp::create(
          rewriter, loc, type({batch, target, source}), summed,
          floatConstant(rewriter, loc, double(h)));
    } else {
      weights = probabilities;
    }
    rewriter.replaceOp(op, {output, weights});
    return success();
  }
};

/// `_transformer_encoder_layer_fwd`, nn.TransformerEncoderLayer's fast
/// path (aten/src/ATen/native/transformers/transformer.cpp): attention and
/// a feed-forward block, each with a residual and a layer norm before
/// (norm_first) or after. Its attention is `_native_multi_head_attention`,
/// which the pattern above then decomposes.
struct DecomposeTransformerEncoderLayer
    : OpRewritePattern<aten::PrivateTransformerEncoderLayerFwdOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(aten::PrivateTransformerEncoderLayerFwdOp op,
                                PatternRewriter &rewriter) const override {
    // (src, embed_dim, num_heads, qkv_weight, qkv_bias, proj_weight,
    //  proj_bias, use_gelu, norm_first, eps, norm_weight_1, norm_bias_1,
    //  norm_weight_2, norm_bias_2, ffn_weight_1, ffn_bias_1, ffn_weight_2,
    //  ffn_bias_2, mask, mask_type)
    Value src = op->getOperand(0);
    std::optional<Shape> shape = Shape::of(src);
    std::optional<int64_t> embed = matchConstantInt(op->getOperand(1));
    std::optional<bool> useGelu = matchConstantBool(op->getOperand(7));
    std::optional<bool> normFirst = matchConstantBool(op->getOperand(8));
    std::optional<Shape> ffn = Shape::of(op->getOperand(14));
    if (!shape || shape->sizes.size() != 3 || !embed || !useGelu ||
        !normFirst || !ffn || ffn->sizes.size() != 2)
      return rewriter.notifyMatchFailure(op, "needs static 3-d inputs and "
                                             "constant flags");
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    SmallVector<int64_t> sizes = shape->sizes;
    SmallVector<int64_t> hiddenSizes = {sizes[0], sizes[1], ffn->sizes[0]};
    auto type = [&](ArrayRef<int64_t> dims) { return shape->withSizes(dims); };
    Value one = intConstant(rewriter, loc, 1);
    Value normalized = intList(rewriter, loc, {*embed});
    Value eps = op->getOperand(9);
    Value noCudnn = boolConstant(rewriter, loc, false);
    auto layerNorm = [&](Value input, unsigned weight) {
      return aten::LayerNormOp::create(rewriter, loc, type(sizes), input,
                                       normalized, op->getOperand(weight),
                                       op->getOperand(weight + 1), eps, noCudnn)
          .getResult();
    };
    auto add = [&](Value a, Value b) {
      return aten::AddTensorOp::create(rewriter, loc, type(sizes), a, b, one)
          .getResult();
    };

    Value x = *normFirst ? layerNorm(src, 10) : src;
    auto attention = aten::PrivateNativeMultiHeadAttentionOp::create(
        rewriter, loc, TypeRange{type(sizes), prim::TensorType::get(context)},
        ValueRange{
            x, x, x, op->getOperand(1), op->getOperand(2), op->getOperand(3),
            op->getOperand(4), op->getOperand(5), op->getOperand(6),
            op->getOperand(18), boolConstant(rewriter, loc, false),
            boolConstant(rewriter, loc, true), op->getOperand(19)});
    x = add(attention->getResult(0), src);
    if (!*normFirst)
      x = layerNorm(x, 10);
    Value residual = x;
    if (*normFirst)
      x = layerNorm(x, 12);
    Value hidden =
        aten::LinearOp::create(rewriter, loc, type(hiddenSizes), x,
                               op->getOperand(14), op->getOperand(15));
    if (*useGelu) {
      Value exact =
          prim::ConstantOp::create(rewriter, loc, prim::StrType::get(context),
                                   rewriter.getStringAttr("none"));
      hidden =
          aten::GeluOp::create(rewriter, loc, type(hiddenSizes), hidden, exact);
    } else {
      hidden = aten::ReluOp::create(rewriter, loc, type(hiddenSizes), hidden);
    }
    x = aten::LinearOp::create(rewriter, loc, type(sizes), hidden,
                               op->getOperand(16), op->getOperand(17));
    x = add(x, residual);
    if (!*normFirst)
      x = layerNorm(x, 12);
    rewriter.replaceOp(op, x);
    return success();
  }
};

} // namespace

void tsir::populateAttentionDecompositionPatterns(RewritePatternSet &patterns) {
  patterns
      .add<DecomposeNativeMultiHeadAttention, DecomposeTransformerEncoderLayer>(
          patterns.getContext());
}
