//===- CompilePipeline.cpp - From an imported graph to a plan -------------===//
//
// See CompilePipeline.h. The order follows TorchScript's profiling
// executor: specialize to the inputs first, so that constant propagation
// folds sizes and ranks and loops over known sizes unroll; then optimize;
// then lower. Fusion groups are not formed here: linalg's elementwise
// fusion makes one loop nest of each chain of pointwise ops instead.
//
//===----------------------------------------------------------------------===//

#include "CompilePipeline.h"
#include "PassManagerPool.h"
#include "TargetCPU.h"
#include "tsir-runtime/ModelTable.h"
#include "tsir/Compiler/Diagnostics.h"

#include "tsir/Pipelines/Pipelines.h"
#include "tsir/Conversion/Passes.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tsir;

func::FuncOp tsir::SpecializedGraph::func() const {
  ModuleOp graph = module.get();
  return graph ? graph.lookupSymbol<func::FuncOp>("graph") : nullptr;
}

tsir::CompileProgress::CompileProgress(Sink sink, bool timing, double after)
    : sink(std::move(sink)), after(after), start(Clock::now()), last(start) {
  if (timing) {
    timingManager = std::make_unique<DefaultTimingManager>();
    timingManager->setEnabled(true);
    root = timingManager->getRootScope();
  }
}

void tsir::CompileProgress::finished(llvm::StringRef stage) {
  if (!sink)
    return;
  Clock::time_point now = Clock::now();
  double seconds = std::chrono::duration<double>(now - last).count();
  double total = std::chrono::duration<double>(now - start).count();
  last = now;
  std::string line;
  llvm::raw_string_ostream os(line);
  os << llvm::format("compile: %-28s %7.3f s (%.2f s so far)",
                     (stage + ":").str().c_str(), seconds, total);
  held.push_back(line);
  if (total < after)
    return;
  for (const std::string &pending : held)
    sink(pending);
  held.clear();
}

void tsir::CompileProgress::time(PassManager &pm, llvm::StringRef stage) {
  if (!timingManager)
    return;
  stages.push_back(root.nest(stage));
  pm.enableTiming(stages.back());
}

/// Runs `pm` on `module` as the compile's `stage`, printing IR after each
/// pass if asked to.
static LogicalResult runPasses(PassManager &pm, ModuleOp module,
                               const CompileOptions &options,
                               llvm::StringRef stage) {
  if (options.progress)
    options.progress->time(pm, stage);
  if (options.printIRAfterAll) {
    pm.getContext()->disableMultithreading();
    pm.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](Pass *, Operation *) { return false; },
        /*shouldPrintAfterPass=*/[](Pass *, Operation *) { return true; },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
        /*printAfterOnlyOnFailure=*/false, llvm::errs());
  }
  LogicalResult result = pm.run(module);
  if (succeeded(result) && options.progress)
    options.progress->finished(stage);
  return result;
}

/// Runs the pipeline `build` adds, named `key` (its options included), as
/// the compile's `stage`: on a pass manager from `options.passManagers`
/// when there is a pool, unless this compile instruments its passes
/// (timing and IR printing stay on the pass manager they are added to).
static LogicalResult runPipeline(ModuleOp module, const CompileOptions &options,
                                 llvm::StringRef stage, llvm::StringRef key,
                                 PassManagerPool::Builder build) {
  bool instrumented = options.printIRAfterAll ||
                      (options.progress && options.progress->timesPasses());
  if (!options.passManagers || instrumented) {
    PassManager pm(module.getContext());
    build(pm);
    return runPasses(pm, module, options, stage);
  }
  std::unique_ptr<PassManager> pm = options.passManagers->take(key, build);
  if (failed(runPasses(*pm, module, options, stage)))
    return failure();
  options.passManagers->giveBack(key, std::move(pm));
  return success();
}

/// A weight the graph declares without a dtype or sizes takes the weights
/// file's type. The elements of a constant list of tensors (Swin v2's
/// `Tensor?[] = prim::Constant[value=[<Tensor>]]`, its relative position
/// index) have none in the text, and nothing refined them: the ops that
/// read them could not lower.
static void typeWeightsFromFile(func::FuncOp func,
                                const CompileOptions &options) {
  ArrayAttr names = func->getContext()
                        ->getLoadedDialect<prim::PrimDialect>()
                        ->getWeightNamesAttrHelper()
                        .getAttr(func);
  if (!names)
    return;
  llvm::StringMap<Type> fileTypes;
  for (const CompileOptions::Weight &weight : options.weights)
    fileTypes[weight.name] = weight.type;
  unsigned first = func.getNumArguments() - names.size();
  bool changed = false;
  for (auto [i, name] : llvm::enumerate(names.getAsValueRange<StringAttr>())) {
    BlockArgument argument = func.getArgument(first + i);
    auto declared = dyn_cast<prim::TensorType>(argument.getType());
    if (!declared || (declared.getDtype() && declared.getHasSizes()))
      continue;
    Type fileType = fileTypes.lookup(name);
    if (!fileType)
      continue;
    argument.setType(fileType);
    changed = true;
  }
  if (changed)
    func.setType(FunctionType::get(func->getContext(),
                                   func.getBody().getArgumentTypes(),
                                   func.getResultTypes()));
}

