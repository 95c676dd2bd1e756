/*===- ModelABI.c - tsir_model.h on top of a compiled graph ---------------===*
 *
 * Linked into every model.so that tsir-compile writes, beside the graph's
 * object file, whose tsir_model_table (ModelTable.h) says what the compiled
 * function takes and returns. It checks the caller's inputs against the
 * compiled spec, so a wrong count, kind, dtype or shape is an error naming
 * the input and never reaches compiled code; builds MLIR's memref
 * descriptors; calls the graph through its packed entry point; and hands
 * the results out as buffers the caller owns. C, with no dependency beyond
 * libc, so a model runs in any program.
 *
 *===----------------------------------------------------------------------===*/

#include "tsir-runtime/BufferCache.h"
#include "tsir-runtime/MemrefCopy.h"
#include "tsir-runtime/ModelTable.h"
#include "tsir-runtime/tsir_model.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

extern const int64_t tsir_model_table[];
extern const char tsir_model_signature_json[];
extern const char tsir_model_weight_names[];
extern const unsigned char tsir_model_weights_data[];
extern void tsir_model_entry(void **packed);

/* The first failure of the CUDA entry points the kernels' host code calls
 * (tsir's runtime records it instead of aborting). Weak: a CPU model needs
 * no runtime at all. */
extern const char *tsirCudaTakeError(void) __attribute__((weak));

/* MLIR's lowering of memref.copy calls this name. */
void memrefCopy(int64_t element_size, tsir_unranked_memref *source,
                tsir_unranked_memref *target) {
  tsirMemrefCopy(element_size, source, target);
}

/* MLIR's memref-to-llvm lowering with generic allocation functions calls
 * these names for memref.alloc and memref.dealloc. */
void *_mlir_memref_to_llvm_alloc(size_t size) { return tsirBufferAlloc(size); }
void _mlir_memref_to_llvm_free(void *buffer) { tsirBufferFree(buffer); }

/*===-- Errors -------------------------------------------------------------===*/

static _Thread_local char lastError[1024];

static int64_t fail(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(lastError, sizeof lastError, format, args);
  va_end(args);
  return -1;
}

EXPORT const char *tsir_model_error(void) { return lastError; }

/*===-- The table ----------------------------------------------------------===*/

typedef struct Slot {
  int64_t kind, dtype, rank;
  const int64_t *sizes; /* inputs and weights */
  int64_t source;       /* arguments */
  int64_t offset, bytes; /* weights */
} Slot;

typedef struct Table {
  int64_t device; /* TSIR_MODEL_DEVICE_CPU or _CUDA */
  int64_t numInputs, numArguments, numResults, numWeights, numWriteback;
  Slot *inputs, *arguments, *results, *weights;
  const int64_t *writeback;
  const char **weightNames;
  const void **boundWeights; /* weights bound at run time */
} Table;

static Table table;
static int tableValid;
static pthread_once_t tableOnce = PTHREAD_ONCE_INIT;
static pthread_mutex_t bindMutex = PTHREAD_MUTEX_INITIALIZER;

