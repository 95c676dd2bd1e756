// RUN: tsir-opt %s --tsir-conv-to-matmul -split-input-file | FileCheck %s

// A 3x3 convolution of stride 2: the input's windows are copied into
// columns[n, c, kh, kw, oh, ow] (the read map carries the stride), and the
// output is weight[f, c*kh*kw] times columns[n, c*kh*kw, oh*ow].
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4 * 2 + d2, d5 * 2 + d3)>
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @strided
// CHECK: %[[COPY:.*]] = linalg.generic {indexing_maps = [#[[READ]], {{.*}}]{{.*}} ins(%arg0 : tensor<2x8x17x17xf32>) outs(%{{.*}} : tensor<2x8x3x3x8x8xf32>)
// CHECK: %[[COLUMNS:.*]] = tensor.collapse_shape %[[COPY]] {{\[}}[0], [1, 2, 3], [4, 5]] : tensor<2x8x3x3x8x8xf32> into tensor<2x72x64xf32>
// CHECK: %[[MATRIX:.*]] = tensor.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : tensor<16x8x3x3xf32> into tensor<16x72xf32>
// CHECK: %[[PRODUCT:.*]] = linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[MATRIX]], %[[COLUMNS]] :
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: tensor.expand_shape %[[PRODUCT]] {{\[}}[0], [1], [2, 3]] {{.*}} : tensor<2x16x64xf32> into tensor<2x16x8x8xf32>
// CHECK-NOT: linalg.conv_2d
func.func @strided(%input: tensor<2x8x17x17xf32>, %weight: tensor<16x8x3x3xf32>,
                   %init: tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%input, %weight : tensor<2x8x17x17xf32>, tensor<16x8x3x3xf32>)
    outs(%init : tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32>
  return %0 : tensor<2x16x8x8xf32>
}

// -----

// Dilation scales the window offsets.
// CHECK: affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4 + d2 * 2, d5 + d3 * 3)>
// CHECK-LABEL: func.func @dilated
func.func @dilated(%input: tensor<1x4x10x10xf32>, %weight: tensor<4x4x2x2xf32>,
                   %init: tensor<1x4x8x7xf32>) -> tensor<1x4x8x7xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<[2, 3]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%input, %weight : tensor<1x4x10x10xf32>, tensor<4x4x2x2xf32>)
    outs(%init : tensor<1x4x8x7xf32>) -> tensor<1x4x8x7xf32>
  return %0 : tensor<1x4x8x7xf32>
}

// -----

// A 1x1 convolution of stride 1 reads the input as the matrix itself.
// CHECK-LABEL: func.func @pointwise
// CHECK-NOT: tensor.empty
// CHECK: %[[COLUMNS:.*]] = tensor.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : tensor<1x8x5x5xf32> into tensor<1x8x25xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[COLUMNS]] :
func.func @pointwise(%input: tensor<1x8x5x5xf32>, %weight: tensor<16x8x1x1xf32>,
                     %init: tensor<1x16x5x5xf32>) -> tensor<1x16x5x5xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%input, %weight : tensor<1x8x5x5xf32>, tensor<16x8x1x1xf32>)
    outs(%init : tensor<1x16x5x5xf32>) -> tensor<1x16x5x5xf32>
  return %0 : tensor<1x16x5x5xf32>
}

// -----

// A 3-d convolution (the video models' conv3d): the copy iterates
// (n, c, kd, kh, kw, od, oh, ow), each output dim read with its own
// stride, and the product is the same [f, k] x [n, k, p].
// CHECK-DAG: #[[READ3:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2 + d5, d6 * 2 + d3, d7 * 2 + d4)>
// CHECK-LABEL: func.func @volume
// CHECK: %[[COPY:.*]] = linalg.generic {indexing_maps = [#[[READ3]], {{.*}}]{{.*}} outs(%{{.*}} : tensor<1x2x3x3x3x4x4x4xf32>)
// CHECK: tensor.collapse_shape %[[COPY]] {{\[}}[0], [1, 2, 3, 4], [5, 6, 7]] : tensor<1x2x3x3x3x4x4x4xf32> into tensor<1x54x64xf32>
// CHECK: tensor.collapse_shape %arg1 {{\[}}[0], [1, 2, 3, 4]] : tensor<8x2x3x3x3xf32> into tensor<8x54xf32>
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: tensor.expand_shape {{.*}} {{\[}}[0], [1], [2, 3, 4]] {{.*}} : tensor<1x8x64xf32> into tensor<1x8x4x4x4xf32>
// CHECK-NOT: linalg.conv_3d
func.func @volume(%input: tensor<1x2x6x9x9xf32>, %weight: tensor<8x2x3x3x3xf32>,
                  %init: tensor<1x8x4x4x4xf32>) -> tensor<1x8x4x4x4xf32> {
  %0 = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<[1, 2, 2]> : tensor<3xi64>}
    ins(%input, %weight : tensor<1x2x6x9x9xf32>, tensor<8x2x3x3x3xf32>)
    outs(%init : tensor<1x8x4x4x4xf32>) -> tensor<1x8x4x4x4xf32>
  return %0 : tensor<1x8x4x4x4xf32>
}

