//===- Translation.cpp - TorchScript text in and out, from C --------------===//
//
// The definitions behind tsir-c/Translation.h, over the importer and the
// exporter libraries.
//
//===----------------------------------------------------------------------===//

#include "tsir-c/Translation.h"

#include "tsir/Exporter/Exporter.h"
#include "tsir/Importer/Importer.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"

using namespace mlir;

MlirModule tsirImportTorchScript(MlirContext ctx, MlirStringRef text,
                                 MlirStringRef bufferName) {
  return tsirImportTorchScriptWithWeights(ctx, text, bufferName,
                                          mlirStringRefCreate(nullptr, 0));
}

MlirModule tsirImportTorchScriptWithWeights(MlirContext ctx, MlirStringRef text,
                                            MlirStringRef bufferName,
                                            MlirStringRef weightsPath) {
  MLIRContext *context = unwrap(ctx);
  tsir::loadImportDialects(context);
  tsir::ImportOptions options;
  options.weightsPath = unwrap(weightsPath).str();
  OwningOpRef<ModuleOp> module = tsir::importTorchScript(
      unwrap(text), unwrap(bufferName), context, options);
  // The caller owns the module from here (mlirModuleDestroy).
  return wrap(module.release());
}

MlirLogicalResult tsirExportTorchScript(MlirModule module,
                                        MlirStringCallback callback,
                                        void *userData) {
  detail::CallbackOstream stream(callback, userData);
  return wrap(tsir::exportTorchScript(unwrap(module), stream));
}
