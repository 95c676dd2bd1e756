//===- Weights.h - Reading tensors from a safetensors file ------*- C++ -*-===//
//
// Frozen graphs refer to their weights by value name; the corpus ships them
// as safetensors (8-byte little-endian header length, JSON header, raw
// little-endian data). This reads such a file without copying the data.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_IMPORTER_WEIGHTS_H
#define TSIR_LIB_IMPORTER_WEIGHTS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <vector>

namespace tsir {

struct WeightTensor {
  std::string dtype; // safetensors name: F32, F64, I64, BOOL, ...
  std::vector<int64_t> shape;
  llvm::ArrayRef<char> data;
};

class WeightsFile {
public:
  /// Opens and indexes `path`; the error names the file and what is wrong.
  static llvm::Expected<std::unique_ptr<WeightsFile>>
  open(llvm::StringRef path);

  /// The tensor stored under `name`, or null.
  const WeightTensor *lookup(llvm::StringRef name) const;

  llvm::StringRef getPath() const { return path; }

private:
  std::string path;
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  llvm::StringMap<WeightTensor> tensors;
};

} // namespace tsir

#endif // TSIR_LIB_IMPORTER_WEIGHTS_H
