//===- Passes.h - tsir's conversions and the lowering pipeline --*- C++ -*-===//
//
// The convert-* passes (passes/Conversion.td), the populate functions that
// let other drivers reuse their patterns, and tsir-lower-to-llvm.
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
#include "mlir/Pass/PassOptions.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tsir {

#define GEN_PASS_DECL
#include "TsirConversion.h.inc"

/// aten tensor ops -> linalg/tensor/arith/math (convert-aten-to-linalg).
void populateAtenToLinalgPatterns(const mlir::TypeConverter &typeConverter,
                                  mlir::RewritePatternSet &patterns);

/// Scalar aten ops and constants -> arith/math (convert-aten-to-arith).
void populateAtenToArithPatterns(const mlir::TypeConverter &typeConverter,
                                 mlir::RewritePatternSet &patterns);

/// prim.If/prim.Loop -> scf (convert-prim-to-scf).
void populatePrimToSCFPatterns(const mlir::TypeConverter &typeConverter,
                               mlir::RewritePatternSet &patterns);

/// The choices of the CPU lowering pipeline, in one place.
struct LowerToLLVMOptions
    : public mlir::PassPipelineOptions<LowerToLLVMOptions> {
  Option<bool> vectorize{*this, "vectorize",
                         llvm::cl::desc("vectorize the hot loops"),
                         llvm::cl::init(true)};
  Option<bool> deallocate{
      *this, "deallocate",
      llvm::cl::desc("insert deallocations (buffer-deallocation-pipeline)"),
      llvm::cl::init(true)};
};

/// From value-semantics prim/aten to linalg on tensors: value semantics,
/// the conversions, finalization.
void buildLowerToLinalgPipeline(mlir::OpPassManager &pm);

/// From linalg on tensors to the LLVM dialect: bufferization with
/// deallocation, vectorization, and the conversions to LLVM.
void buildLinalgToLLVMPipeline(mlir::OpPassManager &pm,
                               const LowerToLLVMOptions &options);

/// Both of the above: tsir-lower-to-llvm.
void buildLowerToLLVMPipeline(mlir::OpPassManager &pm,
                              const LowerToLLVMOptions &options);

void registerLoweringPipelines();

#define GEN_PASS_REGISTRATION
#include "TsirConversion.h.inc"

} // namespace tsir

#endif // TSIR_CONVERSION_PASSES_H
