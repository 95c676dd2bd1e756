//===- ReductionBuilder.h - linalg reductions for aten ops ------*- C++ -*-===//
//
// What the reduction, softmax and normalization patterns share: reading a
// `dim` operand (None, an int, an int list; an empty list is every dim, as
// torch 1.13 reads it), a linalg.generic that reduces a tensor over some
// dims into accumulators, and re-inserting reduced dims as size 1
// (keepdim). It also declares the populate functions of the reduction
// family's files other than Reduction.cpp. Private to AtenToLinalg/.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_ATENTOLINALG_REDUCTIONBUILDER_H
#define TSIR_PASSES_CONVERSION_ATENTOLINALG_REDUCTIONBUILDER_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tsir::conversion {

/// The dims an `int[]?`/`int?`/`int` operand (the original aten operand)
/// names, normalized, sorted and unique: None and the empty list are every
/// dim. nullopt when the operand is not constant or a dim is out of range.
/// A 0-d tensor has no dims to reduce (its dim 0 / -1 is accepted).
std::optional<llvm::SmallVector<int64_t>> getReductionDims(mlir::Value dim,
                                                           int64_t rank);

/// The shape of `type` without `dims`.
llvm::SmallVector<int64_t> dropDims(llvm::ArrayRef<int64_t> shape,
                                    llvm::ArrayRef<int64_t> dims);

/// Combines the elements of the reduced inputs with the accumulators:
/// `(builder, loc, elements, accumulators) -> new accumulators`. The body may
/// use `linalg.index` for the position along a dim.
using ReductionBody = llvm::function_ref<llvm::SmallVector<mlir::Value>(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange, mlir::ValueRange)>;

/// A linalg.generic reducing over `dims`. `input` is the full-rank tensor
/// reduced; each of `keptInputs` has the shape of the result (the kept dims
/// only, as a previous reduction produced: a mean to subtract). One result
/// per `inits` scalar: a tensor of the kept dims filled with it before the
/// reduction. Returns the reduced tensors (without keepdim's 1s).
llvm::SmallVector<mlir::Value>
buildReduction(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
               mlir::ValueRange keptInputs, llvm::ArrayRef<int64_t> dims,
               mlir::ValueRange inits, ReductionBody body);

/// `reduced` (the kept dims of a rank-`rank` tensor reduced over `dims`)
/// with size-1 dims inserted where `dims` were: torch's keepdim.
mlir::Value insertReducedDims(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value reduced, llvm::ArrayRef<int64_t> dims,
                              int64_t rank);

/// The number of elements of `tensor` along `dims`, as a scalar of `type`
/// (float or int), read with tensor.dim where a dim is dynamic.
mlir::Value buildElementCount(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value tensor, llvm::ArrayRef<int64_t> dims,
                              mlir::Type type);

/// The type to add up `inputType`'s elements over `dims` in, for a sum or
/// mean computed in `computeType`: f64 for an f32 sum of 256 or more
/// elements (or of a dynamic count). Added one after another in f32, the
/// rounding error of such a sum grows with its length; torch's cascaded
/// sums keep it near one rounding. (Batch norm in training mode sums
/// 100,352 values per channel in ResNet-18's first layer and 392 in its
/// last: its float32 gradients were up to 8% off float64's where torch's
/// are under 1%.)
mlir::Type getSumAccumulatorType(mlir::Type computeType,
                                 mlir::RankedTensorType inputType,
                                 llvm::ArrayRef<int64_t> dims);

/// The mean of `input` over `dims`, each element cast to the float
/// `accType` (unsigned per `inputUnsigned`): a tensor of the kept dims.
mlir::Value buildMean(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
                      llvm::ArrayRef<int64_t> dims, mlir::Type accType,
                      bool inputUnsigned);

/// The variance of `input` over `dims` around `mean` (buildMean's result),
/// dividing by max(N - correction, 0) as torch does: kept dims only.
mlir::Value buildVariance(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value input, mlir::Value mean,
                          llvm::ArrayRef<int64_t> dims, mlir::Type accType,
                          bool inputUnsigned, double correction);

/// The identity of max (lowest: -inf, INT_MIN, 0 unsigned, false) or of min
/// (highest) in `type`.
mlir::Value buildLowest(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type,
                        bool isUnsigned);
mlir::Value buildHighest(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Type type, bool isUnsigned);

/// The max of `input` over `dims`, each element cast to the float
/// `computeType`: a tensor of the kept dims (softmax's and logsumexp's
/// shift).
mlir::Value buildMaxOverDims(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value input, llvm::ArrayRef<int64_t> dims,
                             mlir::Type computeType, bool inputUnsigned);

/// sum(exp(x - shift)) of `input` over `dims`, in the float `computeType`;
/// `shift` has the kept dims (buildMaxOverDims's result, or logsumexp's
/// guarded one).
mlir::Value buildShiftedExpSum(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value input, mlir::Value shift,
                               llvm::ArrayRef<int64_t> dims,
                               mlir::Type computeType, bool inputUnsigned);

/// What a reduction pattern reads off its op.
struct ReductionOperands {
  /// The converted input and its type.
  mlir::Value input;
  mlir::RankedTensorType inputType;
  bool inputUnsigned = false;
  /// The converted result type.
  mlir::RankedTensorType resultType;
  bool resultUnsigned = false;
  /// The dims reduced (normalized, sorted) and whether they are kept as 1s.
  llvm::SmallVector<int64_t> dims;
  bool keepdim = false;
};

/// Reads the operands of a reduction `op`: `self`/`convertedSelf` its
/// input, `dim` its dims operand (null: every dim), `keepdim` its keepdim
/// operand (null: false), `result` the result whose type is the output.
/// A match failure when a type is unknown or an operand is not constant.
mlir::FailureOr<ReductionOperands> getReductionOperands(
    mlir::ConversionPatternRewriter &rewriter, mlir::Operation *op,
    const mlir::TypeConverter &typeConverter, mlir::Value convertedSelf,
    mlir::Value self, mlir::Value dim, mlir::Value keepdim, mlir::Value result);

/// The result of a reduction: `reduced` (kept dims only) with keepdim's 1s
/// inserted, then `finish` applied to each element (null: none) and cast to
/// the result's element type. Null if shapes do not match.
mlir::Value
finishReduction(mlir::OpBuilder &b, mlir::Location loc, mlir::Value reduced,
                const ReductionOperands &operands,
                llvm::function_ref<mlir::Value(mlir::OpBuilder &,
                                               mlir::Location, mlir::Value)>
                    finish = nullptr);

/// softmax (or, with `log`, log_softmax) of `input` along `dims` (one dim,
/// or none for a 0-d input), computed in the float `computeType` and
/// stored as `resultType`: the max along the dim is subtracted before exp,
/// then exp(x - max) / sum or x - max - log(sum). Null if shapes do not
/// match. (Softmax.cpp; cross_entropy's log_softmax uses it too.)
mlir::Value buildSoftmax(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value input, llvm::ArrayRef<int64_t> dims,
                         mlir::Type computeType, bool inputUnsigned,
                         mlir::RankedTensorType resultType, bool log);

/// var/std, logsumexp, cumsum (Statistics.cpp).
void populateStatisticsPatterns(const mlir::TypeConverter &typeConverter,
                                mlir::RewritePatternSet &patterns);
/// softmax/log_softmax/_softmax (Softmax.cpp).
void populateSoftmaxPatterns(const mlir::TypeConverter &typeConverter,
                             mlir::RewritePatternSet &patterns);

} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_ATENTOLINALG_REDUCTIONBUILDER_H
