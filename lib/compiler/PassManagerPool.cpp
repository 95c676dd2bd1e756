//===- PassManagerPool.cpp - Pass managers reused across compiles ---------===//
//
// See PassManagerPool.h.
//
//===----------------------------------------------------------------------===//

#include "PassManagerPool.h"

using namespace mlir;

std::unique_ptr<PassManager> tsir::PassManagerPool::take(llvm::StringRef key,
                                                         Builder build) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<std::unique_ptr<PassManager>> &waiting = free[key];
    if (!waiting.empty()) {
      std::unique_ptr<PassManager> pm = std::move(waiting.back());
      waiting.pop_back();
      return pm;
    }
    ++builtCount;
  }
  auto pm = std::make_unique<PassManager>(context);
  build(*pm);
  return pm;
}

void tsir::PassManagerPool::giveBack(llvm::StringRef key,
                                     std::unique_ptr<PassManager> pm) {
  std::lock_guard<std::mutex> lock(mutex);
  free[key].push_back(std::move(pm));
}

unsigned tsir::PassManagerPool::built() const {
  std::lock_guard<std::mutex> lock(mutex);
  return builtCount;
}
