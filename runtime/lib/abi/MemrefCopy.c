/*===- MemrefCopy.c - memref.copy for MLIR-compiled code ------------------===*
 *
 * See MemrefCopy.h. C, so that it links into both the runtime and every
 * ahead-of-time compiled model (runtime/lib/abi/ModelABI.c), which must not
 * depend on a C++ runtime.
 *
 *===----------------------------------------------------------------------===*/

#include "tsir-runtime/MemrefCopy.h"

#include <stdlib.h>
#include <string.h>

void tsirMemrefCopy(int64_t element_size, tsir_unranked_memref *source,
                    tsir_unranked_memref *target) {
  enum { MaxRank = 64 };
  int64_t rank = source->rank;
  const int64_t *src = (const int64_t *)source->descriptor;
  const int64_t *dst = (const int64_t *)target->descriptor;
  const char *srcData = (const char *)(intptr_t)src[1];
  char *dstData = (char *)(intptr_t)dst[1];
  const int64_t *sizes = src + 3, *srcStrides = src + 3 + rank,
                *dstStrides = dst + 3 + rank;
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    count *= sizes[d];
  if (count == 0)
    return;
  /* The innermost dims that are one dense run in both memrefs move with
   * one memcpy per run: a copy into a padded buffer (a convolution's
   * padding) is one memcpy per row, a dense copy one memcpy in all. */
  int64_t inner = rank, run = 1;
  while (inner > 0 && srcStrides[inner - 1] == run &&
         dstStrides[inner - 1] == run) {
    --inner;
    run *= sizes[inner];
  }
  size_t runBytes = (size_t)(run * element_size);
  int64_t runs = count / run;
  int64_t small[MaxRank] = {0};
  int64_t *index = rank <= MaxRank ? small : calloc((size_t)rank, sizeof *index);
  if (!index)
    abort(); /* out of memory for a rank above 64: nothing sane to return */
  int64_t srcOffset = src[2], dstOffset = dst[2];
  for (int64_t n = 0; n < runs; ++n) {
    memcpy(dstData + dstOffset * element_size,
           srcData + srcOffset * element_size, runBytes);
    /* Advance the index of the outer dims like an odometer, keeping both
     * offsets in step. */
    for (int64_t d = inner - 1; d >= 0; --d) {
      if (++index[d] < sizes[d]) {
        srcOffset += srcStrides[d];
        dstOffset += dstStrides[d];
        break;
      }
      srcOffset -= srcStrides[d] * (sizes[d] - 1);
      dstOffset -= dstStrides[d] * (sizes[d] - 1);
      index[d] = 0;
    }
  }
  if (index != small)
    free(index);
}
