//===- tsir-run.cpp - Compile and run a TorchScript graph on the CPU ------===//
//
// `tsir-run graph.txt|m.mlir [--weights W] --input a.npy --input 3
// --input 1.5 --input true ... [--output-dir DIR] [--bench N]
// [--print-ir-after-all] [--load-ops lib.so]`: imports the graph, compiles
// it for the inputs given (tsir's GraphExecutor), runs it, writes
// out0.npy, out1.npy, ... (flattened as the corpus flattens them: tuples
// and lists depth-first, scalars as 0-d arrays) and prints a summary.
//
//===----------------------------------------------------------------------===//

#include "tsir/Compiler/Executor.h"

#include "tsir-runtime/KernelRegistry.h"
#include "tsir-runtime/Npy.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

using namespace llvm;
namespace rt = tsir::rt;

static cl::opt<std::string> graphPath(cl::Positional, cl::Required,
                                      cl::desc("<graph.txt | module.mlir>"));
static cl::opt<std::string> weightsPath(
    "weights", cl::desc("safetensors file with the graph's <Tensor> constants"),
    cl::value_desc("file"));
static cl::list<std::string> inputs(
    "input",
    cl::desc("an input, in graph order: a .npy file, an int, a float, "
             "true/false or None"),
    cl::value_desc("value"));
static cl::opt<std::string> outputDir(
    "output-dir", cl::desc("where to write out0.npy, out1.npy, ..."),
    cl::init("."), cl::value_desc("dir"));
static cl::opt<unsigned> benchRuns(
    "bench", cl::desc("time N runs after the first (compile excluded)"),
    cl::init(0), cl::value_desc("N"));
static cl::opt<bool> printIRAfterAll(
    "print-ir-after-all",
    cl::desc("print the IR after every pass of the compile pipeline"));
static cl::list<std::string> opLibraries(
    "load-ops", cl::desc("a shared library of custom operators to register"),
    cl::value_desc("lib.so"));
static cl::opt<std::string> device("device", cl::desc("cpu (the default)"),
                                   cl::init("cpu"));
static cl::opt<bool> noOptimize("no-optimize",
                                cl::desc("skip tsir-optimize before lowering"));

static int fail(const std::string &message) {
  // Messages from the compiler already say `file:line:col: error:`.
  bool located = StringRef(message).contains(": error: ");
  errs() << "tsir-run: " << (located ? "" : "error: ") << message << "\n";
  return 1;
}

/// An input as written on the command line.
static rt::StatusOr<rt::Value> parseInput(StringRef text, size_t index) {
  std::string where = "input " + std::to_string(index) + " ('" + text.str() + "')";
  if (text.ends_with(".npy")) {
    rt::StatusOr<rt::Tensor> tensor = rt::readNpy(text.str());
    if (!tensor.ok())
      return tensor.status().withContext(where);
    // The corpus writes int/float/bool inputs as 0-d arrays; they are
    // scalars to the graph only if it says so, which the executor checks,
    // so keep them tensors here and let the signature decide below.
    return rt::Value(*tensor);
  }
  if (text == "true" || text == "True")
    return rt::Value(true);
  if (text == "false" || text == "False")
    return rt::Value(false);
  if (text == "None")
    return rt::Value::none();
  int64_t integer;
  if (!text.getAsInteger(10, integer))
    return rt::Value(integer);
  double real;
  if (!text.getAsDouble(real))
    return rt::Value(real);
  if (sys::fs::exists(text))
    return rt::Status::error(where + ": only .npy files can be inputs");
  return rt::Status::error(where + ": not a .npy file, an int, a float, "
                                   "true/false or None (no such file)");
}

/// A 0-d array given where the graph takes an int, float or bool is that
/// scalar (the corpus stores scalar inputs so).
static rt::Value scalarFromArray(const rt::Value &value, StringRef type) {
  if (!value.isTensor() || value.toTensor().dim() != 0)
    return value;
  const rt::Tensor &t = value.toTensor();
  if (type == "int" && t.dtype() == rt::DType::Int64)
    return rt::Value(*t.dataAs<int64_t>());
  if (type == "float" && t.dtype() == rt::DType::Float64)
    return rt::Value(*t.dataAs<double>());
  if (type == "bool" && t.dtype() == rt::DType::Bool)
    return rt::Value(*t.dataAs<uint8_t>() != 0);
  return value;
}

