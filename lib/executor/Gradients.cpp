//===- Gradients.cpp - A graph's outputs and its gradients ----------------===//
//
// GradientExecutor (see tsir/Compiler/Gradients.h). The graph is read and
// made functional (prim-inline-subgraphs, prim-constant-propagation,
// prim-lower-tuples, prim-remove-mutation, tsir-functionalize-view-writes,
// prim-dce), then
// tsir-differentiate splits it into `@graph` (the forward, with the
// captured values as extra results) and `@graph_backward`. Each becomes a
// module of its own, printed as MLIR with its locations, so that a
// GraphExecutor runs it like any graph: specialized per input spec,
// compiled whole or in segments, kept in the plan cache. The backward's
// inputs are the forward's saved buffers themselves.
//
//===----------------------------------------------------------------------===//

#include "tsir/Executor/Gradients.h"

#include "tsir/Compiler/Diagnostics.h"
#include "tsir/Transforms/Decompositions.h"
#include "tsir/Pipelines/Pipelines.h"
#include "tsir/Conversion/Passes.h"
#include "tsir/Dialect/Prim/NodeLocation.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Importer/Importer.h"
#include "tsir/InitAll.h"
#include "tsir/Transforms/Passes.h"

#include "tsir-runtime/Safetensors.h"

#include "compiler/Signature.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>

using namespace mlir;
using namespace tsir;

namespace {
/// A forward and a backward graph, differentiated from one graph, each
/// run by a GraphExecutor of its own.
struct Differentiated {
  std::unique_ptr<GraphExecutor> forward, backward;
  std::vector<std::string> wrtNames;
  /// How many of the forward's results, at the end, the backward saves.
  size_t numCaptured = 0;
  /// How many output gradients the backward takes after them.
  size_t numGradOutputs = 0;
};
} // namespace

struct tsir::GradientExecutor::Impl {
  std::unique_ptr<MLIRContext> context;
  /// The graph made functional, not yet differentiated.
  OwningOpRef<ModuleOp> functional;
  std::unique_ptr<GraphInputs> graphInputs;
  std::vector<std::string> wrt;
  ExecutorOptions graphOptions;
  std::string bufferName;
  /// The graph differentiated as it is, for every spec, when it can be.
  std::unique_ptr<Differentiated> generic;
  /// Otherwise (control flow that folds only once the inputs' sizes are
  /// known), one per caller spec, differentiated once specialized.
  std::map<std::string, std::unique_ptr<Differentiated>> bySpec;
  /// Why the graph as it is did not differentiate.
  std::string genericError;
  /// What the last call ran.
  Differentiated *last = nullptr;

  rt::StatusOr<Differentiated *> forInputs(const std::vector<rt::Value> &inputs);
};

tsir::GradientExecutor::GradientExecutor(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
tsir::GradientExecutor::~GradientExecutor() = default;

/// `module` printed as MLIR with its locations (the value names and the
/// graph's lines that messages cite), as a GraphExecutor reads it.
static std::string printWithLocations(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo(true, false));
  return text;
}

/// `function` alone in a module, renamed @graph, printed with its
/// locations.
static std::string printAsGraph(func::FuncOp function) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(function.getLoc());
  auto copy = cast<func::FuncOp>(function->clone());
  copy.setSymName("graph");
  copy->removeAttr(prim::kGradientAttrName);
  module->push_back(copy);
  return printWithLocations(*module);
}

