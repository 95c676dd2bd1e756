//===- Module.cpp - The tsir._tsir extension module -----------------------===//
//
// Registers tsir's and upstream's passes once per process (so run_pass
// takes any name tsir-opt takes), the tsir.Error exception, and the
// classes of the other files. The pure-Python package (tsir/__init__.py)
// is the public face; this module is its native half.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "tsir/InitAll.h"

#include "mlir/InitAllPasses.h"

using namespace tsir::python;

PYBIND11_MODULE(_tsir, m) {
  m.doc() = "tsir's native bindings; use the `tsir` package.";

  mlir::registerAllPasses();
  tsir::registerAllPasses();

  py::register_exception<Error>(m, "Error", PyExc_Exception);

  bindGraph(m);
  bindTraversal(m);
  bindTypes(m);
  bindExecution(m);
  bindAheadOfTime(m);
}
