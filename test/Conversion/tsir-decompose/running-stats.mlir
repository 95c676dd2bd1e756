// RUN: tsir-opt %s --tsir-decompose -split-input-file | FileCheck %s

// A training-mode batch norm with running statistics: the update is split
// off as in-place ops on the buffers (momentum * batch + (1 - momentum) *
// running, the variance unbiased), and the batch norm keeps the batch's
// statistics only.
// CHECK-LABEL: func.func @training
// CHECK: %[[ROWS:.*]] = aten.reshape
// CHECK: %[[MEAN:.*]] = aten.mean.dim %[[ROWS]]
// CHECK: %[[VAR:.*]] = aten.var.correction %[[ROWS]]
// CHECK: %[[KEEP:.*]] = aten.sub.float %{{.*}}, %arg5
// CHECK: %[[M:.*]] = aten.mul_.Scalar %arg3, %[[KEEP]]
// CHECK: aten.add_.Tensor %[[M]], %[[MEAN]], %arg5
// CHECK: %[[V:.*]] = aten.mul_.Scalar %arg4, %[[KEEP]]
// CHECK: aten.add_.Tensor %[[V]], %[[VAR]], %arg5
// CHECK: aten.batch_norm %arg0, %arg1, %arg2, %[[NONE:[^,]*]], %[[NONE]], %{{.*}}, %arg5
// CHECK-SAME: !prim.none, !prim.none
func.func @training(%x: !prim.tensor, %w: !prim.tensor, %b: !prim.tensor, %mean: !prim.tensor, %var: !prim.tensor, %momentum: f64) -> !prim.tensor {
  %true = prim.Constant {value = true} : i1
  %eps = prim.Constant {value = 1.0e-05 : f64} : f64
  %0 = aten.batch_norm %x, %w, %b, %mean, %var, %true, %momentum, %eps, %true : (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, i1, f64, f64, i1) -> !prim.tensor
  return %0 : !prim.tensor
}

// -----

// In eval mode, or without running statistics, nothing changes.
// CHECK-LABEL: func.func @eval
// CHECK-NOT: aten.mul_
// CHECK: aten.batch_norm %arg0, %arg1, %arg2, %arg3, %arg4
func.func @eval(%x: !prim.tensor, %w: !prim.tensor, %b: !prim.tensor, %mean: !prim.tensor, %var: !prim.tensor, %momentum: f64) -> !prim.tensor {
  %false = prim.Constant {value = false} : i1
  %eps = prim.Constant {value = 1.0e-05 : f64} : f64
  %0 = aten.batch_norm %x, %w, %b, %mean, %var, %false, %momentum, %eps, %false : (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, i1, f64, f64, i1) -> !prim.tensor
  return %0 : !prim.tensor
}
