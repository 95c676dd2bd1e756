//===- StructuredBuilders.h - Shape helpers for linear/conv/pool -*- C++
//-*-===//
//
// What the Linear, Convolution and Pooling families share: tensors built
// from mixed static/dynamic sizes, reshapes that keep dynamic dims, numpy
// broadcasting into an init tensor, constant padding, and the window
// parameters (stride, padding, dilation) that torch expands from one int.
// Private to AtenToLinalg/.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_ATENTOLINALG_STRUCTUREDBUILDERS_H
#define TSIR_PASSES_CONVERSION_ATENTOLINALG_STRUCTUREDBUILDERS_H

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace tsir::conversion {

/// The sizes of a ranked tensor value: attributes for static dims,
/// `tensor.dim` values for dynamic ones.
llvm::SmallVector<mlir::OpFoldResult>
getSizes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tensor);

/// A tensor of `sizes` and `elementType` filled with `value`.
mlir::Value createFilled(mlir::OpBuilder &b, mlir::Location loc,
                         llvm::ArrayRef<mlir::OpFoldResult> sizes,
                         mlir::Type elementType, double value);

/// `src` reshaped to `sizes` by `tensor.expand_shape` (`reassociation` maps
/// each source dim to the result dims it splits into).
mlir::Value expandTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value src,
                     llvm::ArrayRef<mlir::ReassociationIndices> reassociation,
                     llvm::ArrayRef<mlir::OpFoldResult> sizes);

/// `src` reshaped by `tensor.collapse_shape`.
mlir::Value collapse(mlir::OpBuilder &b, mlir::Location loc, mlir::Value src,
                     llvm::ArrayRef<mlir::ReassociationIndices> reassociation);

/// `src` [d0, ...] as [1, d0, ...]: an unbatched conv/pool input made a
/// batch of one.
mlir::Value addUnitBatch(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value src);

/// `src` [1, d0, ...] as [d0, ...], undoing addUnitBatch.
mlir::Value dropUnitBatch(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value src);

/// `src` broadcast with numpy's rules (dims aligned on the right, a static
/// size 1 repeats) into a new tensor of `sizes`, its elements converted to
/// `elementType` (`srcUnsigned` for ui8 sources).
mlir::Value broadcastTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value src,
                        llvm::ArrayRef<mlir::OpFoldResult> sizes,
                        mlir::Type elementType, bool srcUnsigned = false);

/// `src` padded with `low`/`high` elements per dim, all equal to `padValue`;
/// `src` itself when no dim is padded.
mlir::Value padConstant(mlir::OpBuilder &b, mlir::Location loc, mlir::Value src,
                        llvm::ArrayRef<int64_t> low,
                        llvm::ArrayRef<int64_t> high, mlir::Value padValue);

/// `value` cast (`tensor.cast`) to `type` where they differ only in which
/// dims are static.
mlir::Value castToType(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value, mlir::Type type);

/// An `int[N]` window parameter (kernel, stride, padding, dilation): its
/// constant ints, with a one-element list repeated `n` times as torch's
/// conv and pooling do; nullopt when not constant or of another length.
std::optional<llvm::SmallVector<int64_t>> matchWindowParam(mlir::Value list,
                                                           size_t n);

/// The output length of a sliding window over `in` elements (torch's
/// pooling_output_shape): windows of `kernel` taps `dilation` apart, every
/// `stride`, `pad` elements added on each side. With `ceilMode` a partial
/// last window counts, unless it would start in the right padding.
int64_t slidingWindowOutputSize(int64_t in, int64_t kernel, int64_t stride,
                                int64_t pad, int64_t dilation, bool ceilMode);

} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_ATENTOLINALG_STRUCTUREDBUILDERS_H
