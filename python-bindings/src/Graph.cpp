//===- Graph.cpp - tsir.Graph: import, passes, export ---------------------===//
//
// The graph object: importing TorchScript text or MLIR with its weights,
// running tsir's pipelines and any registered pass on it, and printing it
// back as TorchScript or MLIR. Errors become tsir.Error with MLIR's
// diagnostics formatted as the executor formats them (`graph.txt:12:7:
// error: ...`).
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "tsir/Compiler/Diagnostics.h"

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Exporter/Exporter.h"
#include "tsir/Importer/Importer.h"
#include "tsir/InitAll.h"

#include "tsir-runtime/Safetensors.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/stl.h>

#include <algorithm>

using namespace mlir;
using namespace tsir::python;
namespace rt = tsir::rt;
namespace prim = tsir::prim;

/// Every dialect and extension, as the executor registers them, so that
/// any pass or pipeline (lowering included) can run on a graph and MLIR
/// files of any dialect parse. Registering is cheap; dialects load lazily.
static const DialectRegistry &fullRegistry() {
  static const DialectRegistry *registry = [] {
    auto *result = new DialectRegistry();
    mlir::registerAllDialects(*result);
    mlir::registerAllExtensions(*result);
    tsir::registerAllDialects(*result);
    return result;
  }();
  return *registry;
}

