//===- Signature.h - A graph's inputs, and checking values against them -*- C++ -*-===//
//
// The executor checks every call's inputs against the graph's signature
// before anything is compiled, so a wrong count, dtype or rank is an error
// naming the input, never a crash in compiled code; and it turns the
// inputs into the argument spec the plan cache is keyed by.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_LIB_COMPILER_SIGNATURE_H
#define TSIR_LIB_COMPILER_SIGNATURE_H

#include "tsir-runtime/Status.h"
#include "tsir-runtime/Value.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>
#include <vector>

namespace tsir {

struct GraphInput {
  std::string name;    ///< the value name, without `%`
  mlir::Type type;     ///< as imported
  std::string typeText; ///< as TorchScript prints it
};

/// What tsir-refine-types specializes a graph to, one type per argument
/// (createTsirRefineTypesPass(ArrayRef<Type>)): null keeps the declared
/// type, `!prim.none` marks an Optional input that is None, a tensor type
/// refines a tensor input.
using ArgumentSpec = std::vector<mlir::Type>;

/// `Float(2, 3)`: dtype and exact sizes, the plan cache's key and what tsir
/// prints.
std::string tensorSpec(const rt::Tensor &tensor);

/// The type tsir-refine-types gives an input that is `tensor`: its dtype,
/// its sizes, and the device (the executor's tensors are host tensors, so
/// `x.device` and `x.is_cuda` fold). A size of 0 is left open: the
/// lowering's static shapes cannot hold an empty dim (bufferization
/// rejects views of one), while code compiled for a dynamic size runs its
/// loops zero times and gives the empty result torch gives. A 1-d empty
/// tensor keeps its 0: `cat` skips exactly those (torch's legacy rule),
/// which it must know when it compiles.
mlir::Type refinedTensorType(mlir::MLIRContext *context,
                             const rt::Tensor &tensor);

/// Whether `value` is a list of tensors (a detection model's images),
/// which specs and plans take element by element.
bool isTensorList(const rt::Value &value);

/// The inputs a graph declares (its signature, to the caller): what checks
/// the values of a call and derives the specs plans are keyed by.
class GraphInputs {
public:
  explicit GraphInputs(mlir::func::FuncOp graph);

  /// The inputs the caller supplies: a frozen module's class-typed `self`
  /// (the first input) is not one of them.
  const std::vector<GraphInput> &inputs() const { return callerInputs; }
  /// 1 if the graph's first input is `self`, else 0.
  unsigned firstCallerArgument() const { return selfCount; }

  /// Checks count, kind, dtype and rank of `values`.
  rt::Status check(const std::vector<rt::Value> &values) const;

  /// The spec of `values` the plan cache is keyed by: `Float(2, 3), int,
  /// bool` (`_` for `self`).
  std::string spec(const std::vector<rt::Value> &values) const;
  /// The same without `self`: the caller's inputs alone.
  std::string callerSpec(const std::vector<rt::Value> &values) const {
    return spec(values, 0);
  }

  /// The spec tsir-refine-types specializes the graph to for `values`
  /// (`self` and scalars keep their declared types).
  ArgumentSpec refineSpec(const std::vector<rt::Value> &values) const;

private:
  /// The spec of `values`, which are the caller inputs from `first` on.
  std::string spec(const std::vector<rt::Value> &values, size_t first) const;

  std::vector<GraphInput> callerInputs;
  unsigned selfCount = 0;
  mlir::MLIRContext *context;
};

/// `Float[2, 3]`, `int 3`, ... for messages.
std::string describeValue(const rt::Value &value);

} // namespace tsir

#endif // TSIR_LIB_COMPILER_SIGNATURE_H
