//===- PartitionedJIT.cpp - The CPU JIT, in partitions --------------------===//
//
// Splitting pays off above about 20,000 lowered ops per thread: ResNet-18
// (13,383 ops) compiles no faster in two partitions than in one; MaxViT-T
// (70,029 ops, 3 partitions) in 6.8 s instead of 8.8 s
// (benchmarks/README.md).
//
//===----------------------------------------------------------------------===//

#include "PartitionedJIT.h"
#include "ModelObject.h"
#include "SupportSymbols.h"
#include "TargetCPU.h"

#include "llvm/ExecutionEngine/JITEventListener.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cstdlib>
#include <string>

using namespace tsir;

/// How much lowered code (LLVM dialect ops) one thread compiles before a
/// second pays off. $TSIR_JIT_PARTITION_OPS overrides it (the tests set 1,
/// so that small graphs take the partitioned path too).
static int64_t opsPerPartition() {
  if (const char *requested = std::getenv("TSIR_JIT_PARTITION_OPS")) {
    int64_t count = 0;
    if (!llvm::StringRef(requested).getAsInteger(10, count) && count > 0)
      return count;
  }
  return 20000;
}

unsigned tsir::jitPartitions(mlir::ModuleOp module) {
  bool device = false;
  int64_t ops = 0;
  module.walk([&](mlir::Operation *op) {
    ++ops;
    if (op->getName().getStringRef().starts_with("gpu."))
      device = true;
  });
  if (device || module->hasAttr("gpu.container_module"))
    return 0;
  return std::clamp<int64_t>(ops / opsPerPartition(), 1, compileThreads());
}

rt::StatusOr<std::vector<llvm::SmallVector<char, 0>>>
tsir::compileJITPartitions(std::unique_ptr<llvm::Module> module,
                           unsigned parts) {
  // The JIT's code model (large, absolute addresses), as ExecutionEngine's
  // one module has, not a shared library's: LLJIT maps each object's
  // memory on its own, possibly more than 2 GB from the others' (it did
  // under ASan: SSDlite's plan failed to link), and the small code model
  // reaches a function of another partition by a 32-bit offset.
  return compileInPartitions(std::move(module), "host", CodeModelFor::JIT,
                             parts);
}

/// A JIT error as the plan's compile reports it.
static rt::Status jitError(llvm::Error error) {
  return rt::Status::error("JIT compilation failed: " +
                           llvm::toString(std::move(error)));
}

rt::StatusOr<std::unique_ptr<llvm::orc::LLJIT>>
tsir::linkJITPartitions(const std::vector<llvm::SmallVector<char, 0>> &objects,
                        const llvm::DataLayout &layout,
                        llvm::StringRef entryName, tsir_abi_entry &entry) {
  initializeNativeTarget();
  // RuntimeDyld links the objects, as in MLIR's ExecutionEngine, with its
  // listeners: perf's (functions named in a jitdump, docs/cpu-codegen.md)
  // and gdb's.
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
      llvm::orc::LLJITBuilder()
          .setDataLayout(layout)
          .setObjectLinkingLayerCreator(
              [](llvm::orc::ExecutionSession &session)
                  -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
                auto layer =
                    std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
                        session, [](const llvm::MemoryBuffer &) {
                          return std::make_unique<llvm::SectionMemoryManager>();
                        });
                for (llvm::JITEventListener *listener :
                     {llvm::JITEventListener::createPerfJITEventListener(),
                      llvm::JITEventListener::createGDBRegistrationListener()})
                  if (listener)
                    layer->registerJITEventListener(*listener);
                return layer;
              })
          .create();
  if (!jit)
    return jitError(jit.takeError());
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  // The process's symbols (libc, libm, libomp) and tsir's support symbols.
  llvm::Expected<std::unique_ptr<llvm::orc::DynamicLibrarySearchGenerator>>
      process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          layout.getGlobalPrefix());
  if (!process)
    return jitError(process.takeError());
  main.addGenerator(std::move(*process));
  llvm::orc::MangleAndInterner interner((*jit)->getExecutionSession(), layout);
  llvm::orc::SymbolMap symbols;
  for (auto [name, address] : supportSymbols())
    symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                               llvm::JITSymbolFlags::Exported};
  if (llvm::Error error = main.define(llvm::orc::absoluteSymbols(symbols)))
    return jitError(std::move(error));
  for (size_t i = 0; i < objects.size(); ++i)
    if (llvm::Error error =
            (*jit)->addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(
                llvm::StringRef(objects[i].data(), objects[i].size()),
                "tsir_plan_part" + std::to_string(i))))
      return jitError(std::move(error));
  // Looking the entry up links every partition it reaches.
  llvm::Expected<llvm::orc::ExecutorAddr> address = (*jit)->lookup(entryName);
  if (!address)
    return jitError(address.takeError());
  entry = address->toPtr<tsir_abi_entry>();
  return std::move(*jit);
}
