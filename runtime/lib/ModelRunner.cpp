//===- ModelRunner.cpp - The command line that runs a compiled model ------===//
//
// See ModelRunner.h. Options are parsed by hand: the runtime links no
// LLVM, so llvm::cl is not available here. The summary it prints has the
// lines tsir-run prints for graphs (`spec:`, `run:`, `out0: ... -> path`,
// `bench:`), so scripts read both alike.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/ModelRunner.h"
#include "tsir-runtime/Model.h"
#include "tsir-runtime/RunSupport.h"
#include "tsir-runtime/Threads.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace tsir::rt {

namespace {
const char *kUsage =
    "usage: tsir-run model.so [--weights W] [--input V]... [--output-dir DIR]\n"
    "                [--threads N[,M...]] [--bench N] [--device cpu|cuda]\n"
    "Runs a model that tsir-compile wrote. An input V is a .npy file, an\n"
    "int, a float, true/false or None; outputs go to DIR/out<i>.npy.\n"
    "--threads: threads for its parallel loops (default: $OMP_NUM_THREADS,\n"
    "else the number of cores); a list runs once per count, the outputs of\n"
    "the later counts going to DIR/threads-M/.\n";

/// The name the runner was started as (`tsir-run-model`, or `tsir-run`
/// where tsir-run hands a model over), for its messages.
std::string programName = "tsir-run";

int fail(const std::string &message) {
  std::fprintf(stderr, "%s: error: %s\n", programName.c_str(), message.c_str());
  return 1;
}

struct Options {
  std::string model, weights, outputDir = ".", device;
  std::vector<std::string> inputs;
  long bench = 0;
  /// 0: the default count.
  std::vector<int> threads = {0};
};

/// Reads `--name value` and `--name=value` forms; an error names what is
/// wrong with the command line.
Status parseOptions(int argc, char **argv, Options &options) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h")
      return Status::error("help");
    if (arg.rfind("--", 0) != 0 && arg != "-") {
      if (!options.model.empty())
        return Status::error("more than one model given ('" + options.model +
                             "', '" + arg + "')");
      options.model = arg;
      continue;
    }
    std::string name = arg, value;
    size_t equals = arg.find('=');
    if (equals != std::string::npos) {
      name = arg.substr(0, equals);
      value = arg.substr(equals + 1);
    } else {
      if (i + 1 >= argc)
        return Status::error(name + " needs a value");
      value = argv[++i];
    }
    if (name == "--input")
      options.inputs.push_back(value);
    else if (name == "--weights")
      options.weights = value;
    else if (name == "--output-dir")
      options.outputDir = value;
    else if (name == "--device")
      options.device = value;
    else if (name == "--threads") {
      StatusOr<std::vector<int>> counts = parseThreadCounts(value);
      if (!counts.ok())
        return counts.status();
      options.threads = *counts;
    } else if (name == "--bench") {
      char *end = nullptr;
      options.bench = std::strtol(value.c_str(), &end, 10);
      if (*end != '\0' || options.bench < 0)
        return Status::error("--bench takes a count, got '" + value + "'");
    } else {
      return Status::error("unknown option " + name);
    }
  }
  if (options.model.empty())
    return Status::error("no model given");
  return Status::ok();
}
} // namespace

int runModelMain(int argc, char **argv) {
  using Clock = std::chrono::steady_clock;
  if (argc > 0 && argv[0]) {
    std::string self = argv[0];
    programName = self.substr(self.find_last_of('/') + 1);
  }
  Options options;
  if (Status parsed = parseOptions(argc, argv, options); !parsed.isOk()) {
    if (parsed.message() == "help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    std::fputs(kUsage, stderr);
    return fail(parsed.message());
  }
  auto loadStart = Clock::now();
  StatusOr<std::unique_ptr<Model>> model =
      Model::load(options.model, options.weights);
  if (!model.ok())
    return fail(model.status().message());
  double loadSeconds =
      std::chrono::duration<double>(Clock::now() - loadStart).count();
  if (!options.device.empty() && options.device != (*model)->device())
    return fail(options.model + " was compiled for --device " +
                (*model)->device() + ", not " + options.device +
                ": compile it again with tsir-compile --device " +
                options.device);

  // 0-d arrays for scalar inputs are turned into scalars by Model::run.
  StatusOr<std::vector<Value>> parsed = parseInputArguments(options.inputs);
  if (!parsed.ok())
    return fail(parsed.status().message());
  const std::vector<Value> &values = *parsed;
  bool several = options.threads.size() > 1;

  // The model's parallel loops run on the OpenMP runtime it brought in
  // (nothing to set for a model without any).
  for (size_t i = 0; i < options.threads.size(); ++i) {
    int count = options.threads[i];
    setThreadCount(count);
    // A graph may write its tensor inputs in place: each count starts
    // from fresh copies.
    std::vector<Value> arguments = values;
    if (several)
      for (Value &argument : arguments)
        if (argument.isTensor())
          argument = Value(argument.toTensor().clone());
    auto runStart = Clock::now();
    StatusOr<std::vector<Value>> outputs = (*model)->run(arguments);
    double runSeconds =
        std::chrono::duration<double>(Clock::now() - runStart).count();
    if (!outputs.ok())
      return fail(outputs.status().message());
    std::string prefix, directory = options.outputDir;
    if (i == 0) {
      std::printf("model: %s (compiled ahead of time for %s)\n",
                  options.model.c_str(), (*model)->device().c_str());
      std::printf("spec: %s\n", (*model)->spec().c_str());
      std::printf("load: %.3f ms\n", loadSeconds * 1e3);
    } else {
      prefix = "threads " + std::to_string(count) + ": ";
      directory += "/threads-" + std::to_string(count);
    }
    std::printf("%srun: %.3f ms\n", prefix.c_str(), runSeconds * 1e3);
    StatusOr<std::vector<std::string>> written =
        writeOutputArrays(*outputs, directory);
    if (!written.ok())
      return fail(written.status().message());
    for (const std::string &line : *written)
      std::printf("%s%s\n", prefix.c_str(), line.c_str());
  }

  if (options.bench > 0) {
    for (int count : options.threads) {
      setThreadCount(count);
      std::vector<double> times;
      for (long run = 0; run < options.bench; ++run) {
        auto start = Clock::now();
        StatusOr<std::vector<Value>> repeated = (*model)->run(values);
        times.push_back(
            std::chrono::duration<double>(Clock::now() - start).count() * 1e3);
        if (!repeated.ok())
          return fail(repeated.status().message());
      }
      double middle = median(times);
      std::printf("bench: %ld runs, median %.3f ms, min %.3f ms", options.bench,
                  middle, times.front());
      if (several)
        std::printf(", threads %d", count);
      std::printf("\n");
    }
  }
  std::fflush(stdout);
  return 0;
}

} // namespace tsir::rt
