//===- AbiValue.h - Runtime values across the compiled-code ABI -*- C++ -*-===//
//
// The conversions between runtime values and tsir_value (tsir_model.h) that
// both callers of compiled code need: the JIT's Plan::call, which calls
// tsirAbiCall itself, and rt::Model, which calls a model.so's
// tsir_model_run.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_ABIVALUE_H
#define TSIR_RUNTIME_ABIVALUE_H

#include "tsir-runtime/Value.h"
#include "tsir-runtime/tsir_model.h"

#include <functional>

namespace tsir::rt {

/// The tsir_value of a contiguous host tensor of rank TSIR_MODEL_MAX_RANK
/// at most; it points into the tensor, which must outlive it.
tsir_value abiValueOfTensor(const Tensor &contiguous);

/// An output of compiled code as a runtime value. A tensor takes over its
/// buffer: `release(allocation)` runs when the last view of it dies.
Value valueOfAbiOutput(const tsir_value &output,
                       std::function<void(void *)> release);

} // namespace tsir::rt

#endif // TSIR_RUNTIME_ABIVALUE_H
