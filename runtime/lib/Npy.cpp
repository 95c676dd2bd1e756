//===- Npy.cpp - numpy .npy files -----------------------------------------===//
//
// The .npy reader and writer. A file is the magic "\x93NUMPY", a version,
// a little-endian header length (2 bytes in 1.0, 4 in 2.0/3.0), a Python
// dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...)} padded
// to 64 bytes, then the raw elements. The header parser accepts exactly
// that literal subset with a flat scan (no recursion), and all sizes are
// checked for overflow before anything is allocated or read.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Npy.h"

#include "FileIO.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the runtime reads and writes little-endian data in place");

namespace tsir::rt {

namespace {
constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
/// The largest header numpy itself writes or reads by default is far
/// smaller; this only bounds work on hostile files.
constexpr uint64_t kMaxHeaderSize = 1 << 24;

struct NpyHeader {
  DType dtype = DType::Float32;
  bool byteSwap = false;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

/// The fixed part before the header dict.
struct Preamble {
  size_t headerStart = 0;
  uint64_t headerSize = 0;
};

StatusOr<Preamble> parsePreamble(const unsigned char *bytes, size_t size) {
  // memcmp's pointers must be valid even for 0 bytes: an empty buffer may
  // come with a null pointer.
  if (size != 0 && std::memcmp(bytes, kMagic, std::min(size, kMagicSize)) != 0)
    return Status::error("not an .npy file (bad magic string)");
  if (size < kMagicSize)
    return Status::error("truncated: the file ends inside the magic string");
  if (size < kMagicSize + 2)
    return Status::error("truncated: the file ends inside the version");
  unsigned major = bytes[6], minor = bytes[7];
  Preamble preamble;
  if (major == 1) {
    if (size < 10)
      return Status::error("truncated: the file ends inside the header "
                           "length");
    preamble.headerStart = 10;
    preamble.headerSize = bytes[8] | (bytes[9] << 8);
  } else if (major == 2 || major == 3) {
    if (size < 12)
      return Status::error("truncated: the file ends inside the header "
                           "length");
    preamble.headerStart = 12;
    preamble.headerSize = uint64_t(bytes[8]) | uint64_t(bytes[9]) << 8 |
                          uint64_t(bytes[10]) << 16 | uint64_t(bytes[11]) << 24;
  } else {
    return Status::error("unsupported .npy format version " +
                         std::to_string(major) + "." + std::to_string(minor) +
                         " (1.0, 2.0 and 3.0 are supported)");
  }
  if (minor != 0)
    return Status::error("unsupported .npy format version " +
                         std::to_string(major) + "." + std::to_string(minor));
  if (preamble.headerSize > kMaxHeaderSize)
    return Status::error("header length " +
                         std::to_string(preamble.headerSize) +
                         " is implausibly large");
  return preamble;
}

/// A cursor over the header dict literal.
class HeaderScanner {
public:
  explicit HeaderScanner(std::string_view text) : text(text) {}

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }
  bool atEnd() {
    skipSpace();
    return pos >= text.size();
  }
  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  char peek() {
    skipSpace();
    return pos < text.size() ? text[pos] : '\0';
  }
  Status expect(char c, const char *where) {
    if (consume(c))
      return Status::ok();
    return error(std::string("expected '") + c + "' " + where);
  }
  Status error(const std::string &what) const {
    return Status::error("bad header dict: " + what + " at offset " +
                         std::to_string(pos) + " of '" + printableText() + "'");
  }

  /// A Python string literal in single or double quotes (no escapes, which
  /// numpy never writes in the keys or descrs it accepts).
  StatusOr<std::string> string() {
    skipSpace();
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      return error("expected a string");
    char quote = text[pos++];
    size_t end = text.find(quote, pos);
    if (end == std::string_view::npos)
      return error("unterminated string");
    std::string value(text.substr(pos, end - pos));
    pos = end + 1;
    return value;
  }

  /// A bare word: True, False, None.
  std::string_view word() {
    skipSpace();
    size_t start = pos;
    while (pos < text.size() &&
           std::isalpha(static_cast<unsigned char>(text[pos])))
      ++pos;
    return text.substr(start, pos - start);
  }

