//===- Interpreter.cpp - Running a segmented graph ------------------------===//
//
// See Interpreter.h. Every error names the op's place in the graph text.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"
#include "ConstantValues.h"
#include "compiler/NativeOpKinds.h"
#include "tsir/Compiler/Diagnostics.h"
#include "tsir/Dialect/Prim/ObjectOps.h"

#include "tsir-runtime/RunSupport.h"

#include <chrono>

using namespace mlir;
using namespace tsir;

/// `status` placed at `op`: `model.py:7:8: error: message` at the node's
/// Python line with the graph's place as a note, or `graph.txt:3:4: error:
/// message` (as errors found at compile time read). A Located error (one
/// from a nested op, or a compiled segment) is already placed.
static rt::Status located(Operation *op, const rt::Status &status) {
  if (status.kind() == rt::ErrorKind::Located)
    return status;
  return rt::Status::located(formatError(op->getLoc(), status.message()));
}

static rt::Status located(Operation *op, const std::string &message) {
  return located(op, rt::Status::error(message));
}

tsir::Interpreter::Interpreter(SegmentedGraph &graph,
                               const CompileOptions &segmentOptions,
                               const rt::KernelRegistry &kernels,
                               ModuleState &moduleState)
    : graph(graph), segmentOptions(segmentOptions), kernels(kernels),
      moduleState(moduleState) {}

rt::StatusOr<rt::Value> tsir::Interpreter::valueOf(Value value) const {
  auto found = env.find(value);
  if (found == env.end())
    return rt::Status::error("the interpreter reached a value before it was "
                             "computed (an internal error)");
  return found->second;
}

rt::StatusOr<std::vector<rt::Value>>
tsir::Interpreter::valuesOf(ValueRange values) const {
  std::vector<rt::Value> result;
  result.reserve(values.size());
  for (Value value : values) {
    rt::StatusOr<rt::Value> found = valueOf(value);
    if (!found.ok())
      return found.status();
    result.push_back(*found);
  }
  return result;
}

rt::Status tsir::Interpreter::bind(Operation *op,
                                   std::vector<rt::Value> results) {
  if (results.size() != op->getNumResults())
    return located(op, OpRoles::torchName(op) + " produced " +
                           std::to_string(results.size()) +
                           " values, the graph expects " +
                           std::to_string(op->getNumResults()));
  for (auto [result, value] : llvm::zip(op->getResults(), results))
    env[result] = std::move(value);
  return rt::Status::ok();
}

rt::StatusOr<std::vector<rt::Value>>
tsir::Interpreter::run(const std::vector<rt::Value> &arguments) {
  compiled = false;
  compileFailed = false;
  compileTime = 0;
  env.clear();
  func::FuncOp func = graph.func();
  Block &entry = func.getBody().front();
  if (arguments.size() != entry.getNumArguments())
    return rt::Status::error(
        "the interpreter was given " + std::to_string(arguments.size()) +
        " arguments for a graph of " + std::to_string(entry.getNumArguments()));
  for (auto [argument, value] : llvm::zip(entry.getArguments(), arguments))
    env[argument] = value;
  TSIR_RT_RETURN_IF_ERROR(runBlock(entry));
  rt::StatusOr<std::vector<rt::Value>> results =
      valuesOf(entry.getTerminator()->getOperands());
  env.clear();
  return results;
}

rt::Status tsir::Interpreter::runBlock(Block &block) {
  return runSteps(graph.steps(&block));
}

rt::Status tsir::Interpreter::runSteps(ArrayRef<Step> steps) {
  for (const Step &step : steps) {
    rt::Status status =
        step.segment ? runSegment(*step.segment) : runOp(step.op);
    if (!status.isOk())
      return status;
  }
  return rt::Status::ok();
}

