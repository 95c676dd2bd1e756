// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// view with -1: the static shapes relate by no collapse or expansion, so
// through 1-D.
// CHECK-LABEL: func.func @view(
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<2x6xf32>
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1]] : tensor<2x6xf32> into tensor<12xf32>
// CHECK: tensor.expand_shape %[[F]] {{\[\[}}0, 1]] output_shape [3, 4] : tensor<12xf32> into tensor<3x4xf32>
func.func @view(%x: !prim.tensor<dtype = f32, sizes = [2, 6]>) -> !prim.tensor<dtype = f32, sizes = [3, 4]> {
  %c3 = prim.Constant {value = 3 : i64} : i64
  %m1 = prim.Constant {value = -1 : i64} : i64
  %l = prim.ListConstruct %c3, %m1 : (i64, i64) -> !prim.list<i64>
  %0 = aten.view %x, %l : (!prim.tensor<dtype = f32, sizes = [2, 6]>, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [3, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 4]>
}

// -----

// CHECK-LABEL: func.func @reshape_collapse(
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x3x4xi64> into tensor<6x4xi64>
// CHECK-NOT: tensor.expand_shape
func.func @reshape_collapse(%x: !prim.tensor<dtype = si64, sizes = [2, 3, 4]>) -> !prim.tensor<dtype = si64, sizes = [6, 4]> {
  %l = prim.Constant {value = [6, 4]} : !prim.list<i64>
  %0 = aten.reshape %x, %l : (!prim.tensor<dtype = si64, sizes = [2, 3, 4]>, !prim.list<i64>) -> !prim.tensor<dtype = si64, sizes = [6, 4]>
  return %0 : !prim.tensor<dtype = si64, sizes = [6, 4]>
}

// -----

// A runtime size and -1 on a dynamic input: -1 is numel / n, and the
// result reads each element at the same row-major position of the input.
// The runtime size may itself be -1 (it is tested: then it is the inferred
// size and counts as 1), and the divisor is at least 1.
// CHECK-LABEL: func.func @reshape_dynamic(
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<?x4xf32>
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[NUMEL:.*]] = arith.muli %[[D]], %c4
// CHECK: %[[N:.*]] = arith.index_cast %arg1 : i64 to index
// CHECK: %[[IS:.*]] = arith.cmpi eq, %[[N]], %c-1 : index
// CHECK: %[[F:.*]] = arith.select %[[IS]], %{{.*}}, %[[N]] : index
// CHECK: %[[K:.*]] = arith.maxsi %[[F]], %{{.*}} : index
// CHECK: %[[REST:.*]] = arith.divsi %[[NUMEL]], %[[K]] : index
// CHECK: %[[N2:.*]] = arith.select %[[IS]], %[[REST]], %[[N]] : index
// CHECK: %[[E:.*]] = tensor.empty(%[[N2]], %[[REST]]) : tensor<?x?xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<?x?xf32>)
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: %[[ROW:.*]] = arith.muli %[[I]], %[[REST]]
// CHECK: %[[LIN:.*]] = arith.addi %[[ROW]], %[[J]]
// CHECK: %[[IN1:.*]] = arith.remsi %[[LIN]], %{{.*}}
// CHECK: %[[Q:.*]] = arith.divsi %[[LIN]], %{{.*}}
// CHECK: %[[IN0:.*]] = arith.remsi %[[Q]], %{{.*}}
// CHECK: tensor.extract %[[X]][%[[IN0]], %[[IN1]]] : tensor<?x4xf32>
func.func @reshape_dynamic(%x: !prim.tensor<dtype = f32, sizes = [?, 4]>, %n: i64) -> !prim.tensor<dtype = f32, sizes = [?, ?]> {
  %m1 = prim.Constant {value = -1 : i64} : i64
  %l = prim.ListConstruct %n, %m1 : (i64, i64) -> !prim.list<i64>
  %0 = aten.reshape %x, %l : (!prim.tensor<dtype = f32, sizes = [?, 4]>, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [?, ?]>
  return %0 : !prim.tensor<dtype = f32, sizes = [?, ?]>
}

// -----

// CHECK-LABEL: func.func @view_0d(
// CHECK: tensor.expand_shape %{{.*}} [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
func.func @view_0d(%x: !prim.tensor<dtype = f32, sizes = []>) -> !prim.tensor<dtype = f32, sizes = [1, 1]> {
  %l = prim.Constant {value = [1, 1]} : !prim.list<i64>
  %0 = aten.view %x, %l : (!prim.tensor<dtype = f32, sizes = []>, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [1, 1]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 1]>
}

// -----

// CHECK-LABEL: func.func @flatten(
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<2x?x4xf32> into tensor<2x?xf32>
func.func @flatten(%x: !prim.tensor<dtype = f32, sizes = [2, ?, 4]>) -> !prim.tensor<dtype = f32, sizes = [2, ?]> {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %m1 = prim.Constant {value = -1 : i64} : i64
  %0 = aten.flatten.using_ints %x, %c1, %m1 : (!prim.tensor<dtype = f32, sizes = [2, ?, 4]>, i64, i64) -> !prim.tensor<dtype = f32, sizes = [2, ?]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, ?]>
}

