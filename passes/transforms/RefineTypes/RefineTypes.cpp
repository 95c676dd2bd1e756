//===- RefineTypes.cpp - tsir-refine-types: dtype and shape propagation ---===//
//
// TorchScript's shape analysis (torch/csrc/jit/passes/shape_analysis.cpp)
// on tsir graphs: given the dtype and sizes of the graph's tensor inputs
// (their declared types, or the `arg-spec` option), one walk in program
// order refines the `!prim.tensor` type of every value an op rule can say
// something about, in place.
//
// - Ops: the per-op rules of RefineTypesRules.h; in-place ops return their
//   written operand's type; ops without a rule keep their types.
// - Control flow: a `prim.If` result is the join of what its branches
//   yield (unifyTypes: differing sizes become `?`, differing ranks
//   unranked); a `prim.Loop` iterates its carried types to a fixpoint,
//   joining each iteration's yields in until nothing changes.
// - Tuples carry their elements' types (TupleConstruct is refreshed, as in
//   TorchScript), and the function's type follows its arguments and return.
// - Resizes: like TorchScript, any tensor that may alias one that
//   `resize_`, `unsqueeze_`, `squeeze_`, `t_`, `transpose_`, `set_` or an
//   `out=` op writes loses its sizes, since one static type cannot describe
//   it before and after the resize (the dtype stays: none of these can
//   change it).
//
// A type the graph already states is kept where the rules know less, unless
// the two contradict, in which case the rules (which follow from the
// inputs) win. What is not known stays unrefined rather than guessed.
//
//===----------------------------------------------------------------------===//

#include "RefineTypesRules.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Aten/SchemaRegistry.h"
#include "tsir/Dialect/Prim/TorchTypeText.h"
#include "tsir/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace tsir {
#define GEN_PASS_DEF_TSIRREFINETYPESPASS
#include "tsir/Transforms/Passes.h.inc"
} // namespace tsir

using namespace mlir;
using namespace tsir;
using namespace tsir::refine;

//===----------------------------------------------------------------------===//
// Type utilities
//===----------------------------------------------------------------------===//

/// Types the pass may change: tensors, and tuples/optionals holding them.
static bool holdsTensor(Type type) {
  if (isa<prim::TensorType>(type))
    return true;
  if (auto tuple = dyn_cast<prim::TupleType>(type))
    return llvm::any_of(tuple.getTypes(), holdsTensor);
  if (auto optional = dyn_cast<prim::OptionalType>(type))
    return holdsTensor(optional.getElementType());
  return false;
}

static bool areCompatible(Type a, Type b) {
  return prim::isSubtypeOf(a, b) || prim::isSubtypeOf(b, a);
}

/// Whether two tensor types state contradicting facts: then the declared one
/// is stale (the inputs changed) and must not be mixed with the inferred.
static bool contradict(const TensorFacts &a, const TensorFacts &b) {
  if (a.dtype && b.dtype && a.dtype != b.dtype)
    return true;
  if (a.device && b.device && a.device != b.device)
    return true;
  if (a.sizes && b.sizes) {
    if (a.sizes->size() != b.sizes->size())
      return true;
    for (auto [x, y] : llvm::zip(*a.sizes, *b.sizes))
      if (x != kUnknown && y != kUnknown && x != y)
        return true;
  }
  return false;
}

