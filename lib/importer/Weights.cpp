//===- Weights.cpp - Reading tensors from a safetensors file --------------===//
//
// Validates the header (offsets inside the file, sizes that match shapes and
// dtypes) so that a truncated or corrupt file is an error, never a crash.
//
//===----------------------------------------------------------------------===//

#include "Weights.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

using namespace tsir;
using llvm::createStringError;

static int64_t elementSize(llvm::StringRef dtype) {
  return llvm::StringSwitch<int64_t>(dtype)
      .Cases({"F64", "I64", "U64"}, 8)
      .Cases({"F32", "I32", "U32"}, 4)
      .Cases({"F16", "BF16", "I16", "U16"}, 2)
      .Cases({"I8", "U8", "BOOL"}, 1)
      .Default(0);
}

/// The deepest nesting of arrays and objects in `json`, outside strings.
/// llvm::json::parse recurses once per level with no limit of its own, so a
/// header nested tens of thousands deep would overflow the stack; this flat
/// scan runs first and turns that into an error. A safetensors header nests
/// three levels (header, entry, shape).
static unsigned jsonNestingDepth(llvm::StringRef json) {
  unsigned depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

/// The runtime's safetensors reader allows the same depth.
static constexpr unsigned kMaxHeaderDepth = 64;

llvm::Expected<std::unique_ptr<WeightsFile>>
WeightsFile::open(llvm::StringRef path) {
  auto fail = [&](const llvm::Twine &why) {
    return createStringError("weights file '" + path + "': " + why);
  };
  auto bufferOrError =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!bufferOrError)
    return fail(bufferOrError.getError().message());
  auto file = std::make_unique<WeightsFile>();
  file->path = path.str();
  file->buffer = std::move(*bufferOrError);
  llvm::StringRef bytes = file->buffer->getBuffer();
  if (bytes.size() < 8)
    return fail("too short for a safetensors header");
  uint64_t headerSize = 0;
  for (int i = 7; i >= 0; --i)
    headerSize = (headerSize << 8) | static_cast<uint8_t>(bytes[i]);
  if (headerSize > bytes.size() - 8)
    return fail("header length " + llvm::Twine(headerSize) +
                " runs past the end of the file");
  llvm::StringRef data = bytes.drop_front(8 + headerSize);
  llvm::StringRef headerText = bytes.substr(8, headerSize);
  if (jsonNestingDepth(headerText) > kMaxHeaderDepth)
    return fail("bad JSON header: nesting deeper than " +
                llvm::Twine(kMaxHeaderDepth) + " levels");
  auto header = llvm::json::parse(headerText);
  if (!header)
    return fail("bad JSON header: " + llvm::toString(header.takeError()));
  const llvm::json::Object *entries = header->getAsObject();
  if (!entries)
    return fail("header is not a JSON object");
  for (const auto &member : *entries) {
    const llvm::json::ObjectKey &key = member.first;
    const llvm::json::Value &value = member.second;
    if (key == "__metadata__")
      continue;
    const llvm::json::Object *entry = value.getAsObject();
    auto where = [&](const llvm::Twine &why) {
      return fail("tensor '" + key.str() + "': " + why);
    };
    if (!entry)
      return where("entry is not an object");
    WeightTensor tensor;
    auto dtype = entry->getString("dtype");
    const llvm::json::Array *shape = entry->getArray("shape");
    const llvm::json::Array *offsets = entry->getArray("data_offsets");
    if (!dtype || !shape || !offsets || offsets->size() != 2)
      return where("needs dtype, shape and two data_offsets");
    tensor.dtype = dtype->str();
    // The element count must not overflow: a wrapped count could match a
    // short data range and claim a huge tensor over a few bytes.
    int64_t numElements = 1;
    bool overflow = false;
    for (const llvm::json::Value &dim : *shape) {
      auto size = dim.getAsInteger();
      if (!size || *size < 0)
        return where("bad shape");
      tensor.shape.push_back(*size);
      overflow |= llvm::MulOverflow(numElements, *size, numElements);
    }
    if (llvm::is_contained(tensor.shape, 0))
      numElements = 0;
    else if (overflow)
      return where("shape is too large");
    auto begin = (*offsets)[0].getAsInteger(),
         end = (*offsets)[1].getAsInteger();
    if (!begin || !end || *begin < 0 || *end < *begin ||
        static_cast<uint64_t>(*end) > data.size())
      return where("data offsets outside the file");
    int64_t size = elementSize(tensor.dtype);
    if (size == 0)
      return where("unsupported dtype " + tensor.dtype);
    if (numElements > INT64_MAX / size)
      return where("shape is too large");
    if (*end - *begin != numElements * size)
      return where("holds " + llvm::Twine(*end - *begin) +
                   " bytes, shape needs " + llvm::Twine(numElements * size));
    tensor.data = llvm::ArrayRef<char>(data.data() + *begin, *end - *begin);
    file->tensors[key.str()] = std::move(tensor);
  }
  return std::move(file);
}

const WeightTensor *WeightsFile::lookup(llvm::StringRef name) const {
  auto it = tensors.find(name);
  return it == tensors.end() ? nullptr : &it->second;
}