// -----

// CHECK-LABEL: func.func @unflatten(
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [3, 2, 4] : tensor<3x8xf32> into tensor<3x2x4xf32>
func.func @unflatten(%x: !prim.tensor<dtype = f32, sizes = [3, 8]>) -> !prim.tensor<dtype = f32, sizes = [3, 2, 4]> {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %l = prim.Constant {value = [2, -1]} : !prim.list<i64>
  %0 = aten.unflatten.int %x, %c1, %l : (!prim.tensor<dtype = f32, sizes = [3, 8]>, i64, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [3, 2, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 2, 4]>
}

// -----

// squeeze drops every size-1 dim, squeeze.dim only the one named.
// CHECK-LABEL: func.func @squeeze(
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2]] : tensor<1x3x1xf32> into tensor<3xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<1x3x1xf32> into tensor<3x1xf32>
func.func @squeeze(%x: !prim.tensor<dtype = f32, sizes = [1, 3, 1]>) -> (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3, 1]>) {
  %c0 = prim.Constant {value = 0 : i64} : i64
  %0 = aten.squeeze %x : (!prim.tensor<dtype = f32, sizes = [1, 3, 1]>) -> !prim.tensor<dtype = f32, sizes = [3]>
  %1 = aten.squeeze.dim %x, %c0 : (!prim.tensor<dtype = f32, sizes = [1, 3, 1]>, i64) -> !prim.tensor<dtype = f32, sizes = [3, 1]>
  return %0, %1 : !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3, 1]>
}

// -----

// CHECK-LABEL: func.func @unsqueeze(
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<?x3xi1>
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %c0
// CHECK: tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2]] output_shape [%[[D]], 3, 1] : tensor<?x3xi1> into tensor<?x3x1xi1>
func.func @unsqueeze(%x: !prim.tensor<dtype = i1, sizes = [?, 3]>) -> !prim.tensor<dtype = i1, sizes = [?, 3, 1]> {
  %m1 = prim.Constant {value = -1 : i64} : i64
  %0 = aten.unsqueeze %x, %m1 : (!prim.tensor<dtype = i1, sizes = [?, 3]>, i64) -> !prim.tensor<dtype = i1, sizes = [?, 3, 1]>
  return %0 : !prim.tensor<dtype = i1, sizes = [?, 3, 1]>
}

// -----

// CHECK-LABEL: func.func @view_as(
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
func.func @view_as(%x: !prim.tensor<dtype = f32, sizes = [6]>, %y: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3]> {
  %0 = aten.view_as %x, %y : (!prim.tensor<dtype = f32, sizes = [6]>, !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3]>
}

// -----

// CHECK-LABEL: func.func @permute(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x3x4xf32>) outs(%[[E]] : tensor<4x2x3xf32>) permutation = [2, 0, 1]
func.func @permute(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 4]>) -> !prim.tensor<dtype = f32, sizes = [4, 2, 3]> {
  %l = prim.Constant {value = [-1, 0, 1]} : !prim.list<i64>
  %0 = aten.permute %x, %l : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [4, 2, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4, 2, 3]>
}

// -----

