// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// mm: one linalg.matmul into a zero-filled init.
// CHECK-LABEL: func.func @mm
// CHECK-DAG: %[[A:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<2x3xf32>
// CHECK-DAG: %[[B:.*]] = builtin.unrealized_conversion_cast %arg1 {{.*}} to tensor<3x4xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2x4xf32>)
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[F]] : tensor<2x4xf32>) -> tensor<2x4xf32>
func.func @mm(%a: !prim.tensor<dtype = f32, sizes = [2, 3]>, %b: !prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [2, 4]> {
  %0 = aten.mm %a, %b : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [2, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 4]>
}

// -----

// A dynamic row count flows through tensor.dim into the init.
// CHECK-LABEL: func.func @mm_dynamic
// CHECK: %[[A:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<?x3xf64>
// CHECK: %[[D:.*]] = tensor.dim %[[A]], %c0
// CHECK: tensor.empty(%[[D]]) : tensor<?x4xf64>
// CHECK: linalg.matmul {{.*}} -> tensor<?x4xf64>
func.func @mm_dynamic(%a: !prim.tensor<dtype = f64, sizes = [?, 3]>, %b: !prim.tensor<dtype = f64, sizes = [3, 4]>) -> !prim.tensor<dtype = f64, sizes = [?, 4]> {
  %0 = aten.mm %a, %b : (!prim.tensor<dtype = f64, sizes = [?, 3]>, !prim.tensor<dtype = f64, sizes = [3, 4]>) -> !prim.tensor<dtype = f64, sizes = [?, 4]>
  return %0 : !prim.tensor<dtype = f64, sizes = [?, 4]>
}

// -----

// CHECK-LABEL: func.func @bmm
// CHECK: linalg.batch_matmul ins({{.*}} : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs({{.*}} : tensor<2x3x5xf32>)
func.func @bmm(%a: !prim.tensor<dtype = f32, sizes = [2, 3, 4]>, %b: !prim.tensor<dtype = f32, sizes = [2, 4, 5]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5]> {
  %0 = aten.bmm %a, %b : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, !prim.tensor<dtype = f32, sizes = [2, 4, 5]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 5]>
}

// -----

// matmul of two vectors is a dot product into a 0-d tensor.
// CHECK-LABEL: func.func @matmul_1x1
// CHECK: linalg.dot ins({{.*}} : tensor<7xf32>, tensor<7xf32>) outs({{.*}} : tensor<f32>) -> tensor<f32>
func.func @matmul_1x1(%a: !prim.tensor<dtype = f32, sizes = [7]>, %b: !prim.tensor<dtype = f32, sizes = [7]>) -> !prim.tensor<dtype = f32, sizes = []> {
  %0 = aten.matmul %a, %b : (!prim.tensor<dtype = f32, sizes = [7]>, !prim.tensor<dtype = f32, sizes = [7]>) -> !prim.tensor<dtype = f32, sizes = []>
  return %0 : !prim.tensor<dtype = f32, sizes = []>
}

// -----

