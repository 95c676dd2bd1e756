//===- AliasAnalysis.cpp - TorchScript's alias rules over one graph -------===//
//
// Builds the alias sets of tsir/Transforms/AliasAnalysis.h in one walk:
// typed aten ops follow their schema's annotations, prim ops their
// TorchScript semantics, and anything else is opaque.
//
//===----------------------------------------------------------------------===//

#include "tsir/Transforms/AliasAnalysis.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Aten/SchemaRegistry.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace tsir {

bool isMutableType(Type type) {
  if (isa<prim::TensorType, prim::ListType, prim::DictType, prim::ClassType,
          prim::AnyType, prim::AnyListType, prim::FutureType, prim::StorageType,
          prim::AnyTupleType>(type))
    return true;
  if (auto optional = dyn_cast<prim::OptionalType>(type))
    return isMutableType(optional.getElementType());
  if (auto tuple = dyn_cast<prim::TupleType>(type))
    return llvm::any_of(tuple.getTypes(), isMutableType);
  if (auto union_ = dyn_cast<prim::UnionType>(type))
    return llvm::any_of(union_.getTypes(), isMutableType);
  return false;
}

const aten::Schema *getSchema(Operation *op) {
  if (!isa<aten::AtenDialect>(op->getDialect()))
    return nullptr;
  return aten::SchemaRegistry::get().lookupTypedOp(
      op->getName().getStringRef());
}

/// Whether a schema type (or an element type below it) carries an alias
/// annotation.
static bool isAnnotated(const aten::SchemaType &type) {
  return !type.alias.empty() ||
         llvm::any_of(type.elements, [](const aten::SchemaType &element) {
           return isAnnotated(element);
         });
}

/// The schema of a `prim.Generic` aten op: the overload the importer
/// resolved, or the name's only one; null for a named side effect or
/// randomness, which stay opaque.
static const aten::Schema *getGenericSchema(Operation *op) {
  auto generic = dyn_cast<prim::GenericOp>(op);
  // prim's operators only where the importer resolved their overload
  // (`prim::min.self_int`): many others are side effects or profiling
  // hooks whose schemas say nothing of it (prim::TimePoint, prim::rpc_*).
  // `aten::` and `prim::` are both six characters, which `base` relies on.
  bool resolvedPrim = generic && generic.getKind().starts_with("prim::") &&
                      op->hasAttr("tsir.overload");
  if (!generic ||
      !(generic.getKind().starts_with("aten::") || resolvedPrim) ||
      op->getNumRegions() != 0)
    return nullptr;
  auto candidates = aten::SchemaRegistry::get().lookup(generic.getKind());
  const aten::Schema *schema = nullptr;
  if (auto overload = op->getAttrOfType<StringAttr>("tsir.overload")) {
    for (const aten::Schema *candidate : candidates)
      if (candidate->overload == overload.getValue())
        schema = candidate;
  } else if (candidates.size() == 1) {
    schema = candidates.front();
  }
  if (!schema || schema->isVarret)
    return nullptr;
  StringRef base = generic.getKind().drop_front(6).split('.').first;
  if (llvm::is_contained({"warn", "print", "manual_seed", "seed"}, base) ||
      base.starts_with("rand") || base.contains("dropout"))
    return nullptr;
  return schema;
}

const aten::Schema *getTypedOrGenericSchema(Operation *op) {
  if (const aten::Schema *schema = getSchema(op))
    return schema;
  return getGenericSchema(op);
}

bool resultAliasesFirstOperand(Operation *op) {
  const aten::Schema *schema = getTypedOrGenericSchema(op);
  return schema && schema->returns.size() == 1 && op->getNumResults() == 1 &&
         op->getNumOperands() > 0 && !schema->arguments.empty() &&
         !schema->returns.front().aliasSet.empty() &&
         schema->returns.front().aliasSet == schema->arguments.front().aliasSet;
}

bool isViewOfFirstOperand(Operation *op) {
  return resultAliasesFirstOperand(op) &&
         !getTypedOrGenericSchema(op)->returns.front().isWrite;
}