/// `forward` and `backward` (tsir-differentiate's pair) as one function
/// @graph, printed as printAsGraph prints: it takes the forward's
/// arguments, then the backward's output gradients, runs the forward's
/// ops and then the backward's on the values the forward captured, and
/// returns the forward's outputs, then the gradients.
static std::string printJoined(func::FuncOp forward, func::FuncOp backward,
                               unsigned numCaptured) {
  OpBuilder builder(forward.getContext());
  OwningOpRef<ModuleOp> module = ModuleOp::create(forward.getLoc());
  Block &forwardBody = forward.front(), &backwardBody = backward.front();
  auto forwardReturn = cast<func::ReturnOp>(forwardBody.getTerminator());
  auto backwardReturn = cast<func::ReturnOp>(backwardBody.getTerminator());
  unsigned numOutputs = forwardReturn.getNumOperands() - numCaptured;

  SmallVector<Type> inputTypes(forward.getArgumentTypes());
  SmallVector<Location> inputLocs;
  for (BlockArgument argument : forwardBody.getArguments())
    inputLocs.push_back(argument.getLoc());
  for (BlockArgument argument : backwardBody.getArguments().drop_front(
           numCaptured)) {
    inputTypes.push_back(argument.getType());
    inputLocs.push_back(argument.getLoc());
  }
  SmallVector<Type> resultTypes(
      TypeRange(forwardReturn.getOperands().take_front(numOutputs)));
  llvm::append_range(resultTypes, backwardReturn.getOperandTypes());

  builder.setInsertionPointToEnd(module->getBody());
  auto joined = func::FuncOp::create(
      builder, forward.getLoc(), "graph",
      builder.getFunctionType(inputTypes, resultTypes));
  Block *body = builder.createBlock(&joined.getBody(), {}, inputTypes,
                                    inputLocs);
  IRMapping mapping;
  for (auto [from, to] :
       llvm::zip(forwardBody.getArguments(), body->getArguments()))
    mapping.map(from, to);
  for (Operation &op : forwardBody.without_terminator())
    builder.clone(op, mapping);
  SmallVector<Value> results;
  for (Value output : forwardReturn.getOperands().take_front(numOutputs))
    results.push_back(mapping.lookupOrDefault(output));
  for (auto [argument, captured] :
       llvm::zip(backwardBody.getArguments().take_front(numCaptured),
                 forwardReturn.getOperands().drop_front(numOutputs)))
    mapping.map(argument, mapping.lookupOrDefault(captured));
  for (auto [from, to] :
       llvm::zip(backwardBody.getArguments().drop_front(numCaptured),
                 body->getArguments().drop_front(forward.getNumArguments())))
    mapping.map(from, to);
  for (Operation &op : backwardBody.without_terminator())
    builder.clone(op, mapping);
  for (Value gradient : backwardReturn.getOperands())
    results.push_back(mapping.lookupOrDefault(gradient));
  func::ReturnOp::create(builder, backwardReturn.getLoc(), results);
  return printWithLocations(*module);
}

/// Each tensor constant that is one of `weights` (torch prints small ones
/// inline, `from_torch`'s biases) by reference, as the larger ones are:
/// their values may change between calls (an optimizer's step), and two
/// equal ones must not be pooled into one while the graph is specialized.
static void referToWeights(func::FuncOp graph,
                           const std::vector<std::pair<std::string, rt::Tensor>>
                               &weights) {
  llvm::StringSet<> names;
  for (const auto &weight : weights)
    names.insert(weight.first);
  graph.walk([&](prim::ConstantOp constant) {
    if (!isa<prim::TensorType>(constant.getType()) ||
        !isa<DenseElementsAttr>(constant.getValueAttr()))
      return;
    NodeLocation where = decodeNodeLocation(constant.getLoc());
    if (where.resultNames.size() == 1 &&
        names.contains(where.resultNames.front()))
      constant.setValueAttr(prim::TensorRefAttr::get(
          constant.getContext(), where.resultNames.front()));
  });
}

