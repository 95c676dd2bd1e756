//===- tsir-c/Runtime.h - Compile and run graphs from C -----------*- C -*-===//
//
// A C view of tsir's GraphExecutor (tsir/Compiler/Executor.h) and of the
// runtime's values (tsir-runtime/Value.h). An executor holds one graph; the
// first run with a new input spec (dtype and sizes of each tensor, type of
// each scalar) compiles a plan for it, later runs with that spec reuse it.
//
// Handles are opaque. What a *Create* function returns is owned by the
// caller and freed with the matching *Destroy* function; what a *Get*
// function returns is borrowed from its parent and lives as long as it.
//
// Calls that can fail return a null handle, a failed MlirLogicalResult or
// -1, and set this thread's last error (tsirRuntimeGetLastError): a wrong
// input count, dtype or shape, a graph that does not parse, an accessor of
// the wrong kind of value. No input makes them crash; null handles are
// reported as errors too.
//
// An executor is not thread-safe: use it from one thread at a time.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_C_RUNTIME_H
#define TSIR_C_RUNTIME_H

#include "mlir-c/Support.h"
#include "tsir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DEFINE_C_API_STRUCT(name, storage)                                     \
  struct name {                                                                \
    storage *ptr;                                                              \
  };                                                                           \
  typedef struct name name

/// Options for loading a graph (weights, optimization).
DEFINE_C_API_STRUCT(TsirExecutorOptions, void);
/// One graph and its cache of compiled plans.
DEFINE_C_API_STRUCT(TsirExecutor, void);
/// A runtime value: a tensor, an int, a float, a bool, None, a string, a
/// list or tuple of values, ...
DEFINE_C_API_STRUCT(TsirValue, void);
/// The outputs of one run.
DEFINE_C_API_STRUCT(TsirOutputs, void);

#undef DEFINE_C_API_STRUCT

static inline bool tsirExecutorOptionsIsNull(TsirExecutorOptions options) {
  return !options.ptr;
}
static inline bool tsirExecutorIsNull(TsirExecutor executor) {
  return !executor.ptr;
}
static inline bool tsirValueIsNull(TsirValue value) { return !value.ptr; }
static inline bool tsirOutputsIsNull(TsirOutputs outputs) {
  return !outputs.ptr;
}

/// The element types of runtime tensors. Float16 and BFloat16 elements are
/// their 16 bits; Bool elements are bytes holding 0 or 1.
typedef enum TsirDType {
  TsirDTypeInvalid = -1, ///< returned by accessors on error
  TsirDTypeFloat32 = 0,
  TsirDTypeFloat64,
  TsirDTypeFloat16,
  TsirDTypeBFloat16,
  TsirDTypeInt64,
  TsirDTypeInt32,
  TsirDTypeInt16,
  TsirDTypeInt8,
  TsirDTypeUInt8,
  TsirDTypeBool,
  /// Not a dtype. Like Vulkan's *_MAX_ENUM, it makes every int a value of
  /// the enum in C++ too (whose enums otherwise only hold the range their
  /// enumerators span), so a caller's out-of-range dtype is an error the
  /// functions report, not undefined behaviour in them.
  TsirDTypeMaxEnum = 0x7fffffff,
} TsirDType;

/// What a value holds.
typedef enum TsirValueKind {
  TsirValueKindInvalid = -1, ///< returned for a null handle
  TsirValueKindNone = 0,
  TsirValueKindTensor,
  TsirValueKindInt,
  TsirValueKindDouble,
  TsirValueKindBool,
  TsirValueKindString,
  TsirValueKindList,
  TsirValueKindTuple,
  TsirValueKindDevice,
  TsirValueKindDict,
} TsirValueKind;

//===----------------------------------------------------------------------===//
// Errors and dtypes
//===----------------------------------------------------------------------===//

/// The message of this thread's last failed call, or "" when the last call
/// that can fail succeeded. Valid until the next such call on this thread.
TSIR_CAPI_EXPORTED const char *tsirRuntimeGetLastError(void);

