//===- Safetensors.cpp - safetensors weight files -------------------------===//
//
// The safetensors reader (over a mapping of the file or a caller's buffer)
// and writer. Every offset and size from the file is checked before use.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Safetensors.h"

#include "FileIO.h"
#include "Json.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <set>

namespace tsir::rt {

namespace {
/// Makes the storage for `nbytes` of tensor data at `bytes` (copying it, or
/// pointing into a mapping).
using StorageMaker = std::function<StatusOr<Ref<Storage>>(
    const char *bytes, size_t nbytes, DType dtype)>;

Ref<Storage> copyStorage(const char *bytes, size_t nbytes) {
  Ref<Storage> storage = Storage::allocate(nbytes, cpuAllocator());
  if (storage && nbytes)
    std::memcpy(storage->data(), bytes, nbytes);
  return storage;
}

StatusOr<std::vector<int64_t>> parseIntArray(const detail::JsonValue &value,
                                             const std::string &what) {
  if (value.kind != detail::JsonValue::Kind::Array)
    return Status::error(what + " must be an array, got " +
                         std::string(value.kindName()));
  std::vector<int64_t> result;
  for (const detail::JsonValue &element : value.array) {
    if (element.kind != detail::JsonValue::Kind::Number || !element.isInteger ||
        element.integer < 0)
      return Status::error(what + " must hold non-negative integers");
    result.push_back(element.integer);
  }
  return result;
}

StatusOr<Tensor> parseEntry(const std::string &name,
                            const detail::JsonValue &entry,
                            const char *dataSection, uint64_t dataSize,
                            const StorageMaker &makeStorage) {
  std::string where = "tensor '" + name + "'";
  if (entry.kind != detail::JsonValue::Kind::Object)
    return Status::error(where + ": entry must be an object");
  const detail::JsonValue *dtypeValue = entry.find("dtype");
  const detail::JsonValue *shapeValue = entry.find("shape");
  const detail::JsonValue *offsetsValue = entry.find("data_offsets");
  if (!dtypeValue || !shapeValue || !offsetsValue)
    return Status::error(where + ": missing '" +
                         std::string(!dtypeValue   ? "dtype"
                                     : !shapeValue ? "shape"
                                                   : "data_offsets") +
                         "'");
  if (dtypeValue->kind != detail::JsonValue::Kind::String)
    return Status::error(where + ": dtype must be a string");
  std::optional<DType> dtype = dtypeFromSafetensorsName(dtypeValue->string);
  if (!dtype)
    return Status::error(where + ": unsupported dtype '" + dtypeValue->string +
                         "'");
  TSIR_RT_ASSIGN_OR_RETURN(std::vector<int64_t> shape,
                           parseIntArray(*shapeValue, where + ": shape"));
  TSIR_RT_ASSIGN_OR_RETURN(
      std::vector<int64_t> offsets,
      parseIntArray(*offsetsValue, where + ": data_offsets"));
  if (offsets.size() != 2)
    return Status::error(where + ": data_offsets must have 2 entries");
  uint64_t begin = offsets[0], end = offsets[1];
  if (begin > end || end > dataSize)
    return Status::error(where + ": data_offsets [" + std::to_string(begin) +
                         ", " + std::to_string(end) +
                         "] are out of range of the " +
                         std::to_string(dataSize) + "-byte data section");
  StatusOr<int64_t> numel = checkedNumel(shape);
  int64_t nbytes;
  if (!numel.ok() ||
      __builtin_mul_overflow(*numel, static_cast<int64_t>(dtypeSize(*dtype)),
                             &nbytes))
    return Status::error(where + ": shape " + sizesToString(shape) +
                         " is too large");
  if (static_cast<uint64_t>(nbytes) != end - begin)
    return Status::error(where + ": " + dtypeValue->string + " shape " +
                         sizesToString(shape) + " needs " +
                         std::to_string(nbytes) + " bytes but data_offsets " +
                         "span " + std::to_string(end - begin));
  TSIR_RT_ASSIGN_OR_RETURN(
      Ref<Storage> storage,
      makeStorage(dataSection + begin, static_cast<size_t>(nbytes), *dtype));
  std::vector<int64_t> strides = contiguousStrides(shape);
  return Tensor(std::move(storage), std::move(shape), std::move(strides), 0,
                *dtype);
}

StatusOr<NamedTensors> parseContainer(const char *bytes, size_t size,
                                      SafetensorsMetadata *metadata,
                                      const StorageMaker &makeStorage) {
  if (size < 8)
    return Status::error("file is " + std::to_string(size) +
                         " bytes, too short for the 8-byte header length");
  uint64_t headerSize = 0;
  for (int i = 7; i >= 0; --i)
    headerSize = headerSize << 8 | static_cast<unsigned char>(bytes[i]);
  if (headerSize > size - 8)
    return Status::error("header length " + std::to_string(headerSize) +
                         " exceeds the " + std::to_string(size - 8) +
                         " bytes after it");
  std::string_view headerText(bytes + 8, static_cast<size_t>(headerSize));
  StatusOr<detail::JsonValue> header = detail::parseJson(headerText);
  if (!header.ok())
    return header.status().withContext("bad header");
  if (header->kind != detail::JsonValue::Kind::Object)
    return Status::error("bad header: the top level must be an object");

  const char *dataSection = bytes + 8 + headerSize;
  uint64_t dataSize = size - 8 - headerSize;
  NamedTensors tensors;
  std::set<std::string> names;
  for (const auto &[name, entry] : header->object) {
    if (!names.insert(name).second)
      return Status::error("duplicate entry '" + name + "' in the header");
    if (name == "__metadata__") {
      if (entry.kind != detail::JsonValue::Kind::Object)
        return Status::error("__metadata__ must be an object");
      for (const auto &[key, value] : entry.object) {
        if (value.kind != detail::JsonValue::Kind::String)
          return Status::error("__metadata__ value of '" + key +
                               "' must be a string");
        if (metadata)
          (*metadata)[key] = value.string;
      }
      continue;
    }
    TSIR_RT_ASSIGN_OR_RETURN(Tensor tensor, parseEntry(name, entry, dataSection,
                                                       dataSize, makeStorage));
    tensors.emplace_back(name, std::move(tensor));
  }
  return tensors;
}

StatusOr<Ref<Storage>> copyingMaker(const char *bytes, size_t nbytes, DType) {
  Ref<Storage> storage = copyStorage(bytes, nbytes);
  if (!storage)
    return Status::error("out of memory copying " + std::to_string(nbytes) +
                         " bytes");
  return storage;
}

Status checkWritable(const NamedTensors &tensors) {
  std::set<std::string> names;
  for (const auto &[name, tensor] : tensors) {
    if (name == "__metadata__")
      return Status::error("'__metadata__' is reserved and cannot name a "
                           "tensor");
    if (!names.insert(name).second)
      return Status::error("duplicate tensor name '" + name + "'");
    if (!tensor.defined())
      return Status::error("tensor '" + name + "' is undefined");
    if (!tensor.device().isCPU())
      return Status::error("tensor '" + name + "' is on " +
                           tensor.device().toString() +
                           "; copy it to the CPU first");
  }
  return Status::ok();
}

/// The padded header and the dense tensors in data order.
std::pair<std::string, std::vector<Tensor>>
layOut(const NamedTensors &tensors, const SafetensorsMetadata &metadata) {
  std::vector<size_t> order(tensors.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  // Largest elements first, ties in the caller's order (std::sort on the
  // pair, since std::stable_sort warns with some libstdc++/clang pairs).
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    size_t sizeA = tensors[a].second.elementSize();
    size_t sizeB = tensors[b].second.elementSize();
    return sizeA != sizeB ? sizeA > sizeB : a < b;
  });
  std::vector<uint64_t> begins(tensors.size());
  std::vector<Tensor> dense;
  uint64_t offset = 0;
  for (size_t i : order) {
    dense.push_back(tensors[i].second.contiguous());
    begins[i] = offset;
    offset += dense.back().nbytes();
  }

