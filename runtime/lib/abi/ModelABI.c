/*===- ModelABI.c - tsir_model.h on top of a compiled graph ---------------===*
 *
 * Linked into every model.so that tsir-compile writes, beside the graph's
 * object file, whose tsir_model_table (ModelTable.h) says what the compiled
 * function takes and returns. It checks the caller's inputs against the
 * compiled spec, so a wrong count, kind, dtype or shape is an error naming
 * the input and never reaches compiled code; finds every weight's bytes;
 * and calls the graph through tsirAbiCall (AbiCall.h), the calling
 * convention the JIT uses too. C, with no dependency beyond libc, so a
 * model runs in any program.
 *
 *===----------------------------------------------------------------------===*/

#include "tsir-runtime/AbiCall.h"
#include "tsir-runtime/BFloat16Rounding.h"
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

/* MLIR's lowering of memref.copy calls this name. */
void memrefCopy(int64_t element_size, tsir_unranked_memref *source,
                tsir_unranked_memref *target) {
  tsirMemrefCopy(element_size, source, target);
}

/* LLVM's rounding to bfloat16 on a CPU without AVX512-BF16 calls these
 * compiler-runtime names. */
__bf16 __truncsfbf2(float value) { return tsirRoundF32ToBF16(value); }
__bf16 __truncdfbf2(double value) { return tsirRoundF64ToBF16(value); }

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

/* An input of the compiled spec, which the caller's value must match. */
typedef struct InputSpec {
  int64_t kind, dtype, rank;
  const int64_t *sizes; /* -1: any size */
} InputSpec;

/* A weight: its bytes in tsir_model_weights_data, or bound at run time. */
typedef struct WeightSpec {
  int64_t offset, bytes, rank;
  const int64_t *sizes;
} WeightSpec;

typedef struct Table {
  int64_t numInputs, numWeights;
  InputSpec *inputs;
  WeightSpec *weights;
  tsir_abi_signature call; /* what the compiled function takes */
  tsir_abi_slot *arguments, *results;
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
  tsir_abi_signature *call = &table.call;
  call->device = word[TSIR_MODEL_TABLE_DEVICE];
  table.numInputs = word[TSIR_MODEL_TABLE_INPUTS];
  call->num_arguments = word[TSIR_MODEL_TABLE_ARGUMENTS];
  call->num_results = word[TSIR_MODEL_TABLE_RESULTS];
  table.numWeights = word[TSIR_MODEL_TABLE_WEIGHTS];
  call->num_writeback = word[TSIR_MODEL_TABLE_WRITEBACK];
  word += TSIR_MODEL_TABLE_HEADER_WORDS;
  /* One allocation per array, kept for the life of the process. */
  table.inputs = calloc((size_t)table.numInputs + 1, sizeof(InputSpec));
  table.arguments =
      calloc((size_t)call->num_arguments + 1, sizeof(tsir_abi_slot));
  table.results = calloc((size_t)call->num_results + 1, sizeof(tsir_abi_slot));
  table.weights = calloc((size_t)table.numWeights + 1, sizeof(WeightSpec));
  table.weightNames = calloc((size_t)table.numWeights + 1, sizeof(char *));
  table.boundWeights = calloc((size_t)table.numWeights + 1, sizeof(void *));
  if (!table.inputs || !table.arguments || !table.results || !table.weights ||
      !table.weightNames || !table.boundWeights)
    return;
  for (int64_t i = 0; i < table.numInputs; ++i) {
    InputSpec *input = &table.inputs[i];
    input->kind = *word++;
    input->dtype = *word++;
    input->rank = *word++;
    input->sizes = word;
    word += input->rank;
  }
  for (int64_t i = 0; i < call->num_arguments; ++i) {
    tsir_abi_slot *slot = &table.arguments[i];
    slot->kind = *word++;
    slot->dtype = *word++;
    slot->rank = *word++;
    slot->source = *word++;
  }
  for (int64_t i = 0; i < call->num_results; ++i) {
    tsir_abi_slot *slot = &table.results[i];
    slot->kind = *word++;
    slot->dtype = *word++;
    slot->rank = *word++;
  }
  const char *name = tsir_model_weight_names;
  for (int64_t i = 0; i < table.numWeights; ++i) {
    WeightSpec *weight = &table.weights[i];
    weight->offset = *word++;
    weight->bytes = *word++;
    weight->rank = *word++;
    weight->sizes = word;
    word += weight->rank;
    table.weightNames[i] = name;
    name += strlen(name) + 1;
  }
  call->arguments = table.arguments;
  call->results = table.results;
  call->writeback = word;
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
  return t ? t->call.num_results - t->call.num_writeback : -1;
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

static int64_t checkInput(const InputSpec *slot, const tsir_value *value,
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

/* Calls the compiled graph with every weight's bytes where it is. */
static int64_t run(const Table *t, const tsir_value *inputs,
                   tsir_value *outputs) {
  tsir_value *weights = calloc((size_t)t->numWeights + 1, sizeof(tsir_value));
  if (!weights)
    return fail("out of memory");
  pthread_mutex_lock(&bindMutex);
  for (int64_t i = 0; i < t->numWeights; ++i)
    weights[i].data = t->weights[i].offset >= 0
                          ? (void *)(uintptr_t)(tsir_model_weights_data +
                                                t->weights[i].offset)
                          : (void *)(uintptr_t)t->boundWeights[i];
  pthread_mutex_unlock(&bindMutex);
  for (int64_t i = 0; i < t->numWeights; ++i) {
    const WeightSpec *weight = &t->weights[i];
    if (!weights[i].data && weight->bytes > 0) {
      free(weights);
      return fail("weight '%s' is not bound: this model reads its weights "
                  "from a file at run time (tsir_model_bind_weight)",
                  t->weightNames[i]);
    }
    if (weight->rank > TSIR_MODEL_MAX_RANK) {
      free(weights);
      return fail("weight '%s' has rank %lld, more than %d",
                  t->weightNames[i], (long long)weight->rank,
                  TSIR_MODEL_MAX_RANK);
    }
    weights[i].kind = TSIR_VALUE_TENSOR;
    weights[i].rank = (int32_t)weight->rank;
    memcpy(weights[i].sizes, weight->sizes, (size_t)weight->rank * 8);
  }
  int64_t result = tsirAbiCall(&t->call, tsir_model_entry, inputs, weights,
                               outputs, lastError, sizeof lastError);
  free(weights);
  /* A model's caller learns only that the run failed, and why. */
  return result < 0 ? -1 : result;
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
  int64_t numOutputs = t->call.num_results - t->call.num_writeback;
  if (capacity < numOutputs || (numOutputs > 0 && !outputs))
    return fail("the model returns %lld outputs, room was given for %lld",
                (long long)numOutputs, (long long)capacity);
  for (int64_t i = 0; i < num_inputs; ++i)
    if (checkInput(&t->inputs[i], &inputs[i], i) != 0)
      return -1;
  return run(t, inputs, outputs);
}
