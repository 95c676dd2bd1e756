//===- ShapeHelpers.h - Shape and index helpers for views -------*- C++ -*-===//
//
// What the Views, Concat, Indexing and Creation patterns share: index
// arithmetic that folds when its operands are constant, int-list operands
// whose elements may be SSA values, reshapes between any two shapes,
// Python's slice clamping, and a linalg.generic that computes each result
// element from its indices (the gathers). Private to AtenToLinalg/.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_ATENTOLINALG_SHAPEHELPERS_H
#define TSIR_PASSES_CONVERSION_ATENTOLINALG_SHAPEHELPERS_H

#include "StructuredBuilders.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

#include <optional>

namespace tsir::conversion {

/// The builtin tensor type of `op`'s first result, or null when its dtype or
/// rank is unknown.
mlir::RankedTensorType getResultTensorType(const mlir::TypeConverter &converter,
                                           mlir::Operation *op);

/// Index arithmetic that folds constants, so static shapes stay static.
struct IndexMath {
  mlir::OpBuilder &b;
  mlir::Location loc;

  mlir::Value constant(int64_t v);
  /// An `index` value for `ofr`.
  mlir::Value value(mlir::OpFoldResult ofr);
  /// An i64 (or index) SSA scalar as an `index` value.
  mlir::Value fromInt(mlir::Value scalar);
  mlir::Value add(mlir::Value l, mlir::Value r);
  mlir::Value sub(mlir::Value l, mlir::Value r);
  mlir::Value mul(mlir::Value l, mlir::Value r);
  /// Division of non-negative values.
  mlir::Value div(mlir::Value l, mlir::Value r);
  /// Ceiling division of a non-negative by a positive value.
  mlir::Value ceilDiv(mlir::Value l, mlir::Value r);
  mlir::Value rem(mlir::Value l, mlir::Value r);
  mlir::Value min(mlir::Value l, mlir::Value r);
  mlir::Value max(mlir::Value l, mlir::Value r);
  /// `index` if non-negative, else `index + size` (Python's negative index).
  mlir::Value wrapNegative(mlir::Value index, mlir::Value size);
  /// `v` as an OpFoldResult: an attribute when it is a constant.
  static mlir::OpFoldResult fold(mlir::Value v);
};

/// The elements of an `int[]` operand (`SymInt[]` sizes, repeats, dims) as
/// i64 values, constant or not, remapped through `rewriter`; nullopt if the
/// list is not a `prim.ListConstruct` or list constant.
std::optional<llvm::SmallVector<mlir::Value>>
getIntListValues(mlir::ConversionPatternRewriter &rewriter, mlir::Location loc,
                 mlir::Value list);

/// The sizes of a result of `type`: its static sizes, and for each dynamic
/// dim the matching entry of `computed` (one per dim of the result).
llvm::SmallVector<mlir::OpFoldResult>
mixResultSizes(mlir::RankedTensorType type,
               llvm::ArrayRef<mlir::OpFoldResult> computed);

/// An empty tensor of `type` with sizes `sizes` (one per dim).
mlir::Value createEmpty(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type,
                        llvm::ArrayRef<mlir::OpFoldResult> sizes);

/// `input` (any shape) reshaped to `type`, whose row-major element order is
/// the same, with `sizes` the result's sizes (one per dim). Pure collapses
/// and expansions become collapse_shape/expand_shape; other static
/// reshapes collapse to 1-D and expand from there; dynamic ones are a
/// gathering copy.
mlir::Value reshapeTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
                      mlir::RankedTensorType type,
                      llvm::ArrayRef<mlir::OpFoldResult> sizes);

/// Offset and length of Python's `x[start:end:step]` on a dim of `dimSize`:
/// negative bounds count from the end, both are clamped to [0, dimSize],
/// missing ones (null) are the ends. `step` is positive.
std::pair<mlir::Value, mlir::Value> pythonSlice(IndexMath &m,
                                                mlir::Value dimSize,
                                                mlir::Value start,
                                                mlir::Value end, int64_t step);

