//===- Gradients.h - A graph's outputs and its gradients --------*- C++ -*-===//
//
// What `tsir-run --grad-wrt` and `tsir.grad` run: the graph differentiated
// by tsir-differentiate into a forward and a backward graph, each run by a
// GraphExecutor of its own (a plan per input spec, the persistent plan
// cache). The forward returns the outputs and the values the backward
// saves; the backward takes those buffers as they are, with the outputs'
// gradients, and never recomputes the forward (docs/autodiff.md). A graph
// whose control flow differentiates only once the inputs' sizes fold it
// (attention's fast-path checks) is differentiated per input spec instead,
// specialized first, as TorchScript's profiling executor does.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_EXECUTOR_GRADIENTS_H
#define TSIR_EXECUTOR_GRADIENTS_H

#include "tsir/Executor/Executor.h"

namespace tsir {

class GradientExecutor {
public:
  ~GradientExecutor();

  /// Reads a graph (TorchScript text, or MLIR when the path ends in
  /// `.mlir`) and differentiates it with respect to `wrt`: input and
  /// weight names (with or without `%`), or `all`.
  static rt::StatusOr<std::unique_ptr<GradientExecutor>>
  fromFile(const std::string &path, const std::vector<std::string> &wrt,
           const ExecutorOptions &options = {});
  static rt::StatusOr<std::unique_ptr<GradientExecutor>>
  fromSource(const std::string &text, const std::string &bufferName,
             const std::vector<std::string> &wrt,
             const ExecutorOptions &options = {});

  /// The names the gradients are for, in order (`all` spelled out).
  const std::vector<std::string> &wrtNames() const;
  /// The graph's inputs, as GraphExecutor gives them.
  std::vector<std::string> inputTypes() const;

  struct Result {
    /// The graph's outputs, tuples flattened, as GraphExecutor::run.
    std::vector<rt::Value> outputs;
    /// One per wrt name, shaped as its value.
    std::vector<rt::Tensor> gradients;
    /// The bytes of the tensors the forward saved for the backward.
    size_t savedBytes = 0;
  };
  /// Runs the forward and then the backward. `gradOutputs` holds one
  /// gradient per tensor output; empty, it is ones for outputs of one
  /// element (torch's `backward()` of a loss) and an error otherwise.
  rt::StatusOr<Result> run(const std::vector<rt::Value> &inputs,
                           const std::vector<rt::Tensor> &gradOutputs = {});

  /// The two executors of the last call (for their stats and cached
  /// specs); null before the first call of a graph that differentiates
  /// only once specialized to its inputs.
  GraphExecutor *forward();
  GraphExecutor *backward();

  /// The forward and the backward as one graph, for a library compiled
  /// ahead of time (`tsir-compile --grad-wrt`): it takes the graph's
  /// inputs, then one gradient per tensor output, and returns the
  /// outputs, then one gradient per wrt name. An error for a graph that
  /// differentiates only once specialized to its inputs.
  rt::StatusOr<std::unique_ptr<GraphExecutor>> joined() const;

  struct Impl;

private:
  explicit GradientExecutor(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace tsir

#endif // TSIR_EXECUTOR_GRADIENTS_H
