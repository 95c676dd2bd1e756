//===- ModelRunner.h - The command line that runs a compiled model -*- C++ -*-===//
//
// `tsir-run model.so [--weights W] --input a.npy --input 3 ...
// [--output-dir DIR] [--bench N] [--device cpu|cuda]`: loads a model that
// tsir-compile wrote, runs it, writes out0.npy, out1.npy, ... and prints a
// summary. The runtime's own `tsir-run` is this alone (no MLIR on the
// machine); tsir's `tsir-run` calls it for a .so argument.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_MODELRUNNER_H
#define TSIR_RUNTIME_MODELRUNNER_H

namespace tsir::rt {

/// Runs the command line; returns the process exit code.
int runModelMain(int argc, char **argv);

} // namespace tsir::rt

#endif // TSIR_RUNTIME_MODELRUNNER_H
