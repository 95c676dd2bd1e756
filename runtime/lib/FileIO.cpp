//===- FileIO.cpp - Files for the runtime's readers and writers -----------===//
//
// POSIX implementations of InputFile, MappedFile and writeFile.
//
//===----------------------------------------------------------------------===//

#include "FileIO.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tsir::rt::detail {

Status systemError(const std::string &path, const std::string &what) {
  return Status::error(path + ": " + what + ": " + std::strerror(errno));
}

namespace {
/// Opens `path` read-only and checks it is a regular file.
StatusOr<std::pair<int, uint64_t>> openRegular(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return systemError(path, "cannot open");
  struct stat info;
  if (::fstat(fd, &info) != 0) {
    Status status = systemError(path, "cannot stat");
    ::close(fd);
    return status;
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    return Status::error(path + ": not a regular file");
  }
  return std::make_pair(fd, static_cast<uint64_t>(info.st_size));
}
} // namespace

StatusOr<InputFile> InputFile::open(const std::string &path) {
  auto opened = openRegular(path);
  if (!opened.ok())
    return opened.status();
  return InputFile(opened->first, opened->second, path);
}

InputFile::InputFile(InputFile &&other) noexcept
    : fd(std::exchange(other.fd, -1)), fileSize(other.fileSize),
      path(std::move(other.path)) {}

InputFile::~InputFile() {
  if (fd >= 0)
    ::close(fd);
}

Status InputFile::readAt(uint64_t offset, void *buffer, size_t count) const {
  char *out = static_cast<char *>(buffer);
  while (count > 0) {
    ssize_t got = ::pread(fd, out, count, static_cast<off_t>(offset));
    if (got < 0) {
      if (errno == EINTR)
        continue;
      return systemError(path, "read failed");
    }
    if (got == 0)
      return Status::error(path + ": unexpected end of file at byte " +
                           std::to_string(offset));
    out += got;
    offset += static_cast<uint64_t>(got);
    count -= static_cast<size_t>(got);
  }
  return Status::ok();
}

StatusOr<std::shared_ptr<MappedFile>> MappedFile::map(const std::string &path) {
  auto opened = openRegular(path);
  if (!opened.ok())
    return opened.status();
  auto [fd, size] = *opened;
  if (size == 0) {
    ::close(fd);
    return std::shared_ptr<MappedFile>(new MappedFile(nullptr, 0));
  }
  void *bytes =
      ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  // The mapping keeps the file's pages; the descriptor is not needed.
  Status status =
      bytes == MAP_FAILED ? systemError(path, "cannot map") : Status::ok();
  ::close(fd);
  if (!status.isOk())
    return status;
  return std::shared_ptr<MappedFile>(
      new MappedFile(static_cast<char *>(bytes), size));
}

MappedFile::~MappedFile() {
  if (bytes)
    ::munmap(bytes, length);
}

Status writeFile(const std::string &path,
                 const std::vector<std::string_view> &pieces) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return systemError(path, "cannot create");
  for (std::string_view piece : pieces) {
    const char *data = piece.data();
    size_t left = piece.size();
    while (left > 0) {
      ssize_t wrote = ::write(fd, data, left);
      if (wrote < 0) {
        if (errno == EINTR)
          continue;
        Status status = systemError(path, "write failed");
        ::close(fd);
        return status;
      }
      data += wrote;
      left -= static_cast<size_t>(wrote);
    }
  }
  if (::close(fd) != 0)
    return systemError(path, "write failed");
  return Status::ok();
}

} // namespace tsir::rt::detail