rt::StatusOr<SpecializedGraph>
tsir::specializeGraph(ModuleOp graph, const CompileOptions &options) {
  MLIRContext *context = graph.getContext();
  DiagnosticCollector diagnostics(context);
  SpecializedGraph result;
  result.module = graph.clone();
  func::FuncOp func = result.func();
  if (!func)
    return rt::Status::error("the module has no func.func @graph");
  result.numGraphArguments = func.getNumArguments();
  // A `with` section that no node uses never runs; nothing lowers it.
  for (Operation &op :
       llvm::make_early_inc_range(result.module->getBody()->getOperations()))
    if (isa<prim::UnusedSubgraphOp>(op))
      op.erase();

  // The stages of tsir-specialize (passes/pipelines/SpecializePipeline.cpp),
  // each run and reported on its own.
  // 1. Weights become arguments before any optimization, so that the
  // optimizer sees them as opaque inputs and the inline constants the
  // weights file holds exactly are bound to it, not to their printed digits.
  {
    PassManager pm(context);
    std::vector<std::string> names;
    for (const CompileOptions::Weight &weight : options.weights)
      names.push_back(weight.name);
    buildBindWeightsPipeline(pm.nest<func::FuncOp>(), names);
    if (failed(runPasses(pm, *result.module, options, "inline")))
      return diagnostics.takeError("inlining the graph failed");
  }
  typeWeightsFromFile(func, options);

  // 2. Specialize (the weights, which the spec has no entries for, keep
  // the types the graph declares) and decompose what the sizes now decide.
  {
    PassManager pm(context);
    buildRefineToSpecPipeline(pm.nest<func::FuncOp>(),
                              createTsirRefineTypesPass(options.spec));
    if (failed(runPasses(pm, *result.module, options, "specialize")))
      return diagnostics.takeError("specializing the graph failed");
  }
  // 3. Optimize, then refine and fold until nothing changes.
  if (options.optimize) {
    auto build = [](PassManager &pm) {
      buildSpecializedOptimizePipeline(pm.nest<func::FuncOp>());
    };
    if (failed(runPipeline(*result.module, options, "optimize", "optimize",
                           build)))
      return diagnostics.takeError("specializing the graph failed");
  }

  // The TorchScript types of the arguments, which the plan's signature
  // needs after lowering has made them builtin.
  SmallVector<Attribute> argumentTypes;
  for (Type type : func.getArgumentTypes())
    argumentTypes.push_back(TypeAttr::get(type));
  context->getLoadedDialect<prim::PrimDialect>()
      ->getArgumentTypesAttrHelper()
      .setAttr(func, ArrayAttr::get(context, argumentTypes));
  return result;
}

rt::StatusOr<LoweredGraph>
tsir::lowerToLLVMDialect(const SpecializedGraph &graph,
                         const CompileOptions &options) {
  ModuleOp specialized = graph.module.get();
  MLIRContext *context = specialized.getContext();
  DiagnosticCollector diagnostics(context);
  OwningOpRef<ModuleOp> module = specialized.clone();

  // 3. Lower to linalg on tensors, and read the plan's signature there.
  {
    auto build = [](PassManager &pm) { buildLowerToLinalgPipeline(pm); };
    if (failed(runPipeline(*module, options, "lower to linalg",
                           "lower to linalg", build))) {
      if (options.unlowered)
        *options.unlowered = diagnostics.unlowered();
      return diagnostics.takeError("lowering the graph failed");
    }
  }
  auto func = module->lookupSymbol<func::FuncOp>("graph");
  rt::StatusOr<CallSignature> signature = readCallSignature(
      func, graph.numGraphArguments, options.firstCallerArgument);
  if (!signature.ok())
    return signature.status();

  // 4. Bufferize and lower to LLVM: on the CPU, or kernels for the GPU
  // and host code that launches them.
  {
    std::string key;
    if (options.device == "cuda")
      key = "lower to NVVM " + options.gpuArch + " " + options.gpuFormat;
    else
      key =
          "lower to LLVM " + std::to_string(vectorLanesF32(options.targetCpu));
    auto build = [&](PassManager &pm) {
      if (options.device == "cuda") {
        LowerToNVVMOptions nvvmOptions;
        nvvmOptions.gpuArch = options.gpuArch;
        nvvmOptions.format = options.gpuFormat;
        buildLinalgToNVVMPipeline(pm, nvvmOptions);
      } else {
        LowerToLLVMOptions llvmOptions;
        llvmOptions.vectorWidth = vectorLanesF32(options.targetCpu);
        buildLinalgToLLVMPipeline(pm, llvmOptions);
      }
    };
    if (failed(runPipeline(*module, options, "lower to LLVM", key, build)))
      return diagnostics.takeError("lowering the graph to LLVM failed");
  }

  LoweredGraph lowered;
  lowered.module = std::move(module);
  lowered.signature = std::move(*signature);
  lowered.signature.device = options.device == "cuda"
                                 ? TSIR_MODEL_DEVICE_CUDA
                                 : TSIR_MODEL_DEVICE_CPU;
  return lowered;
}

rt::StatusOr<std::unique_ptr<Plan>>
tsir::lowerSpecializedGraph(const SpecializedGraph &graph,
                            const CompileOptions &options, std::string *saved) {
  rt::StatusOr<LoweredGraph> lowered = lowerToLLVMDialect(graph, options);
  if (!lowered.ok())
    return lowered.status();
  DiagnosticCollector diagnostics(lowered->module->getContext());
  rt::StatusOr<std::unique_ptr<Plan>> plan =
      Plan::compile(*lowered->module, std::move(lowered->signature), saved);
  if (!plan.ok())
    return diagnostics.takeError(plan.status());
  if (options.progress)
    options.progress->finished("LLVM code generation");
  return plan;
}

rt::StatusOr<std::unique_ptr<Plan>>
tsir::compileGraph(ModuleOp graph, const CompileOptions &options,
                   std::string *saved) {
  rt::StatusOr<SpecializedGraph> specialized = specializeGraph(graph, options);
  if (!specialized.ok())
    return specialized.status();
  return lowerSpecializedGraph(*specialized, options, saved);
}