/// Bytes per element; 0 for an invalid dtype.
TSIR_CAPI_EXPORTED size_t tsirDTypeGetElementSize(TsirDType dtype);

/// torch's name ("Float", "Long", ...); "" for an invalid dtype.
TSIR_CAPI_EXPORTED const char *tsirDTypeGetTorchName(TsirDType dtype);

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

/// A contiguous CPU tensor of `dtype` and `sizes` (`rank` of them) holding a
/// COPY of the row-major elements at `data`; zeros when `data` is NULL (then
/// write the elements through tsirValueGetTensorData). Null on invalid
/// arguments (a negative size, an unknown dtype, too many elements).
TSIR_CAPI_EXPORTED TsirValue tsirValueCreateTensor(TsirDType dtype,
                                                   intptr_t rank,
                                                   const int64_t *sizes,
                                                   const void *data);
TSIR_CAPI_EXPORTED TsirValue tsirValueCreateInt(int64_t value);
TSIR_CAPI_EXPORTED TsirValue tsirValueCreateDouble(double value);
TSIR_CAPI_EXPORTED TsirValue tsirValueCreateBool(bool value);
TSIR_CAPI_EXPORTED TsirValue tsirValueCreateNone(void);

/// Frees a value the caller owns (a borrowed one is left alone, with an
/// error). Tensors share their data with the copies the runtime holds, so
/// the data lives on where the runtime still uses it.
TSIR_CAPI_EXPORTED void tsirValueDestroy(TsirValue value);

TSIR_CAPI_EXPORTED TsirValueKind tsirValueGetKind(TsirValue value);

/// Scalars; 0 (false) with an error for another kind. An int reads as a
/// double too.
TSIR_CAPI_EXPORTED int64_t tsirValueGetInt(TsirValue value);
TSIR_CAPI_EXPORTED double tsirValueGetDouble(TsirValue value);
TSIR_CAPI_EXPORTED bool tsirValueGetBool(TsirValue value);
/// A string value's bytes; empty with an error for another kind.
TSIR_CAPI_EXPORTED MlirStringRef tsirValueGetString(TsirValue value);

/// Lists and tuples: the number of elements (-1 for another kind) and
/// element `pos` (borrowed; null when out of range).
TSIR_CAPI_EXPORTED intptr_t tsirValueGetNumElements(TsirValue value);
TSIR_CAPI_EXPORTED TsirValue tsirValueGetElement(TsirValue value, intptr_t pos);

/// Tensors. Their data is always contiguous and row-major: the C API makes
/// a contiguous copy of a strided output before handing it out.
TSIR_CAPI_EXPORTED TsirDType tsirValueGetTensorDType(TsirValue value);
/// The rank, or -1 for a value that is not a tensor.
TSIR_CAPI_EXPORTED intptr_t tsirValueGetTensorRank(TsirValue value);
/// `rank` sizes (NULL for a value that is not a tensor; may be NULL for a
/// 0-d tensor).
TSIR_CAPI_EXPORTED const int64_t *tsirValueGetTensorSizes(TsirValue value);
/// The number of elements, or -1 for a value that is not a tensor.
TSIR_CAPI_EXPORTED int64_t tsirValueGetTensorNumElements(TsirValue value);
/// The first element; writable. A graph that writes an input tensor in
/// place writes it here, as PyTorch would.
TSIR_CAPI_EXPORTED void *tsirValueGetTensorData(TsirValue value);

//===----------------------------------------------------------------------===//
// Executors
//===----------------------------------------------------------------------===//

/// Defaults: no weights, tsir-optimize on.
TSIR_CAPI_EXPORTED TsirExecutorOptions tsirExecutorOptionsCreate(void);
TSIR_CAPI_EXPORTED void tsirExecutorOptionsDestroy(TsirExecutorOptions options);
/// A safetensors file with the graph's `<Tensor>` constants, by value name
/// without `%`; empty for none.
TSIR_CAPI_EXPORTED void
tsirExecutorOptionsSetWeightsPath(TsirExecutorOptions options,
                                  MlirStringRef path);
