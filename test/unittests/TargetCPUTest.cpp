//===- TargetCPUTest.cpp - Tests of the target CPU's vector width ---------===//
//
// The vector width the CPU kernels are tiled for follows the CPU: 16 f32
// lanes where it has AVX-512, 8 with AVX2, 4 with SSE only; "host" is what
// this machine's CPU exposes (a virtual machine may hide AVX-512), and a
// name LLVM does not know is the baseline x86-64 it then compiles for.
//
//===----------------------------------------------------------------------===//

#include "TargetCPU.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

#include <gtest/gtest.h>

namespace {

TEST(TargetCPU, LanesFollowTheNamedCPU) {
  EXPECT_EQ(tsir::vectorLanesF32("skylake-avx512"), 16);
  EXPECT_EQ(tsir::vectorLanesF32("x86-64-v4"), 16);
  EXPECT_EQ(tsir::vectorLanesF32("znver3"), 8);
  EXPECT_EQ(tsir::vectorLanesF32("x86-64-v3"), 8);
  EXPECT_EQ(tsir::vectorLanesF32("x86-64"), 4);
}

TEST(TargetCPU, HostLanesAreWhatTheHostExposes) {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  int64_t expected = features.lookup("avx512f") ? 16
                     : features.lookup("avx")   ? 8
                                                : 4;
  EXPECT_EQ(tsir::vectorLanesF32("host"), expected);
}

TEST(TargetCPU, UnknownCPUIsTheBaseline) {
  EXPECT_EQ(tsir::vectorLanesF32("no-such-cpu"), 4);
}

TEST(TargetCPU, SharedLibraryMachineIsPositionIndependent) {
  auto machine = tsir::createCpuTargetMachine(
      "x86-64-v3", tsir::CodeModelFor::SharedLibrary);
  ASSERT_TRUE(machine.ok()) << machine.status().message();
  EXPECT_TRUE((*machine)->isPositionIndependent());
  EXPECT_EQ((*machine)->getTargetCPU(), "x86-64-v3");
}

} // namespace