/// `<Tensor>` constants must have a weight of their dtype and sizes when
/// weights are given, so that a wrong weights file is reported at import,
/// at the constant's line, not when the graph first runs.
static LogicalResult checkWeights(func::FuncOp func, const Weights &weights) {
  llvm::StringMap<const rt::Tensor *> byName;
  for (const auto &[name, tensor] : weights)
    byName[name] = &tensor;
  WalkResult result = func.walk([&](prim::ConstantOp constant) {
    auto ref = dyn_cast<prim::TensorRefAttr>(constant.getValue());
    if (!ref)
      return WalkResult::advance();
    auto found = byName.find(ref.getName());
    if (found == byName.end()) {
      constant.emitError("weight '")
          << ref.getName() << "' is not among the weights given";
      return WalkResult::interrupt();
    }
    const rt::Tensor &weight = *found->second;
    auto type = dyn_cast<prim::TensorType>(constant.getType());
    if (!type)
      return WalkResult::advance();
    bool fits = true;
    if (Type dtype = type.getDtype())
      fits =
          prim::torchNameOfDtype(dtype) == rt::dtypeTorchName(weight.dtype());
    if (type.getHasSizes()) {
      ArrayRef<int64_t> sizes = type.getSizes();
      fits &= static_cast<int64_t>(sizes.size()) == weight.dim();
      for (size_t i = 0; fits && i < sizes.size(); ++i)
        fits = sizes[i] == prim::TensorType::kUnknownSize ||
               sizes[i] == weight.size(i);
    }
    if (!fits) {
      constant.emitError("weight '")
          << ref.getName() << "' is " << weight.toString()
          << ", which does not fit the constant's type";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

std::shared_ptr<PyGraph> PyGraph::import(const std::string &text,
                                         const std::string &bufferName,
                                         bool isMLIR, Weights weights) {
  std::shared_ptr<PyGraph> graph(new PyGraph());
  // One graph is worked on by one thread at a time; a thread pool per
  // graph would only cost threads.
  graph->ctx = std::make_unique<MLIRContext>(fullRegistry(),
                                             MLIRContext::Threading::DISABLED);
  graph->name = bufferName;
  graph->weightList = std::move(weights);
  tsir::DiagnosticCollector diagnostics(graph->ctx.get());
  if (isMLIR) {
    graph->moduleOp =
        parseSourceString<ModuleOp>(text, graph->ctx.get(), bufferName);
  } else {
    // Weights stay outside the module (the executor binds them by name),
    // so the module prints small and an MLIR round trip stays cheap.
    tsir::ImportOptions options;
    for (const auto &entry : graph->weightList)
      options.runtimeWeightNames.push_back(entry.first);
    graph->moduleOp =
        tsir::importTorchScript(text, bufferName, graph->ctx.get(), options);
  }
  if (!graph->moduleOp)
    throw Error(diagnostics.take("cannot read " + bufferName));
  auto body = graph->moduleOp.get().lookupSymbol<func::FuncOp>("graph");
  if (!body || body.isExternal())
    throw Error(bufferName + ": no func.func @graph in the module");
  if (!graph->weightList.empty() &&
      failed(checkWeights(graph->func(), graph->weightList)))
    throw Error(diagnostics.take("the weights do not fit the graph"));
  return graph;
}

func::FuncOp PyGraph::func() const {
  auto graph = moduleOp.get().lookupSymbol<func::FuncOp>("graph");
  // Lowering to LLVM replaces the function: nothing is left to walk.
  if (!graph || graph.isExternal())
    throw Error("the module holds no func.func @graph with a body");
  return graph;
}

/// The top-level elements of a textual pipeline: `a{x=1},b(c,d)` is `a{x=1}`
/// and `b(c,d)`.
static SmallVector<StringRef> splitPipeline(StringRef text) {
  SmallVector<StringRef> elements;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      quote = c == quote ? 0 : quote;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '{') {
      ++depth;
    } else if (c == ')' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      elements.push_back(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  elements.push_back(text.drop_front(start).trim());
  return elements;
}

/// Whether `element` parses as a pipeline anchored on `anchor`; the parse
/// error otherwise.
static std::optional<std::string> tryParse(StringRef element,
                                           StringRef anchor) {
  OpPassManager trial(anchor, OpPassManager::Nesting::Implicit);
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (succeeded(parsePassPipeline(element, trial, os)))
    return std::nullopt;
  return StringRef(errors).trim().str();
}

/// The pipeline anchored on the module. MLIR's textual pipelines do not
/// nest implicitly, so an element that only runs on functions (every
/// `prim-*` pass) is wrapped in `func.func(...)`, as tsir-opt's `--prim-cse`
/// is nested on each function.
static std::string anchorPipeline(StringRef text) {
  std::string anchored;
  for (StringRef element : splitPipeline(text)) {
    std::optional<std::string> moduleError =
        tryParse(element, ModuleOp::getOperationName());
    std::string spelled = element.str();
    if (moduleError) {
      std::optional<std::string> funcError =
          tryParse(element, func::FuncOp::getOperationName());
      if (funcError)
        throw Error("invalid pass pipeline '" + text.str() + "': " +
                    (StringRef(*moduleError).contains("intend to nest")
                         ? *funcError
                         : *moduleError));
      spelled = "func.func(" + spelled + ")";
    }
    anchored += (anchored.empty() ? "" : ",") + spelled;
  }
  return anchored;
}

void PyGraph::runPipeline(const std::string &pipeline) {
  StringRef text = StringRef(pipeline).trim();
  // `builtin.module(...)` anchors the pipeline where the graph already is.
  if (text.consume_front("builtin.module(")) {
    if (!text.consume_back(")"))
      throw Error("malformed pass pipeline '" + pipeline + "'");
  }
  if (text.empty())
    throw Error("empty pass pipeline");
  PassManager pm(ctx.get(), ModuleOp::getOperationName());
  std::string parseErrors;
  llvm::raw_string_ostream errorStream(parseErrors);
  if (failed(parsePassPipeline(anchorPipeline(text), pm, errorStream)))
    throw Error("invalid pass pipeline '" + pipeline +
                "': " + StringRef(parseErrors).trim().str());

  tsir::DiagnosticCollector diagnostics(ctx.get());
  OwningOpRef<ModuleOp> work(moduleOp->clone());
  if (failed(pm.run(*work)))
    throw Error(diagnostics.take("pass pipeline '" + pipeline + "' failed"));
  moduleOp = std::move(work);
  ++gen;
  names.reset();
}

std::string PyGraph::toTorchScript() const {
  tsir::DiagnosticCollector diagnostics(ctx.get());
  std::string text;
  llvm::raw_string_ostream os(text);
  if (failed(tsir::exportTorchScript(module(), os)))
    throw Error(diagnostics.take("cannot export the graph"));
  return text;
}

std::string PyGraph::toMLIR(bool debugInfo) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (debugInfo)
    flags.enableDebugInfo();
  module()->print(os, flags);
  return text;
}

std::shared_ptr<PyGraph> PyGraph::copy() const {
  return import(toMLIR(/*debugInfo=*/true), name + ".mlir", /*isMLIR=*/true,
                weightList);
}

const std::string &PyGraph::valueName(Value value) {
  if (!names)
    names = tsir::getValueNames(func());
  return (*names)[value];
}

void PyHandle::checkFresh() const {
  if (graph->generation() != generation)
    throw Error("this handle was taken before the graph was transformed "
                "(optimize or run_pass); walk the graph again");
}

//===----------------------------------------------------------------------===//
// Python
//===----------------------------------------------------------------------===//

/// `tsir-optimize{unroll=false fuse=true}` from Python keywords
/// (`inline_subgraphs=False` is the option `inline-subgraphs`).
static std::string optimizePipeline(const py::kwargs &options) {
  std::string text = "tsir-optimize";
  std::string list;
  for (auto [key, value] : options) {
    std::string name = py::str(key);
    std::replace(name.begin(), name.end(), '_', '-');
    std::string spelled;
    if (py::isinstance<py::bool_>(value))
      spelled = value.cast<bool>() ? "true" : "false";
    else
      spelled = py::str(value);
    list += (list.empty() ? "" : " ") + name + "=" + spelled;
  }
  if (!list.empty())
    text += "{" + list + "}";
  return text;
}

static Weights weightsFromPython(const py::object &weights) {
  Weights result;
  if (weights.is_none())
    return result;
  if (py::isinstance<py::str>(weights)) {
    std::string path = weights.cast<std::string>();
    auto read = rt::readSafetensors(path);
    if (!read.ok())
      throw Error(read.status().message());
    return std::move(*read);
  }
  if (!py::isinstance<py::dict>(weights))
    throw py::type_error("weights must be a safetensors path or a dict of "
                         "name -> array");
  for (auto [key, value] : weights.cast<py::dict>()) {
    if (!py::isinstance<py::str>(key))
      throw py::type_error("weight names must be str");
    result.emplace_back(key.cast<std::string>(), tensorFromPython(value));
  }
  return result;
}

/// A weight the module holds itself (`dense_resource`, as MLIR that
/// tsir-translate imported with its weights carries them) as a tensor of
/// its own; an undefined tensor if its data is not there.
static rt::Tensor tensorOfResource(DenseResourceElementsAttr resource) {
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  auto shaped = cast<ShapedType>(resource.getType());
  std::optional<rt::DType> dtype = rt::dtypeFromTorchName(
      prim::torchNameOfDtype(shaped.getElementType()).str());
  if (!blob || !dtype)
    return rt::Tensor();
  std::vector<int64_t> sizes(shaped.getShape().begin(),
                             shaped.getShape().end());
  rt::Tensor tensor = rt::Tensor::fromBlob(blob->getData().data(), sizes,
                                           *dtype);
  if (tensor.nbytes() != blob->getData().size())
    return rt::Tensor();
  return tensor;
}

/// What a safetensors file for the graph's text holds: the attached
/// weights by their names, and every tensor constant whose data is known
/// by the name `to_torchscript()` prints for it, so that the exported text
/// finds its weights even where a pass renamed a constant or the weights
/// live in the module.
static Weights weightsToSave(PyGraph &graph) {
  Weights result = graph.weights();
  llvm::StringMap<const rt::Tensor *> attached;
  for (const auto &[name, tensor] : graph.weights())
    attached[name] = &tensor;
  llvm::StringSet<> saved;
  for (const auto &entry : result)
    saved.insert(entry.first);
  graph.func().walk([&](prim::ConstantOp constant) {
    rt::Tensor tensor;
    if (auto ref = dyn_cast<prim::TensorRefAttr>(constant.getValue())) {
      auto found = attached.find(ref.getName());
      if (found != attached.end())
        tensor = *found->second;
    } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(
                   constant.getValue())) {
      tensor = tensorOfResource(resource);
    }
    const std::string &name = graph.valueName(constant.getResult());
    if (tensor.defined() && saved.insert(name).second)
      result.emplace_back(name, tensor);
  });
  return result;
}

void tsir::python::bindGraph(py::module_ &m) {
  m.def(
      "_write_safetensors",
      [](const std::string &path, const py::object &weights) {
        Weights tensors;
        if (py::isinstance<PyGraph>(weights)) {
          tensors = weightsToSave(*weights.cast<GraphRef>());
        } else {
          for (auto [key, value] : weights.cast<py::dict>()) {
            std::string name = py::str(key);
            try {
              tensors.emplace_back(name, tensorFromPython(value));
            } catch (const py::type_error &error) {
              throw Error("cannot save weight '" + name + "': " +
                          error.what());
            }
          }
        }
        if (tensors.empty())
          return std::vector<std::string>();
        rt::Status written = rt::writeSafetensors(path, tensors);
        if (!written.isOk())
          throw Error(written.message());
        std::vector<std::string> names;
        for (const auto &entry : tensors)
          names.push_back(entry.first);
        return names;
      },
      py::arg("path"), py::arg("weights"),
      "Writes a graph's weights (see weightsToSave), or a dict of name -> "
      "array or DLPack capsule, as safetensors; returns the names written, "
      "none (and no file) if there is nothing to write.");

  m.def(
      "_import_graph",
      [](const std::string &text, const std::string &bufferName, bool isMLIR,
         const py::object &weights) {
        return PyGraph::import(text, bufferName, isMLIR,
                               weightsFromPython(weights));
      },
      py::arg("text"), py::arg("buffer_name"), py::arg("is_mlir"),
      py::arg("weights") = py::none());

  // dynamic_attr: from_torch records the forward's argument defaults on
  // the graph it returns (tsir/_torch.py).
  py::class_<PyGraph, GraphRef>(m, "Graph",
                                "A TorchScript graph held as prim/aten MLIR.",
                                py::dynamic_attr())
      .def(
          "optimize",
          [](PyGraph &graph, const py::kwargs &options) {
            graph.runPipeline(optimizePipeline(options));
          },
          "Runs tsir-optimize (TorchScript's optimizer) in place. Keywords "
          "are the pipeline's options: unroll, fuse, inline_subgraphs.")
      .def("run_pass", &PyGraph::runPipeline, py::arg("pipeline"),
           "Runs a registered pass or pipeline, or a textual pipeline, in "
           "place; the graph is unchanged if it fails.")
      .def("to_torchscript", &PyGraph::toTorchScript,
           "The graph as TorchScript text, as torch 1.13 prints it.")
      .def("to_mlir", &PyGraph::toMLIR, py::arg("debug_info") = false,
           "The module as MLIR; debug_info adds the locations.")
      .def(
          "to_dot", [](const GraphRef &graph) { return graphToDot(graph); },
          "The graph as Graphviz dot text.")
      .def("copy", &PyGraph::copy, "An independent copy of the graph.")
      .def("__str__", [](const PyGraph &graph) { return graph.toMLIR(false); })
      .def("__repr__",
           [](const PyGraph &graph) {
             return "<tsir.Graph " + graph.bufferName() + ">";
           })
      .def_property_readonly("name", &PyGraph::bufferName,
                             "The name the graph text was read under.")
      .def_property_readonly(
          "weights",
          [](const PyGraph &graph) {
            py::dict result;
            for (const auto &[name, tensor] : graph.weights())
              result[py::str(name)] = arrayFromTensor(tensor);
            return result;
          },
          "The attached weights, name -> numpy array (no copies).");
}
