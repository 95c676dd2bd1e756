//===- OperatorLibrary.cpp - Loading custom operator libraries ------------===//
//
// loadOperatorLibrary: dlopen a user's shared library, let it register its
// kernels (static RegisterKernels objects run during dlopen; an exported
// tsir_register_kernels runs after), and undo everything if it fails.
// Loaded libraries stay loaded: their kernels' code lives in them.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/KernelRegistry.h"

#include "LibraryLoad.h"

#include <dlfcn.h>
#include <map>
#include <set>

namespace tsir::rt {

class OperatorLibraryLoader {
public:
  static Status load(const std::string &path, KernelRegistry &registry);
};

namespace {
using RegisterFunction = void (*)(KernelRegistry *);

std::mutex &loadMutex() {
  static std::mutex mutex;
  return mutex;
}

/// The registries each loaded library (by dlopen handle) registered into.
std::map<void *, std::set<KernelRegistry *>> &loadedLibraries() {
  static std::map<void *, std::set<KernelRegistry *>> loaded;
  return loaded;
}

} // namespace

void detail::initLibraryBookkeeping() {
  loadMutex();
  loadedLibraries();
}

void detail::forgetRegistry(KernelRegistry *registry) {
  std::lock_guard<std::mutex> lock(loadMutex());
  for (auto &[handle, registries] : loadedLibraries())
    registries.erase(registry);
}

namespace {
std::string join(const std::vector<std::string> &messages) {
  std::string text;
  for (const std::string &message : messages)
    text += (text.empty() ? "" : "; ") + message;
  return text;
}
} // namespace

Status OperatorLibraryLoader::load(const std::string &path,
                                   KernelRegistry &registry) {
  // One load at a time: a library's initializers register into global(),
  // and the load context must see only its own library's registrations.
  std::lock_guard<std::mutex> lock(loadMutex());
  detail::LibraryLoad load;
  load.registry = &registry;
  detail::currentLibraryLoad() = &load;
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    detail::currentLibraryLoad() = nullptr;
    const char *reason = dlerror();
    return Status::error("cannot load operator library '" + path +
                         "': " + (reason ? reason : "unknown dlopen error"));
  }
  // dlopen of a loaded library runs no initializers again.
  auto previous = loadedLibraries().find(handle);
  bool loadedBefore = previous != loadedLibraries().end();
  if (loadedBefore && previous->second.count(&registry)) {
    detail::currentLibraryLoad() = nullptr;
    dlclose(handle); // Drops the reference this dlopen added.
    return Status::ok();
  }
  if (auto entry = reinterpret_cast<RegisterFunction>(
          dlsym(handle, "tsir_register_kernels")))
    entry(&registry);
  detail::currentLibraryLoad() = nullptr;

  std::string problem;
  if (!load.errors.empty())
    problem = join(load.errors);
  else if (load.registered.empty() && loadedBefore)
    problem = "it is already loaded into another registry, and only "
              "tsir_register_kernels can register it into a second one";
  else if (load.registered.empty())
    problem = "it registered no kernels (define tsir_register_kernels or use "
              "tsir::rt::RegisterKernels)";
  if (!problem.empty()) {
    for (const std::string &name : load.registered)
      registry.unregisterKernel(name);
    dlclose(handle);
    return Status::error("operator library '" + path + "': " + problem);
  }
  loadedLibraries()[handle].insert(&registry);
  return Status::ok();
}

Status loadOperatorLibrary(const std::string &path, KernelRegistry &registry) {
  return OperatorLibraryLoader::load(path, registry);
}

} // namespace tsir::rt