static void readTable(void) {
  const int64_t *word = tsir_model_table;
  if (word[0] != TSIR_MODEL_TABLE_MAGIC)
    return;
  table.device = word[TSIR_MODEL_TABLE_DEVICE];
  table.numInputs = word[TSIR_MODEL_TABLE_INPUTS];
  table.numArguments = word[TSIR_MODEL_TABLE_ARGUMENTS];
  table.numResults = word[TSIR_MODEL_TABLE_RESULTS];
  table.numWeights = word[TSIR_MODEL_TABLE_WEIGHTS];
  table.numWriteback = word[TSIR_MODEL_TABLE_WRITEBACK];
  word += TSIR_MODEL_TABLE_HEADER_WORDS;
  /* One allocation per array, kept for the life of the process. */
  table.inputs = calloc((size_t)table.numInputs + 1, sizeof(Slot));
  table.arguments = calloc((size_t)table.numArguments + 1, sizeof(Slot));
  table.results = calloc((size_t)table.numResults + 1, sizeof(Slot));
  table.weights = calloc((size_t)table.numWeights + 1, sizeof(Slot));
  table.weightNames = calloc((size_t)table.numWeights + 1, sizeof(char *));
  table.boundWeights = calloc((size_t)table.numWeights + 1, sizeof(void *));
  if (!table.inputs || !table.arguments || !table.results || !table.weights ||
      !table.weightNames || !table.boundWeights)
    return;
  for (int64_t i = 0; i < table.numInputs; ++i) {
    Slot *slot = &table.inputs[i];
    slot->kind = *word++;
    slot->dtype = *word++;
    slot->rank = *word++;
    slot->sizes = word;
    word += slot->rank;
  }
  for (int64_t i = 0; i < table.numArguments; ++i) {
    Slot *slot = &table.arguments[i];
    slot->kind = *word++;
    slot->dtype = *word++;
    slot->rank = *word++;
    slot->source = *word++;
  }
  for (int64_t i = 0; i < table.numResults; ++i) {
    Slot *slot = &table.results[i];
    slot->kind = *word++;
    slot->dtype = *word++;
    slot->rank = *word++;
  }
  const char *name = tsir_model_weight_names;
  for (int64_t i = 0; i < table.numWeights; ++i) {
    Slot *slot = &table.weights[i];
    slot->offset = *word++;
    slot->bytes = *word++;
    slot->rank = *word++;
    slot->sizes = word;
    word += slot->rank;
    table.weightNames[i] = name;
    name += strlen(name) + 1;
  }
  table.writeback = word;
  tableValid = 1;
}

/* Gives the table's arrays back when the model is unloaded (dlclose), so
 * loading and unloading models leaks nothing. */
__attribute__((destructor)) static void releaseTable(void) {
  free(table.inputs);
  free(table.arguments);
  free(table.results);
  free(table.weights);
  free((void *)table.weightNames);
  free((void *)table.boundWeights);
  memset(&table, 0, sizeof table);
  tableValid = 0;
  /* The model's own buffer cache goes with it: its kept blocks would
   * otherwise leak when the model is unloaded. */
  tsirBufferCacheTrim();
}

static const Table *getTable(void) {
  pthread_once(&tableOnce, readTable);
  return tableValid ? &table : NULL;
}

/*===-- Dtypes -------------------------------------------------------------===*/

/* Bytes per element of torch's ScalarType `dtype`, 0 for an unknown one. */
static int64_t dtypeSize(int64_t dtype) {
  switch (dtype) {
  case 0: case 1: case 11: return 1; /* Byte, Char, Bool */
  case 2: case 5: case 15: return 2; /* Short, Half, BFloat16 */
  case 3: case 6: return 4;          /* Int, Float */
  case 4: case 7: return 8;          /* Long, Double */
  default: return 0;
  }
}

static const char *dtypeName(int64_t dtype) {
  switch (dtype) {
  case 0: return "Byte";
  case 1: return "Char";
  case 2: return "Short";
  case 3: return "Int";
  case 4: return "Long";
  case 5: return "Half";
  case 6: return "Float";
  case 7: return "Double";
  case 11: return "Bool";
  case 15: return "BFloat16";
  default: return "an unknown dtype";
  }
}

static const char *kindName(int64_t kind) {
  switch (kind) {
  case TSIR_VALUE_TENSOR: return "a tensor";
  case TSIR_VALUE_INT: return "an int";
  case TSIR_VALUE_FLOAT: return "a float";
  case TSIR_VALUE_BOOL: return "a bool";
  default: return "an unknown kind of value";
  }
}

/* `Float(2, 3)` for messages; -1 sizes print as `*`. */
static void describeTensor(char *out, size_t room, int64_t dtype, int64_t rank,
                           const int64_t *sizes) {
  size_t used = (size_t)snprintf(out, room, "%s(", dtypeName(dtype));
  for (int64_t d = 0; d < rank && used < room; ++d) {
    if (sizes[d] < 0)
      used += (size_t)snprintf(out + used, room - used, "%s*", d ? ", " : "");
    else
      used += (size_t)snprintf(out + used, room - used, "%s%lld",
                               d ? ", " : "", (long long)sizes[d]);
  }
  if (used < room)
    snprintf(out + used, room - used, ")");
}