// CHECK-LABEL: func.func @transpose(
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<2x?x4xf32>
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<4x?x2xf32>
// CHECK: linalg.transpose ins(%[[X]] : tensor<2x?x4xf32>) outs(%[[E]] : tensor<4x?x2xf32>) permutation = [2, 1, 0]
func.func @transpose(%x: !prim.tensor<dtype = f32, sizes = [2, ?, 4]>) -> !prim.tensor<dtype = f32, sizes = [4, ?, 2]> {
  %c0 = prim.Constant {value = 0 : i64} : i64
  %m1 = prim.Constant {value = -1 : i64} : i64
  %0 = aten.transpose.int %x, %c0, %m1 : (!prim.tensor<dtype = f32, sizes = [2, ?, 4]>, i64, i64) -> !prim.tensor<dtype = f32, sizes = [4, ?, 2]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4, ?, 2]>
}

// -----

// t of a vector is the vector itself.
// CHECK-LABEL: func.func @t(
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<3x2xf32>) permutation = [1, 0]
// CHECK-NOT: linalg.transpose
// CHECK: return %{{.*}}, %arg1
func.func @t(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>, %v: !prim.tensor<dtype = f32, sizes = [5]>) -> (!prim.tensor<dtype = f32, sizes = [3, 2]>, !prim.tensor<dtype = f32, sizes = [5]>) {
  %0 = aten.t %x : (!prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor<dtype = f32, sizes = [3, 2]>
  %1 = aten.t %v : (!prim.tensor<dtype = f32, sizes = [5]>) -> !prim.tensor<dtype = f32, sizes = [5]>
  return %0, %1 : !prim.tensor<dtype = f32, sizes = [3, 2]>, !prim.tensor<dtype = f32, sizes = [5]>
}

// -----

// CHECK-LABEL: func.func @movedim(
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<3x4x2xf32>) permutation = [1, 2, 0]
func.func @movedim(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 4]>) -> !prim.tensor<dtype = f32, sizes = [3, 4, 2]> {
  %c0 = prim.Constant {value = 0 : i64} : i64
  %m1 = prim.Constant {value = -1 : i64} : i64
  %0 = aten.movedim.int %x, %c0, %m1 : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, i64, i64) -> !prim.tensor<dtype = f32, sizes = [3, 4, 2]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 4, 2]>
}

// -----

// expand reads dim 0 of the size-1 dim; the new leading dim is not read.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @expand(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<3x1xf32>) outs(%[[E]] : tensor<2x3x4xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[A]] : f32
func.func @expand(%x: !prim.tensor<dtype = f32, sizes = [3, 1]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 4]> {
  %l = prim.Constant {value = [2, -1, 4]} : !prim.list<i64>
  %f = prim.Constant {value = false} : i1
  %0 = aten.expand %x, %l, %f : (!prim.tensor<dtype = f32, sizes = [3, 1]>, !prim.list<i64>, i1) -> !prim.tensor<dtype = f32, sizes = [2, 3, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 4]>
}

// -----

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (0)>
// CHECK-LABEL: func.func @expand_as(
// CHECK: %[[Y:.*]] = builtin.unrealized_conversion_cast %arg1 {{.*}} to tensor<?x5xf32>
// CHECK: %[[D:.*]] = tensor.dim %[[Y]], %c0
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x5xi64>
// CHECK: linalg.generic {indexing_maps = [#[[IN]], {{.*}}]{{.*}} ins(%{{.*}} : tensor<1xi64>) outs(%[[E]] : tensor<?x5xi64>)
func.func @expand_as(%x: !prim.tensor<dtype = si64, sizes = [1]>, %y: !prim.tensor<dtype = f32, sizes = [?, 5]>) -> !prim.tensor<dtype = si64, sizes = [?, 5]> {
  %0 = aten.expand_as %x, %y : (!prim.tensor<dtype = si64, sizes = [1]>, !prim.tensor<dtype = f32, sizes = [?, 5]>) -> !prim.tensor<dtype = si64, sizes = [?, 5]>
  return %0 : !prim.tensor<dtype = si64, sizes = [?, 5]>
}

// -----

