//===- AbiCallTest.cpp - Tests of tsir's one calling convention -----------===//
//
// tsirAbiCall against hand-written entry points that do what compiled code
// does: the scalar-return rule, the layout of the struct of results (a bool
// after a descriptor), fresh buffers handed over and borrowed ones copied
// (an input returned as it is, one buffer returned twice), a float argument
// given an int, results written back into inputs, a check the code failed
// at run time, and a signature it must refuse. The JIT and every model.so call through it, so these are the
// rules both follow.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/AbiCall.h"
#include "tsir-runtime/BufferCache.h"
#include "tsir-runtime/ModelTable.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

/// A rank-1 memref descriptor, as compiled code lays it out.
struct Descriptor1 {
  void *allocated;
  void *aligned;
  int64_t offset, size, stride;
};

tsir_value scalarInt(int64_t v) {
  tsir_value value{};
  value.kind = TSIR_VALUE_INT;
  value.int_value = v;
  return value;
}

tsir_value floats(std::vector<float> &data) {
  tsir_value value{};
  value.kind = TSIR_VALUE_TENSOR;
  value.dtype = 6; // Float
  value.rank = 1;
  value.data = data.data();
  value.sizes[0] = int64_t(data.size());
  value.strides[0] = 1;
  return value;
}

constexpr tsir_abi_slot floatVector(int64_t source = 0) {
  return {TSIR_VALUE_TENSOR, 6, 1, source};
}

tsir_abi_signature signatureOf(const std::vector<tsir_abi_slot> &arguments,
                               const std::vector<tsir_abi_slot> &results,
                               const std::vector<int64_t> &writeback = {}) {
  return {TSIR_MODEL_DEVICE_CPU,
          int64_t(arguments.size()),
          arguments.data(),
          int64_t(results.size()),
          results.data(),
          int64_t(writeback.size()),
          writeback.data()};
}

/// int(x) * 2, returned by value: a lone scalar result is stored through
/// the last packed pointer, and there is no result struct.
void doubleInt(void **packed) {
  int64_t x = *static_cast<int64_t *>(packed[0]);
  *static_cast<int64_t *>(packed[1]) = 2 * x;
}

TEST(AbiCall, LoneScalarIsReturnedByValue) {
  std::vector<tsir_abi_slot> arguments = {{TSIR_VALUE_INT, 0, 0, 0}};
  std::vector<tsir_abi_slot> results = {{TSIR_VALUE_INT, 0, 0, 0}};
  tsir_abi_signature signature = signatureOf(arguments, results);
  tsir_value input = scalarInt(21), output{};
  char error[256];
  ASSERT_EQ(tsirAbiCall(&signature, doubleInt, &input, nullptr, &output,
                        error, sizeof error),
            1)
      << error;
  EXPECT_EQ(output.kind, TSIR_VALUE_INT);
  EXPECT_EQ(output.int_value, 42);
}

/// x + 1 in a fresh buffer, and whether x[0] > 0: a descriptor and then a
/// bool in the struct of results.
void addOneAndTest(void **packed) {
  char *results = *static_cast<char **>(packed[0]);
  auto *x = *static_cast<Descriptor1 **>(packed[1]);
  float *in = static_cast<float *>(x->aligned) + x->offset;
  auto *out = static_cast<float *>(tsirBufferAlloc(x->size * sizeof(float)));
  for (int64_t i = 0; i < x->size; ++i)
    out[i] = in[i * x->stride] + 1;
  Descriptor1 result = {out, out, 0, x->size, 1};
  std::memcpy(results, &result, sizeof result);
  results[sizeof result] = in[0] > 0;
}

