//===- Register.cpp - Registering torchvision's operators ---------------===//
//
// libtsir_torchvision_ops.so registers torchvision's operators when it is
// loaded (`tsir-run --load-ops`, rt::loadOperatorLibrary), as `import
// torchvision` registers them with TorchScript: a static RegisterKernels object, the schema torch prints
// for each. docs/custom-ops.md walks through it as the example of open
// operator registration.
//
//===----------------------------------------------------------------------===//

#include "TorchvisionOps.h"

#include "tsir-runtime/KernelArguments.h"
#include "tsir-runtime/KernelRegistry.h"

namespace {
auto registry =
    tsir::rt::RegisterKernels()
        .op("torchvision::nms(Tensor dets, Tensor scores, float "
            "iou_threshold) -> Tensor",
            tsir::rt::bindKernel(tsir::torchvision::nms))
        .op("torchvision::roi_align(Tensor input, Tensor rois, float "
            "spatial_scale, int pooled_height, int pooled_width, int "
            "sampling_ratio, bool aligned) -> Tensor",
            tsir::rt::bindKernel(tsir::torchvision::roiAlign));
} // namespace
