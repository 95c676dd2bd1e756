/*===- AbiCall.c - The one way to call a compiled graph -------------------===*
 *
 * See AbiCall.h. Linked into tsir's runtime (for the JIT) and into every
 * model.so (for ModelABI.c).
 *
 *===----------------------------------------------------------------------===*/

#include "tsir-runtime/AbiCall.h"
#include "tsir-runtime/BufferCache.h"
#include "tsir-runtime/MemrefCopy.h"
#include "tsir-runtime/ModelTable.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first failure of the CUDA entry points the kernels' host code calls
 * (tsir's runtime records it instead of aborting). Weak: a CPU model needs
 * no runtime at all. */
extern const char *tsirCudaTakeError(void) __attribute__((weak));

/* The first check the compiled code failed during the current call on this
 * thread (see tsirRaiseError), or null. */
static _Thread_local const char *raisedError;

void tsirRaiseError(const char *message) {
  if (!raisedError)
    raisedError = message;
}

typedef struct Error {
  char *text;
  size_t size;
} Error;

static int64_t fail(const Error *error, const char *format, ...) {
  if (error->size) {
    va_list args;
    va_start(args, format);
    vsnprintf(error->text, error->size, format, args);
    va_end(args);
  }
  return -1;
}

int64_t tsirAbiDtypeSize(int64_t dtype) {
  switch (dtype) {
  case 0: case 1: case 11: return 1; /* Byte, Char, Bool */
  case 2: case 5: case 15: return 2; /* Short, Half, BFloat16 */
  case 3: case 6: return 4;          /* Int, Float */
  case 4: case 7: return 8;          /* Long, Double */
  default: return 0;
  }
}

static int64_t numElements(int64_t rank, const int64_t *sizes) {
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    count *= sizes[d];
  return count;
}

/* A descriptor {allocated, aligned, offset, sizes, strides} of the
 * contiguous tensor at `data`, in (3 + 2 * rank) words at `words`. */
static void fillDescriptor(int64_t *words, const void *data, int64_t rank,
                           const int64_t *sizes) {
  words[0] = (int64_t)(intptr_t)data;
  words[1] = (int64_t)(intptr_t)data;
  words[2] = 0;
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    words[3 + d] = sizes[d];
    words[3 + rank + d] = stride;
    stride *= sizes[d];
  }
}

/* Size of a result inside the C struct of results (its alignment is 8,
 * or 1 for a bool). */
static int64_t resultSize(const tsir_abi_slot *slot) {
  switch (slot->kind) {
  case TSIR_VALUE_TENSOR: return (3 + 2 * slot->rank) * 8;
  case TSIR_VALUE_BOOL: return 1;
  default: return 8;
  }
}

/* A contiguous copy of the memref described by `words` into `target`. */
static void copyToContiguous(const int64_t *words, int64_t rank,
                             int64_t elementSize, void *target) {
  int64_t targetWords[3 + 2 * TSIR_MODEL_MAX_RANK];
  fillDescriptor(targetWords, target, rank, words + 3);
  tsir_unranked_memref source = {rank, (void *)(intptr_t)words};
  tsir_unranked_memref destination = {rank, targetWords};
  tsirMemrefCopy(elementSize, &source, &destination);
}

/* Turns the compiled code's result `slot` at `at` into `out`. A result
 * that is not a fresh buffer of its own (an input or weight returned as
 * it is, a constant global, whose "allocated" pointer MLIR sets to
 * 0xdeadbeef, a buffer an earlier result took) is copied: the caller owns
 * each output separately. */
static int64_t takeResult(const tsir_abi_slot *slot, const char *at,
                          tsir_value *out, const void *const *borrowed,
                          int64_t numBorrowed, void *const *taken,
                          int64_t numTaken, const Error *error) {
  memset(out, 0, sizeof *out);
  out->kind = (int32_t)slot->kind;
  switch (slot->kind) {
  case TSIR_VALUE_INT:
    memcpy(&out->int_value, at, 8);
    return 0;
  case TSIR_VALUE_FLOAT:
    memcpy(&out->float_value, at, 8);
    return 0;
  case TSIR_VALUE_BOOL:
    out->int_value = *at & 1;
    return 0;
  default:
    break;
  }
  int64_t words[3 + 2 * TSIR_MODEL_MAX_RANK];
  memcpy(words, at, (size_t)resultSize(slot));
  int64_t rank = slot->rank, elementSize = tsirAbiDtypeSize(slot->dtype);
  out->dtype = (int32_t)slot->dtype;
  out->rank = (int32_t)rank;
  for (int64_t d = 0; d < rank; ++d)
    out->sizes[d] = words[3 + d];
  void *allocated = (void *)(intptr_t)words[0];
  char *aligned = (char *)(intptr_t)words[1];
  int fresh = allocated != NULL && allocated != (void *)(intptr_t)0xdeadbeef;
  for (int64_t i = 0; fresh && i < numBorrowed; ++i)
    fresh = borrowed[i] != allocated;
  for (int64_t i = 0; fresh && i < numTaken; ++i)
    fresh = taken[i] != allocated;
  if (fresh) {
    out->data = aligned + words[2] * elementSize;
    out->allocation = allocated;
    for (int64_t d = 0; d < rank; ++d)
      out->strides[d] = words[3 + rank + d];
    return 0;
  }
  int64_t count = numElements(rank, out->sizes);
  void *copy = tsirBufferAlloc((size_t)(count * elementSize) + 1);
  if (!copy)
    return fail(error, "out of memory copying an output of %lld bytes",
                (long long)(count * elementSize));
  copyToContiguous(words, rank, elementSize, copy);
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    out->strides[d] = stride;
    stride *= out->sizes[d];
  }
  out->data = copy;
  out->allocation = copy;
  return 0;
}

