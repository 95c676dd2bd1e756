//===- TestUtils.h - Helpers shared by the runtime's tests ------*- C++ -*-===//
//
// A scratch directory removed after each test, reading files back, and
// building tensors from and reading them as lists of doubles, and checking
// a reader's error.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_TEST_UNITTESTS_RUNTIME_TESTUTILS_H
#define TSIR_TEST_UNITTESTS_RUNTIME_TESTUTILS_H

#include "tsir-runtime/Status.h"
#include "tsir-runtime/Tensor.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tsir::rt::test {

/// Passes when a reader of an in-memory image failed with an error that
/// names its source ("<buffer>: ...") and contains `expected`.
inline ::testing::AssertionResult failedOnBuffer(const Status &status,
                                                 const std::string &expected) {
  if (status.isOk())
    return ::testing::AssertionFailure() << "the image parsed";
  const std::string &message = status.message();
  if (message.rfind("<buffer>: ", 0) != 0)
    return ::testing::AssertionFailure()
           << "error does not name the source: " << message;
  if (message.find(expected) == std::string::npos)
    return ::testing::AssertionFailure()
           << "'" << message << "' does not contain '" << expected << "'";
  return ::testing::AssertionSuccess();
}

/// A fresh directory under the system's temporary directory.
class ScratchDir {
public:
  ScratchDir() {
    std::string pattern = ::testing::TempDir() + "tsir-runtime-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (mkdtemp(buffer.data()))
      dir = buffer.data();
  }
  ~ScratchDir() {
    if (!dir.empty())
      (void)std::system(("rm -rf '" + dir + "'").c_str());
  }
  bool ok() const { return !dir.empty(); }
  std::string path(const std::string &name) const { return dir + "/" + name; }
  const std::string &root() const { return dir; }

private:
  std::string dir;
};

inline std::string readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

inline void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

/// A tensor of `values` converted to `dtype`.
inline Tensor makeTensor(const std::vector<double> &values,
                         std::vector<int64_t> sizes, DType dtype) {
  return Tensor::fromBlob(values.data(), std::move(sizes), DType::Float64)
      .to(dtype);
}

/// The elements of `tensor` in row-major order, as doubles.
inline std::vector<double> valuesOf(const Tensor &tensor) {
  Tensor dense = tensor.to(DType::Float64).contiguous();
  const double *data = dense.dataAs<double>();
  return std::vector<double>(data, data + dense.numel());
}

/// The bytes of a contiguous copy of `tensor`.
inline std::string bytesOf(const Tensor &tensor) {
  Tensor dense = tensor.contiguous();
  return std::string(static_cast<const char *>(dense.data()), dense.nbytes());
}

inline bool hasNumpy() {
  return std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") == 0;
}

} // namespace tsir::rt::test

#endif // TSIR_TEST_UNITTESTS_RUNTIME_TESTUTILS_H
