// tsir-parallelize-loops cuts large linalg ops on buffers into an
// scf.forall of chunks along their outer parallel loops: about one chunk
// per 16K iteration points, 2 to 64 of them, none for ops under 32K points.
// RUN: tsir-opt %s --tsir-parallelize-loops -split-input-file -verify-diagnostics | FileCheck %s
// RUN: tsir-opt %s --tsir-parallelize-loops="min-iterations=1000 max-chunks=8" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=OPT
// RUN: not tsir-opt %s --tsir-parallelize-loops="max-chunks=1" -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: tsir-parallelize-loops: min-iterations and chunk-iterations must be positive and max-chunks at least 2

#id = affine_map<(d0, d1) -> (d0, d1)>
// 1M points: 64 chunks of 16 rows; the chunk's op is the same op on
// subviews.
// CHECK-LABEL: func.func @big_elementwise
// CHECK-SAME: (%[[A:.*]]: memref<1024x1024xf32>, %[[B:.*]]: memref<1024x1024xf32>)
// CHECK: scf.forall (%[[I:.*]]) = (0) to (1024) step (16) {
// CHECK: %[[SA:.*]] = memref.subview %[[A]][%[[I]], 0] [16, 1024] [1, 1]
// CHECK: %[[SB:.*]] = memref.subview %[[B]][%[[I]], 0] [16, 1024] [1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[SA]] : memref<16x1024xf32, strided<[1024, 1], offset: ?>>) outs(%[[SB]] : memref<16x1024xf32, strided<[1024, 1], offset: ?>>)
// CHECK: math.exp
// CHECK-NOT: scf.forall
// CHECK: return
// OPT-LABEL: func.func @big_elementwise
// OPT: scf.forall (%{{.*}}) = (0) to (1024) step (128) {
func.func @big_elementwise(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<1024x1024xf32>) outs(%b : memref<1024x1024xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// 64K points: 4 chunks; the last chunk of an uneven split is shorter.
// CHECK-LABEL: func.func @few_chunks
// CHECK: scf.forall (%[[I:.*]]) = (0) to (65536) step (16384) {
// CHECK-LABEL: func.func @uneven
// CHECK: scf.forall (%[[I:.*]]) = (0) to (100000) step (16667) {
// CHECK: %[[N:.*]] = affine.min #{{.*}}(%[[I]])
// CHECK: memref.subview %{{.*}}[%[[I]]] [%[[N]]] [1]
func.func @few_chunks(%a: memref<65536xf32>) {
  %c = arith.constant 1.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<65536xf32>)
  return
}
func.func @uneven(%a: memref<100000xf32>) {
  %c = arith.constant 1.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<100000xf32>)
  return
}

// -----

