/*===- ModelTable.h - What tsir-compile puts beside a model's code -*- C -*-===*
 *
 * The contract between tsir-compile, which emits these symbols into the
 * object file of a compiled graph, and the model ABI (runtime/lib/abi/),
 * which implements tsir_model.h on top of them. Users do not need it: it
 * is the private layout inside model.so, versioned by the magic word.
 *
 *   const int64_t tsir_model_table[];           the layout below
 *   const char tsir_model_signature_json[];     tsir_model_signature()
 *   const char tsir_model_weight_names[];       NUL-terminated names, in
 *                                               weight order
 *   const unsigned char tsir_model_weights_data[];  embedded weights
 *   void tsir_model_entry(void **packed);       the compiled graph, called
 *       as MLIR's ExecutionEngine calls `_mlir_ciface_graph` through its
 *       packed wrapper: packed[0] points at the result struct's pointer
 *       when the graph returns a struct, then one pointer per argument (to
 *       a descriptor pointer for memrefs, to the value for scalars), and a
 *       lone scalar result is stored through the last pointer.
 *
 * tsir_model_table, 64-bit words:
 *   header     MAGIC, inputs, arguments, results, weights, writeback, device
 *   inputs     kind, dtype, rank, sizes[rank] (-1: any size)
 *   arguments  kind, dtype, rank, source (>= 0: input; < 0: weight -1-source)
 *   results    kind, dtype, rank
 *   weights    offset in tsir_model_weights_data (-1: bound at run time),
 *              bytes, rank, sizes[rank]
 *   writeback  the input each trailing result is written into
 * Kinds are tsir_value_kind; dtypes torch's ScalarType numbers.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TSIR_RUNTIME_MODELTABLE_H
#define TSIR_RUNTIME_MODELTABLE_H

/* "tsirmdl1" as a little-endian word. */
#define TSIR_MODEL_TABLE_MAGIC 0x316c646d72697374LL

enum {
  TSIR_MODEL_TABLE_INPUTS = 1,
  TSIR_MODEL_TABLE_ARGUMENTS = 2,
  TSIR_MODEL_TABLE_RESULTS = 3,
  TSIR_MODEL_TABLE_WEIGHTS = 4,
  TSIR_MODEL_TABLE_WRITEBACK = 5,
  TSIR_MODEL_TABLE_DEVICE = 6,
  TSIR_MODEL_TABLE_HEADER_WORDS = 7
};

enum { TSIR_MODEL_DEVICE_CPU = 0, TSIR_MODEL_DEVICE_CUDA = 1 };

#endif /* TSIR_RUNTIME_MODELTABLE_H */
