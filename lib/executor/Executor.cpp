//===- Executor.cpp - Compile and run a graph, a plan per input spec ------===//
//
// The GraphExecutor (see tsir/Compiler/Executor.h): it owns the MLIR
// context and the graph as read, the weights, and the cache of plans keyed
// by argument spec. A plan is the whole graph compiled, when every op in
// the specialized graph lowers; otherwise the graph cut into compiled
// segments and ops the interpreter runs through runtime kernels
// (Segments.h, Interpreter.h), as TorchScript's interpreter runs what its
// fusers leave. A graph without kernel ops whose whole-graph lowering
// fails gets a second chance there, with its control flow interpreted.
//
//===----------------------------------------------------------------------===//

#include "tsir/Executor/Executor.h"

#include "Interpreter.h"
#include "PlanCache.h"
#include "SpecializedGraphCache.h"
#include "compiler/CompilePipeline.h"
#include "compiler/ModelCompile.h"
#include "compiler/PassManagerPool.h"
#include "compiler/Signature.h"
#include "tsir/Compiler/Diagnostics.h"

#include "tsir/Importer/Importer.h"
#include "tsir/InitAll.h"

#include "tsir-runtime/Cuda.h"
#include "tsir-runtime/Model.h"
#include "tsir-runtime/Safetensors.h"
#include "tsir-runtime/Threads.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Host.h"

#include <chrono>
#include <functional>
#include <map>

using namespace mlir;
using namespace tsir;

namespace {
/// What runs the graph for one spec: the whole graph compiled, or the
/// specialized graph interpreted with compiled segments.
struct PlanCacheEntry {
  std::unique_ptr<Plan> whole;
  /// The whole graph as a library of the persistent plan cache.
  std::unique_ptr<rt::Model> model;
  SpecializedGraph specialized;
  std::unique_ptr<SegmentedGraph> segmented;
  std::unique_ptr<Interpreter> interpreter;
  /// Why the whole graph did not compile, when the interpreter runs it
  /// instead: the error to give if a segment does not compile either.
  rt::Status wholeGraphError;
  /// Whether the plan takes each list of tensors the caller gives as its
  /// elements (expandTensorLists).
  bool expandsLists = false;
};
} // namespace

/// The host CPU and its features, which compiled code depends on (asked
/// once per process).
static const std::string &hostCpuIdentity() {
  static const std::string identity = [] {
    std::vector<std::string> features;
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      if (feature.getValue())
        features.push_back(feature.getKey().str());
    llvm::sort(features);
    return llvm::sys::getHostCPUName().str() + " " + llvm::join(features, ",");
  }();
  return identity;
}

struct tsir::GraphExecutor::Impl {
  MLIRContext context;
  /// Every compile's lowering pipelines (declared after the context they
  /// run on, so they go first).
  PassManagerPool passManagers{&context};
  /// The graph's text, which keys the persistent plan cache (kept only
  /// when there is one).
  std::string source;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<GraphInputs> graphInputs;
  std::map<std::string, rt::Tensor> weights;
  /// The frozen module's attributes forward writes, shared by every plan.
  ModuleState moduleState;
  std::map<std::string, std::unique_ptr<PlanCacheEntry>> plans;
  std::unique_ptr<OpRoles> roles;
  ExecutorOptions options;
  ExecutionStats stats;
  std::unique_ptr<PlanCache> planCache;
  /// The plan cache as segments see it (with planCache).
  std::unique_ptr<SegmentPlanCache> segmentPlans;

  Impl() : context(MLIRContext::Threading::DISABLED) {}

  rt::StatusOr<std::unique_ptr<PlanCacheEntry>>
  compile(const std::vector<rt::Value> &inputs);
  /// What the persistent cache's keys for the caller's `inputs` hash: the
  /// graph, the spec, the device, the host CPU, whether the optimizer
  /// runs, and the weights' names, dtypes and sizes.
  std::vector<std::string>
  cacheKeyParts(const std::vector<rt::Value> &inputs) const;
  /// The plan for `inputs` from the persistent cache, compiled into it on a
  /// miss; nullptr when the graph does not compile whole (the JIT's
  /// segments and interpreter run it).
  std::unique_ptr<PlanCacheEntry> compileThroughCache(
      const std::vector<rt::Value> &inputs, CompileProgress &progress);
  rt::StatusOr<std::vector<rt::Value>>
  interpret(PlanCacheEntry &plan, const std::vector<rt::Value> &inputs);
};