TEST(AbiCall, FreshTensorAndBoolInOneStruct) {
  std::vector<tsir_abi_slot> arguments = {floatVector()};
  std::vector<tsir_abi_slot> results = {floatVector(),
                                        {TSIR_VALUE_BOOL, 11, 0, 0}};
  tsir_abi_signature signature = signatureOf(arguments, results);
  std::vector<float> data = {1, 2, 3};
  tsir_value input = floats(data);
  tsir_value outputs[2];
  char error[256];
  ASSERT_EQ(tsirAbiCall(&signature, addOneAndTest, &input, nullptr, outputs,
                        error, sizeof error),
            2)
      << error;
  ASSERT_EQ(outputs[0].kind, TSIR_VALUE_TENSOR);
  ASSERT_EQ(outputs[0].sizes[0], 3);
  // The fresh buffer is handed over as it is, not copied.
  EXPECT_EQ(outputs[0].allocation, outputs[0].data);
  const float *sum = static_cast<const float *>(outputs[0].data);
  EXPECT_EQ(sum[0], 2);
  EXPECT_EQ(sum[2], 4);
  EXPECT_EQ(outputs[1].kind, TSIR_VALUE_BOOL);
  EXPECT_EQ(outputs[1].int_value, 1);
  tsirBufferFree(outputs[0].allocation);
}

/// Returns its argument twice, as it is.
void identityTwice(void **packed) {
  char *results = *static_cast<char **>(packed[0]);
  auto *x = *static_cast<Descriptor1 **>(packed[1]);
  std::memcpy(results, x, sizeof *x);
  std::memcpy(results + sizeof *x, x, sizeof *x);
}

TEST(AbiCall, BorrowedBuffersAreCopied) {
  std::vector<tsir_abi_slot> arguments = {floatVector()};
  std::vector<tsir_abi_slot> results = {floatVector(), floatVector()};
  tsir_abi_signature signature = signatureOf(arguments, results);
  std::vector<float> data = {5, 6};
  tsir_value input = floats(data);
  tsir_value outputs[2];
  char error[256];
  ASSERT_EQ(tsirAbiCall(&signature, identityTwice, &input, nullptr, outputs,
                        error, sizeof error),
            2)
      << error;
  for (const tsir_value &output : outputs) {
    // The caller owns every output separately: neither is the input's
    // buffer, and the two are not one buffer.
    EXPECT_NE(output.data, data.data());
    ASSERT_NE(output.allocation, nullptr);
    EXPECT_EQ(static_cast<const float *>(output.data)[1], 6);
  }
  EXPECT_NE(outputs[0].allocation, outputs[1].allocation);
  tsirBufferFree(outputs[0].allocation);
  tsirBufferFree(outputs[1].allocation);
}

/// Weight w (f64 scalar s) scaled: reads a float argument.
void scaleWeight(void **packed) {
  char *results = *static_cast<char **>(packed[0]);
  auto *w = *static_cast<Descriptor1 **>(packed[1]);
  double s = *static_cast<double *>(packed[2]);
  auto *out = static_cast<float *>(tsirBufferAlloc(w->size * sizeof(float)));
  for (int64_t i = 0; i < w->size; ++i)
    out[i] = float(static_cast<float *>(w->aligned)[i] * s);
  Descriptor1 result = {out, out, 0, w->size, 1};
  std::memcpy(results, &result, sizeof result);
}

TEST(AbiCall, WeightsAndAFloatGivenAnInt) {
  // Argument 0 is weight 0; argument 1 the caller's input 0, a float slot
  // given an int.
  std::vector<tsir_abi_slot> arguments = {floatVector(-1),
                                          {TSIR_VALUE_FLOAT, 0, 0, 0}};
  std::vector<tsir_abi_slot> results = {floatVector()};
  tsir_abi_signature signature = signatureOf(arguments, results);
  std::vector<float> weightData = {1.5f, -2};
  tsir_value weight = floats(weightData);
  tsir_value input = scalarInt(3), output{};
  char error[256];
  ASSERT_EQ(tsirAbiCall(&signature, scaleWeight, &input, &weight, &output,
                        error, sizeof error),
            1)
      << error;
  const float *scaled = static_cast<const float *>(output.data);
  EXPECT_EQ(scaled[0], 4.5f);
  EXPECT_EQ(scaled[1], -6);
  tsirBufferFree(output.allocation);
}

