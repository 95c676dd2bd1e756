// RUN: tsir-opt %s --convert-prim-to-scf --canonicalize | FileCheck %s

// A tensor that grows in a for-loop (`x = cat([x, x])`) keeps a dynamic
// loop-carried type through canonicalization: the loop is not narrowed to
// the initial 1x3 shape.
// CHECK-LABEL: func.func @growing
// CHECK: %[[INIT:.*]] = tensor.cast %arg1 : tensor<1x3xf32> to tensor<?x3xf32>
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %[[INIT]]) : (i64, tensor<?x3xf32>) -> (i64, tensor<?x3xf32>)
// CHECK: tensor.concat dim(0) %{{.*}}, %{{.*}} : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
// CHECK-NOT: tensor.cast {{.*}} : tensor<?x3xf32> to tensor<1x3xf32>
func.func @growing(%n: i64, %x: tensor<1x3xf32>) -> tensor<?x3xf32> {
  %true = arith.constant true
  %p = builtin.unrealized_conversion_cast %x : tensor<1x3xf32> to !prim.tensor<dtype = f32, sizes = [1, 3]>
  %0 = prim.Loop %n, %true, %p : !prim.tensor<dtype = f32, sizes = [1, 3]> -> (!prim.tensor<dtype = f32, sizes = [?, 3]>) {
  ^bb0(%i: i64, %t: !prim.tensor<dtype = f32, sizes = [?, 3]>):
    %b = builtin.unrealized_conversion_cast %t : !prim.tensor<dtype = f32, sizes = [?, 3]> to tensor<?x3xf32>
    %c = tensor.concat dim(0) %b, %b : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    %r = builtin.unrealized_conversion_cast %c : tensor<?x3xf32> to !prim.tensor<dtype = f32, sizes = [?, 3]>
    prim.Yield %true, %r : i1, !prim.tensor<dtype = f32, sizes = [?, 3]>
  }
  %1 = builtin.unrealized_conversion_cast %0 : !prim.tensor<dtype = f32, sizes = [?, 3]> to tensor<?x3xf32>
  return %1 : tensor<?x3xf32>
}
