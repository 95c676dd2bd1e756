//===- Segments.cpp - Cutting a graph into segments and steps -------------===//
//
// See Segments.h. Roles are assigned bottom-up (an If or Loop lowers when
// everything in its bodies does and it carries only tensors and scalars),
// then each block is cut into runs. A run's outputs must be values compiled
// code can return; an op whose list or tuple result is read outside its
// run is demoted to the interpreter and the cut is made again, until
// nothing changes.
//
//===----------------------------------------------------------------------===//

#include "Segments.h"
#include "NativeOpKinds.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tsir;

/// Whether compiled code takes and returns values of `type`.
static bool isCompiledValueType(Type type) {
  return isa<prim::TensorType, prim::NumberType>(type) || type.isInteger(64) ||
         type.isInteger(1) || type.isF64();
}

/// Whether values of `type` may be objects or dicts, which only the
/// interpreter holds: compiled code cannot take them.
static bool mayHoldObject(Type type) {
  if (auto optional = dyn_cast<prim::OptionalType>(type))
    type = optional.getElementType();
  return isa<prim::ClassType, prim::DictType>(type);
}

static bool isTerminator(Operation *op) {
  return op->hasTrait<OpTrait::IsTerminator>();
}

OpRole tsir::SegmentedGraph::role(Operation *op) const {
  auto found = roles.find(op);
  return found == roles.end() ? OpRole::Native : found->second;
}

const std::string &tsir::SegmentedGraph::kernelName(Operation *op) const {
  static const std::string none;
  auto found = kernels.find(op);
  return found == kernels.end() ? none : found->second;
}

ArrayRef<Step> tsir::SegmentedGraph::steps(Block *block) const {
  auto found = blockSteps.find(block);
  if (found == blockSteps.end())
    return {};
  return found->second;
}

/// Whether `op` takes apart a list that a lowered op of its block makes:
/// the split family lowers together with the unpacking of its list or the
/// reading of an element at a constant index.
static bool readsLoweredList(Operation *op,
                             llvm::function_ref<OpRole(Operation *)> roleOf) {
  Value list;
  if (auto unpack = dyn_cast<prim::ListUnpackOp>(op))
    list = unpack.getList();
  else if (op->getName().getStringRef() == "aten.__getitem__.t" &&
           op->getNumOperands() == 2 &&
           isa_and_nonnull<prim::ConstantOp>(op->getOperand(1).getDefiningOp()))
    list = op->getOperand(0);
  Operation *producer = list ? list.getDefiningOp() : nullptr;
  return producer && producer->getBlock() == op->getBlock() &&
         roleOf(producer) == OpRole::Lowered;
}

/// Whether `list` is a list literal that only compiled code reads (so that
/// a segment may take its own copy of it).
static bool isListLiteral(Value list, const OpRoles &opRoles) {
  auto construct = list.getDefiningOp<prim::ListConstructOp>();
  return construct && llvm::all_of(construct->getUsers(), [&](Operation *user) {
           return opRoles.classify(user) == OpRole::Lowered;
         });
}

/// Whether every op directly in `op`'s regions lowers, and the values it
/// produces and carries are ones compiled code handles.
static bool bodiesLower(Operation *op,
                        const DenseMap<Operation *, OpRole> &roles) {
  for (Type type : op->getResultTypes())
    if (!isCompiledValueType(type))
      return false;
  for (Region &region : op->getRegions())
    for (Block &block : region) {
      for (BlockArgument argument : block.getArguments())
        if (!isCompiledValueType(argument.getType()))
          return false;
      for (Operation &nested : block.without_terminator()) {
        OpRole role = roles.lookup(&nested);
        if (role != OpRole::Lowered && role != OpRole::Free)
          return false;
      }
    }
  return true;
}

/// The ops in `ops` (at any depth) that a failed lowering named and that a
/// kernel runs, or with `nativeToo` the interpreter (`size()` of a tensor
/// whose sizes only the run knows). The lowering worked on a copy of
/// them, which kept their places.
static llvm::DenseSet<Operation *>
runnableOpsNamedIn(ArrayRef<Operation *> ops, ArrayRef<UnloweredOp> unlowered,
                   const OpRoles &opRoles, bool nativeToo) {
  llvm::DenseSet<Operation *> found;
  for (Operation *op : ops)
    op->walk([&](Operation *nested) {
      bool named = llvm::any_of(unlowered, [&](const UnloweredOp &failed) {
        return failed.loc == nested->getLoc() &&
               failed.name == nested->getName().getStringRef();
      });
      if (named && (!opRoles.kernelName(nested).empty() ||
                    (nativeToo && isNativeOp(nested))))
        found.insert(nested);
    });
  return found;
}