/// Every tensor type in `graph` plain `Tensor`, as TorchScript declares
/// them: the forward and backward executors specialize their own inputs.
static void forgetRefinedTypes(func::FuncOp graph) {
  graph.walk([](Operation *op) {
    // Constants keep theirs: a weight's type is what its argument gets
    // when the executors bind it.
    if (isa<prim::ConstantOp>(op))
      return;
    for (Value result : op->getResults())
      result.setType(prim::unshapedType(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          argument.setType(prim::unshapedType(argument.getType()));
  });
  Block &entry = graph.front();
  graph.setType(FunctionType::get(graph.getContext(),
                                  entry.getArgumentTypes(),
                                  entry.getTerminator()->getOperandTypes()));
}

/// Whether `graph` holds a prim.If or a prim.Loop.
static bool hasControlFlow(func::FuncOp graph) {
  return graph.getBody()
      .walk([](Operation *op) {
        return isa<prim::IfOp, prim::LoopOp>(op) ? WalkResult::interrupt()
                                                 : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Runs tsir-differentiate on the module's @graph (in place): @graph
/// becomes the forward, carrying its #prim.gradient, beside its backward.
static rt::Status runDifferentiate(ModuleOp module,
                                   const std::vector<std::string> &wrt,
                                   const std::string &bufferName) {
  DiagnosticCollector diagnostics(module.getContext());
  PassManager pm(module.getContext());
  TsirDifferentiatePassOptions differentiate;
  differentiate.wrt.assign(wrt.begin(), wrt.end());
  pm.addPass(createTsirDifferentiatePass(differentiate));
  if (failed(pm.run(module)))
    return diagnostics.takeError("cannot differentiate " + bufferName);
  return rt::Status::ok();
}

/// Differentiates the module's @graph (in place) and makes the executors
/// of its forward and backward graphs.
static rt::StatusOr<std::unique_ptr<Differentiated>>
differentiateGraph(ModuleOp module, const std::vector<std::string> &wrt,
                   const ExecutorOptions &graphOptions,
                   const std::string &bufferName) {
  TSIR_RT_RETURN_IF_ERROR(runDifferentiate(module, wrt, bufferName));
  auto graph = module.lookupSymbol<func::FuncOp>("graph");
  auto gradient =
      graph->getAttrOfType<prim::GradientAttr>(prim::kGradientAttrName);
  auto backwardGraph = module.lookupSymbol<func::FuncOp>(gradient.getBackward());
  auto result = std::make_unique<Differentiated>();
  for (Attribute name : gradient.getWrt())
    result->wrtNames.push_back(cast<StringAttr>(name).str());
  result->numCaptured = gradient.getCaptured();
  result->numGradOutputs = gradient.getGradOutputs();

  auto forward = GraphExecutor::fromSource(
      printAsGraph(graph), bufferName + ".forward.mlir", graphOptions);
  if (!forward.ok())
    return forward.status();
  auto backward = GraphExecutor::fromSource(
      printAsGraph(backwardGraph), bufferName + ".backward.mlir", graphOptions);
  if (!backward.ok())
    return backward.status();
  result->forward = std::move(*forward);
  result->backward = std::move(*backward);
  return result;
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
  auto impl = std::make_unique<Impl>();
  impl->wrt = wrt;
  impl->bufferName = bufferName;
  // The weights once, for both graphs: in memory, by name.
  ExecutorOptions &graphOptions = impl->graphOptions;
  graphOptions = options;
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

  impl->context =
      std::make_unique<MLIRContext>(MLIRContext::Threading::DISABLED);
  MLIRContext &context = *impl->context;
  DialectRegistry registry;
  registry.insert<func::FuncDialect>();
  tsir::registerAllDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  DiagnosticCollector diagnostics(&context);

  OwningOpRef<ModuleOp> &module = impl->functional;
  if (llvm::StringRef(bufferName).ends_with(".mlir")) {
    module = parseSourceString<ModuleOp>(text, &context, bufferName);
  } else {
    ImportOptions importOptions;
    for (const auto &entry : graphOptions.weights)
      importOptions.runtimeWeightNames.push_back(entry.first);
    module = importTorchScript(text, bufferName, &context, importOptions);
  }
  if (!module)
    return diagnostics.takeError("cannot read " + bufferName);
  if (!module->lookupSymbol<func::FuncOp>("graph"))
    return rt::Status::error(bufferName + " has no func.func @graph");
  referToWeights(module->lookupSymbol<func::FuncOp>("graph"),
                 graphOptions.weights);

  PassManager pm(&context);
  // Functional, with TorchScript's constant branches (`if inplace:` in
  // torch.nn.functional) folded away, before differentiating.
  pm.addNestedPass<func::FuncOp>(createPrimInlineSubgraphsPass());
  pm.addNestedPass<func::FuncOp>(createPrimConstantPropagationPass());
  // Tuples that branches build (MultiheadAttention's `(out, weights)`)
  // become one value per element: the gradient flows element by element.
  pm.addNestedPass<func::FuncOp>(createPrimLowerTuplesPass());
  pm.addNestedPass<func::FuncOp>(createPrimRemoveMutationPass());
  // What remove-mutation keeps because a view sees it (`x[a:b].zero_()`):
  // functional where the view's base is fresh, else refused by
  // tsir-differentiate at the op.
  pm.addNestedPass<func::FuncOp>(createTsirFunctionalizeViewWritesPass());
  pm.addNestedPass<func::FuncOp>(createPrimDCEPass());
  if (failed(pm.run(*module)))
    return diagnostics.takeError("cannot differentiate " + bufferName);
  auto graph = module->lookupSymbol<func::FuncOp>("graph");
  // A training-mode batch norm's running statistics are updated in the
  // forward, apart from what is differentiated.
  {
    RewritePatternSet patterns(&context);
    populateRunningStatsPatterns(patterns);
    (void)applyPatternsGreedily(graph, std::move(patterns));
  }
  impl->graphInputs = std::make_unique<GraphInputs>(graph);

  OwningOpRef<ModuleOp> copy = module->clone();
  auto generic = differentiateGraph(*copy, wrt, graphOptions, bufferName);
  if (generic.ok()) {
    impl->generic = std::move(*generic);
    impl->last = impl->generic.get();
  } else if (hasControlFlow(graph) ||
             hasControlFlow(copy->lookupSymbol<func::FuncOp>("graph"))) {
    // Its branches may fold, and its loops unroll, once the inputs are
    // known: try then. The branches may be those of an op's decomposition,
    // which tsir-differentiate left in the copy (grid_sampler's on the
    // input's rank, whose 3-d side has no formula).
    impl->genericError = generic.status().message();
  } else {
    return generic.status();
  }
  return std::unique_ptr<GradientExecutor>(
      new GradientExecutor(std::move(impl)));
}

rt::StatusOr<Differentiated *>
tsir::GradientExecutor::Impl::forInputs(const std::vector<rt::Value> &inputs) {
  if (generic)
    return generic.get();
  if (rt::Status status = graphInputs->check(inputs); !status.isOk())
    return status;
  std::string spec = graphInputs->spec(inputs);
  if (auto found = bySpec.find(spec); found != bySpec.end())
    return found->second.get();
  // As TorchScript's profiling executor differentiates what it has
  // specialized: the inputs' sizes fold the branches on them (attention's
  // fast path, `x.dim() == 3`), and small loops unroll.
  DiagnosticCollector diagnostics(context.get());
  OwningOpRef<ModuleOp> copy = functional->clone();
  PassManager pm(context.get());
  buildRefineToSpecPipeline(
      pm.nest<func::FuncOp>(),
      createTsirRefineTypesPass(graphInputs->refineSpec(inputs)));
  buildSpecializedOptimizePipeline(pm.nest<func::FuncOp>());
  if (failed(pm.run(*copy)))
    return diagnostics.takeError(genericError);
  forgetRefinedTypes(copy->lookupSymbol<func::FuncOp>("graph"));
  auto made = differentiateGraph(*copy, wrt, graphOptions, bufferName);
  if (!made.ok())
    return made.status();
  return (bySpec[spec] = std::move(*made)).get();
}

const std::vector<std::string> &tsir::GradientExecutor::wrtNames() const {
  return impl->last ? impl->last->wrtNames : impl->wrt;
}

std::vector<std::string> tsir::GradientExecutor::inputTypes() const {
  std::vector<std::string> types;
  for (const GraphInput &input : impl->graphInputs->inputs())
    types.push_back(input.typeText);
  return types;
}

GraphExecutor *tsir::GradientExecutor::forward() {
  return impl->last ? impl->last->forward.get() : nullptr;
}
GraphExecutor *tsir::GradientExecutor::backward() {
  return impl->last ? impl->last->backward.get() : nullptr;
}

rt::StatusOr<std::unique_ptr<GraphExecutor>>
tsir::GradientExecutor::joined() const {
  if (!impl->generic)
    return rt::Status::error(
        impl->bufferName +
        " differentiates only once specialized to its inputs' sizes, which "
        "a library compiled ahead of time does not do yet (run it with "
        "tsir-run --grad-wrt): " +
        impl->genericError);
  // Differentiated again, only here: the runs of run() never need it.
  OwningOpRef<ModuleOp> copy = impl->functional->clone();
  TSIR_RT_RETURN_IF_ERROR(runDifferentiate(*copy, impl->wrt, impl->bufferName));
  auto forward = copy->lookupSymbol<func::FuncOp>("graph");
  auto gradient =
      forward->getAttrOfType<prim::GradientAttr>(prim::kGradientAttrName);
  auto backward = copy->lookupSymbol<func::FuncOp>(gradient.getBackward());
  return GraphExecutor::fromSource(
      printJoined(forward, backward, gradient.getCaptured()),
      impl->bufferName + ".joined.mlir", impl->graphOptions);
}

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
  rt::StatusOr<Differentiated *> differentiated = impl->forInputs(inputs);
  if (!differentiated.ok())
    return differentiated.status();
  Differentiated &graphs = **differentiated;
  impl->last = &graphs;
  rt::StatusOr<std::vector<rt::Value>> forwardValues =
      graphs.forward->run(inputs);
  if (!forwardValues.ok())
    return forwardValues.status();
  std::vector<rt::Value> &values = *forwardValues;
  if (values.size() < graphs.numCaptured)
    return rt::Status::error("the forward graph returned fewer values than "
                             "its backward saves");
  Result result;
  size_t numOutputs = values.size() - graphs.numCaptured;
  result.outputs.assign(values.begin(), values.begin() + numOutputs);

  std::vector<rt::Tensor> outputTensors;
  for (const rt::Value &output : result.outputs)
    collectTensors(output, outputTensors);
  if (outputTensors.size() != graphs.numGradOutputs)
    return rt::Status::error(
        "the graph returned " + std::to_string(outputTensors.size()) +
        " tensors where its backward takes " +
        std::to_string(graphs.numGradOutputs) + " output gradients");

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
      graphs.backward->run(backwardInputs);
  if (!gradients.ok())
    return gradients.status();
  for (rt::Value &gradient : *gradients)
    result.gradients.push_back(gradient.toTensor());
  return result;
}
