//===- FileIO.h - Files for the runtime's readers and writers ---*- C++ -*-===//
//
// Private to the runtime: a read-only file with positioned reads, a
// read-only private mapping of a whole file (shared by the tensors that
// point into it), and a writer that reports every failure as a Status
// naming the file and the system's reason.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_FILEIO_H
#define TSIR_RUNTIME_LIB_FILEIO_H

#include "tsir-runtime/Status.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tsir::rt::detail {

/// A regular file opened for reading.
class InputFile {
public:
  static StatusOr<InputFile> open(const std::string &path);
  InputFile(InputFile &&other) noexcept;
  InputFile &operator=(InputFile &&) = delete;
  ~InputFile();

  uint64_t size() const { return fileSize; }
  /// Reads exactly `count` bytes at `offset`.
  Status readAt(uint64_t offset, void *buffer, size_t count) const;

private:
  InputFile(int fd, uint64_t size, std::string path)
      : fd(fd), fileSize(size), path(std::move(path)) {}

  int fd = -1;
  uint64_t fileSize = 0;
  std::string path;
};

/// A whole file mapped copy-on-write: tensors may point into it and write
/// without changing the file. Unmapped when the last shared_ptr goes.
class MappedFile {
public:
  static StatusOr<std::shared_ptr<MappedFile>> map(const std::string &path);
  ~MappedFile();

  char *data() const { return bytes; }
  size_t size() const { return length; }

private:
  MappedFile(char *bytes, size_t length) : bytes(bytes), length(length) {}

  char *bytes;
  size_t length;
};

/// Writes the concatenation of `pieces` to `path`, replacing it.
Status writeFile(const std::string &path,
                 const std::vector<std::string_view> &pieces);

/// "path: strerror(errno)".
Status systemError(const std::string &path, const std::string &what);

} // namespace tsir::rt::detail

#endif // TSIR_RUNTIME_LIB_FILEIO_H
