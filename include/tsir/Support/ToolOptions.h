//===- ToolOptions.h - What the tools' --help lists -------------*- C++ -*-===//
//
// Debian's libLLVM.so holds every LLVM back end, and each registers its
// tuning flags (AMDGPU, ARM, BPF, ...) with llvm::cl as the library loads:
// left alone, `--help` of any tool linking LLVM runs to a thousand lines.
// tsir's tools put their own options in one category and hide what the
// libraries registered before `main`, so `--help` lists the tool's options
// and MLIR's (which MLIR registers at run time, after this runs). Hidden
// options still work and `--help-hidden` still lists them.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_SUPPORT_TOOLOPTIONS_H
#define TSIR_SUPPORT_TOOLOPTIONS_H

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tsir {

/// The category of a tsir tool's own options; `--help` lists it by name.
inline llvm::cl::OptionCategory &toolOptionCategory() {
  static llvm::cl::OptionCategory category("tsir options");
  return category;
}

/// The modifier that puts an option in toolOptionCategory().
inline llvm::cl::cat toolOptions() {
  return llvm::cl::cat(toolOptionCategory());
}

/// Hides every option registered so far outside toolOptionCategory() and
/// llvm::cl's own (--help, --version): the libraries' options, since the
/// tools' are in toolOptionCategory(). Call at the start of `main`, before
/// MLIR's options are registered.
inline void hideLibraryOptions() {
  llvm::cl::HideUnrelatedOptions(toolOptionCategory());
}

/// `--quiet` and `--timing`, which the tools that compile take: what a
/// compile reports as it goes (tsir::ExecutorOptions::progress, timing).
struct CompileReportOptions {
  llvm::cl::opt<bool> quiet{
      "quiet", toolOptions(),
      llvm::cl::desc("do not report the stages of a compile that takes "
                     "longer than a second (on stderr)")};
  llvm::cl::opt<bool> timing{
      "timing", toolOptions(),
      llvm::cl::desc("print MLIR's pass timing of the whole compile (on "
                     "stderr)")};

  /// Sets an ExecutorOptions' reporting from the command line.
  template <typename ExecutorOptions> void applyTo(ExecutorOptions &options) {
    if (!quiet)
      options.progress = [](const std::string &line) {
        llvm::errs() << line << "\n";
      };
    options.timing = timing;
  }
};

} // namespace tsir

#endif // TSIR_SUPPORT_TOOLOPTIONS_H
