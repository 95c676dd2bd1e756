//===- PopulatePatterns.h - convert-aten-to-linalg's op families -*- C++ -*-===//
//
// One populate function per op family, each in a file of its own, so the
// conversion grows by family rather than in one big file (as torch-mlir's
// TorchToLinalg does). Private to AtenToLinalg/.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_ATENTOLINALG_POPULATEPATTERNS_H
#define TSIR_PASSES_CONVERSION_ATENTOLINALG_POPULATEPATTERNS_H

#include "mlir/Transforms/DialectConversion.h"

namespace tsir::conversion {

#define TSIR_DECLARE_FAMILY(name)                                              \
  void populate##name##Patterns(const mlir::TypeConverter &typeConverter,      \
                                mlir::RewritePatternSet &patterns)

/// Arithmetic, comparisons, math, activations, where/clamp/masked_fill and
/// dtype conversions, as linalg.generic with promotion and broadcasting.
TSIR_DECLARE_FAMILY(Elementwise);
/// sum/mean/max/min/argmax/var/std/prod/all/any, softmax and log_softmax.
TSIR_DECLARE_FAMILY(Reduction);
/// batch_norm (inference), layer_norm, group_norm.
TSIR_DECLARE_FAMILY(Normalization);
/// mm/matmul/bmm/addmm/linear/baddbmm.
TSIR_DECLARE_FAMILY(Linear);
/// conv1d/2d/3d and _convolution.
TSIR_DECLARE_FAMILY(Convolution);
/// max/avg/adaptive pooling.
TSIR_DECLARE_FAMILY(Pooling);
/// view/reshape/flatten/squeeze/unsqueeze/transpose/permute/t/expand,
/// contiguous/clone, slice/select/narrow.
TSIR_DECLARE_FAMILY(Views);
/// cat/stack and the list-producing chunk/split/unbind.
TSIR_DECLARE_FAMILY(Concat);
/// index_select/gather/embedding/scatter/index_put.
TSIR_DECLARE_FAMILY(Indexing);
/// zeros/ones/full/arange/empty and the *_like/new_* creators.
TSIR_DECLARE_FAMILY(Creation);
/// Tensor constants, NumToTensor, Int/Float/item, size/dim/numel.
TSIR_DECLARE_FAMILY(ScalarTensor);
/// topk/sort/argsort/kthvalue.
TSIR_DECLARE_FAMILY(Sorting);
/// pad/constant_pad_nd (constant, reflection, replication), tril/triu.
TSIR_DECLARE_FAMILY(Padding);
/// upsample_nearest/bilinear and __interpolate.
TSIR_DECLARE_FAMILY(Resize);
/// Losses (mse, nll, cross_entropy, bce_with_logits), dropout in
/// inference, and metadata ops (equal, is_floating_point, stride, cpu).
TSIR_DECLARE_FAMILY(Misc);

// The files some families are split into: each family's populate function
// calls these.

/// Views: slice/select/narrow as tensor.extract_slice; flip/roll as
/// gathers; repeat/tile as a broadcast and a collapse (Slices.cpp).
TSIR_DECLARE_FAMILY(Slice);
/// Views: diagonal, diag and diag_embed as linalg.generics (Diagonals.cpp).
TSIR_DECLARE_FAMILY(Diagonal);
/// Concat: chunk/split/split_with_sizes/unbind whose lists are only
/// unpacked or indexed with constants (Split.cpp).
TSIR_DECLARE_FAMILY(Split);
/// Creation: arange, linspace, eye and one_hot (Ranges.cpp).
TSIR_DECLARE_FAMILY(Range);
/// Indexing: index.Tensor as a gather and index_put as loops of
/// tensor.insert, for index tensors on any dims (AdvancedIndexing.cpp).
TSIR_DECLARE_FAMILY(AdvancedIndexing);
/// Linear: einsum with a constant equation (Einsum.cpp).
TSIR_DECLARE_FAMILY(Einsum);
/// Misc: mse_loss, nll_loss, cross_entropy_loss and
/// binary_cross_entropy_with_logits (Losses.cpp).
TSIR_DECLARE_FAMILY(Loss);
/// Misc: l1, smooth_l1, huber, soft_margin, margin_ranking,
/// hinge_embedding, kl_div and binary_cross_entropy: a formula per
/// element, then the reduction (PointwiseLosses.cpp).
TSIR_DECLARE_FAMILY(PointwiseLoss);

#undef TSIR_DECLARE_FAMILY

} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_ATENTOLINALG_POPULATEPATTERNS_H
