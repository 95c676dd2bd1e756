//===- ModelObject.cpp - A lowered graph as object files ------------------===//
//
// See ModelObject.h. The entry point `tsir_model_entry(void **packed)` is
// the same packed convention MLIR's ExecutionEngine wraps `_mlir_ciface_`
// functions in, so the model ABI calls compiled code the way the JIT does.
//
//===----------------------------------------------------------------------===//

#include "ModelObject.h"
#include "LLVMOptimizer.h"
#include "TargetCPU.h"

#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

using namespace mlir;
using namespace tsir;

rt::Status tsir::addPackedEntry(llvm::Module &module, llvm::StringRef name) {
  llvm::Function *graph = module.getFunction("_mlir_ciface_graph");
  if (!graph)
    return rt::Status::error("the lowered graph has no _mlir_ciface_graph");
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *pointer = llvm::PointerType::getUnqual(context);
  auto *entry = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {pointer},
                              /*isVarArg=*/false),
      llvm::GlobalValue::ExternalLinkage, name, module);
  entry->setVisibility(llvm::GlobalValue::HiddenVisibility);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", entry));
  llvm::Value *packed = entry->getArg(0);
  llvm::FunctionType *type = graph->getFunctionType();
  llvm::SmallVector<llvm::Value *> arguments;
  for (unsigned i = 0; i < type->getNumParams(); ++i) {
    llvm::Value *slot =
        builder.CreateConstGEP1_64(pointer, packed, i, "slot");
    llvm::Value *address = builder.CreateLoad(pointer, slot);
    arguments.push_back(builder.CreateLoad(type->getParamType(i), address));
  }
  llvm::Value *result = builder.CreateCall(graph, arguments);
  if (!type->getReturnType()->isVoidTy()) {
    llvm::Value *slot = builder.CreateConstGEP1_64(
        pointer, packed, type->getNumParams(), "result.slot");
    builder.CreateStore(result, builder.CreateLoad(pointer, slot));
  }
  builder.CreateRetVoid();
  return rt::Status::ok();
}

/// A hidden constant global named `name` holding `bytes`.
static void addBytes(llvm::Module &module, llvm::StringRef name,
                     llvm::StringRef bytes, unsigned alignment) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Constant *value = llvm::ConstantDataArray::getRaw(
      bytes, bytes.size(), llvm::Type::getInt8Ty(context));
  auto *global = new llvm::GlobalVariable(
      module, value->getType(), /*isConstant=*/true,
      llvm::GlobalValue::ExternalLinkage, value, name);
  global->setVisibility(llvm::GlobalValue::HiddenVisibility);
  global->setAlignment(llvm::Align(alignment));
}

static void addModelData(llvm::Module &module, const ModelData &data) {
  llvm::LLVMContext &context = module.getContext();
  llvm::SmallVector<uint64_t> words(data.table.begin(), data.table.end());
  llvm::Constant *table = llvm::ConstantDataArray::get(context, words);
  auto *global = new llvm::GlobalVariable(
      module, table->getType(), /*isConstant=*/true,
      llvm::GlobalValue::ExternalLinkage, table, "tsir_model_table");
  global->setVisibility(llvm::GlobalValue::HiddenVisibility);
  global->setAlignment(llvm::Align(8));
  std::string json = data.signatureJson;
  json.push_back('\0');
  addBytes(module, "tsir_model_signature_json", json, 1);
  std::string names = data.weightNames;
  names.push_back('\0');
  addBytes(module, "tsir_model_weight_names", names, 1);
  // At least one byte, so the symbol exists for a model without weights.
  std::string weights = data.weights.empty() ? std::string(1, '\0')
                                             : data.weights;
  addBytes(module, "tsir_model_weights_data", weights, 64);
}

