//===- SavedPlan.h - A CPU plan's machine code as bytes ---------*- C++ -*-===//
//
// What the persistent plan cache keeps of a segment's plan
// (docs/plan-cache.md): the relocatable objects the JIT linked, their
// data layout, whether they call the OpenMP runtime, and the signature.
// Another process links the objects again (PartitionedJIT.h) instead of
// compiling: a plan in milliseconds, without the system linker a model.so
// would take (about 60 ms each; Keypoint R-CNN has 145 segment plans).
//
// The bytes begin with a magic line that names this format's version and a
// hash of the rest, and every length is checked against what is left: a
// truncated or corrupt entry is an error the caller answers by compiling,
// never a plan.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_SAVEDPLAN_H
#define TSIR_LIB_COMPILER_SAVEDPLAN_H

#include "Plan.h"

#include "tsir-runtime/Status.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tsir {

struct SavedPlan {
  CallSignature signature;
  std::string dataLayout;
  /// Whether the code calls the OpenMP runtime (loaded before linking).
  bool threaded = false;
  std::vector<llvm::SmallVector<char, 0>> objects;
};

/// `plan` as bytes.
std::string writeSavedPlan(const SavedPlan &plan);

/// The plan `bytes` hold; an error unless they are writeSavedPlan's output
/// whole.
rt::StatusOr<SavedPlan> readSavedPlan(llvm::StringRef bytes);

} // namespace tsir

#endif // TSIR_LIB_COMPILER_SAVEDPLAN_H
