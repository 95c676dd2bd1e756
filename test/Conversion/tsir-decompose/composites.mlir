// RUN: tsir-opt %s --tsir-decompose -split-input-file | FileCheck %s

// mT swaps the last two dims; the replacement keeps the refined type.
// CHECK-LABEL: func.func @mT
// CHECK-DAG: %[[A:.*]] = prim.Constant {value = -2 : i64}
// CHECK-DAG: %[[B:.*]] = prim.Constant {value = -1 : i64}
// CHECK: %[[T:.*]] = aten.transpose.int %arg0, %[[A]], %[[B]] : {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 4, 3]>
// CHECK-NOT: aten.mT
// CHECK: return %[[T]]
func.func @mT(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 4]>) -> !prim.tensor<dtype = f32, sizes = [2, 4, 3]> {
  %0 = aten.mT %x : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>) -> !prim.tensor<dtype = f32, sizes = [2, 4, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 4, 3]>
}

// -----

// A 0-d tensor passes mT unchanged: a reshape to no dims.
// CHECK-LABEL: func.func @mT_0d
// CHECK: %[[E:.*]] = prim.ListConstruct  : () -> !prim.list<i64>
// CHECK: aten.reshape %arg0, %[[E]]
func.func @mT_0d(%x: !prim.tensor<dtype = f32, sizes = []>) -> !prim.tensor<dtype = f32, sizes = []> {
  %0 = aten.mT %x : (!prim.tensor<dtype = f32, sizes = []>) -> !prim.tensor<dtype = f32, sizes = []>
  return %0 : !prim.tensor<dtype = f32, sizes = []>
}

// -----

// numpy_T (x.T) reverses every dim.
// CHECK-LABEL: func.func @numpy_T
// CHECK-DAG: %[[C0:.*]] = prim.Constant {value = 0 : i64}
// CHECK-DAG: %[[C1:.*]] = prim.Constant {value = 1 : i64}
// CHECK-DAG: %[[C2:.*]] = prim.Constant {value = 2 : i64}
// CHECK: %[[L:.*]] = prim.ListConstruct %[[C2]], %[[C1]], %[[C0]]
// CHECK: aten.permute %arg0, %[[L]]
func.func @numpy_T(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 4]>) -> !prim.tensor<dtype = f32, sizes = [4, 3, 2]> {
  %0 = aten.numpy_T %x : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>) -> !prim.tensor<dtype = f32, sizes = [4, 3, 2]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4, 3, 2]>
}

// -----

// movedim([0, 1], [2, 0]): dim 0 goes to 2, dim 1 to 0, and dim 2 fills
// the place left (1): permute [1, 2, 0].
// CHECK-LABEL: func.func @movedim_list
// CHECK-DAG: %[[C0:.*]] = prim.Constant {value = 0 : i64}
// CHECK-DAG: %[[C1:.*]] = prim.Constant {value = 1 : i64}
// CHECK-DAG: %[[C2:.*]] = prim.Constant {value = 2 : i64}
// CHECK: %[[L:.*]] = prim.ListConstruct %[[C1]], %[[C2]], %[[C0]]
// CHECK: aten.permute %arg0, %[[L]]
func.func @movedim_list(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 4]>) -> !prim.tensor<dtype = f32, sizes = [3, 4, 2]> {
  %c0 = prim.Constant {value = 0 : i64} : i64
  %c1 = prim.Constant {value = 1 : i64} : i64
  %c2 = prim.Constant {value = 2 : i64} : i64
  %src = prim.ListConstruct %c0, %c1 : (i64, i64) -> !prim.list<i64>
  %dst = prim.ListConstruct %c2, %c0 : (i64, i64) -> !prim.list<i64>
  %0 = aten.movedim.intlist %x, %src, %dst : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, !prim.list<i64>, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [3, 4, 2]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 4, 2]>
}

// -----

// atleast_3d of a vector [n] is [1, n, 1]; of a 3-d input, the input.
// CHECK-LABEL: func.func @atleast_3d
// CHECK-DAG: %[[ONE:.*]] = prim.Constant {value = 1 : i64}
// CHECK-DAG: %[[N:.*]] = prim.Constant {value = 5 : i64}
// CHECK: %[[L:.*]] = prim.ListConstruct %[[ONE]], %[[N]], %[[ONE]]
// CHECK: %[[R:.*]] = aten.reshape %arg0, %[[L]]
// CHECK: return %[[R]], %arg1
func.func @atleast_3d(%v: !prim.tensor<dtype = f32, sizes = [5]>, %t: !prim.tensor<dtype = f32, sizes = [2, 3, 4]>) -> (!prim.tensor<dtype = f32, sizes = [1, 5, 1]>, !prim.tensor<dtype = f32, sizes = [2, 3, 4]>) {
  %0 = aten.atleast_3d %v : (!prim.tensor<dtype = f32, sizes = [5]>) -> !prim.tensor<dtype = f32, sizes = [1, 5, 1]>
  %1 = aten.atleast_3d %t : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 4]>
  return %0, %1 : !prim.tensor<dtype = f32, sizes = [1, 5, 1]>, !prim.tensor<dtype = f32, sizes = [2, 3, 4]>
}

