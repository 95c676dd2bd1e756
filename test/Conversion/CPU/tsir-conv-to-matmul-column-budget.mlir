// RUN: tsir-opt %s --tsir-conv-to-matmul="column-budget=20000" -split-input-file | FileCheck %s
// RUN: not tsir-opt %s --tsir-conv-to-matmul="column-budget=0" 2>&1 | FileCheck %s --check-prefix=BAD

// Columns over the budget are built a tile at a time. Here 2 images of
// 4*3*3 = 36 window elements by 10*10 positions, 28,800 bytes; one
// image's, 14,400 bytes, fit: the batch is cut to one image a tile and the
// rows stay whole.
// CHECK-LABEL: func.func @batch_tiles
// CHECK: scf.for %[[N:.*]] = %c0 to %c2 step %c1
// CHECK: tensor.extract_slice %{{.*}}[%[[N]], 0, 0, 0] [1, 4, 12, 12]
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : tensor<1x4x3x3x10x10xf32>)
// CHECK: tensor.collapse_shape {{.*}} into tensor<1x36x100xf32>
// CHECK: tensor.insert_slice {{.*}} [1, 8, 10, 10]
func.func @batch_tiles(%x: tensor<2x4x12x12xf32>, %w: tensor<8x4x3x3xf32>, %init: tensor<2x8x10x10xf32>) -> tensor<2x8x10x10xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<2x4x12x12xf32>, tensor<8x4x3x3xf32>) outs(%init : tensor<2x8x10x10xf32>) -> tensor<2x8x10x10xf32>
  return %0 : tensor<2x8x10x10xf32>
}

// -----

// One image's columns (36 x 24*10 floats, 34,560 bytes) are over the
// budget too: the output rows are cut to the largest divisor of 24 whose
// columns fit, 12 rows (17,280 bytes), whose windows read 14 input rows
// from row 12 * i.
// CHECK-LABEL: func.func @row_tiles
// CHECK-NOT: scf.for {{.*}} to %c1
// CHECK: scf.for %[[R:.*]] = %c0 to %c24 step %c12
// CHECK: tensor.extract_slice %{{.*}}[0, 0, %[[R]], 0] [1, 4, 14, 12]
// CHECK: tensor.collapse_shape {{.*}} into tensor<1x36x120xf32>
// CHECK: tensor.insert_slice {{.*}}[0, 0, %[[R]], 0] [1, 8, 12, 10]
func.func @row_tiles(%x: tensor<1x4x26x12xf32>, %w: tensor<8x4x3x3xf32>, %init: tensor<1x8x24x10xf32>) -> tensor<1x8x24x10xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x4x26x12xf32>, tensor<8x4x3x3xf32>) outs(%init : tensor<1x8x24x10xf32>) -> tensor<1x8x24x10xf32>
  return %0 : tensor<1x8x24x10xf32>
}

// -----

// A 1x1 convolution of stride 1 copies nothing, so it is never cut.
// CHECK-LABEL: func.func @pointwise_uncut
// CHECK-NOT: scf.for
// CHECK: return
func.func @pointwise_uncut(%x: tensor<1x64x32x32xf32>, %w: tensor<8x64x1x1xf32>, %init: tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x64x32x32xf32>, tensor<8x64x1x1xf32>) outs(%init : tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  return %0 : tensor<1x8x32x32xf32>
}

// BAD: tsir-conv-to-matmul: column-budget must be positive
