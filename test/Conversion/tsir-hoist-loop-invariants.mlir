// tsir-hoist-loop-invariants moves what a loop computes from values from
// outside it before the loop, with two rules for tensors: an empty tensor
// moves only as the destination of an op that moves, and an op that a
// destination-style op in the loop writes into stays.
// RUN: tsir-opt %s --tsir-hoist-loop-invariants -split-input-file | FileCheck %s

// A transpose of a weight moves, with its own copy of the empty tensor it
// writes into; the loop's other user of that empty keeps the original.
// CHECK-LABEL: func.func @transpose_moves
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%{{.*}} : tensor<16x4xf32>) outs(%[[E]] : tensor<4x16xf32>)
// CHECK: scf.for
// CHECK: %[[INNER:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK: linalg.generic {{.*}} ins(%[[T]], %{{.*}} : tensor<4x16xf32>, tensor<4x16xf32>) outs(%[[INNER]] : tensor<4x16xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @transpose_moves(%w: tensor<16x4xf32>, %x: tensor<4x16xf32>, %n: index) -> tensor<4x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<4x16xf32>) {
    %e = tensor.empty() : tensor<4x16xf32>
    %t = linalg.transpose ins(%w : tensor<16x4xf32>) outs(%e : tensor<4x16xf32>) permutation = [1, 0]
    %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%t, %acc : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.addf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<4x16xf32>
    scf.yield %s : tensor<4x16xf32>
  }
  return %r : tensor<4x16xf32>
}

// -----

// z = z * z: nothing is invariant, and the empty tensor stays in the loop
// (before it, bufferization would copy it every iteration).
// CHECK-LABEL: func.func @empty_stays
// CHECK: scf.for
// CHECK: tensor.empty
// CHECK: linalg.generic
#id1 = affine_map<(d0) -> (d0)>
func.func @empty_stays(%z: tensor<128xf32>, %n: index) -> tensor<128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128xf32>) {
    %e = tensor.empty() : tensor<128xf32>
    %sq = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%acc : tensor<128xf32>) outs(%e : tensor<128xf32>) {
    ^bb0(%x: f32, %o: f32):
      %m = arith.mulf %x, %x : f32
      linalg.yield %m : f32
    } -> tensor<128xf32>
    scf.yield %sq : tensor<128xf32>
  }
  return %r : tensor<128xf32>
}

// -----

// The zeros a product accumulates into stay: the product writes into them.
// CHECK-LABEL: func.func @accumulator_stays
// CHECK: scf.for
// CHECK: linalg.fill
// CHECK: linalg.matmul
func.func @accumulator_stays(%a: tensor<1x8xf32>, %b: tensor<8x8xf32>, %n: index) -> tensor<1x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<1x8xf32>) {
    %e = tensor.empty() : tensor<1x8xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
    %p = linalg.matmul ins(%acc, %b : tensor<1x8xf32>, tensor<8x8xf32>) outs(%z : tensor<1x8xf32>) -> tensor<1x8xf32>
    scf.yield %p : tensor<1x8xf32>
  }
  return %r : tensor<1x8xf32>
}

// -----

// An integer division may trap: it stays in a loop that may not run. The
// multiplication moves.
// CHECK-LABEL: func.func @division_stays
// CHECK: arith.muli
// CHECK: scf.for
// CHECK: arith.divsi
func.func @division_stays(%a: i64, %b: i64, %n: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (i64) {
    %q = arith.divsi %a, %b : i64
    %m = arith.muli %a, %b : i64
    %s = arith.addi %q, %m : i64
    %t = arith.addi %acc, %s : i64
    scf.yield %t : i64
  }
  return %r : i64
}
