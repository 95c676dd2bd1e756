//===- SegmentPlans.cpp - Outlining and compiling a segment per input spec ===//
//
// A segment is compiled for the runtime values of its inputs: tensors
// become arguments of the spec's dtype and sizes, scalars arguments of
// their kind; None, strings and devices become constants; lists and
// tuples become literals of their elements (so a list appended to in a
// loop reaches `aten::stack` as a list literal of known length). The
// plan cache is keyed by all of that.
//
//===----------------------------------------------------------------------===//

#include "Segments.h"
#include "Signature.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tsir;

namespace {
/// What a plan cache key holds of the inputs: a tensor's sizes, or only its
/// dtype and rank; and a scalar's value, or only its type.
struct KeyDetail {
  bool sizes = true;
  bool scalarValues = false;
};
} // namespace

/// Appends what compiling for `value` depends on to the cache key.
static void appendKey(const rt::Value &value, std::string &key,
                      KeyDetail detail = {}) {
  switch (value.kind()) {
  case rt::Value::Kind::Tensor:
    key += detail.sizes
               ? tensorSpec(value.toTensor())
               : std::string(rt::dtypeTorchName(value.toTensor().dtype())) +
                     "^" + std::to_string(value.toTensor().dim());
    return;
  case rt::Value::Kind::Int:
  case rt::Value::Kind::Double:
  case rt::Value::Kind::Bool:
    key += value.isInt() ? "int" : value.isDouble() ? "float" : "bool";
    if (detail.scalarValues)
      key += "=" + value.toString();
    return;
  case rt::Value::Kind::None:
    key += "None";
    return;
  case rt::Value::Kind::String:
  case rt::Value::Kind::Device:
  case rt::Value::Kind::Dict:
    key += value.toString();
    return;
  case rt::Value::Kind::List:
  case rt::Value::Kind::Tuple: {
    bool isList = value.isList();
    key += isList ? "[" : "(";
    const std::vector<rt::Value> &elements =
        isList ? value.toList() : value.toTuple();
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i)
        key += ", ";
      appendKey(elements[i], key, detail);
    }
    key += isList ? "]" : ")";
    return;
  }
  }
}

/// `tensor` over the same memory with a storage offset of 0. Plans take
/// identity-layout memrefs, whose code ignores the descriptor's offset:
/// a view that starts inside its storage (a row the interpreter selected)
/// is passed as a storage of its own that starts at its first element, so
/// that the plan reads it, and writes it back, in place.
static rt::Tensor startingAtItsData(const rt::Tensor &tensor) {
  if (tensor.storageOffset() == 0)
    return tensor;
  rt::Ref<rt::Storage> whole = tensor.storage();
  size_t skipped = tensor.storageOffset() * tensor.elementSize();
  rt::Ref<rt::Storage> rest = rt::Storage::adopt(
      whole->base(), tensor.data(), whole->nbytes() - skipped, whole->device(),
      [whole](void *) {}); // keeps the whole storage alive
  return rt::Tensor(rest, tensor.sizes(), tensor.strides(), 0, tensor.dtype());
}

void tsir::Segment::flattenInputs(const std::vector<rt::Value> &inputValues,
                                  std::vector<rt::Value> &arguments) {
  for (const rt::Value &value : inputValues) {
    if (value.isList())
      flattenInputs(value.toList(), arguments);
    else if (value.isTuple())
      flattenInputs(value.toTuple(), arguments);
    else if (value.isTensor())
      arguments.emplace_back(startingAtItsData(value.toTensor()));
    else if (value.isInt() || value.isDouble() || value.isBool())
      arguments.push_back(value);
  }
}

namespace {
/// Builds the outlined function's entry: an argument or a constant for
/// each input, in the order flattenInputs lists the arguments.
class InputMaterializer {
public:
  /// `generalSizes`, if given, are the sizes to compile each tensor input
  /// for (in flattenInputs order, -1 for any), instead of its own.
  /// With `scalarsAsConstants`, the segment reads int, float and bool
  /// inputs as constants of their values.
  InputMaterializer(OpBuilder &builder, Block *entry,
                    const std::vector<std::vector<int64_t>> *generalSizes,
                    bool scalarsAsConstants)
      : builder(builder), entry(entry), context(builder.getContext()),
        generalSizes(generalSizes), scalarsAsConstants(scalarsAsConstants) {}

