//===- MiscParts.h - The Misc family's extra files --------------*- C++ -*-===//
//
// The populate functions of Losses.cpp and PointwiseLosses.cpp, called from
// populateMiscPatterns so that PopulatePatterns.h keeps one entry per
// family, and what the two loss files share. Private to AtenToLinalg/.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_ATENTOLINALG_MISCPARTS_H
#define TSIR_PASSES_CONVERSION_ATENTOLINALG_MISCPARTS_H

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/DialectConversion.h"

#include <optional>

namespace tsir::conversion {

/// The reduction argument of a loss: 0 none, 1 mean, 2 sum.
enum class LossReduction { None = 0, Mean = 1, Sum = 2 };

/// The constant reduction of a loss; nullopt when it is not one.
std::optional<LossReduction> readReduction(mlir::Value reduction);

/// The result of a loss from its per-element `losses` (compute type):
/// themselves for `none`, their sum, or their sum divided by `count` (a
/// scalar of the compute type; null: the number of elements) for `mean`.
/// Null when the shapes disagree with `resultType`.
mlir::Value finishLoss(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value losses, LossReduction reduction,
                       mlir::RankedTensorType resultType,
                       mlir::Value count = nullptr);

/// mse_loss, nll_loss, cross_entropy_loss and
/// binary_cross_entropy_with_logits (Losses.cpp).
void populateLossPatterns(const mlir::TypeConverter &typeConverter,
                          mlir::RewritePatternSet &patterns);

/// l1, smooth_l1, huber, soft_margin, margin_ranking, hinge_embedding,
/// kl_div and binary_cross_entropy: a formula per element, then the
/// reduction (PointwiseLosses.cpp).
void populatePointwiseLossPatterns(const mlir::TypeConverter &typeConverter,
                                   mlir::RewritePatternSet &patterns);

} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_ATENTOLINALG_MISCPARTS_H
