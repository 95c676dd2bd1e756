// RUN: tsir-opt --tsir-fold-profiling-guards -split-input-file %s | FileCheck %s

// A TypeCheck whose input's refined dtype and sizes are the profiled ones
// is true; strides and requires_grad do not decide it. The checked value
// is the input, cast to the profiled type.
// CHECK-LABEL: func.func @type_check_passes
// CHECK-NOT: prim.TypeCheck
// CHECK-DAG: %[[OK:.*]] = prim.Constant {value = true}
// CHECK-DAG: %[[CAST:.*]] = prim.unchecked_cast %arg0 : (!prim.tensor<dtype = f32, sizes = [2, 2]>) -> !prim.tensor<dtype = f32, sizes = [2, 2], strides = [2, 1], requires_grad = false>
// CHECK: return %[[CAST]], %[[OK]]
func.func @type_check_passes(%x: !prim.tensor<dtype = f32, sizes = [2, 2]>) -> (!prim.tensor<dtype = f32, sizes = [2, 2], strides = [2, 1], requires_grad = false>, i1) {
  %t:2 = prim.TypeCheck %x {types = [!prim.tensor<dtype = f32, sizes = [2, 2], strides = [2, 1], requires_grad = false>]} : (!prim.tensor<dtype = f32, sizes = [2, 2]>) -> (!prim.tensor<dtype = f32, sizes = [2, 2], strides = [2, 1], requires_grad = false>, i1)
  return %t#0, %t#1 : !prim.tensor<dtype = f32, sizes = [2, 2], strides = [2, 1], requires_grad = false>, i1
}

// -----

// Another size, or another dtype, is false.
// CHECK-LABEL: func.func @type_check_fails
// CHECK-NOT: prim.TypeCheck
// CHECK: %[[NO:.*]] = prim.Constant {value = false}
// CHECK: return %[[NO]]
func.func @type_check_fails(%x: !prim.tensor<dtype = f32, sizes = [3]>, %y: !prim.tensor<dtype = f32, sizes = [2]>) -> i1 {
  %t:3 = prim.TypeCheck %x, %y {types = [!prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = f32, sizes = [2]>]} : (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [2]>) -> (!prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = f32, sizes = [2]>, i1)
  return %t#2 : i1
}

// -----

// Unknown sizes do not decide it: the fused branch is for the profiled
// sizes only, so the check stays.
// CHECK-LABEL: func.func @type_check_open
// CHECK: prim.TypeCheck
func.func @type_check_open(%x: !prim.tensor<dtype = f32>) -> i1 {
  %t:2 = prim.TypeCheck %x {types = [!prim.tensor<dtype = f32, sizes = [2]>]} : (!prim.tensor<dtype = f32>) -> (!prim.tensor<dtype = f32, sizes = [2]>, i1)
  return %t#1 : i1
}

// -----

// A RequiresGradCheck holds: tsir differentiates in its own executors.
// CHECK-LABEL: func.func @requires_grad_check
// CHECK-NOT: RequiresGradCheck
// CHECK: %[[OK:.*]] = prim.Constant {value = true}
// CHECK: return %arg0, %[[OK]]
func.func @requires_grad_check(%x: !prim.tensor) -> (!prim.tensor, i1) {
  %r:2 = prim.Generic "prim::RequiresGradCheck"(%x) : (!prim.tensor) -> (!prim.tensor, i1)
  return %r#0, %r#1 : !prim.tensor, i1
}
