/*===- MemrefCopy.h - memref.copy for MLIR-compiled code -----------*- C -*-===*
 *
 * MLIR lowers a memref.copy it cannot inline to a call of `memrefCopy`
 * (CRunnerUtils.h's signature). tsir provides it itself, so compiled code
 * needs no MLIR runner library: the JIT registers tsirMemrefCopy under that
 * name, and every ahead-of-time compiled model links its own copy.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TSIR_RUNTIME_MEMREFCOPY_H
#define TSIR_RUNTIME_MEMREFCOPY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MLIR's unranked memref: the rank and a pointer to the ranked descriptor
 * {allocated, aligned, offset, sizes[rank], strides[rank]}. */
typedef struct tsir_unranked_memref {
  int64_t rank;
  void *descriptor;
} tsir_unranked_memref;

/* Copies `source` into `target`, two memrefs of one shape and any strides,
 * `element_size` bytes per element. */
void tsirMemrefCopy(int64_t element_size, tsir_unranked_memref *source,
                    tsir_unranked_memref *target);

#ifdef __cplusplus
}
#endif

#endif /* TSIR_RUNTIME_MEMREFCOPY_H */