/* Everything one call allocates, freed together. */
typedef struct CallState {
  int64_t *descriptors;
  int64_t *scalars;
  void **pointers;
  void **packed;
  const void **borrowed;
  int64_t *offsets;
  char *results;
  tsir_value *values;
  void **taken;
} CallState;

static void release(CallState *state) {
  free(state->descriptors);
  free(state->scalars);
  free(state->pointers);
  free(state->packed);
  free(state->borrowed);
  free(state->offsets);
  free(state->results);
  free(state->values);
  free(state->taken);
}

static int64_t checkSlots(const tsir_abi_signature *s, const Error *error) {
  for (int64_t i = 0; i < s->num_arguments + s->num_results; ++i) {
    const tsir_abi_slot *slot = i < s->num_arguments
                                    ? &s->arguments[i]
                                    : &s->results[i - s->num_arguments];
    if (slot->kind == TSIR_VALUE_TENSOR &&
        (slot->rank < 0 || slot->rank > TSIR_MODEL_MAX_RANK ||
         !tsirAbiDtypeSize(slot->dtype)))
      return fail(error, "compiled code takes and returns tensors of rank "
                         "%d at most, of a known dtype",
                  TSIR_MODEL_MAX_RANK);
  }
  if (s->num_writeback > s->num_results)
    return fail(error, "the compiled signature is damaged");
  return 0;
}

