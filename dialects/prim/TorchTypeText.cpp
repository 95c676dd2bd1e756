//===- TorchTypeText.cpp - Reading the types torch prints -----------------===//
//
// See TorchTypeText.h.
//
//===----------------------------------------------------------------------===//

#include "tsir/Dialect/Prim/TorchTypeText.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

using namespace mlir;

Type tsir::prim::parseTorchTypeText(MLIRContext *context, StringRef text,
                                    std::string &error) {
  auto *dialect = context->getOrLoadDialect<PrimDialect>();
  const auto *reader =
      dialect->getRegisteredInterface<TorchTypeTextInterface>();
  if (!reader) {
    error = "reading TorchScript's type spellings needs tsir's importer, "
            "which this program did not register "
            "(tsir::registerTorchTypeText)";
    return {};
  }
  return reader->parse(text, error);
}
