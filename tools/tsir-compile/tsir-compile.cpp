//===- tsir-compile.cpp - Compile a graph ahead of time into model.so -----===//
//
// `tsir-compile graph.txt [--weights W] --spec "Float(1, 3, 224, 224), int"
// [--device cpu|cuda] -o model.so`: specializes the graph to the spec (or
// to example inputs given with --input, as tsir-run takes them), lowers it
// with the passes the JIT runs, and writes a shared library that the
// runtime alone loads and runs (`tsir-run model.so`, tsir-runtime/Model.h,
// or any C program through tsir-runtime/tsir_model.h).
//
// With `--grad-wrt NAMES`, the library computes gradients too: its graph
// is the forward and the backward in one (GradientExecutor::joined), which
// takes the graph's inputs, then one gradient per tensor output (give them
// in --spec or as --input values after the inputs), and returns the
// outputs, then one gradient per name.
//
//===----------------------------------------------------------------------===//

#include "tsir/Executor/Executor.h"
#include "tsir/Executor/Gradients.h"
#include "tsir/Support/ToolOptions.h"

#include "tsir-runtime/KernelRegistry.h"
#include "tsir-runtime/RunSupport.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;
namespace rt = tsir::rt;

static cl::opt<std::string> graphPath(tsir::toolOptions(), cl::Positional,
                                      cl::Required,
                                      cl::desc("<graph.txt | module.mlir>"));
static cl::opt<std::string> outputPath(tsir::toolOptions(), "o",
                                       cl::desc("the file to write"),
                                       cl::value_desc("model.so"),
                                       cl::Required);
static cl::opt<std::string> weightsPath(
    tsir::toolOptions(), "weights",
    cl::desc("safetensors file with the graph's <Tensor> constants"),
    cl::value_desc("file"));
static cl::opt<std::string>
    spec(tsir::toolOptions(), "spec",
         cl::desc("the inputs to compile for: \"Float(1, 3, 224, 224), int\""),
         cl::value_desc("spec"));
static cl::list<std::string> exampleInputs(
    tsir::toolOptions(), "input",
    cl::desc("an example input, in graph order, instead of --spec: a .npy "
             "file, an int, a float or true/false"),
    cl::value_desc("value"));
static cl::list<std::string> gradWrt(
    tsir::toolOptions(), "grad-wrt", cl::CommaSeparated,
    cl::desc("compile the gradients too, with respect to these input or "
             "weight names (or `all`): the library takes the inputs, then "
             "one gradient per tensor output, and returns the outputs, then "
             "the gradients"),
    cl::value_desc("names"));
static cl::opt<std::string> device(tsir::toolOptions(), "device",
                                   cl::desc("cpu or cuda"), cl::init("cpu"));
static cl::opt<tsir::ModelCompileOptions::Emit> emit(
    tsir::toolOptions(), "emit", cl::desc("what to write"),
    cl::values(clEnumValN(tsir::ModelCompileOptions::Emit::Library, "library",
                          "a shared library the runtime loads (the default)"),
               clEnumValN(tsir::ModelCompileOptions::Emit::Object, "object",
                          "the object file linked into it"),
               clEnumValN(tsir::ModelCompileOptions::Emit::LLVMIR, "llvm",
                          "the optimized LLVM IR"),
               clEnumValN(tsir::ModelCompileOptions::Emit::MLIR, "mlir",
                          "the graph lowered to MLIR's LLVM dialect"),
               clEnumValN(tsir::ModelCompileOptions::Emit::PTX, "ptx",
                          "the PTX of a CUDA model's kernels")),
    cl::init(tsir::ModelCompileOptions::Emit::Library));
static cl::opt<bool> externalWeights(
    tsir::toolOptions(), "external-weights",
    cl::desc("leave the weights in their file, which the runtime maps when "
             "it loads the model, instead of putting them into the library"));
