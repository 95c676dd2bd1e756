/*===- AbiCall.h - The one way to call a compiled graph ------------*- C -*-===*
 *
 * tsir's calling convention for compiled graphs, written once and used by
 * both ways code runs: the JIT (Plan::call in lib/compiler) and every
 * ahead-of-time model.so (ModelABI.c, over tsir_model_table). Both describe
 * the compiled function with the same signature (tsir_abi_signature) and
 * hand it values as tsir_value (tsir_model.h); tsirAbiCall builds MLIR's
 * memref descriptors, lays out the struct of results, applies the
 * scalar-return rule, calls the packed entry point, decides which results
 * are fresh buffers the caller now owns, and writes the in-place results
 * back into their inputs. So the JIT and a model.so behave the same by
 * construction.
 *
 * The packed entry point is what MLIR's ExecutionEngine calls
 * `_mlir_ciface_graph` through: packed[0] points at the result struct's
 * pointer when the graph returns a struct, then one pointer per argument
 * (to a descriptor pointer for memrefs, to the value for scalars), and a
 * lone scalar result is stored through the last pointer.
 *
 * C, with no dependency beyond libc and the buffer cache, so it links into
 * every model.so as well as into tsir's runtime.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TSIR_RUNTIME_ABICALL_H
#define TSIR_RUNTIME_ABICALL_H

#include "tsir-runtime/tsir_model.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One argument or result of the compiled function. */
typedef struct tsir_abi_slot {
  int64_t kind;   /* a tsir_value_kind */
  int64_t dtype;  /* tensors: torch's ScalarType number */
  int64_t rank;   /* tensors, at most TSIR_MODEL_MAX_RANK */
  int64_t source; /* arguments: >= 0 the caller input, < 0 weight -1-source */
} tsir_abi_slot;

/* What the compiled function takes and returns. */
typedef struct tsir_abi_signature {
  int64_t device; /* TSIR_MODEL_DEVICE_CPU or _CUDA (ModelTable.h) */
  int64_t num_arguments;
  const tsir_abi_slot *arguments;
  int64_t num_results;
  const tsir_abi_slot *results;
  /* The trailing num_writeback results are the new values of the caller
   * inputs writeback[i] (>= 0) or of the weights -1 - writeback[i] (< 0),
   * written in place. */
  int64_t num_writeback;
  const int64_t *writeback;
} tsir_abi_signature;

/* The compiled graph's packed entry point. */
typedef void (*tsir_abi_entry)(void **packed);

/* Calls `entry` with the caller's `inputs` and the `weights` (indexed by
 * weight), as `signature` says. Tensors must be contiguous and row-major,
 * with the dtype and rank of their slot; a float slot takes an int. The
 * first num_results - num_writeback results go to `outputs`, each tensor a
 * buffer of its own (give it back with tsir_model_free); the others are
 * copied into their inputs' data. Returns the number of outputs; -1 with
 * a message in `error` (room for `error_size` bytes) for a bad argument;
 * or TSIR_ABI_CHECK_FAILED for a check the compiled code failed
 * (tsirRaiseError), whose message is the whole error, placed at the
 * graph's node already. */
#define TSIR_ABI_CHECK_FAILED (-2)
int64_t tsirAbiCall(const tsir_abi_signature *signature, tsir_abi_entry entry,
                    const tsir_value *inputs, const tsir_value *weights,
                    tsir_value *outputs, char *error, size_t error_size);

/* What compiled code calls when a check it makes at run time fails (an
 * index out of range: torch raises there). `message` is the whole error,
 * in torch's words at the graph's node, and lives as long as the compiled
 * code. The code goes on, reading and writing in bounds, and returns; the
 * tsirAbiCall that called it then fails with the first such message and
 * hands out no results. The check runs on the thread that made the call
 * (never inside a parallel loop), so the message is kept per thread and
 * calls on other threads do not see it. */
void tsirRaiseError(const char *message);

/* Bytes per element of torch's ScalarType `dtype`, 0 for an unknown one. */
int64_t tsirAbiDtypeSize(int64_t dtype);

#ifdef __cplusplus
}
#endif

#endif /* TSIR_RUNTIME_ABICALL_H */
