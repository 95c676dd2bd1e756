//===- LibraryLoad.h - State of an operator library being loaded -*- C++ -*-=//
//
// Private to the runtime: while loadOperatorLibrary runs a library's
// initializers, the registry records here what the library registered and
// what failed, so the load can report errors and undo a failed library.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_LIBRARYLOAD_H
#define TSIR_RUNTIME_LIB_LIBRARYLOAD_H

#include <string>
#include <vector>

namespace tsir::rt {
class KernelRegistry;
} // namespace tsir::rt

namespace tsir::rt::detail {

struct LibraryLoad {
  KernelRegistry *registry = nullptr;
  std::vector<std::string> registered;
  std::vector<std::string> errors;
};

/// The load in progress on this thread, or nullptr. Library initializers
/// run on the thread that calls dlopen, so thread-local state sees them.
LibraryLoad *&currentLibraryLoad();

/// Constructs the loader's bookkeeping. Registries call it when they are
/// made, so it is destroyed after them at exit.
void initLibraryBookkeeping();

/// Forgets which libraries were loaded into `registry` (being destroyed),
/// so a new registry at the same address is not mistaken for it.
void forgetRegistry(KernelRegistry *registry);

} // namespace tsir::rt::detail

#endif // TSIR_RUNTIME_LIB_LIBRARYLOAD_H
