//===- SupportSymbols.cpp - Functions compiled code calls -----------------===//
//
// See SupportSymbols.h. The functions themselves are the runtime's (C, so
// that ahead-of-time compiled models link the same code); the JIT gets
// them under the names MLIR's lowering calls.
//
//===----------------------------------------------------------------------===//

#include "SupportSymbols.h"

#include "tsir-runtime/AbiCall.h"
#include "tsir-runtime/BFloat16Rounding.h"
#include "tsir-runtime/BufferCache.h"
#include "tsir-runtime/MemrefCopy.h"

std::vector<std::pair<llvm::StringRef, void *>> tsir::supportSymbols() {
  return {
      {"memrefCopy", reinterpret_cast<void *>(&tsirMemrefCopy)},
      {"_mlir_memref_to_llvm_alloc",
       reinterpret_cast<void *>(&tsirBufferAlloc)},
      {"_mlir_memref_to_llvm_free", reinterpret_cast<void *>(&tsirBufferFree)},
      {"tsirRaiseError", reinterpret_cast<void *>(&tsirRaiseError)},
      {"__truncsfbf2", reinterpret_cast<void *>(&tsirRoundF32ToBF16)},
      {"__truncdfbf2", reinterpret_cast<void *>(&tsirRoundF64ToBF16)}};
}
