// The CPU pipeline's vector-width sizes the GEMM kernels' register tiles
// for the target (tsir-run and tsir-compile set it from the CPU,
// lib/compiler/TargetCPU.cpp): 16 f32 lanes, AVX-512's 32 registers, holds
// 8 x 2 vectors of C, 16 accumulators; 8 lanes, AVX2's 16 registers, holds
// 6 x 2, 12 accumulators beside B's two vectors and A's broadcast. Each k
// step of the broadcast kernel is one block of those multiply-adds.
// RUN: tsir-opt %s --tsir-lower-to-llvm="parallel=false" | FileCheck %s --check-prefix=W16
// RUN: tsir-opt %s --tsir-lower-to-llvm="parallel=false vector-width=8" | FileCheck %s --check-prefix=W8

// W16-LABEL: llvm.func @tsir_cpu_kernel(
// W16-COUNT-16: llvm.intr.fmuladd({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// W16-NOT: llvm.intr.fmuladd
// W16: llvm.br

// W8-LABEL: llvm.func @tsir_cpu_kernel(
// W8-NOT: vector<16xf32>
// W8-COUNT-12: llvm.intr.fmuladd({{.*}}) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// W8-NOT: llvm.intr.fmuladd
// W8: llvm.br
func.func @graph(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
