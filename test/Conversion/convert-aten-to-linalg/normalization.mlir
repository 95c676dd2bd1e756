// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// batch_norm in inference: running statistics and parameters [C] are viewed
// as [C, 1, 1] and one generic computes (x - mean) / sqrt(var + eps) * w + b;
// eps, a scalar, is cast once outside it.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
// CHECK-LABEL: func.func @batch_norm_inference
// CHECK-SAME: %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[EPS_IN:.*]]: f64
// CHECK-DAG: %[[W:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
// CHECK-DAG: %[[EPSF:.*]] = arith.truncf %[[EPS_IN]] : f64 to f32
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[CH]], #[[CH]], #[[CH]], #[[ID]]]
// CHECK: ^bb0(%[[X:.*]]: f32, %[[M:.*]]: f32, %[[V:.*]]: f32, %[[WE:.*]]: f32, %[[BE:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[VE:.*]] = arith.addf %[[V]], %[[EPSF]] : f32
// CHECK-NEXT: %[[SQ:.*]] = math.sqrt %[[VE]] : f32
// CHECK-NEXT: %[[INV:.*]] = arith.divf %{{.*}}, %[[SQ]] : f32
// CHECK-NEXT: %[[C:.*]] = arith.subf %[[X]], %[[M]] : f32
// CHECK-NEXT: %[[N:.*]] = arith.mulf %[[C]], %[[INV]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[N]], %[[WE]] : f32
// CHECK-NEXT: %[[Y:.*]] = arith.addf %[[S]], %[[BE]] : f32
// CHECK-NEXT: linalg.yield %[[Y]]
func.func @batch_norm_inference(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 4, 5]>, %w: !prim.tensor<dtype = f32, sizes = [3]>, %b: !prim.tensor<dtype = f32, sizes = [3]>, %mean: !prim.tensor<dtype = f32, sizes = [3]>, %var: !prim.tensor<dtype = f32, sizes = [3]>, %eps: f64) -> !prim.tensor<dtype = f32, sizes = [2, 3, 4, 5]> {
  %false = prim.Constant {value = false} : i1
  %momentum = prim.Constant {value = 1.000000e-01 : f64} : f64
  %0 = aten.batch_norm %x, %w, %b, %mean, %var, %false, %momentum, %eps, %false : (!prim.tensor<dtype = f32, sizes = [2, 3, 4, 5]>, !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>, i1, f64, f64, i1) -> !prim.tensor<dtype = f32, sizes = [2, 3, 4, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 4, 5]>
}

// -----

// batch_norm training without running statistics normalizes with the
// batch's (biased) statistics over every dim but 1; no weight or bias.
// CHECK-LABEL: func.func @batch_norm_training
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [1, 3, 1] : tensor<3xf32> into tensor<1x3x1xf32>
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK: %[[N:.*]] = arith.mulf
// CHECK-NEXT: linalg.yield %[[N]]
func.func @batch_norm_training(%x: !prim.tensor<dtype = f32, sizes = [4, 3, 5]>) -> !prim.tensor<dtype = f32, sizes = [4, 3, 5]> {
  %none = prim.Constant {value} : !prim.none
  %true = prim.Constant {value = true} : i1
  %momentum = prim.Constant {value = 1.000000e-01 : f64} : f64
  %eps = prim.Constant {value = 1.000000e-05 : f64} : f64
  %0 = aten.batch_norm %x, %none, %none, %none, %none, %true, %momentum, %eps, %true : (!prim.tensor<dtype = f32, sizes = [4, 3, 5]>, !prim.none, !prim.none, !prim.none, !prim.none, i1, f64, f64, i1) -> !prim.tensor<dtype = f32, sizes = [4, 3, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4, 3, 5]>
}

// -----

// instance_norm with input statistics reduces over the spatial dims only.
// CHECK-LABEL: func.func @instance_norm
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] output_shape [2, 3, 1, 1] : tensor<2x3xf32> into tensor<2x3x1x1xf32>
func.func @instance_norm(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 4, 4]>, %w: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 4, 4]> {
  %none = prim.Constant {value} : !prim.none
  %true = prim.Constant {value = true} : i1
  %momentum = prim.Constant {value = 1.000000e-01 : f64} : f64
  %eps = prim.Constant {value = 1.000000e-05 : f64} : f64
  %0 = aten.instance_norm %x, %w, %none, %none, %none, %true, %momentum, %eps, %true : (!prim.tensor<dtype = f32, sizes = [2, 3, 4, 4]>, !prim.tensor<dtype = f32, sizes = [3]>, !prim.none, !prim.none, !prim.none, i1, f64, f64, i1) -> !prim.tensor<dtype = f32, sizes = [2, 3, 4, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 4, 4]>
}

// -----

// layer_norm over the last dim: mean and variance of [2, 5], broadcast back
// as [2, 5, 1]; weight and bias [8] meet the trailing dim.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[STAT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-DAG: #[[LAST:.*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @layer_norm
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [2, 5, 1]
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [2, 5, 1]
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[STAT]], #[[STAT]], #[[LAST]], #[[LAST]], #[[ID]]]
func.func @layer_norm(%x: !prim.tensor<dtype = f32, sizes = [2, 5, 8]>, %w: !prim.tensor<dtype = f32, sizes = [8]>, %b: !prim.tensor<dtype = f32, sizes = [8]>) -> !prim.tensor<dtype = f32, sizes = [2, 5, 8]> {
  %shape = prim.Constant {value = [8 : i64]} : !prim.list<i64>
  %eps = prim.Constant {value = 1.000000e-05 : f64} : f64
  %true = prim.Constant {value = true} : i1
  %0 = aten.layer_norm %x, %shape, %w, %b, %eps, %true : (!prim.tensor<dtype = f32, sizes = [2, 5, 8]>, !prim.list<i64>, !prim.tensor<dtype = f32, sizes = [8]>, !prim.tensor<dtype = f32, sizes = [8]>, f64, i1) -> !prim.tensor<dtype = f32, sizes = [2, 5, 8]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 5, 8]>
}

