//===- Plan.cpp - A graph compiled for one argument spec ------------------===//
//
// JIT compilation with MLIR's ExecutionEngine and the call through MLIR's C
// interface (`_mlir_ciface_graph`): memref arguments are passed as pointers
// to ranked descriptors; results come back through a pointer to a struct
// of them, except a single scalar result, which is returned by value.
//
//===----------------------------------------------------------------------===//

#include "Plan.h"
#include "SupportSymbols.h"
#include "tsir-runtime/BufferCache.h"

#include "tsir/Dialect/Prim/PrimDialect.h"

#include "tsir-runtime/Threads.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/TargetSelect.h"

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
static rt::StatusOr<PlanSlot> slotFor(Type type, Type lowered) {
  PlanSlot slot;
  if (auto tensor = dyn_cast<RankedTensorType>(lowered)) {
    auto prim = dyn_cast<prim::TensorType>(type);
    std::optional<rt::DType> dtype =
        prim ? runtimeDtypeOf(prim.getDtype()) : std::nullopt;
    if (!dtype)
      return rt::Status::error("no runtime dtype for a tensor of type " +
                               std::to_string(tensor.getRank()));
    slot.kind = PlanSlot::Kind::Tensor;
    slot.rank = tensor.getRank();
    slot.dtype = *dtype;
    return slot;
  }
  if (lowered.isInteger(1))
    slot.kind = PlanSlot::Kind::Bool;
  else if (lowered.isInteger(64))
    slot.kind = PlanSlot::Kind::Int;
  else if (lowered.isF64())
    slot.kind = PlanSlot::Kind::Float;
  else
    return rt::Status::error("the compiled graph has an argument or result "
                             "of an unsupported type");
  return slot;
}

rt::StatusOr<PlanSignature>
tsir::readPlanSignature(func::FuncOp graph, unsigned numGraphArguments,
                        unsigned firstCallerArgument) {
  PlanSignature signature;
  if (auto weights = graph->getAttrOfType<ArrayAttr>("tsir.weights"))
    for (Attribute name : weights)
      signature.weightNames.push_back(cast<StringAttr>(name).str());
  auto positions = graph->getAttrOfType<ArrayAttr>("tsir.inputs");
  auto resultTypes = graph->getAttrOfType<ArrayAttr>("tsir.results");
  FunctionType type = graph.getFunctionType();
  if (!positions || !resultTypes ||
      positions.size() != type.getNumInputs() ||
      resultTypes.size() != type.getNumResults())
    return rt::Status::error("the lowered graph lost its signature attributes");
  // The original types of the graph's arguments, weights included.
  auto originalTypes = graph->getAttrOfType<ArrayAttr>("tsir.argument_types");
  for (unsigned i = 0; i < type.getNumInputs(); ++i) {
    int64_t position = cast<IntegerAttr>(positions[i]).getInt();
    Type original = originalTypes && position < (int64_t)originalTypes.size()
                        ? cast<TypeAttr>(originalTypes[position]).getValue()
                        : Type();
    rt::StatusOr<PlanSlot> slot = slotFor(original, type.getInput(i));
    if (!slot.ok())
      return slot.status();
    if (position >= numGraphArguments)
      slot->source = -1 - (position - numGraphArguments);
    else
      slot->source = position - firstCallerArgument;
    signature.arguments.push_back(*slot);
  }
  if (auto written = graph->getAttrOfType<ArrayAttr>("tsir.writeback"))
    for (Attribute position : written)
      signature.writeback.push_back(cast<IntegerAttr>(position).getInt() -
                                    firstCallerArgument);
  for (unsigned i = 0; i < type.getNumResults(); ++i) {
    rt::StatusOr<PlanSlot> slot =
        slotFor(cast<TypeAttr>(resultTypes[i]).getValue(), type.getResult(i));
    if (!slot.ok())
      return slot.status();
    signature.results.push_back(*slot);
  }
  return signature;
}

rt::StatusOr<std::unique_ptr<Plan>> tsir::Plan::compile(ModuleOp module,
                                                        PlanSignature signature) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  // The LLVM IR translations are registered once, with the context's
  // dialects (GraphExecutor's registerEverything).

  // Parallel loops call LLVM's OpenMP runtime (__kmpc_fork_call, ...): it
  // is loaded into the process, where the JIT resolves symbols, before the
  // code that calls it is linked.
  bool threaded = module
                      .walk([](omp::ParallelOp) {
                        return WalkResult::interrupt();
                      })
                      .wasInterrupted();
  if (threaded)
    if (rt::Status loaded = rt::loadOpenMPRuntime(TSIR_OPENMP_LIBRARY);
        !loaded.isOk())
      return loaded;

  // Code for this machine's CPU and its features (AVX-512 where there is
  // one). The optimization passes get the same target machine: without it
  // LLVM's loop vectorizer has no cost model and leaves loops scalar.
  auto targetBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!targetBuilder)
    return rt::Status::error("JIT compilation failed: " +
                             llvm::toString(targetBuilder.takeError()));
  targetBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto targetMachine = targetBuilder->createTargetMachine();
  if (!targetMachine)
    return rt::Status::error("JIT compilation failed: " +
                             llvm::toString(targetMachine.takeError()));
  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(/*optLevel=*/3,
                                               /*sizeLevel=*/0,
                                               targetMachine->get());
  options.transformer = transformer;
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
  auto entry = (*engine)->lookupPacked("_mlir_ciface_graph");
  if (!entry)
    return rt::Status::error("JIT compilation failed: " +
                             llvm::toString(entry.takeError()));
  std::unique_ptr<Plan> plan(new Plan());
  plan->engine = std::move(*engine);
  plan->signature = std::move(signature);
  return plan;
}

