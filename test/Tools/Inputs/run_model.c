/*===- run_model.c - A C program running a compiled model ------------------===*
 *
 * Uses nothing of tsir but the header tsir_model.h: dlopens the model.so
 * given as argv[1], runs it on a = [0, 1, 2, 3, 4, 5] (Float(2, 3)) and
 * n = 2, prints the output, then passes a wrong shape and prints the error.
 * tsir-compile-c-abi.test compiles and runs it.
 *
 *===----------------------------------------------------------------------===*/

#include "tsir-runtime/tsir_model.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* `name` of the model as the pointer `name_`, typed by the header. */
#define LOOKUP(name)                                                           \
  __typeof__(name) *name##_ = (__typeof__(name) *)dlsym(model, #name);         \
  if (!name##_) {                                                              \
    printf("missing %s\n", #name);                                             \
    return 1;                                                                  \
  }

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  void *model = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!model) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  LOOKUP(tsir_model_abi_version)
  LOOKUP(tsir_model_signature)
  LOOKUP(tsir_model_num_inputs)
  LOOKUP(tsir_model_num_outputs)
  LOOKUP(tsir_model_run)
  LOOKUP(tsir_model_error)
  LOOKUP(tsir_model_free)
  printf("abi %u, %lld inputs, %lld outputs\n", tsir_model_abi_version_(),
         (long long)tsir_model_num_inputs_(),
         (long long)tsir_model_num_outputs_());
  printf("signature %s\n", tsir_model_signature_());

  float a[6] = {0, 1, 2, 3, 4, 5};
  tsir_value inputs[2];
  memset(inputs, 0, sizeof inputs);
  inputs[0].kind = TSIR_VALUE_TENSOR;
  inputs[0].dtype = 6; /* Float */
  inputs[0].rank = 2;
  inputs[0].sizes[0] = 2;
  inputs[0].sizes[1] = 3;
  inputs[0].data = a;
  inputs[1].kind = TSIR_VALUE_INT;
  inputs[1].int_value = 2;
  tsir_value outputs[1];
  int64_t count = tsir_model_run_(inputs, 2, outputs, 1);
  if (count != 1) {
    printf("run failed: %s\n", tsir_model_error_());
    return 1;
  }
  const float *y = (const float *)outputs[0].data;
  printf("output rank %d sizes %lld %lld:", outputs[0].rank,
         (long long)outputs[0].sizes[0], (long long)outputs[0].sizes[1]);
  for (int i = 0; i < 6; ++i)
    printf(" %g", y[i]);
  printf("\n");
  tsir_model_free_(&outputs[0]);

  inputs[0].sizes[1] = 4;
  count = tsir_model_run_(inputs, 2, outputs, 1);
  printf("wrong shape: %lld, %s\n", (long long)count, tsir_model_error_());
  count = tsir_model_run_(inputs, 1, outputs, 1);
  printf("wrong count: %lld, %s\n", (long long)count, tsir_model_error_());
  dlclose(model);
  return 0;
}
