// RUN: tsir-opt %s --tsir-cpu-window-loop-order -split-input-file | FileCheck %s

// Max pooling: the window loops (kh, kw) move outside ow, so the innermost
// loop walks a row of the output. Loops before: n, c, oh, ow, kh, kw.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d3, d5 * 2 + d4)>
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d5)>
// CHECK-LABEL: func.func @max_pool
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[WIN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
// CHECK: arith.maximumf
func.func @max_pool(%input: tensor<1x8x16x16xf32>, %init: tensor<1x8x7x7xf32>) -> tensor<1x8x7x7xf32> {
  %window = tensor.empty() : tensor<3x3xf32>
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%input, %window : tensor<1x8x16x16xf32>, tensor<3x3xf32>)
    outs(%init : tensor<1x8x7x7xf32>) -> tensor<1x8x7x7xf32>
  return %0 : tensor<1x8x7x7xf32>
}

// -----

// A depthwise convolution (grouped, one channel per group): loops n, g, f,
// oh, ow, c, kh, kw become n, g, f, oh, c, kh, kw, ow.
// CHECK-LABEL: func.func @depthwise
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel"]
func.func @depthwise(%input: tensor<1x4x1x10x10xf32>, %weight: tensor<4x1x1x3x3xf32>,
                     %init: tensor<1x4x1x8x8xf32>) -> tensor<1x4x1x8x8xf32> {
  %0 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%input, %weight : tensor<1x4x1x10x10xf32>, tensor<4x1x1x3x3xf32>)
    outs(%init : tensor<1x4x1x8x8xf32>) -> tensor<1x4x1x8x8xf32>
  return %0 : tensor<1x4x1x8x8xf32>
}

// -----

// A row sum has no window: its rows stay innermost. A matmul is a
// contraction (the GEMM kernels' business): also untouched.
// CHECK-LABEL: func.func @kept
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: linalg.matmul
func.func @kept(%x: tensor<4x8xf32>, %init: tensor<4xf32>, %a: tensor<4x8xf32>, %b: tensor<8x4xf32>,
                %c: tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4x4xf32>) {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4x4xf32>
}

// -----

// A global average pooling (squeeze-excitation's: the window is the whole
// 28x28 input, so oh = ow = 0) is a plain reduction: the input reads
// (kh, kw) and the window stays innermost, for the reduction loops. The
// output keeps oh and ow, which size their loops.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5)>
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @global_pool
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[WIN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: arith.addf
func.func @global_pool(%input: tensor<1x24x28x28xf32>, %init: tensor<1x24x1x1xf32>) -> tensor<1x24x1x1xf32> {
  %window = tensor.empty() : tensor<28x28xf32>
  %0 = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<28> : tensor<2xi64>}
    ins(%input, %window : tensor<1x24x28x28xf32>, tensor<28x28xf32>)
    outs(%init : tensor<1x24x1x1xf32>) -> tensor<1x24x1x1xf32>
  return %0 : tensor<1x24x1x1xf32>
}

// -----

// One window dim global (oh: the 7 rows are the whole height), the other
// sliding (ow, 3 wide at stride 1): still a window, reordered.
// CHECK-LABEL: func.func @half_global
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]
func.func @half_global(%input: tensor<1x8x7x20xf32>, %init: tensor<1x8x1x18xf32>) -> tensor<1x8x1x18xf32> {
  %window = tensor.empty() : tensor<7x3xf32>
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%input, %window : tensor<1x8x7x20xf32>, tensor<7x3xf32>)
    outs(%init : tensor<1x8x1x18xf32>) -> tensor<1x8x1x18xf32>
  return %0 : tensor<1x8x1x18xf32>
}
