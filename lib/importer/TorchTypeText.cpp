//===- TorchTypeText.cpp - One type as torch prints it, read --------------===//
//
// parseTorchType and the prim dialect's TorchTypeTextInterface on top of
// it: the text is read as the type of a one-input graph, so every spelling
// the importer knows (each version's) is read the same way here. The
// interface's graphs are the importer's, unchanged.
//
//===----------------------------------------------------------------------===//

#include "tsir/Importer/Importer.h"

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Dialect/Prim/TorchTypeText.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;

Type tsir::parseTorchType(MLIRContext *context, StringRef text,
                          std::string &error) {
  static constexpr StringLiteral prefix = "graph(%x : ";
  std::string graph = (prefix + text + "):\n  return (%x)\n").str();
  std::string message;
  unsigned column = 0;
  Type type;
  {
    ScopedDiagnosticHandler capture(context, [&](Diagnostic &diag) {
      if (message.empty()) {
        message = diag.str();
        if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation()))
          column = loc.getColumn();
      }
      return success();
    });
    OwningOpRef<ModuleOp> module =
        importTorchScript(graph, "type", context, ImportOptions());
    auto func =
        module ? module->lookupSymbol<func::FuncOp>("graph") : func::FuncOp();
    if (func && func.getNumArguments() == 1)
      type = func.getArgumentTypes().front();
    // The importer builds tensor types unchecked (sizes and strides of
    // different lengths pass): check them here.
    if (auto tensor = dyn_cast_or_null<prim::TensorType>(type))
      type = prim::TensorType::getChecked(
          [&] { return emitError(UnknownLoc::get(context)); }, context,
          tensor.getDtype(), tensor.getHasSizes(), tensor.getSizes(),
          tensor.getHasStrides(), tensor.getStrides(), tensor.getDevice(),
          tensor.getRequiresGrad(), tensor.getLegacyNonContiguous());
  }
  if (!type) {
    error = "is not a TorchScript type: " + message;
    if (column > prefix.size() && column <= prefix.size() + text.size())
      error += " (at column " + std::to_string(column - prefix.size()) + ")";
  }
  return type;
}

namespace {
struct ImporterTypeText : tsir::prim::TorchTypeTextInterface {
  using TorchTypeTextInterface::TorchTypeTextInterface;
  Type parse(StringRef text, std::string &error) const override {
    return tsir::parseTorchType(getContext(), text, error);
  }
  OwningOpRef<ModuleOp> importGraph(StringRef text,
                                    StringRef bufferName) const override {
    return tsir::importTorchScript(text, bufferName, getContext());
  }
};
} // namespace

void tsir::registerTorchTypeText(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, prim::PrimDialect *dialect) {
    dialect->addInterfaces<ImporterTypeText>();
  });
}
