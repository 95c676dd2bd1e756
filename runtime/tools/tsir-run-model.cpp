//===- tsir-run-model.cpp - Run a compiled model without MLIR -------------===//
//
// The runtime's own runner (installed as `tsir-run` by a standalone runtime
// build): it links only TsirRuntime, so a model.so that tsir-compile wrote
// runs on a machine that has no LLVM or MLIR. See ModelRunner.h.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/ModelRunner.h"

int main(int argc, char **argv) { return tsir::rt::runModelMain(argc, argv); }