namespace {
/// A ranked memref descriptor: allocated, aligned, offset, sizes, strides.
struct Descriptor {
  std::vector<int64_t> words;
  explicit Descriptor(int rank) : words(3 + 2 * rank, 0) {}
  static size_t bytes(int rank) { return (3 + 2 * rank) * sizeof(int64_t); }
};
} // namespace

/// Size and alignment of a slot inside the C struct of results.
static std::pair<size_t, size_t> layoutOf(const PlanSlot &slot) {
  switch (slot.kind) {
  case PlanSlot::Kind::Tensor:
    return {Descriptor::bytes(slot.rank), 8};
  case PlanSlot::Kind::Bool:
    return {1, 1};
  default:
    return {8, 8};
  }
}

/// A tensor owning the buffer compiled code returned in `words`.
static rt::Tensor adoptResult(const int64_t *words, const PlanSlot &slot,
                              const std::vector<const void *> &borrowed,
                              std::map<void *, rt::Ref<rt::Storage>> &adopted) {
  void *allocated = reinterpret_cast<void *>(words[0]);
  void *aligned = reinterpret_cast<void *>(words[1]);
  int64_t offset = words[2];
  std::vector<int64_t> sizes(words + 3, words + 3 + slot.rank);
  std::vector<int64_t> strides(words + 3 + slot.rank,
                               words + 3 + 2 * slot.rank);
  size_t elementSize = rt::dtypeSize(slot.dtype);
  int64_t extent = 1; // elements reachable from the aligned pointer
  for (int i = 0; i < slot.rank; ++i)
    if (sizes[i] == 0)
      extent = 0;
  if (extent)
    for (int i = 0; i < slot.rank; ++i)
      extent += (sizes[i] - 1) * strides[i];
  extent += offset;
  // A result that is not a fresh buffer (an input returned as it is, or a
  // constant global, whose "allocated" pointer MLIR sets to 0xdeadbeef) is
  // copied: the caller owns its outputs.
  bool fresh = allocated != reinterpret_cast<void *>(0xdeadbeef) &&
               allocated != nullptr;
  for (const void *input : borrowed)
    if (input == allocated)
      fresh = false;
  if (!fresh) {
    rt::Ref<rt::Storage> borrowedStorage = rt::Storage::adopt(
        allocated, aligned, extent * elementSize, rt::Device::cpu(),
        [](void *) {});
    return rt::Tensor(borrowedStorage, sizes, strides, offset, slot.dtype)
        .clone();
  }
  // Two results can be one buffer (a graph returning a value twice, or two
  // views of one): they share one storage, which frees it once. The
  // buffer came from the runtime's buffer cache, and goes back to it, so
  // the next call's output reuses its pages.
  auto [it, inserted] = adopted.try_emplace(allocated);
  if (inserted)
    it->second = rt::Storage::adopt(allocated, aligned,
                                    extent * elementSize, rt::Device::cpu(),
                                    [](void *p) { tsirBufferFree(p); });
  return rt::Tensor(it->second, sizes, strides, offset, slot.dtype);
}

