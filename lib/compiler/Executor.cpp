//===- Executor.cpp - Compile and run a graph, a plan per input spec ------===//
//
// The GraphExecutor (see tsir/Compiler/Executor.h): it owns the MLIR
// context and the graph as read, the weights, and the cache of plans keyed
// by argument spec.
//
//===----------------------------------------------------------------------===//

#include "tsir/Compiler/Executor.h"

#include "CompilePipeline.h"
#include "Diagnostics.h"
#include "Signature.h"

#include "tsir/Importer/Importer.h"
#include "tsir/InitAll.h"

#include "tsir-runtime/Safetensors.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <map>

using namespace mlir;
using namespace tsir;

struct tsir::GraphExecutor::Impl {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<GraphSignature> signature;
  std::map<std::string, rt::Tensor> weights;
  std::map<std::string, std::unique_ptr<Plan>> plans;
  ExecutorOptions options;
  ExecutionStats stats;

  Impl() : context(MLIRContext::Threading::DISABLED) {}
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
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
}

rt::StatusOr<std::unique_ptr<GraphExecutor>>
tsir::GraphExecutor::fromFile(const std::string &path,
                              const ExecutorOptions &options) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  registerEverything(impl->context);
  DiagnosticCollector diagnostics(&impl->context);

  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return rt::Status::error("cannot read " + path + ": " +
                             buffer.getError().message());
  if (llvm::StringRef(path).ends_with(".mlir")) {
    impl->module =
        parseSourceString<ModuleOp>((*buffer)->getBuffer(), &impl->context,
                                    path);
  } else {
    // Weights are bound at run time, not imported: the compiled code reads
    // them from the runtime's tensors instead of carrying copies.
    ImportOptions importOptions;
    impl->module = importTorchScript((*buffer)->getBuffer(), path,
                                     &impl->context, importOptions);
  }
  if (!impl->module)
    return rt::Status::error(diagnostics.take("cannot read " + path));
  auto graph = impl->module->lookupSymbol<func::FuncOp>("graph");
  if (!graph)
    return rt::Status::error(path + ": no func.func @graph in the module");
  impl->signature = std::make_unique<GraphSignature>(graph);

  if (!options.weightsPath.empty()) {
    auto weights = rt::readSafetensors(options.weightsPath);
    if (!weights.ok())
      return weights.status();
    for (auto &[name, tensor] : *weights)
      impl->weights.emplace(name, tensor);
  }
  return std::unique_ptr<GraphExecutor>(new GraphExecutor(std::move(impl)));
}

std::vector<std::string> tsir::GraphExecutor::inputTypes() const {
  std::vector<std::string> types;
  for (const GraphInput &input : impl->signature->inputs())
    types.push_back(input.typeText);
  return types;
}

std::vector<std::string> tsir::GraphExecutor::inputNames() const {
  std::vector<std::string> names;
  for (const GraphInput &input : impl->signature->inputs())
    names.push_back(input.name);
  return names;
}

rt::StatusOr<std::vector<rt::Value>>
tsir::GraphExecutor::run(const std::vector<rt::Value> &inputs) {
  using Clock = std::chrono::steady_clock;
  ExecutionStats &stats = impl->stats;
  stats = ExecutionStats();
  rt::Status checked = impl->signature->check(inputs);
  if (!checked.isOk())
    return checked;
  stats.spec = impl->signature->spec(inputs);

  auto found = impl->plans.find(stats.spec);
  if (found == impl->plans.end()) {
    auto start = Clock::now();
    CompileOptions options;
    options.spec = impl->signature->refineSpec(inputs);
    options.optimize = impl->options.optimize;
    options.printIRAfterAll = impl->options.printIRAfterAll;
    options.firstCallerArgument = impl->signature->firstCallerArgument();
    rt::StatusOr<std::unique_ptr<Plan>> plan =
        compileGraph(*impl->module, options);
    if (!plan.ok())
      return plan.status();
    found = impl->plans.emplace(stats.spec, std::move(*plan)).first;
    stats.compiled = true;
    stats.compileSeconds =
        std::chrono::duration<double>(Clock::now() - start).count();
  }
  auto start = Clock::now();
  rt::StatusOr<std::vector<rt::Value>> outputs =
      found->second->call(inputs, impl->weights);
  stats.runSeconds = std::chrono::duration<double>(Clock::now() - start).count();
  return outputs;
}

const ExecutionStats &tsir::GraphExecutor::lastStats() const {
  return impl->stats;
}

size_t tsir::GraphExecutor::numCachedPlans() const {
  return impl->plans.size();
}