/// What `inferred` says, completed by what `declared` says where the
/// inferred type knows less and the two agree. Strides, requires_grad and
/// legacy stride markers, which the rules never infer, come from the
/// declared type while its sizes still hold.
static Type meetWithDeclared(Type inferred, Type declared) {
  if (!inferred)
    return declared;
  auto in = dyn_cast<prim::TensorType>(inferred);
  auto decl = dyn_cast<prim::TensorType>(declared);
  if (in && decl) {
    TensorFacts facts = TensorFacts::of(in);
    TensorFacts stated = TensorFacts::of(decl);
    if (!contradict(facts, stated)) {
      if (!facts.dtype)
        facts.dtype = stated.dtype;
      if (!facts.device)
        facts.device = stated.device;
      if (!facts.sizes)
        facts.sizes = stated.sizes;
      else if (stated.sizes)
        for (auto [x, y] : llvm::zip(*facts.sizes, *stated.sizes))
          if (x == kUnknown)
            x = y;
    }
    bool sameSizes = decl.getHasSizes() && facts.sizes &&
                     ArrayRef<int64_t>(*facts.sizes) == decl.getSizes();
    ArrayRef<int64_t> sizes =
        facts.sizes ? ArrayRef<int64_t>(*facts.sizes) : ArrayRef<int64_t>();
    bool keepStrides = sameSizes && decl.getHasStrides();
    BoolAttr grad =
        in.getRequiresGrad() ? in.getRequiresGrad() : decl.getRequiresGrad();
    return prim::TensorType::get(
        inferred.getContext(), facts.dtype, facts.sizes.has_value(), sizes,
        keepStrides, keepStrides ? decl.getStrides() : ArrayRef<int64_t>(),
        facts.device, grad,
        sameSizes ? decl.getLegacyNonContiguous() : ArrayRef<int64_t>());
  }
  auto inTuple = dyn_cast<prim::TupleType>(inferred);
  auto declTuple = dyn_cast<prim::TupleType>(declared);
  if (inTuple && declTuple &&
      inTuple.getTypes().size() == declTuple.getTypes().size()) {
    SmallVector<Type> elements;
    for (auto [x, y] : llvm::zip(inTuple.getTypes(), declTuple.getTypes()))
      elements.push_back(meetWithDeclared(x, y));
    return declTuple.withTypes(elements);
  }
  auto inOptional = dyn_cast<prim::OptionalType>(inferred);
  auto declOptional = dyn_cast<prim::OptionalType>(declared);
  if (inOptional && declOptional)
    return prim::OptionalType::get(
        inferred.getContext(), meetWithDeclared(inOptional.getElementType(),
                                                declOptional.getElementType()));
  // Anything else only changes where a tensor refines what was declared
  // (a tensor for an Optional[Tensor]); other types stay as declared.
  return holdsTensor(inferred) && prim::isSubtypeOf(inferred, declared)
             ? inferred
             : declared;
}

/// The type with every tensor refinement dropped: compatible with anything
/// of its shape of type.
static Type eraseRefinements(Type type) {
  MLIRContext *context = type.getContext();
  if (isa<prim::TensorType>(type))
    return prim::TensorType::get(context);
  if (auto tuple = dyn_cast<prim::TupleType>(type)) {
    SmallVector<Type> elements(
        llvm::map_range(tuple.getTypes(), eraseRefinements));
    return tuple.withTypes(elements);
  }
  if (auto optional = dyn_cast<prim::OptionalType>(type))
    return prim::OptionalType::get(context,
                                   eraseRefinements(optional.getElementType()));
  return type;
}

/// A tensor type without sizes (and so without strides).
static Type withoutSizes(Type type) {
  auto tensor = dyn_cast<prim::TensorType>(type);
  if (!tensor || !tensor.getHasSizes())
    return type;
  return prim::TensorType::get(type.getContext(), tensor.getDtype(), false, {},
                               false, {}, tensor.getDevice(),
                               tensor.getRequiresGrad(), {});
}

//===----------------------------------------------------------------------===//
// Resizes
//===----------------------------------------------------------------------===//

static void collectResizedSets(Operation *root, RuleContext &context) {
  const AliasAnalysis &aliases = context.getAliases();
  root->walk([&](Operation *op) {
    if (!resizesInput(op))
      return;
    for (Value operand : op->getOperands())
      if (isa<prim::TensorType>(operand.getType()) &&
          aliases.writesToAlias(op, operand))
        if (const void *set = aliases.aliasSet(operand))
          context.addResizedSet(set);
  });
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

namespace {
/// The most times a loop body is walked looking for the fixpoint. The join
/// lattice is shallow (each fact is lost at most once), so real loops settle
/// in two or three walks.
constexpr unsigned kMaxLoopWalks = 16;

class Refiner {
public:
  explicit Refiner(RuleContext &context) : context(context) {}

  void refineBlock(Block &block) {
    for (Operation &op : block)
      refineOp(&op);
  }

private:
  void refineOp(Operation *op);
  void refineIf(prim::IfOp op);
  void refineLoop(prim::LoopOp op);
  void refineSubgraph(Operation *op);
  void applyRules(Operation *op);

  /// The type `value` had before this pass touched it.
  Type declaredType(Value value) {
    return declared.try_emplace(value, value.getType()).first->second;
  }
  /// Sets `value` to `inferred` completed by its declared type (or keeps
  /// the declared type when `inferred` is null), unless that would break a
  /// use that needs a matching type.
  void refine(Value value, Type inferred);
  bool fitsUses(Value value, Type type);
  void setType(Value value, Type type) {
    declaredType(value);
    value.setType(type);
  }

  RuleContext &context;
  llvm::DenseMap<Value, Type> declared;
};
} // namespace

bool Refiner::fitsUses(Value value, Type type) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (auto list = dyn_cast<prim::ListConstructOp>(user)) {
      Type element = list.getType().getElementType();
      if (!prim::isSubtypeOf(type, element) &&
          !(isa<prim::TensorType>(type) && isa<prim::TensorType>(element)))
        return false;
    } else if (auto dict = dyn_cast<prim::DictConstructOp>(user)) {
      prim::DictType dictType = dict.getType();
      Type slot = use.getOperandNumber() % 2 == 0 ? dictType.getKeyType()
                                                  : dictType.getValueType();
      if (!areCompatible(type, slot))
        return false;
    }
  }
  if (auto unpack = value.getDefiningOp<prim::ListUnpackOp>())
    return areCompatible(type, unpack.getList().getType().getElementType());
  return true;
}