// -----

// A 1-d convolution: columns[n, c*k, ow].
// CHECK-LABEL: func.func @line
// CHECK: tensor.collapse_shape {{.*}} {{\[}}[0], [1, 2], [3]] : tensor<2x3x5x20xf32> into tensor<2x15x20xf32>
// CHECK-NOT: linalg.conv_1d
func.func @line(%input: tensor<2x3x24xf32>, %weight: tensor<4x3x5xf32>,
                %init: tensor<2x4x20xf32>) -> tensor<2x4x20xf32> {
  %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
    ins(%input, %weight : tensor<2x3x24xf32>, tensor<4x3x5xf32>)
    outs(%init : tensor<2x4x20xf32>) -> tensor<2x4x20xf32>
  return %0 : tensor<2x4x20xf32>
}

// -----

// Dynamic sizes and integer convolutions keep their direct form.
// CHECK-LABEL: func.func @kept
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<?x4x8x8xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<1x4x8x8xi32>
func.func @kept(%input: tensor<?x4x8x8xf32>, %weight: tensor<4x4x3x3xf32>, %init: tensor<?x4x6x6xf32>,
                %iinput: tensor<1x4x8x8xi32>, %iweight: tensor<4x4x3x3xi32>, %iinit: tensor<1x4x6x6xi32>)
    -> (tensor<?x4x6x6xf32>, tensor<1x4x6x6xi32>) {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%input, %weight : tensor<?x4x8x8xf32>, tensor<4x4x3x3xf32>)
    outs(%init : tensor<?x4x6x6xf32>) -> tensor<?x4x6x6xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%iinput, %iweight : tensor<1x4x8x8xi32>, tensor<4x4x3x3xi32>)
    outs(%iinit : tensor<1x4x6x6xi32>) -> tensor<1x4x6x6xi32>
  return %0, %1 : tensor<?x4x6x6xf32>, tensor<1x4x6x6xi32>
}

// -----

// A grouped convolution (RegNet's, 2 groups of 4 channels) is one product
// per group: the group is a batch dim of the copy, the weight matrix and
// the product.
// CHECK-DAG: #[[GREAD:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3 + d5, d4 + d6)>
// CHECK-DAG: #[[GLHS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d4)>
// CHECK-DAG: #[[GRHS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// CHECK-DAG: #[[GOUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @grouped
// CHECK: %[[COPY:.*]] = linalg.generic {indexing_maps = [#[[GREAD]], {{.*}}]{{.*}} outs(%{{.*}} : tensor<1x2x4x3x3x6x6xf32>)
// CHECK: %[[COLUMNS:.*]] = tensor.collapse_shape %[[COPY]] {{\[}}[0], [1], [2, 3, 4], [5, 6]] : tensor<1x2x4x3x3x6x6xf32> into tensor<1x2x36x36xf32>
// CHECK: %[[MATRIX:.*]] = tensor.collapse_shape %arg1 {{\[}}[0], [1], [2, 3, 4]] : tensor<2x4x4x3x3xf32> into tensor<2x4x36xf32>
// CHECK: %[[PRODUCT:.*]] = linalg.generic {indexing_maps = [#[[GLHS]], #[[GRHS]], #[[GOUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[MATRIX]], %[[COLUMNS]] :
// CHECK: tensor.expand_shape %[[PRODUCT]] {{\[}}[0], [1], [2], [3, 4]] {{.*}} : tensor<1x2x4x36xf32> into tensor<1x2x4x6x6xf32>
func.func @grouped(%input: tensor<1x2x4x8x8xf32>, %weight: tensor<2x4x4x3x3xf32>,
                   %init: tensor<1x2x4x6x6xf32>) -> tensor<1x2x4x6x6xf32> {
  %0 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%input, %weight : tensor<1x2x4x8x8xf32>, tensor<2x4x4x3x3xf32>)
    outs(%init : tensor<1x2x4x6x6xf32>) -> tensor<1x2x4x6x6xf32>
  return %0 : tensor<1x2x4x6x6xf32>
}

// -----

// A depthwise convolution (one input channel per group) is left to
// tsir-cpu-depthwise-conv-rows.
// CHECK-LABEL: func.func @depthwise
// CHECK: linalg.conv_2d_ngchw_gfchw
func.func @depthwise(%input: tensor<1x8x1x8x8xf32>, %weight: tensor<8x1x1x3x3xf32>,
                     %init: tensor<1x8x1x6x6xf32>) -> tensor<1x8x1x6x6xf32> {
  %0 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%input, %weight : tensor<1x8x1x8x8xf32>, tensor<8x1x1x3x3xf32>)
    outs(%init : tensor<1x8x1x6x6xf32>) -> tensor<1x8x1x6x6xf32>
  return %0 : tensor<1x8x1x6x6xf32>
}

