//===- TorchvisionOps.h - torchvision's operators as tsir kernels -*- C++
//-*-===//
//
// The kernels of libtsir_torchvision_ops.so, which registers them under
// torchvision's names (Register.cpp). Each is a function of its schema's
// arguments, which the runtime's binder reads off the stack
// (tsir-runtime/KernelArguments.h), as a user's operator library would.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_OPS_TORCHVISION_TORCHVISIONOPS_H
#define TSIR_RUNTIME_OPS_TORCHVISION_TORCHVISIONOPS_H

#include "tsir-runtime/Tensor.h"

namespace tsir::torchvision {

/// torchvision::nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor
rt::StatusOr<rt::Tensor> nms(rt::Tensor boxes, rt::Tensor scores,
                             double threshold);

/// torchvision::roi_align(Tensor input, Tensor rois, float spatial_scale,
///     int pooled_height, int pooled_width, int sampling_ratio,
///     bool aligned) -> Tensor
rt::StatusOr<rt::Tensor> roiAlign(rt::Tensor input, rt::Tensor rois,
                                  double scale, int64_t pooledHeight,
                                  int64_t pooledWidth, int64_t samplingRatio,
                                  bool aligned);

} // namespace tsir::torchvision

#endif // TSIR_RUNTIME_OPS_TORCHVISION_TORCHVISIONOPS_H
