//===- StickyError.h - The first failure of the mgpu* calls -----*- C++ -*-===//
//
// Private to the runtime. The mgpu* entry points compiled code calls
// return no error codes, so a failure is recorded here, process-wide, and
// kept until cuda::takeError() collects it. Only the first failure is kept
// (later ones are usually its consequences); they are counted.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_CUDA_STICKYERROR_H
#define TSIR_RUNTIME_LIB_CUDA_STICKYERROR_H

#include "tsir-runtime/Status.h"

namespace tsir::rt::cuda::detail {

/// Records `status` (if an error) as "<function>: <message>" unless an
/// error is pending already. Returns whether `status` was ok.
bool recordError(const char *function, const Status &status);

/// Whether an error waits for takeError().
bool errorPending();

/// The pending error (with the number of later ones suppressed), cleared;
/// ok when none is pending.
Status takePendingError();

} // namespace tsir::rt::cuda::detail

#endif // TSIR_RUNTIME_LIB_CUDA_STICKYERROR_H
