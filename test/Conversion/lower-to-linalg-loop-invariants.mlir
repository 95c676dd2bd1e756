// tsir-lower-to-linalg hoists what a loop body computes from values
// defined outside it: the transposes of an LSTM step's weights (passed in,
// not constants) run once, before the loop, and each iteration reads
// them. What depends on the iteration stays in the loop.
// RUN: tsir-opt %s --tsir-lower-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @lstm_like(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<8x1x4xf32>{{[^,]*}}, %{{[a-z0-9]+}}: tensor<1x4xf32>{{[^,]*}}, %[[W:[a-z0-9]+]]: tensor<16x4xf32>{{[^,]*}}, %[[U:[a-z0-9]+]]: tensor<16x4xf32>
// CHECK-DAG: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<16x4xf32>)
// CHECK-DAG: %[[UT:.*]] = linalg.transpose ins(%[[U]] : tensor<16x4xf32>)
// CHECK: scf.for
// CHECK-NOT: linalg.transpose
// CHECK: tensor.extract_slice %[[X]]
// CHECK: linalg.matmul ins(%{{.*}}, %[[WT]] :
// CHECK: linalg.matmul ins(%{{.*}}, %[[UT]] :
// CHECK-NOT: linalg.transpose
// CHECK: scf.yield
func.func @lstm_like(%x: !prim.tensor<dtype = f32, sizes = [8, 1, 4], device = "cpu">, %h0: !prim.tensor<dtype = f32, sizes = [1, 4], device = "cpu">, %w: !prim.tensor<dtype = f32, sizes = [16, 4], device = "cpu">, %u: !prim.tensor<dtype = f32, sizes = [16, 4], device = "cpu">) -> !prim.tensor<dtype = f32, sizes = [1, 4], device = "cpu"> {
  %steps = prim.Constant {value = 8 : i64} : i64
  %true = prim.Constant {value = true} : i1
  %zero = prim.Constant {value = 0 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %four = prim.Constant {value = 4 : i64} : i64
  %h = prim.Loop %steps, %true, %h0 : !prim.tensor<dtype = f32, sizes = [1, 4], device = "cpu"> -> (!prim.tensor<dtype = f32, sizes = [1, 4], device = "cpu">) {
  ^bb0(%t: i64, %hi: !prim.tensor<dtype = f32, sizes = [1, 4], device = "cpu">):
    %xt = aten.select.int %x, %zero, %t : (!prim.tensor<dtype = f32, sizes = [8, 1, 4], device = "cpu">, i64, i64) -> !prim.tensor<dtype = f32, sizes = [1, 4], device = "cpu">
    %wt = aten.t %w : (!prim.tensor<dtype = f32, sizes = [16, 4], device = "cpu">) -> !prim.tensor<dtype = f32, sizes = [4, 16], device = "cpu">
    %a = aten.mm %xt, %wt : (!prim.tensor<dtype = f32, sizes = [1, 4], device = "cpu">, !prim.tensor<dtype = f32, sizes = [4, 16], device = "cpu">) -> !prim.tensor<dtype = f32, sizes = [1, 16], device = "cpu">
    %ut = aten.t %u : (!prim.tensor<dtype = f32, sizes = [16, 4], device = "cpu">) -> !prim.tensor<dtype = f32, sizes = [4, 16], device = "cpu">
    %b = aten.mm %hi, %ut : (!prim.tensor<dtype = f32, sizes = [1, 4], device = "cpu">, !prim.tensor<dtype = f32, sizes = [4, 16], device = "cpu">) -> !prim.tensor<dtype = f32, sizes = [1, 16], device = "cpu">
    %g = aten.add.Tensor %a, %b, %one : (!prim.tensor<dtype = f32, sizes = [1, 16], device = "cpu">, !prim.tensor<dtype = f32, sizes = [1, 16], device = "cpu">, i64) -> !prim.tensor<dtype = f32, sizes = [1, 16], device = "cpu">
    %s = aten.slice.Tensor %g, %one, %zero, %four, %one : (!prim.tensor<dtype = f32, sizes = [1, 16], device = "cpu">, i64, i64, i64, i64) -> !prim.tensor<dtype = f32, sizes = [1, 4], device = "cpu">
    %n = aten.tanh %s : (!prim.tensor<dtype = f32, sizes = [1, 4], device = "cpu">) -> !prim.tensor<dtype = f32, sizes = [1, 4], device = "cpu">
    prim.Yield %true, %n : i1, !prim.tensor<dtype = f32, sizes = [1, 4], device = "cpu">
  }
  return %h : !prim.tensor<dtype = f32, sizes = [1, 4], device = "cpu">
}
