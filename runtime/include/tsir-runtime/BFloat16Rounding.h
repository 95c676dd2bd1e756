/*===- BFloat16Rounding.h - Rounding to bfloat16 for compiled code -*- C -*-===*
 *
 * LLVM rounds a float or double to bfloat16 with one instruction where the
 * CPU has one (AVX512-BF16) and otherwise calls the compiler runtime's
 * `__truncsfbf2` / `__truncdfbf2`. Neither the JIT's process nor libgcc
 * before GCC 13 has them, so tsir provides both: the JIT registers these
 * functions under those names (lib/compiler/SupportSymbols.cpp), and every
 * ahead-of-time compiled model links its own copy (ModelABI.c).
 *
 *===----------------------------------------------------------------------===*/

#ifndef TSIR_RUNTIME_BFLOAT16ROUNDING_H
#define TSIR_RUNTIME_BFLOAT16ROUNDING_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The bits of `value` rounded to the nearest bfloat16, ties to even
 * (torch's rounding); NaN stays NaN, its sign kept. Integer arithmetic, so
 * it rounds the same on every host (the runtime's DType conversions). */
uint16_t tsirBFloat16BitsOf(float value);

/* The same as a __bf16, so that the result comes back in xmm0, as the
 * compiler runtime's does. */
__bf16 tsirRoundF32ToBF16(float value);

/* The same from a double, rounded once (not through a float, which could
 * round twice). */
__bf16 tsirRoundF64ToBF16(double value);

#ifdef __cplusplus
}
#endif

#endif /* TSIR_RUNTIME_BFLOAT16ROUNDING_H */
