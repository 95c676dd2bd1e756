//===- CompileProgressTest.cpp - Tests of a compile's stage report ------===//
//
// A compile reports its stages only once it has taken longer than `after`
// seconds: a short compile says nothing, and a long one reports every stage,
// those that finished before the threshold included, in order. Tested with
// thresholds no compile crosses or every compile crosses, so no test here
// depends on how fast the machine is (help-and-options.test checked a real
// compile against the one-second default and failed under load).
//
//===----------------------------------------------------------------------===//

#include "CompilePipeline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

struct Report {
  std::vector<std::string> lines;
  tsir::CompileProgress::Sink sink() {
    return [this](const std::string &line) { lines.push_back(line); };
  }
};

TEST(CompileProgress, ShortCompileSaysNothing) {
  Report report;
  {
    tsir::CompileProgress progress(report.sink(), /*timing=*/false,
                                   /*after=*/1e9);
    progress.finished("inline");
    progress.finished("lower to LLVM");
  }
  EXPECT_TRUE(report.lines.empty());
}

TEST(CompileProgress, LongCompileReportsEveryStageInOrder) {
  Report report;
  tsir::CompileProgress progress(report.sink(), /*timing=*/false,
                                 /*after=*/0);
  progress.finished("inline");
  progress.finished("lower to LLVM");
  ASSERT_EQ(report.lines.size(), 2u);
  EXPECT_EQ(report.lines[0].rfind("compile: inline:", 0), 0u)
      << report.lines[0];
  EXPECT_EQ(report.lines[1].rfind("compile: lower to LLVM:", 0), 0u)
      << report.lines[1];
  for (const std::string &line : report.lines)
    EXPECT_NE(line.find(" s so far)"), std::string::npos) << line;
}

TEST(CompileProgress, NoSinkNoReport) {
  tsir::CompileProgress progress(nullptr, /*timing=*/false, /*after=*/0);
  progress.finished("inline"); // must not call an empty sink
}

} // namespace
