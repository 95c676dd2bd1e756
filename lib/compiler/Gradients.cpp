//===- Gradients.cpp - A graph's outputs and its gradients ----------------===//
//
// GradientExecutor (see tsir/Compiler/Gradients.h). The graph is read and
// made functional (prim-inline-subgraphs, prim-constant-propagation,
// prim-remove-mutation, prim-dce), then
// tsir-differentiate splits it into `@graph` (the forward, with the
// captured values as extra results) and `@graph_backward`. Each becomes a
// module of its own, printed as MLIR with its locations, so that a
// GraphExecutor runs it like any graph: specialized per input spec,
// compiled whole or in segments, kept in the plan cache. The backward's
// inputs are the forward's saved buffers themselves.
//
//===----------------------------------------------------------------------===//

#include "tsir/Compiler/Gradients.h"

#include "tsir/Compiler/Diagnostics.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Importer/Importer.h"
#include "tsir/InitAll.h"
#include "tsir/Transforms/Passes.h"

#include "tsir-runtime/Safetensors.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace tsir;

struct tsir::GradientExecutor::Impl {
  std::unique_ptr<GraphExecutor> forward, backward;
  std::vector<std::string> wrtNames;
  /// How many of the forward's results, at the end, the backward saves.
  size_t numCaptured = 0;
  /// How many output gradients the backward takes after them.
  size_t numGradOutputs = 0;
};

tsir::GradientExecutor::GradientExecutor(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
tsir::GradientExecutor::~GradientExecutor() = default;

/// `function` alone in a module, renamed @graph, printed as MLIR with its
/// locations (the value names and the graph's lines that messages cite).
static std::string printAsGraph(func::FuncOp function) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(function.getLoc());
  auto copy = cast<func::FuncOp>(function->clone());
  copy.setSymName("graph");
  copy->removeAttr(prim::kGradientAttrName);
  module->push_back(copy);
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo(true, false));
  return text;
}

rt::StatusOr<std::unique_ptr<GradientExecutor>>
tsir::GradientExecutor::fromFile(const std::string &path,
                                 const std::vector<std::string> &wrt,
                                 const ExecutorOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return rt::Status::error("cannot read " + path + ": " +
                             buffer.getError().message());
  return fromSource((*buffer)->getBuffer().str(), path, wrt, options);
}

rt::StatusOr<std::unique_ptr<GradientExecutor>>
tsir::GradientExecutor::fromSource(const std::string &text,
                                   const std::string &bufferName,
                                   const std::vector<std::string> &wrt,
                                   const ExecutorOptions &options) {
  // The weights once, for both graphs: in memory, by name.
  ExecutorOptions graphOptions = options;
  if (!options.weightsPath.empty()) {
    auto weights = rt::readSafetensors(options.weightsPath);
    if (!weights.ok())
      return weights.status();
    std::vector<std::pair<std::string, rt::Tensor>> named(weights->begin(),
                                                          weights->end());
    for (auto &entry : options.weights)
      named.push_back(entry);
    graphOptions.weights = std::move(named);
    graphOptions.weightsPath.clear();
  }

  MLIRContext context(MLIRContext::Threading::DISABLED);
  DialectRegistry registry;
  registry.insert<func::FuncDialect>();
  tsir::registerAllDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  DiagnosticCollector diagnostics(&context);

  OwningOpRef<ModuleOp> module;
  if (llvm::StringRef(bufferName).ends_with(".mlir")) {
    module = parseSourceString<ModuleOp>(text, &context, bufferName);
  } else {
    ImportOptions importOptions;
    for (const auto &entry : graphOptions.weights)
      importOptions.runtimeWeightNames.push_back(entry.first);
    module = importTorchScript(text, bufferName, &context, importOptions);
  }
  if (!module)
    return rt::Status::error(diagnostics.take("cannot read " + bufferName));

  PassManager pm(&context);
  // Functional, with TorchScript's constant branches (`if inplace:` in
  // torch.nn.functional) folded away, before differentiating.
  pm.addNestedPass<func::FuncOp>(createPrimInlineSubgraphsPass());
  pm.addNestedPass<func::FuncOp>(createPrimConstantPropagationPass());
  pm.addNestedPass<func::FuncOp>(createPrimRemoveMutationPass());
  pm.addNestedPass<func::FuncOp>(createPrimDCEPass());
  TsirDifferentiatePassOptions differentiate;
  differentiate.wrt.assign(wrt.begin(), wrt.end());
  pm.addPass(createTsirDifferentiatePass(differentiate));
  if (failed(pm.run(*module)))
    return rt::Status::error(
        diagnostics.take("cannot differentiate " + bufferName));

  auto graph = module->lookupSymbol<func::FuncOp>("graph");
  auto gradient =
      graph->getAttrOfType<prim::GradientAttr>(prim::kGradientAttrName);
  auto backwardGraph =
      module->lookupSymbol<func::FuncOp>(gradient.getBackward());
  auto impl = std::make_unique<Impl>();
  for (Attribute name : gradient.getWrt())
    impl->wrtNames.push_back(cast<StringAttr>(name).str());
  impl->numCaptured = gradient.getCaptured();
  impl->numGradOutputs = gradient.getGradOutputs();

  auto forward = GraphExecutor::fromSource(
      printAsGraph(graph), bufferName + ".forward.mlir", graphOptions);
  if (!forward.ok())
    return forward.status();
  auto backward = GraphExecutor::fromSource(
      printAsGraph(backwardGraph), bufferName + ".backward.mlir", graphOptions);
  if (!backward.ok())
    return backward.status();
  impl->forward = std::move(*forward);
  impl->backward = std::move(*backward);
  return std::unique_ptr<GradientExecutor>(
      new GradientExecutor(std::move(impl)));
}

