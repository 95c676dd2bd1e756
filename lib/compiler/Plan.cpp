//===- Plan.cpp - A graph compiled for one argument spec ------------------===//
//
// JIT compilation (ORC's LLJIT for the CPU, PartitionedJIT.h; MLIR's
// ExecutionEngine for a CUDA module), and the call: runtime values
// become tsir_values (tensors made contiguous) and go through tsirAbiCall,
// the calling convention every model.so uses too (AbiCall.h); its outputs
// become runtime values that own their buffers.
//
//===----------------------------------------------------------------------===//

#include "Plan.h"
#include "LLVMOptimizer.h"
#include "ModelObject.h"
#include "PartitionedJIT.h"
#include "SavedPlan.h"
#include "SupportSymbols.h"
#include "TargetCPU.h"
#include "tsir-runtime/AbiValue.h"
#include "tsir-runtime/BufferCache.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "tsir-runtime/Threads.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace tsir;

tsir::Plan::~Plan() = default;

std::optional<rt::DType> tsir::runtimeDtypeOf(Type dtype) {
  StringRef name = prim::torchNameOfDtype(dtype);
  if (name.empty())
    return std::nullopt;
  return rt::dtypeFromTorchName(std::string_view(name.data(), name.size()));
}

/// The slot for a value of prim type `type` lowered to `lowered`.
static rt::StatusOr<tsir_abi_slot> slotFor(Type type, Type lowered) {
  tsir_abi_slot slot = {TSIR_VALUE_TENSOR, 0, 0, 0};
  if (auto tensor = dyn_cast<RankedTensorType>(lowered)) {
    auto prim = dyn_cast<prim::TensorType>(type);
    std::optional<rt::DType> dtype =
        prim ? runtimeDtypeOf(prim.getDtype()) : std::nullopt;
    if (!dtype)
      return rt::Status::error("no runtime dtype for a tensor of type " +
                               std::to_string(tensor.getRank()));
    if (tensor.getRank() > TSIR_MODEL_MAX_RANK)
      return rt::Status::error(
          "compiled code takes and returns tensors of rank " +
          std::to_string(TSIR_MODEL_MAX_RANK) + " at most, not " +
          std::to_string(tensor.getRank()));
    slot.rank = tensor.getRank();
    slot.dtype = rt::dtypeScalarType(*dtype);
    return slot;
  }
  if (lowered.isInteger(1))
    slot.kind = TSIR_VALUE_BOOL;
  else if (lowered.isInteger(64))
    slot.kind = TSIR_VALUE_INT;
  else if (lowered.isF64())
    slot.kind = TSIR_VALUE_FLOAT;
  else
    return rt::Status::error("the compiled graph has an argument or result "
                             "of an unsupported type");
  return slot;
}

tsir_abi_signature tsir::CallSignature::abi() const {
  tsir_abi_signature abi;
  abi.device = device;
  abi.num_arguments = arguments.size();
  abi.arguments = arguments.data();
  abi.num_results = results.size();
  abi.results = results.data();
  abi.num_writeback = writeback.size();
  abi.writeback = writeback.data();
  return abi;
}

rt::StatusOr<CallSignature>
tsir::readCallSignature(func::FuncOp graph, unsigned numGraphArguments,
                        unsigned firstCallerArgument) {
  CallSignature signature;
  auto *primDialect =
      graph->getContext()->getLoadedDialect<prim::PrimDialect>();
  if (ArrayAttr weights =
          primDialect->getWeightNamesAttrHelper().getAttr(graph))
    for (Attribute name : weights)
      signature.weightNames.push_back(cast<StringAttr>(name).str());
  ArrayAttr positions =
      primDialect->getArgumentPositionsAttrHelper().getAttr(graph);
  ArrayAttr resultTypes =
      primDialect->getResultTypesAttrHelper().getAttr(graph);
  FunctionType type = graph.getFunctionType();
  if (!positions || !resultTypes || positions.size() != type.getNumInputs() ||
      resultTypes.size() != type.getNumResults())
    return rt::Status::error("the lowered graph lost its signature attributes");
  // The original types of the graph's arguments, weights included.
  ArrayAttr originalTypes =
      primDialect->getArgumentTypesAttrHelper().getAttr(graph);
  for (unsigned i = 0; i < type.getNumInputs(); ++i) {
    int64_t position = cast<IntegerAttr>(positions[i]).getInt();
    Type original = originalTypes && position < (int64_t)originalTypes.size()
                        ? cast<TypeAttr>(originalTypes[position]).getValue()
                        : Type();
    rt::StatusOr<tsir_abi_slot> slot = slotFor(original, type.getInput(i));
    if (!slot.ok())
      return slot.status();
    if (position >= numGraphArguments)
      slot->source = -1 - (position - numGraphArguments);
    else
      slot->source = position - firstCallerArgument;
    signature.arguments.push_back(*slot);
  }
  if (ArrayAttr written =
          primDialect->getWrittenInputsAttrHelper().getAttr(graph))
    for (Attribute attribute : written) {
      int64_t position = cast<IntegerAttr>(attribute).getInt();
      // A weight is written as its argument slot names it: -1 - index.
      signature.writeback.push_back(
          position >= numGraphArguments
              ? -1 - (position - numGraphArguments)
              : position - firstCallerArgument);
    }
  for (unsigned i = 0; i < type.getNumResults(); ++i) {
    rt::StatusOr<tsir_abi_slot> slot =
        slotFor(cast<TypeAttr>(resultTypes[i]).getValue(), type.getResult(i));
    if (!slot.ok())
      return slot.status();
    signature.results.push_back(*slot);
  }
  return signature;
}