/// Whether a slice of `sizes` is statically empty (a size is the constant
/// 0). Torch allows an empty slice anywhere in [0, size], a dim of size 0
/// included; MLIR's slice verifiers reject a static offset equal to the
/// dim's size even for an empty slice ("offset 0 is out-of-bounds: 0 >=
/// 0"), so the helpers below build no slice op for one.
bool isEmptySlice(llvm::ArrayRef<mlir::OpFoldResult> sizes);

/// tensor.extract_slice of `source` (result rank = source rank), or an
/// empty tensor of the slice's sizes when the slice is empty.
mlir::Value extractSlice(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value source,
                         llvm::ArrayRef<mlir::OpFoldResult> offsets,
                         llvm::ArrayRef<mlir::OpFoldResult> sizes,
                         llvm::ArrayRef<mlir::OpFoldResult> strides);

/// tensor.insert_slice of `source` into `dest`, or `dest` itself when the
/// slice is empty.
mlir::Value insertSlice(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value source, mlir::Value dest,
                        llvm::ArrayRef<mlir::OpFoldResult> offsets,
                        llvm::ArrayRef<mlir::OpFoldResult> sizes,
                        llvm::ArrayRef<mlir::OpFoldResult> strides);

/// The elements of `input` at `offset`, `offset + stride`, ... (`size` of
/// them) along `dim`, with every other dim whole; `dropDim` (for a size of
/// 1) removes that dim from the result.
mlir::Value extractAlongDim(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value input, int64_t dim,
                            mlir::OpFoldResult offset, mlir::OpFoldResult size,
                            int64_t stride, bool dropDim);

/// `src` written into `self` where extractAlongDim with the same arguments
/// reads (the functional form of assigning through a slice or select).
mlir::Value insertAlongDim(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value self, mlir::Value src, int64_t dim,
                           mlir::OpFoldResult offset, mlir::OpFoldResult size,
                           int64_t stride, bool dropDim);

/// Computes the body of a gather: given the block arguments of `inputs`
/// (read through `inputMaps`) and the result indices, the result element.
using GatherBodyFn = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange inputArgs,
    mlir::ValueRange resultIndices)>;

/// A linalg.generic producing a tensor of `type` with `sizes`, all loops
/// parallel, whose element at each index is `body`'s value (which may
/// `tensor.extract` from other tensors at computed indices). Without
/// `withIndices`, `body` gets no result indices (and no linalg.index ops
/// are built).
mlir::Value buildGather(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type,
                        llvm::ArrayRef<mlir::OpFoldResult> sizes,
                        mlir::ValueRange inputs,
                        llvm::ArrayRef<mlir::AffineMap> inputMaps,
                        GatherBodyFn body, bool withIndices = true);

/// Computes one step of a scatter: given the loop indices and the tensor
/// so far, the tensor with one more element written.
using ScatterStepFn =
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::ValueRange indices, mlir::Value dest)>;

/// A nest of scf.for loops over `extent` (one loop per entry, none for a
/// 0-d extent) that threads `dest` through `step`: the scatters, whose
/// writes land at computed indices that no linalg op can express.
mlir::Value buildScatterLoops(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value dest,
                              llvm::ArrayRef<mlir::OpFoldResult> extent,
                              ScatterStepFn step);

/// `l + r` for scalars of one element type, with torch's meaning for bool
/// (or).
mlir::Value addScalars(mlir::OpBuilder &b, mlir::Location loc, mlir::Value l,
                       mlir::Value r);

/// `tensor` with its elements converted to `elementType` with torch's cast
/// rules (castScalar); `tensor` itself when it already has that type.
mlir::Value convertElementType(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value tensor, mlir::Type elementType,
                               bool srcUnsigned);

} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_ATENTOLINALG_SHAPEHELPERS_H
