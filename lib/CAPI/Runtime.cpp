//===- Runtime.cpp - Compile and run graphs from C ------------------------===//
//
// The definitions behind tsir-c/Runtime.h. Each handle points at a small
// C++ object owning what it stands for; every entry point checks its
// handles and arguments and reports problems through the thread's last
// error, since a C caller has no other channel (and the runtime aborts on
// misuse, such as reading an int out of a tensor value).
//
//===----------------------------------------------------------------------===//

#include "tsir-c/Runtime.h"

#include "tsir/Executor/Executor.h"

#include "mlir/CAPI/Support.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace tsir;

namespace {
/// A value and the handles of its elements, made on first request so that
/// borrowed element handles stay valid as long as this one.
struct ValueBox {
  rt::Value value;
  bool owned;
  std::vector<std::unique_ptr<ValueBox>> elements;

  ValueBox(rt::Value value, bool owned)
      : value(std::move(value)), owned(owned) {
    // The C API promises contiguous data; outputs may be strided views.
    if (this->value.isTensor() && this->value.toTensor().defined() &&
        !this->value.toTensor().isContiguous())
      this->value = rt::Value(this->value.toTensor().contiguous());
  }

  const std::vector<rt::Value> *elementValues() const {
    if (value.isList())
      return &value.toList();
    if (value.isTuple())
      return &value.toTuple();
    return nullptr;
  }
};

struct OutputsBox {
  std::vector<std::unique_ptr<ValueBox>> values;
};

struct ExecutorBox {
  std::unique_ptr<GraphExecutor> executor;
  // Kept here so that the MlirStringRefs handed out stay valid.
  std::vector<std::string> inputNames;
  std::vector<std::string> inputTypes;
};

thread_local std::string lastError;

void clearError() { lastError.clear(); }

void setError(std::string message) { lastError = std::move(message); }

ValueBox *unwrap(TsirValue value) { return static_cast<ValueBox *>(value.ptr); }
TsirValue wrap(ValueBox *box) { return TsirValue{box}; }
ExecutorBox *unwrap(TsirExecutor executor) {
  return static_cast<ExecutorBox *>(executor.ptr);
}
ExecutorOptions *unwrap(TsirExecutorOptions options) {
  return static_cast<ExecutorOptions *>(options.ptr);
}
OutputsBox *unwrap(TsirOutputs outputs) {
  return static_cast<OutputsBox *>(outputs.ptr);
}

/// Reports that `what` wanted `expected` ("an int") and got `box`'s kind.
void setKindError(const char *what, const char *expected, const ValueBox *box) {
  setError(std::string(what) + ": expected " + expected +
           ", got a value of kind " + box->value.kindName());
}

/// The value behind `handle`, or null with an error naming `what` asked.
ValueBox *checkedValue(TsirValue handle, const char *what) {
  ValueBox *box = unwrap(handle);
  if (!box)
    setError(std::string(what) + ": null value");
  return box;
}

/// The value behind `handle` if it is a tensor, else null with an error.
const rt::Tensor *checkedTensor(TsirValue handle, const char *what) {
  ValueBox *box = checkedValue(handle, what);
  if (!box)
    return nullptr;
  if (!box->value.isTensor()) {
    setKindError(what, "a Tensor", box);
    return nullptr;
  }
  return &box->value.toTensor();
}

ExecutorBox *checkedExecutor(TsirExecutor handle, const char *what) {
  ExecutorBox *box = unwrap(handle);
  if (!box)
    setError(std::string(what) + ": null executor");
  return box;
}

bool validDType(TsirDType dtype) {
  return dtype >= TsirDTypeFloat32 && dtype <= TsirDTypeBool;
}

rt::DType toRuntime(TsirDType dtype) { return static_cast<rt::DType>(dtype); }

TsirValue makeOwned(rt::Value value) {
  clearError();
  return wrap(new ValueBox(std::move(value), /*owned=*/true));
}

TsirExecutor makeExecutor(rt::StatusOr<std::unique_ptr<GraphExecutor>> made) {
  if (!made.ok()) {
    setError(made.status().message());
    return TsirExecutor{nullptr};
  }
  auto box = std::make_unique<ExecutorBox>();
  box->executor = std::move(*made);
  box->inputNames = box->executor->inputNames();
  box->inputTypes = box->executor->inputTypes();
  return TsirExecutor{box.release()};
}
} // namespace

// The enums of the header spell out the runtime's, in the same order.
static_assert(static_cast<int>(rt::DType::Float32) == TsirDTypeFloat32 &&
                  static_cast<int>(rt::DType::Float16) == TsirDTypeFloat16 &&
                  static_cast<int>(rt::DType::Int64) == TsirDTypeInt64 &&
                  static_cast<int>(rt::DType::UInt8) == TsirDTypeUInt8 &&
                  static_cast<int>(rt::DType::Bool) == TsirDTypeBool,
              "TsirDType must match rt::DType");
