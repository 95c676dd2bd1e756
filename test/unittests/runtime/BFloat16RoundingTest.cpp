//===- BFloat16RoundingTest.cpp - Tests of the roundings to bfloat16 ------===//
//
// What compiled code gets for `__truncsfbf2` and `__truncdfbf2` on a CPU
// without AVX512-BF16: ties to even, carries into the exponent and to
// infinity, NaN kept quiet with its sign, and a double rounded once, where
// rounding through a float first would round twice.
//
//===----------------------------------------------------------------------===//

#include "tsir-runtime/BFloat16Rounding.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace {

uint16_t bitsOf(__bf16 value) {
  uint16_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

float floatOfBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

TEST(BFloat16Rounding, FloatTiesGoToEven) {
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: even is 1.
  EXPECT_EQ(bitsOf(tsirRoundF32ToBF16(floatOfBits(0x3f808000))), 0x3f80);
  // 1 + 3 * 2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6: up.
  EXPECT_EQ(bitsOf(tsirRoundF32ToBF16(floatOfBits(0x3f818000))), 0x3f82);
  // Just above and below a tie.
  EXPECT_EQ(bitsOf(tsirRoundF32ToBF16(floatOfBits(0x3f808001))), 0x3f81);
  EXPECT_EQ(bitsOf(tsirRoundF32ToBF16(floatOfBits(0x3f807fff))), 0x3f80);
  EXPECT_EQ(bitsOf(tsirRoundF32ToBF16(-2.5f)), 0xc020);
}

TEST(BFloat16Rounding, FloatCarriesAndOverflows) {
  // The largest float below 2 rounds up to 2.
  EXPECT_EQ(bitsOf(tsirRoundF32ToBF16(floatOfBits(0x3fffffff))), 0x4000);
  // The largest float is past bfloat16's largest: infinity.
  EXPECT_EQ(bitsOf(tsirRoundF32ToBF16(std::numeric_limits<float>::max())),
            0x7f80);
  EXPECT_EQ(bitsOf(tsirRoundF32ToBF16(-INFINITY)), 0xff80);
  EXPECT_EQ(bitsOf(tsirRoundF32ToBF16(-0.0f)), 0x8000);
}

TEST(BFloat16Rounding, NaNStaysQuietWithItsSign) {
  // A signaling NaN whose payload is only in the dropped bits.
  uint16_t bits = bitsOf(tsirRoundF32ToBF16(floatOfBits(0xff800001)));
  EXPECT_EQ(bits & 0xff80, 0xff80);
  EXPECT_NE(bits & 0x0040, 0);
  EXPECT_EQ(tsirBFloat16BitsOf(NAN) & 0x8000, 0);
}

TEST(BFloat16Rounding, DoubleRoundsOnce) {
  // 1 + 2^-8 + 2^-30: just above a bfloat16 tie, so up to 1 + 2^-7. As a
  // float it would be 1 + 2^-8 exactly, a tie that goes down to 1.
  double value = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30);
  EXPECT_EQ(bitsOf(tsirRoundF64ToBF16(value)), 0x3f81);
  EXPECT_EQ(bitsOf(tsirRoundF64ToBF16(-value)), 0xbf81);
  // Exact ties still go to even, and exact values stay.
  EXPECT_EQ(bitsOf(tsirRoundF64ToBF16(1.0 + std::ldexp(1.0, -8))), 0x3f80);
  EXPECT_EQ(bitsOf(tsirRoundF64ToBF16(0.15625)), 0x3e20);
  EXPECT_EQ(bitsOf(tsirRoundF64ToBF16(1e300)), 0x7f80);
  EXPECT_EQ(bitsOf(tsirRoundF64ToBF16(-1e-300)), 0x8000);
  EXPECT_EQ(bitsOf(tsirRoundF64ToBF16(NAN)) & 0x7fc0, 0x7fc0);
}

} // namespace