// Under 32K points an op stays whole: a fork would cost more than it saves.
// CHECK-LABEL: func.func @small
// CHECK-NOT: scf.forall
// CHECK: linalg.fill
// CHECK-NOT: scf.forall
// CHECK: return
// OPT-LABEL: func.func @small
// OPT: scf.forall (%{{.*}}) = (0) to (100) step (50)
func.func @small(%a: memref<100x100xf32>) {
  %c = arith.constant 1.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<100x100xf32>)
  return
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// Batch 1: the loop of extent 1 is skipped and the channels are cut
// (200704 points: 12 chunks of 6 channels, the last of 4).
// CHECK-LABEL: func.func @batch_one
// CHECK: scf.forall (%[[C:.*]]) = (0) to (64) step (6) {
// CHECK: memref.subview %{{.*}}[0, %[[C]], 0, 0] [1, %{{.*}}, 56, 56] [1, 1, 1, 1]
func.func @batch_one(%a: memref<1x64x56x56xf32>) {
  linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%a : memref<1x64x56x56xf32>) {
  ^bb0(%o: f32):
    %r = arith.maximumf %o, %o : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// An outer loop shorter than the chunk count is cut into single
// iterations and the next loop takes the rest: 98304 points, 6 chunks,
// 3 x 2.
// CHECK-LABEL: func.func @collapse
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (3, 8) step (1, 4) {
// CHECK: memref.subview %{{.*}}[%[[I]], %[[J]], 0] [1, 4, 4096] [1, 1, 1]
func.func @collapse(%a: memref<3x8x4096xf32>) {
  linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%a : memref<3x8x4096xf32>) {
  ^bb0(%o: f32):
    %r = arith.negf %o : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
// Reduction loops are never split: 4 rows of 65536 are 4 chunks of one
// row, each reducing its whole row.
// CHECK-LABEL: func.func @row_sums
// CHECK: scf.forall (%[[I:.*]]) in (4) {
// CHECK: memref.subview %{{.*}}[%[[I]], 0] [1, 65536] [1, 1]
// CHECK: memref.subview %{{.*}}[%[[I]]] [1] [1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-SAME: memref<1x65536xf32
// A reduction to one element has nothing to cut.
// CHECK-LABEL: func.func @total
// CHECK-NOT: scf.forall
// CHECK: linalg.generic
// CHECK-NOT: scf.forall
// CHECK: return
func.func @row_sums(%a: memref<4x65536xf32>, %s: memref<4xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%a : memref<4x65536xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  }
  return
}
#all = affine_map<(d0) -> (d0)>
#none = affine_map<(d0) -> ()>
func.func @total(%a: memref<1048576xf32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [#all, #none], iterator_types = ["reduction"]} ins(%a : memref<1048576xf32>) outs(%s : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A matmul of 256^3 points: 64 chunks of 4 rows, k whole.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.forall (%[[I:.*]]) = (0) to (256) step (4) {
// CHECK: %[[SA:.*]] = memref.subview %{{.*}}[%[[I]], 0] [4, 256] [1, 1]
// CHECK: %[[SC:.*]] = memref.subview %{{.*}}[%[[I]], 0] [4, 256] [1, 1]
// CHECK: linalg.matmul ins(%[[SA]], %{{.*}} : memref<4x256xf32, {{.*}}>, memref<256x256xf32{{.*}}>) outs(%[[SC]]
func.func @matmul(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  linalg.matmul ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
  return
}

// -----

// A dynamic size counts as large: 64 chunks of ceil(n / 64) rows, at
// least one (an empty extent must not make a step of 0).
// CHECK: #[[CEIL:.*]] = affine_map<()[s0] -> (s0 ceildiv 64, 1)>
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[A:.*]]: memref<?x128xf32>)
// CHECK: %[[N:.*]] = memref.dim %[[A]], %{{.*}}
// CHECK: %[[N2:.*]] = memref.dim %[[A]], %{{.*}}
// CHECK: %[[STEP:.*]] = affine.max #[[CEIL]]()[%[[N2]]]
// CHECK: scf.forall (%{{.*}}) = (0) to (%[[N]]) step (%[[STEP]]) {
func.func @dynamic(%a: memref<?x128xf32>) {
  %c = arith.constant 1.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<?x128xf32>)
  return
}

// -----

// Ops inside a parallel loop (another pass's tiles) are left alone, as
// are ops on tensors.
// CHECK-LABEL: func.func @inside_forall
// CHECK: scf.forall (%{{.*}}) in (2) {
// CHECK-NOT: scf.forall
// CHECK: linalg.fill
// CHECK-LABEL: func.func @inside_parallel
// CHECK: scf.parallel
// CHECK-NOT: scf.forall
// CHECK: linalg.fill
// CHECK-LABEL: func.func @on_tensors
// CHECK-NOT: scf.forall
// CHECK: linalg.fill
func.func @inside_forall(%a: memref<2x1048576xf32>) {
  %c = arith.constant 1.0 : f32
  scf.forall (%i) in (2) {
    %row = memref.subview %a[%i, 0] [1, 1048576] [1, 1] : memref<2x1048576xf32> to memref<1048576xf32, strided<[1], offset: ?>>
    linalg.fill ins(%c : f32) outs(%row : memref<1048576xf32, strided<[1], offset: ?>>)
  }
  return
}
func.func @inside_parallel(%a: memref<2x1048576xf32>) {
  %c = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    %row = memref.subview %a[%i, 0] [1, 1048576] [1, 1] : memref<2x1048576xf32> to memref<1048576xf32, strided<[1], offset: ?>>
    linalg.fill ins(%c : f32) outs(%row : memref<1048576xf32, strided<[1], offset: ?>>)
  }
  return
}
func.func @on_tensors(%a: tensor<1048576xf32>) -> tensor<1048576xf32> {
  %c = arith.constant 1.0 : f32
  %r = linalg.fill ins(%c : f32) outs(%a : tensor<1048576xf32>) -> tensor<1048576xf32>
  return %r : tensor<1048576xf32>
}

// -----

// A reversed index (the flipped kernel of a transposed convolution) is
// left whole: linalg's tiling would slice its operand to size 1 in the
// flipped dims (an invalid op, found in ResNet-18's backward).
// CHECK-LABEL: func.func @flipped
// CHECK-NOT: scf.forall
// CHECK: linalg.generic
#flipped = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, -d3 + 2, -d4 + 2)>
#same = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @flipped(%a: memref<1x512x512x3x3xf32>, %b: memref<1x512x512x3x3xf32>) {
  linalg.generic {indexing_maps = [#flipped, #same], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%a : memref<1x512x512x3x3xf32>) outs(%b : memref<1x512x512x3x3xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// A convolution's window index (oh * 2 + kh) grows with both loops, and
// tiling slices it right: the chunks cut the output channels.
// CHECK-LABEL: func.func @strided_window
// CHECK: scf.forall
// CHECK: linalg.conv_2d_nchw_fchw
func.func @strided_window(%in: memref<1x64x57x57xf32>, %w: memref<64x64x3x3xf32>, %out: memref<1x64x28x28xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %w : memref<1x64x57x57xf32>, memref<64x64x3x3xf32>) outs(%out : memref<1x64x28x28xf32>)
  return
}