// Under value semantics a copy is the value.
// CHECK-LABEL: func.func @copies(
// CHECK-NOT: aten.
// CHECK: return %arg0, %arg0, %arg0
func.func @copies(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 3]>) {
  %c0 = prim.Constant {value = 0 : i64} : i64
  %n = prim.Constant {value} : !prim.none
  %0 = aten.contiguous %x, %c0 : (!prim.tensor<dtype = f32, sizes = [2, 3]>, i64) -> !prim.tensor<dtype = f32, sizes = [2, 3]>
  %1 = aten.clone %0, %n : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.none) -> !prim.tensor<dtype = f32, sizes = [2, 3]>
  %2 = aten.detach %1 : (!prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3]>
  return %0, %1, %2 : !prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 3]>
}

// -----

// CHECK-LABEL: func.func @view_dtype(
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4xi32>)
// CHECK: arith.bitcast %{{.*}} : f32 to i32
func.func @view_dtype(%x: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = si32, sizes = [4]> {
  %c3 = prim.Constant {value = 3 : i64} : i64
  %0 = aten.view.dtype %x, %c3 : (!prim.tensor<dtype = f32, sizes = [4]>, i64) -> !prim.tensor<dtype = si32, sizes = [4]>
  return %0 : !prim.tensor<dtype = si32, sizes = [4]>
}

// -----

// x[:, 1:-2:3] on 6 columns: [1, 4) every 3rd, one column.
// CHECK-LABEL: func.func @slice(
// CHECK: tensor.extract_slice %{{.*}}[0, 1] [5, 1] [1, 3] : tensor<5x6xf32> to tensor<5x1xf32>
func.func @slice(%x: !prim.tensor<dtype = f32, sizes = [5, 6]>) -> !prim.tensor<dtype = f32, sizes = [5, 1]> {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %m2 = prim.Constant {value = -2 : i64} : i64
  %c3 = prim.Constant {value = 3 : i64} : i64
  %0 = aten.slice.Tensor %x, %c1, %c1, %m2, %c3 : (!prim.tensor<dtype = f32, sizes = [5, 6]>, i64, i64, i64, i64) -> !prim.tensor<dtype = f32, sizes = [5, 1]>
  return %0 : !prim.tensor<dtype = f32, sizes = [5, 1]>
}

// -----

// x[2:100] clamps the end; x[100:] is empty; x[:] is x.
// CHECK-LABEL: func.func @slice_clamped(
// CHECK: tensor.extract_slice %{{.*}}[2] [2] [1] : tensor<4xf32> to tensor<2xf32>
// CHECK: tensor.empty() : tensor<0xf32>
// CHECK: return %{{.*}}, %{{.*}}, %arg0
func.func @slice_clamped(%x: !prim.tensor<dtype = f32, sizes = [4]>) -> (!prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = f32, sizes = [0]>, !prim.tensor<dtype = f32, sizes = [4]>) {
  %c0 = prim.Constant {value = 0 : i64} : i64
  %c1 = prim.Constant {value = 1 : i64} : i64
  %c2 = prim.Constant {value = 2 : i64} : i64
  %big = prim.Constant {value = 100 : i64} : i64
  %n = prim.Constant {value} : !prim.none
  %0 = aten.slice.Tensor %x, %c0, %c2, %big, %c1 : (!prim.tensor<dtype = f32, sizes = [4]>, i64, i64, i64, i64) -> !prim.tensor<dtype = f32, sizes = [2]>
  %1 = aten.slice.Tensor %x, %c0, %big, %n, %c1 : (!prim.tensor<dtype = f32, sizes = [4]>, i64, i64, !prim.none, i64) -> !prim.tensor<dtype = f32, sizes = [0]>
  %2 = aten.slice.Tensor %x, %c0, %n, %n, %c1 : (!prim.tensor<dtype = f32, sizes = [4]>, i64, !prim.none, !prim.none, i64) -> !prim.tensor<dtype = f32, sizes = [4]>
  return %0, %1, %2 : !prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = f32, sizes = [0]>, !prim.tensor<dtype = f32, sizes = [4]>
}

// -----

// A runtime start counts from the end when negative and is clamped to
// [0, 8]; the length is what remains.
// CHECK-LABEL: func.func @slice_runtime(
// CHECK: %[[S:.*]] = arith.index_cast %arg1 : i64 to index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[S]], %{{.*}} : index
// CHECK: %[[WRAP:.*]] = arith.addi %[[S]], %c8 : index
// CHECK: %[[W:.*]] = arith.select %[[NEG]], %[[WRAP]], %[[S]] : index
// CHECK: %[[HI:.*]] = arith.minsi %[[W]], %c8 : index
// CHECK: %[[START:.*]] = arith.maxsi %[[HI]], %{{.*}} : index
// CHECK: %[[LEN:.*]] = arith.subi %c8, %[[START]] : index
// CHECK: tensor.extract_slice %{{.*}}[%[[START]], 0] [%[[LEN]], 3] [1, 1] : tensor<8x3xf32> to tensor<?x3xf32>
func.func @slice_runtime(%x: !prim.tensor<dtype = f32, sizes = [8, 3]>, %a: i64) -> !prim.tensor<dtype = f32, sizes = [?, 3]> {
  %c0 = prim.Constant {value = 0 : i64} : i64
  %c1 = prim.Constant {value = 1 : i64} : i64
  %n = prim.Constant {value} : !prim.none
  %0 = aten.slice.Tensor %x, %c0, %a, %n, %c1 : (!prim.tensor<dtype = f32, sizes = [8, 3]>, i64, i64, !prim.none, i64) -> !prim.tensor<dtype = f32, sizes = [?, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [?, 3]>
}

// -----

// select drops the dim (a rank-reducing extract_slice); a runtime index
// may be negative, is checked to lie in [-3, 3) as torch does, and is used
// clamped.
// CHECK-LABEL: func.func @select(
// CHECK: tensor.extract_slice %{{.*}}[0, 3] [3, 1] [1, 1] : tensor<3x4xi64> to tensor<3xi64>
// CHECK: %[[I:.*]] = arith.index_cast %arg1 : i64 to index
// CHECK: %[[BELOW:.*]] = arith.cmpi slt, %[[I]], %c-3 : index
// CHECK: %[[ABOVE:.*]] = arith.cmpi sge, %[[I]], %{{.*}} : index
// CHECK: %[[OUT:.*]] = arith.ori %[[BELOW]], %[[ABOVE]] : i1
// CHECK: %[[OK:.*]] = arith.xori %[[OUT]], %true : i1
// CHECK: cf.assert %[[OK]], "select(): index out of range for tensor of size [3, 4] at dimension 0"
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[I]], %{{.*}} : index
// CHECK: %[[WRAP:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: %[[W:.*]] = arith.select %[[NEG]], %[[WRAP]], %[[I]] : index
// CHECK: %[[LOW:.*]] = arith.minsi %[[W]], %c2 : index
// CHECK: %[[SAFE:.*]] = arith.maxsi %[[LOW]], %{{.*}} : index
// CHECK: tensor.extract_slice %{{.*}}[%[[SAFE]], 0] [1, 4] [1, 1] : tensor<3x4xi64> to tensor<4xi64>
func.func @select(%x: !prim.tensor<dtype = si64, sizes = [3, 4]>, %i: i64) -> (!prim.tensor<dtype = si64, sizes = [3]>, !prim.tensor<dtype = si64, sizes = [4]>) {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %m1 = prim.Constant {value = -1 : i64} : i64
  %c0 = prim.Constant {value = 0 : i64} : i64
  %0 = aten.select.int %x, %c1, %m1 : (!prim.tensor<dtype = si64, sizes = [3, 4]>, i64, i64) -> !prim.tensor<dtype = si64, sizes = [3]>
  %1 = aten.select.int %x, %c0, %i : (!prim.tensor<dtype = si64, sizes = [3, 4]>, i64, i64) -> !prim.tensor<dtype = si64, sizes = [4]>
  return %0, %1 : !prim.tensor<dtype = si64, sizes = [3]>, !prim.tensor<dtype = si64, sizes = [4]>
}

// -----

// CHECK-LABEL: func.func @narrow(
// CHECK: tensor.extract_slice %{{.*}}[0, 2] [4, 2] [1, 1] : tensor<4x5xf32> to tensor<4x2xf32>
func.func @narrow(%x: !prim.tensor<dtype = f32, sizes = [4, 5]>) -> !prim.tensor<dtype = f32, sizes = [4, 2]> {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %m3 = prim.Constant {value = -3 : i64} : i64
  %c2 = prim.Constant {value = 2 : i64} : i64
  %0 = aten.narrow %x, %c1, %m3, %c2 : (!prim.tensor<dtype = f32, sizes = [4, 5]>, i64, i64, i64) -> !prim.tensor<dtype = f32, sizes = [4, 2]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4, 2]>
}

