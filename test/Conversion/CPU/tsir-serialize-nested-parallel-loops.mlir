// Only the outermost parallel loops stay parallel: every scf.parallel
// inside another, at any depth, becomes scf.for loops, so that
// convert-scf-to-openmp forks one team per outermost loop.
// RUN: tsir-opt %s --tsir-serialize-nested-parallel-loops -split-input-file -verify-diagnostics | FileCheck %s
// RUN: tsir-opt %s --tsir-serialize-nested-parallel-loops -split-input-file -verify-diagnostics --convert-scf-to-openmp | FileCheck %s --check-prefix=OMP

// CHECK-LABEL: func.func @nested
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK-NOT: scf.parallel
// CHECK: scf.for %[[J:.*]] =
// CHECK: scf.for %[[K:.*]] =
// CHECK: scf.for %[[L:.*]] =
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]], %[[K]], %[[L]]]
// CHECK-NOT: scf.parallel
// A second outermost loop stays parallel.
// CHECK: scf.parallel
// CHECK: return
// OMP-LABEL: func.func @nested
// OMP-COUNT-1: omp.parallel
// OMP-NOT: omp.parallel
// OMP: scf.for
// OMP: omp.parallel
// OMP-NOT: omp.parallel
// OMP: return
func.func @nested(%a: memref<4x8x8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.parallel (%j, %k) = (%c0, %c0) to (%c8, %c8) step (%c1, %c1) {
      scf.for %l = %c0 to %c8 step %c1 {
        memref.store %f, %a[%i, %j, %k, %l] : memref<4x8x8x8xf32>
      }
    }
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %f, %a[%i, %c0, %c0, %c0] : memref<4x8x8x8xf32>
  }
  return
}

// -----

// A nested loop with reductions cannot be made sequential this way.
func.func @reduction(%a: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    // expected-error @+1 {{a nested parallel loop with scf.reduce results cannot be made sequential}}
    %s = scf.parallel (%j) = (%c0) to (%c8) step (%c1) init (%zero) -> f32 {
      %x = memref.load %a[%i, %j] : memref<4x8xf32>
      scf.reduce(%x : f32) {
      ^bb0(%l: f32, %r: f32):
        %t = arith.addf %l, %r : f32
        scf.reduce.return %t : f32
      }
    }
    memref.store %s, %a[%i, %c0] : memref<4x8xf32>
  }
  return
}
