//===- SavedPlanTest.cpp - Tests of a saved plan's bytes ------------------===//
//
// A saved plan (SavedPlan.h) reads back as written, and bytes that are not
// one whole (every prefix, a flipped bit anywhere, bytes added) are an
// error: the plan cache then compiles, and never links a broken object.
//
//===----------------------------------------------------------------------===//

#include "SavedPlan.h"

#include <gtest/gtest.h>

namespace {

using namespace tsir;

SavedPlan example() {
  SavedPlan plan;
  plan.signature.device = 0;
  plan.signature.arguments = {{1, 6, 2, 0}, {1, 6, 1, -1}};
  plan.signature.results = {{1, 6, 2, 0}};
  plan.signature.weightNames = {"fc.weight"};
  plan.signature.writeback = {-1};
  plan.dataLayout = "e-m:e-i64:64-n8:16:32:64-S128";
  plan.threaded = true;
  plan.objects.emplace_back();
  for (char c : std::string("\x7f"
                            "ELF and some code"))
    plan.objects.back().push_back(c);
  plan.objects.emplace_back(3, 'x');
  return plan;
}

TEST(SavedPlan, ReadsBackAsWritten) {
  SavedPlan plan = example();
  rt::StatusOr<SavedPlan> read = readSavedPlan(writeSavedPlan(plan));
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->signature.arguments.size(), 2u);
  EXPECT_EQ(read->signature.arguments[1].source, -1);
  EXPECT_EQ(read->signature.results[0].rank, 2);
  EXPECT_EQ(read->signature.weightNames, plan.signature.weightNames);
  EXPECT_EQ(read->signature.writeback, plan.signature.writeback);
  EXPECT_EQ(read->dataLayout, plan.dataLayout);
  EXPECT_TRUE(read->threaded);
  ASSERT_EQ(read->objects.size(), 2u);
  EXPECT_EQ(read->objects[0], plan.objects[0]);
  EXPECT_EQ(read->objects[1], plan.objects[1]);
}

TEST(SavedPlan, EveryPrefixIsAnError) {
  std::string bytes = writeSavedPlan(example());
  for (size_t size = 0; size < bytes.size(); ++size)
    EXPECT_FALSE(readSavedPlan(llvm::StringRef(bytes).take_front(size)).ok())
        << size;
}

TEST(SavedPlan, AnyFlippedBitOrExtraByteIsAnError) {
  std::string bytes = writeSavedPlan(example());
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string changed = bytes;
    changed[i] ^= 0x01;
    EXPECT_FALSE(readSavedPlan(changed).ok()) << i;
  }
  EXPECT_FALSE(readSavedPlan(bytes + "x").ok());
}

} // namespace
