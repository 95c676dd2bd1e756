//===- ConfiguredPattern.h - one pattern class for several ops --*- C++ -*-===//
//
// Many conversion patterns serve a family of ops that differ in one value
// chosen when the pattern is registered: which comparison, max or min, log
// or not. ConfiguredPattern holds that value, so each such pattern states
// only its rewrite. Private to passes/conversion.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_CONVERSION_COMMON_CONFIGUREDPATTERN_H
#define TSIR_PASSES_CONVERSION_COMMON_CONFIGUREDPATTERN_H

#include "mlir/Transforms/DialectConversion.h"

namespace tsir::conversion {

/// A conversion pattern for `OpTy` told at registration which member of its
/// family it converts: `patterns.add<P<aten::MaxDimOp>>(converter, ctx,
/// /*isMax=*/true)`. The rewrite reads the value as `this->config`.
template <typename OpTy, typename Config>
class ConfiguredPattern : public mlir::OpConversionPattern<OpTy> {
public:
  ConfiguredPattern(const mlir::TypeConverter &typeConverter,
                    mlir::MLIRContext *context, Config config)
      : mlir::OpConversionPattern<OpTy>(typeConverter, context),
        config(config) {}

protected:
  Config config;
};

} // namespace tsir::conversion

#endif // TSIR_PASSES_CONVERSION_COMMON_CONFIGUREDPATTERN_H
