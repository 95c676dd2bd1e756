//===- PlanCache.cpp - Compiled plans kept on disk across processes -------===//
//
// See PlanCache.h. Entries are `<key>.so` (a model.so), `<key>.plan` (a
// segment's saved plan, SavedPlan.h), `<key>.mlir` (a specialized graph,
// SpecializedGraphCache.h) and `<key>.jit` (an empty marker: the graph
// runs in the interpreter). Recency is the file's modification
// time, which a lookup refreshes.
//
//===----------------------------------------------------------------------===//

#include "PlanCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <dlfcn.h>
#include <sys/stat.h>

using namespace tsir;
namespace fs = llvm::sys::fs;

namespace {
/// What identifies the tsir that compiled an entry: its version and the
/// size and time of the binary holding this code (a tool, or the Python
/// module), so that a rebuilt tsir does not reuse older code.
std::string compilerIdentity() {
  std::string identity = "tsir " TSIR_VERSION_TEXT;
  Dl_info info;
  struct stat status;
  if (dladdr(reinterpret_cast<void *>(&compilerIdentity), &info) &&
      info.dli_fname && stat(info.dli_fname, &status) == 0)
    identity += std::string(" ") + info.dli_fname + " " +
                std::to_string(status.st_size) + " " +
                std::to_string(status.st_mtim.tv_sec) + "." +
                std::to_string(status.st_mtim.tv_nsec);
  return identity;
}

std::string joined(const std::string &directory, const std::string &name) {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, name);
  return std::string(path);
}

void touch(const std::string &path) {
  int fd;
  if (fs::openFileForWrite(path, fd, fs::CD_OpenExisting, fs::OF_Append))
    return;
  (void)fs::setLastAccessAndModificationTime(
      fd, std::chrono::system_clock::now());
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
}
} // namespace

std::string PlanCache::key(const std::vector<std::string> &parts) {
  static const std::string identity = compilerIdentity();
  llvm::SHA256 hash;
  auto add = [&](const std::string &part) {
    // Each part with its length, so that no two lists hash alike.
    hash.update(std::to_string(part.size()) + ":");
    hash.update(part);
  };
  add(identity);
  for (const std::string &part : parts)
    add(part);
  std::array<uint8_t, 32> digest = hash.final();
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::optional<std::string> PlanCache::lookup(const std::string &key,
                                             llvm::StringRef suffix) const {
  std::string path = joined(directory, key + suffix.str());
  if (!fs::exists(path))
    return std::nullopt;
  touch(path);
  return path;
}

bool PlanCache::isInterpreted(const std::string &key) const {
  return fs::exists(joined(directory, key + ".jit"));
}

void PlanCache::markInterpreted(const std::string &key) const {
  if (fs::create_directories(directory))
    return;
  int fd;
  if (!fs::openFileForWrite(joined(directory, key + ".jit"), fd))
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
}

rt::StatusOr<std::string> PlanCache::store(
    const std::string &key,
    const std::function<rt::Status(const std::string &path)> &write,
    llvm::StringRef suffix) const {
  if (std::error_code ec = fs::create_directories(directory))
    return rt::Status::error("the plan cache " + directory + ": " +
                             ec.message());
  // A name of this process's own in the cache's directory, so the rename
  // below stays within one file system and is atomic.
  llvm::SmallString<256> temporary;
  if (std::error_code ec = fs::createUniqueFile(
          joined(directory, key + suffix.str() + ".tmp-%%%%%%%%"), temporary))
    return rt::Status::error("the plan cache " + directory + ": " +
                             ec.message());
  std::string path = joined(directory, key + suffix.str());
  rt::Status written = write(std::string(temporary));
  if (written.isOk())
    if (std::error_code ec = fs::rename(temporary, path))
      written = rt::Status::error("the plan cache " + directory + ": " +
                                  ec.message());
  if (!written.isOk()) {
    fs::remove(temporary);
    return written;
  }
  evict();
  return path;
}

void PlanCache::storeBytes(const std::string &key, llvm::StringRef suffix,
                           llvm::StringRef bytes) const {
  // An entry not stored is compiled again next time: not an error.
  (void)store(
      key,
      [&](const std::string &path) {
        std::error_code ec;
        llvm::raw_fd_ostream os(path, ec);
        if (!ec)
          os << bytes;
        os.close();
        if (ec || os.has_error())
          return rt::Status::error("cannot write " + path);
        return rt::Status::ok();
      },
      suffix);
}

std::optional<std::string> PlanCache::readBytes(const std::string &key,
                                                llvm::StringRef suffix) const {
  std::optional<std::string> path = lookup(key, suffix);
  if (!path)
    return std::nullopt;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(*path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt;
  return (*buffer)->getBuffer().str();
}

void PlanCache::evict() const {
  struct Entry {
    std::string path;
    uint64_t size;
    llvm::sys::TimePoint<> used;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end;
       it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (!name.ends_with(".so") && !name.ends_with(".plan") &&
        !name.ends_with(".mlir"))
      continue; // markers are empty; temporaries belong to their writers
    fs::file_status status;
    if (fs::status(it->path(), status))
      continue;
    entries.push_back({it->path(), status.getSize(),
                       status.getLastModificationTime()});
    total += status.getSize();
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.used < b.used; });
  // The newest entry stays even when it alone is over the bound.
  for (size_t i = 0; total > maxBytes && i + 1 < entries.size(); ++i) {
    // A process that has the library loaded keeps its mapping.
    if (!fs::remove(entries[i].path))
      total -= entries[i].size;
  }
}

std::optional<std::string> SegmentPlanCache::load(const std::string &key) {
  return cache.readBytes(fullKey(key), ".plan");
}

void SegmentPlanCache::save(const std::string &key, const std::string &bytes) {
  cache.storeBytes(fullKey(key), ".plan", bytes);
}

void SegmentPlanCache::loaded() { ++loadedCount; }

std::string SegmentPlanCache::fullKey(const std::string &key) const {
  return PlanCache::key({"segment", key, hostIdentity});
}
