//===- npy-fuzzer.cpp - libFuzzer harness: .npy inputs --------------------===//
//
// Any bytes as a .npy file, through the runtime's reader (the header
// dict's flat scanner, dtypes, shapes, sizes against the data).
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/Npy.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  (void)tsir::rt::parseNpy(data, size, "fuzz.npy");
  return 0;
}