  std::string header = "{";
  if (!metadata.empty()) {
    header += "\"__metadata__\":{";
    bool first = true;
    for (const auto &[key, value] : metadata) {
      header += (first ? "" : ",") + detail::jsonQuote(key) + ":" +
                detail::jsonQuote(value);
      first = false;
    }
    header += "}";
  }
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor &tensor = tensors[i].second;
    if (header.size() > 1)
      header += ",";
    header += detail::jsonQuote(tensors[i].first) + ":{\"dtype\":\"" +
              dtypeSafetensorsName(tensor.dtype()) + "\",\"shape\":[";
    for (int64_t d = 0; d < tensor.dim(); ++d)
      header += (d ? "," : "") + std::to_string(tensor.sizes()[d]);
    header += "],\"data_offsets\":[" + std::to_string(begins[i]) + "," +
              std::to_string(begins[i] + tensor.nbytes()) + "]}";
  }
  header += "}";
  // Spaces keep the data section 8-byte aligned, as the format asks.
  header.append((8 - header.size() % 8) % 8, ' ');
  std::string prefix(8, '\0');
  for (int i = 0; i < 8; ++i)
    prefix[i] = static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return {prefix + header, std::move(dense)};
}
} // namespace

StatusOr<NamedTensors> parseSafetensors(const void *data, size_t size,
                                        SafetensorsMetadata *metadata,
                                        std::string_view sourceName) {
  StatusOr<NamedTensors> tensors = parseContainer(
      static_cast<const char *>(data), size, metadata, copyingMaker);
  if (!tensors.ok())
    return tensors.status().withContext(std::string(sourceName));
  return tensors;
}