// -----

// CHECK-LABEL: func.func @flip(
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<3x4xf32>
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: %[[R:.*]] = arith.subi %c3, %[[J]] : index
// CHECK: tensor.extract %[[X]][%[[I]], %[[R]]] : tensor<3x4xf32>
func.func @flip(%x: !prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [3, 4]> {
  %l = prim.Constant {value = [-1]} : !prim.list<i64>
  %0 = aten.flip %x, %l : (!prim.tensor<dtype = f32, sizes = [3, 4]>, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [3, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 4]>
}

// -----

// roll by 2 of 5: result i reads (i + 3) mod 5.
// CHECK-LABEL: func.func @roll(
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[S:.*]] = arith.addi %[[I]], %c3 : index
// CHECK: %[[M:.*]] = arith.remsi %[[S]], %c5 : index
// CHECK: tensor.extract %{{.*}}[%[[M]]] : tensor<5xf32>
func.func @roll(%x: !prim.tensor<dtype = f32, sizes = [5]>) -> !prim.tensor<dtype = f32, sizes = [5]> {
  %s = prim.Constant {value = [2]} : !prim.list<i64>
  %d = prim.Constant {value = [0]} : !prim.list<i64>
  %0 = aten.roll %x, %s, %d : (!prim.tensor<dtype = f32, sizes = [5]>, !prim.list<i64>, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [5]>
}

// -----

// repeat [4, 1, 3] of [2, 3]: broadcast to [4, 1, 2, 3, 3], merge pairs.
// CHECK-LABEL: func.func @repeat(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x1x2x3x3xf32>
// CHECK: %[[B:.*]] = linalg.broadcast ins(%{{.*}} : tensor<2x3xf32>) outs(%[[E]] : tensor<4x1x2x3x3xf32>) dimensions = [0, 1, 3]
// CHECK: tensor.collapse_shape %[[B]] {{\[\[}}0], [1, 2], [3, 4]] : tensor<4x1x2x3x3xf32> into tensor<4x2x9xf32>
func.func @repeat(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor<dtype = f32, sizes = [4, 2, 9]> {
  %l = prim.Constant {value = [4, 1, 3]} : !prim.list<i64>
  %0 = aten.repeat %x, %l : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [4, 2, 9]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4, 2, 9]>
}

// -----

// tile pads the repeats with leading 1s.
// CHECK-LABEL: func.func @tile(
// CHECK: linalg.broadcast ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<1x2x2x3xf32>) dimensions = [0, 2]
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2, 3]] : tensor<1x2x2x3xf32> into tensor<2x6xf32>
func.func @tile(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor<dtype = f32, sizes = [2, 6]> {
  %l = prim.Constant {value = [2]} : !prim.list<i64>
  %0 = aten.tile %x, %l : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [2, 6]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 6]>
}

