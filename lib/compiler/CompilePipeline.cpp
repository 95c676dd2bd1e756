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
#include "Diagnostics.h"
#include "tsir-runtime/ModelTable.h"

#include "tsir/Conversion/Passes.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tsir;

/// How many times specialization refines and folds again at most.
static constexpr int kMaxRefineRounds = 32;

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

  // 1. Weights become arguments before any optimization, so that the
  // optimizer sees them as opaque inputs and the inline constants the
  // weights file holds exactly are bound to it, not to their printed digits.
  {
    PassManager pm(context);
    OpPassManager &fpm = pm.nest<func::FuncOp>();
    fpm.addPass(createPrimInlineSubgraphsPass());
    TsirExternalizeWeightsPassOptions externalize;
    externalize.names.assign(options.weightNames.begin(),
                             options.weightNames.end());
    fpm.addPass(createTsirExternalizeWeightsPass(externalize));
    if (failed(runPasses(pm, *result.module, options, "inline")))
      return rt::Status::error(diagnostics.take("inlining the graph failed"));
  }
  // Weights keep the types the graph declares for them.
  ArgumentSpec spec = options.spec;
  if (spec.size() == result.numGraphArguments)
    spec.resize(func.getNumArguments(), Type());

  // 2. Specialize, decompose what the sizes now decide, and optimize, on
  // prim/aten.
  {
    PassManager pm(context);
    pm.nest<func::FuncOp>().addPass(createTsirRefineTypesPass(spec));
    // Composite ops become the ops that lower, and splits whose pieces the
    // sizes decide become list literals, which lets loops over them unroll
    // into straight-line code.
    pm.nest<func::FuncOp>().addPass(createTsirDecomposePass());
    if (failed(runPasses(pm, *result.module, options, "specialize")))
      return rt::Status::error(
          diagnostics.take("specializing the graph failed"));
  }
  if (options.optimize) {
    PassManager pm(context);
    OpPassManager &fpm = pm.nest<func::FuncOp>();
    OptimizePipelineOptions optimize;
    optimize.fuse = false;
    buildOptimizePipeline(fpm, optimize);
    // As TorchScript does after unrolling: appends to a list literal in
    // the unrolled bodies become the literal, and its reads fold.
    fpm.addPass(createPrimRemoveMutationPass());
    fpm.addPass(createPrimPeepholePass());
    // Unrolled loops and folded branches refine further, and what they
    // leave (an attention fast path once its guards fold) decomposes.
    fpm.addPass(createTsirRefineTypesPass());
    fpm.addPass(createTsirDecomposePass());
    fpm.addPass(createPrimConstantPropagationPass());
    fpm.addPass(createPrimDCEPass());
    if (failed(runPasses(pm, *result.module, options, "optimize")))
      return rt::Status::error(
          diagnostics.take("specializing the graph failed"));
    // A folded branch refines the types after it, which can fold the next
    // one: torch.nn's attention tests each layer's input for its fast path
    // (`x.is_cuda`, `str(x.device)`), and what one layer returns is known
    // only once its own test folded. Refine and fold again until nothing
    // changes (a round that changes nothing ends it; the bound keeps a
    // pathological graph from looping).
    for (int round = 0; round < kMaxRefineRounds; ++round) {
      OperationFingerPrint before(*result.module);
      PassManager again(context);
      OpPassManager &refine = again.nest<func::FuncOp>();
      refine.addPass(createTsirRefineTypesPass());
      refine.addPass(createTsirDecomposePass());
      refine.addPass(createPrimPeepholePass());
      refine.addPass(createPrimConstantPropagationPass());
      refine.addPass(createPrimDCEPass());
      if (failed(runPasses(again, *result.module, options, "refine again")))
        return rt::Status::error(
            diagnostics.take("specializing the graph failed"));
      if (OperationFingerPrint(*result.module) == before)
        break;
    }
  }

  // The TorchScript types of the arguments, which the plan's signature
  // needs after lowering has made them builtin.
  SmallVector<Attribute> argumentTypes;
  for (Type type : func.getArgumentTypes())
    argumentTypes.push_back(TypeAttr::get(type));
  func->setAttr("tsir.argument_types", ArrayAttr::get(context, argumentTypes));
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
    PassManager pm(context);
    buildLowerToLinalgPipeline(pm);
    if (failed(runPasses(pm, *module, options, "lower to linalg")))
      return rt::Status::error(diagnostics.take("lowering the graph failed"));
  }
  auto func = module->lookupSymbol<func::FuncOp>("graph");
  rt::StatusOr<PlanSignature> signature = readPlanSignature(
      func, graph.numGraphArguments, options.firstCallerArgument);
  if (!signature.ok())
    return signature.status();

  // 4. Bufferize and lower to LLVM: on the CPU, or kernels for the GPU
  // and host code that launches them.
  {
    PassManager pm(context);
    if (options.device == "cuda") {
      LowerToNVVMOptions nvvmOptions;
      nvvmOptions.gpuArch = options.gpuArch;
      nvvmOptions.format = options.gpuFormat;
      buildLinalgToNVVMPipeline(pm, nvvmOptions);
    } else {
      LowerToLLVMOptions llvmOptions;
      buildLinalgToLLVMPipeline(pm, llvmOptions);
    }
    if (failed(runPasses(pm, *module, options, "lower to LLVM")))
      return rt::Status::error(
          diagnostics.take("lowering the graph to LLVM failed"));
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
                            const CompileOptions &options) {
  rt::StatusOr<LoweredGraph> lowered = lowerToLLVMDialect(graph, options);
  if (!lowered.ok())
    return lowered.status();
  DiagnosticCollector diagnostics(lowered->module->getContext());
  rt::StatusOr<std::unique_ptr<Plan>> plan =
      Plan::compile(*lowered->module, std::move(lowered->signature));
  if (!plan.ok())
    return rt::Status::error(diagnostics.take(plan.status().message()));
  if (options.progress)
    options.progress->finished("LLVM code generation");
  return plan;
}

rt::StatusOr<std::unique_ptr<Plan>>
tsir::compileGraph(ModuleOp graph, const CompileOptions &options) {
  rt::StatusOr<SpecializedGraph> specialized = specializeGraph(graph, options);
  if (!specialized.ok())
    return specialized.status();
  return lowerSpecializedGraph(*specialized, options);
}