static cl::opt<std::string> targetCpu(
    tsir::toolOptions(), "target-cpu",
    cl::desc("the CPU to generate code for: host (the default) or an LLVM "
             "CPU name such as x86-64-v3"),
    cl::init("host"));
static cl::opt<std::string> gpuArch(tsir::toolOptions(), "gpu-arch",
                                    cl::desc("the GPU architecture (cuda)"),
                                    cl::init("sm_90"));
static cl::opt<std::string>
    linker(tsir::toolOptions(), "linker",
           cl::desc("a C compiler driver to link the library with (default: "
                    "$TSIR_LINKER, else the system linker directly)"),
           cl::value_desc("program"));
static cl::opt<bool> printIRAfterAll(
    tsir::toolOptions(), "print-ir-after-all",
    cl::desc("print the IR after every pass of the compile pipeline"));
static tsir::CompileReportOptions reportOptions;
static cl::opt<bool> noOptimize(tsir::toolOptions(), "no-optimize",
                                cl::desc("skip tsir-optimize before lowering"));

static int fail(const std::string &message) {
  bool located = StringRef(message).contains(": error: ");
  errs() << "tsir-compile: " << (located ? "" : "error: ") << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  tsir::hideLibraryOptions();
  cl::ParseCommandLineOptions(
      argc, argv, "tsir-compile: compile a TorchScript graph ahead of time\n");
  if (spec.getNumOccurrences() && !exampleInputs.empty())
    return fail("give --spec or example --input values, not both");
  if (!spec.getNumOccurrences() && exampleInputs.empty())
    return fail("give the inputs to compile for: --spec \"Float(2, 3), "
                "int\", or example --input values");

  tsir::ExecutorOptions executorOptions;
  executorOptions.weightsPath = weightsPath;
  executorOptions.printIRAfterAll = printIRAfterAll;
  executorOptions.optimize = !noOptimize;
  reportOptions.applyTo(executorOptions);
  auto executor =
      gradWrt.empty()
          ? tsir::GraphExecutor::fromFile(graphPath, executorOptions)
          : [&]() -> rt::StatusOr<std::unique_ptr<tsir::GraphExecutor>> {
              auto gradients = tsir::GradientExecutor::fromFile(
                  graphPath,
                  std::vector<std::string>(gradWrt.begin(), gradWrt.end()),
                  executorOptions);
              if (!gradients.ok())
                return gradients.status();
              return (*gradients)->joined();
            }();
  if (!executor.ok())
    return fail(executor.status().message());

  tsir::ModelCompileOptions options;
  options.spec = spec;
  if (!exampleInputs.empty()) {
    rt::StatusOr<std::vector<rt::Value>> values =
        rt::parseInputArguments(exampleInputs, (*executor)->inputTypes());
    if (!values.ok())
      return fail(values.status().message());
    rt::StatusOr<std::string> inferred = (*executor)->specOf(*values);
    if (!inferred.ok())
      return fail(inferred.status().message());
    options.spec = *inferred;
  }
  options.device = device;
  options.emit = emit;
  options.output = outputPath;
  options.embedWeights = !externalWeights;
  options.targetCpu = targetCpu;
  options.gpuArch = gpuArch;
  options.linker = linker;
  options.printIRAfterAll = printIRAfterAll;
  std::string libraryDir = tsir::libraryDirectoryBeside(argv[0], (void *)&fail);
  options.abiArchive = tsir::modelAbiArchive(libraryDir);
  options.runtimeLibraryDir = libraryDir;

  auto start = std::chrono::steady_clock::now();
  rt::Status compiled = (*executor)->compileModel(options);
  if (!compiled.isOk())
    return fail(compiled.message());
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  outs() << "spec: " << options.spec << "\n";
  outs() << format("compile: %.3f s\n", seconds);
  if (emit == tsir::ModelCompileOptions::Emit::PTX)
    outs() << "wrote the PTX to " << outputPath
           << " (with several kernel modules: <name>.<module>.ptx each)\n";
  else
    outs() << "wrote " << outputPath << "\n";
  return 0;
}