const aten::Schema *getPureGenericSchema(Operation *op) {
  const aten::Schema *schema = getGenericSchema(op);
  if (!schema)
    return nullptr;
  for (const std::vector<aten::SchemaArg> *list :
       {&schema->arguments, &schema->returns})
    for (const aten::SchemaArg &arg : *list)
      if (isAnnotated(arg.type) || arg.isWrite)
        return nullptr;
  return schema;
}

/// `aten.add_.Tensor` -> `add_`.
static StringRef atenBaseName(Operation *op) {
  StringRef name = op->getName().getStringRef();
  name.consume_front("aten.");
  return name.split('.').first;
}

bool isNondeterministic(Operation *op) {
  if (!isa<aten::AtenDialect>(op->getDialect()))
    return false;
  // TorchScript's list (ir.cpp, isNondeterministic) plus the rest of the
  // random family; it matches dialects/aten/gen_aten_ops.py.
  static const llvm::StringSet<> random = {"rand",
                                           "randn",
                                           "randint",
                                           "randperm",
                                           "rand_like",
                                           "randn_like",
                                           "randint_like",
                                           "bernoulli",
                                           "bernoulli_",
                                           "normal",
                                           "normal_",
                                           "multinomial",
                                           "poisson",
                                           "rrelu",
                                           "rrelu_",
                                           "rrelu_with_noise",
                                           "rrelu_with_noise_",
                                           "dropout",
                                           "dropout_",
                                           "feature_dropout",
                                           "feature_dropout_",
                                           "alpha_dropout",
                                           "alpha_dropout_",
                                           "feature_alpha_dropout",
                                           "feature_alpha_dropout_",
                                           "native_dropout",
                                           "fused_dropout",
                                           "_fused_dropout",
                                           "uniform_",
                                           "exponential_",
                                           "geometric_",
                                           "cauchy_",
                                           "log_normal_",
                                           "random_",
                                           "seed",
                                           "manual_seed",
                                           "_standard_gamma",
                                           "_sample_dirichlet",
                                           "binomial"};
  StringRef base = atenBaseName(op);
  if (!random.contains(base))
    return false;
  // dropout(x, p, train=False) is the identity: deterministic.
  if (base.contains("dropout") && op->getNumOperands() == 3) {
    Attribute train;
    if (matchPattern(op->getOperand(2), m_Constant(&train)))
      if (auto flag = dyn_cast<IntegerAttr>(train))
        return !flag.getValue().isZero();
  }
  return true;
}

bool isOpaque(Operation *op) {
  if (getPureGenericSchema(op))
    return false;
  if (isa<prim::GenericOp, prim::CallFunctionOp, prim::CallMethodOp,
          prim::FallbackGraphOp>(op))
    return true;
  if (isa<prim::PrimDialect, aten::AtenDialect>(op->getDialect()))
    return false;
  // Ops of other dialects: harmless if they declare no memory effects and
  // touch no mutable TorchScript value.
  if (isa<func::ReturnOp>(op))
    return false;
  bool touchesMutable = llvm::any_of(op->getOperandTypes(), isMutableType) ||
                        llvm::any_of(op->getResultTypes(), isMutableType);
  return touchesMutable || !isMemoryEffectFree(op);
}

static bool hasOwnSideEffects(Operation *op) {
  if (isa<prim::PrintOp, prim::RaiseExceptionOp, prim::SetAttrOp>(op))
    return true;
  if (isOpaque(op))
    return true;
  if (isa<aten::AtenDialect>(op->getDialect()))
    return llvm::StringSwitch<bool>(atenBaseName(op))
        .Cases({"warn", "print", "manual_seed", "seed"}, true)
        .Default(false);
  return false;
}

bool hasSideEffects(Operation *op) {
  if (hasOwnSideEffects(op))
    return true;
  if (op->getNumRegions() == 0)
    return false;
  WalkResult result = op->walk([&](Operation *nested) {
    return nested != op && hasOwnSideEffects(nested) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
  });
  return result.wasInterrupted();
}

