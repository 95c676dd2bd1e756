/*===- BufferCache.c - Heap buffers for MLIR-compiled code ------------------===*
 *
 * See BufferCache.h. A small table of kept blocks under one mutex: compiled
 * code allocates a few dozen large buffers per call, from several threads
 * when its loops run in parallel. An allocation takes the smallest kept
 * block that holds it without wasting more than its own size; a graph run
 * again with the same shapes gets its own buffers back exactly.
 *
 *===----------------------------------------------------------------------===*/

#include "tsir-runtime/BufferCache.h"

#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>

/* Smaller blocks come from malloc's own bins without page faults. */
enum { kMinKeptBytes = 64 * 1024, kMaxKeptBlocks = 128 };
static const size_t kMaxKeptTotal = (size_t)1 << 30;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *keptBlocks[kMaxKeptBlocks];
static size_t keptSizes[kMaxKeptBlocks];
static int keptCount;
static size_t keptTotal;

void *tsirBufferAlloc(size_t size) {
  if (size >= kMinKeptBytes) {
    pthread_mutex_lock(&lock);
    int best = -1;
    for (int i = 0; i < keptCount; ++i)
      if (keptSizes[i] >= size && keptSizes[i] - size <= size &&
          (best < 0 || keptSizes[i] < keptSizes[best]))
        best = i;
    if (best >= 0) {
      void *block = keptBlocks[best];
      keptTotal -= keptSizes[best];
      --keptCount;
      keptBlocks[best] = keptBlocks[keptCount];
      keptSizes[best] = keptSizes[keptCount];
      pthread_mutex_unlock(&lock);
      return block;
    }
    pthread_mutex_unlock(&lock);
  }
  return malloc(size);
}

void tsirBufferFree(void *buffer) {
  if (!buffer)
    return;
  size_t size = malloc_usable_size(buffer);
  if (size >= kMinKeptBytes) {
    pthread_mutex_lock(&lock);
    if (keptCount < kMaxKeptBlocks && keptTotal + size <= kMaxKeptTotal) {
      keptBlocks[keptCount] = buffer;
      keptSizes[keptCount] = size;
      ++keptCount;
      keptTotal += size;
      buffer = NULL;
    }
    pthread_mutex_unlock(&lock);
  }
  free(buffer);
}

void tsirBufferCacheTrim(void) {
  pthread_mutex_lock(&lock);
  for (int i = 0; i < keptCount; ++i)
    free(keptBlocks[i]);
  keptCount = 0;
  keptTotal = 0;
  pthread_mutex_unlock(&lock);
}
