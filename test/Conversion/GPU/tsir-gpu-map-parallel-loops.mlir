// RUN: tsir-opt %s --tsir-gpu-map-parallel-loops -split-input-file -verify-diagnostics | FileCheck %s
// RUN: tsir-opt %s --tsir-gpu-map-parallel-loops="block-size=128" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=B128
// RUN: tsir-opt %s --tsir-gpu-map-parallel-loops -split-input-file -verify-diagnostics --convert-parallel-loops-to-gpu | FileCheck %s --check-prefix=LAUNCH

// A 2-d loop nest is flattened and cut into blocks of 256 threads, with a
// guard for the last block; its grid has at least one block.
// CHECK-LABEL: func.func @nest
// CHECK-SAME: (%[[A:.*]]: memref<?x300xf32>, %[[ROWS:.*]]: index)
// CHECK: arith.muli %{{.*}}, %[[ROWS]]
// CHECK: %[[N:.*]] = arith.muli
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: %[[STEP:.*]] = arith.muli %{{.*}}, %[[C256]]
// CHECK: %[[UB:.*]] = arith.maxsi %[[N]], %{{.*}} : index
// CHECK: scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%[[UB]]) step (%[[STEP]])
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[STEP]])
// CHECK: arith.cmpi ult, %{{.*}}, %[[N]]
// CHECK: scf.if
// CHECK: arith.remsi
// CHECK: arith.divsi
// CHECK: memref.store
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x
// B128-LABEL: func.func @nest
// B128: %[[C128:.*]] = arith.constant 128 : index
// B128: %[[STEP:.*]] = arith.muli %{{.*}}, %[[C128]]
// B128: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[STEP]])
// LAUNCH-LABEL: func.func @nest
// LAUNCH-NOT: scf.parallel
// LAUNCH: gpu.launch blocks
// LAUNCH-NOT: scf.parallel
// LAUNCH: memref.store
// LAUNCH: gpu.terminator
func.func @nest(%a: memref<?x300xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c300 = arith.constant 300 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c300) step (%c1, %c1) {
    memref.store %f, %a[%i, %j] : memref<?x300xf32>
  }
  return
}

// -----

// A reduction dimension stays a serial loop in its thread; a nested
// parallel loop runs sequentially there.
// CHECK-LABEL: func.func @rows
// CHECK: scf.for
// CHECK: scf.parallel
// CHECK: mapping = [#gpu.loop_dim_map<processor = sequential
// CHECK: mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: mapping = [#gpu.loop_dim_map<processor = block_x
func.func @rows(%a: memref<8x16xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    scf.for %k = %c0 to %c16 step %c1 {
      %x = memref.load %a[%i, %k] : memref<8x16xf32>
      %acc = memref.load %out[%i] : memref<8xf32>
      %s = arith.addf %x, %acc : f32
      memref.store %s, %out[%i] : memref<8xf32>
    }
    scf.parallel (%k) = (%c0) to (%c16) step (%c1) {
      %x = memref.load %a[%i, %k] : memref<8x16xf32>
      memref.store %x, %a[%i, %k] : memref<8x16xf32>
    }
  }
  return
}

// -----

// Host code must not read device memory: tsir-gpu-place-buffers turns
// such reads into kernels, and a read it missed is an error, not a crash
// at run time.
func.func @host_read() -> f32 {
  %c0 = arith.constant 0 : index
  %d = gpu.alloc () : memref<4xf32>
  // expected-error @+1 {{the host accesses a device buffer here}}
  %x = memref.load %d[%c0] : memref<4xf32>
  return %x : f32
}