const std::vector<std::string> &tsir::GradientExecutor::wrtNames() const {
  return impl->wrtNames;
}

std::vector<std::string> tsir::GradientExecutor::inputTypes() const {
  return impl->forward->inputTypes();
}

GraphExecutor &tsir::GradientExecutor::forward() { return *impl->forward; }
GraphExecutor &tsir::GradientExecutor::backward() { return *impl->backward; }

/// `torch.Size([2, 3])`, as torch's messages print sizes.
static std::string torchSize(const std::vector<int64_t> &sizes) {
  std::string text = "torch.Size([";
  for (size_t i = 0; i < sizes.size(); ++i)
    text += (i ? ", " : "") + std::to_string(sizes[i]);
  return text + "])";
}

/// The tensors among `values`, tuples flattened, in order.
static void collectTensors(const rt::Value &value,
                           std::vector<rt::Tensor> &tensors) {
  if (value.isTensor())
    tensors.push_back(value.toTensor());
  else if (value.isTuple())
    for (const rt::Value &element : value.toTuple())
      collectTensors(element, tensors);
}

rt::StatusOr<GradientExecutor::Result>
tsir::GradientExecutor::run(const std::vector<rt::Value> &inputs,
                            const std::vector<rt::Tensor> &gradOutputs) {
  rt::StatusOr<std::vector<rt::Value>> forwardValues =
      impl->forward->run(inputs);
  if (!forwardValues.ok())
    return forwardValues.status();
  std::vector<rt::Value> &values = *forwardValues;
  if (values.size() < impl->numCaptured)
    return rt::Status::error("the forward graph returned fewer values than "
                             "its backward saves");
  Result result;
  size_t numOutputs = values.size() - impl->numCaptured;
  result.outputs.assign(values.begin(), values.begin() + numOutputs);

  std::vector<rt::Tensor> outputTensors;
  for (const rt::Value &output : result.outputs)
    collectTensors(output, outputTensors);
  if (outputTensors.size() != impl->numGradOutputs)
    return rt::Status::error(
        "the graph returned " + std::to_string(outputTensors.size()) +
        " tensors where its backward takes " +
        std::to_string(impl->numGradOutputs) + " output gradients");

  // The backward's inputs: the saved values, then the output gradients.
  std::vector<rt::Value> backwardInputs(values.begin() + numOutputs,
                                        values.end());
  for (const rt::Value &saved : backwardInputs)
    if (saved.isTensor())
      result.savedBytes += saved.toTensor().nbytes();
  if (gradOutputs.empty()) {
    for (const rt::Tensor &output : outputTensors) {
      if (output.numel() != 1)
        return rt::Status::error(
            "grad can be implicitly created only for scalar outputs (output "
            "of " +
            torchSize(output.sizes()) + "); give one gradient per output");
      rt::Tensor ones = rt::Tensor::empty(output.sizes(), output.dtype());
      ones.fill(1.0);
      backwardInputs.push_back(ones);
    }
  } else {
    if (gradOutputs.size() != outputTensors.size())
      return rt::Status::error(
          "the graph has " + std::to_string(outputTensors.size()) +
          " tensor outputs, but " + std::to_string(gradOutputs.size()) +
          " output gradients were given");
    for (size_t i = 0; i < gradOutputs.size(); ++i) {
      if (gradOutputs[i].sizes() != outputTensors[i].sizes())
        return rt::Status::error(
            "Mismatch in shape: grad_output[" + std::to_string(i) +
            "] has a shape of " + torchSize(gradOutputs[i].sizes()) +
            " and output[" + std::to_string(i) + "] has a shape of " +
            torchSize(outputTensors[i].sizes()) + ".");
      backwardInputs.push_back(gradOutputs[i]);
    }
  }

  rt::StatusOr<std::vector<rt::Value>> gradients =
      impl->backward->run(backwardInputs);
  if (!gradients.ok())
    return gradients.status();
  for (rt::Value &gradient : *gradients)
    result.gradients.push_back(gradient.toTensor());
  return result;
}