// -----

// A weight gradient's correlation: 3x3 outputs, the kernel a whole 12x12
// feature map (its dilation the forward's stride). The columns are laid
// out window-innermost, [n, oh*ow, c*kh*kw], so the copy walks input rows.
// The batch n (the forward's input channels) joins the output positions
// as the product's columns: one product of 4 x 144 over 1152, its second
// operand indexed [q, k], instead of 16 products of 4 x 9 that each read
// the whole [4, 1152] operand again. Its [f, n, p] result is transposed
// to the convolution's [n, f, p], and a fill of the init becomes a fill
// of the product's.
// CHECK-DAG: #[[WREAD:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1 + d4 * 2, d2 + d5 * 2)>
// CHECK-DAG: #[[FK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[QK:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[FQ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @correlation
// CHECK: %[[COPY:.*]] = linalg.generic {indexing_maps = [#[[WREAD]], {{.*}}]{{.*}} outs(%{{.*}} : tensor<16x3x3x8x12x12xf32>)
// CHECK: %[[COLUMNS:.*]] = tensor.collapse_shape %[[COPY]] {{\[}}[0], [1, 2], [3, 4, 5]] : tensor<16x3x3x8x12x12xf32> into tensor<16x9x1152xf32>
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[COLUMNS]] {{\[}}[0, 1], [2]] : tensor<16x9x1152xf32> into tensor<144x1152xf32>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x16x9xf32>)
// CHECK: %[[ACC:.*]] = tensor.collapse_shape %[[FILL]] {{\[}}[0], [1, 2]] : tensor<4x16x9xf32> into tensor<4x144xf32>
// CHECK: %[[PRODUCT:.*]] = linalg.generic {indexing_maps = [#[[FK]], #[[QK]], #[[FQ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[ROWS]] : tensor<4x1152xf32>, tensor<144x1152xf32>) outs(%[[ACC]] : tensor<4x144xf32>)
// CHECK: %[[WIDE:.*]] = tensor.expand_shape %[[PRODUCT]] {{\[}}[0], [1, 2]] output_shape [4, 16, 9]
// CHECK: %[[OUT:.*]] = linalg.transpose ins(%[[WIDE]] : tensor<4x16x9xf32>) outs(%{{.*}} : tensor<16x4x9xf32>) permutation = [1, 0, 2]
// CHECK: tensor.expand_shape %[[OUT]] {{\[}}[0], [1], [2, 3]] output_shape [16, 4, 3, 3]
func.func @correlation(%input: tensor<16x8x26x26xf32>, %grad: tensor<4x8x12x12xf32>) -> tensor<16x4x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x4x3x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x4x3x3xf32>) -> tensor<16x4x3x3xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%input, %grad : tensor<16x8x26x26xf32>, tensor<4x8x12x12xf32>)
    outs(%init : tensor<16x4x3x3xf32>) -> tensor<16x4x3x3xf32>
  return %0 : tensor<16x4x3x3xf32>
}

// -----

// An init that is not a fill is transposed into the product's layout.
// CHECK-LABEL: func.func @correlation_into
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<16x4x3x3xf32> into tensor<16x4x9xf32>
// CHECK: %[[START:.*]] = linalg.transpose ins(%[[FLAT]] : tensor<16x4x9xf32>) outs(%{{.*}} : tensor<4x16x9xf32>) permutation = [1, 0, 2]
// CHECK: %[[ACC:.*]] = tensor.collapse_shape %[[START]] {{\[}}[0], [1, 2]] : tensor<4x16x9xf32> into tensor<4x144xf32>
// CHECK: linalg.generic {{.*}} outs(%[[ACC]] : tensor<4x144xf32>)
func.func @correlation_into(%input: tensor<16x8x26x26xf32>, %grad: tensor<4x8x12x12xf32>,
                            %init: tensor<16x4x3x3xf32>) -> tensor<16x4x3x3xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%input, %grad : tensor<16x8x26x26xf32>, tensor<4x8x12x12xf32>)
    outs(%init : tensor<16x4x3x3xf32>) -> tensor<16x4x3x3xf32>
  return %0 : tensor<16x4x3x3xf32>
}

// -----

// A batch of one keeps the product per image: its columns are already
// all of the positions.
// CHECK-DAG: #[[WRHS1:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-LABEL: func.func @few_positions_one_image
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[WRHS1]], #{{.*}}]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x72xf32>, tensor<1x9x72xf32>)
// CHECK-NOT: linalg.transpose
func.func @few_positions_one_image(%input: tensor<1x8x5x5xf32>, %weight: tensor<4x8x3x3xf32>,
                                   %init: tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%input, %weight : tensor<1x8x5x5xf32>, tensor<4x8x3x3xf32>)
    outs(%init : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}
