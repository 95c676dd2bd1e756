//===- Lapack.cpp - LAPACK routines loaded at run time ---------------------===//
//
// See Lapack.h: dlopen("liblapack.so.3") once, dlsym every routine.
//
//===----------------------------------------------------------------------===//

#include "Lapack.h"

#include <dlfcn.h>

#include <string>

namespace tsir::rt::lapack {

namespace {
struct Loaded {
  Library library;
  std::string error;
};

template <class Fn>
bool resolve(void *handle, const char *name, Fn &fn, std::string &error) {
  void *symbol = dlsym(handle, name);
  if (!symbol) {
    if (error.empty())
      error = std::string("LAPACK routine ") + name +
              " not found in liblapack.so.3";
    return false;
  }
  fn = reinterpret_cast<Fn>(symbol);
  return true;
}

template <class T>
void resolveAll(void *handle, char prefix, Routines<T> &r, std::string &error) {
  auto name = [prefix](const char *base) {
    return std::string(1, prefix) + base + "_";
  };
  resolve(handle, name("getrf").c_str(), r.getrf, error);
  resolve(handle, name("getrs").c_str(), r.getrs, error);
  resolve(handle, name("potrf").c_str(), r.potrf, error);
  resolve(handle, name("potrs").c_str(), r.potrs, error);
  resolve(handle, name("potri").c_str(), r.potri, error);
  resolve(handle, name("geqrf").c_str(), r.geqrf, error);
  resolve(handle, name("orgqr").c_str(), r.orgqr, error);
  resolve(handle, name("ormqr").c_str(), r.ormqr, error);
  resolve(handle, name("gesdd").c_str(), r.gesdd, error);
  resolve(handle, name("syevd").c_str(), r.syevd, error);
  resolve(handle, name("gels").c_str(), r.gels, error);
  resolve(handle, name("gelsy").c_str(), r.gelsy, error);
  resolve(handle, name("gelsd").c_str(), r.gelsd, error);
  resolve(handle, name("gelss").c_str(), r.gelss, error);
  resolve(handle, name("sytrf").c_str(), r.sytrf, error);
  resolve(handle, name("sytrs").c_str(), r.sytrs, error);
  resolve(handle, name("trsm").c_str(), r.trsm, error);
  resolve(handle, name("gemm").c_str(), r.gemm, error);
}

Loaded load() {
  Loaded loaded{};
  void *handle = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    loaded.error = std::string("linear algebra kernels need LAPACK, and "
                               "liblapack.so.3 could not be loaded (") +
                   (why ? why : "unknown error") +
                   "); install Debian's liblapack3";
    return loaded;
  }
  resolveAll(handle, 's', loaded.library.s, loaded.error);
  resolveAll(handle, 'd', loaded.library.d, loaded.error);
  return loaded;
}
} // namespace

StatusOr<const Library *> library() {
  static const Loaded loaded = load();
  if (!loaded.error.empty())
    return Status::error(loaded.error);
  return &loaded.library;
}

} // namespace tsir::rt::lapack
