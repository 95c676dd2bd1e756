//===- GraphTestUtils.h - Graph files and tensors for the C++ API tests -*- C++ -*-===//
//
// What ExecutorTest and ModelTest share: a graph's text in a temporary
// file, an executor loaded from one, and float tensors to feed and read.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_TEST_UNITTESTS_GRAPHTESTUTILS_H
#define TSIR_TEST_UNITTESTS_GRAPHTESTUTILS_H

#include "tsir/Executor/Executor.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace tsir::test {

/// A graph's text in a temporary file, removed with the object.
class GraphFile {
public:
  explicit GraphFile(const std::string &text) {
    llvm::SmallString<128> name;
    int fd = -1;
    EXPECT_FALSE(
        llvm::sys::fs::createTemporaryFile("executor", "txt", fd, name));
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
    path = std::string(name);
  }
  ~GraphFile() { llvm::sys::fs::remove(path); }
  std::string path;
};

inline std::unique_ptr<GraphExecutor> load(const GraphFile &file,
                                    const ExecutorOptions &options = {}) {
  auto executor = GraphExecutor::fromFile(file.path, options);
  EXPECT_TRUE(executor.ok()) << executor.status().message();
  return executor.ok() ? std::move(*executor) : nullptr;
}

inline rt::Tensor filled(std::vector<int64_t> sizes, float start) {
  rt::Tensor tensor = rt::Tensor::empty(sizes, rt::DType::Float32);
  for (int64_t i = 0; i < tensor.numel(); ++i)
    tensor.dataAs<float>()[i] = start + float(i);
  return tensor;
}

inline std::vector<float> elements(const rt::Tensor &tensor) {
  rt::Tensor dense = tensor.contiguous();
  return std::vector<float>(dense.dataAs<float>(),
                            dense.dataAs<float>() + dense.numel());
}

} // namespace tsir::test

#endif // TSIR_TEST_UNITTESTS_GRAPHTESTUTILS_H
