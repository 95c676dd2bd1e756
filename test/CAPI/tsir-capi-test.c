//===- tsir-capi-test.c - Exercises libTsirCAPI.so from C ---------*- C -*-===//
//
// A C11 program linked against libTsirCAPI.so alone: it builds prim types,
// imports, transforms and exports a graph through MLIR's and tsir's C APIs,
// and compiles and runs graphs with the runtime C API. Each CHECK below
// exits non-zero when it fails; capi.test also FileChecks what it prints.
//
// Usage: tsir-capi-test <path of Inputs/scalars.txt>
//
//===----------------------------------------------------------------------===//

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tsir-c/Dialects.h"
#include "tsir-c/Passes.h"
#include "tsir-c/PrimTypes.h"
#include "tsir-c/Runtime.h"
#include "tsir-c/Translation.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static MlirStringRef str(const char *text) {
  return mlirStringRefCreateFromCString(text);
}

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

/// A growing string that callbacks append to.
typedef struct {
  char data[8192];
  size_t length;
} Buffer;

static void appendToBuffer(MlirStringRef text, void *userData) {
  Buffer *buffer = (Buffer *)userData;
  CHECK(buffer->length + text.length < sizeof(buffer->data));
  memcpy(buffer->data + buffer->length, text.data, text.length);
  buffer->length += text.length;
  buffer->data[buffer->length] = '\0';
}

//===----------------------------------------------------------------------===//
// Diagnostics: every one is printed with its location and counted
//===----------------------------------------------------------------------===//

typedef struct {
  int errors;
  char lastFile[256];
  unsigned lastLine, lastColumn;
} DiagnosticLog;