StatusOr<NamedTensors> readSafetensors(const std::string &path,
                                       SafetensorsMetadata *metadata) {
  TSIR_RT_ASSIGN_OR_RETURN(std::shared_ptr<detail::MappedFile> file,
                           detail::MappedFile::map(path));
  const char *mappedBase = file->data();
  StorageMaker maker = [&](const char *bytes, size_t nbytes,
                           DType dtype) -> StatusOr<Ref<Storage>> {
    if ((bytes - mappedBase) % dtypeSize(dtype) != 0)
      return copyingMaker(bytes, nbytes, dtype);
    // Each storage holds the mapping; the last one to go unmaps it.
    char *writable = file->data() + (bytes - mappedBase);
    return Storage::adopt(writable, writable, nbytes, Device::cpu(),
                          [file](void *) {});
  };
  StatusOr<NamedTensors> tensors =
      parseContainer(file->data(), file->size(), metadata, maker);
  if (!tensors.ok())
    return tensors.status().withContext(path);
  return tensors;
}

StatusOr<std::string> encodeSafetensors(const NamedTensors &tensors,
                                        const SafetensorsMetadata &metadata) {
  TSIR_RT_RETURN_IF_ERROR(checkWritable(tensors));
  auto [header, dense] = layOut(tensors, metadata);
  std::string out = std::move(header);
  for (const Tensor &tensor : dense)
    out.append(static_cast<const char *>(tensor.data()), tensor.nbytes());
  return out;
}

Status writeSafetensors(const std::string &path, const NamedTensors &tensors,
                        const SafetensorsMetadata &metadata) {
  TSIR_RT_RETURN_IF_ERROR(checkWritable(tensors).withContext(path));
  auto [header, dense] = layOut(tensors, metadata);
  std::vector<std::string_view> pieces = {header};
  for (const Tensor &tensor : dense)
    pieces.emplace_back(static_cast<const char *>(tensor.data()),
                        tensor.nbytes());
  return detail::writeFile(path, pieces);
}

} // namespace tsir::rt
