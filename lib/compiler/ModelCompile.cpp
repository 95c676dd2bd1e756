//===- ModelCompile.cpp - Ahead-of-time compilation of one graph ----------===//
//
// See ModelCompile.h. The steps are the JIT's (specializeGraph,
// lowerToLLVMDialect) up to the LLVM dialect; then the model's table and
// signature are read off the specialized graph and the plan signature, the
// weights are laid out, and ModelObject writes the object and links it.
//
//===----------------------------------------------------------------------===//

#include "ModelCompile.h"
#include "CompilePipeline.h"
#include "ModelLink.h"
#include "ModelObject.h"
#include "Segments.h"
#include "tsir/Compiler/Diagnostics.h"

#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/Importer/Importer.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "tsir-runtime/ModelTable.h"
#include "tsir-runtime/tsir_model.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

using namespace mlir;
using namespace tsir;

/// The user's spec of the caller inputs as tsir-refine-types takes it:
/// scalars keep their declared types (after checking the spec names them),
/// and so does a module's `self`.
static rt::StatusOr<ArgumentSpec>
refineSpecOf(MLIRContext *context, const std::string &spec,
             const GraphInputs &signature) {
  std::vector<std::string> entries;
  int depth = 0;
  std::string current;
  for (char c : spec + ",") {
    if (c == '(' || c == '[')
      ++depth;
    else if (c == ')' || c == ']')
      --depth;
    if (c == ',' && depth == 0) {
      entries.push_back(StringRef(current).trim().str());
      current.clear();
      continue;
    }
    current.push_back(c);
  }
  if (entries.size() == 1 && entries[0].empty())
    entries.clear();
  const std::vector<GraphInput> &inputs = signature.inputs();
  // The form tsir prints (`tsir-run`'s `spec:`, `f.plans`) gives a module's
  // `self` as a leading `_`; a user's spec may leave it out.
  if (signature.firstCallerArgument() &&
      entries.size() == inputs.size() + signature.firstCallerArgument() &&
      !entries.empty() && entries.front() == "_")
    entries.erase(entries.begin());
  if (entries.size() != inputs.size()) {
    std::string expected;
    for (const GraphInput &input : inputs)
      expected += (expected.empty() ? "" : ", ") + input.typeText;
    return rt::Status::error(
        "the spec gives " + std::to_string(entries.size()) +
        " inputs, the graph takes " + std::to_string(inputs.size()) + " (" +
        expected + ")");
  }
  ArgumentSpec refined(signature.firstCallerArgument(), Type());
  for (size_t i = 0; i < entries.size(); ++i) {
    const std::string &entry = entries[i];
    Type declared = inputs[i].type;
    StringRef scalar = declared.isInteger(64)  ? "int"
                       : declared.isF64()      ? "float"
                       : declared.isInteger(1) ? "bool"
                                               : "";
    std::string where = "spec entry " + std::to_string(i) + " ('" + entry +
                        "')";
    std::string input = "input " + std::to_string(i) + " (%" +
                        inputs[i].name + " : " + inputs[i].typeText + ")";
    if (entry == "int" || entry == "float" || entry == "bool") {
      if (entry != scalar && !(entry == "int" && scalar == "float"))
        return rt::Status::error(where + " does not fit " + input);
      refined.push_back(Type());
      continue;
    }
    if (entry == "_") {
      refined.push_back(Type());
      continue;
    }
    if (entry == "None") {
      refined.push_back(prim::NoneType::get(context));
      continue;
    }
    std::string why;
    Type type = parseTorchType(context, entry, why);
    if (!type)
      return rt::Status::error(where + " " + why);
    auto tensor = dyn_cast<prim::TensorType>(type);
    if (!tensor)
      return rt::Status::error(where + " is not a tensor type, int, float, "
                                       "bool, None or _");
    // A model's inputs are host tensors, as the executor's are
    // (refinedTensorType): a spec that names no device means the host, so
    // that `x.device` folds as it does under tsir-run (ViT's fast-path test
    // `str(x.device).find(...)` has no lowering).
    if (!tensor.getDevice())
      tensor = prim::TensorType::get(
          context, tensor.getDtype(), tensor.getHasSizes(), tensor.getSizes(),
          tensor.getHasStrides(), tensor.getStrides(),
          StringAttr::get(context, "cpu"), tensor.getRequiresGrad(),
          tensor.getLegacyNonContiguous());
    refined.push_back(tensor);
  }
  return refined;
}

