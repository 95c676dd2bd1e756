//===- tsir-c/Support.h - Visibility macro of tsir's C API --------*- C -*-===//
//
// TSIR_CAPI_EXPORTED marks what libTsirCAPI.so exports. The library is built
// with hidden visibility, so C programs see only what is marked; the macro
// mirrors MLIR_CAPI_EXPORTED.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_C_SUPPORT_H
#define TSIR_C_SUPPORT_H

#include "mlir-c/Support.h"

#if defined(_WIN32) || defined(__CYGWIN__)
// The library is only built for ELF platforms today: no dllexport dance.
#define TSIR_CAPI_EXPORTED
#else
#define TSIR_CAPI_EXPORTED __attribute__((visibility("default")))
#endif

#endif // TSIR_C_SUPPORT_H