bool onlyRaises(Operation *op) {
  WalkResult result = op->walk([&](Operation *nested) {
    return hasOwnSideEffects(nested) && !isa<prim::RaiseExceptionOp>(nested)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return !result.wasInterrupted();
}

//===----------------------------------------------------------------------===//
// Building the alias sets
//===----------------------------------------------------------------------===//

static const void *key(Value value) { return value.getAsOpaquePointer(); }

/// TorchScript's resizesInput: ops that may change the sizes of a tensor
/// they write. (TorchScript also lists copy_, which never resizes.)
bool resizesInput(Operation *op) {
  static const llvm::StringSet<> resizing = {
      "resize_", "resize_as_", "set_",      "unsqueeze_", "squeeze_",
      "t_",      "transpose_", "swapaxes_", "swapdims_",  "as_strided_"};
  StringRef name;
  if (auto generic = dyn_cast<prim::GenericOp>(op)) {
    if (!generic.getKind().starts_with("aten::"))
      return false;
    name = generic.getKind().drop_front(6);
    if (resizing.contains(name))
      return true;
    // An `out=` overload writes its result into a tensor of any size.
    for (const aten::Schema *schema :
         aten::SchemaRegistry::get().lookup(generic.getKind()))
      if (schema->arguments.size() == op->getNumOperands())
        for (const aten::SchemaArg &argument : schema->arguments)
          if (argument.name == "out" && argument.kwargOnly &&
              argument.type.kind == aten::SchemaType::Kind::Tensor)
            return true;
    return false;
  }
  if (!isa<aten::AtenDialect>(op->getDialect()))
    return false;
  name = op->getName().getStringRef().drop_front(5).split('.').first;
  if (resizing.contains(name))
    return true;
  if (const aten::Schema *schema = getSchema(op))
    for (const aten::SchemaArg &argument : schema->arguments)
      if (argument.name == "out" && argument.kwargOnly &&
          argument.type.kind == aten::SchemaType::Kind::Tensor)
        return true;
  return false;
}

AliasAnalysis::AliasAnalysis(Operation *root) : root(root) {
  sets.insert(&wildcardTag);
  // The graph's inputs are memory from outside: they may alias each other.
  for (Region &region : root->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        makeWildcard(arg);
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != root)
      analyze(op);
  });
  finalize(root);
}

bool AliasAnalysis::isMutable(Type type) const {
  // A tuple's mutability is that of its elements, so asking about a tuple
  // of N elements costs N; the analysis asks once per value that has the
  // type (each of a TupleUnpack's N results), which made wide tuples
  // quadratic. Types are uniqued, so the answer is kept per type.
  if (!isa<prim::TupleType, prim::UnionType, prim::OptionalType>(type))
    return isMutableType(type);
  auto [it, inserted] = mutableTypes.try_emplace(type, false);
  if (inserted)
    it->second = isMutableType(type);
  return it->second;
}

void AliasAnalysis::addValue(Value value) {
  if (!isMutable(value.getType()))
    return;
  sets.insert(key(value)); // a no-op if already there
}

void AliasAnalysis::makeWildcard(Value value) {
  if (!isMutable(value.getType()))
    return;
  addValue(value);
  sets.unionSets(key(value), &wildcardTag);
}

void AliasAnalysis::unite(Value a, Value b) {
  bool aMutable = isMutable(a.getType());
  bool bMutable = isMutable(b.getType());
  if (!aMutable && !bMutable)
    return;
  // None holds no memory: a None cast to a tensor (an `out=None` argument
  // refined on a branch its `is None` test rules out, as in F.normalize)
  // or the None of an `(out, None)` tuple aliases nothing, rather than
  // the wildcard, whose writes would reach every graph input (and make
  // tsir-refine-types forget their sizes).
  if (isa<prim::NoneType>(a.getType()) || isa<prim::NoneType>(b.getType())) {
    addValue(aMutable ? a : b);
    return;
  }
  // A mutable value flowing into an immutable-typed one (or back) is a
  // type-system escape hatch (`Any`, unchecked casts): treat as unknown.
  if (aMutable != bMutable) {
    makeWildcard(aMutable ? a : b);
    return;
  }
  addValue(a);
  addValue(b);
  sets.unionSets(key(a), key(b));
}