rt::Status tsir::Interpreter::runSegment(Segment &segment) {
  if (segment.interpreted)
    return runSteps(segment.fallback);
  rt::StatusOr<std::vector<rt::Value>> inputs = valuesOf(segment.inputs);
  if (!inputs.ok())
    return located(segment.ops.front(), inputs.status());
  auto start = std::chrono::steady_clock::now();
  bool compiledNow = false;
  std::vector<UnloweredOp> unlowered;
  rt::StatusOr<Plan *> plan =
      segment.planFor(*inputs, segmentOptions, compiledNow, &unlowered);
  if (!plan.ok()) {
    // An op whose lowering does not take these operands runs by its
    // kernel; control flow the conversions cannot express yet is
    // interpreted, its bodies compiled. Either way the segment is cut again.
    if (graph.runByKernelsIn(segment, unlowered) ||
        graph.interpretControlFlowIn(segment)) {
      segment.interpreted = true;
      return runSteps(segment.fallback);
    }
    plan = segment.planForScalarValues(*inputs, segmentOptions, plan.status(),
                                       compiledNow);
    if (!plan.ok()) {
      compileFailed = true;
      return located(segment.ops.front(), plan.status());
    }
  }
  if (compiledNow) {
    compiled = true;
    compileTime +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  }
  std::vector<rt::Value> arguments;
  Segment::flattenInputs(*inputs, arguments);
  static const std::map<std::string, rt::Tensor> noWeights;
  rt::StatusOr<std::vector<rt::Value>> outputs =
      (*plan)->call(arguments, noWeights);
  if (!outputs.ok())
    return located(segment.ops.front(), outputs.status());
  if (outputs->size() != segment.outputs.size())
    return located(segment.ops.front(),
                   "a compiled segment returned " +
                       std::to_string(outputs->size()) + " values, not " +
                       std::to_string(segment.outputs.size()));
  for (auto [output, value] : llvm::zip(segment.outputs, *outputs))
    env[output] = std::move(value);
  for (Operation *op : segment.replayed)
    TSIR_RT_RETURN_IF_ERROR(runOp(op));
  return rt::Status::ok();
}

rt::Status tsir::Interpreter::runOp(Operation *op) {
  switch (graph.role(op)) {
  case OpRole::Kernel:
    return runKernel(op);
  case OpRole::Free:
  case OpRole::Native:
    return runNative(op);
  case OpRole::Lowered:
  case OpRole::Missing:
    break;
  }
  return rt::Status::located(describeMissingOp(op));
}

rt::Status tsir::Interpreter::runKernel(Operation *op) {
  rt::StatusOr<std::vector<rt::Value>> inputs = valuesOf(op->getOperands());
  if (!inputs.ok())
    return located(op, inputs.status());
  // `raise` without an exception class (older graphs) raises Exception.
  if (isa<prim::RaiseExceptionOp>(op) && inputs->size() == 1)
    inputs->push_back(rt::Value::none());
  rt::StatusOr<std::vector<rt::Value>> outputs =
      rt::callKernel(graph.kernelName(op), std::move(*inputs), kernels);
  // A kernel's error is named here; a raised exception stays the
  // program's own.
  if (!outputs.ok())
    return located(op, outputs.status().withContext(OpRoles::torchName(op)));
  // Ops TorchScript prints without results may still push one.
  if (op->getNumResults() == 0)
    return rt::Status::ok();
  return bind(op, std::move(*outputs));
}

rt::Status tsir::Interpreter::runIf(prim::IfOp op) {
  rt::StatusOr<rt::Value> condition = valueOf(op.getCondition());
  if (!condition.ok() || !condition->isBool())
    return located(op, "prim::If: the condition is not a bool");
  Block &block = condition->toBool() ? op.getThenRegion().front()
                                     : op.getElseRegion().front();
  TSIR_RT_RETURN_IF_ERROR(runBlock(block));
  rt::StatusOr<std::vector<rt::Value>> results =
      valuesOf(block.getTerminator()->getOperands());
  if (!results.ok())
    return located(op, results.status());
  return bind(op, std::move(*results));
}

rt::Status tsir::Interpreter::runLoop(prim::LoopOp op) {
  rt::StatusOr<rt::Value> tripCount = valueOf(op.getMaxTripCount());
  rt::StatusOr<rt::Value> condition = valueOf(op.getInitialCondition());
  rt::StatusOr<std::vector<rt::Value>> carried = valuesOf(op.getInitArgs());
  if (!tripCount.ok() || !tripCount->isInt() || !condition.ok() ||
      !condition->isBool() || !carried.ok())
    return located(op, "prim::Loop: the trip count must be an int and the "
                       "condition a bool");
  Block &body = op.getBodyBlock();
  Operation *yield = body.getTerminator();
  bool proceed = condition->toBool();
  for (int64_t i = 0; i < tripCount->toInt() && proceed; ++i) {
    env[body.getArgument(0)] = rt::Value(i);
    for (auto [argument, value] : llvm::zip(op.getCarriedArgs(), *carried))
      env[argument] = value;
    TSIR_RT_RETURN_IF_ERROR(runBlock(body));
    rt::StatusOr<std::vector<rt::Value>> next = valuesOf(yield->getOperands());
    if (!next.ok())
      return located(op, next.status());
    if (next->empty() || !next->front().isBool())
      return located(op, "prim::Loop: the continue condition is not a bool");
    proceed = next->front().toBool();
    carried->assign(next->begin() + 1, next->end());
  }
  return bind(op, std::move(*carried));
}

