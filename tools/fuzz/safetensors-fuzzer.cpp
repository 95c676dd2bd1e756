//===- safetensors-fuzzer.cpp - libFuzzer harness: weights files ----------===//
//
// Any bytes as a safetensors file, through the runtime's reader (the
// bounded JSON parser, offsets, shapes and dtypes), which tsir-run and
// the executor use for weights.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Safetensors.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  (void)tsir::rt::parseSafetensors(data, size, nullptr, "fuzz.safetensors");
  return 0;
}
