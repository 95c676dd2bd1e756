//===- tsir-run.cpp - Compile and run a TorchScript graph on the CPU ------===//
//
// `tsir-run graph.txt|m.mlir [--weights W] --input a.npy --input 3
// --input 1.5 --input true ... [--output-dir DIR] [--threads N[,M...]]
// [--bench N] [--print-ir-after-all] [--load-ops lib.so]`: imports the
// graph, compiles it for the inputs given (tsir's GraphExecutor), runs it,
// writes out0.npy, out1.npy, ... (flattened as the corpus flattens them:
// tuples and lists depth-first, scalars as 0-d arrays) and prints a
// summary. A list of thread counts runs the one compiled plan once per
// count, on fresh copies of the inputs; the outputs of the second and later
// counts go to DIR/threads-N/ (the differential tests compare each).
// `tsir-run model.so ...` runs a model tsir-compile wrote instead, through
// the runtime alone (tsir-runtime/ModelRunner.h).
//
//===----------------------------------------------------------------------===//

#include "tsir/Executor/Executor.h"
#include "tsir/Executor/Gradients.h"
#include "tsir/Support/ToolOptions.h"

#include "tsir-runtime/KernelRegistry.h"
#include "tsir-runtime/Npy.h"
#include "tsir-runtime/ModelRunner.h"
#include "tsir-runtime/RunSupport.h"
#include "tsir-runtime/Threads.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>

using namespace llvm;
namespace rt = tsir::rt;

static cl::opt<std::string> graphPath(tsir::toolOptions(), cl::Positional,
                                      cl::Required,
                                      cl::desc("<graph.txt | module.mlir>"));
static cl::opt<std::string> weightsPath(
    tsir::toolOptions(), "weights",
    cl::desc("safetensors file with the graph's <Tensor> constants"),
    cl::value_desc("file"));
static cl::list<std::string>
    inputs(tsir::toolOptions(), "input",
           cl::desc("an input, in graph order: a .npy file, an int, a float, "
                    "true/false, None, or a list [a.npy,b.npy]"),
           cl::value_desc("value"));
static cl::opt<std::string>
    outputDir(tsir::toolOptions(), "output-dir",
              cl::desc("where to write out0.npy, out1.npy, ..."), cl::init("."),
              cl::value_desc("dir"));
static cl::opt<unsigned>
    benchRuns(tsir::toolOptions(), "bench",
              cl::desc("time N runs after the first (compile excluded)"),
              cl::init(0), cl::value_desc("N"));
static cl::opt<bool> printIRAfterAll(
    tsir::toolOptions(), "print-ir-after-all",
    cl::desc("print the IR after every pass of the compile pipeline"));
static cl::list<std::string>
    opLibraries(tsir::toolOptions(), "load-ops",
                cl::desc("a shared library of custom operators to register"),
                cl::value_desc("lib.so"));
static cl::opt<std::string> device(tsir::toolOptions(), "device",
                                   cl::desc("cpu (the default) or cuda"),
                                   cl::init("cpu"));
static tsir::CompileReportOptions reportOptions;
static cl::list<std::string> gradWrt(
    tsir::toolOptions(), "grad-wrt", cl::CommaSeparated,
    cl::desc("differentiate: write grad_<name>.npy for each of these input "
             "or weight names (or `all`), after the outputs"),
    cl::value_desc("names"));
static cl::list<std::string> gradOutputs(
    tsir::toolOptions(), "grad-output",
    cl::desc("with --grad-wrt: the gradient of each tensor output, in order, "
             "as .npy (default: ones, for outputs of one element)"),
    cl::value_desc("g.npy"));
static cl::opt<bool> noOptimize(tsir::toolOptions(), "no-optimize",
                                cl::desc("skip tsir-optimize before lowering"));
static cl::opt<std::string> planCache(
    tsir::toolOptions(), "plan-cache",
    cl::desc("the directory of the persistent plan cache (default: "
             "$TSIR_CACHE_DIR, else $XDG_CACHE_HOME/tsir, else ~/.cache/tsir; "
             "'off' for none)"),
    cl::value_desc("dir"));

