// RUN: tsir-opt %s --tsir-cpu-vectorize-windows -split-input-file | FileCheck %s

// A 3x3 depthwise convolution along its flattened rows (as
// tsir-cpu-depthwise-conv-rows writes it, here on buffers): output j reads
// input j + kh*9 + kw. The row of 64 is one step of 64 lanes: its outputs
// are loaded once, the nine taps applied in registers (kh, then kw, as
// the generic orders them), and stored once. No masked step.
// CHECK-LABEL: func.func @depthwise_rows
// CHECK: scf.for %[[N:[a-z0-9_]+]] =
// CHECK: scf.for %[[G:[a-z0-9_]+]] =
// CHECK: scf.for %[[F:[a-z0-9_]+]] =
// CHECK: scf.for %[[J:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   %[[OLD:.*]] = vector.load %arg2[%[[N]], %[[G]], %[[F]], %[[J]]] : memref<1x8x1x64xf32>, vector<64xf32>
// CHECK:   %[[ROWS:.*]] = scf.for %[[KH:[a-z0-9_]+]] = {{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %[[OLD]]) -> (vector<64xf32>) {
// CHECK:     scf.for %[[KW:[a-z0-9_]+]] = {{.*}} iter_args(%[[ACC2:[a-z0-9_]+]] = %[[ACC]]) -> (vector<64xf32>) {
// CHECK:       %[[AT:.*]] = affine.apply #{{.*}}(%[[N]], %[[G]], %[[F]], %[[KH]], %[[KW]], %[[J]])
// CHECK:       %[[X:.*]] = vector.load %arg0[%[[N]], %[[G]], %{{.*}}, %{{.*}}, %[[AT]]] : memref<1x8x1x1x90xf32>, vector<64xf32>
// CHECK:       %[[W:.*]] = memref.load %arg1[%[[G]], %[[F]], %[[KH]], %[[KW]]] : memref<8x1x3x3xf32>
// CHECK:       %[[WS:.*]] = vector.broadcast %[[W]] : f32 to vector<64xf32>
// CHECK:       %[[P:.*]] = arith.mulf %[[X]], %[[WS]] : vector<64xf32>
// CHECK:       %[[S:.*]] = arith.addf %[[ACC2]], %[[P]] : vector<64xf32>
// CHECK:       scf.yield %[[S]]
// CHECK:   vector.store %[[ROWS]], %arg2[%[[N]], %[[G]], %[[F]], %[[J]]] : memref<1x8x1x64xf32>, vector<64xf32>
// CHECK-NOT: vector.masked
// CHECK-NOT: linalg.generic
func.func @depthwise_rows(%x: memref<1x8x1x1x90xf32>, %taps: memref<8x1x3x3xf32>, %out: memref<1x8x1x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, 0, 0, d5 + d3 * 9 + d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d5)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
    ins(%x, %taps : memref<1x8x1x1x90xf32>, memref<8x1x3x3xf32>) outs(%out : memref<1x8x1x64xf32>) {
  ^bb0(%in: f32, %w: f32, %acc: f32):
    %p = arith.mulf %in, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Stride 2: tap (kh, kw) reads phase (kh mod 2, kw mod 2) at
// j + (kh div 2)*6 + kw div 2. A row of 32 is under one step of 64: no
// whole step runs, and the one masked step reads and writes 32 lanes.
// CHECK-LABEL: func.func @phased_rows
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : vector<64xi32>
// CHECK: vector.maskedload %arg2[{{.*}}], %[[MASK]], %{{.*}} : memref<1x8x1x32xf32>, vector<64xi1>, vector<64xf32> into vector<64xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: affine.apply
// CHECK: affine.apply
// CHECK: affine.apply
// CHECK: vector.maskedload %arg0[{{.*}}], %[[MASK]], %{{.*}} : memref<1x8x2x2x42xf32>
// CHECK: vector.maskedstore %arg2[{{.*}}], %[[MASK]], %{{.*}} : memref<1x8x1x32xf32>, vector<64xi1>, vector<64xf32>
func.func @phased_rows(%x: memref<1x8x2x2x42xf32>, %taps: memref<8x1x3x3xf32>, %out: memref<1x8x1x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3 mod 2, d4 mod 2, d5 + (d3 floordiv 2) * 6 + d4 floordiv 2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d5)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
    ins(%x, %taps : memref<1x8x2x2x42xf32>, memref<8x1x3x3xf32>) outs(%out : memref<1x8x1x32xf32>) {
  ^bb0(%in: f32, %w: f32, %acc: f32):
    %p = arith.mulf %in, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A 3x3 max pooling of stride 1 in f64 with the window loops outside the
// output row (tsir-cpu-window-loop-order's order), over rows of dynamic
// length: 32 lanes (64-bit), whole steps and then the masked step, which
// a dynamic row always has. The window operand only sizes the loops: it
// is not read.
// CHECK-LABEL: func.func @max_pool_rows
// CHECK: scf.for %[[OH:[a-z0-9_]+]] =
// CHECK:   scf.for %[[J:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:     vector.load %arg2[%[[OH]], %[[J]]] : memref<?x?xf64>, vector<32xf64>
// CHECK:     scf.for %[[KH:[a-z0-9_]+]] =
// CHECK:       scf.for %[[KW:[a-z0-9_]+]] =
// CHECK:         %[[ROW:.*]] = affine.apply #{{.*}}(%[[OH]], %[[KH]], %[[KW]], %[[J]])
// CHECK:         %[[COL:.*]] = affine.apply #{{.*}}(%[[OH]], %[[KH]], %[[KW]], %[[J]])
// CHECK:         %[[X:.*]] = vector.load %arg0[%[[ROW]], %[[COL]]] : memref<?x?xf64>, vector<32xf64>
// CHECK-NOT:     memref.load
// CHECK:         arith.maximumf %{{.*}}, %[[X]] : vector<32xf64>
// CHECK:     vector.store
// CHECK:   %[[MASK:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : vector<32xi32>
// CHECK:   vector.maskedload %arg2[%[[OH]], %{{.*}}], %[[MASK]]
// CHECK:   vector.maskedload %arg0[{{.*}}], %[[MASK]]
// CHECK:   vector.maskedstore %arg2[%[[OH]], %{{.*}}], %[[MASK]]
func.func @max_pool_rows(%x: memref<?x?xf64>, %window: memref<3x3xf64>, %out: memref<?x?xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0 + d1, d3 + d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
    ins(%x, %window : memref<?x?xf64>, memref<3x3xf64>) outs(%out : memref<?x?xf64>) {
  ^bb0(%in: f64, %unused: f64, %acc: f64):
    %m = arith.maximumf %acc, %in : f64
    linalg.yield %m : f64
  }
  return
}

// -----

// Left alone: a pooling of stride 2 (the row is read at a stride), a row
// of 7 (under 16), a reduction innermost (tsir-cpu-vectorize-reductions'),
// and a body that reads linalg.index.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT: vector.
func.func @left_alone(%x: memref<33x33xf32>, %window: memref<3x3xf32>, %out: memref<16x16xf32>, %small: memref<7x7xf32>, %row: memref<16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0 * 2 + d1, d3 * 2 + d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
    ins(%x, %window : memref<33x33xf32>, memref<3x3xf32>) outs(%out : memref<16x16xf32>) {
  ^bb0(%in: f32, %unused: f32, %acc: f32):
    %m = arith.maximumf %acc, %in : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0 + d1, d3 + d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
    ins(%x, %window : memref<33x33xf32>, memref<3x3xf32>) outs(%small : memref<7x7xf32>) {
  ^bb0(%in: f32, %unused: f32, %acc: f32):
    %m = arith.maximumf %acc, %in : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%out : memref<16x16xf32>) outs(%row : memref<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
    ins(%out : memref<16x16xf32>) outs(%row : memref<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %s = arith.addf %acc, %f : f32
    %t = arith.addf %s, %in : f32
    linalg.yield %t : f32
  }
  return
}