void Refiner::refine(Value value, Type inferred) {
  Type declaredTy = declaredType(value);
  if (!holdsTensor(declaredTy))
    return;
  Type type = meetWithDeclared(inferred, declaredTy);
  if (context.isResized(value))
    type = withoutSizes(type);
  if (type == value.getType())
    return;
  if (!fitsUses(value, type))
    type = declaredTy;
  setType(value, type);
}

/// What a cast's result takes from its input: a refined optional or tensor
/// passes its refinement on, and a tuple does so element by element where
/// the declared element is a tensor (a tuple cast to its declared type,
/// as an If's result is, keeps what its elements are known to be). Null
/// where nothing passes on.
static Type castRefinement(Type input, Type declared) {
  if (auto optional = dyn_cast<prim::OptionalType>(input))
    input = optional.getElementType();
  if (isa<prim::TensorType>(input))
    return input;
  auto from = dyn_cast<prim::TupleType>(input);
  auto to = dyn_cast<prim::TupleType>(declared);
  if (!from || !to || from.getTypes().size() != to.getTypes().size())
    return {};
  SmallVector<Type> types(to.getTypes());
  for (auto [element, source] : llvm::zip(types, from.getTypes()))
    if (isa<prim::TensorType>(element) && isa<prim::TensorType>(source))
      element = source;
  return to.withTypes(types);
}

void Refiner::refineOp(Operation *op) {
  if (auto ifOp = dyn_cast<prim::IfOp>(op))
    return refineIf(ifOp);
  if (auto loop = dyn_cast<prim::LoopOp>(op))
    return refineLoop(loop);
  if (isa<prim::FusionGroupOp, prim::TensorExprGroupOp, prim::FallbackGraphOp>(
          op))
    return refineSubgraph(op);

  if (auto construct = dyn_cast<prim::TupleConstructOp>(op)) {
    // As TorchScript does: the tuple type follows its refined elements
    // (and a NamedTuple keeps its fields).
    if (auto tuple = dyn_cast<prim::TupleType>(construct.getType()))
      refine(construct.getResult(),
             tuple.withTypes(llvm::to_vector(op->getOperandTypes())));
    return;
  }
  // The flows below always refine every result, to the declared type where
  // they learn nothing: inside a loop body an earlier walk may have set a
  // narrower one.
  if (auto unpack = dyn_cast<prim::TupleUnpackOp>(op)) {
    auto tuple = dyn_cast<prim::TupleType>(unpack.getTuple().getType());
    bool known = tuple && tuple.getTypes().size() == op->getNumResults();
    for (auto [index, result] : llvm::enumerate(op->getResults()))
      refine(result, known ? tuple.getTypes()[index] : Type());
    return;
  }
  if (auto index = dyn_cast<prim::TupleIndexOp>(op)) {
    auto tuple = dyn_cast<prim::TupleType>(index.getTuple().getType());
    std::optional<int64_t> at = context.getInt(index.getIndex());
    Type element;
    if (tuple && at) {
      int64_t count = tuple.getTypes().size();
      int64_t i = *at < 0 ? *at + count : *at;
      if (i >= 0 && i < count)
        element = tuple.getTypes()[i];
    }
    refine(index.getResult(), element);
    return;
  }
  if (isa<prim::UncheckedCastOp>(op) ||
      op->getName().getStringRef() == "aten._unwrap_optional") {
    refine(op->getResult(0), castRefinement(op->getOperand(0).getType(),
                                            op->getResult(0).getType()));
    return;
  }

  // Ops with blocks we know nothing of (prim.Generic): still refine inside.
  for (Region &region : op->getRegions())
    for (Block &block : region)
      refineBlock(block);
  applyRules(op);
}

