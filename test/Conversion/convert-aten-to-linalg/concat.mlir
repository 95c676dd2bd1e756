// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// cat on the last dim: each part inserted after the previous ones.
// CHECK-LABEL: func.func @cat(
// CHECK-DAG: %[[B:.*]] = builtin.unrealized_conversion_cast %arg1 {{.*}} to tensor<2x5xf32>
// CHECK-DAG: %[[A:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<2x3xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x8xf32>
// CHECK: %[[I:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x8xf32>
// CHECK: %[[R:.*]] = tensor.insert_slice %[[B]] into %[[I]][0, 3] [2, 5] [1, 1] : tensor<2x5xf32> into tensor<2x8xf32>
// CHECK: builtin.unrealized_conversion_cast %[[R]]
func.func @cat(%a: !prim.tensor<dtype = f32, sizes = [2, 3]>, %b: !prim.tensor<dtype = f32, sizes = [2, 5]>) -> !prim.tensor<dtype = f32, sizes = [2, 8]> {
  %m1 = prim.Constant {value = -1 : i64} : i64
  %l = prim.ListConstruct %a, %b : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 5]>) -> !prim.list<!prim.tensor>
  %0 = aten.cat %l, %m1 : (!prim.list<!prim.tensor>, i64) -> !prim.tensor<dtype = f32, sizes = [2, 8]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 8]>
}

// -----