// -----

// A step that is not a constant is refused.
func.func @slice_runtime_step(%x: !prim.tensor<dtype = f32, sizes = [4]>, %s: i64) -> !prim.tensor<dtype = f32, sizes = [?]> {
  %c0 = prim.Constant {value = 0 : i64} : i64
  %n = prim.Constant {value} : !prim.none
  // expected-error @+1 {{failed to legalize operation 'aten.slice.Tensor'}}
  %0 = aten.slice.Tensor %x, %c0, %n, %n, %s : (!prim.tensor<dtype = f32, sizes = [4]>, i64, !prim.none, !prim.none, i64) -> !prim.tensor<dtype = f32, sizes = [?]>
  return %0 : !prim.tensor<dtype = f32, sizes = [?]>
}

// -----

// dims that are not constants are refused.
func.func @permute_runtime(%x: !prim.tensor<dtype = f32, sizes = [2, 2]>, %d: i64) -> !prim.tensor<dtype = f32, sizes = [2, 2]> {
  %c0 = prim.Constant {value = 0 : i64} : i64
  %l = prim.ListConstruct %d, %c0 : (i64, i64) -> !prim.list<i64>
  // expected-error @+1 {{failed to legalize operation 'aten.permute'}}
  %0 = aten.permute %x, %l : (!prim.tensor<dtype = f32, sizes = [2, 2]>, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [2, 2]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 2]>
}