void AliasAnalysis::recordWrite(Operation *op, Value value) {
  if (!isMutable(value.getType()))
    return;
  addValue(value);
  rawWrites[op].push_back(key(value));
}

void AliasAnalysis::recordWildcardWrite(Operation *op) {
  rawWrites[op].push_back(&wildcardTag);
}

void AliasAnalysis::analyzeOpaque(Operation *op) {
  for (Value operand : op->getOperands())
    makeWildcard(operand);
  for (Value result : op->getResults())
    makeWildcard(result);
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        makeWildcard(arg);
  recordWildcardWrite(op);
}

/// Whether an annotation (`a`, `a!`, `*`, `b|a`, `a -> *`) names the
/// wildcard.
static bool namesWildcard(StringRef annotation) {
  return annotation.contains('*');
}

/// Whether some element type below the top level carries an annotation
/// (`Tensor(a)[]`, `Tensor(a!)[]`).
static bool hasNestedAnnotation(const aten::SchemaType &type) {
  for (const aten::SchemaType &element : type.elements)
    if (!element.alias.empty() || hasNestedAnnotation(element))
      return true;
  return false;
}

/// The alias-set names of a top-level annotation: `a!` -> {a}, `b|a` ->
/// {b, a}; the `-> *` part is handled by the caller.
static SmallVector<StringRef> setNames(StringRef annotation) {
  annotation = annotation.split("->").first.trim();
  SmallVector<StringRef> names;
  SmallVector<StringRef> parts;
  annotation.split(parts, '|');
  for (StringRef part : parts) {
    part = part.trim().rtrim('!').trim();
    if (!part.empty() && part != "*")
      names.push_back(part);
  }
  return names;
}

void AliasAnalysis::analyzeSchemaOp(Operation *op, const aten::Schema &schema) {
  // Operands follow the schema's arguments (a vararg schema is opaque).
  if (schema.isVararg || schema.isVarret ||
      op->getNumOperands() != schema.arguments.size() ||
      op->getNumResults() != schema.returns.size())
    return analyzeOpaque(op);

  llvm::StringMap<SmallVector<Value, 2>> operandsBySet;
  for (auto [operand, arg] : llvm::zip(op->getOperands(), schema.arguments)) {
    if (!isMutable(operand.getType()))
      continue;
    addValue(operand);
    const aten::SchemaType &type = arg.type;
    if (!type.alias.empty()) {
      for (StringRef name : setNames(type.alias))
        operandsBySet[name].push_back(operand);
      if (namesWildcard(type.alias))
        makeWildcard(operand);
      if (StringRef(type.alias).split("->").first.contains('!'))
        recordWrite(op, operand);
    }
    if (hasNestedAnnotation(type)) {
      // Its elements are aliased or written: container elements are
      // wildcard memory.
      makeWildcard(operand);
      if (arg.isWrite && !StringRef(type.alias).contains('!'))
        recordWildcardWrite(op);
    }
  }

  for (auto [result, ret] : llvm::zip(op->getResults(), schema.returns)) {
    if (!isMutable(result.getType()))
      continue;
    addValue(result);
    const aten::SchemaType &type = ret.type;
    if (!type.alias.empty()) {
      if (namesWildcard(type.alias)) {
        makeWildcard(result);
        continue;
      }
      bool found = false;
      for (StringRef name : setNames(type.alias))
        for (Value operand : operandsBySet.lookup(name)) {
          unite(result, operand);
          found = true;
        }
      if (!found)
        makeWildcard(result);
      continue;
    }
    if (hasNestedAnnotation(type)) {
      // `Tensor(a)[]`: a fresh list of views of `a`; the views can only be
      // reached by loading from the list, which yields wildcard memory.
      for (const aten::SchemaType &element : type.elements)
        for (StringRef name : setNames(element.alias))
          for (Value operand : operandsBySet.lookup(name))
            makeWildcard(operand);
    }
    // Otherwise: a fresh value, its own set.
  }
}

