//===- TargetCPU.cpp - The CPU compiled code is for -----------------------===//
//
// See TargetCPU.h.
//
//===----------------------------------------------------------------------===//

#include "TargetCPU.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include <map>
#include <mutex>

using namespace tsir;

void tsir::initializeNativeTarget() {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
}

rt::StatusOr<std::unique_ptr<llvm::TargetMachine>>
tsir::createCpuTargetMachine(const std::string &targetCpu,
                             CodeModelFor loadedBy) {
  initializeNativeTarget();
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> builder =
      targetCpu == "host" ? llvm::orc::JITTargetMachineBuilder::detectHost()
                          : llvm::Expected<llvm::orc::JITTargetMachineBuilder>(
                                llvm::orc::JITTargetMachineBuilder(llvm::Triple(
                                    llvm::sys::getProcessTriple())));
  if (!builder)
    return rt::Status::error("no target machine: " +
                             llvm::toString(builder.takeError()));
  if (targetCpu != "host")
    builder->setCPU(targetCpu);
  if (loadedBy == CodeModelFor::SharedLibrary) {
    builder->setRelocationModel(llvm::Reloc::PIC_);
    // A shared library's usual code model (what clang -fPIC gives): the
    // JIT's large one puts code and constants into .ltext/.lrodata
    // segments after the writable one, a layout valgrind 3.19 cannot read
    // (it aborts on loading the model).
    builder->setCodeModel(llvm::CodeModel::Small);
  }
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto machine = builder->createTargetMachine();
  if (!machine)
    return rt::Status::error("no target machine for CPU '" + targetCpu +
                             "': " + llvm::toString(machine.takeError()));
  return std::move(*machine);
}

int64_t tsir::vectorLanesF32(const std::string &targetCpu) {
  // Each compile asks; a target machine takes a few milliseconds to make.
  static std::mutex mutex;
  static std::map<std::string, int64_t> known;
  std::lock_guard<std::mutex> lock(mutex);
  auto [entry, inserted] = known.try_emplace(targetCpu, 16);
  if (!inserted)
    return entry->second;
  rt::StatusOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createCpuTargetMachine(targetCpu, CodeModelFor::JIT);
  if (!machine.ok())
    return entry->second;
  // checkFeatures aborts on a feature its target does not know.
  const llvm::MCSubtargetInfo *subtarget = (*machine)->getMCSubtargetInfo();
  if (!(*machine)->getTargetTriple().isX86())
    entry->second = 4;
  else if (subtarget->checkFeatures("+avx512f"))
    entry->second = 16;
  else if (subtarget->checkFeatures("+avx"))
    entry->second = 8;
  else
    entry->second = 4;
  return entry->second;
}
