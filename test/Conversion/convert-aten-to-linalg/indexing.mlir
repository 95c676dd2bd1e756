// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// index_select on dim 1: the index runs along result dim 1. The indices
// are checked first, as torch does (any out of [0, 5) fails the call with
// torch's message), and each is clamped where it is read, so that nothing
// is read out of bounds after a failed check.
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @index_select(
// CHECK-DAG: %[[I:.*]] = builtin.unrealized_conversion_cast %arg1 {{.*}} to tensor<3xi64>
// CHECK-DAG: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<4x5xf32>
// CHECK: %[[ANY:.*]] = linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[I]] : tensor<3xi64>) outs(%{{.*}} : tensor<i1>)
// CHECK: arith.cmpi slt, %{{.*}}, %c0 : index
// CHECK: arith.cmpi sge, %{{.*}}, %c5 : index
// CHECK: %[[OUT:.*]] = tensor.extract %[[ANY]][] : tensor<i1>
// CHECK: %[[OK:.*]] = arith.xori %[[OUT]], %true : i1
// CHECK: cf.assert %[[OK]], "index out of range in self"
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], {{.*}}]{{.*}} ins(%[[I]] : tensor<3xi64>) outs(%{{.*}} : tensor<4x3xf32>)
// CHECK: ^bb0(%[[V:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[R:.*]] = linalg.index 0 : index
// CHECK: %[[C:.*]] = arith.index_cast %[[V]] : i64 to index
// CHECK: %[[SAFELOW:.*]] = arith.minsi %[[C]], %c4{{(_[0-9]+)?}} : index
// CHECK: %[[SAFE:.*]] = arith.maxsi %[[SAFELOW]], %{{.*}} : index
// CHECK: tensor.extract %[[X]][%[[R]], %[[SAFE]]] : tensor<4x5xf32>
func.func @index_select(%x: !prim.tensor<dtype = f32, sizes = [4, 5]>, %i: !prim.tensor<dtype = si64, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [4, 3]> {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %0 = aten.index_select %x, %c1, %i : (!prim.tensor<dtype = f32, sizes = [4, 5]>, i64, !prim.tensor<dtype = si64, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [4, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4, 3]>
}

// -----

// CHECK-LABEL: func.func @gather(
// CHECK-DAG: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<3x4xf32>
// CHECK: cf.assert %{{.*}}, "index is out of bounds for dimension 1 with size 4"
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<3x2xi64>) outs(%{{.*}} : tensor<3x2xf32>)
// CHECK: ^bb0(%[[V:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[R:.*]] = linalg.index 0 : index
// CHECK: %[[C:.*]] = arith.index_cast %[[V]] : i64 to index
// CHECK: %[[SAFELOW:.*]] = arith.minsi %[[C]], %c3{{(_[0-9]+)?}} : index
// CHECK: %[[SAFE:.*]] = arith.maxsi %[[SAFELOW]], %{{.*}} : index
// CHECK: tensor.extract %[[X]][%[[R]], %[[SAFE]]] : tensor<3x4xf32>
func.func @gather(%x: !prim.tensor<dtype = f32, sizes = [3, 4]>, %i: !prim.tensor<dtype = si64, sizes = [3, 2]>) -> !prim.tensor<dtype = f32, sizes = [3, 2]> {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %f = prim.Constant {value = false} : i1
  %0 = aten.gather %x, %c1, %i, %f : (!prim.tensor<dtype = f32, sizes = [3, 4]>, i64, !prim.tensor<dtype = si64, sizes = [3, 2]>, i1) -> !prim.tensor<dtype = f32, sizes = [3, 2]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 2]>
}

// -----

// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @embedding(
// CHECK-DAG: %[[W:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<10x4xf32>
// CHECK: cf.assert %{{.*}}, "index out of range in self"
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], {{.*}}]{{.*}} outs(%{{.*}} : tensor<2x3x4xf32>)
// CHECK: ^bb0(%[[V:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[COL:.*]] = linalg.index 2 : index
// CHECK: %[[ROW:.*]] = arith.index_cast %[[V]] : i64 to index
// CHECK: %[[SAFELOW:.*]] = arith.minsi %[[ROW]], %c9{{(_[0-9]+)?}} : index
// CHECK: %[[SAFE:.*]] = arith.maxsi %[[SAFELOW]], %{{.*}} : index
// CHECK: tensor.extract %[[W]][%[[SAFE]], %[[COL]]] : tensor<10x4xf32>
func.func @embedding(%w: !prim.tensor<dtype = f32, sizes = [10, 4]>, %i: !prim.tensor<dtype = si64, sizes = [2, 3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 4]> {
  %m1 = prim.Constant {value = -1 : i64} : i64
  %f = prim.Constant {value = false} : i1
  %0 = aten.embedding %w, %i, %m1, %f, %f : (!prim.tensor<dtype = f32, sizes = [10, 4]>, !prim.tensor<dtype = si64, sizes = [2, 3]>, i64, i1, i1) -> !prim.tensor<dtype = f32, sizes = [2, 3, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 4]>
}

// -----

// scatter_add: loops over the index, adding src at the indexed column.
// CHECK-LABEL: func.func @scatter_add(
// CHECK-DAG: %[[S:.*]] = builtin.unrealized_conversion_cast %arg2 {{.*}} to tensor<3x2xf32>
// CHECK-DAG: %[[I:.*]] = builtin.unrealized_conversion_cast %arg1 {{.*}} to tensor<3x2xi64>
// CHECK-DAG: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<3x5xf32>
// CHECK: scf.for %[[A:.*]] = %{{.*}} to %c3 step %{{.*}} iter_args(%[[T0:.*]] = %[[X]]) -> (tensor<3x5xf32>)
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %c2 step %{{.*}} iter_args(%[[T:.*]] = %[[T0]]) -> (tensor<3x5xf32>)
// CHECK: %[[P:.*]] = tensor.extract %[[I]][%[[A]], %[[B]]] : tensor<3x2xi64>
// CHECK: %[[PI0:.*]] = arith.index_cast %[[P]] : i64 to index
// CHECK: %[[PILOW:.*]] = arith.minsi %[[PI0]], %c4{{(_[0-9]+)?}} : index
// CHECK: %[[PI:.*]] = arith.maxsi %[[PILOW]], %{{.*}} : index
// CHECK: %[[V:.*]] = tensor.extract %[[S]][%[[A]], %[[B]]] : tensor<3x2xf32>
// CHECK: %[[OLD:.*]] = tensor.extract %[[T]][%[[A]], %[[PI]]] : tensor<3x5xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[OLD]], %[[V]] : f32
// CHECK: %[[NEW:.*]] = tensor.insert %[[SUM]] into %[[T]][%[[A]], %[[PI]]] : tensor<3x5xf32>
// CHECK: scf.yield %[[NEW]]
func.func @scatter_add(%x: !prim.tensor<dtype = f32, sizes = [3, 5]>, %i: !prim.tensor<dtype = si64, sizes = [3, 2]>, %s: !prim.tensor<dtype = f32, sizes = [3, 2]>) -> !prim.tensor<dtype = f32, sizes = [3, 5]> {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %0 = aten.scatter_add %x, %c1, %i, %s : (!prim.tensor<dtype = f32, sizes = [3, 5]>, i64, !prim.tensor<dtype = si64, sizes = [3, 2]>, !prim.tensor<dtype = f32, sizes = [3, 2]>) -> !prim.tensor<dtype = f32, sizes = [3, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 5]>
}

// -----

// CHECK-LABEL: func.func @scatter_value(
// CHECK: scf.for %[[A:.*]] = {{.*}} iter_args(%[[T:.*]] = %{{.*}}) -> (tensor<4xi64>)
// CHECK: %[[P:.*]] = tensor.extract %{{.*}}[%[[A]]] : tensor<2xi64>
// CHECK: %[[PI0:.*]] = arith.index_cast %[[P]] : i64 to index
// CHECK: %[[PILOW:.*]] = arith.minsi %[[PI0]], %c3{{(_[0-9]+)?}} : index
// CHECK: %[[PI:.*]] = arith.maxsi %[[PILOW]], %{{.*}} : index
// CHECK: tensor.insert %{{.*}} into %[[T]][%[[PI]]] : tensor<4xi64>
func.func @scatter_value(%x: !prim.tensor<dtype = si64, sizes = [4]>, %i: !prim.tensor<dtype = si64, sizes = [2]>) -> !prim.tensor<dtype = si64, sizes = [4]> {
  %c0 = prim.Constant {value = 0 : i64} : i64
  %v = prim.Constant {value = 7 : i64} : i64
  %0 = aten.scatter.value %x, %c0, %i, %v : (!prim.tensor<dtype = si64, sizes = [4]>, i64, !prim.tensor<dtype = si64, sizes = [2]>, i64) -> !prim.tensor<dtype = si64, sizes = [4]>
  return %0 : !prim.tensor<dtype = si64, sizes = [4]>
}

// -----

// x[:, i]: the index tensor on dim 1, negative entries wrapped by 5.
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @index_tensor(
// CHECK-DAG: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<4x5x6xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], {{.*}}]{{.*}} outs(%{{.*}} : tensor<4x2x6xf32>)
// CHECK: ^bb0(%[[V:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[D0:.*]] = linalg.index 0 : index
// CHECK: %[[D2:.*]] = linalg.index 2 : index
// CHECK: %[[I:.*]] = arith.index_cast %[[V]] : i64 to index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[I]], %{{.*}} : index
// CHECK: %[[WRAP:.*]] = arith.addi %[[I]], %c5 : index
// CHECK: %[[W0:.*]] = arith.select %[[NEG]], %[[WRAP]], %[[I]] : index
// CHECK: %[[WLOW:.*]] = arith.minsi %[[W0]], %c4{{(_[0-9]+)?}} : index
// CHECK: %[[W:.*]] = arith.maxsi %[[WLOW]], %{{.*}} : index
// CHECK: tensor.extract %[[X]][%[[D0]], %[[W]], %[[D2]]] : tensor<4x5x6xf32>
func.func @index_tensor(%x: !prim.tensor<dtype = f32, sizes = [4, 5, 6]>, %i: !prim.tensor<dtype = si64, sizes = [2]>) -> !prim.tensor<dtype = f32, sizes = [4, 2, 6]> {
  %none = prim.Constant {value} : !prim.none
  %l = prim.ListConstruct %none, %i : (!prim.none, !prim.tensor<dtype = si64, sizes = [2]>) -> !prim.list<!prim.optional<!prim.tensor>>
  %0 = aten.index.Tensor %x, %l : (!prim.tensor<dtype = f32, sizes = [4, 5, 6]>, !prim.list<!prim.optional<!prim.tensor>>) -> !prim.tensor<dtype = f32, sizes = [4, 2, 6]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4, 2, 6]>
}

// -----

// x[i, :, j] with i [2, 1] and j [3]: they broadcast to [2, 3], which
// leads the result as the indexed dims are not adjacent.
// CHECK-DAG: #[[MI:.*]] = affine_map<(d0, d1, d2) -> (d0, 0)>
// CHECK-DAG: #[[MJ:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @index_tensor_split(
// CHECK-DAG: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<4x5x6xf32>
// CHECK: linalg.generic {indexing_maps = [#[[MI]], #[[MJ]], {{.*}}]{{.*}} outs(%{{.*}} : tensor<2x3x5xf32>)
// CHECK: ^bb0(%[[VI:.*]]: i64, %[[VJ:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[D2:.*]] = linalg.index 2 : index
// CHECK: %[[I:.*]] = arith.index_cast %[[VI]] : i64 to index
// CHECK: %[[WI0:.*]] = arith.select %{{.*}}, %{{.*}}, %[[I]] : index
// CHECK: %[[WILOW:.*]] = arith.minsi %[[WI0]], %c3{{(_[0-9]+)?}} : index
// CHECK: %[[WI:.*]] = arith.maxsi %[[WILOW]], %{{.*}} : index
// CHECK: %[[J:.*]] = arith.index_cast %[[VJ]] : i64 to index
// CHECK: %[[WJ0:.*]] = arith.select %{{.*}}, %{{.*}}, %[[J]] : index
// CHECK: %[[WJLOW:.*]] = arith.minsi %[[WJ0]], %c5{{(_[0-9]+)?}} : index
// CHECK: %[[WJ:.*]] = arith.maxsi %[[WJLOW]], %{{.*}} : index

// CHECK: tensor.extract %[[X]][%[[WI]], %[[D2]], %[[WJ]]] : tensor<4x5x6xf32>
func.func @index_tensor_split(%x: !prim.tensor<dtype = f32, sizes = [4, 5, 6]>, %i: !prim.tensor<dtype = si64, sizes = [2, 1]>, %j: !prim.tensor<dtype = si64, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5]> {
  %none = prim.Constant {value} : !prim.none
  %l = prim.ListConstruct %i, %none, %j : (!prim.tensor<dtype = si64, sizes = [2, 1]>, !prim.none, !prim.tensor<dtype = si64, sizes = [3]>) -> !prim.list<!prim.optional<!prim.tensor>>
  %0 = aten.index.Tensor %x, %l : (!prim.tensor<dtype = f32, sizes = [4, 5, 6]>, !prim.list<!prim.optional<!prim.tensor>>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 5]>
}

// -----

// index_put with accumulate: loops over the indexed shape [2, 3]; values
// [3] broadcast along the rows.
// CHECK-LABEL: func.func @index_put(
// CHECK-DAG: %[[I:.*]] = builtin.unrealized_conversion_cast %arg1 {{.*}} to tensor<2xi64>
// CHECK-DAG: %[[V:.*]] = builtin.unrealized_conversion_cast %arg2 {{.*}} to tensor<3xf32>
// CHECK: scf.for %[[A:.*]] = %{{.*}} to %c2 step
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T:.*]] = %{{.*}})
// CHECK: %[[P:.*]] = tensor.extract %[[I]][%[[A]]] : tensor<2xi64>
// CHECK: %[[W0:.*]] = arith.select
// CHECK: %[[WLOW:.*]] = arith.minsi %[[W0]], %c4{{(_[0-9]+)?}} : index
// CHECK: %[[W:.*]] = arith.maxsi %[[WLOW]], %{{.*}} : index
// CHECK: %[[VAL:.*]] = tensor.extract %[[V]][%[[B]]] : tensor<3xf32>
// CHECK: %[[OLD:.*]] = tensor.extract %[[T]][%[[W]], %[[B]]] : tensor<5x3xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[OLD]], %[[VAL]] : f32
// CHECK: tensor.insert %[[SUM]] into %[[T]][%[[W]], %[[B]]] : tensor<5x3xf32>
func.func @index_put(%x: !prim.tensor<dtype = f32, sizes = [5, 3]>, %i: !prim.tensor<dtype = si64, sizes = [2]>, %v: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [5, 3]> {
  %t = prim.Constant {value = true} : i1
  %l = prim.ListConstruct %i : (!prim.tensor<dtype = si64, sizes = [2]>) -> !prim.list<!prim.optional<!prim.tensor>>
  %0 = aten.index_put %x, %l, %v, %t : (!prim.tensor<dtype = f32, sizes = [5, 3]>, !prim.list<!prim.optional<!prim.tensor>>, !prim.tensor<dtype = f32, sizes = [3]>, i1) -> !prim.tensor<dtype = f32, sizes = [5, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [5, 3]>
}

// -----

// A boolean mask selects a data-dependent number of elements: refused.
func.func @index_mask(%x: !prim.tensor<dtype = f32, sizes = [4]>, %m: !prim.tensor<dtype = i1, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [?]> {
  %l = prim.ListConstruct %m : (!prim.tensor<dtype = i1, sizes = [4]>) -> !prim.list<!prim.optional<!prim.tensor>>
  // expected-error @+1 {{failed to legalize operation 'aten.index.Tensor'}}
  %0 = aten.index.Tensor %x, %l : (!prim.tensor<dtype = f32, sizes = [4]>, !prim.list<!prim.optional<!prim.tensor>>) -> !prim.tensor<dtype = f32, sizes = [?]>
  return %0 : !prim.tensor<dtype = f32, sizes = [?]>
}

// -----

// nonzero's size depends on the data: refused.
func.func @nonzero(%x: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = si64, sizes = [?, 1]> {
  // expected-error @+1 {{failed to legalize operation 'aten.nonzero'}}
  %0 = aten.nonzero %x : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = si64, sizes = [?, 1]>
  return %0 : !prim.tensor<dtype = si64, sizes = [?, 1]>
}