tsir::GraphExecutor::GraphExecutor(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
tsir::GraphExecutor::~GraphExecutor() = default;

/// Every dialect and interface the compile pipeline touches.
static void registerEverything(MLIRContext &context) {
  DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  tsir::registerAllDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  // Parallel loops are omp.parallel/omp.wsloop until LLVM IR (JIT and
  // tsir-compile alike).
  registerOpenMPDialectTranslation(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
}

rt::StatusOr<std::unique_ptr<GraphExecutor>>
tsir::GraphExecutor::fromFile(const std::string &path,
                              const ExecutorOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return rt::Status::error("cannot read " + path + ": " +
                             buffer.getError().message());
  return fromSource((*buffer)->getBuffer().str(), path, options);
}

rt::StatusOr<std::unique_ptr<GraphExecutor>>
tsir::GraphExecutor::fromSource(const std::string &text,
                                const std::string &bufferName,
                                const ExecutorOptions &options) {
  if (options.device != "cpu" && options.device != "cuda")
    return rt::Status::error("--device must be cpu or cuda, not '" +
                             options.device + "'");
  // Say now, not after compiling, that there is no GPU to run on.
  if (options.device == "cuda")
    if (rt::Status usable = rt::cuda::available(); !usable.isOk())
      return usable.withContext("--device cuda");
  if (options.threads < 0)
    return rt::Status::error("the thread count must be at least 1 (0 for "
                             "the default), not " +
                             std::to_string(options.threads));
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  if (!options.planCacheDirectory.empty() &&
      llvm::sys::fs::exists(modelAbiArchive(options.libraryDirectory))) {
    impl->planCache = std::make_unique<PlanCache>(options.planCacheDirectory,
                                                  options.planCacheMaxBytes);
    impl->segmentPlans =
        std::make_unique<SegmentPlanCache>(*impl->planCache, hostCpuIdentity());
    impl->source = text;
  }
  registerEverything(impl->context);
  DiagnosticCollector diagnostics(&impl->context);

  // The weights first: the import counts a `[<Tensors>]` list's elements
  // among them.
  if (!options.weightsPath.empty()) {
    auto weights = rt::readSafetensors(options.weightsPath);
    if (!weights.ok())
      return weights.status();
    for (auto &[name, tensor] : *weights)
      impl->weights.emplace(name, tensor);
  }
  // In-memory weights win over a file's of the same name.
  for (const auto &[name, tensor] : options.weights)
    impl->weights.insert_or_assign(name, tensor);

  if (llvm::StringRef(bufferName).ends_with(".mlir")) {
    impl->module =
        parseSourceString<ModuleOp>(text, &impl->context, bufferName);
  } else {
    // Weights are bound at run time, not imported: the compiled code reads
    // them from the runtime's tensors instead of carrying copies.
    ImportOptions importOptions;
    for (const auto &entry : impl->weights)
      importOptions.runtimeWeightNames.push_back(entry.first);
    impl->module =
        importTorchScript(text, bufferName, &impl->context, importOptions);
  }
  if (!impl->module)
    return diagnostics.takeError("cannot read " + bufferName);
  auto graph = impl->module->lookupSymbol<func::FuncOp>("graph");
  if (!graph)
    return rt::Status::error(bufferName +
                             ": no func.func @graph in the module");
  impl->graphInputs = std::make_unique<GraphInputs>(graph);

  return std::unique_ptr<GraphExecutor>(new GraphExecutor(std::move(impl)));
}

std::vector<std::string> tsir::GraphExecutor::inputTypes() const {
  std::vector<std::string> types;
  for (const GraphInput &input : impl->graphInputs->inputs())
    types.push_back(input.typeText);
  return types;
}

std::vector<std::string> tsir::GraphExecutor::inputNames() const {
  std::vector<std::string> names;
  for (const GraphInput &input : impl->graphInputs->inputs())
    names.push_back(input.name);
  return names;
}

/// `inputs` with each list of tensors replaced by its elements: what a
/// plan of a graph expandTensorLists rewrote takes.
static std::vector<rt::Value>
flattenTensorLists(const std::vector<rt::Value> &inputs) {
  std::vector<rt::Value> flat;
  for (const rt::Value &input : inputs) {
    if (!isTensorList(input)) {
      flat.push_back(input);
      continue;
    }
    for (const rt::Value &element : input.toList())
      flat.push_back(element);
  }
  return flat;
}

/// A copy of `module` whose graph takes each list of tensors in `inputs`
/// (caller inputs, from argument `firstCaller` on) as one argument per
/// element, and builds the list of them first. The spec then refines every
/// element, and the graph sees a list literal of known length: its loops
/// over the list unroll and its sizes are static, as they are when a graph
/// builds the list itself.
static OwningOpRef<ModuleOp> expandTensorLists(ModuleOp module,
                                               unsigned firstCaller,
                                               const std::vector<rt::Value> &inputs) {
  OwningOpRef<ModuleOp> expanded(module.clone());
  auto func = expanded->lookupSymbol<func::FuncOp>("graph");
  Block &entry = func.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  // Back to front, so that the argument numbers still to visit hold.
  for (size_t i = inputs.size(); i-- > 0;) {
    if (!isTensorList(inputs[i]))
      continue;
    unsigned position = firstCaller + i;
    BlockArgument list = entry.getArgument(position);
    auto listType = dyn_cast<prim::ListType>(list.getType());
    if (auto optional = dyn_cast<prim::OptionalType>(list.getType()))
      listType = dyn_cast<prim::ListType>(optional.getElementType());
    if (!listType)
      continue;
    SmallVector<Value> elements;
    size_t count = inputs[i].toList().size();
    for (size_t e = 0; e < count; ++e) {
      unsigned at = position + 1 + e;
      if (failed(func.insertArgument(at, listType.getElementType(), {},
                                     list.getLoc())))
        return nullptr;
      elements.push_back(entry.getArgument(at));
    }
    Value literal = prim::ListConstructOp::create(builder, list.getLoc(),
                                                  listType, elements);
    if (literal.getType() != list.getType())
      literal = prim::UncheckedCastOp::create(builder, list.getLoc(),
                                              list.getType(), literal);
    list.replaceAllUsesWith(literal);
    if (failed(func.eraseArgument(position)))
      return nullptr;
  }
  return expanded;
}

rt::StatusOr<std::unique_ptr<PlanCacheEntry>>
tsir::GraphExecutor::Impl::compile(const std::vector<rt::Value> &givenInputs) {
  // A list of tensors is compiled for its length and its elements' specs.
  OwningOpRef<ModuleOp> expanded;
  std::unique_ptr<GraphInputs> expandedInputs;
  ModuleOp graphModule = *module;
  // The inputs of the graph compiled: the caller's, or the expanded ones.
  const GraphInputs *compiled = graphInputs.get();
  std::vector<rt::Value> inputs = givenInputs;
  if (llvm::any_of(givenInputs, isTensorList)) {
    expanded = expandTensorLists(*module, compiled->firstCallerArgument(),
                                 givenInputs);
    if (!expanded)
      return rt::Status::error("cannot take the list inputs element by element");
    graphModule = *expanded;
    expandedInputs = std::make_unique<GraphInputs>(
        expanded->lookupSymbol<func::FuncOp>("graph"));
    compiled = expandedInputs.get();
    inputs = flattenTensorLists(givenInputs);
  }
  CompileOptions compileOptions;
  compileOptions.spec = compiled->refineSpec(inputs);
  compileOptions.optimize = options.optimize;
  compileOptions.printIRAfterAll = options.printIRAfterAll;
  compileOptions.device = options.device;
  for (const auto &[name, tensor] : weights)
    compileOptions.weights.push_back(
        {name, refinedTensorType(&context, tensor)});
  compileOptions.firstCallerArgument = compiled->firstCallerArgument();
  compileOptions.passManagers = &passManagers;
  CompileProgress progress(options.progress, options.timing,
                           options.progressAfterSeconds);
  compileOptions.progress = &progress;
  if (!roles)
    roles = std::make_unique<OpRoles>(&context);
  // Dumps and timings are of the JIT's compile: they bypass the cache.
  bool throughCache = planCache && !options.printIRAfterAll && !options.timing;
  // (The persistent cache keeps libraries of the graph as the caller
  // calls it: not of one expanded for a list's length.)
  if (throughCache && !expanded)
    if (std::unique_ptr<PlanCacheEntry> cached =
            compileThroughCache(inputs, progress))
      return cached;
  auto cached = std::make_unique<PlanCacheEntry>();
  cached->expandsLists = static_cast<bool>(expanded);
  // With a cache, the graph specialized by an earlier process (one that
  // runs in the interpreter: a whole plan came from the cache above).
  std::string specializedKey;
  std::optional<SpecializedGraph> saved;
  if (throughCache) {
    std::vector<std::string> parts = cacheKeyParts(givenInputs);
    parts.insert(parts.begin(), "specialized");
    specializedKey = PlanCache::key(parts);
    saved = loadSpecializedGraph(
        *planCache, specializedKey, &context,
        graphModule.lookupSymbol<func::FuncOp>("graph").getNumArguments());
  }
  if (saved) {
    cached->specialized = std::move(*saved);
    progress.finished("load the specialized graph from the plan cache");
  } else {
    rt::StatusOr<SpecializedGraph> specialized =
        specializeGraph(graphModule, compileOptions);
    if (!specialized.ok())
      return specialized.status();
    cached->specialized = std::move(*specialized);
    if (!specializedKey.empty())
      saveSpecializedGraph(*planCache, specializedKey, cached->specialized);
  }
  func::FuncOp func = cached->specialized.func();
  if (rt::Status storage = checkStorageSemantics(func); !storage.isOk())
    return storage;

  Operation *missing = nullptr;
  bool needsInterpreter =
      SegmentedGraph::needsInterpreter(func, *roles, missing);
  // An op nothing runs inside control flow is an error only if that code
  // runs: the interpreter takes the branch or body that holds it.
  if (missing && missing->getParentOp() != func.getOperation())
    needsInterpreter = true;

  if (!needsInterpreter) {
    std::vector<UnloweredOp> unlowered;
    CompileOptions wholeOptions = compileOptions;
    wholeOptions.unlowered = &unlowered;
    rt::StatusOr<std::unique_ptr<Plan>> plan =
        lowerSpecializedGraph(cached->specialized, wholeOptions);
    if (plan.ok()) {
      cached->whole = std::move(*plan);
      cached->specialized.module = OwningOpRef<ModuleOp>();
      return cached;
    }
    if (missing)
      return rt::Status::located(describeMissingOp(missing));
    // Some part did not lower as a whole. An op whose lowering does not
    // take these operands (a norm's order known only at run time) runs by
    // its kernel, the rest compiled around it; otherwise (control flow the
    // conversions cannot express yet, say) the control flow is
    // interpreted and the rest compiled. If neither can be done, the first
    // error stands.
    llvm::DenseSet<Operation *> byKernel =
        SegmentedGraph::kernelOpsNamed(func, unlowered, *roles);
    rt::StatusOr<std::unique_ptr<SegmentedGraph>> segmented =
        SegmentedGraph::build(func, *roles,
                              /*interpretControlFlow=*/byKernel.empty(),
                              byKernel);
    if (!segmented.ok())
      return plan.status();
    cached->segmented = std::move(*segmented);
    cached->wholeGraphError = plan.status();
  } else {
    rt::StatusOr<std::unique_ptr<SegmentedGraph>> segmented =
        SegmentedGraph::build(func, *roles, /*interpretControlFlow=*/false);
    if (!segmented.ok())
      return segmented.status();
    cached->segmented = std::move(*segmented);
  }
  // Weights are arguments of the specialized graph already: segments take
  // them as inputs.
  CompileOptions segmentOptions = compileOptions;
  segmentOptions.spec.clear();
  segmentOptions.weights.clear();
  segmentOptions.progress = nullptr; // segments compile later, on first use
  // Their plans persist like a whole graph's.
  if (throughCache)
    segmentOptions.segmentPlans = segmentPlans.get();
  moduleState.weights = &weights;
  cached->interpreter = std::make_unique<Interpreter>(
      *cached->segmented, segmentOptions, roles->kernels(), moduleState);
  return cached;
}

std::vector<std::string> tsir::GraphExecutor::Impl::cacheKeyParts(
    const std::vector<rt::Value> &inputs) const {
  std::vector<std::string> parts = {source, graphInputs->callerSpec(inputs),
                                    options.device, hostCpuIdentity(),
                                    options.optimize ? "optimize" : ""};
  for (const auto &[name, tensor] : weights)
    parts.push_back(name + " " + tensor.toString());
  return parts;
}

std::unique_ptr<PlanCacheEntry> tsir::GraphExecutor::Impl::compileThroughCache(
    const std::vector<rt::Value> &inputs, CompileProgress &progress) {
  std::string key = PlanCache::key(cacheKeyParts(inputs));
  if (planCache->isInterpreted(key))
    return nullptr;

  auto load = [&](const std::string &path) -> std::unique_ptr<PlanCacheEntry> {
    rt::StatusOr<std::unique_ptr<rt::Model>> model =
        rt::Model::load(path, weights);
    if (!model.ok())
      return nullptr;
    auto cached = std::make_unique<PlanCacheEntry>();
    cached->model = std::move(*model);
    return cached;
  };
  if (std::optional<std::string> path = planCache->lookup(key))
    if (std::unique_ptr<PlanCacheEntry> cached = load(*path)) {
      stats.fromPlanCache = true;
      progress.finished("load from the plan cache");
      return cached;
    }

  ModelCompileOptions model;
  model.device = options.device;
  model.embedWeights = false;
  model.abiArchive = modelAbiArchive(options.libraryDirectory);
  model.runtimeLibraryDir = options.libraryDirectory;
  rt::StatusOr<std::string> stored =
      planCache->store(key, [&](const std::string &path) {
        model.output = path;
        // The spec the JIT would compile for, so that a cached plan is
        // the JIT's plan.
        ArgumentSpec refined = graphInputs->refineSpec(inputs);
        return tsir::compileModel(*module, *graphInputs,
                                  WeightSource{weights, ""}, *roles, model,
                                  &progress, &refined);
      });
  if (!stored.ok()) {
    // Ops only the interpreter runs, or anything else a library cannot
    // hold: the JIT compiles it (and gives the error, if it is one).
    planCache->markInterpreted(key);
    return nullptr;
  }
  return load(*stored);
}

rt::StatusOr<std::vector<rt::Value>>
tsir::GraphExecutor::Impl::interpret(PlanCacheEntry &plan,
                                     const std::vector<rt::Value> &inputs) {
  func::FuncOp func = plan.specialized.func();
  std::vector<rt::Value> arguments;
  if (graphInputs->firstCallerArgument())
    arguments.push_back(rt::Value::none()); // a frozen module's `self`
  arguments.insert(arguments.end(), inputs.begin(), inputs.end());
  std::vector<rt::Tensor> borrowed;
  for (const rt::Value &input : inputs)
    if (input.isTensor())
      borrowed.push_back(input.toTensor());
  if (ArrayAttr names = func->getContext()
                            ->getLoadedDialect<prim::PrimDialect>()
                            ->getWeightNamesAttrHelper()
                            .getAttr(func)) {
    for (auto [index, attribute] : llvm::enumerate(names)) {
      std::string name = cast<StringAttr>(attribute).str();
      auto found = weights.find(name);
      if (found != weights.end()) {
        arguments.push_back(found->second);
        borrowed.push_back(found->second);
        continue;
      }
      if (!func.getArgument(arguments.size()).use_empty())
        return rt::Status::error("weight '" + name +
                                 "' is missing: give a weights file "
                                 "(--weights) that holds it");
      arguments.push_back(rt::Value::none());
    }
  }
  rt::StatusOr<std::vector<rt::Value>> results =
      plan.interpreter->run(arguments);
  if (!results.ok())
    return results.status();

  // Outputs as compiled graphs give them: tuples flattened depth-first,
  // tensors of their own.
  std::vector<rt::Value> outputs;
  std::function<void(const rt::Value &)> flatten = [&](const rt::Value &value) {
    if (value.isTuple()) {
      for (const rt::Value &element : value.toTuple())
        flatten(element);
      return;
    }
    if (value.isTensor() &&
        llvm::any_of(borrowed, [&](const rt::Tensor &tensor) {
          return tensor.sharesStorageWith(value.toTensor());
        })) {
      outputs.emplace_back(value.toTensor().clone());
      return;
    }
    outputs.push_back(value);
  };
  for (const rt::Value &value : *results)
    flatten(value);
  return outputs;
}

rt::StatusOr<std::vector<rt::Value>>
tsir::GraphExecutor::run(const std::vector<rt::Value> &inputs) {
  using Clock = std::chrono::steady_clock;
  ExecutionStats &stats = impl->stats;
  stats = ExecutionStats();
  rt::Status checked = impl->graphInputs->check(inputs);
  if (!checked.isOk())
    return checked;
  stats.spec = impl->graphInputs->spec(inputs);

  // The cache key names the device as well as the spec.
  std::string key = impl->options.device + ": " + stats.spec;
  auto found = impl->plans.find(key);
  if (found == impl->plans.end()) {
    auto start = Clock::now();
    rt::StatusOr<std::unique_ptr<PlanCacheEntry>> plan = impl->compile(inputs);
    if (!plan.ok())
      return plan.status();
    found = impl->plans.emplace(key, std::move(*plan)).first;
    stats.compiled = true;
    stats.compileSeconds =
        std::chrono::duration<double>(Clock::now() - start).count();
  }
  PlanCacheEntry &plan = *found->second;
  // The team size of compiled code's parallel loops started from this
  // thread (nothing to do before a plan with threads has loaded libomp).
  rt::setThreadCount(impl->options.threads);
  int loadedBefore = impl->segmentPlans ? impl->segmentPlans->loadedPlans() : 0;
  auto start = Clock::now();
  std::vector<rt::Value> flattened;
  if (plan.expandsLists)
    flattened = flattenTensorLists(inputs);
  const std::vector<rt::Value> &planInputs =
      plan.expandsLists ? flattened : inputs;
  rt::StatusOr<std::vector<rt::Value>> outputs =
      plan.model   ? plan.model->run(planInputs)
      : plan.whole ? plan.whole->call(planInputs, impl->weights)
                   : impl->interpret(plan, planInputs);
  double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  if (plan.interpreter && plan.interpreter->compiledSegments()) {
    // Segments compile on first use of their input spec, during the run.
    stats.compiled = true;
    stats.compileSeconds += plan.interpreter->compileSeconds();
    elapsed -= plan.interpreter->compileSeconds();
  }
  if (impl->segmentPlans)
    stats.segmentPlansFromCache =
        impl->segmentPlans->loadedPlans() - loadedBefore;
  stats.runSeconds = elapsed;
  if (!outputs.ok() && plan.interpreter &&
      plan.interpreter->failedToCompile() && !plan.wholeGraphError.isOk())
    return plan.wholeGraphError;
  return outputs;
}

rt::Status
tsir::GraphExecutor::compileModel(const ModelCompileOptions &options) {
  if (!impl->roles)
    impl->roles = std::make_unique<OpRoles>(&impl->context);
  CompileProgress progress(impl->options.progress, impl->options.timing,
                           impl->options.progressAfterSeconds);
  return tsir::compileModel(
      *impl->module, *impl->graphInputs,
      WeightSource{impl->weights, impl->options.weightsPath}, *impl->roles,
      options, &progress);
}

rt::StatusOr<std::string>
tsir::GraphExecutor::specOf(const std::vector<rt::Value> &inputs) const {
  if (rt::Status checked = impl->graphInputs->check(inputs); !checked.isOk())
    return checked;
  return impl->graphInputs->callerSpec(inputs);
}

void tsir::GraphExecutor::setThreads(int threads) {
  impl->options.threads = threads;
}

int tsir::GraphExecutor::threads() const { return impl->options.threads; }

const ExecutionStats &tsir::GraphExecutor::lastStats() const {
  return impl->stats;
}

size_t tsir::GraphExecutor::numCachedPlans() const {
  return impl->plans.size();
}

std::vector<std::string> tsir::GraphExecutor::cachedSpecs() const {
  std::vector<std::string> specs;
  // Keys are "<device>: <spec>".
  for (const auto &entry : impl->plans)
    specs.push_back(entry.first.substr(impl->options.device.size() + 2));
  return specs;
}

std::string tsir::defaultPlanCacheDirectory() {
  if (const char *requested = std::getenv("TSIR_CACHE_DIR")) {
    llvm::StringRef value(requested);
    if (value.empty() || value == "0" || value.equals_insensitive("off"))
      return "";
    return value.str();
  }
  llvm::SmallString<256> directory;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    directory = xdg;
  else if (const char *home = std::getenv("HOME"); home && *home)
    llvm::sys::path::append(directory, home, ".cache");
  else
    return "";
  llvm::sys::path::append(directory, "tsir");
  return std::string(directory);
}

uint64_t tsir::defaultPlanCacheMaxBytes() {
  uint64_t megabytes = 1024;
  if (const char *size = std::getenv("TSIR_CACHE_SIZE_MB"))
    llvm::StringRef(size).getAsInteger(10, megabytes);
  return megabytes << 20;
}
