//===- Builtins.h - Registration of the builtin kernel families -*- C++ -*-===//
//
// Private to the runtime: one registration function per file of builtin
// kernels; registerBuiltinKernels calls them all.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_RUNTIME_LIB_KERNELS_BUILTINS_H
#define TSIR_RUNTIME_LIB_KERNELS_BUILTINS_H

namespace tsir::rt {
class KernelRegistry;

void registerListKernels(KernelRegistry &registry);
void registerTensorKernels(KernelRegistry &registry);
void registerDictKernels(KernelRegistry &registry);
void registerPrintKernels(KernelRegistry &registry);
void registerExceptionKernels(KernelRegistry &registry);
void registerLinalgKernels(KernelRegistry &registry);
void registerSelectionKernels(KernelRegistry &registry);
void registerScatterReduceKernels(KernelRegistry &registry);
void registerGatherKernels(KernelRegistry &registry);
void registerOrderStatisticKernels(KernelRegistry &registry);
void registerResizeKernels(KernelRegistry &registry);
void registerScanKernels(KernelRegistry &registry);
void registerCombinatoricKernels(KernelRegistry &registry);
void registerSpecialKernels(KernelRegistry &registry);
void registerFourierKernels(KernelRegistry &registry);
void registerStridedViewKernels(KernelRegistry &registry);
void registerSpectrogramKernels(KernelRegistry &registry);
void registerWindowKernels(KernelRegistry &registry);
void registerFiniteDifferenceKernels(KernelRegistry &registry);
void registerFractionalPoolKernels(KernelRegistry &registry);
void registerFoldKernels(KernelRegistry &registry);
void registerBitwiseKernels(KernelRegistry &registry);
void registerGridSampleKernels(KernelRegistry &registry);
void registerCtcLossKernels(KernelRegistry &registry);
void registerScalarKernels(KernelRegistry &registry);
void registerViewKernels(KernelRegistry &registry);
void registerConcatKernels(KernelRegistry &registry);
} // namespace tsir::rt

#endif // TSIR_RUNTIME_LIB_KERNELS_BUILTINS_H