/// x.add_(1) returning x + 1 as its new value, then x * 0 as an output.
void addInPlace(void **packed) {
  char *results = *static_cast<char **>(packed[0]);
  auto *x = *static_cast<Descriptor1 **>(packed[1]);
  auto *zero = static_cast<float *>(tsirBufferAlloc(x->size * sizeof(float)));
  auto *updated =
      static_cast<float *>(tsirBufferAlloc(x->size * sizeof(float)));
  for (int64_t i = 0; i < x->size; ++i) {
    zero[i] = 0;
    updated[i] = static_cast<float *>(x->aligned)[i] + 1;
  }
  Descriptor1 first = {zero, zero, 0, x->size, 1};
  Descriptor1 second = {updated, updated, 0, x->size, 1};
  std::memcpy(results, &first, sizeof first);
  std::memcpy(results + sizeof first, &second, sizeof second);
}

/// addInPlace's signature: a float vector in, two out, the second written
/// back into the input.
struct InPlaceSignature {
  std::vector<tsir_abi_slot> arguments = {floatVector()};
  std::vector<tsir_abi_slot> results = {floatVector(), floatVector()};
  std::vector<int64_t> writeback = {0};
  tsir_abi_signature get() const {
    return signatureOf(arguments, results, writeback);
  }
};

TEST(AbiCall, TrailingResultsAreWrittenBack) {
  InPlaceSignature inPlace;
  tsir_abi_signature signature = inPlace.get();
  std::vector<float> data = {1, 2};
  tsir_value input = floats(data);
  tsir_value outputs[1];
  char error[256];
  ASSERT_EQ(tsirAbiCall(&signature, addInPlace, &input, nullptr, outputs,
                        error, sizeof error),
            1)
      << error;
  EXPECT_EQ(data, (std::vector<float>{2, 3}));
  EXPECT_EQ(static_cast<const float *>(outputs[0].data)[1], 0);
  tsirBufferFree(outputs[0].allocation);
}

/// addInPlace, failing a run-time check on the way (twice: the first
/// message is the one reported), as compiled code does on an index out of
/// range.
void addInPlaceFailingACheck(void **packed) {
  tsirRaiseError("model.py:3:8: error: index out of range in self");
  addInPlace(packed);
  tsirRaiseError("a later failure");
}

TEST(AbiCall, AFailedCheckFailsTheCallAndWritesNothing) {
  InPlaceSignature inPlace;
  tsir_abi_signature signature = inPlace.get();
  std::vector<float> data = {1, 2};
  tsir_value input = floats(data);
  tsir_value outputs[1] = {};
  char error[256];
  // Told apart from a bad argument: the message is placed already.
  EXPECT_EQ(tsirAbiCall(&signature, addInPlaceFailingACheck, &input, nullptr,
                        outputs, error, sizeof error),
            TSIR_ABI_CHECK_FAILED);
  EXPECT_EQ(std::string(error),
            "model.py:3:8: error: index out of range in self");
  // No input written back, no output handed out (the fresh buffers went
  // back to the cache: the sanitized suite's leak check sees them).
  EXPECT_EQ(data, (std::vector<float>{1, 2}));
  EXPECT_EQ(outputs[0].data, nullptr);
  // The failure belonged to that call: the next one succeeds.
  ASSERT_EQ(tsirAbiCall(&signature, addInPlace, &input, nullptr, outputs,
                        error, sizeof error),
            1)
      << error;
  tsirBufferFree(outputs[0].allocation);
}

void neverCalled(void **) { FAIL() << "a refused signature was called"; }

TEST(AbiCall, RefusesRanksBeyondTheABI) {
  std::vector<tsir_abi_slot> arguments = {
      {TSIR_VALUE_TENSOR, 6, TSIR_MODEL_MAX_RANK + 1, 0}};
  std::vector<tsir_abi_slot> results = {{TSIR_VALUE_INT, 0, 0, 0}};
  tsir_abi_signature signature = signatureOf(arguments, results);
  tsir_value input{}, output{};
  char error[256];
  EXPECT_EQ(tsirAbiCall(&signature, neverCalled, &input, nullptr, &output,
                        error, sizeof error),
            -1);
  EXPECT_NE(std::string(error).find("rank 16 at most"), std::string::npos)
      << error;
}

} // namespace