static int fail(const std::string &message) {
  // Messages from the compiler already say `file:line:col: error:`.
  bool located = StringRef(message).contains(": error: ");
  errs() << "tsir-run: " << (located ? "" : "error: ") << message << "\n";
  return 1;
}

/// Whether the command line names a compiled model (a .so) to run.
static bool namesCompiledModel(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg.starts_with("-")) {
      // Options that take a separate value: skip it.
      if (!arg.contains('=') && i + 1 < argc &&
          llvm::is_contained({"--input", "-input", "--weights", "-weights",
                              "--output-dir", "-output-dir", "--bench",
                              "-bench", "--device", "-device", "--load-ops",
                              "-load-ops", "--threads", "-threads",
                              "--plan-cache", "-plan-cache"},
                             arg))
        ++i;
      continue;
    }
    return arg.ends_with(".so");
  }
  return false;
}

/// Fresh copies of `values`: a graph may write its tensor inputs in place,
/// and each thread count must start from the same inputs.
static std::vector<rt::Value> copyInputs(const std::vector<rt::Value> &values) {
  std::vector<rt::Value> copies;
  for (const rt::Value &value : values)
    copies.push_back(value.isTensor() ? rt::Value(value.toTensor().clone())
                                      : value);
  return copies;
}

/// Runs the graph and writes its outputs into `directory`, printing the
/// summary lines (`run:` and one per output) after `prefix`.
static int runAndWrite(tsir::GraphExecutor &executor,
                       const std::vector<rt::Value> &values,
                       const std::string &directory, const std::string &prefix,
                       bool printCompile) {
  auto outputs = executor.run(values);
  if (!outputs.ok())
    return fail(outputs.status().message());
  const tsir::ExecutionStats &stats = executor.lastStats();
  if (printCompile) {
    outs() << "spec: " << stats.spec << "\n";
    outs() << format("compile: %.3f s", stats.compileSeconds)
           << (stats.fromPlanCache ? " (from the plan cache)" : "");
    if (stats.segmentPlansFromCache)
      outs() << " (" << stats.segmentPlansFromCache
             << " segment plans from the plan cache)";
    outs() << "\n";
  }
  outs() << prefix << format("run: %.3f ms\n", stats.runSeconds * 1e3);
  rt::StatusOr<std::vector<std::string>> written =
      rt::writeOutputArrays(*outputs, directory);
  if (!written.ok())
    return fail(written.status().message());
  for (const std::string &line : *written)
    outs() << prefix << line << "\n";
  return 0;
}

/// --grad-wrt: the outputs, then the gradients as grad_<name>.npy.
static int runGradients(const tsir::ExecutorOptions &options) {
  if (benchRuns > 0)
    return fail("--bench does not combine with --grad-wrt");
  auto executor = tsir::GradientExecutor::fromFile(
      graphPath, std::vector<std::string>(gradWrt.begin(), gradWrt.end()),
      options);
  if (!executor.ok())
    return fail(executor.status().message());
  rt::StatusOr<std::vector<rt::Value>> parsed =
      rt::parseInputArguments(inputs, (*executor)->inputTypes());
  if (!parsed.ok())
    return fail(parsed.status().message());
  std::vector<rt::Tensor> seeds;
  for (const std::string &path : gradOutputs) {
    rt::StatusOr<rt::Tensor> seed = rt::readNpy(path);
    if (!seed.ok())
      return fail(seed.status().withContext("--grad-output").message());
    seeds.push_back(*seed);
  }
  auto result = (*executor)->run(*parsed, seeds);
  if (!result.ok())
    return fail(result.status().message());
  rt::StatusOr<std::vector<std::string>> written =
      rt::writeOutputArrays(result->outputs, outputDir);
  if (!written.ok())
    return fail(written.status().message());
  for (const std::string &line : *written)
    outs() << line << "\n";
  const std::vector<std::string> &names = (*executor)->wrtNames();
  for (size_t i = 0; i < names.size(); ++i) {
    std::string path = outputDir + "/grad_" + names[i] + ".npy";
    if (rt::Status status = rt::writeNpy(path, result->gradients[i]);
        !status.isOk())
      return fail(status.message());
    outs() << "grad_" << names[i] << ": " << result->gradients[i].toString()
           << " -> " << path << "\n";
  }
  return 0;
}