/// How the signature names a kind of value.
static const char *kindText(int64_t kind) {
  switch (kind) {
  case TSIR_VALUE_INT:
    return "int";
  case TSIR_VALUE_FLOAT:
    return "float";
  case TSIR_VALUE_BOOL:
    return "bool";
  default:
    return "tensor";
  }
}

/// `Float(2, 3)` (`*` for a size the spec left open), `int`, ...
static std::string describeSlot(int64_t kind, rt::DType dtype,
                                ArrayRef<int64_t> sizes, bool ranked) {
  if (kind != TSIR_VALUE_TENSOR)
    return kindText(kind);
  std::string text = rt::dtypeTorchName(dtype);
  text += "(";
  for (size_t d = 0; ranked && d < sizes.size(); ++d)
    text += (d ? ", " : "") +
            (sizes[d] < 0 ? std::string("*") : std::to_string(sizes[d]));
  return text + ")";
}

namespace {
/// The model's table and signature, built up in ModelTable.h's order.
struct ModelBuilder {
  ModelData data;
  llvm::json::Array inputs, outputs, weightNames;

  /// The caller inputs, from the specialized graph's argument types.
  rt::Status addInputs(func::FuncOp func, const GraphInputs &signature) {
    const std::vector<GraphInput> &graphInputs = signature.inputs();
    for (size_t i = 0; i < graphInputs.size(); ++i) {
      Type type =
          func.getArgument(signature.firstCallerArgument() + i).getType();
      std::string where = "input " + std::to_string(i) + " (%" +
                          graphInputs[i].name + " : " +
                          graphInputs[i].typeText + ")";
      int64_t kind = type.isInteger(64)  ? TSIR_VALUE_INT
                     : type.isF64()      ? TSIR_VALUE_FLOAT
                     : type.isInteger(1) ? TSIR_VALUE_BOOL
                                         : TSIR_VALUE_TENSOR;
      rt::DType dtype = rt::DType::Float32;
      SmallVector<int64_t> sizes;
      if (kind == TSIR_VALUE_TENSOR) {
        auto tensor = dyn_cast<prim::TensorType>(type);
        if (!tensor)
          return rt::Status::error(where + " cannot be an input of a compiled "
                                           "model: models take tensors, ints, "
                                           "floats and bools");
        std::optional<rt::DType> known = tensor.getDtype()
                                             ? runtimeDtypeOf(tensor.getDtype())
                                             : std::nullopt;
        if (!known || !tensor.getHasSizes())
          return rt::Status::error(where + ": the spec must give its dtype "
                                           "and sizes, e.g. Float(2, 3)");
        if (tensor.getSizes().size() > TSIR_MODEL_MAX_RANK)
          return rt::Status::error(where + ": models take tensors of rank " +
                                   std::to_string(TSIR_MODEL_MAX_RANK) +
                                   " at most");
        dtype = *known;
        for (int64_t size : tensor.getSizes())
          sizes.push_back(size < 0 ? -1 : size);
      }
      data.table.push_back(kind);
      data.table.push_back(
          kind == TSIR_VALUE_TENSOR ? rt::dtypeScalarType(dtype) : 0);
      data.table.push_back(sizes.size());
      data.table.insert(data.table.end(), sizes.begin(), sizes.end());
      inputs.push_back(
          llvm::json::Object{{"name", graphInputs[i].name},
                             {"type", describeSlot(kind, dtype, sizes, true)},
                             {"kind", kindText(kind)},
                             {"declared", graphInputs[i].typeText}});
    }
    return rt::Status::ok();
  }