static MlirLogicalResult handleDiagnostic(MlirDiagnostic diagnostic,
                                          void *userData) {
  DiagnosticLog *log = (DiagnosticLog *)userData;
  if (mlirDiagnosticGetSeverity(diagnostic) == MlirDiagnosticError)
    ++log->errors;
  MlirLocation loc = mlirDiagnosticGetLocation(diagnostic);
  log->lastFile[0] = '\0';
  log->lastLine = log->lastColumn = 0;
  if (mlirLocationIsAFileLineColRange(loc)) {
    MlirStringRef file =
        mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
    size_t n = file.length < 255 ? file.length : 255;
    memcpy(log->lastFile, file.data, n);
    log->lastFile[n] = '\0';
    log->lastLine = (unsigned)mlirLocationFileLineColRangeGetStartLine(loc);
    log->lastColumn = (unsigned)mlirLocationFileLineColRangeGetStartColumn(loc);
  }
  printf("diagnostic: ");
  mlirLocationPrint(loc, printToStdout, NULL);
  printf(": ");
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static void printType(const char *label, MlirType type) {
  printf("%s: ", label);
  mlirTypePrint(type, printToStdout, NULL);
  printf("\n");
}

static void testTypes(MlirContext ctx, DiagnosticLog *log) {
  printf("== types\n");
  MlirType f32 = tsirPrimDtypeGetFromTorchName(ctx, str("Float"));
  CHECK(mlirTypeIsAF32(f32));
  CHECK(mlirStringRefEqual(tsirPrimDtypeGetTorchName(f32), str("Float")));
  MlirType si64 = tsirPrimDtypeGetFromTorchName(ctx, str("Long"));
  CHECK(mlirIntegerTypeIsSigned(si64) && mlirIntegerTypeGetWidth(si64) == 64);
  CHECK(mlirTypeIsNull(tsirPrimDtypeGetFromTorchName(ctx, str("Floaty"))));

  // Float(2, *, strides=[3, 1], requires_grad=0, device=cpu)
  int64_t unknown = tsirPrimTensorTypeGetUnknownSize();
  int64_t sizes[] = {2, unknown};
  int64_t strides[] = {3, 1};
  MlirType tensor =
      tsirPrimTensorTypeGet(ctx, f32, 2, sizes, 2, strides, str("cpu"), 0);
  printType("tensor", tensor);
  CHECK(tsirTypeIsAPrimTensor(tensor));
  CHECK(!tsirPrimTensorTypeIsUnrefined(tensor));
  CHECK(mlirTypeEqual(tsirPrimTensorTypeGetDtype(tensor), f32));
  CHECK(tsirPrimTensorTypeHasSizes(tensor));
  CHECK(tsirPrimTensorTypeGetRank(tensor) == 2);
  CHECK(tsirPrimTensorTypeGetSize(tensor, 0) == 2);
  CHECK(tsirPrimTensorTypeGetSize(tensor, 1) == unknown);
  CHECK(tsirPrimTensorTypeHasStrides(tensor));
  CHECK(tsirPrimTensorTypeGetNumStrides(tensor) == 2);
  CHECK(tsirPrimTensorTypeGetStride(tensor, 0) == 3);
  CHECK(tsirPrimTensorTypeHasDevice(tensor));
  CHECK(mlirStringRefEqual(tsirPrimTensorTypeGetDevice(tensor), str("cpu")));
  CHECK(tsirPrimTensorTypeGetRequiresGrad(tensor) == 0);
  // The same type, parsed, is the same uniqued type.
  CHECK(mlirTypeEqual(
      tensor, mlirTypeParseGet(ctx, str("!prim.tensor<dtype = f32, sizes = "
                                        "[2, ?], strides = [3, 1], device = "
                                        "\"cpu\", requires_grad = false>"))));

  MlirType plain = tsirPrimTensorTypeGetUnrefined(ctx);
  printType("plain", plain);
  CHECK(tsirPrimTensorTypeIsUnrefined(plain));
  CHECK(mlirTypeIsNull(tsirPrimTensorTypeGetDtype(plain)));
  CHECK(tsirPrimTensorTypeGetRank(plain) == -1);
  CHECK(tsirPrimTensorTypeGetNumStrides(plain) == -1);
  CHECK(!tsirPrimTensorTypeHasDevice(plain));
  CHECK(tsirPrimTensorTypeGetRequiresGrad(plain) == -1);
  CHECK(
      mlirTypeEqual(plain, tsirPrimTensorTypeGet(ctx, (MlirType){NULL}, -1,
                                                 NULL, -1, NULL, str(""), -1)));

  // Invalid refinements: a null type and a diagnostic, not a crash.
  int errorsBefore = log->errors;
  int64_t oneStride[] = {1};
  MlirType bad = tsirPrimTensorTypeGetChecked(
      mlirLocationFileLineColGet(ctx, str("types.c"), 7, 3), f32, 2, sizes, 1,
      oneStride, str(""), -1);
  CHECK(mlirTypeIsNull(bad));
  CHECK(log->errors == errorsBefore + 1);
  CHECK(strcmp(log->lastFile, "types.c") == 0 && log->lastLine == 7);

  MlirType i64 = tsirIntTypeGet(ctx);
  MlirType f64 = tsirFloatTypeGet(ctx);
  MlirType i1 = tsirBoolTypeGet(ctx);
  CHECK(tsirTypeIsAInt(i64) && !tsirTypeIsAInt(si64) && !tsirTypeIsAInt(i1));
  CHECK(tsirTypeIsAFloat(f64) && !tsirTypeIsAFloat(f32));
  CHECK(tsirTypeIsABool(i1) && mlirTypeEqual(i1, mlirIntegerTypeGet(ctx, 1)));

  MlirType strType = tsirPrimStrTypeGet(ctx);
  MlirType none = tsirPrimNoneTypeGet(ctx);
  CHECK(tsirTypeIsAPrimStr(strType) && !tsirTypeIsAPrimStr(none));
  CHECK(tsirTypeIsAPrimNone(none));
  CHECK(tsirTypeIsAPrimDevice(tsirPrimDeviceTypeGet(ctx)));
  CHECK(tsirTypeIsAPrimNumber(tsirPrimNumberTypeGet(ctx)));
  CHECK(tsirTypeIsAPrimAny(tsirPrimAnyTypeGet(ctx)));
  CHECK(tsirTypeIsAPrimGenerator(tsirPrimGeneratorTypeGet(ctx)));
  CHECK(!tsirTypeIsAPrimTensor(strType));

  MlirType list = tsirPrimListTypeGet(tensor);
  printType("list", list);
  CHECK(tsirTypeIsAPrimList(list) && !tsirTypeIsAPrimOptional(list));
  CHECK(mlirTypeEqual(tsirPrimListTypeGetElementType(list), tensor));

  MlirType optional = tsirPrimOptionalTypeGet(i64);
  printType("optional", optional);
  CHECK(tsirTypeIsAPrimOptional(optional));
  CHECK(mlirTypeEqual(tsirPrimOptionalTypeGetElementType(optional), i64));

  MlirType future = tsirPrimFutureTypeGet(plain);
  CHECK(tsirTypeIsAPrimFuture(future));
  CHECK(mlirTypeEqual(tsirPrimFutureTypeGetElementType(future), plain));

  MlirType elements[] = {i64, f64, strType};
  MlirType tuple = tsirPrimTupleTypeGet(ctx, 3, elements);
  printType("tuple", tuple);
  CHECK(tsirTypeIsAPrimTuple(tuple));
  CHECK(tsirPrimTupleTypeGetNumTypes(tuple) == 3);
  CHECK(mlirTypeEqual(tsirPrimTupleTypeGetType(tuple, 2), strType));
  CHECK(tsirPrimTupleTypeGetNumTypes(tsirPrimTupleTypeGet(ctx, 0, NULL)) == 0);

  MlirType alternatives[] = {i64, none};
  MlirType unionType = tsirPrimUnionTypeGet(ctx, 2, alternatives);
  printType("union", unionType);
  CHECK(tsirTypeIsAPrimUnion(unionType));
  CHECK(tsirPrimUnionTypeGetNumTypes(unionType) == 2);
  CHECK(mlirTypeEqual(tsirPrimUnionTypeGetType(unionType, 1), none));

  MlirType dict = tsirPrimDictTypeGet(strType, plain);
  printType("dict", dict);
  CHECK(tsirTypeIsAPrimDict(dict));
  CHECK(mlirTypeEqual(tsirPrimDictTypeGetKeyType(dict), strType));
  CHECK(mlirTypeEqual(tsirPrimDictTypeGetValueType(dict), plain));

  MlirType cls = tsirPrimClassTypeGet(ctx, str("__torch__.m.ResNet"));
  printType("class", cls);
  CHECK(tsirTypeIsAPrimClass(cls));
  CHECK(mlirStringRefEqual(tsirPrimClassTypeGetName(cls),
                           str("__torch__.m.ResNet")));

  // TorchScript's subtyping.
  CHECK(tsirPrimTypeIsSubtypeOf(tensor, plain));
  CHECK(!tsirPrimTypeIsSubtypeOf(plain, tensor));
  CHECK(tsirPrimTypeIsSubtypeOf(i64, optional));
  CHECK(tsirPrimTypeIsSubtypeOf(none, optional));
  CHECK(!tsirPrimTypeIsSubtypeOf(f64, optional));
  CHECK(tsirPrimTypeIsSubtypeOf(i64, tsirPrimNumberTypeGet(ctx)));
  printf("types: ok\n");
}

//===----------------------------------------------------------------------===//
// Import, passes, export
//===----------------------------------------------------------------------===//

static const char *kGraph =
    "graph(%a : Float(2, 3), %b : Float(2, 3)):\n"
    "  %one : int = prim::Constant[value=1]()\n"
    "  %c : Float(2, 3) = aten::add(%a, %b, %one)\n"
    "  %unused : Float(2, 3) = aten::sub(%a, %b, %one)\n"
    "  %d : Float(2, 3) = aten::mul(%c, %a)\n"
    "  %e : Float(2, 3) = aten::mul(%c, %a)\n"
    "  %f : Float(2, 3) = aten::add(%d, %e, %one)\n"
    "  return (%f, %c)\n";

/// The number of ops in the body of the module's one function.
static int countGraphOps(MlirModule module) {
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  CHECK(!mlirOperationIsNull(func));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  int count = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    ++count;
  return count;
}

static void testTranslation(MlirContext ctx, DiagnosticLog *log) {
  printf("== import\n");
  MlirModule module = tsirImportTorchScript(ctx, str(kGraph), str("add.txt"));
  CHECK(!mlirModuleIsNull(module));
  CHECK(mlirOperationVerify(mlirModuleGetOperation(module)));
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");
  CHECK(countGraphOps(module) == 7);

  printf("== syntax error\n");
  int errorsBefore = log->errors;
  MlirModule bad = tsirImportTorchScript(ctx,
                                         str("graph(%x : Tensor):\n"
                                             "  %y : Tensor = aten::relu(%x\n"
                                             "  return (%y)\n"),
                                         str("bad.txt"));
  CHECK(mlirModuleIsNull(bad));
  CHECK(log->errors == errorsBefore + 1);
  CHECK(strcmp(log->lastFile, "bad.txt") == 0);
  CHECK(log->lastLine >= 2 && log->lastColumn > 0);

  printf("== passes\n");
  Buffer errors = {{0}, 0};
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  // Unknown names fail to parse, with a message, instead of aborting.
  CHECK(mlirLogicalResultIsFailure(mlirParsePassPipeline(
      opm, str("builtin.module(func.func(prim-no-such-pass))"), appendToBuffer,
      &errors)));
  CHECK(strstr(errors.data, "prim-no-such-pass") != NULL);
  printf("bad pipeline: %s\n", errors.data);
  mlirPassManagerDestroy(pm);

  pm = mlirPassManagerCreate(ctx);
  opm = mlirPassManagerGetAsOpPassManager(pm);
  CHECK(mlirLogicalResultIsSuccess(mlirParsePassPipeline(
      opm, str("builtin.module(func.func(prim-cse,prim-dce))"), printToStdout,
      NULL)));
  printf("pipeline: ");
  mlirPrintPassPipeline(opm, printToStdout, NULL);
  printf("\n");
  CHECK(mlirLogicalResultIsSuccess(
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))));
  mlirPassManagerDestroy(pm);
  // prim-cse merged %e into %d, prim-dce removed %unused.
  CHECK(countGraphOps(module) == 5);

  printf("== export\n");
  Buffer text = {{0}, 0};
  CHECK(mlirLogicalResultIsSuccess(
      tsirExportTorchScript(module, appendToBuffer, &text)));
  printf("%s", text.data);
  CHECK(strstr(text.data, "graph(%a : Float(2, 3),") == text.data);
  CHECK(strstr(text.data, "aten::add(%d, %d, %one)") != NULL);
  CHECK(strstr(text.data, "unused") == NULL);

  // What was exported imports again.
  MlirModule again = tsirImportTorchScript(
      ctx, mlirStringRefCreate(text.data, text.length), str("exported.txt"));
  CHECK(!mlirModuleIsNull(again));
  CHECK(countGraphOps(again) == 5);
  mlirModuleDestroy(again);
  mlirModuleDestroy(module);

  printf("== export error\n");
  errorsBefore = log->errors;
  MlirModule empty = mlirModuleCreateEmpty(
      mlirLocationFileLineColGet(ctx, str("empty.mlir"), 1, 1));
  Buffer nothing = {{0}, 0};
  CHECK(mlirLogicalResultIsFailure(
      tsirExportTorchScript(empty, appendToBuffer, &nothing)));
  CHECK(nothing.length == 0);
  CHECK(log->errors == errorsBefore + 1);
  mlirModuleDestroy(empty);
  printf("translation: ok\n");
}