/// The packed wrapper ExecutionEngine makes of the graph's C interface:
/// the one function of the module the plan calls.
static constexpr llvm::StringLiteral kPackedEntry = "_mlir__mlir_ciface_graph";

/// Keeps `entry` and what it calls. ExecutionEngine (a CUDA module's JIT)
/// packs every function it is given into a `_mlir_<name>` wrapper: one for
/// each outlined loop nest and kernel, and one for the graph function
/// itself, whose hundreds of memref arguments made it the costliest
/// function of the module to compile (DenseNet-121: 4.4 s of 12 s of code
/// generation). Nothing calls them. Every function but the entry becomes
/// internal, and those nothing uses are deleted before optimization; the
/// CPU JIT does the same to the translated module, whose functions are
/// all external.
static void internalizeAllBut(llvm::Module &module, llvm::StringRef entry) {
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && function.getName() != entry)
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (bool erased = true; erased;) {
    erased = false;
    for (llvm::Function &function : llvm::make_early_inc_range(module))
      if (function.hasLocalLinkage() && function.use_empty()) {
        function.eraseFromParent();
        erased = true;
      }
  }
}

/// The JIT of a CPU module (PartitionedJIT.h): its LLVM module with the
/// packed entry, compiled in `parts` partitions, linked in memory. The
/// objects and their data layout go into `saved` when it is given.
static rt::StatusOr<std::unique_ptr<llvm::orc::LLJIT>>
compilePartitioned(ModuleOp module, unsigned parts, tsir_abi_entry &entry,
                   SavedPlan *saved) {
  rt::StatusOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createCpuTargetMachine("host", CodeModelFor::JIT);
  if (!machine.ok())
    return machine.status();
  auto context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, *context, "tsir_plan");
  if (!llvmModule)
    return rt::Status::error("translating the lowered graph to LLVM IR failed");
  llvmModule->setDataLayout((*machine)->createDataLayout());
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  if (rt::Status added = addPackedEntry(*llvmModule, kPackedEntry);
      !added.isOk())
    return added;
  internalizeAllBut(*llvmModule, kPackedEntry);
  llvm::DataLayout layout = llvmModule->getDataLayout();
  rt::StatusOr<std::vector<llvm::SmallVector<char, 0>>> objects =
      compileJITPartitions(std::move(llvmModule), parts);
  if (!objects.ok())
    return objects.status();
  auto jit = linkJITPartitions(*objects, layout, kPackedEntry, entry);
  if (jit.ok() && saved) {
    saved->dataLayout = layout.getStringRepresentation();
    saved->objects = std::move(*objects);
  }
  return jit;
}