  void addArguments(const CallSignature &plan) {
    for (const tsir_abi_slot &slot : plan.arguments)
      data.table.insert(data.table.end(),
                        {slot.kind, slot.dtype, slot.rank, slot.source});
  }

  void addResults(const CallSignature &plan) {
    size_t numOutputs = plan.results.size() - plan.writeback.size();
    for (auto [index, slot] : llvm::enumerate(plan.results)) {
      data.table.insert(data.table.end(), {slot.kind, slot.dtype, slot.rank});
      if (index < numOutputs)
        outputs.push_back(llvm::json::Object{
            {"kind", kindText(slot.kind)},
            {"dtype", slot.kind == TSIR_VALUE_TENSOR
                          ? std::string(rt::dtypeTorchName(
                                *rt::dtypeFromScalarType(slot.dtype)))
                          : std::string()},
            {"rank", slot.rank}});
    }
  }

  /// Each weight's bytes (embedded, 64-byte aligned) or the promise of them.
  rt::Status addWeights(const CallSignature &plan, const WeightSource &source,
                        bool embed) {
    // How the compiled code reads each weight (an unused one: not at all).
    std::vector<const tsir_abi_slot *> uses(plan.weightNames.size(),
                                            nullptr);
    for (const tsir_abi_slot &slot : plan.arguments)
      if (slot.source < 0)
        uses[-1 - slot.source] = &slot;
    for (auto [index, name] : llvm::enumerate(plan.weightNames)) {
      auto found = source.tensors.find(name);
      if (found == source.tensors.end())
        return rt::Status::error("weight '" + name +
                                 "' is missing: give a weights file "
                                 "(--weights) that holds it");
      rt::Tensor tensor = found->second.contiguous();
      const tsir_abi_slot *use = uses[index];
      if (use && (tensor.dim() != use->rank ||
                  rt::dtypeScalarType(tensor.dtype()) != use->dtype))
        return rt::Status::error(
            "weight '" + name + "' is " + tensor.toString() +
            ", the graph reads it as a " +
            rt::dtypeTorchName(*rt::dtypeFromScalarType(use->dtype)) +
            " tensor of rank " + std::to_string(use->rank));
      int64_t bytes = tensor.numel() * tensor.elementSize();
      int64_t offset = -1;
      if (embed) {
        data.weights.resize((data.weights.size() + 63) / 64 * 64, '\0');
        offset = data.weights.size();
        data.weights.append(static_cast<const char *>(tensor.data()), bytes);
      }
      data.table.push_back(offset);
      data.table.push_back(bytes);
      data.table.push_back(tensor.dim());
      data.table.insert(data.table.end(), tensor.sizes().begin(),
                        tensor.sizes().end());
      data.weightNames += name;
      data.weightNames.push_back('\0');
      weightNames.push_back(name);
    }
    return rt::Status::ok();
  }
};
} // namespace

/// The PTX of the kernel modules (compiled with format=isa): one file,
/// `options.output`, when the graph has one module; else one file per
/// module, `<output stem>.<module>.ptx`, since ptxas takes one module a file.
static rt::Status writeKernelsPTX(ModuleOp module,
                                  const ModelCompileOptions &options) {
  if (options.device != "cuda")
    return rt::Status::error("--emit ptx needs --device cuda");
  std::vector<std::pair<std::string, std::string>> kernels;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attribute : binary.getObjects())
      if (auto object = dyn_cast<gpu::ObjectAttr>(attribute))
        kernels.emplace_back(binary.getSymName().str(),
                             object.getObject().getValue().str());
  });
  if (kernels.empty())
    return rt::Status::error("the graph has no GPU kernels");
  llvm::SmallString<256> stem(options.output);
  if (llvm::sys::path::extension(stem) == ".ptx")
    llvm::sys::path::replace_extension(stem, "");
  for (const auto &[name, ptx] : kernels) {
    std::string path = kernels.size() == 1 ? options.output
                                           : (stem + "." + name + ".ptx").str();
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    if (ec)
      return rt::Status::error("cannot write " + path + ": " + ec.message());
    out << ptx;
  }
  return rt::Status::ok();
}

