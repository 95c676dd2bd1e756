//===- SupportSymbols.h - Functions compiled code calls --------*- C++ -*-===//
//
// MLIR's lowering emits calls to a few support functions (`memrefCopy` for
// memref.copy of non-contiguous or unknown layouts), and tsir's own
// lowering one more (`tsirRaiseError`, a failed run-time check), and LLVM
// calls the compiler runtime's roundings to bfloat16 on a CPU without
// AVX512-BF16 (`__truncsfbf2`, `__truncdfbf2`). MLIR ships
// the first ones in libmlir_c_runner_utils.so; tsir provides its own so that
// compiled graphs need nothing but tsir's libraries, and gives the JIT
// their addresses.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_SUPPORTSYMBOLS_H
#define TSIR_LIB_COMPILER_SUPPORTSYMBOLS_H

#include "llvm/ADT/StringRef.h"

#include <utility>
#include <vector>

namespace tsir {

/// Each support function's symbol name and address.
std::vector<std::pair<llvm::StringRef, void *>> supportSymbols();

} // namespace tsir

#endif // TSIR_LIB_COMPILER_SUPPORTSYMBOLS_H