static_assert(static_cast<int>(rt::Value::Kind::None) == TsirValueKindNone &&
                  static_cast<int>(rt::Value::Kind::Tensor) ==
                      TsirValueKindTensor &&
                  static_cast<int>(rt::Value::Kind::String) ==
                      TsirValueKindString &&
                  static_cast<int>(rt::Value::Kind::Dict) == TsirValueKindDict,
              "TsirValueKind must match rt::Value::Kind");

//===----------------------------------------------------------------------===//
// Errors and dtypes
//===----------------------------------------------------------------------===//

const char *tsirRuntimeGetLastError() { return lastError.c_str(); }

size_t tsirDTypeGetElementSize(TsirDType dtype) {
  return validDType(dtype) ? rt::dtypeSize(toRuntime(dtype)) : 0;
}

const char *tsirDTypeGetTorchName(TsirDType dtype) {
  return validDType(dtype) ? rt::dtypeTorchName(toRuntime(dtype)) : "";
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

TsirValue tsirValueCreateTensor(TsirDType dtype, intptr_t rank,
                                const int64_t *sizes, const void *data) {
  const char *what = "tsirValueCreateTensor";
  if (!validDType(dtype)) {
    setError(std::string(what) + ": invalid dtype " + std::to_string(dtype));
    return TsirValue{nullptr};
  }
  if (rank < 0 || (rank > 0 && !sizes)) {
    setError(std::string(what) + ": invalid rank or null sizes");
    return TsirValue{nullptr};
  }
  std::vector<int64_t> sizeVec(sizes, sizes + rank);
  // tryEmpty checks the sizes (negative, overflowing) instead of aborting.
  rt::StatusOr<rt::Tensor> tensor =
      rt::Tensor::tryEmpty(std::move(sizeVec), toRuntime(dtype));
  if (!tensor.ok()) {
    setError(std::string(what) + ": " + tensor.status().message());
    return TsirValue{nullptr};
  }
  if (tensor->nbytes()) {
    if (data)
      std::memcpy(tensor->data(), data, tensor->nbytes());
    else
      std::memset(tensor->data(), 0, tensor->nbytes());
  }
  return makeOwned(rt::Value(std::move(*tensor)));
}

TsirValue tsirValueCreateInt(int64_t value) {
  return makeOwned(rt::Value(value));
}

TsirValue tsirValueCreateDouble(double value) {
  return makeOwned(rt::Value(value));
}

TsirValue tsirValueCreateBool(bool value) {
  return makeOwned(rt::Value(value));
}

TsirValue tsirValueCreateNone() { return makeOwned(rt::Value::none()); }

void tsirValueDestroy(TsirValue value) {
  ValueBox *box = unwrap(value);
  if (!box)
    return;
  if (!box->owned) {
    setError("tsirValueDestroy: the value is borrowed from its parent; "
             "destroy the parent instead");
    return;
  }
  delete box;
}

TsirValueKind tsirValueGetKind(TsirValue value) {
  ValueBox *box = checkedValue(value, "tsirValueGetKind");
  return box ? static_cast<TsirValueKind>(box->value.kind())
             : TsirValueKindInvalid;
}

int64_t tsirValueGetInt(TsirValue value) {
  ValueBox *box = checkedValue(value, "tsirValueGetInt");
  if (!box)
    return 0;
  if (!box->value.isInt()) {
    setKindError("tsirValueGetInt", "an int", box);
    return 0;
  }
  clearError();
  return box->value.toInt();
}

double tsirValueGetDouble(TsirValue value) {
  ValueBox *box = checkedValue(value, "tsirValueGetDouble");
  if (!box)
    return 0;
  if (box->value.isInt()) {
    clearError();
    return static_cast<double>(box->value.toInt());
  }
  if (!box->value.isDouble()) {
    setKindError("tsirValueGetDouble", "a float", box);
    return 0;
  }
  clearError();
  return box->value.toDouble();
}

bool tsirValueGetBool(TsirValue value) {
  ValueBox *box = checkedValue(value, "tsirValueGetBool");
  if (!box)
    return false;
  if (!box->value.isBool()) {
    setKindError("tsirValueGetBool", "a bool", box);
    return false;
  }
  clearError();
  return box->value.toBool();
}

MlirStringRef tsirValueGetString(TsirValue value) {
  ValueBox *box = checkedValue(value, "tsirValueGetString");
  if (!box)
    return mlirStringRefCreate(nullptr, 0);
  if (!box->value.isString()) {
    setKindError("tsirValueGetString", "a str", box);
    return mlirStringRefCreate(nullptr, 0);
  }
  clearError();
  return wrap(llvm::StringRef(box->value.toStringRef()));
}

intptr_t tsirValueGetNumElements(TsirValue value) {
  ValueBox *box = checkedValue(value, "tsirValueGetNumElements");
  if (!box)
    return -1;
  const std::vector<rt::Value> *elements = box->elementValues();
  if (!elements) {
    setKindError("tsirValueGetNumElements", "a List or Tuple", box);
    return -1;
  }
  clearError();
  return static_cast<intptr_t>(elements->size());
}

TsirValue tsirValueGetElement(TsirValue value, intptr_t pos) {
  intptr_t count = tsirValueGetNumElements(value);
  if (count < 0)
    return TsirValue{nullptr};
  if (pos < 0 || pos >= count) {
    setError("tsirValueGetElement: element " + std::to_string(pos) + " of " +
             std::to_string(count));
    return TsirValue{nullptr};
  }
  ValueBox *box = unwrap(value);
  // A list may have grown since the handles were made (lists alias); never
  // shrink, which would free handles the caller may hold.
  if (box->elements.size() < static_cast<size_t>(count))
    box->elements.resize(count);
  std::unique_ptr<ValueBox> &element = box->elements[pos];
  if (!element)
    element = std::make_unique<ValueBox>((*box->elementValues())[pos],
                                         /*owned=*/false);
  return wrap(element.get());
}

TsirDType tsirValueGetTensorDType(TsirValue value) {
  const rt::Tensor *tensor = checkedTensor(value, "tsirValueGetTensorDType");
  if (!tensor)
    return TsirDTypeInvalid;
  clearError();
  return static_cast<TsirDType>(tensor->dtype());
}

intptr_t tsirValueGetTensorRank(TsirValue value) {
  const rt::Tensor *tensor = checkedTensor(value, "tsirValueGetTensorRank");
  if (!tensor)
    return -1;
  clearError();
  return static_cast<intptr_t>(tensor->dim());
}

const int64_t *tsirValueGetTensorSizes(TsirValue value) {
  const rt::Tensor *tensor = checkedTensor(value, "tsirValueGetTensorSizes");
  if (!tensor)
    return nullptr;
  clearError();
  return tensor->sizes().data();
}

int64_t tsirValueGetTensorNumElements(TsirValue value) {
  const rt::Tensor *tensor =
      checkedTensor(value, "tsirValueGetTensorNumElements");
  if (!tensor)
    return -1;
  clearError();
  return tensor->defined() ? tensor->numel() : 0;
}

void *tsirValueGetTensorData(TsirValue value) {
  const rt::Tensor *tensor = checkedTensor(value, "tsirValueGetTensorData");
  if (!tensor)
    return nullptr;
  clearError();
  return tensor->data();
}

//===----------------------------------------------------------------------===//
// Executor options
//===----------------------------------------------------------------------===//

TsirExecutorOptions tsirExecutorOptionsCreate() {
  return TsirExecutorOptions{new ExecutorOptions()};
}

void tsirExecutorOptionsDestroy(TsirExecutorOptions options) {
  delete unwrap(options);
}

void tsirExecutorOptionsSetWeightsPath(TsirExecutorOptions options,
                                       MlirStringRef path) {
  if (ExecutorOptions *opts = unwrap(options))
    opts->weightsPath = unwrap(path).str();
}

MlirLogicalResult tsirExecutorOptionsAddWeight(TsirExecutorOptions options,
                                               MlirStringRef name,
                                               TsirValue tensor) {
  ExecutorOptions *opts = unwrap(options);
  if (!opts) {
    setError("tsirExecutorOptionsAddWeight: null options");
    return mlirLogicalResultFailure();
  }
  const rt::Tensor *weight =
      checkedTensor(tensor, "tsirExecutorOptionsAddWeight");
  if (!weight)
    return mlirLogicalResultFailure();
  opts->weights.emplace_back(unwrap(name).str(), *weight);
  clearError();
  return mlirLogicalResultSuccess();
}

void tsirExecutorOptionsSetOptimize(TsirExecutorOptions options,
                                    bool optimize) {
  if (ExecutorOptions *opts = unwrap(options))
    opts->optimize = optimize;
}

void tsirExecutorOptionsSetThreads(TsirExecutorOptions options, int threads) {
  if (ExecutorOptions *opts = unwrap(options))
    opts->threads = threads;
}

//===----------------------------------------------------------------------===//
// Executors
//===----------------------------------------------------------------------===//

TsirExecutor tsirExecutorCreateFromFile(MlirStringRef path,
                                        TsirExecutorOptions options) {
  ExecutorOptions defaults;
  const ExecutorOptions *opts = unwrap(options) ? unwrap(options) : &defaults;
  clearError();
  return makeExecutor(GraphExecutor::fromFile(unwrap(path).str(), *opts));
}

TsirExecutor tsirExecutorCreateFromSource(MlirStringRef text,
                                          MlirStringRef bufferName,
                                          TsirExecutorOptions options) {
  ExecutorOptions defaults;
  const ExecutorOptions *opts = unwrap(options) ? unwrap(options) : &defaults;
  clearError();
  return makeExecutor(GraphExecutor::fromSource(
      unwrap(text).str(), unwrap(bufferName).str(), *opts));
}

void tsirExecutorDestroy(TsirExecutor executor) { delete unwrap(executor); }

intptr_t tsirExecutorGetNumInputs(TsirExecutor executor) {
  ExecutorBox *box = checkedExecutor(executor, "tsirExecutorGetNumInputs");
  if (!box)
    return -1;
  clearError();
  return static_cast<intptr_t>(box->inputNames.size());
}

/// Entry `pos` of one of the executor's input lists, checked.
static MlirStringRef inputString(TsirExecutor executor, intptr_t pos,
                                 std::vector<std::string> ExecutorBox::*list,
                                 const char *what) {
  ExecutorBox *box = checkedExecutor(executor, what);
  if (!box)
    return mlirStringRefCreate(nullptr, 0);
  const std::vector<std::string> &strings = box->*list;
  if (pos < 0 || static_cast<size_t>(pos) >= strings.size()) {
    setError(std::string(what) + ": input " + std::to_string(pos) + " of " +
             std::to_string(strings.size()));
    return mlirStringRefCreate(nullptr, 0);
  }
  clearError();
  return wrap(llvm::StringRef(strings[pos]));
}

MlirStringRef tsirExecutorGetInputName(TsirExecutor executor, intptr_t pos) {
  return inputString(executor, pos, &ExecutorBox::inputNames,
                     "tsirExecutorGetInputName");
}

MlirStringRef tsirExecutorGetInputType(TsirExecutor executor, intptr_t pos) {
  return inputString(executor, pos, &ExecutorBox::inputTypes,
                     "tsirExecutorGetInputType");
}

TsirOutputs tsirExecutorRun(TsirExecutor executor, intptr_t numInputs,
                            const TsirValue *inputs) {
  const char *what = "tsirExecutorRun";
  ExecutorBox *box = checkedExecutor(executor, what);
  if (!box)
    return TsirOutputs{nullptr};
  if (numInputs < 0 || (numInputs > 0 && !inputs)) {
    setError(std::string(what) + ": invalid input count or null inputs");
    return TsirOutputs{nullptr};
  }
  std::vector<rt::Value> values;
  values.reserve(numInputs);
  for (intptr_t i = 0; i < numInputs; ++i) {
    ValueBox *input = unwrap(inputs[i]);
    if (!input) {
      setError(std::string(what) + ": input " + std::to_string(i) +
               " is a null value");
      return TsirOutputs{nullptr};
    }
    values.push_back(input->value);
  }
  rt::StatusOr<std::vector<rt::Value>> results = box->executor->run(values);
  if (!results.ok()) {
    setError(results.status().message());
    return TsirOutputs{nullptr};
  }
  auto outputs = std::make_unique<OutputsBox>();
  for (rt::Value &result : *results)
    outputs->values.push_back(
        std::make_unique<ValueBox>(std::move(result), /*owned=*/false));
  clearError();
  return TsirOutputs{outputs.release()};
}

intptr_t tsirExecutorGetNumCachedPlans(TsirExecutor executor) {
  ExecutorBox *box = checkedExecutor(executor, "tsirExecutorGetNumCachedPlans");
  if (!box)
    return -1;
  clearError();
  return static_cast<intptr_t>(box->executor->numCachedPlans());
}

bool tsirExecutorLastRunCompiled(TsirExecutor executor) {
  ExecutorBox *box = checkedExecutor(executor, "tsirExecutorLastRunCompiled");
  if (!box)
    return false;
  clearError();
  return box->executor->lastStats().compiled;
}

//===----------------------------------------------------------------------===//
// Outputs
//===----------------------------------------------------------------------===//

intptr_t tsirOutputsGetCount(TsirOutputs outputs) {
  OutputsBox *box = unwrap(outputs);
  if (!box) {
    setError("tsirOutputsGetCount: null outputs");
    return -1;
  }
  clearError();
  return static_cast<intptr_t>(box->values.size());
}

TsirValue tsirOutputsGet(TsirOutputs outputs, intptr_t pos) {
  intptr_t count = tsirOutputsGetCount(outputs);
  if (count < 0)
    return TsirValue{nullptr};
  if (pos < 0 || pos >= count) {
    setError("tsirOutputsGet: output " + std::to_string(pos) + " of " +
             std::to_string(count));
    return TsirValue{nullptr};
  }
  return wrap(unwrap(outputs)->values[pos].get());
}

void tsirOutputsDestroy(TsirOutputs outputs) { delete unwrap(outputs); }