void tsir::SegmentedGraph::assignRoles(
    const OpRoles &opRoles, bool interpretControlFlow,
    const llvm::DenseSet<Operation *> &byKernel) {
  // Post-order: nested ops have their roles before the ops holding them.
  graph.walk([&](Operation *op) {
    if (op == graph || isTerminator(op))
      return;
    OpRole role = byKernel.contains(op) ? OpRole::Kernel : opRoles.classify(op);
    if (isa<prim::IfOp, prim::LoopOp>(op) && !interpretControlFlow &&
        bodiesLower(op, roles))
      role = OpRole::Lowered;
    if (readsLoweredList(
            op, [&](Operation *producer) { return roles.lookup(producer); }))
      role = OpRole::Lowered;
    // A list built at run time (appended to in a loop) is concatenated by
    // the interpreter: compiled, it would take one argument per element.
    if (role == OpRole::Lowered && isNativeConcatenation(op) &&
        !isListLiteral(op->getOperand(0), opRoles))
      role = OpRole::Native;
    roles[op] = role;
    if (role == OpRole::Kernel)
      kernels[op] = opRoles.kernelName(op);
  });
}

void tsir::SegmentedGraph::demote(Operation *op, const OpRoles &opRoles) {
  if (isa<prim::IfOp, prim::LoopOp, prim::ListUnpackOp>(op) || isNativeOp(op)) {
    roles[op] = OpRole::Native;
    return;
  }
  if (readsLoweredList(op, [](Operation *) { return OpRole::Lowered; })) {
    // Its list is read elsewhere too now: it runs as it would on its own.
    OpRole role = opRoles.classify(op);
    roles[op] = role == OpRole::Lowered ? OpRole::Missing : role;
    if (role == OpRole::Kernel)
      kernels[op] = opRoles.kernelName(op);
    return;
  }
  std::string kernel = opRoles.kernelName(op);
  roles[op] = kernel.empty() ? OpRole::Missing : OpRole::Kernel;
  if (!kernel.empty())
    kernels[op] = kernel;
}

namespace {
/// Works out what one run of a block reads and provides.
class RunAnalysis {
public:
  RunAnalysis(Block *block, ArrayRef<Operation *> ops,
              const DenseMap<Operation *, OpRole> &roles)
      : block(block), roles(roles), inRun(ops.begin(), ops.end()) {}

  bool definedInRun(Value value) const {
    Operation *definer = value.getDefiningOp();
    if (!definer)
      definer = value.getParentBlock()->getParentOp();
    Operation *ancestor =
        definer ? block->findAncestorOpInBlock(*definer) : nullptr;
    return ancestor && inRun.contains(ancestor);
  }

  bool usedAfter(Value value) const {
    for (Operation *user : value.getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor || !inRun.contains(ancestor))
        return true;
    }
    return false;
  }

  /// Whether a segment may take its own copy of `op`, defined before it.
  bool isCopyable(Operation *op) const {
    if (isa<prim::ConstantOp, prim::TupleConstructOp>(op))
      return true;
    // A list is copied only if nothing but compiled code reads it: no
    // kernel can have changed it since it was built.
    if (isa<prim::ListConstructOp>(op))
      return llvm::all_of(op->getUsers(), [&](Operation *user) {
        return roles.lookup(user) == OpRole::Lowered;
      });
    return false;
  }

  void addInput(Value value, Segment &segment, llvm::SetVector<Value> &inputs,
                llvm::SetVector<Operation *> &copied) {
    Operation *definer = value.getDefiningOp();
    if (definer && isCopyable(definer)) {
      if (copied.contains(definer))
        return;
      for (Value operand : definer->getOperands())
        addInput(operand, segment, inputs, copied);
      copied.insert(definer);
      return;
    }
    inputs.insert(value);
  }

