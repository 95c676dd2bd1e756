//===- AheadOfTime.cpp - tsir.compile_model and tsir.load_model -----------===//
//
// Ahead-of-time compilation from Python: what `tsir-compile` does, with the
// graph and its weights already in memory (GraphExecutor::compileModel),
// and loading the model.so it writes through the runtime's Model API
// (tsir-runtime/Model.h), which needs no MLIR. Arguments and results cross
// as the JIT's do (Tensors.cpp); the pure-Python half (tsir/_aot.py) finds
// the model ABI archive and wraps both.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "tsir-runtime/Model.h"
#include "tsir-runtime/Storage.h"

#include <pybind11/stl.h>

using namespace tsir::python;
namespace rt = tsir::rt;

namespace {
/// What compile_model passes down, as tsir-compile's options spell it.
struct CompileRequest {
  std::string output;
  /// `Float(2, 3), int`; empty when example inputs give the spec.
  std::string spec;
  py::object exampleInputs;
  std::string device;
  bool optimize = true;
  /// Non-empty: the weights stay in this safetensors file, which the
  /// model maps when it loads, instead of going into the library.
  std::string externalWeights;
  std::string targetCpu;
  std::string linker;
  /// Where libTsirModelABI.a and libTsirRuntime.so are.
  std::string libraryDir;
};

/// The spec of the example inputs, checked against the graph as a call
/// would check them.
std::string specOfExamples(const tsir::GraphExecutor &executor,
                           const py::sequence &examples) {
  std::vector<rt::Value> values;
  for (py::handle example : examples)
    values.push_back(valueFromPython(example));
  rt::StatusOr<std::string> spec = executor.specOf(values);
  if (!spec.ok())
    throw Error(spec.status().message());
  return *spec;
}

/// Compiles `graph` into `request.output`; returns the spec it compiled.
std::string compileModel(const GraphRef &graph, const CompileRequest &request) {
  tsir::ExecutorOptions executorOptions;
  executorOptions.optimize = request.optimize;
  executorOptions.weightsPath = request.externalWeights;
  std::unique_ptr<tsir::GraphExecutor> executor =
      makeExecutor(graph, std::move(executorOptions));

  tsir::ModelCompileOptions options;
  options.spec = request.exampleInputs.is_none()
                     ? request.spec
                     : specOfExamples(*executor, request.exampleInputs);
  options.device = request.device;
  options.output = request.output;
  options.embedWeights = request.externalWeights.empty();
  options.targetCpu = request.targetCpu;
  options.linker = request.linker;
  options.abiArchive = tsir::modelAbiArchive(request.libraryDir);
  options.runtimeLibraryDir = request.libraryDir;
  rt::Status compiled = rt::Status::ok();
  {
    // Compiling and linking take seconds.
    py::gil_scoped_release release;
    compiled = executor->compileModel(options);
  }
  if (!compiled.isOk())
    throw Error(compiled.message());
  return options.spec;
}

using ModelRef = std::shared_ptr<const rt::Model>;

/// A loaded model.so.
class PyModel {
public:
  PyModel(const std::string &path, const std::string &weightsPath) {
    rt::StatusOr<std::unique_ptr<rt::Model>> loaded =
        rt::Model::load(path, weightsPath);
    if (!loaded.ok())
      throw Error(loaded.status().message());
    model = std::move(*loaded);
  }

  /// Runs the model; outputs flattened depth-first, as compiled.
  py::list call(const py::sequence &arguments, bool bfloat16AsDLPack) {
    std::vector<rt::Value> inputs;
    for (py::handle argument : arguments)
      inputs.push_back(valueFromPython(argument));
    rt::StatusOr<std::vector<rt::Value>> outputs =
        rt::Status::error("not run");
    {
      // The model's functions are thread-safe (tsir_model.h): calls from
      // several Python threads run at once.
      py::gil_scoped_release release;
      outputs = model->run(inputs);
    }
    if (!outputs.ok())
      throw Error(outputs.status().message());
    py::list result;
    for (const rt::Value &output : *outputs)
      result.append(valueToPython(output, bfloat16AsDLPack));
    return result;
  }

  std::vector<std::string> inputNames() const {
    std::vector<std::string> names;
    for (const rt::ModelInput &input : model->inputs())
      names.push_back(input.name);
    return names;
  }

  std::vector<std::string> inputTypes() const {
    std::vector<std::string> types;
    for (const rt::ModelInput &input : model->inputs())
      types.push_back(input.type);
    return types;
  }

  const rt::Model &get() const { return *model; }

private:
  ModelRef model;
};
} // namespace

void tsir::python::bindAheadOfTime(py::module_ &m) {
  m.def(
      "_compile_model",
      [](const GraphRef &graph, const std::string &output,
         const std::string &spec, const py::object &exampleInputs,
         const std::string &device, bool optimize,
         const std::string &externalWeights, const std::string &targetCpu,
         const std::string &linker, const std::string &libraryDir) {
        return compileModel(graph, {output, spec, exampleInputs, device,
                                    optimize, externalWeights, targetCpu,
                                    linker, libraryDir});
      },
      py::arg("graph"), py::arg("output"), py::arg("spec"),
      py::arg("example_inputs"), py::arg("device"), py::arg("optimize"),
      py::arg("external_weights"), py::arg("target_cpu"), py::arg("linker"),
      py::arg("library_dir"));

  py::class_<PyModel>(m, "_Model")
      .def(py::init<const std::string &, const std::string &>(),
           py::arg("path"), py::arg("weights") = "")
      .def("call", &PyModel::call, py::arg("arguments"),
           py::arg("bfloat16_as_dlpack") = false)
      .def_property_readonly("input_names", &PyModel::inputNames)
      .def_property_readonly("input_types", &PyModel::inputTypes)
      .def_property_readonly("num_outputs",
                             [](const PyModel &m) { return m.get().numOutputs(); })
      .def_property_readonly("device",
                             [](const PyModel &m) { return m.get().device(); })
      .def_property_readonly("spec",
                             [](const PyModel &m) { return m.get().spec(); })
      .def_property_readonly(
          "signature", [](const PyModel &m) { return m.get().signature(); });
}
