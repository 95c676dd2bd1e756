//===- Npy.h - numpy .npy files ---------------------------------*- C++ -*-===//
//
// Reading and writing tensors in numpy's .npy format (versions 1.0, 2.0 and
// 3.0), the format of tsir-run's --input files and out<N>.npy outputs.
//
// Every DType is supported; BFloat16 uses the descr "<V2" (see
// dtypeNumpyDescr). Reading accepts C and Fortran order (a Fortran array
// becomes a tensor with column-major strides over its data), big-endian
// descrs (byte-swapped), 0-d and empty arrays. Anything malformed is an
// error naming the file and the problem; reads never go out of bounds.
// Files are always written little-endian in C order.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_NPY_H
#define TSIR_RUNTIME_NPY_H

#include "tsir-runtime/Tensor.h"

#include <string>
#include <string_view>

namespace tsir::rt {

StatusOr<Tensor> readNpy(const std::string &path);

/// Parses an in-memory .npy image (the data is copied). `sourceName` names
/// it in errors.
StatusOr<Tensor> parseNpy(const void *data, size_t size,
                          std::string_view sourceName = "<buffer>");

Status writeNpy(const std::string &path, const Tensor &tensor);

/// The bytes of an .npy file holding `tensor` (an error for an undefined or
/// non-CPU tensor).
StatusOr<std::string> encodeNpy(const Tensor &tensor);

} // namespace tsir::rt

#endif // TSIR_RUNTIME_NPY_H
