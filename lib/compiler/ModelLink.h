//===- ModelLink.h - Object files linked into a model.so --------*- C++ -*-===//
//
// The last step of ahead-of-time compilation and of a plan-cache miss: the
// objects ModelObject.h writes, linked with the model ABI into a shared
// library. The system linker runs directly, with the command line the C
// compiler driver printed at configure time, when every file that command
// names is still there; otherwise (or when a linker is named) the driver
// links, as a user would by hand.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_MODELLINK_H
#define TSIR_LIB_COMPILER_MODELLINK_H

#include "tsir-runtime/Status.h"

#include <string>
#include <vector>

namespace tsir {

/// Links `objects` with `abiArchive` (and, when not empty, libTsirRuntime.so
/// in `runtimeLibraryDir`) into the shared library `output`. `linker` (else
/// $TSIR_LINKER) names a C compiler driver to link with instead of the
/// system linker.
rt::Status linkModelLibrary(const std::vector<std::string> &objects,
                            const std::string &abiArchive,
                            const std::string &runtimeLibraryDir,
                            const std::string &linker,
                            const std::string &output);

} // namespace tsir

#endif // TSIR_LIB_COMPILER_MODELLINK_H