static int64_t call(const tsir_abi_signature *s, tsir_abi_entry entry,
                    const tsir_value *inputs, const tsir_value *weights,
                    tsir_value *outputs, CallState *state,
                    const Error *error) {
  if (checkSlots(s, error) != 0)
    return -1;

  /* Arguments: a descriptor per tensor, a word per scalar. */
  int64_t descriptorWords = 0;
  for (int64_t i = 0; i < s->num_arguments; ++i)
    descriptorWords += 3 + 2 * s->arguments[i].rank;
  state->descriptors = calloc((size_t)descriptorWords + 1, 8);
  state->scalars = calloc((size_t)s->num_arguments + 1, 8);
  state->pointers = calloc((size_t)s->num_arguments + 1, sizeof(void *));
  state->packed = calloc((size_t)s->num_arguments + 2, sizeof(void *));
  state->borrowed = calloc((size_t)s->num_arguments + 1, sizeof(void *));
  state->offsets = calloc((size_t)s->num_results + 1, 8);
  if (!state->descriptors || !state->scalars || !state->pointers ||
      !state->packed || !state->borrowed || !state->offsets)
    return fail(error, "out of memory");
  int64_t numBorrowed = 0, nextWord = 0;
  for (int64_t i = 0; i < s->num_arguments; ++i) {
    const tsir_abi_slot *slot = &s->arguments[i];
    const tsir_value *value =
        slot->source >= 0 ? &inputs[slot->source] : &weights[-1 - slot->source];
    if (slot->kind != TSIR_VALUE_TENSOR) {
      int64_t *word = &state->scalars[i];
      if (slot->kind == TSIR_VALUE_FLOAT) {
        double d = value->kind == TSIR_VALUE_INT ? (double)value->int_value
                                                 : value->float_value;
        memcpy(word, &d, sizeof d);
      } else if (slot->kind == TSIR_VALUE_BOOL) {
        unsigned char b = value->int_value != 0;
        memcpy(word, &b, 1);
      } else {
        *word = value->int_value;
      }
      state->pointers[i] = word;
      continue;
    }
    int64_t *words = state->descriptors + nextWord;
    nextWord += 3 + 2 * slot->rank;
    fillDescriptor(words, value->data, slot->rank, value->sizes);
    state->borrowed[numBorrowed++] = value->data;
    /* The packed convention passes a pointer to the descriptor pointer. */
    state->pointers[i] = words;
  }

  /* Results: one struct (a lone memref is a struct too), or one scalar. */
  int scalarReturn = s->num_results == 1 &&
                     s->results[0].kind != TSIR_VALUE_TENSOR;
  int64_t structSize = 0;
  for (int64_t i = 0; i < s->num_results; ++i) {
    int64_t size = resultSize(&s->results[i]);
    int64_t align = size >= 8 ? 8 : 1;
    structSize = (structSize + align - 1) / align * align;
    state->offsets[i] = structSize;
    structSize += size;
  }
  state->results = calloc((size_t)structSize + 16, 1);
  if (!state->results)
    return fail(error, "out of memory");
  void *resultPointer = state->results;
  int64_t next = 0;
  if (s->num_results && !scalarReturn)
    state->packed[next++] = &resultPointer;
  for (int64_t i = 0; i < s->num_arguments; ++i)
    state->packed[next++] = s->arguments[i].kind == TSIR_VALUE_TENSOR
                                ? (void *)&state->pointers[i]
                                : state->pointers[i];
  if (scalarReturn)
    state->packed[next++] = state->results;

  raisedError = NULL;
  entry(state->packed);
  const char *raised = raisedError;
  raisedError = NULL;

  if (s->device == TSIR_MODEL_DEVICE_CUDA) {
    if (!tsirCudaTakeError)
      return fail(error, "a CUDA model needs tsir's runtime "
                         "(libTsirRuntime.so) in the process");
    const char *cudaError = tsirCudaTakeError();
    if (cudaError && *cudaError)
      return fail(error, "running the model on the GPU failed: %s",
                  cudaError);
  }

  /* Hand the results out; the trailing ones are written into inputs. */
  int64_t numOutputs = s->num_results - s->num_writeback;
  state->values = calloc((size_t)s->num_results + 1, sizeof(tsir_value));
  state->taken = calloc((size_t)s->num_results + 1, sizeof(void *));
  if (!state->values || !state->taken)
    return fail(error, "out of memory");
  int64_t numTaken = 0, status = 0;
  for (int64_t i = 0; i < s->num_results && status == 0; ++i) {
    const char *at = state->results + (scalarReturn ? 0 : state->offsets[i]);
    status = takeResult(&s->results[i], at, &state->values[i],
                        state->borrowed, numBorrowed, state->taken, numTaken,
                        error);
    if (status == 0 && state->values[i].allocation)
      state->taken[numTaken++] = state->values[i].allocation;
  }
  /* A failed check: torch would have raised, so nothing is handed out and
   * no input is written. */
  if (status == 0 && raised) {
    fail(error, "%s", raised);
    status = TSIR_ABI_CHECK_FAILED;
  }
  for (int64_t i = 0; i < s->num_writeback && status == 0; ++i) {
    tsir_value *written = &state->values[numOutputs + i];
    /* An input, or a weight as an argument slot names it (-1 - index). */
    const tsir_value *target = s->writeback[i] >= 0
                                   ? &inputs[s->writeback[i]]
                                   : &weights[-1 - s->writeback[i]];
    int64_t words[3 + 2 * TSIR_MODEL_MAX_RANK];
    words[0] = words[1] = (int64_t)(intptr_t)written->data;
    words[2] = 0;
    for (int64_t d = 0; d < written->rank; ++d) {
      words[3 + d] = written->sizes[d];
      words[3 + written->rank + d] = written->strides[d];
    }
    copyToContiguous(words, written->rank, tsirAbiDtypeSize(written->dtype),
                     target->data);
  }
  if (status != 0) {
    for (int64_t i = 0; i < s->num_results; ++i)
      tsirBufferFree(state->values[i].allocation);
    return status;
  }
  for (int64_t i = 0; i < s->num_writeback; ++i)
    tsirBufferFree(state->values[numOutputs + i].allocation);
  if (numOutputs)
    memcpy(outputs, state->values, (size_t)numOutputs * sizeof(tsir_value));
  return numOutputs;
}

int64_t tsirAbiCall(const tsir_abi_signature *signature, tsir_abi_entry entry,
                    const tsir_value *inputs, const tsir_value *weights,
                    tsir_value *outputs, char *error, size_t error_size) {
  Error sink = {error, error_size};
  if (error_size)
    error[0] = '\0';
  CallState state;
  memset(&state, 0, sizeof state);
  int64_t result =
      call(signature, entry, inputs, weights, outputs, &state, &sink);
  release(&state);
  return result;
}