//===----------------------------------------------------------------------===//
// Runtime
//===----------------------------------------------------------------------===//

static void expectError(const char *what, const char *expected) {
  const char *error = tsirRuntimeGetLastError();
  printf("%s error: %s\n", what, error);
  CHECK(strstr(error, expected) != NULL);
}

static void testRunAdd(void) {
  printf("== run add\n");
  TsirExecutor executor = tsirExecutorCreateFromSource(
      str(kGraph), str("add.txt"), (TsirExecutorOptions){NULL});
  CHECK(!tsirExecutorIsNull(executor));
  CHECK(tsirExecutorGetNumInputs(executor) == 2);
  CHECK(mlirStringRefEqual(tsirExecutorGetInputName(executor, 1), str("b")));
  CHECK(mlirStringRefEqual(tsirExecutorGetInputType(executor, 0),
                           str("Float(2, 3)")));

  int64_t sizes[] = {2, 3};
  float a[6] = {1, 2, 3, 4, 5, 6};
  float b[6] = {10, 20, 30, 40, 50, 60};
  TsirValue inputs[2] = {tsirValueCreateTensor(TsirDTypeFloat32, 2, sizes, a),
                         tsirValueCreateTensor(TsirDTypeFloat32, 2, sizes, b)};
  CHECK(!tsirValueIsNull(inputs[0]) && !tsirValueIsNull(inputs[1]));
  // The tensor holds a copy: changing the caller's array changes nothing.
  a[0] = 100;

  for (int run = 0; run < 2; ++run) {
    TsirOutputs outputs = tsirExecutorRun(executor, 2, inputs);
    CHECK(!tsirOutputsIsNull(outputs));
    CHECK(tsirExecutorLastRunCompiled(executor) == (run == 0));
    CHECK(tsirOutputsGetCount(outputs) == 2);
    for (intptr_t i = 0; i < 2; ++i) {
      TsirValue out = tsirOutputsGet(outputs, i);
      CHECK(tsirValueGetKind(out) == TsirValueKindTensor);
      CHECK(tsirValueGetTensorDType(out) == TsirDTypeFloat32);
      CHECK(tsirValueGetTensorRank(out) == 2);
      CHECK(tsirValueGetTensorSizes(out)[0] == 2 &&
            tsirValueGetTensorSizes(out)[1] == 3);
      CHECK(tsirValueGetTensorNumElements(out) == 6);
      const float *data = (const float *)tsirValueGetTensorData(out);
      // f = 2 (a + b) a and c = a + b, with the a the tensor was made from.
      for (int k = 0; k < 6; ++k) {
        float ak = (float)(k + 1), bk = (float)(10 * (k + 1));
        float expected = i == 0 ? 2 * (ak + bk) * ak : ak + bk;
        CHECK(fabsf(data[k] - expected) < 1e-4f);
      }
      if (run == 0 && i == 0)
        printf("out0 = [%g, %g, %g, %g, %g, %g]\n", data[0], data[1], data[2],
               data[3], data[4], data[5]);
    }
    // A borrowed value is not the caller's to destroy.
    tsirValueDestroy(tsirOutputsGet(outputs, 0));
    expectError("destroy borrowed", "borrowed");
    tsirOutputsDestroy(outputs);
  }
  CHECK(tsirExecutorGetNumCachedPlans(executor) == 1);

  // Wrong inputs are errors, never crashes.
  CHECK(tsirOutputsIsNull(tsirExecutorRun(executor, 1, inputs)));
  expectError("count", "the graph takes 2 inputs (%a : Float(2, 3), %b : "
                       "Float(2, 3)) but 1 was given");

  int64_t wrongSizes[] = {3, 2};
  TsirValue wrongShape =
      tsirValueCreateTensor(TsirDTypeFloat32, 2, wrongSizes, NULL);
  TsirValue shaped[2] = {inputs[0], wrongShape};
  CHECK(tsirOutputsIsNull(tsirExecutorRun(executor, 2, shaped)));
  expectError("shape", "input 1 (%b : Float(2, 3)) must be a tensor whose "
                       "dim 0 has size 2");

  TsirValue wrongDType = tsirValueCreateTensor(TsirDTypeInt64, 2, sizes, NULL);
  TsirValue typed[2] = {wrongDType, inputs[1]};
  CHECK(tsirOutputsIsNull(tsirExecutorRun(executor, 2, typed)));
  expectError("dtype", "must be a Float tensor");

  TsirValue scalar = tsirValueCreateInt(3);
  TsirValue kinds[2] = {inputs[0], scalar};
  CHECK(tsirOutputsIsNull(tsirExecutorRun(executor, 2, kinds)));
  expectError("kind", "must be a tensor");

  TsirValue nulls[2] = {inputs[0], {NULL}};
  CHECK(tsirOutputsIsNull(tsirExecutorRun(executor, 2, nulls)));
  expectError("null", "input 1 is a null value");

  // Reading the wrong kind of value is an error too.
  CHECK(tsirValueGetInt(inputs[0]) == 0);
  expectError("accessor", "expected an int, got a value of kind Tensor");
  CHECK(tsirValueGetTensorRank(scalar) == -1);
  expectError("accessor", "expected a Tensor, got a value of kind int");

  int64_t negative[] = {-2};
  CHECK(tsirValueIsNull(
      tsirValueCreateTensor(TsirDTypeFloat32, 1, negative, NULL)));
  printf("negative size error: %s\n", tsirRuntimeGetLastError());
  CHECK(tsirValueIsNull(tsirValueCreateTensor((TsirDType)42, 1, sizes, NULL)));
  expectError("dtype enum", "invalid dtype");

  tsirValueDestroy(scalar);
  tsirValueDestroy(wrongDType);
  tsirValueDestroy(wrongShape);
  tsirValueDestroy(inputs[0]);
  tsirValueDestroy(inputs[1]);
  tsirExecutorDestroy(executor);
}

