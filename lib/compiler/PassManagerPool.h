//===- PassManagerPool.h - Pass managers reused across compiles -*- C++ -*-===//
//
// Building a pass manager is cheap; its first run is not: MLIR initializes
// every pass then, and the conversion passes build their pattern sets in
// that step (17% of compiling a one-op plan, measured in a process that
// compiles 60 of them). A pass manager run again on the same context keeps
// that initialization. An executor compiles many plans on one context (a
// segmented graph: one per segment and spec, 145 for Keypoint R-CNN), so
// it keeps its pipelines in a pool and each compile borrows one.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_PASSMANAGERPOOL_H
#define TSIR_LIB_COMPILER_PASSMANAGERPOOL_H

#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <mutex>
#include <vector>

namespace tsir {

class PassManagerPool {
public:
  using Builder = llvm::function_ref<void(mlir::PassManager &)>;

  /// The pool's pass managers run on `context`, which outlives the pool.
  explicit PassManagerPool(mlir::MLIRContext *context) : context(context) {}

  /// A pass manager for the pipeline `key` names, which `build` adds: one
  /// given back earlier, or a new one. Give it back once its run is over;
  /// one that is not (its run failed) is simply dropped.
  std::unique_ptr<mlir::PassManager> take(llvm::StringRef key, Builder build);
  void giveBack(llvm::StringRef key, std::unique_ptr<mlir::PassManager> pm);

  /// How many pass managers the pool has built: the tests' view.
  unsigned built() const;

private:
  mlir::MLIRContext *context;
  mutable std::mutex mutex; // an executor may compile on several threads
  llvm::StringMap<std::vector<std::unique_ptr<mlir::PassManager>>> free;
  unsigned builtCount = 0;
};

} // namespace tsir

#endif // TSIR_LIB_COMPILER_PASSMANAGERPOOL_H