// -----

// A view to a dtype of another width changes the last dim: refused.
func.func @view_dtype_width(%x: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f64, sizes = [2]> {
  %c7 = prim.Constant {value = 7 : i64} : i64
  // expected-error @+1 {{failed to legalize operation 'aten.view.dtype'}}
  %0 = aten.view.dtype %x, %c7 : (!prim.tensor<dtype = f32, sizes = [4]>, i64) -> !prim.tensor<dtype = f64, sizes = [2]>
  return %0 : !prim.tensor<dtype = f64, sizes = [2]>
}

// -----

// An input of unknown rank has no sizes to read: refused (it crashed in
// tensor::getMixedSizes, found through Faster R-CNN's box decoding).
func.func @view_of_unknown_rank(%x: !prim.tensor<dtype = f32>) -> !prim.tensor<dtype = f32, sizes = [?, 4]> {
  %s = prim.Constant {value = [-1, 4]} : !prim.list<i64>
  // expected-error @+1 {{failed to legalize operation 'aten.view'}}
  %0 = aten.view %x, %s : (!prim.tensor<dtype = f32>, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [?, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [?, 4]>
}

// -----

// Slices of a tensor with a dim of size 0 are empty wherever they start;
// torch allows them, and MLIR's extract_slice/insert_slice verifiers reject
// a static offset 0 on a dim of size 0 ("offset 0 is out-of-bounds: 0 >=
// 0", Faster R-CNN's remove_small_boxes with no proposals left). No slice
// op: an empty tensor, and for a scatter the destination itself.
// CHECK-LABEL: func.func @slices_of_zero_rows(
// CHECK-NOT: tensor.extract_slice
// CHECK-NOT: tensor.insert_slice
// CHECK-DAG: tensor.empty() : tensor<0xf32>
// CHECK-DAG: tensor.empty() : tensor<0x2xf32>
// CHECK-NOT: tensor.extract_slice
// CHECK-NOT: tensor.insert_slice
// CHECK: return
func.func @slices_of_zero_rows(%x: !prim.tensor<dtype = f32, sizes = [0, 4]>, %v: !prim.tensor<dtype = f32, sizes = [0]>) -> (!prim.tensor<dtype = f32, sizes = [0]>, !prim.tensor<dtype = f32, sizes = [0, 2]>, !prim.tensor<dtype = f32, sizes = [0, 4]>) {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %c2 = prim.Constant {value = 2 : i64} : i64
  %c4 = prim.Constant {value = 4 : i64} : i64
  %0 = aten.select.int %x, %c1, %c2 : (!prim.tensor<dtype = f32, sizes = [0, 4]>, i64, i64) -> !prim.tensor<dtype = f32, sizes = [0]>
  %1 = aten.slice.Tensor %x, %c1, %c2, %c4, %c1 : (!prim.tensor<dtype = f32, sizes = [0, 4]>, i64, i64, i64, i64) -> !prim.tensor<dtype = f32, sizes = [0, 2]>
  %2 = aten.select_scatter %x, %v, %c1, %c2 : (!prim.tensor<dtype = f32, sizes = [0, 4]>, !prim.tensor<dtype = f32, sizes = [0]>, i64, i64) -> !prim.tensor<dtype = f32, sizes = [0, 4]>
  return %0, %1, %2 : !prim.tensor<dtype = f32, sizes = [0]>, !prim.tensor<dtype = f32, sizes = [0, 2]>, !prim.tensor<dtype = f32, sizes = [0, 4]>
}