static void testRunScalars(const char *path) {
  printf("== run scalars\n");
  TsirExecutor executor =
      tsirExecutorCreateFromFile(str(path), (TsirExecutorOptions){NULL});
  CHECK(!tsirExecutorIsNull(executor));
  CHECK(tsirExecutorGetNumInputs(executor) == 4);

  int64_t size = 3;
  float x[3] = {1, 2, 3};
  TsirValue inputs[4] = {tsirValueCreateTensor(TsirDTypeFloat32, 1, &size, x),
                         tsirValueCreateDouble(2.5), tsirValueCreateInt(7),
                         tsirValueCreateBool(true)};
  TsirOutputs outputs = tsirExecutorRun(executor, 4, inputs);
  CHECK(!tsirOutputsIsNull(outputs));
  // (y, m) flattened, then not flag.
  CHECK(tsirOutputsGetCount(outputs) == 3);
  TsirValue y = tsirOutputsGet(outputs, 0);
  const float *data = (const float *)tsirValueGetTensorData(y);
  CHECK(tsirValueGetTensorRank(y) == 1 && tsirValueGetTensorSizes(y)[0] == 3);
  CHECK(data[0] == 2.5f && data[1] == 5.0f && data[2] == 7.5f);
  TsirValue m = tsirOutputsGet(outputs, 1);
  CHECK(tsirValueGetKind(m) == TsirValueKindInt);
  CHECK(tsirValueGetInt(m) == 49);
  TsirValue notFlag = tsirOutputsGet(outputs, 2);
  CHECK(tsirValueGetKind(notFlag) == TsirValueKindBool);
  CHECK(tsirValueGetBool(notFlag) == false);
  CHECK(tsirValueIsNull(tsirOutputsGet(outputs, 3)));
  expectError("out of range", "output 3 of 3");
  printf("scalars: y = [%g, %g, %g], m = %lld, not flag = %d\n", data[0],
         data[1], data[2], (long long)tsirValueGetInt(m),
         (int)tsirValueGetBool(notFlag));
  tsirOutputsDestroy(outputs);

  // A float given for the int input.
  TsirValue wrong = tsirValueCreateDouble(7.0);
  TsirValue swapped[4] = {inputs[0], inputs[1], wrong, inputs[3]};
  CHECK(tsirOutputsIsNull(tsirExecutorRun(executor, 4, swapped)));
  expectError("scalar kind", "must be an int");
  tsirValueDestroy(wrong);

  for (int i = 0; i < 4; ++i)
    tsirValueDestroy(inputs[i]);
  tsirExecutorDestroy(executor);
}

