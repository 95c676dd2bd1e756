// RUN: tsir-opt %s --tsir-finalize-lowering -split-input-file -verify-diagnostics | FileCheck %s

// Tuple results flatten depth-first; the unused class-typed `self` is
// dropped; arguments are builtin and read-only to bufferization (so no
// result is computed in a caller's buffer); the TorchScript result types
// and the original argument positions are recorded for the executor.
// CHECK-LABEL: func.func @graph
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32> {bufferization.writable = false}, %[[N:.*]]: i64)
// CHECK-SAME: -> (tensor<2x3xf32>, i64, tensor<2x3xf32>)
// CHECK-SAME: llvm.emit_c_interface
// CHECK-SAME: prim.argument_positions = [1, 2]
// CHECK-SAME: prim.result_types = [!prim.tensor<dtype = f32, sizes = [2, 3]>, i64, !prim.tensor<dtype = f32, sizes = [2, 3]>]
// CHECK: return %[[A]], %[[N]], %[[A]]
func.func @graph(%self: !prim.class<"__torch__.M">, %a: !prim.tensor<dtype = f32, sizes = [2, 3]>, %n: i64) -> !prim.tuple<!prim.tuple<!prim.tensor<dtype = f32, sizes = [2, 3]>, i64>, !prim.tensor<dtype = f32, sizes = [2, 3]>> {
  %inner = prim.TupleConstruct %a, %n : (!prim.tensor<dtype = f32, sizes = [2, 3]>, i64) -> !prim.tuple<!prim.tensor<dtype = f32, sizes = [2, 3]>, i64>
  %t = prim.TupleConstruct %inner, %a : (!prim.tuple<!prim.tensor<dtype = f32, sizes = [2, 3]>, i64>, !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tuple<!prim.tuple<!prim.tensor<dtype = f32, sizes = [2, 3]>, i64>, !prim.tensor<dtype = f32, sizes = [2, 3]>>
  return %t : !prim.tuple<!prim.tuple<!prim.tensor<dtype = f32, sizes = [2, 3]>, i64>, !prim.tensor<dtype = f32, sizes = [2, 3]>>
}

// -----

// A tensor whose dtype is unknown cannot be returned by lowered code.
func.func @graph(%a: !prim.tensor) -> !prim.tensor {
  // expected-error @+1 {{the graph returns a value of type '!prim.tensor', which lowered code cannot return (a tensor needs a known dtype and rank)}}
  return %a : !prim.tensor
}

// -----

// What no conversion lowered is reported where it is.
func.func @graph(%a: !prim.tensor<dtype = f32, sizes = [2]>) -> i64 {
  // expected-error @+1 {{no lowering for prim.Generic}}
  %r = prim.Generic "my_ns::count"(%a) : (!prim.tensor<dtype = f32, sizes = [2]>) -> i64
  return %r : i64
}
