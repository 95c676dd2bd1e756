//===- Bindings.h - The objects the tsir Python module wraps ----*- C++ -*-===//
//
// The native half of the `tsir` package (`tsir._tsir`). Python sees small
// wrapper objects, never MLIR's classes: a PyGraph owns its MLIRContext and
// module; nodes, blocks, values and types hold a reference to their graph,
// so they stay usable while Python holds them, and remember the graph's
// generation, so that a handle taken before a pass rewrote the graph raises
// an error instead of touching freed IR. MLIR and LLVM are built without
// RTTI and exceptions; these files are built with both (pybind11 needs
// them) and so derive from no MLIR class.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PYTHON_BINDINGS_H
#define TSIR_PYTHON_BINDINGS_H

#include "tsir/Executor/Executor.h"
#include "tsir/Executor/Gradients.h"

#include "tsir-runtime/Tensor.h"
#include "tsir-runtime/Value.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseMap.h"

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tsir::python {

namespace py = pybind11;

/// Raised as `tsir.Error`: everything tsir itself reports (a malformed
/// graph, a failed pass, inputs that do not fit the graph).
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Named tensors: a graph's weights, by value name without `%`.
using Weights = std::vector<std::pair<std::string, rt::Tensor>>;

/// One imported graph: a module holding `func.func @graph`, its context,
/// and the weights attached to it.
class PyGraph : public std::enable_shared_from_this<PyGraph> {
public:
  /// Reads TorchScript graph text, or MLIR when `isMLIR`; `bufferName`
  /// names the text in diagnostics. Throws Error with the diagnostics.
  static std::shared_ptr<PyGraph> import(const std::string &text,
                                         const std::string &bufferName,
                                         bool isMLIR, Weights weights);

  mlir::ModuleOp module() const { return moduleOp.get(); }
  mlir::func::FuncOp func() const;
  mlir::MLIRContext *context() const { return ctx.get(); }
  const std::string &bufferName() const { return name; }
  const Weights &weights() const { return weightList; }

  /// Runs a textual pass pipeline (`prim-cse`, `tsir-optimize{fuse=false}`,
  /// `func.func(prim-dce)`, `builtin.module(...)`) on a copy of the module
  /// and keeps the copy only if every pass succeeds.
  void runPipeline(const std::string &pipeline);

  /// The graph as TorchScript text (the exporter).
  std::string toTorchScript() const;
  /// The module as MLIR; with `debugInfo` the locations that carry value
  /// names and graph positions are printed too (and parse back).
  std::string toMLIR(bool debugInfo) const;
  /// A copy of the graph in a context of its own.
  std::shared_ptr<PyGraph> copy() const;

  /// Bumped whenever the IR is replaced; handles of older generations are
  /// stale.
  uint64_t generation() const { return gen; }
  /// The value's TorchScript name, as the exporter would print it.
  const std::string &valueName(mlir::Value value);

private:
  PyGraph() = default;

  // The context is declared first so that it is destroyed last.
  std::unique_ptr<mlir::MLIRContext> ctx;
  mlir::OwningOpRef<mlir::ModuleOp> moduleOp;
  std::string name;
  Weights weightList;
  uint64_t gen = 0;
  std::optional<llvm::DenseMap<mlir::Value, std::string>> names;
};

using GraphRef = std::shared_ptr<PyGraph>;

/// What every handle into a graph shares: the owning graph and the
/// generation the handle was taken in.
class PyHandle {
public:
  explicit PyHandle(GraphRef graph)
      : graph(std::move(graph)), generation(this->graph->generation()) {}
  const GraphRef &getGraph() const { return graph; }
  /// Throws Error if the graph was rewritten since the handle was taken.
  void checkFresh() const;

protected:
  GraphRef graph;
  uint64_t generation;
};

/// A node: one op of the graph (not a terminator, except as the owner of
/// graph and block outputs, where it has kind `prim::Return`).
class PyNode : public PyHandle {
public:
  PyNode(GraphRef graph, mlir::Operation *op)
      : PyHandle(std::move(graph)), op(op) {}
  mlir::Operation *get() const {
    checkFresh();
    return op;
  }

private:
  mlir::Operation *op;
};

/// A block of a node (`prim::If`'s branches, `prim::Loop`'s body, a
/// subgraph op's graph).
class PyBlock : public PyHandle {
public:
  PyBlock(GraphRef graph, mlir::Block *block)
      : PyHandle(std::move(graph)), block(block) {}
  mlir::Block *get() const {
    checkFresh();
    return block;
  }

private:
  mlir::Block *block;
};

/// A value: a graph or block input, or a node output.
class PyValue : public PyHandle {
public:
  PyValue(GraphRef graph, mlir::Value value)
      : PyHandle(std::move(graph)), value(value) {}
  mlir::Value get() const {
    checkFresh();
    return value;
  }

private:
  mlir::Value value;
};

/// A TorchScript type. Types live as long as the context, so a type stays
/// valid across passes.
class PyType {
public:
  PyType(GraphRef graph, mlir::Type type)
      : graph(std::move(graph)), type(type) {}
  const GraphRef &getGraph() const { return graph; }
  mlir::Type get() const { return type; }

private:
  GraphRef graph;
  mlir::Type type;
};

//===----------------------------------------------------------------------===//
// Runtime values (Tensors.cpp)
//===----------------------------------------------------------------------===//

/// A runtime tensor over a numpy array's memory, without a copy when the
/// array is writeable, native-endian, and its strides are non-negative
/// multiples of the element size; a contiguous copy otherwise. Also takes
/// a DLPack capsule (how bfloat16 torch tensors arrive). Throws
/// py::type_error for other objects and unsupported dtypes.
rt::Tensor tensorFromPython(py::handle object);
/// A numpy array over the tensor's memory, keeping the tensor alive.
/// numpy has no bfloat16: those become a float32 copy.
py::object arrayFromTensor(const rt::Tensor &tensor);
/// A DLPack capsule ("dltensor") over the tensor's memory.
py::capsule dlpackFromTensor(const rt::Tensor &tensor);

/// A graph input from Python: None, bool, int, float, str, an array (see
/// tensorFromPython), or a list/tuple of those.
rt::Value valueFromPython(py::handle object);
/// A graph output as Python: tensors as arrays (bfloat16 tensors as DLPack
/// capsules when `bfloat16AsDLPack`), lists, tuples, dicts and scalars as
/// Python's own.
py::object valueToPython(const rt::Value &value, bool bfloat16AsDLPack);

//===----------------------------------------------------------------------===//
// Module parts, one per file
//===----------------------------------------------------------------------===//

/// A constant attribute (of a prim.Constant of `type`, or a node
/// attribute when `type` is null) as a Python value.
py::object attributeToPython(const GraphRef &graph, mlir::Attribute attr,
                             mlir::Type type);

/// The Graphviz text of a graph (Dot.cpp).
std::string graphToDot(const GraphRef &graph);

/// A GraphExecutor over the graph's MLIR (printed with its locations, so
/// errors name the graph text's lines) and its attached weights, which
/// win over `options.weightsPath`'s (Execution.cpp). Throws Error.
std::unique_ptr<tsir::GraphExecutor>
makeExecutor(const GraphRef &graph, tsir::ExecutorOptions options);

void bindGraph(py::module_ &m);
void bindTraversal(py::module_ &m);
void bindTypes(py::module_ &m);
void bindExecution(py::module_ &m);
void bindAheadOfTime(py::module_ &m);

} // namespace tsir::python

#endif // TSIR_PYTHON_BINDINGS_H
