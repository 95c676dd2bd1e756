// RUN: tsir-opt %s --tsir-fuse-elementwise -split-input-file | FileCheck %s

#id = affine_map<(i, j) -> (i, j)>

// A chain of pointwise ops becomes one loop nest.
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A ReLU before a matrix product stays its own op: fused, it would run once
// per column of the product, and the product would no longer be a plain
// multiply-add for the GEMM kernels.
// CHECK-LABEL: func.func @before_product
// CHECK: %[[RELU:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: arith.maximumf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[RELU]], %arg1
// CHECK-NOT: arith.maximumf
func.func @before_product(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                                        affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%relu, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A plain reduction reads each element once: its producer fuses.
// CHECK-LABEL: func.func @before_reduction
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
func.func @before_reduction(%a: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
    ins(%sq : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>

// A linear layer over [1, H, W, C] (ConvNeXt's), lowered as one product
// of H*W rows: the reshape of its result back to [1, H, W, C'] is not
// folded into the product by expanding its loops, which would leave the
// GEMM kernels one spatial row as m. The GELU after it still reads the
// expanded result.
// CHECK-LABEL: func.func @product_keeps_rows
// CHECK: %[[P:.*]] = linalg.matmul {{.*}} ins(%{{.*}}, %arg1 : tensor<12x8xf32>, tensor<16x8xf32>) outs(%{{.*}} : tensor<12x16xf32>)
// CHECK: tensor.expand_shape %[[P]] {{\[}}[0, 1, 2], [3]] output_shape [1, 3, 4, 16]
// CHECK: math.erf
func.func @product_keeps_rows(%x: tensor<1x3x4x8xf32>, %w: tensor<16x8xf32>, %c: tensor<12x16xf32>) -> tensor<1x3x4x16xf32> {
  %rows = tensor.collapse_shape %x [[0, 1, 2], [3]] : tensor<1x3x4x8xf32> into tensor<12x8xf32>
  %p = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
    ins(%rows, %w : tensor<12x8xf32>, tensor<16x8xf32>) outs(%c : tensor<12x16xf32>) -> tensor<12x16xf32>
  %back = tensor.expand_shape %p [[0, 1, 2], [3]] output_shape [1, 3, 4, 16] : tensor<12x16xf32> into tensor<1x3x4x16xf32>
  %e = tensor.empty() : tensor<1x3x4x16xf32>
  %g = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%back : tensor<1x3x4x16xf32>) outs(%e : tensor<1x3x4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.erf %v : f32
    linalg.yield %r : f32
  } -> tensor<1x3x4x16xf32>
  return %g : tensor<1x3x4x16xf32>
}