int main(int argc, char **argv) {
  // A model compiled ahead of time runs through the runtime alone, as the
  // runtime's own tsir-run runs it where there is no MLIR.
  if (namesCompiledModel(argc, argv))
    return rt::runModelMain(argc, argv);
  InitLLVM init(argc, argv);
  tsir::hideLibraryOptions();
  // LLVM's libraries register a `--threads` of their own (for their thread
  // pool); tsir-run's is the threads of compiled code, so it replaces it.
  if (cl::Option *llvmThreads = cl::getRegisteredOptions().lookup("threads"))
    llvmThreads->removeArgument();
  cl::opt<std::string> threadsValue(
      "threads", tsir::toolOptions(),
      cl::desc("threads for the parallel loops of compiled code (default: "
               "$OMP_NUM_THREADS, else the number of cores); a list runs the "
               "one compiled plan once per count, writing the outputs of the "
               "later counts to DIR/threads-M/"),
      cl::value_desc("N[,M...]"));
  cl::ParseCommandLineOptions(
      argc, argv, "tsir-run: compile and run a TorchScript graph\n");

  // 0: the default count.
  std::vector<int> counts = {0};
  if (threadsValue.getNumOccurrences()) {
    rt::StatusOr<std::vector<int>> parsed = rt::parseThreadCounts(threadsValue);
    if (!parsed.ok())
      return fail(parsed.status().message());
    counts = *parsed;
  }

  for (const std::string &library : opLibraries) {
    rt::Status loaded = rt::loadOperatorLibrary(library);
    if (!loaded.isOk())
      return fail(loaded.message());
  }

  tsir::ExecutorOptions options;
  options.weightsPath = weightsPath;
  options.printIRAfterAll = printIRAfterAll;
  options.optimize = !noOptimize;
  options.device = device;
  options.threads = counts.front();
  reportOptions.applyTo(options);
  options.planCacheDirectory = tsir::defaultPlanCacheDirectory();
  if (planCache.getNumOccurrences())
    options.planCacheDirectory =
        StringRef(planCache).equals_insensitive("off") ? std::string()
                                                      : std::string(planCache);
  options.planCacheMaxBytes = tsir::defaultPlanCacheMaxBytes();
  // The model ABI and the runtime the cache's libraries link with.
  options.libraryDirectory =
      tsir::libraryDirectoryBeside(argv[0], (void *)&fail);
  if (!gradWrt.empty())
    return runGradients(options);
  auto executor = tsir::GraphExecutor::fromFile(graphPath, options);
  if (!executor.ok())
    return fail(executor.status().message());

  rt::StatusOr<std::vector<rt::Value>> parsed =
      rt::parseInputArguments(inputs, (*executor)->inputTypes());
  if (!parsed.ok())
    return fail(parsed.status().message());
  const std::vector<rt::Value> &values = *parsed;

  bool several = counts.size() > 1;
  if (int failed =
          runAndWrite(**executor, several ? copyInputs(values) : values,
                      outputDir, "", /*printCompile=*/true))
    return failed;
  for (int count : llvm::drop_begin(counts)) {
    (*executor)->setThreads(count);
    std::string directory = outputDir + "/threads-" + std::to_string(count);
    std::string prefix = "threads " + std::to_string(count) + ": ";
    if (int failed = runAndWrite(**executor, copyInputs(values), directory,
                                 prefix, /*printCompile=*/false))
      return failed;
  }

  if (benchRuns > 0) {
    for (int count : counts) {
      (*executor)->setThreads(count);
      std::vector<double> times;
      for (unsigned run = 0; run < benchRuns; ++run) {
        auto repeated = (*executor)->run(values);
        if (!repeated.ok())
          return fail(repeated.status().message());
        times.push_back((*executor)->lastStats().runSeconds * 1e3);
      }
      double median = rt::median(times);
      outs() << format("bench: %u runs, median %.3f ms, min %.3f ms",
                       unsigned(benchRuns), median, times.front());
      if (several)
        outs() << ", threads " << count;
      outs() << "\n";
    }
  }
  return 0;
}