/// The path from the graph's `self` of the attribute `name` of `object`
/// (`self.detector._has_warned`); empty if `object` is not reached from
/// `self` by attribute reads.
static std::string selfAttributePath(Value object, StringRef name) {
  auto [root, path] = prim::attributeChain(object);
  auto argument = dyn_cast<BlockArgument>(root);
  bool isSelf = argument && argument.getArgNumber() == 0 &&
                isa<func::FuncOp>(argument.getOwner()->getParentOp()) &&
                isa<prim::ClassType>(argument.getType());
  return isSelf ? "self" + path + "." + name.str() : "";
}

/// A module attribute's value as the weights file holds it (a 0-d tensor
/// for a bool, int or float, which the run tools' scalar rule reads) as
/// the graph reads it.
static std::optional<rt::Value> attributeFromWeight(const rt::Tensor &tensor,
                                                    Type type) {
  if (isa<prim::TensorType>(type))
    return rt::Value(tensor);
  const char *scalar = type.isInteger(1)    ? "bool"
                       : type.isInteger(64) ? "int"
                       : type.isF64()       ? "float"
                                            : nullptr;
  rt::Value value = rt::scalarFromArray(rt::Value(tensor), scalar ? scalar : "");
  if (value.isTensor())
    return std::nullopt;
  return value;
}

/// The value of the attribute at `path` as the weights hold it: one weight
/// of that name, or for a list of tensors the weights `path[0]`,
/// `path[1]`, ... (as a constant list of tensors is stored); nullopt if
/// they do not hold it, or not as a value of `type`.
static std::optional<rt::Value>
attributeFromWeights(const std::map<std::string, rt::Tensor> &weights,
                     const std::string &path, Type type) {
  if (auto list = dyn_cast<prim::ListType>(type);
      list && isa<prim::TensorType>(list.getElementType())) {
    std::vector<rt::Value> elements;
    for (size_t i = 0;; ++i) {
      auto found = weights.find(path + "[" + std::to_string(i) + "]");
      if (found == weights.end())
        break;
      elements.emplace_back(found->second);
    }
    if (elements.empty())
      return std::nullopt;
    return rt::Value::list(std::move(elements));
  }
  auto found = weights.find(path);
  if (found == weights.end())
    return std::nullopt;
  return attributeFromWeight(found->second, type);
}

rt::Status tsir::Interpreter::runAttributeAccess(Operation *op) {
  auto read = dyn_cast<prim::GetAttrOp>(op);
  auto write = dyn_cast<prim::SetAttrOp>(op);
  Value object = read ? read.getObject() : write.getObject();
  StringRef name = read ? read.getName() : write.getName();
  // A module object itself is only a way to its attributes.
  if (read && isa<prim::ClassType>(read.getType()))
    return bind(op, {rt::Value::none()});
  std::string path = selfAttributePath(object, name);
  if (path.empty())
    return runObjectAttributeAccess(op, object, name);
  if (write) {
    rt::StatusOr<rt::Value> value = valueOf(write.getValue());
    if (!value.ok())
      return located(op, value.status());
    moduleState.attributes[path] = *value;
    return rt::Status::ok();
  }
  auto known = moduleState.attributes.find(path);
  if (known != moduleState.attributes.end())
    return bind(op, {known->second});
  std::optional<rt::Value> value;
  if (moduleState.weights)
    value = attributeFromWeights(*moduleState.weights, path, read.getType());
  // An Optional attribute the weights do not hold is None, as in a module
  // not yet called: such attributes are caches that forward fills on its
  // first call (MultiScaleRoIAlign's `scales`).
  if (!value && isa<prim::OptionalType>(read.getType()))
    value = rt::Value::none();
  if (!value)
    return located(op, "the graph reads the module attribute '" + path +
                           "', which freezing kept because forward writes "
                           "it: give a weights file that holds its value "
                           "under that name (a 0-d tensor for a bool, int "
                           "or float; `" + path + "[i]` for a list of "
                           "tensors)");
  moduleState.attributes[path] = *value;
  return bind(op, {*value});
}

