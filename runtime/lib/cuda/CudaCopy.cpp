//===- CudaCopy.cpp - Tensors to and from the GPU -------------------------===//
//
// toDevice and toHost (Cuda.h). Both copy whole byte ranges synchronously
// with cuMemcpyHtoD/DtoH: a host tensor is made contiguous first; a device
// tensor's reachable storage span is copied as is and its geometry
// rebuilt on the host, so views of any strides come back without a
// device-side gather.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Cuda.h"

#include "CudaDevice.h"

#include <cstdint>

namespace tsir::rt::cuda {

namespace {
driver::CUdeviceptr devicePointer(const void *ptr) {
  return static_cast<driver::CUdeviceptr>(reinterpret_cast<uintptr_t>(ptr));
}

/// The elements from the storage offset to the last reachable one, for a
/// tensor with at least one element (strides are never negative).
int64_t spanElements(const Tensor &tensor) {
  int64_t last = 0;
  for (int64_t d = 0; d < tensor.dim(); ++d)
    last += (tensor.size(d) - 1) * tensor.stride(d);
  return last + 1;
}
} // namespace

StatusOr<Tensor> toDevice(const Tensor &tensor) {
  if (!tensor.defined())
    return Status::error("toDevice of an undefined tensor");
  if (tensor.device() == Device::cuda(0))
    return tensor;
  if (!tensor.device().isCPU())
    return Status::error("toDevice of a " + tensor.device().toString() +
                         " tensor: only cpu -> cuda:0 copies are supported");
  TSIR_RT_ASSIGN_OR_RETURN(const driver::DriverApi *api, driver::driver());
  TSIR_RT_ASSIGN_OR_RETURN(DeviceState * state, deviceState(0));
  Tensor host = tensor.contiguous();
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor device,
      Tensor::tryEmpty(host.sizes(), host.dtype(), *state->allocator));
  if (host.nbytes() == 0)
    return device;
  ScopedContext scope(*api, state->context);
  TSIR_RT_RETURN_IF_ERROR(scope.status());
  TSIR_RT_RETURN_IF_ERROR(
      driver::check(*api,
                    api->cuMemcpyHtoD(devicePointer(device.data()), host.data(),
                                      host.nbytes()),
                    "cuMemcpyHtoD"));
  return device;
}

StatusOr<Tensor> toHost(const Tensor &tensor) {
  if (!tensor.defined())
    return Status::error("toHost of an undefined tensor");
  if (tensor.device().isCPU())
    return tensor;
  TSIR_RT_ASSIGN_OR_RETURN(const driver::DriverApi *api, driver::driver());
  TSIR_RT_ASSIGN_OR_RETURN(DeviceState * state,
                           deviceState(tensor.device().index));
  if (tensor.numel() == 0)
    return Tensor::tryEmpty(tensor.sizes(), tensor.dtype());
  int64_t span = spanElements(tensor);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor staging,
                           Tensor::tryEmpty({span}, tensor.dtype()));
  {
    ScopedContext scope(*api, state->context);
    TSIR_RT_RETURN_IF_ERROR(scope.status());
    TSIR_RT_RETURN_IF_ERROR(driver::check(
        *api,
        api->cuMemcpyDtoH(staging.data(), devicePointer(tensor.data()),
                          staging.nbytes()),
        "cuMemcpyDtoH"));
  }
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor view, staging.asStrided(tensor.sizes(), tensor.strides(), 0));
  return view.contiguous();
}

} // namespace tsir::rt::cuda