  Value materialize(Type type, const rt::Value &value, Location loc) {
    switch (value.kind()) {
    case rt::Value::Kind::Tensor:
      spec.push_back(tensorSpecType(value.toTensor()));
      return entry->addArgument(
          isa<prim::TensorType>(type) ? type : prim::TensorType::get(context),
          loc);
    case rt::Value::Kind::Int:
    case rt::Value::Kind::Double:
    case rt::Value::Kind::Bool: {
      // The argument stays, unused where its value is a constant, so that
      // every plan of the segment takes the same arguments.
      spec.push_back(Type());
      Value argument = entry->addArgument(scalarType(type, value), loc);
      return scalarsAsConstants
                 ? scalarConstant(argument.getType(), value, loc)
                 : argument;
    }
    case rt::Value::Kind::None:
      return constant(prim::NoneType::get(context), builder.getUnitAttr(), loc);
    case rt::Value::Kind::String:
      return constant(prim::StrType::get(context),
                      builder.getStringAttr(value.toStringRef()), loc);
    case rt::Value::Kind::Device:
      return constant(prim::DeviceType::get(context),
                      builder.getStringAttr(value.toDevice().toString()), loc);
    case rt::Value::Kind::List: {
      auto listType = dyn_cast<prim::ListType>(type);
      Type elementType =
          listType ? listType.getElementType() : prim::AnyType::get(context);
      SmallVector<Value> elements;
      for (const rt::Value &element : value.toList())
        elements.push_back(materialize(elementType, element, loc));
      if (!listType)
        listType = prim::ListType::get(
            context, elements.empty() ? elementType : elements[0].getType());
      return prim::ListConstructOp::create(builder, loc, listType, elements);
    }
    case rt::Value::Kind::Tuple: {
      auto tupleType = dyn_cast<prim::TupleType>(type);
      const std::vector<rt::Value> &values = value.toTuple();
      bool typed = tupleType && tupleType.getTypes().size() == values.size();
      SmallVector<Value> elements;
      for (size_t i = 0; i < values.size(); ++i)
        elements.push_back(materialize(typed ? tupleType.getTypes()[i]
                                             : prim::AnyType::get(context),
                                       values[i], loc));
      SmallVector<Type> elementTypes(ValueRange(elements).getTypes());
      Type resultType = typed ? tupleType.withTypes(elementTypes)
                              : prim::TupleType::get(context, elementTypes);
      return prim::TupleConstructOp::create(builder, loc, resultType, elements);
    }
    case rt::Value::Kind::Dict:
      // Segments never take dicts: the ops on them run in the interpreter.
      break;
    }
    return Value();
  }

  /// The spec of the arguments materialize added.
  const ArgumentSpec &argumentSpec() const { return spec; }

private:
  /// The type of a scalar argument: the graph's, unless it is a union
  /// (`Scalar`, `Optional[int]`) that the value decides.
  Type scalarType(Type type, const rt::Value &value) {
    if (type.isInteger(64) || type.isInteger(1) || type.isF64())
      return type;
    if (value.isInt())
      return builder.getI64Type();
    if (value.isDouble())
      return builder.getF64Type();
    return builder.getI1Type();
  }

  Value constant(Type type, Attribute attribute, Location loc) {
    return prim::ConstantOp::create(builder, loc, type, attribute);
  }

  Value scalarConstant(Type type, const rt::Value &value, Location loc) {
    if (value.isInt())
      return constant(type, builder.getI64IntegerAttr(value.toInt()), loc);
    if (value.isDouble())
      return constant(type, builder.getF64FloatAttr(value.toDouble()), loc);
    return constant(type, builder.getBoolAttr(value.toBool()), loc);
  }

  /// The spec of the next tensor input: its own sizes, or the general ones.
  Type tensorSpecType(const rt::Tensor &tensor) {
    auto type = cast<prim::TensorType>(refinedTensorType(context, tensor));
    if (!generalSizes)
      return type;
    const std::vector<int64_t> &sizes = (*generalSizes)[tensorIndex++];
    return prim::TensorType::get(context, type.getDtype(), true, sizes, false,
                                 {}, type.getDevice(), BoolAttr(), {});
  }

  OpBuilder &builder;
  Block *entry;
  MLIRContext *context;
  const std::vector<std::vector<int64_t>> *generalSizes;
  bool scalarsAsConstants;
  size_t tensorIndex = 0;
  ArgumentSpec spec;
};
} // namespace

