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
#include <unistd.h>

/* Smaller blocks come from malloc's own bins without page faults. A
 * training step holds every activation the backward reads (ResNet-18 at
 * batch 8: about 240 buffers, 725 MB) and frees them after the backward:
 * the cache keeps up to 1024 blocks and a quarter of the machine's memory
 * (at least 1 GB), or those came back as fresh pages on every step (half
 * of that step's time in the kernel). */
enum { kMinKeptBytes = 64 * 1024, kMaxKeptBlocks = 1024 };
static const size_t kMinKeptTotal = (size_t)1 << 30;

/* A quarter of physical memory, at least kMinKeptTotal. */
static size_t maxKeptTotal(void) {
  static size_t total;
  if (!total) {
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    size_t quarter =
        pages > 0 && pageSize > 0 ? (size_t)pages * (size_t)pageSize / 4 : 0;
    total = quarter > kMinKeptTotal ? quarter : kMinKeptTotal;
  }
  return total;
}

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
    if (keptCount < kMaxKeptBlocks && keptTotal + size <= maxKeptTotal()) {
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