// CHECK-LABEL: func.func @matmul_2x1
// CHECK: linalg.matvec ins({{.*}} : tensor<3x7xf32>, tensor<7xf32>) outs({{.*}} : tensor<3xf32>)
func.func @matmul_2x1(%a: !prim.tensor<dtype = f32, sizes = [3, 7]>, %b: !prim.tensor<dtype = f32, sizes = [7]>) -> !prim.tensor<dtype = f32, sizes = [3]> {
  %0 = aten.matmul %a, %b : (!prim.tensor<dtype = f32, sizes = [3, 7]>, !prim.tensor<dtype = f32, sizes = [7]>) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// CHECK-LABEL: func.func @matmul_1x2
// CHECK: linalg.vecmat ins({{.*}} : tensor<7xf32>, tensor<7x4xf32>) outs({{.*}} : tensor<4xf32>)
func.func @matmul_1x2(%a: !prim.tensor<dtype = f32, sizes = [7]>, %b: !prim.tensor<dtype = f32, sizes = [7, 4]>) -> !prim.tensor<dtype = f32, sizes = [4]> {
  %0 = aten.matmul %a, %b : (!prim.tensor<dtype = f32, sizes = [7]>, !prim.tensor<dtype = f32, sizes = [7, 4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4]>
}

// -----

// A batch of matrices times one matrix: the batch folds into the rows.
// CHECK-LABEL: func.func @matmul_3x2
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x5x3xf32> into tensor<10x3xf32>
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[FLAT]], %{{.*}} : tensor<10x3xf32>, tensor<3x4xf32>)
// CHECK: tensor.expand_shape %[[MM]] {{\[\[}}0, 1], [2]] output_shape [2, 5, 4] : tensor<10x4xf32> into tensor<2x5x4xf32>
func.func @matmul_3x2(%a: !prim.tensor<dtype = f32, sizes = [2, 5, 3]>, %b: !prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [2, 5, 4]> {
  %0 = aten.matmul %a, %b : (!prim.tensor<dtype = f32, sizes = [2, 5, 3]>, !prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [2, 5, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 5, 4]>
}

// -----

// Equal batch dims flatten into one batch_matmul.
// CHECK-LABEL: func.func @matmul_4x4
// CHECK: tensor.collapse_shape {{.*}} : tensor<2x3x5x4xf32> into tensor<6x5x4xf32>
// CHECK: tensor.collapse_shape {{.*}} : tensor<2x3x4x6xf32> into tensor<6x4x6xf32>
// CHECK: %[[BMM:.*]] = linalg.batch_matmul {{.*}} -> tensor<6x5x6xf32>
// CHECK: tensor.expand_shape %[[BMM]] {{\[\[}}0, 1], [2], [3]] output_shape [2, 3, 5, 6]
func.func @matmul_4x4(%a: !prim.tensor<dtype = f32, sizes = [2, 3, 5, 4]>, %b: !prim.tensor<dtype = f32, sizes = [2, 3, 4, 6]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5, 6]> {
  %0 = aten.matmul %a, %b : (!prim.tensor<dtype = f32, sizes = [2, 3, 5, 4]>, !prim.tensor<dtype = f32, sizes = [2, 3, 4, 6]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5, 6]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 5, 6]>
}

// -----

// Broadcast batch dims: one generic whose maps pin the size-1 batch dim of
// the lhs to 0 and leave out the batch dims the rhs lacks.
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d4)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @matmul_broadcast
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins({{.*}} : tensor<2x1x5x4xf32>, tensor<3x4x6xf32>) outs({{.*}} : tensor<2x3x5x6xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @matmul_broadcast(%a: !prim.tensor<dtype = f32, sizes = [2, 1, 5, 4]>, %b: !prim.tensor<dtype = f32, sizes = [3, 4, 6]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5, 6]> {
  %0 = aten.matmul %a, %b : (!prim.tensor<dtype = f32, sizes = [2, 1, 5, 4]>, !prim.tensor<dtype = f32, sizes = [3, 4, 6]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5, 6]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 5, 6]>
}

// -----

// Integer products use integer arithmetic.
// CHECK-LABEL: func.func @matmul_vector_batch_i64
// CHECK: linalg.generic
// CHECK-SAME: ins({{.*}} : tensor<7xi64>, tensor<2x7x4xi64>) outs({{.*}} : tensor<2x4xi64>)
// CHECK: arith.muli
// CHECK: arith.addi
func.func @matmul_vector_batch_i64(%a: !prim.tensor<dtype = si64, sizes = [7]>, %b: !prim.tensor<dtype = si64, sizes = [2, 7, 4]>) -> !prim.tensor<dtype = si64, sizes = [2, 4]> {
  %0 = aten.matmul %a, %b : (!prim.tensor<dtype = si64, sizes = [7]>, !prim.tensor<dtype = si64, sizes = [2, 7, 4]>) -> !prim.tensor<dtype = si64, sizes = [2, 4]>
  return %0 : !prim.tensor<dtype = si64, sizes = [2, 4]>
}