/// The segment as a module holding `func.func @graph`, for `inputValues`;
/// `spec` receives the spec to refine it with.
static OwningOpRef<ModuleOp>
outline(const Segment &segment, const std::vector<rt::Value> &inputValues,
        ArgumentSpec &spec,
        const std::vector<std::vector<int64_t>> *generalSizes = nullptr,
        bool scalarsAsConstants = false) {
  Operation *first = segment.ops.front();
  MLIRContext *context = first->getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(first->getLoc());
  OpBuilder builder(context);
  auto func = func::FuncOp::create(first->getLoc(), "graph",
                                   builder.getFunctionType({}, {}));
  module->push_back(func);
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);

  IRMapping mapping;
  InputMaterializer materializer(builder, entry, generalSizes,
                                 scalarsAsConstants);
  for (auto [input, value] : llvm::zip(segment.inputs, inputValues))
    mapping.map(input, materializer.materialize(input.getType(), value,
                                                input.getLoc()));
  for (Operation *op : segment.copied)
    builder.clone(*op, mapping);
  for (Operation *op : segment.ops)
    builder.clone(*op, mapping);
  SmallVector<Value> results;
  for (Value output : segment.outputs)
    results.push_back(mapping.lookup(output));
  func::ReturnOp::create(builder, segment.ops.back()->getLoc(), results);
  func.setFunctionType(builder.getFunctionType(entry->getArgumentTypes(),
                                               ValueRange(results).getTypes()));
  spec = materializer.argumentSpec();
  return module;
}

/// The sizes of the tensors among `arguments` (flattenInputs' order).
static std::vector<std::vector<int64_t>>
tensorSizes(const std::vector<rt::Value> &arguments) {
  std::vector<std::vector<int64_t>> sizes;
  for (const rt::Value &argument : arguments)
    if (argument.isTensor())
      sizes.push_back(argument.toTensor().sizes());
  return sizes;
}

/// Whether tensors of `sizes` fit `general`: -1 fits any size but 1. A
/// dim of size 1 broadcasts against another operand's, and compiled code
/// takes a dim it does not know to match the other operand's instead, so a
/// 1 there compiles a plan of its own.
static bool fits(const std::vector<std::vector<int64_t>> &sizes,
                 const std::vector<std::vector<int64_t>> &general) {
  if (sizes.size() != general.size())
    return false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i].size() != general[i].size())
      return false;
    for (size_t d = 0; d < sizes[i].size(); ++d)
      if (general[i][d] == -1 ? sizes[i][d] == 1
                              : general[i][d] != sizes[i][d])
        return false;
  }
  return true;
}

/// The cache key of `inputValues`.
static std::string keyOf(const std::vector<rt::Value> &inputValues,
                         KeyDetail detail) {
  std::string key;
  for (const rt::Value &value : inputValues) {
    if (!key.empty())
      key += "; ";
    appendKey(value, key, detail);
  }
  return key;
}

/// The key of `module` (an outlined segment) compiled for `options`:
/// its text with locations (runtime checks name them in their errors), the
/// spec and what else changes the code. The store adds tsir's identity
/// and the host CPU's. Printed as a top-level module, so that the text
/// holds the bytes of any dense_resource constant, not just its name.
static std::string savedPlanKey(ModuleOp module,
                                const CompileOptions &options) {
  std::string key;
  llvm::raw_string_ostream os(key);
  module->print(os, OpPrintingFlags().enableDebugInfo());
  os << "\nspec:";
  for (Type type : options.spec)
    os << " " << type;
  os << "\n"
     << options.device << " " << options.targetCpu << " "
     << (options.optimize ? "optimize" : "");
  return key;
}

/// Compiles the outlined `module`, or links the plan an earlier process
/// saved for the same key (options.segmentPlans). A saved plan that does
/// not load (cut short, corrupt) is compiled and saved again.
static rt::StatusOr<std::unique_ptr<Plan>>
compileSegment(ModuleOp module, const CompileOptions &options) {
  if (!options.segmentPlans || options.device != "cpu")
    return compileGraph(module, options);
  std::string key = savedPlanKey(module, options);
  if (std::optional<std::string> bytes = options.segmentPlans->load(key)) {
    rt::StatusOr<std::unique_ptr<Plan>> plan = Plan::load(*bytes);
    if (plan.ok()) {
      options.segmentPlans->loaded();
      return plan;
    }
  }
  std::string saved;
  rt::StatusOr<std::unique_ptr<Plan>> plan =
      compileGraph(module, options, &saved);
  if (plan.ok() && !saved.empty())
    options.segmentPlans->save(key, saved);
  return plan;
}