  void addOutput(Value value, llvm::SetVector<Value> &outputs,
                 llvm::SetVector<Operation *> &replayed) {
    Operation *definer = value.getDefiningOp();
    if (definer && roles.lookup(definer) == OpRole::Free) {
      if (!replayed.insert(definer))
        return;
      for (Value operand : definer->getOperands())
        if (definedInRun(operand))
          addOutput(operand, outputs, replayed);
      return;
    }
    outputs.insert(value);
  }

private:
  Block *block;
  const DenseMap<Operation *, OpRole> &roles;
  llvm::SmallPtrSet<Operation *, 16> inRun;
};
} // namespace

bool tsir::SegmentedGraph::partition(Block *block, const OpRoles &opRoles) {
  std::vector<Operation *> ops;
  for (Operation &op : block->without_terminator())
    ops.push_back(&op);
  std::vector<Step> blockPlan;
  bool demoted = partitionOps(block, ops, blockPlan, opRoles);
  blockSteps[block] = std::move(blockPlan);
  return demoted;
}

bool tsir::SegmentedGraph::partitionOps(Block *block, ArrayRef<Operation *> ops,
                                        std::vector<Step> &blockPlan,
                                        const OpRoles &opRoles) {
  bool demoted = false;
  for (size_t i = 0; i < ops.size();) {
    if (roles.lookup(ops[i]) != OpRole::Lowered) {
      blockPlan.push_back({ops[i], nullptr});
      ++i;
      continue;
    }
    size_t last = i;
    bool scalarsOnly = true;
    for (size_t j = i; j < ops.size(); ++j) {
      OpRole role = roles.lookup(ops[j]);
      if (role == OpRole::Lowered) {
        last = j;
        scalarsOnly &= isNativeScalarOp(ops[j]);
      } else if (role != OpRole::Free) {
        break;
      }
    }
    // Scalar arithmetic alone is not worth a compilation: the interpreter
    // evaluates it.
    if (scalarsOnly) {
      for (size_t j = i; j <= last; ++j) {
        if (roles.lookup(ops[j]) == OpRole::Lowered)
          roles[ops[j]] = OpRole::Native;
        blockPlan.push_back({ops[j], nullptr});
      }
      i = last + 1;
      continue;
    }
    auto segment = std::make_unique<Segment>();
    segment->ops.assign(ops.begin() + i, ops.begin() + last + 1);
    RunAnalysis analysis(block, segment->ops, roles);

    llvm::SetVector<Value> inputs, outputs;
    llvm::SetVector<Operation *> copied, replayed;
    for (Operation *op : segment->ops)
      op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (!analysis.definedInRun(operand))
            analysis.addInput(operand, *segment, inputs, copied);
      });
    for (Operation *op : segment->ops)
      for (Value result : op->getResults())
        if (analysis.usedAfter(result))
          analysis.addOutput(result, outputs, replayed);

    for (Value output : outputs)
      if (!isCompiledValueType(output.getType())) {
        demote(output.getDefiningOp(), opRoles);
        demoted = true;
      }
    // A test of an object the interpreter holds (`self.map_levels is
    // None`) runs there too.
    for (Value input : inputs)
      if (mayHoldObject(input.getType()))
        for (Operation *user : input.getUsers())
          if (Operation *op = block->findAncestorOpInBlock(*user);
              op && llvm::is_contained(segment->ops, op)) {
            demote(op, opRoles);
            demoted = true;
          }
    segment->inputs.assign(inputs.begin(), inputs.end());
    segment->copied.assign(copied.begin(), copied.end());
    segment->outputs.assign(outputs.begin(), outputs.end());
    for (Operation *op : segment->ops)
      if (replayed.contains(op))
        segment->replayed.push_back(op);
    blockPlan.push_back({nullptr, segment.get()});
    segments.push_back(std::move(segment));
    i = last + 1;
  }
  // The bodies of control flow the interpreter runs are cut the same way.
  for (Operation *op : ops)
    if (roles.lookup(op) == OpRole::Native)
      for (Region &region : op->getRegions())
        for (Block &nested : region)
          demoted |= partition(&nested, opRoles);
  return demoted;
}

bool tsir::SegmentedGraph::interpretControlFlowIn(Segment &segment) {
  bool found = false;
  for (Operation *op : segment.ops)
    op->walk([&](Operation *nested) {
      if (isa<prim::IfOp, prim::LoopOp>(nested)) {
        roles[nested] = OpRole::Native;
        found = true;
      }
    });
  if (!found)
    return false;
  cutAgain(segment);
  return true;
}

