//===- Execution.cpp - tsir.Executable: compile a graph and run it --------===//
//
// A compiled graph is a tsir::GraphExecutor made from the graph's MLIR
// (printed with its locations, so errors still name the graph text's
// lines) and its weights. Calls convert the arguments (Tensors.cpp),
// release the GIL while the executor compiles and runs, and convert the
// outputs back; the executor's plan cache, one plan per argument spec, is
// visible as `plans`.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "tsir-runtime/KernelRegistry.h"

#include <pybind11/stl.h>

#include <mutex>

using namespace tsir::python;
namespace rt = tsir::rt;

std::unique_ptr<tsir::GraphExecutor>
tsir::python::makeExecutor(const GraphRef &graph,
                           tsir::ExecutorOptions options) {
  const Weights &attached = graph->weights();
  options.weights.insert(options.weights.end(), attached.begin(),
                         attached.end());
  std::string text = graph->toMLIR(/*debugInfo=*/true);
  // The executor reads a buffer whose name ends in `.mlir` as MLIR.
  auto executor = tsir::GraphExecutor::fromSource(
      text, graph->bufferName() + ".mlir", options);
  if (!executor.ok())
    throw Error(executor.status().message());
  return std::move(*executor);
}

namespace {
/// An executor's ExecutionStats as tsir.Function.last_stats gives them.
py::dict statsToDict(const tsir::ExecutionStats &stats) {
  py::dict result;
  result["spec"] = stats.spec;
  result["compiled"] = stats.compiled;
  result["compile_seconds"] = stats.compileSeconds;
  result["run_seconds"] = stats.runSeconds;
  result["from_plan_cache"] = stats.fromPlanCache;
  result["segment_plans_from_cache"] = stats.segmentPlansFromCache;
  return result;
}

class PyExecutable {
public:
  PyExecutable(const GraphRef &graph, const std::string &device,
               bool optimize, int threads, bool verbose, bool timing,
               const std::string &planCache, const std::string &libraryDir) {
    if (device != "cpu")
      throw Error("device '" + device +
                  "' is not supported: tsir compiles for 'cpu' only (the GPU "
                  "path is not built yet)");
    tsir::ExecutorOptions options;
    options.optimize = optimize;
    options.threads = threads;
    options.timing = timing;
    options.planCacheDirectory = planCache;
    options.planCacheMaxBytes = tsir::defaultPlanCacheMaxBytes();
    options.libraryDirectory = libraryDir;
    // The stages of a compile: every one on stderr when verbose, else
    // those of a compile longer than a second to the `tsir` logger (at
    // INFO, so silent unless the application turns it on).
    options.progressAfterSeconds = verbose ? 0 : 1;
    options.progress = [verbose](const std::string &line) {
      // Compiles run with the GIL released (see call()).
      py::gil_scoped_acquire acquire;
      if (verbose)
        py::module_::import("sys").attr("stderr").attr("write")(line + "\n");
      else
        py::module_::import("logging").attr("getLogger")("tsir").attr("info")(
            line);
    };
    executor = makeExecutor(graph, std::move(options));
  }

  /// Runs the graph; outputs flattened depth-first, as the executor gives
  /// them.
  py::list call(const py::sequence &arguments, bool bfloat16AsDLPack) {
    std::vector<tsir::rt::Value> inputs;
    for (py::handle argument : arguments)
      inputs.push_back(valueFromPython(argument));
    tsir::rt::StatusOr<std::vector<tsir::rt::Value>> outputs =
        tsir::rt::Status::error("not run");
    {
      // Compiling can take seconds: let other Python threads run. The
      // executor is not reentrant, so calls are serialized.
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mutex);
      outputs = executor->run(inputs);
    }
    if (!outputs.ok())
      throw Error(outputs.status().message());
    py::list result;
    for (const tsir::rt::Value &output : *outputs)
      result.append(valueToPython(output, bfloat16AsDLPack));
    return result;
  }

  std::vector<std::string> plans() {
    std::lock_guard<std::mutex> lock(mutex);
    return executor->cachedSpecs();
  }

  py::dict lastStats() {
    std::lock_guard<std::mutex> lock(mutex);
    return statsToDict(executor->lastStats());
  }

  std::vector<std::string> inputTypes() const { return executor->inputTypes(); }
  std::vector<std::string> inputNames() const { return executor->inputNames(); }

private:
  std::unique_ptr<tsir::GraphExecutor> executor;
  std::mutex mutex;
};