  /// A non-negative integer, with Python 2's optional 'L' suffix.
  StatusOr<int64_t> dimension() {
    skipSpace();
    size_t start = pos;
    int64_t value = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (__builtin_mul_overflow(value, 10, &value) ||
          __builtin_add_overflow(value, text[pos] - '0', &value))
        return error("shape dimension does not fit in 64 bits");
      ++pos;
    }
    if (pos == start)
      return error("expected a non-negative integer in the shape");
    if (pos < text.size() && text[pos] == 'L')
      ++pos;
    return value;
  }

private:
  std::string printableText() const {
    std::string shown;
    for (char c : text.substr(0, 200))
      shown += (c >= 0x20 && c < 0x7f) ? c : '?';
    return text.size() > 200 ? shown + "..." : shown;
  }

  std::string_view text;
  size_t pos = 0;
};

StatusOr<std::pair<DType, bool>> parseDescr(const std::string &descr) {
  std::string_view body = descr;
  char order = '|';
  if (!body.empty() && std::strchr("<>|=", body[0])) {
    order = body[0];
    body.remove_prefix(1);
  }
  struct Known {
    const char *code;
    DType dtype;
  };
  static constexpr Known kKnown[] = {
      {"f4", DType::Float32},  {"f8", DType::Float64}, {"f2", DType::Float16},
      {"V2", DType::BFloat16}, {"i8", DType::Int64},   {"i4", DType::Int32},
      {"i2", DType::Int16},    {"i1", DType::Int8},    {"u1", DType::UInt8},
      {"b1", DType::Bool},     {"?", DType::Bool},     {"b", DType::Int8},
      {"B", DType::UInt8}};
  for (const Known &known : kKnown) {
    if (body != known.code)
      continue;
    bool swap = order == '>' && dtypeSize(known.dtype) > 1;
    return std::make_pair(known.dtype, swap);
  }
  std::string reason;
  if (!body.empty() && body[0] == 'O')
    reason = " (object arrays are not supported)";
  else if (!body.empty() && body[0] == 'c')
    reason = " (complex numbers are not supported)";
  else if (!body.empty() && (body[0] == 'U' || body[0] == 'S'))
    reason = " (string arrays are not supported)";
  else if (!body.empty() && body[0] == 'u')
    reason = " (the only unsigned type is u1)";
  return Status::error("unsupported dtype '" + descr + "'" + reason +
                       "; supported: f2 f4 f8 i1 i2 i4 i8 u1 b1, and V2 as "
                       "bfloat16");
}

StatusOr<NpyHeader> parseHeaderDict(std::string_view text) {
  HeaderScanner scan(text);
  NpyHeader header;
  bool sawDescr = false, sawOrder = false, sawShape = false;
  TSIR_RT_RETURN_IF_ERROR(scan.expect('{', "at the start of the header"));
  while (!scan.consume('}')) {
    TSIR_RT_ASSIGN_OR_RETURN(std::string key, scan.string());
    TSIR_RT_RETURN_IF_ERROR(scan.expect(':', "after a key"));
    if (key == "descr") {
      if (sawDescr)
        return scan.error("duplicate key 'descr'");
      sawDescr = true;
      if (scan.peek() == '[')
        return Status::error("structured (record) dtypes are not supported");
      TSIR_RT_ASSIGN_OR_RETURN(std::string descr, scan.string());
      TSIR_RT_ASSIGN_OR_RETURN(auto type, parseDescr(descr));
      header.dtype = type.first;
      header.byteSwap = type.second;
    } else if (key == "fortran_order") {
      if (sawOrder)
        return scan.error("duplicate key 'fortran_order'");
      sawOrder = true;
      std::string_view word = scan.word();
      if (word != "True" && word != "False")
        return scan.error("fortran_order must be True or False");
      header.fortranOrder = word == "True";
    } else if (key == "shape") {
      if (sawShape)
        return scan.error("duplicate key 'shape'");
      sawShape = true;
      TSIR_RT_RETURN_IF_ERROR(scan.expect('(', "to start the shape tuple"));
      while (!scan.consume(')')) {
        if (header.shape.size() >= 64)
          return scan.error("more than 64 dimensions");
        TSIR_RT_ASSIGN_OR_RETURN(int64_t size, scan.dimension());
        header.shape.push_back(size);
        if (!scan.consume(',') && scan.peek() != ')')
          return scan.error("expected ',' or ')' in the shape");
      }
    } else {
      return scan.error("unexpected key '" + key + "'");
    }
    if (!scan.consume(',') && scan.peek() != '}')
      return scan.error("expected ',' or '}' after a value");
  }
  if (!scan.atEnd())
    return scan.error("unexpected text after the dict");
  if (!sawDescr || !sawOrder || !sawShape)
    return scan.error("missing key '" +
                      std::string(!sawDescr   ? "descr"
                                  : !sawOrder ? "fortran_order"
                                              : "shape") +
                      "'");
  return header;
}

/// The tensor the header describes, over fresh storage to be filled with
/// exactly `nbytes` of file data. Errors when the data is shorter.
StatusOr<Tensor> allocateFor(const NpyHeader &header, uint64_t available,
                             size_t &nbytes) {
  TSIR_RT_ASSIGN_OR_RETURN(int64_t numel, checkedNumel(header.shape));
  int64_t bytes;
  if (__builtin_mul_overflow(
          numel, static_cast<int64_t>(dtypeSize(header.dtype)), &bytes))
    return Status::error("shape " + sizesToString(header.shape) +
                         " needs more bytes than fit in 64 bits");
  if (static_cast<uint64_t>(bytes) > available)
    return Status::error(
        "truncated data: shape " + sizesToString(header.shape) + " of " +
        dtypeTorchName(header.dtype) + " needs " + std::to_string(bytes) +
        " bytes, but " + std::to_string(available) + " follow the header");
  nbytes = static_cast<size_t>(bytes);
  TSIR_RT_ASSIGN_OR_RETURN(Tensor tensor,
                           Tensor::tryEmpty(header.shape, header.dtype));
  if (!header.fortranOrder)
    return tensor;
  std::vector<int64_t> strides(header.shape.size());
  int64_t stride = 1;
  for (size_t i = 0; i < header.shape.size(); ++i) {
    strides[i] = stride;
    stride *= header.shape[i] > 1 ? header.shape[i] : 1;
  }
  return Tensor(tensor.storage(), header.shape, std::move(strides), 0,
                header.dtype);
}

void byteSwap(void *data, size_t nbytes, size_t elementSize) {
  auto *bytes = static_cast<unsigned char *>(data);
  for (size_t i = 0; i + elementSize <= nbytes; i += elementSize)
    for (size_t lo = 0, hi = elementSize - 1; lo < hi; ++lo, --hi)
      std::swap(bytes[i + lo], bytes[i + hi]);
}

StatusOr<Tensor> parseNpyImpl(const unsigned char *bytes, size_t size) {
  TSIR_RT_ASSIGN_OR_RETURN(Preamble preamble, parsePreamble(bytes, size));
  uint64_t dataStart = preamble.headerStart + preamble.headerSize;
  if (dataStart > size)
    return Status::error(
        "truncated header: " + std::to_string(preamble.headerSize) +
        " header bytes declared, " +
        std::to_string(size - preamble.headerStart) + " present");
  std::string_view text(reinterpret_cast<const char *>(bytes) +
                            preamble.headerStart,
                        preamble.headerSize);
  TSIR_RT_ASSIGN_OR_RETURN(NpyHeader header, parseHeaderDict(text));
  size_t nbytes = 0;
  TSIR_RT_ASSIGN_OR_RETURN(Tensor tensor,
                           allocateFor(header, size - dataStart, nbytes));
  if (nbytes)
    std::memcpy(tensor.data(), bytes + dataStart, nbytes);
  if (header.byteSwap)
    byteSwap(tensor.data(), nbytes, tensor.elementSize());
  return tensor;
}

StatusOr<Tensor> readNpyImpl(const std::string &path) {
  TSIR_RT_ASSIGN_OR_RETURN(detail::InputFile file,
                           detail::InputFile::open(path));
  unsigned char prefix[12];
  size_t prefixSize = static_cast<size_t>(std::min<uint64_t>(12, file.size()));
  TSIR_RT_RETURN_IF_ERROR(file.readAt(0, prefix, prefixSize));
  TSIR_RT_ASSIGN_OR_RETURN(Preamble preamble,
                           parsePreamble(prefix, prefixSize));
  uint64_t dataStart = preamble.headerStart + preamble.headerSize;
  if (dataStart > file.size())
    return Status::error(
        "truncated header: " + std::to_string(preamble.headerSize) +
        " header bytes declared, " +
        std::to_string(file.size() - preamble.headerStart) + " present");
  std::string text(preamble.headerSize, '\0');
  TSIR_RT_RETURN_IF_ERROR(
      file.readAt(preamble.headerStart, text.data(), text.size()));
  TSIR_RT_ASSIGN_OR_RETURN(NpyHeader header, parseHeaderDict(text));
  size_t nbytes = 0;
  TSIR_RT_ASSIGN_OR_RETURN(
      Tensor tensor, allocateFor(header, file.size() - dataStart, nbytes));
  TSIR_RT_RETURN_IF_ERROR(file.readAt(dataStart, tensor.data(), nbytes));
  if (header.byteSwap)
    byteSwap(tensor.data(), nbytes, tensor.elementSize());
  return tensor;
}

/// The preamble and padded header dict for a C-order array.
std::string encodeHeader(const Tensor &tensor) {
  std::string dict = "{'descr': '";
  dict += dtypeNumpyDescr(tensor.dtype());
  dict += "', 'fortran_order': False, 'shape': (";
  for (int64_t d = 0; d < tensor.dim(); ++d)
    dict += std::to_string(tensor.sizes()[d]) + ", ";
  if (tensor.dim() > 1)
    dict.resize(dict.size() - 2);
  else if (tensor.dim() == 1)
    dict.pop_back(); // "(3,)"
  dict += "), }";
  // numpy pads with spaces and a final newline so the data starts at a
  // multiple of 64 bytes.
  auto padded = [&](size_t prefixSize) {
    size_t total = prefixSize + dict.size() + 1;
    return dict.size() + 1 + (64 - total % 64) % 64;
  };
  // Version 1.0 when the header length fits its 2-byte field, else 2.0.
  size_t prefixSize = padded(10) <= 65535 ? 10 : 12;
  dict.append(padded(prefixSize) - dict.size() - 1, ' ');
  dict += '\n';
  std::string out(kMagic, kMagicSize);
  size_t length = dict.size();
  if (prefixSize == 10) {
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(length & 0xff);
    out += static_cast<char>(length >> 8);
  } else {
    out += '\x02';
    out += '\x00';
    for (int shift = 0; shift < 32; shift += 8)
      out += static_cast<char>((length >> shift) & 0xff);
  }
  return out + dict;
}

Status checkWritable(const Tensor &tensor) {
  if (!tensor.defined())
    return Status::error("cannot write an undefined tensor");
  if (!tensor.device().isCPU())
    return Status::error("cannot write a " + tensor.device().toString() +
                         " tensor; copy it to the CPU first");
  return Status::ok();
}
} // namespace

