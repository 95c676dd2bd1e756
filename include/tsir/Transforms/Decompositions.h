//===- Decompositions.h - aten-to-aten rewrites before lowering -*- C++ -*-===//
//
// Rewrites that stay in the prim/aten dialects and make graphs easier to
// lower: run them with the optimizer (before convert-aten-to-linalg), where
// the list peepholes can fold what they expose.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_CONVERSION_DECOMPOSITIONS_H
#define TSIR_CONVERSION_DECOMPOSITIONS_H

#include "mlir/IR/PatternMatch.h"

namespace tsir {

/// chunk, split.Tensor, split.sizes, split_with_sizes and unbind.int whose
/// input has a refined dtype and a static size along a constant dim (and
/// constant chunk/split sizes) become a `prim.ListConstruct` of
/// `aten.slice.Tensor` (or `aten.select.int`) results, each with its
/// refined type. The lists of a loop body, or read by `__getitem__` with a
/// computed index, then hold ordinary tensors; a ListUnpack or a constant
/// `__getitem__` of them folds away.
void populateStaticListDecompositionPatterns(mlir::RewritePatternSet &patterns);

/// Composite ops that PyTorch defines as another aten op (mT, mH, adjoint,
/// matrix_H, numpy_T, movedim.intlist, ravel, atleast_{1,2,3}d,
/// broadcast_to, flipud, fliplr, swapaxes, swapdims) become that op, with the replaced op's
/// refined type.
void populateCompositeDecompositionPatterns(mlir::RewritePatternSet &patterns);

/// Questions about the run-time state that tsir answers when it specializes
/// a graph: `is_autocast_enabled`/`is_autocast_cpu_enabled` are false (tsir
/// does not autocast), and so are `prim::is_nested`, `prim::is_cuda` and
/// the other layout and device queries (its tensors are dense host
/// tensors), so the branches they guard fold away.
void populateRuntimeQueryFoldingPatterns(mlir::RewritePatternSet &patterns);

/// `_native_multi_head_attention` (the fast path of nn.MultiheadAttention
/// and the transformer layers) as the ops of its definition: the q/k/v
/// projections, scaled dot products, softmax, the weighted sum and the
/// output projection, for a 3-d query of static sizes and no mask; and
/// `_transformer_encoder_layer_fwd` (nn.TransformerEncoderLayer's fast
/// path) as that attention, a feed-forward block, residuals and layer
/// norms.
void populateAttentionDecompositionPatterns(mlir::RewritePatternSet &patterns);

/// nn.RNNCell's, nn.GRUCell's and nn.LSTMCell's fused cells (rnn_tanh_cell,
/// rnn_relu_cell, gru_cell, lstm_cell) as the linear layers and activations
/// that define them, where the shapes are static.
void populateRecurrentCellDecompositionPatterns(
    mlir::RewritePatternSet &patterns);

/// nn.RNN's, nn.GRU's and nn.LSTM's whole-sequence ops (rnn_tanh.input,
/// rnn_relu.input, gru.input, lstm.input) as their cells, unrolled over a
/// sequence of static length, layer after layer and in both directions.
void populateRecurrentLayerDecompositionPatterns(
    mlir::RewritePatternSet &patterns);

/// nll_loss_nd (F.nll_loss, nn.NLLLoss) as nll_loss, whose lowering takes
/// inputs of any rank.
void populateLossDecompositionPatterns(mlir::RewritePatternSet &patterns);

/// bilinear (nn.Bilinear) as a matrix product with the weight laid out as
/// [I, O*J], a product with the second input and a sum, for a weight of
/// static sizes; _trilinear as its definition (unsqueezes, products, sum).
void populateBilinearDecompositionPatterns(mlir::RewritePatternSet &patterns);

/// Complex values that every reader reads as real (view_as_real, real,
/// imag, abs, angle of fft_rfft/fft_fft of a real signal, polar, complex)
/// computed as their real and imaginary parts (ComplexPairs.cpp).
void populateComplexPairDecompositionPatterns(mlir::RewritePatternSet &patterns);

/// Boolean masks in index.Tensor, index_put and index_put_ as the integer
/// indices of their true elements (nonzero's columns), as ATen expands
/// them.
void populateBooleanMaskDecompositionPatterns(mlir::RewritePatternSet &patterns);

/// pixel_shuffle, pixel_unshuffle and channel_shuffle as a reshape, a
/// permutation and a reshape back, for inputs of static sizes.
void populateShuffleDecompositionPatterns(mlir::RewritePatternSet &patterns);

/// Ops of several results as one op per result: var_mean/std_mean (var or
/// std, and mean), aminmax (amin, amax), and broadcast_tensors/meshgrid over
/// list literals of statically sized tensors (a list literal of expands).
void populateMultiResultDecompositionPatterns(
    mlir::RewritePatternSet &patterns);

/// sum_to_size (the derivative formulas' undoing of a broadcast) as one
/// keepdim sum and a reshape, for an input of static sizes.
void populateSumToSizeDecompositionPatterns(mlir::RewritePatternSet &patterns);

/// A training-mode batch_norm with running statistics as the in-place
/// update of those statistics (`mul_`, `add_` on the buffers) and a batch
/// norm without them (RunningStats.cpp).
void populateRunningStatsPatterns(mlir::RewritePatternSet &patterns);

/// The ops decompositions.txt defines as graphs of ops that lower (the
/// matrix-vector products, distances, nan-reductions, ...), each replaced
/// by a copy of its graph (GraphDecompositions.cpp). The file is imported
/// when a graph first needs it; if it does not import, the diagnostic says
/// where and the ops stay as they are.
void populateGraphDecompositionPatterns(mlir::RewritePatternSet &patterns);

} // namespace tsir

#endif // TSIR_CONVERSION_DECOMPOSITIONS_H
