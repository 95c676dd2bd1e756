// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// Inverse and hyperbolic trig map onto the math dialect, one generic each.
// CHECK-LABEL: func.func @trig
// CHECK: linalg.generic
// CHECK: math.acos
// CHECK: linalg.generic
// CHECK: math.atanh
// CHECK: linalg.generic
// CHECK: math.tan
func.func @trig(%x: !prim.tensor<dtype = f32, sizes = [4]>) -> (!prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = f32, sizes = [4]>) {
  %0 = aten.acos %x : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  %1 = aten.atanh %x : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  %2 = aten.tan %x : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  return %0, %1, %2 : !prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = f32, sizes = [4]>
}

// -----

// xlogy: x * log(y), 0 where x is 0, NaN where y is NaN (the select on y
// comes last so that it wins).
// CHECK-LABEL: func.func @xlogy
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[L:.*]] = math.log %[[Y]] : f32
// CHECK: %[[P:.*]] = arith.mulf %[[X]], %[[L]] : f32
// CHECK: %[[Z:.*]] = arith.cmpf oeq, %[[X]]
// CHECK: %[[R:.*]] = arith.select %[[Z]], %{{.*}}, %[[P]]
// CHECK: %[[N:.*]] = arith.cmpf uno, %[[Y]], %[[Y]]
// CHECK: arith.select %[[N]], %[[Y]], %[[R]]
func.func @xlogy(%x: !prim.tensor<dtype = f32, sizes = [4]>, %y: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]> {
  %0 = aten.xlogy.Tensor %x, %y : (!prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4]>
}

// -----

// fmin/fmax ignore NaN (minnumf/maxnumf); on ints they are min/max.
// CHECK-LABEL: func.func @fmin_fmax
// CHECK: arith.minnumf
// CHECK: arith.maxsi
func.func @fmin_fmax(%x: !prim.tensor<dtype = f32, sizes = [4]>, %i: !prim.tensor<dtype = si64, sizes = [4]>) -> (!prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = si64, sizes = [4]>) {
  %0 = aten.fmin %x, %x : (!prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  %1 = aten.fmax %i, %i : (!prim.tensor<dtype = si64, sizes = [4]>, !prim.tensor<dtype = si64, sizes = [4]>) -> !prim.tensor<dtype = si64, sizes = [4]>
  return %0, %1 : !prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = si64, sizes = [4]>
}

// -----

// float_power computes in float64 whatever its operands.
// CHECK-LABEL: func.func @float_power
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f64):
// CHECK: %[[XD:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK: %[[YD:.*]] = arith.extf %[[Y]] : f32 to f64
// CHECK: math.powf %[[XD]], %[[YD]] : f64
func.func @float_power(%x: !prim.tensor<dtype = f32, sizes = [4]>, %y: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f64, sizes = [4]> {
  %0 = aten.float_power.Tensor_Tensor %x, %y : (!prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f64, sizes = [4]>
  return %0 : !prim.tensor<dtype = f64, sizes = [4]>
}

// -----

// signbit reads the sign bit itself, so that -0.0 counts.
// CHECK-LABEL: func.func @signbit
// CHECK: %[[B:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.cmpi slt, %[[B]]
func.func @signbit(%x: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = i1, sizes = [4]> {
  %0 = aten.signbit %x : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = i1, sizes = [4]>
  return %0 : !prim.tensor<dtype = i1, sizes = [4]>
}

// -----

// Without a refined dtype the op is left for the error report.
func.func @unrefined(%x: !prim.tensor) -> !prim.tensor {
  // expected-error @+1 {{failed to legalize operation 'aten.logaddexp'}}
  %0 = aten.logaddexp %x, %x : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %0 : !prim.tensor
}

// -----

// diagonal(offset=1) of a 3x4 matrix: the 3x3 block from column 1, read at
// (k, k).
// CHECK-DAG: #[[DIAG:.*]] = affine_map<(d0) -> (d0, d0)>
// CHECK-LABEL: func.func @diagonal
// CHECK: %[[B:.*]] = tensor.extract_slice %{{.*}}[0, 1] [3, 3] [1, 1] : tensor<3x4xf32> to tensor<3x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[DIAG]], #{{.*}}], iterator_types = ["parallel"]} ins(%[[B]] : tensor<3x3xf32>)
func.func @diagonal(%x: !prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [3]> {
  %one = prim.Constant {value = 1 : i64} : i64
  %zero = prim.Constant {value = 0 : i64} : i64
  %0 = aten.diagonal %x, %one, %zero, %one : (!prim.tensor<dtype = f32, sizes = [3, 4]>, i64, i64, i64) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// l1_loss with mean: |x - t| per element, a sum, and a division by the
// element count.
// CHECK-LABEL: func.func @l1_mean
// CHECK: linalg.generic
// CHECK: arith.subf
// CHECK: math.absf
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: arith.divf
func.func @l1_mean(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>, %t: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor<dtype = f32, sizes = []> {
  %mean = prim.Constant {value = 1 : i64} : i64
  %0 = aten.l1_loss %x, %t, %mean : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 3]>, i64) -> !prim.tensor<dtype = f32, sizes = []>
  return %0 : !prim.tensor<dtype = f32, sizes = []>
}
