//===- BuiltinKernels.cpp - Registering every builtin kernel --------------===//
//
// registerBuiltinKernels, called by KernelRegistry::global() on first use.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"
#include "tsir-runtime/KernelRegistry.h"

namespace tsir::rt {

void registerBuiltinKernels(KernelRegistry &registry) {
  registerListKernels(registry);
  registerTensorKernels(registry);
  registerDictKernels(registry);
  registerPrintKernels(registry);
  registerExceptionKernels(registry);
  registerLinalgKernels(registry);
  registerSelectionKernels(registry);
  registerScatterReduceKernels(registry);
  registerGatherKernels(registry);
  registerOrderStatisticKernels(registry);
  registerResizeKernels(registry);
  registerScanKernels(registry);
  registerCombinatoricKernels(registry);
  registerSpecialKernels(registry);
  registerFourierKernels(registry);
  registerStridedViewKernels(registry);
  registerSpectrogramKernels(registry);
  registerWindowKernels(registry);
  registerFiniteDifferenceKernels(registry);
  registerFractionalPoolKernels(registry);
  registerFoldKernels(registry);
  registerBitwiseKernels(registry);
  registerGridSampleKernels(registry);
  registerCtcLossKernels(registry);
  registerScalarKernels(registry);
  registerViewKernels(registry);
  registerConcatKernels(registry);
}

} // namespace tsir::rt