bool tsir::SegmentedGraph::runByKernelsIn(Segment &segment,
                                          ArrayRef<UnloweredOp> unlowered) {
  llvm::DenseSet<Operation *> runnable =
      runnableOpsNamedIn(segment.ops, unlowered, *opRoles, /*nativeToo=*/true);
  if (runnable.empty())
    return false;
  Block *block = segment.ops.front()->getBlock();
  for (Operation *op : runnable) {
    std::string kernel = opRoles->kernelName(op);
    if (kernel.empty()) {
      roles[op] = OpRole::Native;
    } else {
      roles[op] = OpRole::Kernel;
      kernels[op] = kernel;
    }
    // The control flow around it no longer lowers as one op.
    for (Operation *parent = op->getParentOp();
         parent && parent != block->getParentOp();
         parent = parent->getParentOp())
      if (isa<prim::IfOp, prim::LoopOp>(parent))
        roles[parent] = OpRole::Native;
  }
  cutAgain(segment);
  return true;
}

void tsir::SegmentedGraph::cutAgain(Segment &segment) {
  Block *block = segment.ops.front()->getBlock();
  size_t numSegments = segments.size();
  while (true) {
    std::vector<Step> plan;
    if (!partitionOps(block, segment.ops, plan, *opRoles)) {
      segment.fallback = std::move(plan);
      return;
    }
    segments.resize(numSegments);
  }
}

bool tsir::SegmentedGraph::needsInterpreter(func::FuncOp func,
                                            const OpRoles &opRoles,
                                            Operation *&missing,
                                            Operation **interpreted) {
  missing = nullptr;
  bool needed = false;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func || isTerminator(op))
      return;
    OpRole role = opRoles.classify(op);
    if (readsLoweredList(op, [&](Operation *producer) {
          return opRoles.classify(producer);
        }))
      role = OpRole::Lowered;
    // Module state (an attribute forward writes) lives in the interpreter.
    if (role == OpRole::Kernel || isa<prim::GetAttrOp, prim::SetAttrOp>(op)) {
      if (interpreted && !needed)
        *interpreted = op;
      needed = true;
    }
    if (role == OpRole::Missing && !missing)
      missing = op;
  });
  return needed;
}

/// The ops at the top of `func`'s body.
static SmallVector<Operation *> topLevelOps(func::FuncOp func) {
  SmallVector<Operation *> ops;
  for (Operation &op : func.getBody().front())
    ops.push_back(&op);
  return ops;
}

llvm::DenseSet<Operation *>
tsir::SegmentedGraph::kernelOpsNamed(func::FuncOp func,
                                     ArrayRef<UnloweredOp> unlowered,
                                     const OpRoles &opRoles) {
  return runnableOpsNamedIn(topLevelOps(func), unlowered, opRoles,
                            /*nativeToo=*/false);
}

rt::StatusOr<std::unique_ptr<SegmentedGraph>>
tsir::SegmentedGraph::build(func::FuncOp func, const OpRoles &opRoles,
                            bool interpretControlFlow,
                            const llvm::DenseSet<Operation *> &byKernel) {
  std::unique_ptr<SegmentedGraph> graph(new SegmentedGraph());
  graph->graph = func;
  graph->opRoles = &opRoles;
  graph->assignRoles(opRoles, interpretControlFlow, byKernel);
  while (true) {
    bool demoted = true;
    while (demoted) {
      graph->blockSteps.clear();
      graph->segments.clear();
      demoted = graph->partition(&func.getBody().front(), opRoles);
    }
    // A view written through across segments is made by the interpreter
    // instead, on the runtime tensor, so that it shares its storage.
    ViewAcrossSegments found = findViewAcrossSegments(func, graph->segments);
    if (!found.write)
      break;
    if (!isNativeView(found.view))
      return rt::Status::located(describeViewAcrossSegments(found));
    graph->roles[found.view] = OpRole::Native;
  }
  // An op nothing runs is an error now only where every run reaches it;
  // in a branch or a loop body it is one when that code runs (an
  // Optional's branch taken only when the caller gives a value, say),
  // as the interpreter reports it there.
  Operation *missing = nullptr;
  for (Operation &op : func.getBody().front())
    if (!missing && graph->role(&op) == OpRole::Missing)
      missing = &op;
  if (missing)
    return rt::Status::located(describeMissingOp(
        missing, opRoles.classify(missing) == OpRole::Lowered));
  return graph;
}