/// tsir.grad's native half: a GradientExecutor of the graph's MLIR.
class PyGradient {
public:
  PyGradient(const GraphRef &graph, const std::vector<std::string> &wrt,
             int threads, const std::string &planCache,
             const std::string &libraryDir) {
    tsir::ExecutorOptions options;
    options.threads = threads;
    options.planCacheDirectory = planCache;
    options.planCacheMaxBytes = tsir::defaultPlanCacheMaxBytes();
    options.libraryDirectory = libraryDir;
    const Weights &attached = graph->weights();
    options.weights.assign(attached.begin(), attached.end());
    auto made = tsir::GradientExecutor::fromSource(
        graph->toMLIR(/*debugInfo=*/true), graph->bufferName() + ".mlir", wrt,
        options);
    if (!made.ok())
      throw Error(made.status().message());
    executor = std::move(*made);
  }

  /// (outputs, gradients): outputs flattened as Executable.call gives them,
  /// one gradient per wrt name.
  py::tuple call(const py::sequence &arguments, const py::sequence &seeds,
                 bool bfloat16AsDLPack) {
    std::vector<tsir::rt::Value> inputs;
    for (py::handle argument : arguments)
      inputs.push_back(valueFromPython(argument));
    std::vector<tsir::rt::Tensor> gradOutputs;
    for (py::handle seed : seeds) {
      tsir::rt::Value value = valueFromPython(seed);
      if (!value.isTensor())
        throw Error("grad_outputs must be tensors, one per tensor output");
      gradOutputs.push_back(value.toTensor());
    }
    tsir::rt::StatusOr<tsir::GradientExecutor::Result> result =
        tsir::rt::Status::error("not run");
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mutex);
      result = executor->run(inputs, gradOutputs);
    }
    if (!result.ok())
      throw Error(result.status().message());
    lastSavedBytes = result->savedBytes;
    py::list outputs, gradients;
    for (const tsir::rt::Value &output : result->outputs)
      outputs.append(valueToPython(output, bfloat16AsDLPack));
    for (const tsir::rt::Tensor &gradient : result->gradients)
      gradients.append(
          valueToPython(tsir::rt::Value(gradient), bfloat16AsDLPack));
    return py::make_tuple(outputs, gradients);
  }

  std::vector<std::string> wrt() const { return executor->wrtNames(); }
  size_t savedBytes() const { return lastSavedBytes; }

  /// The last call's stats of the forward and of the backward.
  py::dict lastStats() {
    std::lock_guard<std::mutex> lock(mutex);
    py::dict result;
    if (tsir::GraphExecutor *forward = executor->forward())
      result["forward"] = statsToDict(forward->lastStats());
    if (tsir::GraphExecutor *backward = executor->backward())
      result["backward"] = statsToDict(backward->lastStats());
    return result;
  }

private:
  std::unique_ptr<tsir::GradientExecutor> executor;
  size_t lastSavedBytes = 0;
  std::mutex mutex;
};
} // namespace

void tsir::python::bindExecution(py::module_ &m) {
  m.def("_default_plan_cache", &tsir::defaultPlanCacheDirectory,
        "The plan cache's directory as the environment says (empty: none)");
  m.def(
      "load_ops",
      [](const std::string &path) {
        rt::Status loaded = rt::loadOperatorLibrary(path);
        if (!loaded.isOk())
          throw Error(loaded.message());
      },
      py::arg("path"),
      "Loads an operator library (a shared object that registers runtime "
      "kernels, as libtsir_torchvision_ops.so does torchvision's nms and "
      "roi_align): graphs compiled afterwards run its operators. Loading "
      "one again does nothing; a failed load raises tsir.Error.");
  py::class_<PyExecutable>(m, "_Executable")
      .def(py::init<const GraphRef &, const std::string &, bool, int, bool,
                    bool, const std::string &, const std::string &>(),
           py::arg("graph"), py::arg("device") = "cpu",
           py::arg("optimize") = true, py::arg("threads") = 0,
           py::arg("verbose") = false, py::arg("timing") = false,
           py::arg("plan_cache") = "", py::arg("library_dir") = "")
      .def("call", &PyExecutable::call, py::arg("arguments"),
           py::arg("bfloat16_as_dlpack") = false)
      .def_property_readonly("plans", &PyExecutable::plans)
      .def_property_readonly("last_stats", &PyExecutable::lastStats)
      .def_property_readonly("input_types", &PyExecutable::inputTypes)
      .def_property_readonly("input_names", &PyExecutable::inputNames);
  py::class_<PyGradient>(m, "_Gradient")
      .def(py::init<const GraphRef &, const std::vector<std::string> &, int,
                    const std::string &, const std::string &>(),
           py::arg("graph"), py::arg("wrt"), py::arg("threads") = 0,
           py::arg("plan_cache") = "", py::arg("library_dir") = "")
      .def("call", &PyGradient::call, py::arg("arguments"),
           py::arg("grad_outputs"), py::arg("bfloat16_as_dlpack") = false)
      .def_property_readonly("wrt", &PyGradient::wrt)
      .def_property_readonly("saved_bytes", &PyGradient::savedBytes)
      .def_property_readonly("last_stats", &PyGradient::lastStats);
}