void AliasAnalysis::analyze(Operation *op) {
  for (Value result : op->getResults())
    addValue(result);

  if (auto loop = dyn_cast<prim::LoopOp>(op)) {
    auto yield = cast<prim::YieldOp>(loop.getBodyBlock().getTerminator());
    for (auto [i, init] : llvm::enumerate(loop.getInitArgs())) {
      unite(init, loop.getCarriedArgs()[i]);
      unite(init, loop.getResult(i));
      if (i + 1 < yield.getNumOperands())
        unite(init, yield.getOperand(i + 1));
    }
    return;
  }
  if (auto ifOp = dyn_cast<prim::IfOp>(op)) {
    for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
      auto yield = cast<prim::YieldOp>(region->front().getTerminator());
      for (auto [result, yielded] :
           llvm::zip(ifOp.getResults(), yield.getOperands()))
        unite(result, yielded);
    }
    return;
  }
  if (isa<prim::FusionGroupOp, prim::TensorExprGroupOp,
          prim::DifferentiableGraphOp>(op)) {
    Region &body = op->getRegion(0);
    for (auto [input, arg] :
         llvm::zip(op->getOperands(), body.front().getArguments()))
      unite(input, arg);
    Operation *terminator = body.front().getTerminator();
    for (auto [result, returned] :
         llvm::zip(op->getResults(), terminator->getOperands()))
      unite(result, returned);
    return;
  }
  if (isa<prim::TupleConstructOp, prim::TupleUnpackOp, prim::TupleIndexOp,
          prim::UncheckedCastOp>(op)) {
    // Tuples are immutable: a tuple stands for the union of what it holds.
    for (Value result : op->getResults())
      for (Value operand : op->getOperands())
        unite(result, operand);
    return;
  }
  if (auto typeCheck = dyn_cast<prim::TypeCheckOp>(op)) {
    for (auto [input, result] :
         llvm::zip(typeCheck.getInputs(), typeCheck.getResults()))
      unite(input, result);
    return;
  }
  if (isa<prim::ListConstructOp, prim::DictConstructOp>(op)) {
    // A fresh container; what goes in becomes reachable through loads,
    // which yield wildcard memory.
    for (Value operand : op->getOperands())
      makeWildcard(operand);
    return;
  }
  if (isa<prim::ListUnpackOp, prim::GetAttrOp>(op)) {
    for (Value result : op->getResults())
      makeWildcard(result);
    return;
  }
  if (auto setAttr = dyn_cast<prim::SetAttrOp>(op)) {
    makeWildcard(setAttr.getValue());
    makeWildcard(setAttr.getObject());
    recordWildcardWrite(op);
    return;
  }
  if (isa<prim::ConstantOp, prim::NumToTensorOp, prim::UninitializedOp,
          prim::PrintOp, prim::RaiseExceptionOp, prim::YieldOp, prim::ReturnOp,
          prim::DeviceOp, prim::DtypeOp, func::ReturnOp>(op))
    return; // fresh results, or nothing that aliases
  if (const aten::Schema *schema = getSchema(op))
    return analyzeSchemaOp(op, *schema);
  if (getPureGenericSchema(op))
    return; // reads its operands; its results are fresh values
  // A generic op whose schema says what it aliases and writes (an `out=`
  // overload, torch.norm's among them) is read as that schema, as a typed
  // op is, rather than as writing the wildcard: that write reached every
  // graph input and made tsir-refine-types forget their sizes. The op
  // stays opaque to the passes that ask isOpaque.
  if (const aten::Schema *schema = getGenericSchema(op))
    return analyzeSchemaOp(op, *schema);
  if (isOpaque(op))
    return analyzeOpaque(op);
}

const void *AliasAnalysis::leader(const void *element) const {
  if (!sets.contains(element))
    return sets.getLeaderValue(&wildcardTag);
  return sets.getLeaderValue(element);
}

