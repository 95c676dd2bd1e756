//===- JITPartitionsTest.cpp - Partitions the JIT links in memory ---------===//
//
// The JIT compiles a large module in partitions and links their objects in
// memory with ORC's LLJIT (PartitionedJIT.cpp), which maps each object's
// memory on its own: two partitions may land more than 2 GB apart (they
// did under ASan, and SSDlite's plan failed to link). So a partition must
// reach what another partition defines by a 64-bit address or through a
// GOT or PLT entry the linker builds beside it, never by a 32-bit offset.
// This checks the relocations of the objects the JIT links
// (compileJITPartitions).
//
//===----------------------------------------------------------------------===//

#include "PartitionedJIT.h"
#include "TargetCPU.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

/// Four functions, each taking the address of every function (as an
/// outlined parallel region's address goes to __kmpc_fork_call) and
/// calling the next: whatever the split, partitions refer to each other.
constexpr const char *kModule = R"(
declare void @fork(ptr, ptr, ptr, ptr)
define internal void @f0() {
  call void @fork(ptr @f0, ptr @f1, ptr @f2, ptr @f3)
  call void @f1()
  ret void
}
define internal void @f1() {
  call void @fork(ptr @f0, ptr @f1, ptr @f2, ptr @f3)
  call void @f2()
  ret void
}
define internal void @f2() {
  call void @fork(ptr @f0, ptr @f1, ptr @f2, ptr @f3)
  call void @f3()
  ret void
}
define internal void @f3() {
  call void @fork(ptr @f0, ptr @f1, ptr @f2, ptr @f3)
  ret void
}
define void @entry() {
  call void @f0()
  ret void
}
)";

/// Relocations that reach any address: 64-bit absolute, or through a PLT
/// stub or GOT entry the linker puts in the referring object's memory.
bool reachesAnyAddress(uint64_t type) {
  switch (type) {
  case llvm::ELF::R_X86_64_64:
  case llvm::ELF::R_X86_64_PLT32:
  case llvm::ELF::R_X86_64_GOTPCREL:
  case llvm::ELF::R_X86_64_GOTPCRELX:
  case llvm::ELF::R_X86_64_REX_GOTPCRELX:
  case llvm::ELF::R_X86_64_GOTPC64:
  case llvm::ELF::R_X86_64_GOTOFF64:
  case llvm::ELF::R_X86_64_GOT64:
  case llvm::ELF::R_X86_64_PLTOFF64:
    return true;
  default:
    return false;
  }
}

TEST(JITPartitions, PartitionsReachEachOtherAtAnyDistance) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(kModule, diagnostic, context);
  ASSERT_TRUE(module) << diagnostic.getMessage().str();
  auto machine = tsir::createCpuTargetMachine("host", tsir::CodeModelFor::JIT);
  ASSERT_TRUE(machine.ok()) << machine.status().message();
  module->setDataLayout((*machine)->createDataLayout());
  module->setTargetTriple((*machine)->getTargetTriple());

  auto objects = tsir::compileJITPartitions(std::move(module), 2);
  ASSERT_TRUE(objects.ok()) << objects.status().message();
  ASSERT_EQ(objects->size(), 2u);

  const std::set<std::string> functions = {"f0", "f1", "f2", "f3", "entry"};
  int crossPartition = 0;
  for (const llvm::SmallVector<char, 0> &bytes : *objects) {
    auto object =
        llvm::object::ObjectFile::createObjectFile(llvm::MemoryBufferRef(
            llvm::StringRef(bytes.data(), bytes.size()), "partition"));
    ASSERT_TRUE(bool(object)) << llvm::toString(object.takeError());
    for (const llvm::object::SectionRef &section : (*object)->sections())
      for (const llvm::object::RelocationRef &relocation :
           section.relocations()) {
        llvm::object::symbol_iterator symbol = relocation.getSymbol();
        if (symbol == (*object)->symbol_end())
          continue;
        llvm::Expected<llvm::StringRef> name = symbol->getName();
        ASSERT_TRUE(bool(name)) << llvm::toString(name.takeError());
        llvm::Expected<llvm::object::SymbolRef::Type> kind = symbol->getType();
        ASSERT_TRUE(bool(kind)) << llvm::toString(kind.takeError());
        llvm::Expected<uint32_t> flags = symbol->getFlags();
        ASSERT_TRUE(bool(flags)) << llvm::toString(flags.takeError());
        bool defined = !(*flags & llvm::object::SymbolRef::SF_Undefined);
        if (defined || !functions.count(name->str()))
          continue;
        ++crossPartition;
        llvm::SmallString<32> typeName;
        relocation.getTypeName(typeName);
        EXPECT_TRUE(reachesAnyAddress(relocation.getType()))
            << name->str() << " is reached from another partition by "
            << typeName.str().str() << ", a 32-bit offset";
      }
  }
  // Without a reference between partitions the check above says nothing.
  EXPECT_GT(crossPartition, 0);
}

} // namespace