static void testRunWeights(void) {
  printf("== run weights\n");
  const char *graph = "graph(%x : Float(3)):\n"
                      "  %w : Float(3) = prim::Constant[value=<Tensor>]()\n"
                      "  %y : Float(3) = aten::mul(%x, %w)\n"
                      "  return (%y)\n";
  int64_t size = 3;
  float w[3] = {2, 3, 4};
  TsirValue weight = tsirValueCreateTensor(TsirDTypeFloat32, 1, &size, w);
  TsirExecutorOptions options = tsirExecutorOptionsCreate();
  tsirExecutorOptionsSetThreads(options, 2);
  CHECK(mlirLogicalResultIsSuccess(
      tsirExecutorOptionsAddWeight(options, str("w"), weight)));
  TsirValue notTensor = tsirValueCreateInt(1);
  CHECK(mlirLogicalResultIsFailure(
      tsirExecutorOptionsAddWeight(options, str("v"), notTensor)));
  tsirValueDestroy(notTensor);
  TsirExecutor executor =
      tsirExecutorCreateFromSource(str(graph), str("weights.txt"), options);
  // The executor shares the weight's data; both handles may go now.
  tsirExecutorOptionsDestroy(options);
  tsirValueDestroy(weight);
  CHECK(!tsirExecutorIsNull(executor));

  float x[3] = {1, 1, 2};
  TsirValue input = tsirValueCreateTensor(TsirDTypeFloat32, 1, &size, x);
  TsirOutputs outputs = tsirExecutorRun(executor, 1, &input);
  CHECK(!tsirOutputsIsNull(outputs));
  const float *y =
      (const float *)tsirValueGetTensorData(tsirOutputsGet(outputs, 0));
  CHECK(y[0] == 2 && y[1] == 3 && y[2] == 8);
  printf("weights: y = [%g, %g, %g]\n", y[0], y[1], y[2]);
  tsirOutputsDestroy(outputs);
  tsirValueDestroy(input);
  tsirExecutorDestroy(executor);
}

