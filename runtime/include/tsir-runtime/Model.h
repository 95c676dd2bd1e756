//===- Model.h - Loading and running an ahead-of-time compiled model -*- C++ -*-===//
//
// A model.so that `tsir-compile` wrote holds one graph compiled for one
// input spec and implements the C ABI of tsir_model.h. Model loads one
// with dlopen, binds its weights when they were left in their safetensors
// file, and runs it on runtime values. It needs no LLVM or MLIR: this is
// how a deployed model runs.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_MODEL_H
#define TSIR_RUNTIME_MODEL_H

#include "tsir-runtime/Status.h"
#include "tsir-runtime/Tensor.h"
#include "tsir-runtime/Value.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tsir::rt {

/// One input of a compiled model, as its signature describes it.
struct ModelInput {
  std::string name; ///< the graph's value name, without `%`
  std::string type; ///< the compiled spec: `Float(1, 3, 224, 224)`, `int`
  enum class Kind { Tensor, Int, Float, Bool } kind = Kind::Tensor;
};

class Model {
public:
  ~Model();
  Model(const Model &) = delete;
  Model &operator=(const Model &) = delete;

  /// Loads `path`. A model compiled with its weights left in a file reads
  /// them from `weightsPath`, or else from the file named at compile time.
  static StatusOr<std::unique_ptr<Model>> load(const std::string &path,
                                               const std::string &weightsPath = "");
  /// Loads `path` with the weights it left in a file bound from `weights`
  /// (by value name) instead: tensors held in memory, which the model
  /// reads in place and keeps alive. The executor's persistent plan cache
  /// loads its plans this way.
  static StatusOr<std::unique_ptr<Model>>
  load(const std::string &path, const std::map<std::string, Tensor> &weights);

  const std::vector<ModelInput> &inputs() const { return inputList; }
  size_t numOutputs() const { return outputCount; }
  /// "cpu" or "cuda".
  const std::string &device() const { return deviceName; }
  /// The spec it was compiled for: `Float(2, 3), int`.
  const std::string &spec() const { return specText; }
  /// The JSON the model describes itself with (tsir_model_signature).
  const std::string &signature() const { return signatureJson; }

  /// Runs the model. Inputs are checked against the compiled spec (count,
  /// kind, dtype, sizes); a 0-d tensor stands for an int, float or bool
  /// input of its kind. Outputs are fresh values the caller owns; tensor
  /// inputs the graph writes in place are written.
  StatusOr<std::vector<Value>> run(const std::vector<Value> &inputs) const;

  struct Functions;

private:
  Model() = default;

  /// Opens the library and reads its signature; binds nothing.
  static StatusOr<std::unique_ptr<Model>> open(const std::string &path);
  /// Binds the weights the signature names from `tensors`, read from
  /// `source` (named in errors).
  Status bindWeights(const std::map<std::string, Tensor> &tensors,
                     const std::string &source, const std::string &path);

  /// The dlopen handle, closed with the last of the model and its outputs.
  std::shared_ptr<void> library;
  std::unique_ptr<Functions> functions;
  std::vector<ModelInput> inputList;
  size_t outputCount = 0;
  std::string deviceName, specText, signatureJson;
  /// The weights the signature names, when they were left in a file.
  std::vector<std::string> externalWeights;
  /// The file named at compile time for them.
  std::string weightsFile;
  /// Weights bound from a file or from memory: the model reads them.
  std::map<std::string, Tensor> boundWeights;
};

} // namespace tsir::rt

#endif // TSIR_RUNTIME_MODEL_H
