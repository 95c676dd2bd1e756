//===- TorchvisionOps.h - torchvision's operators as tsir kernels -*- C++ -*-===//
//
// The kernels of libtsir_torchvision_ops.so, which registers them under
// torchvision's names (Register.cpp). Each pops its arguments in schema
// order from the back of the stack and pushes its result.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_OPS_TORCHVISION_TORCHVISIONOPS_H
#define TSIR_RUNTIME_OPS_TORCHVISION_TORCHVISIONOPS_H

#include "tsir-runtime/Stack.h"

namespace tsir::torchvision {

/// torchvision::nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor
rt::Status nms(rt::Stack &stack);

/// torchvision::roi_align(Tensor input, Tensor rois, float spatial_scale,
///     int pooled_height, int pooled_width, int sampling_ratio,
///     bool aligned) -> Tensor
rt::Status roiAlign(rt::Stack &stack);

} // namespace tsir::torchvision

#endif // TSIR_RUNTIME_OPS_TORCHVISION_TORCHVISIONOPS_H
