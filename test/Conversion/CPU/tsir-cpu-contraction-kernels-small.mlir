// Products below min-work get no kernel; LLVM compiles their loops. Those
// whose B is read [k, n] get k's loop outside n's first: linalg's order
// (k innermost) loads and stores the same C element in every step of a
// serial f32 sum, which LLVM cannot vectorize; along n, the innermost loop
// reads B and C contiguously. B read [n, k] (nn.Linear's weight) and a
// single column keep linalg's order.
// RUN: tsir-opt %s --tsir-cpu-contraction-kernels -split-input-file | FileCheck %s

// An LSTM step's 1 x 128 x 32 product (4096 multiply-adds).
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @lstm_step
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : memref<1x32xf32>, memref<32x128xf32>) outs(%{{.*}} : memref<1x128xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: linalg.matmul
func.func @lstm_step(%a: memref<1x32xf32>, %b: memref<32x128xf32>, %c: memref<1x128xf32>) {
  linalg.matmul ins(%a, %b : memref<1x32xf32>, memref<32x128xf32>) outs(%c : memref<1x128xf32>)
  return
}

// -----

// A small batched product: the batch stays outermost.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-LABEL: func.func @small_batch
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
func.func @small_batch(%a: memref<2x4x8xf32>, %b: memref<2x8x16xf32>, %c: memref<2x4x16xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x4x8xf32>, memref<2x8x16xf32>) outs(%c : memref<2x4x16xf32>)
  return
}

// -----

// nn.Linear's small product keeps its order (and its named op).
// CHECK-LABEL: func.func @small_linear
// CHECK: linalg.matmul indexing_maps
// CHECK-NOT: linalg.generic
func.func @small_linear(%a: memref<1x32xf32>, %w: memref<10x32xf32>, %c: memref<1x10xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %w : memref<1x32xf32>, memref<10x32xf32>) outs(%c : memref<1x10xf32>)
  return
}

// -----

// One column: nothing to vectorize along n.
// CHECK-LABEL: func.func @one_column
// CHECK: linalg.matmul ins
// CHECK-NOT: linalg.generic
func.func @one_column(%a: memref<4x32xf32>, %b: memref<32x1xf32>, %c: memref<4x1xf32>) {
  linalg.matmul ins(%a, %b : memref<4x32xf32>, memref<32x1xf32>) outs(%c : memref<4x1xf32>)
  return
}