/// The graph as an LLVM module for `machine`: the packed entry point added,
/// every function hidden. The model's data is not in it yet.
static rt::StatusOr<std::unique_ptr<llvm::Module>>
translateGraph(ModuleOp module, llvm::LLVMContext &context,
               llvm::TargetMachine &machine) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "tsir_model");
  if (!llvmModule)
    return rt::Status::error("translating the lowered graph to LLVM IR failed");
  llvmModule->setDataLayout(machine.createDataLayout());
  llvmModule->setTargetTriple(machine.getTargetTriple());
  if (rt::Status added = addPackedEntry(*llvmModule, "tsir_model_entry");
      !added.isOk())
    return added;
  // Only the ABI's functions leave the library: a program that links two
  // models must not see two `graph`s.
  for (llvm::Function &function : *llvmModule)
    if (!function.isDeclaration())
      function.setVisibility(llvm::GlobalValue::HiddenVisibility);
  return llvmModule;
}

/// Optimizes `module` with the JIT's level and target, so a model runs as
/// fast as the same graph under tsir-run.
static rt::Status optimize(llvm::Module &module, llvm::TargetMachine &machine) {
  auto transformer = makeLLVMOptimizer(&machine);
  if (llvm::Error error = transformer(&module))
    return rt::Status::error("optimizing the model failed: " +
                             llvm::toString(std::move(error)));
  return rt::Status::ok();
}

/// `module`'s object code for `machine`, in `object`.
static rt::Status emitObject(llvm::Module &module, llvm::TargetMachine &machine,
                             llvm::SmallVectorImpl<char> &object) {
  llvm::raw_svector_ostream out(object);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, out, nullptr,
                                  llvm::CodeGenFileType::ObjectFile))
    return rt::Status::error("the target cannot emit object files");
  codegen.run(module);
  return rt::Status::ok();
}

/// Writes `bytes` to `path`.
static rt::Status writeFile(const std::string &path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return rt::Status::error("cannot write " + path + ": " + ec.message());
  out << bytes;
  out.flush();
  if (out.has_error())
    return rt::Status::error("cannot write " + path + ": " +
                             out.error().message());
  return rt::Status::ok();
}

rt::Status tsir::writeModelArtifact(ModuleOp module, const ModelData &data,
                                    const std::string &targetCpu,
                                    ModelArtifact artifact,
                                    const std::string &path) {
  rt::StatusOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createCpuTargetMachine(targetCpu, CodeModelFor::SharedLibrary);
  if (!machine.ok())
    return machine.status();
  llvm::LLVMContext context;
  rt::StatusOr<std::unique_ptr<llvm::Module>> llvmModule =
      translateGraph(module, context, **machine);
  if (!llvmModule.ok())
    return llvmModule.status();
  addModelData(**llvmModule, data);
  if (rt::Status optimized = optimize(**llvmModule, **machine);
      !optimized.isOk())
    return optimized;
  if (artifact == ModelArtifact::Object) {
    llvm::SmallVector<char, 0> object;
    if (rt::Status emitted = emitObject(**llvmModule, **machine, object);
        !emitted.isOk())
      return emitted;
    return writeFile(path, llvm::StringRef(object.data(), object.size()));
  }
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return rt::Status::error("cannot write " + path + ": " + ec.message());
  (*llvmModule)->print(out, nullptr);
  return rt::Status::ok();
}

unsigned tsir::compileThreads() {
  if (const char *requested = std::getenv("TSIR_COMPILE_THREADS")) {
    unsigned count = 0;
    if (!llvm::StringRef(requested).getAsInteger(10, count) && count > 0)
      return count;
  }
  return std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
}

