//===- Passes.h - tsir's conversions and the lowering pipeline --*- C++ -*-===//
//
// The convert-* and code generation passes (passes/Conversion.td) and the
// populate functions that let other drivers reuse their patterns. The
// pipelines that run them are in tsir/Pipelines/Pipelines.h.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_CONVERSION_PASSES_H
#define TSIR_CONVERSION_PASSES_H

#include "tsir/Dialect/Aten/AtenDialect.h"
#include "tsir/Dialect/Prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tsir {

#define GEN_PASS_DECL
#include "tsir/Conversion/Passes.h.inc"

/// aten tensor ops -> linalg/tensor/arith/math (convert-aten-to-linalg).
void populateAtenToLinalgPatterns(const mlir::TypeConverter &typeConverter,
                                  mlir::RewritePatternSet &patterns);

/// Scalar aten ops and constants -> arith/math (convert-aten-to-arith).
void populateAtenToArithPatterns(const mlir::TypeConverter &typeConverter,
                                 mlir::RewritePatternSet &patterns);

/// Whether `op` is a prim.Generic that convert-aten-to-arith lowers:
/// Python's abs/min/max on two numbers (`prim::min.int`, ...), which have
/// no typed op.
bool isLoweredPrimScalarOp(mlir::Operation *op);

/// prim.If/prim.Loop -> scf (convert-prim-to-scf).
void populatePrimToSCFPatterns(const mlir::TypeConverter &typeConverter,
                               mlir::RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "tsir/Conversion/Passes.h.inc"

} // namespace tsir

#endif // TSIR_CONVERSION_PASSES_H
