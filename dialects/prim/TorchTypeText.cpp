//===- TorchTypeText.cpp - Reading the types torch prints -----------------===//
//
// See TorchTypeText.h.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/TorchTypeText.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

using namespace mlir;
using namespace tsir;

static constexpr llvm::StringLiteral kNoImporter =
    "needs tsir's importer, which this program did not register "
    "(tsir::registerTorchTypeText)";

static const prim::TorchTypeTextInterface *getReader(MLIRContext *context) {
  auto *dialect = context->getOrLoadDialect<prim::PrimDialect>();
  return dialect->getRegisteredInterface<prim::TorchTypeTextInterface>();
}

Type tsir::prim::parseTorchTypeText(MLIRContext *context, StringRef text,
                                    std::string &error) {
  const auto *reader = getReader(context);
  if (!reader) {
    error = ("reading TorchScript's type spellings " + kNoImporter).str();
    return {};
  }
  return reader->parse(text, error);
}

OwningOpRef<ModuleOp>
tsir::prim::importTorchGraphText(MLIRContext *context, StringRef text,
                                 StringRef bufferName) {
  const auto *reader = getReader(context);
  if (!reader) {
    emitError(UnknownLoc::get(context))
        << "reading " << bufferName << " as TorchScript " << kNoImporter;
    return nullptr;
  }
  return reader->importGraph(text, bufferName);
}
