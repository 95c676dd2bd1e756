/*===- BufferCache.h - Heap buffers for MLIR-compiled code ----------*- C -*-===*
 *
 * Compiled code allocates its intermediate buffers (activations, im2col
 * copies, packed panels) through these functions: MLIR's memref-to-llvm
 * lowering with generic allocation functions calls them under the names
 * `_mlir_memref_to_llvm_alloc` and `_mlir_memref_to_llvm_free`. Plain
 * malloc hands buffers of a few megabytes to mmap, so every call of a
 * ResNet page-faulted and zeroed all of its activations again (a third of
 * its run time). Large freed buffers are kept here instead and handed back
 * to the next allocation of about their size.
 *
 * Every buffer is a malloc block: one the cache returns may be released
 * with free() (outputs handed to a caller are), and the cache only ever
 * holds blocks it was given back.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TSIR_RUNTIME_BUFFERCACHE_H
#define TSIR_RUNTIME_BUFFERCACHE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A buffer of at least `size` bytes, as malloc's (16-byte aligned). */
void *tsirBufferAlloc(size_t size);

/* Gives a buffer back: kept for reuse if large, else freed. */
void tsirBufferFree(void *buffer);

/* Frees every kept buffer. */
void tsirBufferCacheTrim(void);

#ifdef __cplusplus
}
#endif

#endif /* TSIR_RUNTIME_BUFFERCACHE_H */
