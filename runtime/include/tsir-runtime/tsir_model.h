/*===- tsir_model.h - The C ABI of an ahead-of-time compiled model -*- C -*-===*
 *
 * `tsir-compile graph.txt --spec ... -o model.so` writes a shared library
 * that holds one graph compiled for one input spec, its weights (or the
 * name of the safetensors file that holds them) and the functions below.
 * They are plain C, so a program can dlopen a model and run it with no
 * tsir library at all; tsir's runtime (tsir-runtime/Model.h, `tsir-run
 * model.so`) uses the same functions.
 *
 * Tensors cross the ABI as a pointer to their first element, row-major and
 * contiguous on the way in; dtypes are torch's ScalarType numbers (Float is
 * 6, Long 4, Bool 11, ...). Outputs are buffers the model allocated with
 * malloc: the caller owns them and gives each back with tsir_model_free.
 * Every function is thread-safe; errors are per thread.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TSIR_RUNTIME_TSIR_MODEL_H
#define TSIR_RUNTIME_TSIR_MODEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever anything below changes layout or meaning. */
#define TSIR_MODEL_ABI_VERSION 1

/* The highest tensor rank that crosses the ABI. */
#define TSIR_MODEL_MAX_RANK 16

typedef enum tsir_value_kind {
  TSIR_VALUE_TENSOR = 0,
  TSIR_VALUE_INT = 1,
  TSIR_VALUE_FLOAT = 2,
  TSIR_VALUE_BOOL = 3
} tsir_value_kind;

/* One input or output. */
typedef struct tsir_value {
  int32_t kind;  /* a tsir_value_kind */
  int32_t dtype; /* tensors: torch's ScalarType number */
  int32_t rank;  /* tensors */
  int32_t reserved;
  /* Tensors: the first element. Inputs must be contiguous and row-major;
   * outputs are laid out as `strides` (in elements) says. */
  void *data;
  /* Outputs: the block to give back with tsir_model_free (NULL when the
   * value owns no memory). Ignored on inputs. */
  void *allocation;
  int64_t sizes[TSIR_MODEL_MAX_RANK];
  int64_t strides[TSIR_MODEL_MAX_RANK];
  int64_t int_value;  /* INT, and BOOL as 0 or 1 */
  double float_value; /* FLOAT */
} tsir_value;

/* TSIR_MODEL_ABI_VERSION of the tsir that wrote the model. */
uint32_t tsir_model_abi_version(void);

/* A JSON object describing the model: {"abi", "device", "spec", "inputs":
 * [{"name", "type", "kind", "dtype", "sizes"}], "outputs": [{"type", ...}],
 * "weights": {"embedded", "file", "names"}, "graph"}. Static storage. */
const char *tsir_model_signature(void);

/* How many inputs the model takes and how many outputs it returns. */
int64_t tsir_model_num_inputs(void);
int64_t tsir_model_num_outputs(void);

/* Binds the weight `name` to `nbytes` bytes at `data` (which must stay
 * valid while the model runs), for a model compiled with its weights left
 * in their file. 0 on success, -1 on error (tsir_model_error says why). */
int tsir_model_bind_weight(const char *name, const void *data,
                           uint64_t nbytes);

/* Runs the model. `inputs` holds exactly tsir_model_num_inputs() values of
 * the compiled spec; `outputs` has room for `capacity` values. Returns the
 * number of outputs written, or -1 on error (tsir_model_error says why;
 * no output is allocated then). Tensor inputs the graph writes in place
 * are written. */
int64_t tsir_model_run(const tsir_value *inputs, int64_t num_inputs,
                       tsir_value *outputs, int64_t capacity);

/* The last error of this thread, or "" when there was none. */
const char *tsir_model_error(void);

/* Frees an output's memory and clears its `allocation`. NULL is ignored. */
void tsir_model_free(tsir_value *output);

#ifdef __cplusplus
}
#endif

#endif /* TSIR_RUNTIME_TSIR_MODEL_H */
