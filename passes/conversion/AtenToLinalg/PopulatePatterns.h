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

#undef TSIR_DECLARE_FAMILY

} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_ATENTOLINALG_POPULATEPATTERNS_H