// -----

// layer_norm of f16 computes its statistics and result in f32.
// CHECK-LABEL: func.func @layer_norm_half
// CHECK: ^bb0(%[[X:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[XF:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @layer_norm_half(%x: !prim.tensor<dtype = f16, sizes = [2, 8]>) -> !prim.tensor<dtype = f16, sizes = [2, 8]> {
  %shape = prim.Constant {value = [8 : i64]} : !prim.list<i64>
  %none = prim.Constant {value} : !prim.none
  %eps = prim.Constant {value = 1.000000e-05 : f64} : f64
  %true = prim.Constant {value = true} : i1
  %0 = aten.layer_norm %x, %shape, %none, %none, %eps, %true : (!prim.tensor<dtype = f16, sizes = [2, 8]>, !prim.list<i64>, !prim.none, !prim.none, f64, i1) -> !prim.tensor<dtype = f16, sizes = [2, 8]>
  return %0 : !prim.tensor<dtype = f16, sizes = [2, 8]>
}

// -----

// group_norm views [N, C, H] as [N, G, C/G, H], normalizes over the dims
// after G with per-channel weight as [G, C/G, 1], and views the result back.
// CHECK-LABEL: func.func @group_norm
// CHECK: %[[G:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] output_shape [2, 2, 3, 5] : tensor<2x6x5xf32> into tensor<2x2x3x5xf32>
// CHECK: %[[W:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [2, 3, 1] : tensor<6xf32> into tensor<2x3x1xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x2x3x5xf32>)
// CHECK: tensor.collapse_shape %[[Y]] {{\[\[}}0], [1, 2], [3]] : tensor<2x2x3x5xf32> into tensor<2x6x5xf32>
func.func @group_norm(%x: !prim.tensor<dtype = f32, sizes = [2, 6, 5]>, %w: !prim.tensor<dtype = f32, sizes = [6]>) -> !prim.tensor<dtype = f32, sizes = [2, 6, 5]> {
  %groups = prim.Constant {value = 2 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %eps = prim.Constant {value = 1.000000e-05 : f64} : f64
  %true = prim.Constant {value = true} : i1
  %0 = aten.group_norm %x, %groups, %w, %none, %eps, %true : (!prim.tensor<dtype = f32, sizes = [2, 6, 5]>, i64, !prim.tensor<dtype = f32, sizes = [6]>, !prim.none, f64, i1) -> !prim.tensor<dtype = f32, sizes = [2, 6, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 6, 5]>
}

// -----

// Training with running statistics normalizes with the batch's and does
// not update them (tsir's weights are read-only): they are not read.
// CHECK-LABEL: func.func @batch_norm_training_running
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0
// CHECK-NOT: %arg1
// CHECK-NOT: %arg2
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]{{.*}} ins(%[[X]] : tensor<4x3xf32>)
// CHECK-NOT: %arg1
// CHECK-NOT: %arg2
// CHECK: return
func.func @batch_norm_training_running(%x: !prim.tensor<dtype = f32, sizes = [4, 3]>, %mean: !prim.tensor<dtype = f32, sizes = [3]>, %var: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [4, 3]> {
  %none = prim.Constant {value} : !prim.none
  %true = prim.Constant {value = true} : i1
  %momentum = prim.Constant {value = 1.000000e-01 : f64} : f64
  %eps = prim.Constant {value = 1.000000e-05 : f64} : f64
  %0 = aten.batch_norm %x, %none, %none, %mean, %var, %true, %momentum, %eps, %true : (!prim.tensor<dtype = f32, sizes = [4, 3]>, !prim.none, !prim.none, !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>, i1, f64, f64, i1) -> !prim.tensor<dtype = f32, sizes = [4, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4, 3]>
}

// -----

// Inference needs running statistics.
func.func @batch_norm_inference_without_stats(%x: !prim.tensor<dtype = f32, sizes = [4, 3]>) -> !prim.tensor<dtype = f32, sizes = [4, 3]> {
  %none = prim.Constant {value} : !prim.none
  %false = prim.Constant {value = false} : i1
  %momentum = prim.Constant {value = 1.000000e-01 : f64} : f64
  %eps = prim.Constant {value = 1.000000e-05 : f64} : f64
  // expected-error @+1 {{failed to legalize operation 'aten.batch_norm'}}
  %0 = aten.batch_norm %x, %none, %none, %none, %none, %false, %momentum, %eps, %false : (!prim.tensor<dtype = f32, sizes = [4, 3]>, !prim.none, !prim.none, !prim.none, !prim.none, i1, f64, f64, i1) -> !prim.tensor<dtype = f32, sizes = [4, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4, 3]>
}

// -----

func.func @group_norm_groups_not_dividing(%x: !prim.tensor<dtype = f32, sizes = [2, 6, 5]>) -> !prim.tensor<dtype = f32, sizes = [2, 6, 5]> {
  %groups = prim.Constant {value = 4 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %eps = prim.Constant {value = 1.000000e-05 : f64} : f64
  %true = prim.Constant {value = true} : i1
  // expected-error @+1 {{failed to legalize operation 'aten.group_norm'}}
  %0 = aten.group_norm %x, %groups, %none, %none, %eps, %true : (!prim.tensor<dtype = f32, sizes = [2, 6, 5]>, i64, !prim.none, !prim.none, f64, i1) -> !prim.tensor<dtype = f32, sizes = [2, 6, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 6, 5]>
}
