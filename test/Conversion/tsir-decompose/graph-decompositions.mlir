// RUN: tsir-opt %s --tsir-decompose --tsir-refine-until-stable -split-input-file | FileCheck %s

// The ops of decompositions.txt take their graphs' places; the checks the
// graphs make fold for the input spec, and the result keeps its refined
// type.
// CHECK-LABEL: func.func @mv
// CHECK-NOT: prim.If
// CHECK-NOT: prim.RaiseException
// CHECK: %[[P:.*]] = aten.matmul %arg0, %arg1 : {{.*}} -> !prim.tensor<dtype = f32, sizes = [3]>
// CHECK-NEXT: return %[[P]]
func.func @mv(%m: !prim.tensor<dtype = f32, sizes = [3, 4]>, %v: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [3]> {
  %0 = prim.Generic "aten::mv"(%m, %v) : (!prim.tensor<dtype = f32, sizes = [3, 4]>, !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// A check that fails for the spec raises, in torch's words, where the op
// was; nothing computes a wrong answer.
// CHECK-LABEL: func.func @mv_of_a_batch
// CHECK: %[[M:.*]] = prim.Constant {value = "vector + matrix @ vector expected"}
// CHECK: prim.RaiseException %[[M]]
func.func @mv_of_a_batch(%m: !prim.tensor<dtype = f32, sizes = [2, 3, 4]>, %v: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor {
  %0 = prim.Generic "aten::mv"(%m, %v) : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor
  return %0 : !prim.tensor
}

// -----

// addmv with beta = 0 does not read self (its NaNs stay out), and the
// branch that chose so folds away.
// CHECK-LABEL: func.func @addmv_beta_zero
// CHECK-NOT: prim.If
// CHECK: %[[P:.*]] = aten.matmul %arg1, %arg2
// CHECK: %[[S:.*]] = aten.mul.Scalar %[[P]]
// CHECK-NOT: %arg0
// CHECK: return %[[S]]
func.func @addmv_beta_zero(%self: !prim.tensor<dtype = f32, sizes = [3]>, %m: !prim.tensor<dtype = f32, sizes = [3, 4]>, %v: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [3]> {
  %beta = prim.Constant {value = 0 : i64} : i64
  %alpha = prim.Constant {value = 2 : i64} : i64
  %0 = prim.Generic "aten::addmv"(%self, %m, %v, %beta, %alpha) : (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3, 4]>, !prim.tensor<dtype = f32, sizes = [4]>, i64, i64) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// An overload has its own entry: narrow.Tensor takes its start as a 0-d
// tensor, read as an int.
// CHECK-LABEL: func.func @narrow_by_a_tensor
// CHECK: %[[S:.*]] = aten.Int.Tensor %arg1
// CHECK: aten.narrow %arg0, {{.*}}, %[[S]]
func.func @narrow_by_a_tensor(%x: !prim.tensor<dtype = f32, sizes = [5, 2]>, %start: !prim.tensor<dtype = si64, sizes = []>) -> !prim.tensor {
  %dim = prim.Constant {value = 0 : i64} : i64
  %length = prim.Constant {value = 2 : i64} : i64
  %0 = prim.Generic "aten::narrow"(%x, %dim, %start, %length) {tsir.overload = "Tensor"} : (!prim.tensor<dtype = f32, sizes = [5, 2]>, i64, !prim.tensor<dtype = si64, sizes = []>, i64) -> !prim.tensor
  return %0 : !prim.tensor
}