/// The shared library needs its objects in files: a temporary directory,
/// removed when done.
struct TemporaryDirectory {
  llvm::SmallString<128> path;
  ~TemporaryDirectory() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
};

std::string tsir::libraryDirectoryBeside(const char *argv0, void *anchor) {
  llvm::SmallString<256> directory(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(
          llvm::sys::fs::getMainExecutable(argv0, anchor))));
  llvm::sys::path::append(directory, "lib");
  return std::string(directory);
}

std::string tsir::modelAbiArchive(const std::string &libraryDirectory) {
  llvm::SmallString<256> archive(libraryDirectory);
  llvm::sys::path::append(archive, "libTsirModelABI.a");
  return std::string(archive);
}

rt::Status tsir::compileModel(ModuleOp graph, const GraphInputs &signature,
                              const WeightSource &weights, const OpRoles &roles,
                              const ModelCompileOptions &options,
                              CompileProgress *progress,
                              const ArgumentSpec *spec) {
  if (options.device != "cpu" && options.device != "cuda")
    return rt::Status::error("--device must be cpu or cuda, not '" +
                             options.device + "'");
  CompileOptions compileOptions;
  if (spec) {
    compileOptions.spec = *spec;
  } else {
    rt::StatusOr<ArgumentSpec> parsed =
        refineSpecOf(graph.getContext(), options.spec, signature);
    if (!parsed.ok())
      return parsed.status();
    compileOptions.spec = std::move(*parsed);
  }
  compileOptions.printIRAfterAll = options.printIRAfterAll;
  compileOptions.firstCallerArgument = signature.firstCallerArgument();
  compileOptions.device = options.device;
  compileOptions.gpuArch = options.gpuArch;
  compileOptions.targetCpu = options.targetCpu;
  // PTX text is what --emit ptx writes; a library embeds a fatbin.
  compileOptions.gpuFormat =
      options.emit == ModelCompileOptions::Emit::PTX ? "isa" : "fatbin";
  for (const auto &[name, tensor] : weights.tensors)
    compileOptions.weights.push_back(
        {name, refinedTensorType(graph.getContext(), tensor)});
  compileOptions.progress = progress;
  rt::StatusOr<SpecializedGraph> specialized =
      specializeGraph(graph, compileOptions);
  if (!specialized.ok())
    return specialized.status();
  func::FuncOp func = specialized->func();
  if (rt::Status storage = checkStorageSemantics(func); !storage.isOk())
    return storage;
  Operation *missing = nullptr, *interpreted = nullptr;
  if (SegmentedGraph::needsInterpreter(func, roles, missing, &interpreted)) {
    if (missing)
      return rt::Status::located(describeMissingOp(missing));
    return rt::Status::located(formatError(
        interpreted->getLoc(),
        OpRoles::torchName(interpreted) +
            " runs only in tsir's interpreter (a runtime kernel: lists of "
            "dynamic length, strings, prim::Print, custom operators), and a "
            "compiled model must compile whole: give sizes that make it "
            "static, or run the graph with tsir-run instead"));
  }

  ModelBuilder builder;
  builder.data.table = {TSIR_MODEL_TABLE_MAGIC,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0 /* the device, below */};
  if (rt::Status added = builder.addInputs(func, signature); !added.isOk())
    return added;

  rt::StatusOr<LoweredGraph> lowered =
      lowerToLLVMDialect(*specialized, compileOptions);
  if (!lowered.ok()) {
    if (missing)
      return rt::Status::located(describeMissingOp(missing));
    return lowered.status();
  }
  const CallSignature &plan = lowered->signature;
  // A model's weights are read-only (the library's constants, or a file
  // mapped for reading); the JIT writes a weight's new value into its
  // memory instead.
  for (int64_t written : plan.writeback)
    if (written < 0)
      return rt::Status::error(
          "the graph writes its weight '" + plan.weightNames.at(-1 - written) +
          "' in place (a training-mode batch norm's running statistics, "
          "say), and a compiled model's weights are read-only: compile the "
          "module in eval mode, or run it with tsir-run or tsir.compile");
  builder.addArguments(plan);
  builder.addResults(plan);
  if (rt::Status added =
          builder.addWeights(plan, weights, options.embedWeights);
      !added.isOk())
    return added;
  builder.data.table.insert(builder.data.table.end(), plan.writeback.begin(),
                            plan.writeback.end());
  std::vector<int64_t> &table = builder.data.table;
  table[TSIR_MODEL_TABLE_DEVICE] = plan.device;
  table[TSIR_MODEL_TABLE_INPUTS] = signature.inputs().size();
  table[TSIR_MODEL_TABLE_ARGUMENTS] = plan.arguments.size();
  table[TSIR_MODEL_TABLE_RESULTS] = plan.results.size();
  table[TSIR_MODEL_TABLE_WEIGHTS] = plan.weightNames.size();
  table[TSIR_MODEL_TABLE_WRITEBACK] = plan.writeback.size();

  std::string userSpec;
  for (const llvm::json::Value &input : builder.inputs)
    userSpec += (userSpec.empty() ? "" : ", ") +
                input.getAsObject()->getString("type")->str();
  llvm::SmallString<256> weightsFile(weights.path);
  if (!weightsFile.empty())
    llvm::sys::fs::make_absolute(weightsFile);
  llvm::json::Object signatureJson{
      {"abi", TSIR_MODEL_ABI_VERSION},
      {"device", options.device},
      {"spec", userSpec},
      {"inputs", std::move(builder.inputs)},
      {"outputs", std::move(builder.outputs)},
      {"weights",
       llvm::json::Object{{"embedded", options.embedWeights},
                          {"file", weightsFile.str().str()},
                          {"names", std::move(builder.weightNames)}}}};
  llvm::raw_string_ostream json(builder.data.signatureJson);
  json << llvm::json::Value(std::move(signatureJson));
  json.flush();

  using Emit = ModelCompileOptions::Emit;
  if (options.emit == Emit::MLIR) {
    std::error_code ec;
    llvm::raw_fd_ostream out(options.output, ec);
    if (ec)
      return rt::Status::error("cannot write " + options.output + ": " +
                               ec.message());
    lowered->module->print(out);
    return rt::Status::ok();
  }
  if (options.emit == Emit::LLVMIR || options.emit == Emit::Object)
    return writeModelArtifact(*lowered->module, builder.data, options.targetCpu,
                              options.emit == Emit::LLVMIR
                                  ? ModelArtifact::LLVMIR
                                  : ModelArtifact::Object,
                              options.output);
  if (options.emit == Emit::PTX)
    return writeKernelsPTX(*lowered->module, options);

  TemporaryDirectory objects;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("tsir-model",
                                                                objects.path))
    return rt::Status::error("cannot create a temporary directory: " +
                             ec.message());
  rt::StatusOr<std::vector<std::string>> written =
      writeModelObjects(*lowered->module, builder.data, options.targetCpu,
                        std::string(objects.path),
                        // A CUDA model's kernels load from a constructor,
                        // which stays with its one module.
                        options.device == "cuda" ? 1 : compileThreads());
  if (!written.ok())
    return written.status();
  if (progress)
    progress->finished("LLVM code generation");
  rt::Status linked = linkModelLibrary(
      *written, options.abiArchive,
      options.device == "cuda" ? options.runtimeLibraryDir : std::string(),
      options.linker, options.output);
  if (linked.isOk() && progress)
    progress->finished("link");
  return linked;
}
