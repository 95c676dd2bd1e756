// RUN: tsir-opt --tsir-outline-loop-nests --split-input-file %s | FileCheck %s

// Two identical nests share one function; constants (bounds, the fill
// value) are cloned in, buffers and dynamic sizes become arguments.
// CHECK-LABEL: func.func @graph
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<4x8xf32>, %[[N:.*]]: index)
// CHECK: call @[[NEST:tsir_loop_nest[_0-9]*]](%[[A]])
// CHECK-NEXT: call @[[NEST]](%[[B]])
// CHECK-NEXT: %[[SUM:.*]] = call @[[REDUCE:tsir_loop_nest[_0-9]*]](%[[A]], %[[N]])
// CHECK-NEXT: return %[[SUM]]
// CHECK: func.func private @[[NEST]](%{{.*}}: memref<4x8xf32>) attributes {passthrough = ["noinline"]}
// CHECK-DAG: arith.constant 4 : index
// CHECK-DAG: arith.constant 1.000000e+00 : f32
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store
// CHECK-NOT: func.func private @tsir_loop_nest
// CHECK: func.func private @[[REDUCE]](%{{.*}}: memref<4x8xf32>, %{{.*}}: index) -> f32
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args
// CHECK: return %[[R]] : f32
func.func @graph(%a: memref<4x8xf32>, %b: memref<4x8xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      memref.store %one, %a[%i, %j] : memref<4x8xf32>
    }
  }
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      memref.store %one, %b[%i, %j] : memref<4x8xf32>
    }
  }
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %x = memref.load %a[%c0, %i] : memref<4x8xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  return %sum : f32
}

// -----

// A parallel loop (an OpenMP region once lowered) is outlined whole, the
// loops inside it with it, and identical ones share a function: the
// repeated blocks of a network compile one parallel region. Loops in
// private functions (GEMM kernels) stay where they are.
// CHECK-LABEL: func.func @graph
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<4x8xf32>)
// CHECK: call @[[REGION:tsir_loop_nest[_0-9]*]](%[[A]])
// CHECK-NEXT: call @[[REGION]](%[[B]])
// CHECK-NEXT: call @kernel(%[[A]])
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @kernel
// CHECK-NOT: call
// CHECK: scf.for
// CHECK: func.func private @[[REGION]](%{{.*}}: memref<4x8xf32>) attributes {passthrough = ["noinline"]}
// CHECK: scf.forall
// CHECK: scf.for
// CHECK-NOT: func.func private @tsir_loop_nest
func.func @graph(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  scf.forall (%i) in (4) {
    scf.for %j = %c0 to %c8 step %c1 {
      memref.store %one, %a[%i, %j] : memref<4x8xf32>
    }
  }
  scf.forall (%i) in (4) {
    scf.for %j = %c0 to %c8 step %c1 {
      memref.store %one, %b[%i, %j] : memref<4x8xf32>
    }
  }
  func.call @kernel(%a) : (memref<4x8xf32>) -> ()
  return
}
func.func private @kernel(%a: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  scf.for %j = %c0 to %c8 step %c1 {
    memref.store %one, %a[%c0, %j] : memref<4x8xf32>
  }
  return
}