void Refiner::applyRules(Operation *op) {
  if (op->getNumResults() == 0)
    return;
  SmallVector<Type> inferred(op->getNumResults());
  // Facts an earlier walk of a loop body recorded are recomputed.
  for (Value result : op->getResults())
    context.forgetListFacts(result);
  const llvm::StringMap<ShapeRule> &rules = getShapeRules();
  auto rule = rules.find(op->getName().getStringRef());
  if (rule != rules.end()) {
    rule->second(op, context, inferred);
  } else if (applyElementwiseFamily(op, context, inferred) ||
             applyReductionFamily(op, context, inferred)) {
  } else if (const aten::Schema *schema = getSchema(op)) {
    // In-place and out= ops return the tensor they write, unchanged in type.
    for (auto [index, ret] : llvm::enumerate(schema->returns)) {
      if (!ret.isWrite || ret.aliasSet.empty() || index >= inferred.size())
        continue;
      for (auto [argIndex, argument] : llvm::enumerate(schema->arguments))
        if (argument.aliasSet == ret.aliasSet &&
            argIndex < op->getNumOperands())
          inferred[index] = op->getOperand(argIndex).getType();
    }
  }
  // Rules speak of tensor results only; an optional or container result
  // keeps its kind even where the rule knows the value is a tensor.
  for (auto [result, type] : llvm::zip(op->getResults(), inferred)) {
    bool tensorResult = isa<prim::TensorType>(declaredType(result));
    refine(result,
           tensorResult && type && isa<prim::TensorType>(type) ? type : Type());
  }
}

void Refiner::refineIf(prim::IfOp op) {
  refineBlock(op.getThenRegion().front());
  refineBlock(op.getElseRegion().front());
  Operation *thenYield = op.getThenRegion().front().getTerminator();
  Operation *elseYield = op.getElseRegion().front().getTerminator();
  for (auto [index, result] : llvm::enumerate(op.getResults())) {
    Type declaredTy = declaredType(result);
    if (!holdsTensor(declaredTy))
      continue;
    Type thenType = thenYield->getOperand(index).getType();
    Type elseType = elseYield->getOperand(index).getType();
    Type joined = joinTypes(thenType, elseType);
    if (!joined)
      joined = eraseRefinements(declaredTy);
    Type type = meetWithDeclared(joined, declaredTy);
    if (context.isResized(result))
      type = withoutSizes(type);
    // The declared type may contradict one branch only: then the join alone.
    if (!areCompatible(type, thenType) || !areCompatible(type, elseType))
      type = joined;
    if (type != result.getType())
      setType(result, type);
  }
}

void Refiner::refineLoop(prim::LoopOp op) {
  Block &body = op.getBodyBlock();
  auto carried = op.getCarriedArgs();
  SmallVector<Type> state;
  SmallVector<bool> refinable;
  for (auto [arg, init] : llvm::zip(carried, op.getInitArgs())) {
    bool holds = holdsTensor(declaredType(arg));
    refinable.push_back(holds);
    state.push_back(holds ? init.getType() : arg.getType());
  }
  auto applyState = [&] {
    for (auto [i, arg] : llvm::enumerate(carried)) {
      if (!refinable[i])
        continue;
      Type type = context.isResized(arg) ? withoutSizes(state[i]) : state[i];
      if (type != arg.getType())
        setType(arg, type);
    }
  };

  bool settled = false;
  for (unsigned walk = 0; walk < kMaxLoopWalks && !settled; ++walk) {
    applyState();
    refineBlock(body);
    Operation *yield = body.getTerminator();
    settled = true;
    for (unsigned i = 0, e = state.size(); i < e; ++i) {
      if (!refinable[i])
        continue;
      Type yielded = yield->getOperand(i + 1).getType();
      Type next = joinTypes(state[i], yielded);
      if (!next)
        next = eraseRefinements(state[i]);
      if (next != state[i]) {
        state[i] = next;
        settled = false;
      }
    }
  }
  if (!settled) {
    // No fixpoint in time: give up on the carried refinements.
    for (unsigned i = 0, e = state.size(); i < e; ++i)
      if (refinable[i])
        state[i] = eraseRefinements(state[i]);
    applyState();
    refineBlock(body);
  }
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    if (!refinable[i] || !holdsTensor(declaredType(result)))
      continue;
    Type type = context.isResized(result) ? withoutSizes(state[i]) : state[i];
    if (type != result.getType())
      setType(result, type);
  }
}