void AliasAnalysis::finalize(Operation *root) {
  // Nested writes count for the ops around them; walk post-order so that
  // children are done before their parents.
  root->walk([&](Operation *op) {
    SmallVector<const void *, 2> &mine = writes[op];
    // A set for the membership test: an op holding many writers (the
    // function, a long loop body) would be quadratic with a linear search.
    llvm::SmallPtrSet<const void *, 8> seen;
    auto add = [&](const void *set) {
      if (seen.insert(set).second)
        mine.push_back(set);
    };
    auto raw = rawWrites.find(op);
    if (raw != rawWrites.end())
      for (const void *element : raw->second)
        add(leader(element));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &nested : block) {
          auto it = writes.find(&nested);
          if (it != writes.end())
            for (const void *set : it->second)
              add(set);
        }
    if (mine.empty())
      writes.erase(op);
    else
      writtenLeaders.insert(mine.begin(), mine.end());
    // A weight the caller binds (#prim.tensor_ref) is memory of its own
    // (a fresh set, as any constant's) that outlives the graph: a write to
    // it (a batch norm's running statistics) is seen after the graph
    // returns.
    if (auto constant = dyn_cast<prim::ConstantOp>(op);
        constant && isa<prim::TensorRefAttr>(constant.getValue()))
      boundWeightSets.insert(leader(key(constant.getResult())));
  });
  rawWrites.clear();
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

const void *AliasAnalysis::aliasSet(Value value) const {
  if (!isMutable(value.getType()))
    return nullptr;
  // A value created after the analysis ran is unknown: assume the worst.
  return leader(key(value));
}

bool AliasAnalysis::mayAlias(Value a, Value b) const {
  const void *setA = aliasSet(a);
  return setA && setA == aliasSet(b);
}

bool AliasAnalysis::mayAlias(ValueRange a, ValueRange b) const {
  for (Value x : a)
    for (Value y : b)
      if (mayAlias(x, y))
        return true;
  return false;
}

bool AliasAnalysis::hasWriters(Value value) const {
  const void *set = aliasSet(value);
  return set && writtenLeaders.contains(set);
}

bool AliasAnalysis::hasWriters(Operation *op) const {
  return llvm::any_of(op->getOperands(),
                      [&](Value v) { return hasWriters(v); }) ||
         llvm::any_of(op->getResults(), [&](Value v) { return hasWriters(v); });
}

ArrayRef<const void *> AliasAnalysis::writtenSets(Operation *op) const {
  auto it = writes.find(op);
  if (it == writes.end())
    return {};
  return it->second;
}

bool AliasAnalysis::writesMemory(Operation *op) const {
  return writes.contains(op);
}

bool AliasAnalysis::writesToAlias(Operation *op, ValueRange values) const {
  ArrayRef<const void *> written = writtenSets(op);
  if (written.empty())
    return false;
  for (Value value : values)
    if (const void *set = aliasSet(value))
      if (llvm::is_contained(written, set))
        return true;
  return false;
}

bool AliasAnalysis::mayBeResized(Value value) const {
  if (!resizedSets) {
    resizedSets.emplace();
    root->walk([&](Operation *op) {
      if (!resizesInput(op))
        return;
      for (Value operand : op->getOperands())
        if (isa<prim::TensorType>(operand.getType()) &&
            writesToAlias(op, operand))
          if (const void *set = aliasSet(operand))
            resizedSets->insert(set);
    });
  }
  const void *set = aliasSet(value);
  return set && resizedSets->contains(set);
}

bool AliasAnalysis::mayAliasBoundWeight(Value value) const {
  const void *set = aliasSet(value);
  return set && boundWeightSets.contains(set);
}

bool AliasAnalysis::mayAliasWildcard(Value value) const {
  const void *set = aliasSet(value);
  return set && set == sets.getLeaderValue(&wildcardTag);
}

SmallVector<Value> AliasAnalysis::aliasesOf(Value value) const {
  SmallVector<Value> result;
  if (!isMutable(value.getType()) || !sets.contains(key(value)))
    return result;
  for (const void *member : sets.members(key(value)))
    if (member != &wildcardTag)
      result.push_back(Value::getFromOpaquePointer(member));
  return result;
}

} // namespace tsir