/*===-- Public queries -----------------------------------------------------===*/

EXPORT uint32_t tsir_model_abi_version(void) { return TSIR_MODEL_ABI_VERSION; }

EXPORT const char *tsir_model_signature(void) {
  return tsir_model_signature_json;
}

EXPORT int64_t tsir_model_num_inputs(void) {
  const Table *t = getTable();
  return t ? t->numInputs : -1;
}

EXPORT int64_t tsir_model_num_outputs(void) {
  const Table *t = getTable();
  return t ? t->numResults - t->numWriteback : -1;
}

EXPORT int tsir_model_bind_weight(const char *name, const void *data,
                                  uint64_t nbytes) {
  const Table *t = getTable();
  if (!t)
    return (int)fail("the model's table is damaged");
  if (!name)
    return (int)fail("tsir_model_bind_weight: no name given");
  for (int64_t i = 0; i < t->numWeights; ++i) {
    if (strcmp(t->weightNames[i], name) != 0)
      continue;
    if ((int64_t)nbytes != t->weights[i].bytes)
      return (int)fail("weight '%s' has %lld bytes, the model was compiled "
                       "for %lld",
                       name, (long long)nbytes, (long long)t->weights[i].bytes);
    if (!data && nbytes)
      return (int)fail("weight '%s': no data given", name);
    pthread_mutex_lock(&bindMutex);
    t->boundWeights[i] = data;
    pthread_mutex_unlock(&bindMutex);
    return 0;
  }
  return (int)fail("the model has no weight named '%s'", name);
}

EXPORT void tsir_model_free(tsir_value *output) {
  if (!output)
    return;
  tsirBufferFree(output->allocation);
  output->allocation = NULL;
}

/*===-- Running ------------------------------------------------------------===*/

static int64_t numElements(int64_t rank, const int64_t *sizes) {
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    count *= sizes[d];
  return count;
}