void Refiner::refineSubgraph(Operation *op) {
  Block &body = op->getRegion(0).front();
  for (auto [arg, operand] : llvm::zip(body.getArguments(), op->getOperands()))
    refine(arg, operand.getType());
  refineBlock(body);
  Operation *ret = body.getTerminator();
  for (auto [result, returned] :
       llvm::zip(op->getResults(), ret->getOperands()))
    refine(result, returned.getType());
}

//===----------------------------------------------------------------------===//
// arg-spec
//===----------------------------------------------------------------------===//

/// Splits `spec` at the commas outside parentheses and brackets.
static LogicalResult splitSpec(StringRef spec,
                               SmallVectorImpl<StringRef> &entries,
                               std::string &error) {
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0, e = spec.size(); i <= e; ++i) {
    char c = i < e ? spec[i] : ',';
    if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      if (--depth < 0)
        break;
    } else if (c == ',' && (depth == 0 || i == e)) {
      entries.push_back(spec.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (depth != 0) {
    error =
        "arg-spec has unbalanced parentheses or brackets: '" + spec.str() + "'";
    return failure();
  }
  return success();
}

/// One entry: null for `_`, else the tensor type it spells.
static Type parseSpecEntry(MLIRContext *context, StringRef entry, size_t index,
                           std::string &error) {
  auto fail = [&](const Twine &why) {
    error =
        ("arg-spec entry #" + Twine(index) + " ('" + entry + "') " + why).str();
    return Type();
  };
  if (entry == "_")
    return {};
  // An Optional input known to be None: its uses become a None constant.
  if (entry == "None")
    return prim::NoneType::get(context);
  if (entry.empty())
    return fail("is empty; write '_' to keep an input's type");
  // Every spelling torch prints (`Float(2, 3)`, `Long(requires_grad=0,
  // device=cpu)` for 0-d, `Float(*, 4)`, ...), read by the importer
  // through the prim dialect.
  std::string why;
  Type type = prim::parseTorchTypeText(context, entry, why);
  if (!type)
    return fail(why);
  if (auto tuple = dyn_cast<prim::TupleType>(type))
    if (llvm::all_of(tuple.getTypes(), llvm::IsaPred<prim::TensorType>))
      return type;
  if (!isa<prim::TensorType>(type))
    return fail("is not a tensor type, a tuple of them or None; write '_' "
                "to keep a scalar input");
  return type;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct TsirRefineTypesPass
    : tsir::impl::TsirRefineTypesPassBase<TsirRefineTypesPass> {
  using Base::Base;

  /// The spec as types (createTsirRefineTypesPass(ArrayRef<Type>)).
  explicit TsirRefineTypesPass(ArrayRef<Type> spec)
      : typedSpec(true), specTypes(spec) {}

  /// Parses arg-spec once (dialects may be loaded here, not while running).
  LogicalResult initialize(MLIRContext *context) override {
    if (typedSpec) {
      hasSpec = true;
      specEntries.clear();
      for (Type type : specTypes) {
        std::string text = "_";
        if (type) {
          text.clear();
          llvm::raw_string_ostream os(text);
          os << type;
        }
        specEntries.push_back(text);
      }
      return success();
    }
    specTypes.clear();
    specEntries.clear();
    specError.clear();
    hasSpec = !StringRef(argSpec).trim().empty();
    if (!hasSpec)
      return success();
    SmallVector<StringRef> entries;
    if (failed(splitSpec(argSpec, entries, specError)))
      return success(); // reported on each function
    for (auto [index, entry] : llvm::enumerate(entries)) {
      specEntries.push_back(entry.str());
      specTypes.push_back(parseSpecEntry(context, entry, index, specError));
      if (!specError.empty())
        return success();
    }
    return success();
  }

  void runOnOperation() override;

  /// Applies the spec to the function's inputs.
  LogicalResult applySpec(func::FuncOp func);

  bool typedSpec = false;
  bool hasSpec = false;
  SmallVector<Type> specTypes;
  SmallVector<std::string> specEntries;
  std::string specError;
};
} // namespace

LogicalResult TsirRefineTypesPass::applySpec(func::FuncOp func) {
  if (!specError.empty())
    return func.emitError() << specError;
  Block &entry = func.front();
  // The weights tsir-externalize-weights appended (prim.weight_names) need
  // no entries: they keep the types the graph declares.
  unsigned numWeights = 0;
  if (ArrayAttr weights = getContext()
                              .getLoadedDialect<prim::PrimDialect>()
                              ->getWeightNamesAttrHelper()
                              .getAttr(func))
    numWeights = weights.size();
  SmallVector<Type> types(specTypes);
  if (types.size() + numWeights == entry.getNumArguments())
    types.resize(entry.getNumArguments(), Type());
  if (types.size() != entry.getNumArguments())
    return func.emitError()
           << "arg-spec has " << specTypes.size()
           << (specTypes.size() == 1 ? " entry" : " entries") << " but @"
           << func.getSymName() << " takes " << entry.getNumArguments()
           << (entry.getNumArguments() == 1 ? " input" : " inputs")
           << "; give one per input ('_' keeps an input's type)";
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  for (auto [index, arg] : llvm::enumerate(entry.getArguments())) {
    Type type = types[index];
    if (!type)
      continue;
    if (isa<prim::NoneType>(type)) {
      // The caller's None for an Optional input (as TorchScript's
      // ArgumentSpec records it): the graph's `x is None` tests fold. The
      // input itself keeps its type, so the calling convention does not
      // change.
      if (!isa<prim::OptionalType, prim::NoneType>(arg.getType()))
        return func.emitError()
               << "arg-spec entry #" << index << " is None, but input #"
               << index << " has type " << arg.getType()
               << ", which cannot be None";
      Value none = prim::ConstantOp::create(builder, arg.getLoc(),
                                            arg.getType(),
                                            builder.getUnitAttr());
      arg.replaceAllUsesWith(none);
      continue;
    }
    // An Optional[Tensor] input given a tensor is that tensor: its
    // `is None` tests fold (the peephole's is-None of a non-optional).
    Type declared = arg.getType();
    if (auto optional = dyn_cast<prim::OptionalType>(declared))
      declared = optional.getElementType();
    // A tuple of tensors (nn.LSTM's state) refines a tuple, or an optional
    // one, of as many tensors, element by element.
    if (auto tuple = dyn_cast<prim::TupleType>(type)) {
      auto declaredTuple = dyn_cast<prim::TupleType>(declared);
      if (!declaredTuple ||
          declaredTuple.getTypes().size() != tuple.getTypes().size() ||
          !llvm::all_of(declaredTuple.getTypes(),
                        llvm::IsaPred<prim::TensorType>))
        return func.emitError()
               << "arg-spec entry #" << index << " is a tuple of "
               << tuple.getTypes().size() << " tensors, but input #" << index
               << " has type " << arg.getType() << "; write '_' for it";
      arg.setType(type);
      continue;
    }
    if (!isa<prim::TensorType>(declared))
      return func.emitError()
             << "arg-spec entry #" << index << " ('" << specEntries[index]
             << "') is a tensor type, but input #" << index << " has type "
             << arg.getType() << "; write '_' for it";
    arg.setType(type);
  }
  return success();
}

std::unique_ptr<Pass> tsir::createTsirRefineTypesPass(ArrayRef<Type> spec) {
  return std::make_unique<TsirRefineTypesPass>(spec);
}

void TsirRefineTypesPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return;
  if (hasSpec && failed(applySpec(func)))
    return signalPassFailure();

  Block &entry = func.front();
  AliasAnalysis aliases(func);
  RuleContext context(&getContext(), aliases);
  collectResizedSets(func, context);
  for (BlockArgument arg : entry.getArguments())
    if (context.isResized(arg))
      arg.setType(withoutSizes(arg.getType()));

  Refiner(context).refineBlock(entry);
  if (failed(checkShapes(func, context)))
    return signalPassFailure();

  func.setType(FunctionType::get(&getContext(), entry.getArgumentTypes(),
                                 entry.getTerminator()->getOperandTypes()));
}