// -----

// addmm with beta = alpha = 1: the broadcast self is the matmul's init.
// CHECK-LABEL: func.func @addmm
// CHECK: %[[SELF:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<5xf32>) outs(%{{.*}} : tensor<3x5xf32>)
// CHECK: linalg.matmul ins({{.*}}) outs(%[[SELF]] : tensor<3x5xf32>)
// CHECK-NOT: linalg.generic
func.func @addmm(%s: !prim.tensor<dtype = f32, sizes = [5]>, %a: !prim.tensor<dtype = f32, sizes = [3, 4]>, %b: !prim.tensor<dtype = f32, sizes = [4, 5]>) -> !prim.tensor<dtype = f32, sizes = [3, 5]> {
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.addmm %s, %a, %b, %one, %one : (!prim.tensor<dtype = f32, sizes = [5]>, !prim.tensor<dtype = f32, sizes = [3, 4]>, !prim.tensor<dtype = f32, sizes = [4, 5]>, i64, i64) -> !prim.tensor<dtype = f32, sizes = [3, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 5]>
}

// -----

// Other scales: the product, then alpha * product + beta * self.
// CHECK-LABEL: func.func @addmm_scaled
// CHECK-DAG: %[[B64:.*]] = prim.Constant {value = 5.000000e-01 : f64}
// CHECK-DAG: %[[A64:.*]] = prim.Constant {value = -2.000000e+00 : f64}
// CHECK: %[[MM:.*]] = linalg.matmul
// CHECK-DAG: %[[ALPHA:.*]] = arith.truncf %[[A64]] : f64 to f32
// CHECK-DAG: %[[BETA:.*]] = arith.truncf %[[B64]] : f64 to f32
// CHECK: linalg.generic {{.*}} ins(%[[MM]], %{{.*}} : tensor<3x5xf32>, tensor<3x5xf32>)
// CHECK: ^bb0(%[[P:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[AP:.*]] = arith.mulf %[[ALPHA]], %[[P]]
// CHECK: %[[BS:.*]] = arith.mulf %[[BETA]], %[[S]]
// CHECK: arith.addf %[[AP]], %[[BS]]
func.func @addmm_scaled(%s: !prim.tensor<dtype = f32, sizes = [3, 1]>, %a: !prim.tensor<dtype = f32, sizes = [3, 4]>, %b: !prim.tensor<dtype = f32, sizes = [4, 5]>) -> !prim.tensor<dtype = f32, sizes = [3, 5]> {
  %beta = prim.Constant {value = 5.000000e-01 : f64} : f64
  %alpha = prim.Constant {value = -2.000000e+00 : f64} : f64
  %0 = aten.addmm %s, %a, %b, %beta, %alpha : (!prim.tensor<dtype = f32, sizes = [3, 1]>, !prim.tensor<dtype = f32, sizes = [3, 4]>, !prim.tensor<dtype = f32, sizes = [4, 5]>, f64, f64) -> !prim.tensor<dtype = f32, sizes = [3, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 5]>
}

// -----

// beta = 0 drops self altogether (a NaN in it does not propagate).
// CHECK-LABEL: func.func @addmm_beta0
// CHECK: %[[MM:.*]] = linalg.matmul
// CHECK: linalg.generic {{.*}} ins(%[[MM]] : tensor<3x5xf32>)
// CHECK: arith.mulf
// CHECK-NOT: arith.addf
func.func @addmm_beta0(%s: !prim.tensor<dtype = f32, sizes = [5]>, %a: !prim.tensor<dtype = f32, sizes = [3, 4]>, %b: !prim.tensor<dtype = f32, sizes = [4, 5]>) -> !prim.tensor<dtype = f32, sizes = [3, 5]> {
  %beta = prim.Constant {value = 0.000000e+00 : f64} : f64
  %alpha = prim.Constant {value = 3 : i64} : i64
  %0 = aten.addmm %s, %a, %b, %beta, %alpha : (!prim.tensor<dtype = f32, sizes = [5]>, !prim.tensor<dtype = f32, sizes = [3, 4]>, !prim.tensor<dtype = f32, sizes = [4, 5]>, f64, i64) -> !prim.tensor<dtype = f32, sizes = [3, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 5]>
}

