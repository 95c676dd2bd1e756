//===- FuzzSupport.h - What the libFuzzer harnesses share -------*- C++ -*-===//
//
// One MLIRContext per fuzzing process with tsir's dialects loaded (making
// one per input would spend most of the time registering aten's ops), and
// a diagnostic handler that swallows the errors bad inputs are expected to
// produce: a harness fails only on a crash, a leak, a hang or a sanitizer
// report, never on an error message.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_TOOLS_FUZZ_FUZZSUPPORT_H
#define TSIR_TOOLS_FUZZ_FUZZSUPPORT_H

#include "tsir/Importer/Importer.h"
#include "tsir/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

namespace tsir::fuzz {

inline mlir::MLIRContext &context() {
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    registry.insert<mlir::func::FuncDialect>();
    tsir::registerAllDialects(registry);
    auto *context = new mlir::MLIRContext(
        registry, mlir::MLIRContext::Threading::DISABLED);
    tsir::loadImportDialects(context);
    context->loadAllAvailableDialects();
    // Errors are the expected answer to most inputs: drop them.
    context->getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
    return context;
  }();
  return *context;
}

} // namespace tsir::fuzz

#endif // TSIR_TOOLS_FUZZ_FUZZSUPPORT_H