/// An output as the array the corpus stores for it.
static rt::StatusOr<rt::Tensor> asArray(const rt::Value &value);

/// Appends the arrays of an output: lists and tuples (which the executor
/// already flattens at the top) depth-first, as the corpus stores them.
static rt::Status appendArrays(const rt::Value &value,
                               std::vector<rt::Tensor> &arrays) {
  if (value.isList() || value.isTuple()) {
    for (const rt::Value &element :
         value.isList() ? value.toList() : value.toTuple())
      if (rt::Status status = appendArrays(element, arrays); !status.isOk())
        return status;
    return rt::Status::ok();
  }
  rt::StatusOr<rt::Tensor> array = asArray(value);
  if (!array.ok())
    return array.status();
  arrays.push_back(*array);
  return rt::Status::ok();
}

static rt::StatusOr<rt::Tensor> asArray(const rt::Value &value) {
  if (value.isTensor())
    return value.toTensor();
  if (value.isInt())
    return rt::Tensor::scalar(double(value.toInt()), rt::DType::Int64);
  if (value.isDouble())
    return rt::Tensor::scalar(value.toDouble(), rt::DType::Float64);
  if (value.isBool())
    return rt::Tensor::scalar(value.toBool() ? 1 : 0, rt::DType::Bool);
  return rt::Status::error(std::string("cannot write a ") + value.kindName() +
                           " output as .npy");
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "tsir-run: compile and run a TorchScript graph\n");
  if (device != "cpu")
    return fail("--device " + device + " is not supported yet (cpu only)");

  for (const std::string &library : opLibraries) {
    rt::Status loaded = rt::loadOperatorLibrary(library);
    if (!loaded.isOk())
      return fail(loaded.message());
  }

  tsir::ExecutorOptions options;
  options.weightsPath = weightsPath;
  options.printIRAfterAll = printIRAfterAll;
  options.optimize = !noOptimize;
  auto executor = tsir::GraphExecutor::fromFile(graphPath, options);
  if (!executor.ok())
    return fail(executor.status().message());

  std::vector<std::string> types = (*executor)->inputTypes();
  std::vector<rt::Value> values;
  for (size_t i = 0; i < inputs.size(); ++i) {
    rt::StatusOr<rt::Value> value = parseInput(inputs[i], i);
    if (!value.ok())
      return fail(value.status().message());
    values.push_back(i < types.size() ? scalarFromArray(*value, types[i])
                                      : *value);
  }

  auto outputs = (*executor)->run(values);
  if (!outputs.ok())
    return fail(outputs.status().message());
  const tsir::ExecutionStats &stats = (*executor)->lastStats();
  outs() << "spec: " << stats.spec << "\n";
  outs() << format("compile: %.3f s\n", stats.compileSeconds);
  outs() << format("run: %.3f ms\n", stats.runSeconds * 1e3);

  if (std::error_code ec = sys::fs::create_directories(outputDir))
    return fail("cannot create " + outputDir + ": " + ec.message());
  std::vector<rt::Tensor> arrays;
  for (size_t i = 0; i < outputs->size(); ++i)
    if (rt::Status status = appendArrays((*outputs)[i], arrays);
        !status.isOk())
      return fail("output " + std::to_string(i) + ": " + status.message());
  for (size_t i = 0; i < arrays.size(); ++i) {
    const rt::Tensor *array = &arrays[i];
    SmallString<128> path(outputDir);
    sys::path::append(path, "out" + std::to_string(i) + ".npy");
    rt::Status written = rt::writeNpy(std::string(path), *array);
    if (!written.isOk())
      return fail(written.message());
    outs() << "out" << i << ": " << array->toString() << " -> " << path << "\n";
  }

  if (benchRuns > 0) {
    std::vector<double> times;
    for (unsigned run = 0; run < benchRuns; ++run) {
      auto repeated = (*executor)->run(values);
      if (!repeated.ok())
        return fail(repeated.status().message());
      times.push_back((*executor)->lastStats().runSeconds * 1e3);
    }
    std::sort(times.begin(), times.end());
    double median = times.size() % 2
                        ? times[times.size() / 2]
                        : (times[times.size() / 2 - 1] + times[times.size() / 2]) / 2;
    outs() << format("bench: %u runs, median %.3f ms, min %.3f ms\n",
                     unsigned(benchRuns), median, times.front());
  }
  return 0;
}
