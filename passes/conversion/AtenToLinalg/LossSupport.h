//===- LossSupport.h - What the loss lowerings share ------------*- C++ -*-===//
//
// The reduction argument of torch's losses and the step that applies it,
// shared by Losses.cpp and PointwiseLosses.cpp. Private to AtenToLinalg/.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_ATENTOLINALG_LOSSSUPPORT_H
#define TSIR_PASSES_CONVERSION_ATENTOLINALG_LOSSSUPPORT_H

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

} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_ATENTOLINALG_LOSSSUPPORT_H