// -----

// An input of unknown rank stays composite.
// CHECK-LABEL: func.func @atleast_2d_unranked
// CHECK: aten.atleast_2d
func.func @atleast_2d_unranked(%x: !prim.tensor) -> !prim.tensor {
  %0 = aten.atleast_2d %x : (!prim.tensor) -> !prim.tensor
  return %0 : !prim.tensor
}

// -----

// ravel is reshape(-1); broadcast_to is expand(implicit=false); flipud and
// fliplr flip dim 0 and 1.
// CHECK-LABEL: func.func @reshapes_and_flips
// CHECK-DAG: %[[M:.*]] = prim.Constant {value = -1 : i64}
// CHECK-DAG: %[[F:.*]] = prim.Constant {value = false}
// CHECK-DAG: %[[ZERO:.*]] = prim.Constant {value = 0 : i64}
// CHECK-DAG: %[[ONE:.*]] = prim.Constant {value = 1 : i64}
// CHECK: %[[L:.*]] = prim.ListConstruct %[[M]]
// CHECK: aten.reshape %arg0, %[[L]]
// CHECK: aten.expand %arg0, %arg1, %[[F]]
// CHECK: %[[L0:.*]] = prim.ListConstruct %[[ZERO]]
// CHECK: aten.flip %arg0, %[[L0]]
// CHECK: %[[L1:.*]] = prim.ListConstruct %[[ONE]]
// CHECK: aten.flip %arg0, %[[L1]]
func.func @reshapes_and_flips(%x: !prim.tensor<dtype = f32, sizes = [3, 4]>, %size: !prim.list<i64>) -> (!prim.tensor<dtype = f32, sizes = [12]>, !prim.tensor<dtype = f32>, !prim.tensor<dtype = f32, sizes = [3, 4]>, !prim.tensor<dtype = f32, sizes = [3, 4]>) {
  %0 = aten.ravel %x : (!prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [12]>
  %1 = aten.broadcast_to %x, %size : (!prim.tensor<dtype = f32, sizes = [3, 4]>, !prim.list<i64>) -> !prim.tensor<dtype = f32>
  %2 = aten.flipud %x : (!prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [3, 4]>
  %3 = aten.fliplr %x : (!prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [3, 4]>
  return %0, %1, %2, %3 : !prim.tensor<dtype = f32, sizes = [12]>, !prim.tensor<dtype = f32>, !prim.tensor<dtype = f32, sizes = [3, 4]>, !prim.tensor<dtype = f32, sizes = [3, 4]>
}

// -----

// vstack reshapes a vector to a row (atleast_2d) and concatenates along 0.
// CHECK-LABEL: func.func @vstack
// CHECK: %[[ROW:.*]] = aten.reshape %arg1, %{{.*}} : {{.*}} -> !prim.tensor<dtype = f32, sizes = [1, 4]>
// CHECK: %[[L:.*]] = prim.ListConstruct %arg0, %[[ROW]]
// CHECK: aten.cat %[[L]], %{{.*}} : {{.*}} -> !prim.tensor<dtype = f32, sizes = [3, 4]>
func.func @vstack(%m: !prim.tensor<dtype = f32, sizes = [2, 4]>, %v: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [3, 4]> {
  %l = prim.ListConstruct %m, %v : (!prim.tensor<dtype = f32, sizes = [2, 4]>, !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.list<!prim.tensor>
  %0 = aten.vstack %l : (!prim.list<!prim.tensor>) -> !prim.tensor<dtype = f32, sizes = [3, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 4]>
}

// -----

// tensor_split into 3 sections of a dim of 5: pieces of 2, 2 and 1.
// CHECK-LABEL: func.func @tensor_split_sections
// CHECK-COUNT-3: aten.slice.Tensor
// CHECK: prim.ListConstruct {{.*}} -> !prim.list<!prim.tensor>
func.func @tensor_split_sections(%x: !prim.tensor<dtype = f32, sizes = [5, 4]>) -> !prim.list<!prim.tensor> {
  %three = prim.Constant {value = 3 : i64} : i64
  %zero = prim.Constant {value = 0 : i64} : i64
  %0 = aten.tensor_split.sections %x, %three, %zero : (!prim.tensor<dtype = f32, sizes = [5, 4]>, i64, i64) -> !prim.list<!prim.tensor>
  return %0 : !prim.list<!prim.tensor>
}