rt::StatusOr<Plan *>
tsir::Segment::planFor(const std::vector<rt::Value> &inputValues,
                       const CompileOptions &options, bool &compiled,
                       std::vector<UnloweredOp> *unlowered) {
  compiled = false;
  std::string key = keyOf(inputValues, {});
  auto found = plans.find(key);
  if (found != plans.end())
    return found->second.get();
  // A spec that compiles only with its scalars' values: one plan per value.
  auto byValue = scalarValuePlans.find(key);
  if (byValue != scalarValuePlans.end()) {
    auto plan = byValue->second.plans.find(
        keyOf(inputValues, {/*sizes=*/true, /*scalarValues=*/true}));
    if (plan != byValue->second.plans.end())
      return plan->second.get();
    return planForScalarValues(
        inputValues, options, rt::Status::error(byValue->second.lowerError),
        compiled);
  }

  // Without sizes: what the general plans and the sizes seen are kept by.
  std::string shapeKey = keyOf(inputValues, {/*sizes=*/false});

  std::vector<rt::Value> arguments;
  flattenInputs(inputValues, arguments);
  std::vector<std::vector<int64_t>> sizes = tensorSizes(arguments);
  auto general = generalPlans.find(shapeKey);
  if (general != generalPlans.end() && general->second.plan &&
      fits(sizes, general->second.sizes))
    return general->second.plan.get();

  CompileOptions segmentOptions = options;
  segmentOptions.firstCallerArgument = 0;
  segmentOptions.unlowered = unlowered;

  // A second spec of the same shape with other sizes: compile once for
  // any size where the two differ. If that does not lower (an op that
  // needs a size at compile time), the segment compiles per spec.
  auto last = lastSizes.find(shapeKey);
  std::vector<std::vector<int64_t>> merged;
  if (last != lastSizes.end() && general == generalPlans.end() &&
      last->second.size() == sizes.size()) {
    merged = sizes;
    for (size_t i = 0; i < merged.size(); ++i)
      for (size_t d = 0; d < merged[i].size(); ++d)
        if (last->second[i].size() != merged[i].size() ||
            last->second[i][d] != merged[i][d])
          merged[i][d] = -1;
    if (!fits(sizes, merged)) // a 1 where the sizes differ
      merged.clear();
  }
  if (!merged.empty()) {
    CompileOptions generalOptions = segmentOptions;
    generalOptions.unlowered = nullptr;
    OwningOpRef<ModuleOp> module =
        outline(*this, inputValues, generalOptions.spec, &merged);
    rt::StatusOr<std::unique_ptr<Plan>> plan =
        compileSegment(*module, generalOptions);
    GeneralPlan &entry = generalPlans[shapeKey];
    entry.sizes = merged;
    if (plan.ok()) {
      compiled = true;
      entry.plan = std::move(*plan);
      return entry.plan.get();
    }
  }

  OwningOpRef<ModuleOp> module =
      outline(*this, inputValues, segmentOptions.spec);
  rt::StatusOr<std::unique_ptr<Plan>> plan =
      compileSegment(*module, segmentOptions);
  if (!plan.ok())
    return plan.status();
  compiled = true;
  lastSizes[shapeKey] = sizes;
  Plan *result = plan->get();
  plans.emplace(key, std::move(*plan));
  return result;
}

rt::StatusOr<Plan *>
tsir::Segment::planForScalarValues(const std::vector<rt::Value> &inputValues,
                                   const CompileOptions &options,
                                   const rt::Status &lowerError,
                                   bool &compiled) {
  compiled = false;
  std::vector<rt::Value> arguments;
  flattenInputs(inputValues, arguments);
  bool hasScalars = llvm::any_of(arguments, [](const rt::Value &value) {
    return value.isInt() || value.isDouble() || value.isBool();
  });
  if (!hasScalars)
    return lowerError;
  std::string key = keyOf(inputValues, {});
  auto known = scalarValuePlans.find(key);
  if (known != scalarValuePlans.end() &&
      known->second.plans.size() >= kMaxScalarValuePlans)
    return rt::Status::error(
        lowerError.message() + " (compiled with the values of its int, "
        "float and bool inputs instead for " +
        std::to_string(kMaxScalarValuePlans) +
        " of them already, and they keep changing)");
  CompileOptions valueOptions = options;
  valueOptions.firstCallerArgument = 0;
  valueOptions.unlowered = nullptr;
  OwningOpRef<ModuleOp> module =
      outline(*this, inputValues, valueOptions.spec, nullptr,
              /*scalarsAsConstants=*/true);
  rt::StatusOr<std::unique_ptr<Plan>> plan =
      compileSegment(*module, valueOptions);
  if (!plan.ok())
    return lowerError;
  compiled = true;
  ScalarValuePlans &byValue = scalarValuePlans[key];
  byValue.lowerError = lowerError.message();
  Plan *result = plan->get();
  byValue.plans.emplace(
      keyOf(inputValues, {/*sizes=*/true, /*scalarValues=*/true}),
      std::move(*plan));
  return result;
}