/// A weight held in memory, by value name without `%`; it wins over the
/// file's of the same name. The executor shares the tensor's data (it does
/// not copy it), so it may be destroyed after the executor is created.
TSIR_CAPI_EXPORTED MlirLogicalResult tsirExecutorOptionsAddWeight(
    TsirExecutorOptions options, MlirStringRef name, TsirValue tensor);
/// Whether to run tsir-optimize before lowering (default true).
TSIR_CAPI_EXPORTED void
tsirExecutorOptionsSetOptimize(TsirExecutorOptions options, bool optimize);
/// How many threads the parallel loops of compiled code run on (OpenMP;
/// docs/lowering.md "Threads"): 0 (the default) is $OMP_NUM_THREADS if set,
/// else the number of cores. It applies to runs from the calling thread; a
/// negative count makes creating the executor fail.
TSIR_CAPI_EXPORTED void
tsirExecutorOptionsSetThreads(TsirExecutorOptions options, int threads);

/// Loads a graph: TorchScript text, or prim/aten MLIR when the path ends in
/// `.mlir`. `options` may be null for the defaults. Null on error (the file
/// cannot be read, `path:line:col: error: ...`, weights that cannot be
/// read), with the message in tsirRuntimeGetLastError.
TSIR_CAPI_EXPORTED TsirExecutor
tsirExecutorCreateFromFile(MlirStringRef path, TsirExecutorOptions options);
/// The same for text in memory; `bufferName` names it in errors, and a name
/// ending in `.mlir` reads the text as MLIR.
TSIR_CAPI_EXPORTED TsirExecutor tsirExecutorCreateFromSource(
    MlirStringRef text, MlirStringRef bufferName, TsirExecutorOptions options);
TSIR_CAPI_EXPORTED void tsirExecutorDestroy(TsirExecutor executor);

/// The inputs a caller gives (a frozen module's `self` excluded), with their
/// value names (without `%`) and TorchScript types ("Float(2, 3)"); the
/// strings live as long as the executor. -1 / empty on error.
TSIR_CAPI_EXPORTED intptr_t tsirExecutorGetNumInputs(TsirExecutor executor);
TSIR_CAPI_EXPORTED MlirStringRef tsirExecutorGetInputName(TsirExecutor executor,
                                                          intptr_t pos);
TSIR_CAPI_EXPORTED MlirStringRef tsirExecutorGetInputType(TsirExecutor executor,
                                                          intptr_t pos);

/// Runs the graph on `inputs` (borrowed), compiling a plan for their spec
/// on first use. Null on error: a wrong number of inputs, an input of the
/// wrong kind, dtype or shape, a graph that does not compile, a kernel that
/// fails. Tuple outputs are flattened depth-first.
TSIR_CAPI_EXPORTED TsirOutputs tsirExecutorRun(TsirExecutor executor,
                                               intptr_t numInputs,
                                               const TsirValue *inputs);

/// How many plans the executor holds (one per input spec seen), and
/// whether the last run compiled a new one; -1 / false on error.
TSIR_CAPI_EXPORTED intptr_t
tsirExecutorGetNumCachedPlans(TsirExecutor executor);
TSIR_CAPI_EXPORTED bool tsirExecutorLastRunCompiled(TsirExecutor executor);

/// The outputs of a run: their number (-1 on error) and output `pos`
/// (borrowed: it lives until tsirOutputsDestroy; null when out of range).
TSIR_CAPI_EXPORTED intptr_t tsirOutputsGetCount(TsirOutputs outputs);
TSIR_CAPI_EXPORTED TsirValue tsirOutputsGet(TsirOutputs outputs, intptr_t pos);
TSIR_CAPI_EXPORTED void tsirOutputsDestroy(TsirOutputs outputs);

#ifdef __cplusplus
}
#endif

#endif // TSIR_C_RUNTIME_H
