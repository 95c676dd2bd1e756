/*===- BFloat16Rounding.c - f32 and f64 to bfloat16 for compiled code -----===*
 *
 * See BFloat16Rounding.h. C with no dependency beyond libc, so that it
 * links into both the runtime and every ahead-of-time compiled model.
 *
 *===----------------------------------------------------------------------===*/

#include "tsir-runtime/BFloat16Rounding.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static __bf16 fromBits(uint16_t bits) {
  __bf16 result;
  memcpy(&result, &bits, sizeof result);
  return result;
}

uint16_t tsirBFloat16BitsOf(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7fffffff) > 0x7f800000)
    return (uint16_t)((bits >> 16) | 0x40); /* NaN, made quiet */
  /* Add half an ulp of the result, plus one if the kept part is odd (ties
   * to even); a carry into the exponent is the right rounding up too,
   * infinity included. */
  uint32_t roundingBias = 0x7fff + ((bits >> 16) & 1);
  return (uint16_t)((bits + roundingBias) >> 16);
}

__bf16 tsirRoundF32ToBF16(float value) {
  return fromBits(tsirBFloat16BitsOf(value));
}

__bf16 tsirRoundF64ToBF16(double value) {
  if (isnan(value))
    return tsirRoundF32ToBF16((float)value);
  /* Round to float toward zero with a sticky last bit ("round to odd"):
   * float keeps 15 more bits than bfloat16, so rounding that to bfloat16
   * is the same as rounding the double once. */
  float narrowed = (float)value;
  if ((double)narrowed != value) {
    if (fabs((double)narrowed) > fabs(value))
      narrowed = nextafterf(narrowed, 0.0f);
    uint32_t bits;
    memcpy(&bits, &narrowed, sizeof bits);
    bits |= 1;
    memcpy(&narrowed, &bits, sizeof bits);
  }
  return tsirRoundF32ToBF16(narrowed);
}