StatusOr<Tensor> parseNpy(const void *data, size_t size,
                          std::string_view sourceName) {
  StatusOr<Tensor> tensor =
      parseNpyImpl(static_cast<const unsigned char *>(data), size);
  if (!tensor.ok())
    return tensor.status().withContext(std::string(sourceName));
  return tensor;
}

StatusOr<Tensor> readNpy(const std::string &path) {
  StatusOr<Tensor> tensor = readNpyImpl(path);
  if (tensor.ok())
    return tensor;
  // System errors already start with the path.
  const std::string &message = tensor.status().message();
  if (message.compare(0, path.size() + 1, path + ":") == 0)
    return tensor;
  return tensor.status().withContext(path);
}

StatusOr<std::string> encodeNpy(const Tensor &tensor) {
  TSIR_RT_RETURN_IF_ERROR(checkWritable(tensor));
  Tensor dense = tensor.contiguous();
  std::string out = encodeHeader(dense);
  out.append(static_cast<const char *>(dense.data()), dense.nbytes());
  return out;
}

Status writeNpy(const std::string &path, const Tensor &tensor) {
  TSIR_RT_RETURN_IF_ERROR(checkWritable(tensor).withContext(path));
  Tensor dense = tensor.contiguous();
  std::string header = encodeHeader(dense);
  return detail::writeFile(
      path, {header, std::string_view(static_cast<const char *>(dense.data()),
                                      dense.nbytes())});
}

} // namespace tsir::rt
