//===- import-fuzzer.cpp - libFuzzer harness: graph text import -----------===//
//
// Any bytes through the TorchScript importer (lexer, parser, MLIRGen,
// overload resolution, the verifier): an error is fine, a crash, leak,
// hang or sanitizer report is a bug.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tsir::importTorchScript(text, "fuzz.txt", &tsir::fuzz::context());
  return 0;
}