// The int64 part is converted to the result's float, the 1-D empty part is
// skipped, and the dynamic part's rows add to the result's.
// CHECK-LABEL: func.func @cat_promote_skip(
// CHECK-DAG: %[[B:.*]] = builtin.unrealized_conversion_cast %arg1 {{.*}} to tensor<?x3xf32>
// CHECK-DAG: %[[A:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<2x3xi64>
// CHECK: %[[AF:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<2x3xi64>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK: arith.sitofp %{{.*}} : i64 to f32
// CHECK: %[[D:.*]] = tensor.dim %[[B]], %{{.*}}
// CHECK: %[[ROWS:.*]] = arith.addi %[[D]], %c2
// CHECK: %[[E:.*]] = tensor.empty(%[[ROWS]]) : tensor<?x3xf32>
// CHECK: %[[I:.*]] = tensor.insert_slice %[[AF]] into %[[E]][0, 0] [2, 3] [1, 1]
// CHECK-NOT: tensor<0xf32>
// CHECK: tensor.insert_slice %[[B]] into %[[I]][2, 0] [%{{.*}}, 3] [1, 1] : tensor<?x3xf32> into tensor<?x3xf32>
func.func @cat_promote_skip(%a: !prim.tensor<dtype = si64, sizes = [2, 3]>, %b: !prim.tensor<dtype = f32, sizes = [?, 3]>, %e: !prim.tensor<dtype = f32, sizes = [0]>) -> !prim.tensor<dtype = f32, sizes = [?, 3]> {
  %c0 = prim.Constant {value = 0 : i64} : i64
  %l = prim.ListConstruct %a, %e, %b : (!prim.tensor<dtype = si64, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [0]>, !prim.tensor<dtype = f32, sizes = [?, 3]>) -> !prim.list<!prim.tensor>
  %0 = aten.cat %l, %c0 : (!prim.list<!prim.tensor>, i64) -> !prim.tensor<dtype = f32, sizes = [?, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [?, 3]>
}

// -----

// stack inserts each part as one slice of the new dim.
// CHECK-LABEL: func.func @stack(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x2x3xf32>
// CHECK: %[[I:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0, 0, 0] [2, 1, 3] [1, 1, 1] : tensor<2x3xf32> into tensor<2x2x3xf32>
// CHECK: tensor.insert_slice %{{.*}} into %[[I]][0, 1, 0] [2, 1, 3] [1, 1, 1] : tensor<2x3xf32> into tensor<2x2x3xf32>
func.func @stack(%a: !prim.tensor<dtype = f32, sizes = [2, 3]>, %b: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor<dtype = f32, sizes = [2, 2, 3]> {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %l = prim.ListConstruct %a, %b : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.list<!prim.tensor>
  %0 = aten.stack %l, %c1 : (!prim.list<!prim.tensor>, i64) -> !prim.tensor<dtype = f32, sizes = [2, 2, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 2, 3]>
}

// -----

// chunk whose list is unpacked: the unpacked values are slices, and
// neither the chunk nor the unpack is left.
// CHECK-LABEL: func.func @chunk(
// CHECK: %[[A:.*]] = tensor.extract_slice %{{.*}}[0, 0] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
// CHECK: %[[CA:.*]] = builtin.unrealized_conversion_cast %[[A]]
// CHECK: %[[B:.*]] = tensor.extract_slice %{{.*}}[0, 4] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
// CHECK: %[[CB:.*]] = builtin.unrealized_conversion_cast %[[B]]
// CHECK-NOT: aten.chunk
// CHECK-NOT: prim.ListUnpack
// CHECK: return %[[CA]], %[[CB]]
func.func @chunk(%x: !prim.tensor<dtype = f32, sizes = [3, 8]>) -> (!prim.tensor<dtype = f32, sizes = [3, 4]>, !prim.tensor<dtype = f32, sizes = [3, 4]>) {
  %c2 = prim.Constant {value = 2 : i64} : i64
  %c1 = prim.Constant {value = 1 : i64} : i64
  %l = aten.chunk %x, %c2, %c1 : (!prim.tensor<dtype = f32, sizes = [3, 8]>, i64, i64) -> !prim.list<!prim.tensor>
  %a, %b = prim.ListUnpack %l : (!prim.list<!prim.tensor>) -> (!prim.tensor<dtype = f32, sizes = [3, 4]>, !prim.tensor<dtype = f32, sizes = [3, 4]>)
  return %a, %b : !prim.tensor<dtype = f32, sizes = [3, 4]>, !prim.tensor<dtype = f32, sizes = [3, 4]>
}

// -----

// With a dynamic size, pieces are ceil(size / 2) long and clamped to the
// end.
// CHECK-LABEL: func.func @chunk_dynamic(
// CHECK: %[[D:.*]] = tensor.dim
// CHECK: %[[STEP:.*]] = arith.ceildivsi %[[D]], %c2 : index
// CHECK: %[[O0:.*]] = arith.minsi %[[D]], %{{.*}} : index
// CHECK: %[[R0:.*]] = arith.subi %[[D]], %[[O0]] : index
// CHECK: %[[L0:.*]] = arith.minsi %[[STEP]], %[[R0]] : index
// CHECK: %[[O1:.*]] = arith.minsi %[[STEP]], %[[D]] : index
// CHECK: %[[R1:.*]] = arith.subi %[[D]], %[[O1]] : index
// CHECK: %[[L1:.*]] = arith.minsi %[[STEP]], %[[R1]] : index
// CHECK: tensor.extract_slice %{{.*}}[%[[O0]]] [%[[L0]]] [1] : tensor<?xf32> to tensor<?xf32>
// CHECK: tensor.extract_slice %{{.*}}[%[[O1]]] [%[[L1]]] [1] : tensor<?xf32> to tensor<?xf32>
func.func @chunk_dynamic(%x: !prim.tensor<dtype = f32, sizes = [?]>) -> (!prim.tensor<dtype = f32, sizes = [?]>, !prim.tensor<dtype = f32, sizes = [?]>) {
  %c2 = prim.Constant {value = 2 : i64} : i64
  %c0 = prim.Constant {value = 0 : i64} : i64
  %l = aten.chunk %x, %c2, %c0 : (!prim.tensor<dtype = f32, sizes = [?]>, i64, i64) -> !prim.list<!prim.tensor>
  %a, %b = prim.ListUnpack %l : (!prim.list<!prim.tensor>) -> (!prim.tensor<dtype = f32, sizes = [?]>, !prim.tensor<dtype = f32, sizes = [?]>)
  return %a, %b : !prim.tensor<dtype = f32, sizes = [?]>, !prim.tensor<dtype = f32, sizes = [?]>
}

// -----

// split by 3 of 7 rows: pieces [0, 3), [3, 6), [6, 7); __getitem__ with a
// constant (or negative) index takes one.
// CHECK-LABEL: func.func @split_getitem(
// CHECK-DAG: %[[LAST:.*]] = tensor.extract_slice %{{.*}}[6, 0] [1, 2] [1, 1] : tensor<7x2xf32> to tensor<1x2xf32>
// CHECK-DAG: %[[MID:.*]] = tensor.extract_slice %{{.*}}[3, 0] [3, 2] [1, 1] : tensor<7x2xf32> to tensor<3x2xf32>
// CHECK-DAG: %[[CL:.*]] = builtin.unrealized_conversion_cast %[[LAST]]
// CHECK-DAG: %[[CM:.*]] = builtin.unrealized_conversion_cast %[[MID]]
// CHECK-NOT: aten.__getitem__
// CHECK: return %[[CM]], %[[CL]]
func.func @split_getitem(%x: !prim.tensor<dtype = f32, sizes = [7, 2]>) -> (!prim.tensor<dtype = f32, sizes = [3, 2]>, !prim.tensor<dtype = f32, sizes = [1, 2]>) {
  %c3 = prim.Constant {value = 3 : i64} : i64
  %c0 = prim.Constant {value = 0 : i64} : i64
  %c1 = prim.Constant {value = 1 : i64} : i64
  %m1 = prim.Constant {value = -1 : i64} : i64
  %l = aten.split.Tensor %x, %c3, %c0 : (!prim.tensor<dtype = f32, sizes = [7, 2]>, i64, i64) -> !prim.list<!prim.tensor>
  %a = aten.__getitem__.t %l, %c1 : (!prim.list<!prim.tensor>, i64) -> !prim.tensor<dtype = f32, sizes = [3, 2]>
  %b = aten.__getitem__.t %l, %m1 : (!prim.list<!prim.tensor>, i64) -> !prim.tensor<dtype = f32, sizes = [1, 2]>
  return %a, %b : !prim.tensor<dtype = f32, sizes = [3, 2]>, !prim.tensor<dtype = f32, sizes = [1, 2]>
}

// -----

// CHECK-LABEL: func.func @split_with_sizes(
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [2, 2] [1, 1] : tensor<2x5xi64> to tensor<2x2xi64>
// CHECK: tensor.extract_slice %{{.*}}[0, 2] [2, 3] [1, 1] : tensor<2x5xi64> to tensor<2x3xi64>
func.func @split_with_sizes(%x: !prim.tensor<dtype = si64, sizes = [2, 5]>) -> (!prim.tensor<dtype = si64, sizes = [2, 2]>, !prim.tensor<dtype = si64, sizes = [2, 3]>) {
  %s = prim.Constant {value = [2, 3]} : !prim.list<i64>
  %c1 = prim.Constant {value = 1 : i64} : i64
  %l = aten.split_with_sizes %x, %s, %c1 : (!prim.tensor<dtype = si64, sizes = [2, 5]>, !prim.list<i64>, i64) -> !prim.list<!prim.tensor>
  %a, %b = prim.ListUnpack %l : (!prim.list<!prim.tensor>) -> (!prim.tensor<dtype = si64, sizes = [2, 2]>, !prim.tensor<dtype = si64, sizes = [2, 3]>)
  return %a, %b : !prim.tensor<dtype = si64, sizes = [2, 2]>, !prim.tensor<dtype = si64, sizes = [2, 3]>
}

// -----

// unbind: one rank-reducing slice per index.
// CHECK-LABEL: func.func @unbind(
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [2, 1] [1, 1] : tensor<2x3xf32> to tensor<2xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 1] [2, 1] [1, 1] : tensor<2x3xf32> to tensor<2xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 2] [2, 1] [1, 1] : tensor<2x3xf32> to tensor<2xf32>
func.func @unbind(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> (!prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = f32, sizes = [2]>) {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %l = aten.unbind.int %x, %c1 : (!prim.tensor<dtype = f32, sizes = [2, 3]>, i64) -> !prim.list<!prim.tensor>
  %a, %b, %c = prim.ListUnpack %l : (!prim.list<!prim.tensor>) -> (!prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = f32, sizes = [2]>)
  return %a, %b, %c : !prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = f32, sizes = [2]>
}

// -----

// A list that escapes (returned, stored, looped over) has no builtin form.
func.func @chunk_escapes(%x: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.list<!prim.tensor> {
  %c2 = prim.Constant {value = 2 : i64} : i64
  %c0 = prim.Constant {value = 0 : i64} : i64
  // expected-error @+1 {{failed to legalize operation 'aten.chunk'}}
  %l = aten.chunk %x, %c2, %c0 : (!prim.tensor<dtype = f32, sizes = [4]>, i64, i64) -> !prim.list<!prim.tensor>
  return %l : !prim.list<!prim.tensor>
}

// -----

// An index that is not a constant cannot pick a slice statically.
func.func @getitem_runtime(%x: !prim.tensor<dtype = f32, sizes = [4]>, %i: i64) -> !prim.tensor<dtype = f32, sizes = [2]> {
  %c2 = prim.Constant {value = 2 : i64} : i64
  %c0 = prim.Constant {value = 0 : i64} : i64
  // expected-error @+1 {{failed to legalize operation 'aten.split.Tensor'}}
  %l = aten.split.Tensor %x, %c2, %c0 : (!prim.tensor<dtype = f32, sizes = [4]>, i64, i64) -> !prim.list<!prim.tensor>
  %a = aten.__getitem__.t %l, %i : (!prim.list<!prim.tensor>, i64) -> !prim.tensor<dtype = f32, sizes = [2]>
  return %a : !prim.tensor<dtype = f32, sizes = [2]>
}

// -----

// cat needs the list's elements (a prim.ListConstruct).
func.func @cat_of_unknown_list(%l: !prim.list<!prim.tensor>) -> !prim.tensor<dtype = f32, sizes = [?]> {
  %c0 = prim.Constant {value = 0 : i64} : i64
  // expected-error @+1 {{failed to legalize operation 'aten.cat'}}
  %0 = aten.cat %l, %c0 : (!prim.list<!prim.tensor>, i64) -> !prim.tensor<dtype = f32, sizes = [?]>
  return %0 : !prim.tensor<dtype = f32, sizes = [?]>
}
