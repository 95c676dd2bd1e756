//===- Dialects.cpp - Registering the prim and aten dialects from C -------===//
//
// The dialect handles of tsir-c/Dialects.h.
//
//===----------------------------------------------------------------------===//

#include "tsir-c/Dialects.h"

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"
#include "tsir/InitAll.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Prim, prim, tsir::prim::PrimDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Aten, aten, tsir::aten::AtenDialect)

void tsirRegisterAllDialects(MlirDialectRegistry registry) {
  tsir::registerAllDialects(*unwrap(registry));
}