static void testLoadErrors(void) {
  printf("== load errors\n");
  CHECK(tsirExecutorIsNull(tsirExecutorCreateFromSource(
      str("graph(%x : Tensor):\n  return (%y)\n"), str("undefined.txt"),
      (TsirExecutorOptions){NULL})));
  expectError("load", "undefined.txt:2:");
  CHECK(tsirExecutorIsNull(tsirExecutorCreateFromFile(
      str("/nonexistent/graph.txt"), (TsirExecutorOptions){NULL})));
  expectError("file", "cannot read /nonexistent/graph.txt");
  CHECK(tsirExecutorGetNumInputs((TsirExecutor){NULL}) == -1);
  expectError("null executor", "null executor");
  TsirExecutorOptions negative = tsirExecutorOptionsCreate();
  tsirExecutorOptionsSetThreads(negative, -1);
  CHECK(tsirExecutorIsNull(tsirExecutorCreateFromSource(
      str("graph(%x : Tensor):\n  return (%x)\n"), str("threads.txt"),
      negative)));
  tsirExecutorOptionsDestroy(negative);
  expectError("threads", "the thread count must be at least 1 (0 for the "
                         "default), not -1");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <path of Inputs/scalars.txt>\n", argv[0]);
    return 2;
  }

  MlirContext ctx = mlirContextCreate();
  DiagnosticLog log = {0, "", 0, 0};
  mlirContextAttachDiagnosticHandler(ctx, handleDiagnostic, &log, NULL);
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__func__(), ctx);
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__prim__(), ctx);
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__aten__(), ctx);
  MlirDialect prim =
      mlirDialectHandleLoadDialect(mlirGetDialectHandle__prim__(), ctx);
  CHECK(mlirStringRefEqual(mlirDialectGetNamespace(prim), str("prim")));
  CHECK(mlirStringRefEqual(
      mlirDialectHandleGetNamespace(mlirGetDialectHandle__aten__()),
      str("aten")));
  tsirRegisterAllPasses();

  testTypes(ctx, &log);
  testTranslation(ctx, &log);
  mlirContextDestroy(ctx);

  testRunAdd();
  testRunScalars(argv[1]);
  testRunWeights();
  testLoadErrors();
  printf("all ok\n");
  return 0;
}