rt::StatusOr<std::vector<rt::Value>>
tsir::Plan::call(const std::vector<rt::Value> &inputs,
                 const std::map<std::string, rt::Tensor> &weights) const {
  // Arguments: contiguous tensors (the compiled code assumes identity
  // layouts) as descriptors, scalars as they are.
  std::vector<rt::Tensor> keepAlive;
  std::vector<Descriptor> descriptors;
  std::vector<void *> descriptorPointers;
  std::vector<int64_t> scalars;
  descriptors.reserve(signature.arguments.size());
  scalars.reserve(signature.arguments.size());
  std::vector<void *> packed;
  std::vector<const void *> borrowed;

  for (const PlanSlot &slot : signature.arguments) {
    if (slot.kind != PlanSlot::Kind::Tensor) {
      const rt::Value &value = inputs.at(slot.source);
      int64_t word = 0;
      if (slot.kind == PlanSlot::Kind::Float) {
        double d = value.isInt() ? double(value.toInt()) : value.toDouble();
        std::memcpy(&word, &d, sizeof d);
      } else if (slot.kind == PlanSlot::Kind::Bool) {
        bool b = value.toBool();
        std::memcpy(&word, &b, sizeof b);
      } else {
        word = value.toInt();
      }
      scalars.push_back(word);
      continue;
    }
    rt::Tensor tensor;
    if (slot.source >= 0) {
      tensor = inputs.at(slot.source).toTensor();
    } else {
      const std::string &name = signature.weightNames.at(-1 - slot.source);
      auto found = weights.find(name);
      if (found == weights.end())
        return rt::Status::error("weight '" + name +
                                 "' is missing: give a weights file "
                                 "(--weights) that holds it");
      tensor = found->second;
    }
    // The caller's inputs are checked against the graph's signature, but a
    // value computed between segments (a kernel's output, an element of a
    // container) reaches here unchecked.
    if (!tensor.defined())
      return rt::Status::error("an undefined tensor reached compiled code "
                               "as argument " +
                               std::to_string(descriptors.size()));
    if (tensor.dtype() != slot.dtype || tensor.dim() != slot.rank)
      return rt::Status::error("an argument does not match the compiled "
                               "plan: " + tensor.toString());
    if (!tensor.isContiguous())
      tensor = tensor.contiguous();
    keepAlive.push_back(tensor);
    borrowed.push_back(tensor.storage()->base());
    Descriptor descriptor(slot.rank);
    // Code compiled for identity layouts assumes offset 0: point the
    // aligned pointer at the first element (a row of a larger tensor is
    // contiguous but starts inside its storage).
    descriptor.words[0] = reinterpret_cast<int64_t>(tensor.storage()->base());
    descriptor.words[1] = reinterpret_cast<int64_t>(tensor.data());
    descriptor.words[2] = 0;
    for (int i = 0; i < slot.rank; ++i) {
      descriptor.words[3 + i] = tensor.size(i);
      descriptor.words[3 + slot.rank + i] = tensor.stride(i);
    }
    descriptors.push_back(std::move(descriptor));
  }
  // Pointers into `descriptors` and `scalars` are stable now.
  descriptorPointers.reserve(descriptors.size());
  size_t nextDescriptor = 0, nextScalar = 0;
  std::vector<void *> argumentPointers;
  for (const PlanSlot &slot : signature.arguments) {
    if (slot.kind == PlanSlot::Kind::Tensor) {
      descriptorPointers.push_back(descriptors[nextDescriptor++].words.data());
      argumentPointers.push_back(&descriptorPointers.back());
    } else {
      argumentPointers.push_back(&scalars[nextScalar++]);
    }
  }

  // Results: one struct (a lone memref is a struct too), or a lone scalar.
  const std::vector<PlanSlot> &results = signature.results;
  bool scalarReturn =
      results.size() == 1 && results[0].kind != PlanSlot::Kind::Tensor;
  std::vector<size_t> offsets;
  size_t structSize = 0;
  for (const PlanSlot &slot : results) {
    auto [size, align] = layoutOf(slot);
    structSize = (structSize + align - 1) / align * align;
    offsets.push_back(structSize);
    structSize += size;
  }
  std::vector<int64_t> resultStorage(structSize / 8 + 2, 0);
  void *resultPointer = resultStorage.data();
  if (!results.empty() && !scalarReturn)
    packed.push_back(&resultPointer);
  for (void *argument : argumentPointers)
    packed.push_back(argument);
  if (scalarReturn)
    packed.push_back(resultStorage.data());

  llvm::Error error = engine->invokePacked("_mlir_ciface_graph", packed);
  if (error)
    return rt::Status::error("running the compiled graph failed: " +
                             llvm::toString(std::move(error)));

  std::vector<rt::Value> outputs;
  std::map<void *, rt::Ref<rt::Storage>> adopted;
  const char *bytes = reinterpret_cast<const char *>(resultStorage.data());
  for (size_t i = 0; i < results.size(); ++i) {
    const PlanSlot &slot = results[i];
    const char *at = bytes + (scalarReturn ? 0 : offsets[i]);
    switch (slot.kind) {
    case PlanSlot::Kind::Tensor:
      outputs.emplace_back(adoptResult(
          reinterpret_cast<const int64_t *>(at), slot, borrowed, adopted));
      break;
    case PlanSlot::Kind::Int: {
      int64_t v;
      std::memcpy(&v, at, sizeof v);
      outputs.emplace_back(v);
      break;
    }
    case PlanSlot::Kind::Float: {
      double v;
      std::memcpy(&v, at, sizeof v);
      outputs.emplace_back(v);
      break;
    }
    case PlanSlot::Kind::Bool:
      outputs.emplace_back(bool(*at & 1));
      break;
    }
  }
  // The trailing results are the new values of inputs written in place:
  // write them into the caller's tensors, as PyTorch would have.
  size_t numWritten = signature.writeback.size();
  for (size_t i = 0; i < numWritten; ++i) {
    rt::Tensor target = inputs.at(signature.writeback[i]).toTensor();
    rt::Status copied =
        target.copyFrom(outputs[outputs.size() - numWritten + i].toTensor());
    if (!copied.isOk())
      return copied.withContext("writing input " +
                                std::to_string(signature.writeback[i]));
  }
  outputs.resize(outputs.size() - numWritten);
  return outputs;
}