// -----

// CHECK-LABEL: func.func @baddbmm
// CHECK: %[[SELF:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<2x3x5xf32>) outs(%{{.*}} : tensor<2x3x5xf32>)
// CHECK: linalg.batch_matmul ins({{.*}} : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%[[SELF]] : tensor<2x3x5xf32>)
func.func @baddbmm(%s: !prim.tensor<dtype = f32, sizes = [2, 3, 5]>, %a: !prim.tensor<dtype = f32, sizes = [2, 3, 4]>, %b: !prim.tensor<dtype = f32, sizes = [2, 4, 5]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5]> {
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.baddbmm %s, %a, %b, %one, %one : (!prim.tensor<dtype = f32, sizes = [2, 3, 5]>, !prim.tensor<dtype = f32, sizes = [2, 3, 4]>, !prim.tensor<dtype = f32, sizes = [2, 4, 5]>, i64, i64) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 5]>
}

// -----

// linear: rows [M, K] times the weight [N, K] read transposed by the
// matmul's maps, accumulating into the bias broadcast over the rows.
// CHECK-DAG: #[[BIAS:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[WT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @linear
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x5x3xf32> into tensor<10x3xf32>
// CHECK: %[[INIT:.*]] = linalg.generic {indexing_maps = [#[[BIAS]], #{{.*}}]{{.*}} ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<10x4xf32>)
// CHECK: %[[MM:.*]] = linalg.matmul indexing_maps = [#[[A]], #[[WT]], #[[C]]] ins(%[[ROWS]], %{{.*}} : tensor<10x3xf32>, tensor<4x3xf32>) outs(%[[INIT]] : tensor<10x4xf32>)
// CHECK: tensor.expand_shape %[[MM]] {{\[\[}}0, 1], [2]] output_shape [2, 5, 4] : tensor<10x4xf32> into tensor<2x5x4xf32>
func.func @linear(%x: !prim.tensor<dtype = f32, sizes = [2, 5, 3]>, %w: !prim.tensor<dtype = f32, sizes = [4, 3]>, %b: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [2, 5, 4]> {
  %0 = aten.linear %x, %w, %b : (!prim.tensor<dtype = f32, sizes = [2, 5, 3]>, !prim.tensor<dtype = f32, sizes = [4, 3]>, !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [2, 5, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 5, 4]>
}

// -----

// Without a bias the init is zeros; a 1-D input is one row.
// CHECK-LABEL: func.func @linear_vector_nobias
// CHECK: %[[ROW:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 3] : tensor<3xf32> into tensor<1x3xf32>
// CHECK: %[[Z:.*]] = linalg.fill {{.*}} -> tensor<1x4xf32>
// CHECK: %[[MM:.*]] = linalg.matmul {{.*}} ins(%[[ROW]], %{{.*}}) outs(%[[Z]] : tensor<1x4xf32>)
// CHECK: tensor.collapse_shape %[[MM]] {{\[\[}}0, 1]] : tensor<1x4xf32> into tensor<4xf32>
func.func @linear_vector_nobias(%x: !prim.tensor<dtype = f32, sizes = [3]>, %w: !prim.tensor<dtype = f32, sizes = [4, 3]>) -> !prim.tensor<dtype = f32, sizes = [4]> {
  %none = prim.Constant {value} : !prim.none
  %0 = aten.linear %x, %w, %none : (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [4, 3]>, !prim.none) -> !prim.tensor<dtype = f32, sizes = [4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4]>
}

// -----

// CHECK-LABEL: func.func @outer
// CHECK: linalg.generic {{.*}} ins({{.*}} : tensor<4xf64>, tensor<3xf64>) outs({{.*}} : tensor<4x3xf64>)
// CHECK: arith.mulf
func.func @outer(%a: !prim.tensor<dtype = f64, sizes = [4]>, %b: !prim.tensor<dtype = f64, sizes = [3]>) -> !prim.tensor<dtype = f64, sizes = [4, 3]> {
  %0 = aten.outer %a, %b : (!prim.tensor<dtype = f64, sizes = [4]>, !prim.tensor<dtype = f64, sizes = [3]>) -> !prim.tensor<dtype = f64, sizes = [4, 3]>
  return %0 : !prim.tensor<dtype = f64, sizes = [4, 3]>
}

// -----

// CHECK-LABEL: func.func @dot
// CHECK: linalg.dot
func.func @dot(%a: !prim.tensor<dtype = f32, sizes = [9]>, %b: !prim.tensor<dtype = f32, sizes = [9]>) -> !prim.tensor<dtype = f32, sizes = []> {
  %0 = aten.dot %a, %b : (!prim.tensor<dtype = f32, sizes = [9]>, !prim.tensor<dtype = f32, sizes = [9]>) -> !prim.tensor<dtype = f32, sizes = []>
  return %0 : !prim.tensor<dtype = f32, sizes = []>
}

// -----

// Without refined types there is nothing to lower to.
func.func @mm_unrefined(%a: !prim.tensor, %b: !prim.tensor) -> !prim.tensor {
  // expected-error @+1 {{failed to legalize operation 'aten.mm'}}
  %0 = aten.mm %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %0 : !prim.tensor
}

// -----

// torch refuses mixed dtypes in a product; so does the lowering.
func.func @mm_mixed(%a: !prim.tensor<dtype = f32, sizes = [2, 3]>, %b: !prim.tensor<dtype = f64, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [2, 4]> {
  // expected-error @+1 {{failed to legalize operation 'aten.mm'}}
  %0 = aten.mm %a, %b : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f64, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [2, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 4]>
}

// -----

// linear with a 1-D weight is not lowered.
func.func @linear_vector_weight(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>, %w: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [2]> {
  %none = prim.Constant {value} : !prim.none
  // expected-error @+1 {{failed to legalize operation 'aten.linear'}}
  %0 = aten.linear %x, %w, %none : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [3]>, !prim.none) -> !prim.tensor<dtype = f32, sizes = [2]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2]>
}

// -----

// mm of mismatched contraction dims (torch raises) is not lowered.
func.func @mm_mismatch(%a: !prim.tensor<dtype = f32, sizes = [2, 3]>, %b: !prim.tensor<dtype = f32, sizes = [4, 5]>) -> !prim.tensor<dtype = f32, sizes = [2, 5]> {
  // expected-error @+1 {{failed to legalize operation 'aten.mm'}}
  %0 = aten.mm %a, %b : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [4, 5]>) -> !prim.tensor<dtype = f32, sizes = [2, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 5]>
}

// -----

// bmm does not broadcast its batch.
func.func @bmm_batch_mismatch(%a: !prim.tensor<dtype = f32, sizes = [1, 3, 4]>, %b: !prim.tensor<dtype = f32, sizes = [2, 4, 5]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5]> {
  // expected-error @+1 {{failed to legalize operation 'aten.bmm'}}
  %0 = aten.bmm %a, %b : (!prim.tensor<dtype = f32, sizes = [1, 3, 4]>, !prim.tensor<dtype = f32, sizes = [2, 4, 5]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 5]>
}

// -----

// A result type the operands contradict is refused rather than cast.
func.func @matmul_wrong_result(%a: !prim.tensor<dtype = f32, sizes = [2, 3]>, %b: !prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [2, 5]> {
  // expected-error @+1 {{failed to legalize operation 'aten.matmul'}}
  %0 = aten.matmul %a, %b : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [2, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 5]>
}

// -----

// einsum: a loop per label (output labels first), the others reduced.
// CHECK-DAG: #[[Q:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[K:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[S:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @einsum_attention
// CHECK: %[[Z:.*]] = linalg.fill {{.*}} -> tensor<1x2x3x5xf32>
// CHECK: linalg.generic {indexing_maps = [#[[Q]], #[[K]], #[[S]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<1x2x3x4xf32>, tensor<1x2x5x4xf32>) outs(%[[Z]] : tensor<1x2x3x5xf32>)
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK: %[[P:.*]] = arith.mulf %[[A]], %[[B]]
// CHECK: arith.addf %[[ACC]], %[[P]]
func.func @einsum_attention(%q: !prim.tensor<dtype = f32, sizes = [1, 2, 3, 4]>, %k: !prim.tensor<dtype = f32, sizes = [1, 2, 5, 4]>) -> !prim.tensor<dtype = f32, sizes = [1, 2, 3, 5]> {
  %none = prim.Constant {value} : !prim.none
  %eq = prim.Constant {value = "bhqd, bhkd -> bhqk"} : !prim.str
  %list = prim.ListConstruct %q, %k : (!prim.tensor<dtype = f32, sizes = [1, 2, 3, 4]>, !prim.tensor<dtype = f32, sizes = [1, 2, 5, 4]>) -> !prim.list<!prim.tensor>
  %0 = aten.einsum %eq, %list, %none : (!prim.str, !prim.list<!prim.tensor>, !prim.none) -> !prim.tensor<dtype = f32, sizes = [1, 2, 3, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 2, 3, 5]>
}

// -----

// The implicit output is the labels used once, sorted (j, k); a repeated
// label within an operand reads its diagonal; a size-1 dim broadcasts.
// CHECK-DAG: #[[DIAG:.*]] = affine_map<(d0, d1, d2) -> (d2, d2, d1)>
// CHECK-DAG: #[[BCAST:.*]] = affine_map<(d0, d1, d2) -> (0, d0)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @einsum_implicit
// CHECK: linalg.generic {indexing_maps = [#[[DIAG]], #[[BCAST]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: outs(%{{.*}} : tensor<6x4xf32>)
func.func @einsum_implicit(%a: !prim.tensor<dtype = f32, sizes = [3, 3, 4]>, %b: !prim.tensor<dtype = f32, sizes = [1, 6]>) -> !prim.tensor<dtype = f32, sizes = [6, 4]> {
  %none = prim.Constant {value} : !prim.none
  %eq = prim.Constant {value = "iik,ij"} : !prim.str
  %list = prim.ListConstruct %a, %b : (!prim.tensor<dtype = f32, sizes = [3, 3, 4]>, !prim.tensor<dtype = f32, sizes = [1, 6]>) -> !prim.list<!prim.tensor>
  %0 = aten.einsum %eq, %list, %none : (!prim.str, !prim.list<!prim.tensor>, !prim.none) -> !prim.tensor<dtype = f32, sizes = [6, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [6, 4]>
}

// -----

// An ellipsis is as many fresh labels as the dims it covers: here the
// first two dims of %a, which %b (no ellipsis dims) broadcasts against.
// CHECK-DAG: #[[EA:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[EB:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-DAG: #[[EO:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @einsum_ellipsis
// CHECK: linalg.generic {indexing_maps = [#[[EA]], #[[EB]], #[[EO]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: outs(%{{.*}} : tensor<2x3x5xf32>)
func.func @einsum_ellipsis(%a: !prim.tensor<dtype = f32, sizes = [2, 3, 4]>, %b: !prim.tensor<dtype = f32, sizes = [4, 5]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5]> {
  %none = prim.Constant {value} : !prim.none
  %eq = prim.Constant {value = "...k,kn->...n"} : !prim.str
  %list = prim.ListConstruct %a, %b : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, !prim.tensor<dtype = f32, sizes = [4, 5]>) -> !prim.list<!prim.tensor>
  %0 = aten.einsum %eq, %list, %none : (!prim.str, !prim.list<!prim.tensor>, !prim.none) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 5]>
}
