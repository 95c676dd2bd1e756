// RUN: tsir-opt %s --tsir-cpu-depthwise-conv-rows -split-input-file | FileCheck %s

// A 3x3 depthwise convolution of stride 1 on a 9x9 padded input (7x7
// output): output j = oh*9 + ow reads input j + kh*9 + kw. The wide rows
// run to 64 (63 rounded up to the vector); j = 63 reads up to 63 + 20, so
// the input gains one zero row (the convolution's own padding and that row
// are one pad). The bias broadcast is built again at the wide shape; the
// result is the first 7 of each row of 9.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, 0, 0, d5 + d3 * 9 + d4)>
// CHECK-DAG: #[[TAPS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d3, d4)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d5)>
// CHECK-LABEL: func.func @stride1
// CHECK: %[[PAD:.*]] = tensor.pad %arg0 low[0, 0, 0, 1, 1] high[0, 0, 0, 2, 1]
// CHECK: tensor<1x8x1x7x7xf32> to tensor<1x8x1x10x9xf32>
// CHECK: %[[PHASES:.*]] = tensor.expand_shape %[[PAD]] {{\[}}[0], [1], [2, 3], [4], [5]] {{.*}} into tensor<1x8x1x1x10x9xf32>
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[PHASES]] {{.*}} into tensor<1x8x1x1x90xf32>
// CHECK: %[[BIAS:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<8xf32>) outs(%{{.*}} : tensor<1x8x1x64xf32>)
// CHECK: %[[WIDE:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[TAPS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]} ins(%[[FLAT]], %{{.*}} : tensor<1x8x1x1x90xf32>, tensor<8x1x3x3xf32>) outs(%[[BIAS]] : tensor<1x8x1x64xf32>)
// CHECK: %[[ROWS:.*]] = tensor.extract_slice %[[WIDE]][0, 0, 0, 0] [1, 8, 1, 63]
// CHECK: %[[GRID:.*]] = tensor.expand_shape %[[ROWS]] {{.*}} into tensor<1x8x1x7x9xf32>
// CHECK: tensor.extract_slice %[[GRID]][0, 0, 0, 0, 0] [1, 8, 1, 7, 7]
// CHECK-NOT: linalg.conv_2d
#bias = affine_map<(d0, d1, d2, d3, d4) -> (d1)>
#id = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @stride1(%x: tensor<1x8x1x7x7xf32>, %weight: tensor<8x1x1x3x3xf32>,
                   %b: tensor<8xf32>) -> tensor<1x8x1x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %input = tensor.pad %x low[0, 0, 0, 1, 1] high[0, 0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index, %i4: index):
    tensor.yield %zero : f32
  } : tensor<1x8x1x7x7xf32> to tensor<1x8x1x9x9xf32>
  %empty = tensor.empty() : tensor<1x8x1x7x7xf32>
  %init = linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
    ins(%b : tensor<8xf32>) outs(%empty : tensor<1x8x1x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x1x7x7xf32>
  %0 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%input, %weight : tensor<1x8x1x9x9xf32>, tensor<8x1x1x3x3xf32>)
    outs(%init : tensor<1x8x1x7x7xf32>) -> tensor<1x8x1x7x7xf32>
  return %0 : tensor<1x8x1x7x7xf32>
}

// -----

// Stride 2 on an 11x11 input (5x5 output): the input is split into 2x2
// phases of 6 columns, and tap (kh, kw) reads phase (kh mod 2, kw mod 2)
// at j + (kh div 2)*6 + kw div 2. An initial value that is not a
// broadcast is padded to the wide rows.
// CHECK-DAG: #[[SPLIT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, 0, d4 * 2 + d2, d5 * 2 + d3)>
// CHECK-DAG: #[[PHASED:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3 mod 2, d4 mod 2, d5 + (d3 floordiv 2) * 6 + d4 floordiv 2)>
// CHECK-LABEL: func.func @stride2
// CHECK: %[[PAD:.*]] = tensor.pad %arg0 low[0, 0, 0, 0, 0] high[0, 0, 0, 3, 1]
// CHECK: %[[PHASES:.*]] = linalg.generic {indexing_maps = [#[[SPLIT]], {{.*}}]{{.*}} ins(%[[PAD]] : tensor<1x8x1x14x12xf32>) outs(%{{.*}} : tensor<1x8x2x2x7x6xf32>)
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[PHASES]] {{.*}} into tensor<1x8x2x2x42xf32>
// CHECK: %[[INIT:.*]] = tensor.pad %arg2 low[0, 0, 0, 0, 0] high[0, 0, 0, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[PHASED]], {{.*}}]{{.*}} ins(%[[FLAT]], %{{.*}} : tensor<1x8x2x2x42xf32>, tensor<8x1x3x3xf32>) outs(%{{.*}} : tensor<1x8x1x32xf32>)
func.func @stride2(%input: tensor<1x8x1x11x11xf32>, %weight: tensor<8x1x1x3x3xf32>,
                   %init: tensor<1x8x1x5x5xf32>) -> tensor<1x8x1x5x5xf32> {
  %0 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%input, %weight : tensor<1x8x1x11x11xf32>, tensor<8x1x1x3x3xf32>)
    outs(%init : tensor<1x8x1x5x5xf32>) -> tensor<1x8x1x5x5xf32>
  return %0 : tensor<1x8x1x5x5xf32>
}

// -----

// A grouped convolution with several input channels per group is not
// depthwise: left to tsir-conv-to-matmul.
// CHECK-LABEL: func.func @grouped
// CHECK: linalg.conv_2d_ngchw_gfchw
func.func @grouped(%input: tensor<1x2x4x8x8xf32>, %weight: tensor<2x4x4x3x3xf32>,
                   %init: tensor<1x2x4x6x6xf32>) -> tensor<1x2x4x6x6xf32> {
  %0 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%input, %weight : tensor<1x2x4x8x8xf32>, tensor<2x4x4x3x3xf32>)
    outs(%init : tensor<1x2x4x6x6xf32>) -> tensor<1x2x4x6x6xf32>
  return %0 : tensor<1x2x4x6x6xf32>
}
