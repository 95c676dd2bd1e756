//===- tsir-translate.cpp - TorchScript text to MLIR and back -------------===//
//
// mlir-translate with two translations: --import-torchscript (graph text to
// prim/aten MLIR, optionally with --weights) and --export-torchscript.
//
//===----------------------------------------------------------------------===//

#include "tsir/Exporter/Exporter.h"
#include "tsir/Importer/Importer.h"
#include "tsir/InitAll.h"
#include "tsir/Support/ToolOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

static llvm::cl::opt<std::string> weightsPath(
    tsir::toolOptions(), "weights",
    llvm::cl::desc("safetensors file with the graph's <Tensor> constants "
                   "(for --import-torchscript)"),
    llvm::cl::value_desc("file.safetensors"), llvm::cl::init(""));

int main(int argc, char **argv) {
  tsir::hideLibraryOptions();
  TranslateToMLIRRegistration importTorchScript(
      "import-torchscript", "import a TorchScript textual graph",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        tsir::ImportOptions options;
        options.weightsPath = weightsPath;
        // mlir-translate verifies what a translation returns.
        options.verify = false;
        return tsir::importTorchScript(buffer->getBuffer(),
                                       buffer->getBufferIdentifier(), context,
                                       options);
      },
      [](DialectRegistry &registry) { tsir::registerAllDialects(registry); });

  TranslateFromMLIRRegistration exportTorchScript(
      "export-torchscript", "export prim/aten MLIR as a TorchScript graph",
      [](Operation *op, llvm::raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a builtin.module");
        return tsir::exportTorchScript(module, os);
      },
      [](DialectRegistry &registry) { tsir::registerAllDialects(registry); });

  // One graph is imported on one thread, so the context's locks are pure
  // overhead; and the module is verified once before it is printed, so the
  // printer need not verify it again. Both stay overridable on the command
  // line (a later flag wins).
  SmallVector<char *> args(argv, argv + argc);
  std::string noThreads = "--mlir-disable-threading";
  std::string assumeVerified = "--mlir-print-assume-verified";
  args.insert(args.begin() + 1, {noThreads.data(), assumeVerified.data()});
  return failed(
      mlirTranslateMain(args.size(), args.data(), "tsir translation tool"));
}