rt::StatusOr<std::unique_ptr<Plan>> tsir::Plan::compile(ModuleOp module,
                                                        CallSignature signature,
                                                        std::string *saved) {
  // The LLVM IR translations are registered once, with the context's
  // dialects (GraphExecutor's registerEverything).

  // Parallel loops call LLVM's OpenMP runtime (__kmpc_fork_call, ...): it
  // is loaded into the process, where the JIT resolves symbols, before the
  // code that calls it is linked.
  bool threaded =
      module.walk([](omp::ParallelOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  if (threaded)
    if (rt::Status loaded = rt::loadOpenMPRuntime(TSIR_OPENMP_LIBRARY);
        !loaded.isOk())
      return loaded;

  if (unsigned parts = jitPartitions(module); parts > 0) {
    std::unique_ptr<Plan> plan(new Plan());
    SavedPlan toSave;
    rt::StatusOr<std::unique_ptr<llvm::orc::LLJIT>> jit = compilePartitioned(
        module, parts, plan->entry, saved ? &toSave : nullptr);
    if (!jit.ok())
      return jit.status();
    plan->jit = std::move(*jit);
    plan->signature = std::move(signature);
    if (saved) {
      toSave.signature = plan->signature;
      toSave.threaded = threaded;
      *saved = writeSavedPlan(toSave);
    }
    return plan;
  }

  // A CUDA module: ExecutionEngine, which runs the module constructor
  // that loads its kernels. Its host code is for this machine's CPU and
  // its features. The optimization passes get the same target machine:
  // without it LLVM's loop vectorizer has no cost model and leaves loops
  // scalar.
  rt::StatusOr<std::unique_ptr<llvm::TargetMachine>> targetMachine =
      createCpuTargetMachine("host", CodeModelFor::JIT);
  if (!targetMachine.ok())
    return rt::Status::error("JIT compilation failed: " +
                             targetMachine.status().message());
  ExecutionEngineOptions options;
  auto optimize = makeLLVMOptimizer(targetMachine->get());
  // `transformer` is a function_ref: the lambda must outlive create().
  auto transform = [&optimize](llvm::Module *module) {
    internalizeAllBut(*module, kPackedEntry);
    return optimize(module);
  };
  options.transformer = transform;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine =
      ExecutionEngine::create(module, options, std::move(*targetMachine));
  if (!engine)
    return rt::Status::error("JIT compilation failed: " +
                             llvm::toString(engine.takeError()));
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    for (auto [name, address] : supportSymbols())
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                 llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  // Looking the entry point up materializes it: the machine code is
  // generated now, as part of compiling, not on the first call.
  auto entry = (*engine)->lookup(kPackedEntry);
  if (!entry)
    return rt::Status::error("JIT compilation failed: " +
                             llvm::toString(entry.takeError()));
  std::unique_ptr<Plan> plan(new Plan());
  plan->entry = reinterpret_cast<void (*)(void **)>(*entry);
  plan->engine = std::move(*engine);
  plan->signature = std::move(signature);
  return plan;
}

rt::StatusOr<std::unique_ptr<Plan>> tsir::Plan::load(llvm::StringRef saved) {
  rt::StatusOr<SavedPlan> read = readSavedPlan(saved);
  if (!read.ok())
    return read.status();
  llvm::Expected<llvm::DataLayout> layout =
      llvm::DataLayout::parse(read->dataLayout);
  if (!layout)
    return rt::Status::error("a saved plan's data layout: " +
                             llvm::toString(layout.takeError()));
  if (read->threaded)
    if (rt::Status loaded = rt::loadOpenMPRuntime(TSIR_OPENMP_LIBRARY);
        !loaded.isOk())
      return loaded;
  std::unique_ptr<Plan> plan(new Plan());
  rt::StatusOr<std::unique_ptr<llvm::orc::LLJIT>> jit =
      linkJITPartitions(read->objects, *layout, kPackedEntry, plan->entry);
  if (!jit.ok())
    return jit.status();
  plan->jit = std::move(*jit);
  plan->signature = std::move(read->signature);
  return plan;
}

/// The tsir_value of `value` for a slot of `kind`; a tensor is made
/// contiguous (compiled code assumes identity layouts) and kept alive in
/// `contiguous`.
static rt::StatusOr<tsir_value> abiValueOf(const rt::Value &value,
                                           const tsir_abi_slot &slot,
                                           rt::Tensor &contiguous) {
  tsir_value out;
  std::memset(&out, 0, sizeof out);
  out.kind = int32_t(slot.kind);
  switch (slot.kind) {
  case TSIR_VALUE_INT:
    out.int_value = value.toInt();
    return out;
  case TSIR_VALUE_FLOAT:
    out.float_value = value.isInt() ? double(value.toInt()) : value.toDouble();
    return out;
  case TSIR_VALUE_BOOL:
    out.int_value = value.toBool();
    return out;
  default:
    break;
  }
  rt::Tensor tensor = value.isTensor() ? value.toTensor() : rt::Tensor();
  // The caller's inputs are checked against the graph's signature, but a
  // value computed between segments (a kernel's output, an element of a
  // container) reaches here unchecked.
  if (!tensor.defined())
    return rt::Status::error("an undefined tensor reached compiled code");
  if (rt::dtypeScalarType(tensor.dtype()) != slot.dtype ||
      tensor.dim() != slot.rank)
    return rt::Status::error("an argument does not match the compiled "
                             "plan: " +
                             tensor.toString());
  contiguous = tensor.isContiguous() ? tensor : tensor.contiguous();
  return rt::abiValueOfTensor(contiguous);
}

rt::StatusOr<std::vector<rt::Value>>
tsir::Plan::call(const std::vector<rt::Value> &inputs,
                 const std::map<std::string, rt::Tensor> &weights) const {
  // The values the compiled code reads, by caller input and by weight.
  std::vector<tsir_value> abiInputs(inputs.size());
  std::vector<tsir_value> abiWeights(signature.weightNames.size());
  std::vector<rt::Tensor> contiguousInputs(inputs.size());
  std::vector<rt::Tensor> contiguousWeights(abiWeights.size());
  // Argument slots and writebacks name a caller input by its index (>= 0)
  // and a weight by -1 - its index.
  auto valueAt = [&](int64_t source) -> rt::StatusOr<rt::Value> {
    if (source >= 0)
      return inputs.at(source);
    const std::string &name = signature.weightNames.at(-1 - source);
    auto found = weights.find(name);
    if (found == weights.end())
      return rt::Status::error("weight '" + name +
                               "' is missing: give a weights file "
                               "(--weights) that holds it");
    return rt::Value(found->second);
  };
  auto contiguousAt = [&](int64_t source) -> rt::Tensor & {
    return source >= 0 ? contiguousInputs[source]
                       : contiguousWeights[-1 - source];
  };
  auto abiAt = [&](int64_t source) -> tsir_value & {
    return source >= 0 ? abiInputs[source] : abiWeights[-1 - source];
  };
  auto describe = [](int64_t source) {
    return source >= 0 ? "writing input " + std::to_string(source)
                       : "writing weight " + std::to_string(-1 - source);
  };
  for (const tsir_abi_slot &slot : signature.arguments) {
    rt::StatusOr<rt::Value> argument = valueAt(slot.source);
    if (!argument.ok())
      return argument.status();
    rt::StatusOr<tsir_value> value =
        abiValueOf(*argument, slot, contiguousAt(slot.source));
    if (!value.ok())
      return value.status();
    abiAt(slot.source) = *value;
  }
  // An input or weight written in place that no argument reads still
  // needs its buffer: the new value is copied there.
  size_t numOutputs = signature.results.size() - signature.writeback.size();
  for (auto [i, target] : llvm::enumerate(signature.writeback)) {
    if (contiguousAt(target).defined())
      continue;
    rt::StatusOr<rt::Value> written = valueAt(target);
    if (!written.ok())
      return written.status();
    rt::StatusOr<tsir_value> value = abiValueOf(
        *written, signature.results[numOutputs + i], contiguousAt(target));
    if (!value.ok())
      return value.status().withContext(describe(target));
    abiAt(target) = *value;
  }

  tsir_abi_signature abi = signature.abi();
  std::vector<tsir_value> outputs(numOutputs + 1);
  char error[1024];
  int64_t called = tsirAbiCall(&abi, entry, abiInputs.data(),
                               abiWeights.data(), outputs.data(), error,
                               sizeof error);
  if (called == TSIR_ABI_CHECK_FAILED)
    return rt::Status::located(error);
  if (called < 0)
    return rt::Status::error(std::string("running the compiled graph "
                                         "failed: ") +
                             error);

  std::vector<rt::Value> values;
  values.reserve(numOutputs);
  // Each output's buffer goes back to the runtime's buffer cache when the
  // last tensor over it dies, so the next call's output reuses its pages.
  for (size_t i = 0; i < numOutputs; ++i)
    values.push_back(rt::valueOfAbiOutput(
        outputs[i], [](void *buffer) { tsirBufferFree(buffer); }));
  // The new values of inputs and weights written in place went into the
  // contiguous copies of those that were not contiguous: now into theirs.
  for (int64_t written : signature.writeback) {
    rt::Tensor target = valueAt(written)->toTensor();
    const rt::Tensor &contiguous = contiguousAt(written);
    if (contiguous.data() == target.data())
      continue;
    if (rt::Status copied = target.copyFrom(contiguous); !copied.isOk())
      return copied.withContext(describe(written));
  }
  return values;
}