static int64_t checkInput(const Slot *slot, const tsir_value *value,
                          int64_t index) {
  if (value->kind != slot->kind &&
      !(slot->kind == TSIR_VALUE_FLOAT && value->kind == TSIR_VALUE_INT))
    return fail("input %lld must be %s, got %s", (long long)index,
                kindName(slot->kind), kindName(value->kind));
  if (slot->kind != TSIR_VALUE_TENSOR)
    return 0;
  char want[256], got[256];
  describeTensor(want, sizeof want, slot->dtype, slot->rank, slot->sizes);
  int badRank = value->rank != slot->rank || value->rank < 0 ||
                value->rank > TSIR_MODEL_MAX_RANK;
  int badSizes = badRank || value->dtype != slot->dtype;
  for (int64_t d = 0; !badSizes && d < slot->rank; ++d)
    badSizes = value->sizes[d] < 0 ||
               (slot->sizes[d] >= 0 && value->sizes[d] != slot->sizes[d]);
  if (badSizes) {
    int rank = value->rank < 0 ? 0
               : value->rank > TSIR_MODEL_MAX_RANK ? TSIR_MODEL_MAX_RANK
                                                   : value->rank;
    describeTensor(got, sizeof got, value->dtype, rank, value->sizes);
    return fail("input %lld must be %s (the spec the model was compiled "
                "for), got %s",
                (long long)index, want, got);
  }
  if (!value->data && numElements(slot->rank, value->sizes) > 0)
    return fail("input %lld: a tensor with no data", (long long)index);
  return 0;
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

/* Size and alignment of a result inside the C struct of results. */
static int64_t resultSize(const Slot *slot) {
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
 * it is, a constant global, a buffer an earlier result took) is copied:
 * the caller owns each output separately. */
static int64_t takeResult(const Slot *slot, const char *at, tsir_value *out,
                          const void *const *borrowed, int64_t numBorrowed,
                          void *const *taken, int64_t numTaken) {
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
  int64_t rank = slot->rank, elementSize = dtypeSize(slot->dtype);
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
  void *copy = malloc((size_t)(count * elementSize) + 1);
  if (!copy)
    return fail("out of memory copying an output of %lld bytes",
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
  free(state->results);
  free(state->values);
  free(state->taken);
}

static int64_t run(const Table *t, const tsir_value *inputs,
                   tsir_value *outputs, CallState *state) {
  /* Where every weight's bytes are. */
  const void **weights = calloc((size_t)t->numWeights + 1, sizeof(void *));
  if (!weights)
    return fail("out of memory");
  pthread_mutex_lock(&bindMutex);
  for (int64_t i = 0; i < t->numWeights; ++i)
    weights[i] = t->weights[i].offset >= 0
                     ? (const void *)(tsir_model_weights_data +
                                      t->weights[i].offset)
                     : t->boundWeights[i];
  pthread_mutex_unlock(&bindMutex);
  for (int64_t i = 0; i < t->numWeights; ++i)
    if (!weights[i] && t->weights[i].bytes > 0) {
      free(weights);
      return fail("weight '%s' is not bound: this model reads its weights "
                  "from a file at run time (tsir_model_bind_weight)",
                  t->weightNames[i]);
    }

  /* Arguments: a descriptor per tensor, a word per scalar. */
  int64_t descriptorWords = 0;
  for (int64_t i = 0; i < t->numArguments; ++i)
    descriptorWords += 3 + 2 * t->arguments[i].rank;
  state->descriptors = calloc((size_t)descriptorWords + 1, 8);
  state->scalars = calloc((size_t)t->numArguments + 1, 8);
  state->pointers = calloc((size_t)t->numArguments + 1, sizeof(void *));
  state->packed = calloc((size_t)t->numArguments + 2, sizeof(void *));
  state->borrowed = calloc((size_t)t->numArguments + 1, sizeof(void *));
  if (!state->descriptors || !state->scalars || !state->pointers ||
      !state->packed || !state->borrowed) {
    free(weights);
    return fail("out of memory");
  }
  int64_t numBorrowed = 0, nextWord = 0;
  for (int64_t i = 0; i < t->numArguments; ++i) {
    const Slot *slot = &t->arguments[i];
    if (slot->kind != TSIR_VALUE_TENSOR) {
      const tsir_value *value = &inputs[slot->source];
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
    const void *data;
    const int64_t *sizes;
    if (slot->source >= 0) {
      data = inputs[slot->source].data;
      sizes = inputs[slot->source].sizes;
    } else {
      const Slot *weight = &t->weights[-1 - slot->source];
      data = weights[-1 - slot->source];
      sizes = weight->sizes;
    }
    int64_t *words = state->descriptors + nextWord;
    nextWord += 3 + 2 * slot->rank;
    fillDescriptor(words, data, slot->rank, sizes);
    state->borrowed[numBorrowed++] = data;
    /* The packed convention passes a pointer to the descriptor pointer. */
    state->pointers[i] = words;
  }
  free(weights);

  /* Results: one struct (a lone memref is a struct too), or one scalar. */
  int scalarReturn = t->numResults == 1 &&
                     t->results[0].kind != TSIR_VALUE_TENSOR;
  int64_t *offsets = calloc((size_t)t->numResults + 1, 8);
  if (!offsets)
    return fail("out of memory");
  int64_t structSize = 0;
  for (int64_t i = 0; i < t->numResults; ++i) {
    int64_t size = resultSize(&t->results[i]);
    int64_t align = size >= 8 ? 8 : 1;
    structSize = (structSize + align - 1) / align * align;
    offsets[i] = structSize;
    structSize += size;
  }
  state->results = calloc((size_t)structSize + 16, 1);
  if (!state->results) {
    free(offsets);
    return fail("out of memory");
  }
  void *resultPointer = state->results;
  int64_t next = 0;
  if (t->numResults && !scalarReturn)
    state->packed[next++] = &resultPointer;
  for (int64_t i = 0; i < t->numArguments; ++i)
    state->packed[next++] = t->arguments[i].kind == TSIR_VALUE_TENSOR
                                ? (void *)&state->pointers[i]
                                : state->pointers[i];
  if (scalarReturn)
    state->packed[next++] = state->results;

  tsir_model_entry(state->packed);

  if (t->device == TSIR_MODEL_DEVICE_CUDA) {
    if (!tsirCudaTakeError) {
      free(offsets);
      return fail("a CUDA model needs tsir's runtime (libTsirRuntime.so) "
                  "in the process");
    }
    const char *error = tsirCudaTakeError();
    if (error && *error) {
      free(offsets);
      return fail("running the model on the GPU failed: %s", error);
    }
  }

  /* Hand the results out; the trailing ones are written into inputs. */
  int64_t numOutputs = t->numResults - t->numWriteback;
  state->values = calloc((size_t)t->numResults + 1, sizeof(tsir_value));
  state->taken = calloc((size_t)t->numResults + 1, sizeof(void *));
  if (!state->values || !state->taken) {
    free(offsets);
    return fail("out of memory");
  }
  int64_t numTaken = 0, status = 0;
  for (int64_t i = 0; i < t->numResults && status == 0; ++i) {
    const char *at = state->results + (scalarReturn ? 0 : offsets[i]);
    status = takeResult(&t->results[i], at, &state->values[i],
                        state->borrowed, numBorrowed, state->taken, numTaken);
    if (status == 0 && state->values[i].allocation)
      state->taken[numTaken++] = state->values[i].allocation;
  }
  free(offsets);
  for (int64_t i = 0; i < t->numWriteback && status == 0; ++i) {
    tsir_value *written = &state->values[numOutputs + i];
    const tsir_value *target = &inputs[t->writeback[i]];
    int64_t words[3 + 2 * TSIR_MODEL_MAX_RANK];
    words[0] = words[1] = (int64_t)(intptr_t)written->data;
    words[2] = 0;
    for (int64_t d = 0; d < written->rank; ++d) {
      words[3 + d] = written->sizes[d];
      words[3 + written->rank + d] = written->strides[d];
    }
    copyToContiguous(words, written->rank, dtypeSize(written->dtype),
                     target->data);
  }
  if (status != 0) {
    for (int64_t i = 0; i < t->numResults; ++i)
      tsir_model_free(&state->values[i]);
    return status;
  }
  for (int64_t i = 0; i < t->numWriteback; ++i)
    tsir_model_free(&state->values[numOutputs + i]);
  memcpy(outputs, state->values, (size_t)numOutputs * sizeof(tsir_value));
  return numOutputs;
}

EXPORT int64_t tsir_model_run(const tsir_value *inputs, int64_t num_inputs,
                              tsir_value *outputs, int64_t capacity) {
  lastError[0] = '\0';
  const Table *t = getTable();
  if (!t)
    return fail("the model's table is damaged (written by another tsir?)");
  if (num_inputs != t->numInputs)
    return fail("the model takes %lld input%s but %lld %s given",
                (long long)t->numInputs, t->numInputs == 1 ? "" : "s",
                (long long)num_inputs, num_inputs == 1 ? "was" : "were");
  if (num_inputs > 0 && !inputs)
    return fail("no inputs given");
  int64_t numOutputs = t->numResults - t->numWriteback;
  if (capacity < numOutputs || (numOutputs > 0 && !outputs))
    return fail("the model returns %lld outputs, room was given for %lld",
                (long long)numOutputs, (long long)capacity);
  for (int64_t i = 0; i < num_inputs; ++i)
    if (checkInput(&t->inputs[i], &inputs[i], i) != 0)
      return -1;
  CallState state;
  memset(&state, 0, sizeof state);
  int64_t result = run(t, inputs, outputs, &state);
  release(&state);
  return result;
}
