// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// conv2d with stride 2 and padding 1: the input padded with zeros, the bias
// broadcast over batch and space as the init, one linalg.conv_2d_nchw_fchw.
// CHECK-LABEL: func.func @conv2d
// CHECK-DAG: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<1x3x8x8xf32>
// CHECK-DAG: %[[W:.*]] = builtin.unrealized_conversion_cast %arg1 {{.*}} to tensor<4x3x3x3xf32>
// CHECK-DAG: %[[B:.*]] = builtin.unrealized_conversion_cast %arg2 {{.*}} to tensor<4xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PAD:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[ZERO]]
// CHECK: } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x4x4x4xf32>
// CHECK: %[[INIT:.*]] = linalg.broadcast ins(%[[B]] : tensor<4xf32>) outs(%[[E]] : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PAD]], %[[W]] : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%[[INIT]] : tensor<1x4x4x4xf32>)
// CHECK: builtin.unrealized_conversion_cast %[[C]] : tensor<1x4x4x4xf32> to !prim.tensor
func.func @conv2d(%x: !prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, %w: !prim.tensor<dtype = f32, sizes = [4, 3, 3, 3]>, %b: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [1, 4, 4, 4]> {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %c2 = prim.Constant {value = 2 : i64} : i64
  %stride = prim.ListConstruct %c2, %c2 : (i64, i64) -> !prim.list<i64>
  %pad = prim.ListConstruct %c1, %c1 : (i64, i64) -> !prim.list<i64>
  %dil = prim.ListConstruct %c1, %c1 : (i64, i64) -> !prim.list<i64>
  %0 = aten.conv2d %x, %w, %b, %stride, %pad, %dil, %c1 : (!prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, !prim.tensor<dtype = f32, sizes = [4, 3, 3, 3]>, !prim.tensor<dtype = f32, sizes = [4]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32, sizes = [1, 4, 4, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 4, 4, 4]>
}

// -----

// No bias: a zero-filled init; a one-element list is repeated per dim, as
// torch does; a dynamic batch is read with tensor.dim.
// CHECK-LABEL: func.func @conv2d_nobias_dynamic_batch
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<?x2x7x9xf32>
// CHECK-NOT: tensor.pad
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x3x3x4xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<?x3x3x4xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[X]], %{{.*}} : tensor<?x2x7x9xf32>, tensor<3x2x2x2xf32>) outs(%[[F]] : tensor<?x3x3x4xf32>)
func.func @conv2d_nobias_dynamic_batch(%x: !prim.tensor<dtype = f32, sizes = [?, 2, 7, 9]>, %w: !prim.tensor<dtype = f32, sizes = [3, 2, 2, 2]>) -> !prim.tensor<dtype = f32, sizes = [?, 3, 3, 4]> {
  %none = prim.Constant {value} : !prim.none
  %c0 = prim.Constant {value = 0 : i64} : i64
  %c1 = prim.Constant {value = 1 : i64} : i64
  %c2 = prim.Constant {value = 2 : i64} : i64
  %stride = prim.ListConstruct %c2 : (i64) -> !prim.list<i64>
  %pad = prim.ListConstruct %c0, %c0 : (i64, i64) -> !prim.list<i64>
  %dil = prim.ListConstruct %c1, %c2 : (i64, i64) -> !prim.list<i64>
  %0 = aten.conv2d %x, %w, %none, %stride, %pad, %dil, %c1 : (!prim.tensor<dtype = f32, sizes = [?, 2, 7, 9]>, !prim.tensor<dtype = f32, sizes = [3, 2, 2, 2]>, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32, sizes = [?, 3, 3, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [?, 3, 3, 4]>
}

// -----

// Groups: input, weight and init split their channels into [G, C/G] for
// linalg.conv_2d_ngchw_gfchw; the result merges them back.
// CHECK-LABEL: func.func @conv2d_groups
// CHECK: %[[X:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [2, 2, 2, 8, 8] : tensor<2x4x8x8xf32> into tensor<2x2x2x8x8xf32>
// CHECK: %[[W:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3] : tensor<6x2x3x3xf32> into tensor<2x3x2x3x3xf32>
// CHECK: %[[I:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [2, 2, 3, 6, 6] : tensor<2x6x6x6xf32> into tensor<2x2x3x6x6xf32>
// CHECK: %[[C:.*]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[I]] : tensor<2x2x3x6x6xf32>)
// CHECK: tensor.collapse_shape %[[C]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<2x2x3x6x6xf32> into tensor<2x6x6x6xf32>
func.func @conv2d_groups(%x: !prim.tensor<dtype = f32, sizes = [2, 4, 8, 8]>, %w: !prim.tensor<dtype = f32, sizes = [6, 2, 3, 3]>, %b: !prim.tensor<dtype = f32, sizes = [6]>) -> !prim.tensor<dtype = f32, sizes = [2, 6, 6, 6]> {
  %c0 = prim.Constant {value = 0 : i64} : i64
  %c1 = prim.Constant {value = 1 : i64} : i64
  %c2 = prim.Constant {value = 2 : i64} : i64
  %ones = prim.ListConstruct %c1, %c1 : (i64, i64) -> !prim.list<i64>
  %pad = prim.ListConstruct %c0, %c0 : (i64, i64) -> !prim.list<i64>
  %0 = aten.conv2d %x, %w, %b, %ones, %pad, %ones, %c2 : (!prim.tensor<dtype = f32, sizes = [2, 4, 8, 8]>, !prim.tensor<dtype = f32, sizes = [6, 2, 3, 3]>, !prim.tensor<dtype = f32, sizes = [6]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32, sizes = [2, 6, 6, 6]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 6, 6, 6]>
}

// -----

// An unbatched input is a batch of one.
// CHECK-LABEL: func.func @conv2d_unbatched
// CHECK: %[[X:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] output_shape [1, 3, 5, 5] : tensor<3x5x5xf32> into tensor<1x3x5x5xf32>
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %{{.*}}) {{.*}} -> tensor<1x2x3x3xf32>
// CHECK: tensor.collapse_shape %[[C]] {{\[\[}}0, 1], [2], [3]] : tensor<1x2x3x3xf32> into tensor<2x3x3xf32>
func.func @conv2d_unbatched(%x: !prim.tensor<dtype = f32, sizes = [3, 5, 5]>, %w: !prim.tensor<dtype = f32, sizes = [2, 3, 3, 3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 3]> {
  %none = prim.Constant {value} : !prim.none
  %c1 = prim.Constant {value = 1 : i64} : i64
  %ones = prim.Constant {value = [1, 1]} : !prim.list<i64>
  %zeros = prim.Constant {value = [0, 0]} : !prim.list<i64>
  %0 = aten.conv2d %x, %w, %none, %ones, %zeros, %ones, %c1 : (!prim.tensor<dtype = f32, sizes = [3, 5, 5]>, !prim.tensor<dtype = f32, sizes = [2, 3, 3, 3]>, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32, sizes = [2, 3, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 3]>
}

// -----

// padding="same" with dilation 2 and a 4x3 kernel pads 6 rows (3 before, 3
// after) and 4 columns; an odd total puts the extra element last.
// CHECK-LABEL: func.func @conv2d_same
// CHECK: tensor.pad %{{.*}} low[0, 0, 3, 2] high[0, 0, 3, 2]
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} {{.*}} -> tensor<1x3x7x8xf32>
func.func @conv2d_same(%x: !prim.tensor<dtype = f32, sizes = [1, 2, 7, 8]>, %w: !prim.tensor<dtype = f32, sizes = [3, 2, 4, 3]>, %b: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [1, 3, 7, 8]> {
  %0 = prim.Constant {value = 1 : i64} : i64
  %1 = prim.Constant {value = 2 : i64} : i64
  %2 = prim.Constant {value = "same"} : !prim.str
  %3 = prim.ListConstruct %0, %0 : (i64, i64) -> !prim.list<i64>
  %4 = prim.ListConstruct %1, %1 : (i64, i64) -> !prim.list<i64>
  %5 = aten.conv2d.padding %x, %w, %b, %3, %2, %4, %0 : (!prim.tensor<dtype = f32, sizes = [1, 2, 7, 8]>, !prim.tensor<dtype = f32, sizes = [3, 2, 4, 3]>, !prim.tensor<dtype = f32, sizes = [3]>, !prim.list<i64>, !prim.str, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32, sizes = [1, 3, 7, 8]>
  return %5 : !prim.tensor<dtype = f32, sizes = [1, 3, 7, 8]>
}

// -----

// CHECK-LABEL: func.func @conv2d_same_odd
// CHECK: tensor.pad %{{.*}} low[0, 0, 1, 0] high[0, 0, 2, 0]
func.func @conv2d_same_odd(%x: !prim.tensor<dtype = f32, sizes = [1, 2, 7, 8]>, %w: !prim.tensor<dtype = f32, sizes = [3, 2, 4, 1]>) -> !prim.tensor<dtype = f32, sizes = [1, 3, 7, 8]> {
  %none = prim.Constant {value} : !prim.none
  %0 = prim.Constant {value = 1 : i64} : i64
  %2 = prim.Constant {value = "same"} : !prim.str
  %3 = prim.ListConstruct %0, %0 : (i64, i64) -> !prim.list<i64>
  %5 = aten.conv2d.padding %x, %w, %none, %3, %2, %3, %0 : (!prim.tensor<dtype = f32, sizes = [1, 2, 7, 8]>, !prim.tensor<dtype = f32, sizes = [3, 2, 4, 1]>, !prim.none, !prim.list<i64>, !prim.str, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32, sizes = [1, 3, 7, 8]>
  return %5 : !prim.tensor<dtype = f32, sizes = [1, 3, 7, 8]>
}

// -----

// CHECK-LABEL: func.func @conv1d
// CHECK: tensor.pad %{{.*}} low[0, 0, 2] high[0, 0, 2]
// CHECK: linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins({{.*}} : tensor<2x3x21xf32>, tensor<4x3x3xf32>) outs({{.*}} : tensor<2x4x9xf32>)
func.func @conv1d(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 17]>, %w: !prim.tensor<dtype = f32, sizes = [4, 3, 3]>, %b: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [2, 4, 9]> {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %two = prim.Constant {value = [2]} : !prim.list<i64>
  %0 = aten.conv1d %x, %w, %b, %two, %two, %two, %c1 : (!prim.tensor<dtype = f32, sizes = [2, 3, 17]>, !prim.tensor<dtype = f32, sizes = [4, 3, 3]>, !prim.tensor<dtype = f32, sizes = [4]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32, sizes = [2, 4, 9]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 4, 9]>
}

// -----

// Grouped 1-D and 3-D convolutions have no named op: one linalg.generic
// over (n, g, f, y, c, k) reading the input at y * stride + k * dilation.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d3 * 2 + d5 * 3)>
// CHECK-DAG: #[[WT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv1d_groups
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[WT]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins({{.*}} : tensor<2x3x2x10xf32>, tensor<3x3x2x3xf32>) outs({{.*}} : tensor<2x3x3x2xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: tensor.collapse_shape %[[G]] {{\[\[}}0], [1, 2], [3]] : tensor<2x3x3x2xf32> into tensor<2x9x2xf32>
func.func @conv1d_groups(%x: !prim.tensor<dtype = f32, sizes = [2, 6, 10]>, %w: !prim.tensor<dtype = f32, sizes = [9, 2, 3]>) -> !prim.tensor<dtype = f32, sizes = [2, 9, 2]> {
  %none = prim.Constant {value} : !prim.none
  %c3 = prim.Constant {value = 3 : i64} : i64
  %stride = prim.Constant {value = [2]} : !prim.list<i64>
  %pad = prim.Constant {value = [0]} : !prim.list<i64>
  %dil = prim.Constant {value = [3]} : !prim.list<i64>
  %0 = aten.conv1d %x, %w, %none, %stride, %pad, %dil, %c3 : (!prim.tensor<dtype = f32, sizes = [2, 6, 10]>, !prim.tensor<dtype = f32, sizes = [9, 2, 3]>, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32, sizes = [2, 9, 2]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 9, 2]>
}

// -----

// CHECK-LABEL: func.func @conv3d
// CHECK: linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<[1, 2, 1]> : tensor<3xi64>} {{.*}} -> tensor<1x3x5x3x5xf64>
func.func @conv3d(%x: !prim.tensor<dtype = f64, sizes = [1, 2, 5, 6, 4]>, %w: !prim.tensor<dtype = f64, sizes = [3, 2, 3, 3, 2]>, %b: !prim.tensor<dtype = f64, sizes = [3]>) -> !prim.tensor<dtype = f64, sizes = [1, 3, 5, 3, 5]> {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %stride = prim.Constant {value = [1, 2, 1]} : !prim.list<i64>
  %pad = prim.Constant {value = [1]} : !prim.list<i64>
  %dil = prim.Constant {value = [1, 1, 1]} : !prim.list<i64>
  %0 = aten.conv3d %x, %w, %b, %stride, %pad, %dil, %c1 : (!prim.tensor<dtype = f64, sizes = [1, 2, 5, 6, 4]>, !prim.tensor<dtype = f64, sizes = [3, 2, 3, 3, 2]>, !prim.tensor<dtype = f64, sizes = [3]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64) -> !prim.tensor<dtype = f64, sizes = [1, 3, 5, 3, 5]>
  return %0 : !prim.tensor<dtype = f64, sizes = [1, 3, 5, 3, 5]>
}

// -----

// A transposed convolution (stride 2, padding 1, output_padding 1): the
// kernel's in/out channels swapped and its taps reversed, then one direct
// stride-1 convolution per output phase (even or odd row, even or odd
// column), each of the flipped taps that phase meets (taps 2 apart: 1x1,
// 1x2, 2x1, 2x2), its bias-filled result written 2 apart into the output.
// Output row 2q reads input row q by flipped tap 1; row 2q + 1 reads rows
// q and q + 1 by taps 0 and 2, the last one past the input (padded).
// CHECK-DAG: #[[FLIP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, -d3 + 2, -d4 + 2)>
// CHECK-LABEL: func.func @convolution_transposed
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<1x3x4x5xf32>
// CHECK: %[[FLIPPED:.*]] = linalg.generic {indexing_maps = [#[[FLIP]], #{{.*}}]{{.*}} outs(%{{.*}} : tensor<1x2x3x3x3xf32>)
// CHECK: %[[WT:.*]] = tensor.collapse_shape %[[FLIPPED]] {{\[\[}}0, 1], [2], [3], [4]] : tensor<1x2x3x3x3xf32> into tensor<2x3x3x3xf32>
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<1x2x8x10xf32>
// CHECK: %[[B00:.*]] = linalg.broadcast {{.*}} outs(%{{.*}} : tensor<1x2x4x5xf32>)
// CHECK: %[[X00:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 3, 4, 5] [1, 1, 1, 1]
// CHECK: %[[T00:.*]] = tensor.extract_slice %[[WT]][0, 0, 1, 1] [2, 3, 1, 1] [1, 1, 2, 2]
// CHECK: %[[C00:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[X00]], %[[T00]] : tensor<1x3x4x5xf32>, tensor<2x3x1x1xf32>) outs(%[[B00]] : tensor<1x2x4x5xf32>)
// CHECK: %[[O00:.*]] = tensor.insert_slice %[[C00]] into %[[OUT]][0, 0, 0, 0] [1, 2, 4, 5] [1, 1, 2, 2]
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 0, 1]
// CHECK: tensor.extract_slice %[[WT]][0, 0, 1, 0] [2, 3, 1, 2] [1, 1, 2, 2]
// CHECK: %[[O01:.*]] = tensor.insert_slice %{{.*}} into %[[O00]][0, 0, 0, 1] [1, 2, 4, 5] [1, 1, 2, 2]
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK: tensor.extract_slice %[[WT]][0, 0, 0, 1] [2, 3, 2, 1] [1, 1, 2, 2]
// CHECK: %[[O10:.*]] = tensor.insert_slice %{{.*}} into %[[O01]][0, 0, 1, 0] [1, 2, 4, 5] [1, 1, 2, 2]
// CHECK: %[[P11:.*]] = tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK: %[[T11:.*]] = tensor.extract_slice %[[WT]][0, 0, 0, 0] [2, 3, 2, 2] [1, 1, 2, 2]
// CHECK: %[[C11:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P11]], %[[T11]] : tensor<1x3x5x6xf32>, tensor<2x3x2x2xf32>)
// CHECK: tensor.insert_slice %[[C11]] into %[[O10]][0, 0, 1, 1] [1, 2, 4, 5] [1, 1, 2, 2]
func.func @convolution_transposed(%x: !prim.tensor<dtype = f32, sizes = [1, 3, 4, 5]>, %w: !prim.tensor<dtype = f32, sizes = [3, 2, 3, 3]>, %b: !prim.tensor<dtype = f32, sizes = [2]>) -> !prim.tensor<dtype = f32, sizes = [1, 2, 8, 10]> {
  %0 = prim.Constant {value = 1 : i64} : i64
  %1 = prim.Constant {value = 2 : i64} : i64
  %2 = prim.Constant {value = true} : i1
  %3 = prim.ListConstruct %1, %1 : (i64, i64) -> !prim.list<i64>
  %4 = prim.ListConstruct %0, %0 : (i64, i64) -> !prim.list<i64>
  %6 = aten.convolution %x, %w, %b, %3, %4, %4, %2, %4, %0 : (!prim.tensor<dtype = f32, sizes = [1, 3, 4, 5]>, !prim.tensor<dtype = f32, sizes = [3, 2, 3, 3]>, !prim.tensor<dtype = f32, sizes = [2]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32, sizes = [1, 2, 8, 10]>
  return %6 : !prim.tensor<dtype = f32, sizes = [1, 2, 8, 10]>
}

// -----

// Padding larger than the kernel's reach: with kernel 2 and padding 2 the
// first input row's outputs fall before the output and its last row's
// after it, so every phase reads input rows 1..3 only.
// CHECK-LABEL: func.func @conv_transpose2d_crop
// CHECK-COUNT-4: tensor.extract_slice %{{.*}}[0, 0, 1, 0] [1, 1, 3, 3] [1, 1, 1, 1] : tensor<1x1x5x3xf32> to tensor<1x1x3x3xf32>
// CHECK-NOT: tensor.pad
// CHECK: return
func.func @conv_transpose2d_crop(%x: !prim.tensor<dtype = f32, sizes = [1, 1, 5, 3]>, %w: !prim.tensor<dtype = f32, sizes = [1, 1, 2, 2]>) -> !prim.tensor<dtype = f32, sizes = [1, 1, 6, 6]> {
  %none = prim.Constant {value} : !prim.none
  %c1 = prim.Constant {value = 1 : i64} : i64
  %stride = prim.Constant {value = [2, 2]} : !prim.list<i64>
  %pad = prim.Constant {value = [2, 0]} : !prim.list<i64>
  %outpad = prim.Constant {value = [0, 0]} : !prim.list<i64>
  %dil = prim.Constant {value = [1, 1]} : !prim.list<i64>
  %0 = aten.conv_transpose2d.input %x, %w, %none, %stride, %pad, %outpad, %c1, %dil : (!prim.tensor<dtype = f32, sizes = [1, 1, 5, 3]>, !prim.tensor<dtype = f32, sizes = [1, 1, 2, 2]>, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [1, 1, 6, 6]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 1, 6, 6]>
}

// -----

// A 1x1 kernel of stride 2: only the even rows and columns meet a tap;
// the other three phases are the bias (zeros here), with no convolution.
// CHECK-LABEL: func.func @conv_transpose2d_pointwise
// CHECK-COUNT-1: linalg.conv_2d_nchw_fchw
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK-COUNT-3: tensor.insert_slice %{{.*}} [1, 1, 2, 2] : tensor<1x2x{{[0-9]}}x{{[0-9]}}xf32> into tensor<1x2x6x6xf32>
func.func @conv_transpose2d_pointwise(%x: !prim.tensor<dtype = f32, sizes = [1, 3, 3, 3]>, %w: !prim.tensor<dtype = f32, sizes = [3, 2, 1, 1]>) -> !prim.tensor<dtype = f32, sizes = [1, 2, 6, 6]> {
  %none = prim.Constant {value} : !prim.none
  %c1 = prim.Constant {value = 1 : i64} : i64
  %stride = prim.Constant {value = [2, 2]} : !prim.list<i64>
  %pad = prim.Constant {value = [0, 0]} : !prim.list<i64>
  %outpad = prim.Constant {value = [1, 1]} : !prim.list<i64>
  %dil = prim.Constant {value = [1, 1]} : !prim.list<i64>
  %0 = aten.conv_transpose2d.input %x, %w, %none, %stride, %pad, %outpad, %c1, %dil : (!prim.tensor<dtype = f32, sizes = [1, 3, 3, 3]>, !prim.tensor<dtype = f32, sizes = [3, 2, 1, 1]>, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [1, 2, 6, 6]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 2, 6, 6]>
}

// -----

// With a dilation the input is spread out instead: zeros 2 apart, with
// 2 = 2 * (2 - 1) - 0 zeros before, then one direct convolution (the
// dilated taps would not fall in whole phases).
// CHECK-LABEL: func.func @conv_transpose2d_dilated
// CHECK: %[[Z:.*]] = linalg.fill {{.*}} -> tensor<1x1x11x11xf32>
// CHECK: %[[SPREAD:.*]] = tensor.insert_slice %{{.*}} into %[[Z]][0, 0, 2, 2] [1, 1, 4, 4] [1, 1, 2, 2]
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[SPREAD]], %{{.*}} : tensor<1x1x11x11xf32>, tensor<1x1x2x2xf32>) {{.*}} -> tensor<1x1x9x9xf32>
func.func @conv_transpose2d_dilated(%x: !prim.tensor<dtype = f32, sizes = [1, 1, 4, 4]>, %w: !prim.tensor<dtype = f32, sizes = [1, 1, 2, 2]>) -> !prim.tensor<dtype = f32, sizes = [1, 1, 9, 9]> {
  %none = prim.Constant {value} : !prim.none
  %c1 = prim.Constant {value = 1 : i64} : i64
  %stride = prim.Constant {value = [2, 2]} : !prim.list<i64>
  %pad = prim.Constant {value = [0, 0]} : !prim.list<i64>
  %outpad = prim.Constant {value = [0, 0]} : !prim.list<i64>
  %dil = prim.Constant {value = [2, 2]} : !prim.list<i64>
  %0 = aten.conv_transpose2d.input %x, %w, %none, %stride, %pad, %outpad, %c1, %dil : (!prim.tensor<dtype = f32, sizes = [1, 1, 4, 4]>, !prim.tensor<dtype = f32, sizes = [1, 1, 2, 2]>, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [1, 1, 9, 9]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 1, 9, 9]>
}

// -----

// A stride only known at run time is refused.
func.func @conv2d_runtime_stride(%x: !prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, %w: !prim.tensor<dtype = f32, sizes = [4, 3, 3, 3]>, %s: i64) -> !prim.tensor<dtype = f32> {
  %none = prim.Constant {value} : !prim.none
  %c1 = prim.Constant {value = 1 : i64} : i64
  %stride = prim.ListConstruct %s, %s : (i64, i64) -> !prim.list<i64>
  %ones = prim.ListConstruct %c1, %c1 : (i64, i64) -> !prim.list<i64>
  // expected-error @+1 {{failed to legalize operation 'aten.conv2d'}}
  %0 = aten.conv2d %x, %w, %none, %stride, %ones, %ones, %c1 : (!prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, !prim.tensor<dtype = f32, sizes = [4, 3, 3, 3]>, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32>
  return %0 : !prim.tensor<dtype = f32>
}

// -----

// So is a transposed flag only known at run time.
func.func @convolution_runtime_transposed(%x: !prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, %w: !prim.tensor<dtype = f32, sizes = [3, 3, 3, 3]>, %t: i1) -> !prim.tensor<dtype = f32, sizes = [1, 3, 6, 6]> {
  %none = prim.Constant {value} : !prim.none
  %c1 = prim.Constant {value = 1 : i64} : i64
  %ones = prim.Constant {value = [1, 1]} : !prim.list<i64>
  %zeros = prim.Constant {value = [0, 0]} : !prim.list<i64>
  // expected-error @+1 {{failed to legalize operation 'aten.convolution'}}
  %0 = aten.convolution %x, %w, %none, %ones, %zeros, %ones, %t, %zeros, %c1 : (!prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, !prim.tensor<dtype = f32, sizes = [3, 3, 3, 3]>, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32, sizes = [1, 3, 6, 6]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 3, 6, 6]>
}

// -----

// "same" padding with a stride is an error in torch; it is not lowered.
func.func @conv2d_same_strided(%x: !prim.tensor<dtype = f32, sizes = [1, 2, 7, 8]>, %w: !prim.tensor<dtype = f32, sizes = [3, 2, 3, 3]>) -> !prim.tensor<dtype = f32> {
  %none = prim.Constant {value} : !prim.none
  %c1 = prim.Constant {value = 1 : i64} : i64
  %same = prim.Constant {value = "same"} : !prim.str
  %two = prim.Constant {value = [2, 2]} : !prim.list<i64>
  %ones = prim.Constant {value = [1, 1]} : !prim.list<i64>
  // expected-error @+1 {{failed to legalize operation 'aten.conv2d.padding'}}
  %0 = aten.conv2d.padding %x, %w, %none, %two, %same, %ones, %c1 : (!prim.tensor<dtype = f32, sizes = [1, 2, 7, 8]>, !prim.tensor<dtype = f32, sizes = [3, 2, 3, 3]>, !prim.none, !prim.list<i64>, !prim.str, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32>
  return %0 : !prim.tensor<dtype = f32>
}

// -----

// A result type that disagrees with the convolution's output size (a wrong
// refinement) is refused rather than cast.
func.func @conv2d_wrong_result(%x: !prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, %w: !prim.tensor<dtype = f32, sizes = [4, 3, 3, 3]>) -> !prim.tensor<dtype = f32, sizes = [1, 4, 8, 8]> {
  %none = prim.Constant {value} : !prim.none
  %c1 = prim.Constant {value = 1 : i64} : i64
  %ones = prim.Constant {value = [1, 1]} : !prim.list<i64>
  %zeros = prim.Constant {value = [0, 0]} : !prim.list<i64>
  // expected-error @+1 {{failed to legalize operation 'aten.conv2d'}}
  %0 = aten.conv2d %x, %w, %none, %ones, %zeros, %ones, %c1 : (!prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, !prim.tensor<dtype = f32, sizes = [4, 3, 3, 3]>, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32, sizes = [1, 4, 8, 8]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 4, 8, 8]>
}

// -----

// torch requires output_padding below the stride or the dilation.
func.func @conv_transpose2d_output_padding(%x: !prim.tensor<dtype = f32, sizes = [1, 1, 3, 3]>, %w: !prim.tensor<dtype = f32, sizes = [1, 1, 2, 2]>) -> !prim.tensor<dtype = f32, sizes = [1, 1, 8, 8]> {
  %none = prim.Constant {value} : !prim.none
  %c1 = prim.Constant {value = 1 : i64} : i64
  %stride = prim.Constant {value = [2, 2]} : !prim.list<i64>
  %pad = prim.Constant {value = [0, 0]} : !prim.list<i64>
  %outpad = prim.Constant {value = [2, 2]} : !prim.list<i64>
  %dil = prim.Constant {value = [1, 1]} : !prim.list<i64>
  // expected-error @+1 {{failed to legalize operation 'aten.conv_transpose2d.input'}}
  %0 = aten.conv_transpose2d.input %x, %w, %none, %stride, %pad, %outpad, %c1, %dil : (!prim.tensor<dtype = f32, sizes = [1, 1, 3, 3]>, !prim.tensor<dtype = f32, sizes = [1, 1, 2, 2]>, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [1, 1, 8, 8]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 1, 8, 8]>
}

// -----

// Taps that read only padding are dropped (DeepLabV3's atrous rate 24 on a
// 14x14 map): along H only the centre tap reads the input, so the weight
// keeps it, the padding goes and the dilation no longer matters; along W
// (padding 1, dilation 1) every tap reads the input.
// CHECK-LABEL: func.func @conv2d_padding_taps
// CHECK: %[[W:.*]] = tensor.extract_slice %{{.*}}[0, 0, 1, 0] [8, 4, 1, 3] [1, 1, 1, 1] : tensor<8x4x3x3xf32> to tensor<8x4x1x3xf32>
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 1] high[0, 0, 0, 1]
// CHECK: } : tensor<1x4x14x14xf32> to tensor<1x4x14x16xf32>
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %[[W]] : tensor<1x4x14x16xf32>, tensor<8x4x1x3xf32>) outs(%{{.*}} : tensor<1x8x14x14xf32>)
func.func @conv2d_padding_taps(%x: !prim.tensor<dtype = f32, sizes = [1, 4, 14, 14]>, %w: !prim.tensor<dtype = f32, sizes = [8, 4, 3, 3]>) -> !prim.tensor<dtype = f32, sizes = [1, 8, 14, 14]> {
  %none = prim.Constant {value} : !prim.none
  %c1 = prim.Constant {value = 1 : i64} : i64
  %c24 = prim.Constant {value = 24 : i64} : i64
  %stride = prim.ListConstruct %c1, %c1 : (i64, i64) -> !prim.list<i64>
  %pad = prim.ListConstruct %c24, %c1 : (i64, i64) -> !prim.list<i64>
  %dil = prim.ListConstruct %c24, %c1 : (i64, i64) -> !prim.list<i64>
  %0 = aten.conv2d %x, %w, %none, %stride, %pad, %dil, %c1 : (!prim.tensor<dtype = f32, sizes = [1, 4, 14, 14]>, !prim.tensor<dtype = f32, sizes = [8, 4, 3, 3]>, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32, sizes = [1, 8, 14, 14]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 8, 14, 14]>
}

// -----

// Rate 12 on the same map: the outer taps reach the input from the last
// and first two rows, so the kernel stays whole.
// CHECK-LABEL: func.func @conv2d_taps_reach_input
// CHECK-NOT: tensor.extract_slice
// CHECK: tensor.pad %{{.*}} low[0, 0, 12, 12] high[0, 0, 12, 12]
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<12> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x4x38x38xf32>, tensor<8x4x3x3xf32>)
func.func @conv2d_taps_reach_input(%x: !prim.tensor<dtype = f32, sizes = [1, 4, 14, 14]>, %w: !prim.tensor<dtype = f32, sizes = [8, 4, 3, 3]>) -> !prim.tensor<dtype = f32, sizes = [1, 8, 14, 14]> {
  %none = prim.Constant {value} : !prim.none
  %c1 = prim.Constant {value = 1 : i64} : i64
  %c12 = prim.Constant {value = 12 : i64} : i64
  %stride = prim.ListConstruct %c1, %c1 : (i64, i64) -> !prim.list<i64>
  %pad = prim.ListConstruct %c12, %c12 : (i64, i64) -> !prim.list<i64>
  %dil = prim.ListConstruct %c12, %c12 : (i64, i64) -> !prim.list<i64>
  %0 = aten.conv2d %x, %w, %none, %stride, %pad, %dil, %c1 : (!prim.tensor<dtype = f32, sizes = [1, 4, 14, 14]>, !prim.tensor<dtype = f32, sizes = [8, 4, 3, 3]>, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32, sizes = [1, 8, 14, 14]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 8, 14, 14]>
}

// -----

// With a stride the surviving taps need not be centred: here only tap 0
// reads padding alone; taps 1 and 2 read the input without padding.
// CHECK-LABEL: func.func @conv1d_padding_taps_strided
// CHECK: %[[W:.*]] = tensor.extract_slice %{{.*}}[0, 0, 1] [3, 2, 2] [1, 1, 1] : tensor<3x2x3xf32> to tensor<3x2x2xf32>
// CHECK-NOT: tensor.pad
// CHECK: linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<3> : tensor<1xi64>} ins(%{{.*}}, %[[W]] : tensor<2x2x3xf32>, tensor<3x2x2xf32>) outs(%{{.*}} : tensor<2x3x1xf32>)
func.func @conv1d_padding_taps_strided(%x: !prim.tensor<dtype = f32, sizes = [2, 2, 3]>, %w: !prim.tensor<dtype = f32, sizes = [3, 2, 3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 1]> {
  %none = prim.Constant {value} : !prim.none
  %c1 = prim.Constant {value = 1 : i64} : i64
  %c2 = prim.Constant {value = 2 : i64} : i64
  %c3 = prim.Constant {value = 3 : i64} : i64
  %stride = prim.ListConstruct %c3 : (i64) -> !prim.list<i64>
  %pad = prim.ListConstruct %c2 : (i64) -> !prim.list<i64>
  %dil = prim.ListConstruct %c2 : (i64) -> !prim.list<i64>
  %0 = aten.conv1d %x, %w, %none, %stride, %pad, %dil, %c1 : (!prim.tensor<dtype = f32, sizes = [2, 2, 3]>, !prim.tensor<dtype = f32, sizes = [3, 2, 3]>, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32, sizes = [2, 3, 1]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 1]>
}