rt::StatusOr<std::vector<llvm::SmallVector<char, 0>>> tsir::compileInPartitions(
    std::unique_ptr<llvm::Module> module, const std::string &targetCpu,
    CodeModelFor loadedBy, unsigned parts,
    const std::function<void(llvm::Module &, unsigned)> &prepare) {
  // LLVM's options are process-wide: set before the passes read them.
  configureLLVMOptions();
  if (parts <= 1) {
    // One partition: compiled as it is, on this thread.
    std::vector<llvm::SmallVector<char, 0>> objects(1);
    if (prepare)
      prepare(*module, 0);
    rt::StatusOr<std::unique_ptr<llvm::TargetMachine>> machine =
        createCpuTargetMachine(targetCpu, loadedBy);
    if (!machine.ok())
      return machine.status();
    TSIR_RT_RETURN_IF_ERROR(optimize(*module, **machine));
    TSIR_RT_RETURN_IF_ERROR(emitObject(*module, **machine, objects[0]));
    return objects;
  }
  // Partitions of about equal size, each with its own functions (local
  // symbols become hidden globals, so calls between partitions link).
  // Each goes through bitcode into a context of its own: an LLVMContext
  // belongs to one thread.
  std::vector<llvm::SmallVector<char, 0>> bitcode;
  llvm::SplitModule(
      *module, std::max(parts, 1u),
      [&](std::unique_ptr<llvm::Module> part) {
        llvm::raw_svector_ostream stream(bitcode.emplace_back());
        llvm::WriteBitcodeToFile(*part, stream);
      },
      /*PreserveLocals=*/false, /*RoundRobin=*/true);
  module.reset();
  std::vector<llvm::SmallVector<char, 0>> objects(bitcode.size());
  std::vector<rt::Status> results(bitcode.size(), rt::Status::ok());
  std::vector<std::thread> workers;
  for (size_t i = 0; i < bitcode.size(); ++i) {
    workers.emplace_back([&, i] {
      llvm::LLVMContext context;
      llvm::Expected<std::unique_ptr<llvm::Module>> part =
          llvm::parseBitcodeFile(
              llvm::MemoryBufferRef(
                  llvm::StringRef(bitcode[i].data(), bitcode[i].size()),
                  "tsir_part"),
              context);
      if (!part) {
        results[i] = rt::Status::error("splitting the module failed: " +
                                       llvm::toString(part.takeError()));
        return;
      }
      if (prepare)
        prepare(**part, i);
      rt::StatusOr<std::unique_ptr<llvm::TargetMachine>> partMachine =
          createCpuTargetMachine(targetCpu, loadedBy);
      if (!partMachine.ok()) {
        results[i] = partMachine.status();
        return;
      }
      results[i] = optimize(**part, **partMachine);
      if (results[i].isOk())
        results[i] = emitObject(**part, **partMachine, objects[i]);
    });
  }
  for (std::thread &worker : workers)
    worker.join();
  for (rt::Status &result : results)
    if (!result.isOk())
      return result;
  return objects;
}

rt::StatusOr<std::vector<std::string>>
tsir::writeModelObjects(ModuleOp module, const ModelData &data,
                        const std::string &targetCpu,
                        const std::string &directory, unsigned parts) {
  rt::StatusOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createCpuTargetMachine(targetCpu, CodeModelFor::SharedLibrary);
  if (!machine.ok())
    return machine.status();
  llvm::LLVMContext context;
  rt::StatusOr<std::unique_ptr<llvm::Module>> llvmModule =
      translateGraph(module, context, **machine);
  if (!llvmModule.ok())
    return llvmModule.status();
  // The data goes with the first partition: only the ABI reads it.
  rt::StatusOr<std::vector<llvm::SmallVector<char, 0>>> objects =
      compileInPartitions(std::move(*llvmModule), targetCpu,
                          CodeModelFor::SharedLibrary, parts,
                          [&](llvm::Module &part, unsigned index) {
                            if (index == 0)
                              addModelData(part, data);
                          });
  if (!objects.ok())
    return objects.status();
  std::vector<std::string> paths;
  for (size_t i = 0; i < objects->size(); ++i) {
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, "part" + std::to_string(i) + ".o");
    const llvm::SmallVector<char, 0> &object = (*objects)[i];
    if (rt::Status written = writeFile(
            std::string(path), llvm::StringRef(object.data(), object.size()));
        !written.isOk())
      return written;
    paths.push_back(std::string(path));
  }
  return paths;
}