/// An attribute of an object the graph created (`prim::CreateObject`:
/// torchvision's LevelMapper, which MultiScaleRoIAlign keeps in its
/// state): the object is its attributes by name, shared by every value
/// that refers to it.
rt::Status tsir::Interpreter::runObjectAttributeAccess(Operation *op,
                                                       Value object,
                                                       StringRef name) {
  rt::StatusOr<rt::Value> target = valueOf(object);
  if (!target.ok())
    return located(op, target.status());
  if (!target->isDict())
    return located(op, OpRoles::torchName(op) + " of '" + name.str() +
                           "' on an object tsir does not keep (a module's "
                           "own attributes and objects the graph creates "
                           "are)");
  rt::Value::DictEntries &attributes = target->toDict();
  auto entry = llvm::find_if(attributes, [&](const auto &attribute) {
    return attribute.first.toStringRef() == name;
  });
  if (auto write = dyn_cast<prim::SetAttrOp>(op)) {
    rt::StatusOr<rt::Value> value = valueOf(write.getValue());
    if (!value.ok())
      return located(op, value.status());
    if (entry != attributes.end())
      entry->second = *value;
    else
      attributes.emplace_back(rt::Value(name.str()), *value);
    return rt::Status::ok();
  }
  if (entry == attributes.end())
    return located(op, "the object has no attribute '" + name.str() +
                           "' yet: nothing has set it");
  return bind(op, {entry->second});
}

/// The elements a ListUnpack or TupleUnpack takes apart.
static const std::vector<rt::Value> *elementsOf(const rt::Value &value) {
  if (value.isList())
    return &value.toList();
  if (value.isTuple())
    return &value.toTuple();
  return nullptr;
}

rt::Status tsir::Interpreter::runNative(Operation *op) {
  if (auto constant = dyn_cast<prim::ConstantOp>(op)) {
    rt::StatusOr<rt::Value> value =
        constantValue(constant.getValue(), constant.getType());
    if (!value.ok())
      return located(op, value.status());
    return bind(op, {*value});
  }
  if (auto ifOp = dyn_cast<prim::IfOp>(op))
    return runIf(ifOp);
  if (auto loop = dyn_cast<prim::LoopOp>(op))
    return runLoop(loop);
  if (isa<prim::UninitializedOp>(op))
    return bind(op, {rt::Value::none()});
  if (prim::isCreateObject(op))
    return bind(op, {rt::Value::dict()});
  if (isa<prim::GetAttrOp, prim::SetAttrOp>(op))
    return runAttributeAccess(op);

  rt::StatusOr<std::vector<rt::Value>> operands = valuesOf(op->getOperands());
  if (!operands.ok())
    return located(op, operands.status());
  if (isa<prim::ListConstructOp>(op))
    return bind(op, {rt::Value::list(std::move(*operands))});
  if (isa<prim::TupleConstructOp>(op))
    return bind(op, {rt::Value::tuple(std::move(*operands))});
  if (isa<prim::DictConstructOp>(op)) {
    // Keys and values alternate; a repeated key keeps its first place
    // and takes the last value, as in TorchScript.
    rt::Value dict = rt::Value::dict();
    for (size_t i = 0; i + 1 < operands->size(); i += 2) {
      rt::Value &key = (*operands)[i];
      rt::Value::DictEntries &entries = dict.toDict();
      auto it = llvm::find_if(entries, [&](const auto &entry) {
        return rt::Value::sameKey(entry.first, key);
      });
      if (it != entries.end())
        it->second = std::move((*operands)[i + 1]);
      else
        entries.emplace_back(std::move(key), std::move((*operands)[i + 1]));
    }
    return bind(op, {std::move(dict)});
  }
  if (isa<prim::UncheckedCastOp>(op))
    return bind(op, std::move(*operands));
  if (isa<prim::ListUnpackOp, prim::TupleUnpackOp>(op)) {
    const std::vector<rt::Value> *elements = elementsOf(operands->front());
    if (!elements)
      return located(op, OpRoles::torchName(op) + ": not a list or tuple");
    if (elements->size() != op->getNumResults())
      return located(op, OpRoles::torchName(op) + ": expected " +
                             std::to_string(op->getNumResults()) +
                             " elements, got " +
                             std::to_string(elements->size()));
    return bind(op, *elements);
  }
  if (isa<prim::TupleIndexOp>(op)) {
    const rt::Value &tuple = (*operands)[0];
    const rt::Value &index = (*operands)[1];
    const std::vector<rt::Value> *elements = elementsOf(tuple);
    if (!elements || !index.isInt())
      return located(op, "prim::TupleIndex: not a tuple and an int index");
    int64_t size = elements->size(), i = index.toInt();
    if (i < 0)
      i += size;
    if (i < 0 || i >= size)
      return located(op, "prim::TupleIndex: tuple index out of range");
    return bind(op, {(*elements)[i]});
  }
  // Scalar arithmetic, views, metadata: the runtime kernel of its name.
  if (isNativeOp(op)) {
    std::string name = OpRoles::torchName(op);
    rt::StatusOr<std::vector<rt::Value>> results =
        rt::callKernel(name, std::move(*operands), kernels);
    if (!results.ok())
      return located(op, results.status().withContext(name));
    return bind(op, std::move(*results));
  }
  return rt::Status::located(describeMissingOp(op));
}
