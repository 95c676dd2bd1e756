//===- ModelLink.cpp - Object files linked into a model.so ----------------===//
//
// See ModelLink.h. The system linker runs directly because the C compiler
// driver's start-up (clang loads libclang-cpp and libLLVM) takes longer
// than the link itself: about 0.1 s of every plan-cache miss, measured on
// the test suite's compiles.
//
//===----------------------------------------------------------------------===//

#include "ModelLink.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>
#include <optional>

using namespace tsir;

/// The system linker's command line for a shared library, as the C
/// compiler driver printed it at configure time
/// (cmake/modules/SystemLinkCommand.cmake): tsir_link_output.so and
/// tsir_link_inputs.o stand for the output and the inputs. Just the
/// terminating null when the driver printed nothing that can be replayed.
static const char *const systemLinkCommand[] = {
#include "SystemLinkCommand.inc"
    nullptr};

namespace {
/// One argument of the link: a file, -L or -l, which the driver and the
/// linker read alike, or an option of the linker's own, which reaches it
/// through the driver as -Wl,<option>.
struct LinkArgument {
  std::string text;
  bool linkerOption;
};
} // namespace

/// What a model links with besides the C runtime.
static std::vector<LinkArgument>
modelInputs(const std::vector<std::string> &objects,
            const std::string &abiArchive,
            const std::string &runtimeLibraryDir) {
  std::vector<LinkArgument> inputs;
  for (const std::string &object : objects)
    inputs.push_back({object, false});
  // The whole archive: nothing in the object calls the ABI's exported
  // functions, so the linker would otherwise leave them out.
  inputs.push_back({"--whole-archive", true});
  inputs.push_back({abiArchive, false});
  inputs.push_back({"--no-whole-archive", true});
  if (!runtimeLibraryDir.empty()) {
    inputs.push_back({"-L" + runtimeLibraryDir, false});
    inputs.push_back({"-rpath=" + runtimeLibraryDir, true});
    inputs.push_back({"-lTsirRuntime", false});
  }
  // Parallel loops call LLVM's OpenMP runtime: a model that has them needs
  // libomp.so.5 (found through the rpath of this tree's LLVM, or on the
  // library path of the machine that runs it); one without them does not
  // (--as-needed).
  std::string openMP = TSIR_OPENMP_LIBRARY;
  inputs.push_back({"--push-state", true});
  inputs.push_back({"--as-needed", true});
  if (llvm::StringRef(openMP).contains('/')) {
    inputs.push_back({openMP, false});
    inputs.push_back(
        {"-rpath=" + llvm::sys::path::parent_path(openMP).str(), true});
  } else {
    inputs.push_back({"-l:" + openMP, false});
  }
  inputs.push_back({"--pop-state", true});
  inputs.push_back({"-lm", false});
  inputs.push_back({"-lpthread", false});
  return inputs;
}

/// The system linker's command for `inputs`, or nothing when none was
/// recorded or a file it names is gone (tsir moved to another machine, or
/// its C compiler upgraded since).
static std::optional<std::vector<std::string>>
systemLinkerCommand(const std::vector<LinkArgument> &inputs,
                    const std::string &output) {
  std::vector<std::string> command;
  for (const char *const *argument = systemLinkCommand; *argument; ++argument) {
    llvm::StringRef text(*argument);
    if (text == "tsir_link_output.so") {
      command.push_back(output);
    } else if (text == "tsir_link_inputs.o") {
      for (const LinkArgument &input : inputs)
        command.push_back(input.text);
    } else {
      // The linker and the C runtime's start and end objects.
      if (llvm::sys::path::is_absolute(text) && !llvm::sys::fs::exists(text))
        return std::nullopt;
      command.push_back(text.str());
    }
  }
  if (command.empty() || !llvm::sys::fs::can_execute(command.front()))
    return std::nullopt;
  return command;
}

/// The C compiler driver to link with: `requested`, or the first C compiler
/// driver on PATH.
static rt::StatusOr<std::string> findDriver(const std::string &requested) {
  std::vector<std::string> candidates =
      requested.empty() ? std::vector<std::string>{"clang-22", "clang", "cc"}
                        : std::vector<std::string>{requested};
  for (const std::string &candidate : candidates) {
    // A path is taken as it is; a name is looked up on PATH.
    if (llvm::StringRef(candidate).contains('/')) {
      if (llvm::sys::fs::can_execute(candidate))
        return candidate;
      continue;
    }
    if (llvm::ErrorOr<std::string> found =
            llvm::sys::findProgramByName(candidate))
      return *found;
  }
  return rt::Status::error("no C compiler to link the model with (tried " +
                           llvm::join(candidates, ", ") +
                           "); name one with --linker or "
                           "TSIR_LINKER");
}

/// Runs `command` (its program first), which links `output`; its messages
/// become the error if it fails.
static rt::Status runLink(const std::vector<std::string> &command,
                          const std::string &output) {
  llvm::SmallString<128> log;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tsir-link", "log", log))
    return rt::Status::error("cannot create a temporary file: " + ec.message());
  std::vector<llvm::StringRef> argv(command.begin(), command.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log.str(),
                                                log.str()};
  std::string message;
  int code = llvm::sys::ExecuteAndWait(command.front(), argv, std::nullopt,
                                       redirects, /*SecondsToWait=*/300,
                                       /*MemoryLimit=*/0, &message);
  std::string linkerOutput;
  if (auto buffer = llvm::MemoryBuffer::getFile(log))
    linkerOutput = (*buffer)->getBuffer().trim().str();
  llvm::sys::fs::remove(log);
  if (code != 0)
    return rt::Status::error(
        "linking " + output + " failed (" + llvm::join(command, " ") +
        "): " + (linkerOutput.empty() ? message : linkerOutput));
  return rt::Status::ok();
}

rt::Status tsir::linkModelLibrary(const std::vector<std::string> &objects,
                                  const std::string &abiArchive,
                                  const std::string &runtimeLibraryDir,
                                  const std::string &linker,
                                  const std::string &output) {
  if (!llvm::sys::fs::exists(abiArchive))
    return rt::Status::error("the model ABI library " + abiArchive +
                             " is missing (is tsir installed completely?)");
  std::vector<LinkArgument> inputs =
      modelInputs(objects, abiArchive, runtimeLibraryDir);
  std::string requested = linker;
  if (requested.empty())
    if (const char *fromEnvironment = std::getenv("TSIR_LINKER"))
      requested = fromEnvironment;
  if (requested.empty())
    if (std::optional<std::vector<std::string>> command =
            systemLinkerCommand(inputs, output))
      return runLink(*command, output);
  rt::StatusOr<std::string> driver = findDriver(requested);
  if (!driver.ok())
    return driver.status();
  std::vector<std::string> command = {*driver, "-shared", "-o", output};
  for (const LinkArgument &input : inputs)
    command.push_back(input.linkerOption ? "-Wl," + input.text : input.text);
  return runLink(command, output);
}
