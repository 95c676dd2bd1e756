//===- Safetensors.h - safetensors weight files -----------------*- C++ -*-===//
//
// Reading and writing named tensors in the safetensors format: an 8-byte
// little-endian header length, a JSON header mapping each name to its
// dtype, shape and [begin, end) byte range, then the raw little-endian data.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_SAFETENSORS_H
#define TSIR_RUNTIME_SAFETENSORS_H

#include "tsir-runtime/Tensor.h"

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tsir::rt {

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;
/// The header's "__metadata__" (string to string).
using SafetensorsMetadata = std::map<std::string, std::string>;

/// Reads every tensor of the file, in header order. The file is mapped
/// copy-on-write and tensors point into the mapping (it is unmapped when
/// the last of them dies); a tensor whose data is not aligned to its
/// element size is copied instead. Writes never reach the file. The header,
/// offsets, dtypes and shapes are all validated; JSON nesting is capped.
StatusOr<NamedTensors> readSafetensors(const std::string &path,
                                       SafetensorsMetadata *metadata = nullptr);

/// The same from an in-memory image (the tensors get copies of the data).
StatusOr<NamedTensors>
parseSafetensors(const void *data, size_t size,
                 SafetensorsMetadata *metadata = nullptr,
                 std::string_view sourceName = "<buffer>");

/// Writes `tensors` (distinct names, defined CPU tensors). Data is laid out
/// by decreasing element size, so every tensor is aligned for mapping.
Status writeSafetensors(const std::string &path, const NamedTensors &tensors,
                        const SafetensorsMetadata &metadata = {});
StatusOr<std::string>
encodeSafetensors(const NamedTensors &tensors,
                  const SafetensorsMetadata &metadata = {});

} // namespace tsir::rt

#endif // TSIR_RUNTIME_SAFETENSORS_H
