// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// sort ranks each element against every other of its slice (a reduction
// over a second index along dim), scatters the ranks into a permutation
// and gathers the values through it.
// CHECK-DAG: #[[OWN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[OTHER:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @sort
// CHECK: %[[RANKS:.*]] = linalg.generic {indexing_maps = [#[[OWN]], #[[OTHER]], #[[OWN]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: ^bb0(%[[SELF:.*]]: f32, %[[OTHERV:.*]]: f32, %[[ACC:.*]]: i64):
// CHECK: %[[I:.*]] = linalg.index 1 : index
// CHECK: %[[J:.*]] = linalg.index 2 : index
// CHECK: %[[EARLIER:.*]] = arith.cmpi ult, %[[J]], %[[I]] : index
// CHECK: arith.cmpf oeq, %[[OTHERV]], %[[SELF]] : f32
// CHECK: arith.cmpf uno
// CHECK: arith.cmpf olt, %[[OTHERV]], %[[SELF]] : f32
// CHECK: %[[COUNT:.*]] = arith.extui %{{.*}} : i1 to i64
// CHECK: arith.addi %[[ACC]], %[[COUNT]] : i64
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tensor.extract %[[RANKS]]
// CHECK: tensor.insert
// CHECK: linalg.generic
// CHECK: tensor.extract %{{.*}} : tensor<3x7xf32>
// CHECK: -> tensor<3x7xf32>
func.func @sort(%x: !prim.tensor<dtype = f32, sizes = [3, 7]>) -> (!prim.tensor<dtype = f32, sizes = [3, 7]>, !prim.tensor<dtype = si64, sizes = [3, 7]>) {
  %d = prim.Constant {value = -1 : i64} : i64
  %false = prim.Constant {value = false} : i1
  %0:2 = aten.sort %x, %d, %false : (!prim.tensor<dtype = f32, sizes = [3, 7]>, i64, i1) -> (!prim.tensor<dtype = f32, sizes = [3, 7]>, !prim.tensor<dtype = si64, sizes = [3, 7]>)
  return %0#0, %0#1 : !prim.tensor<dtype = f32, sizes = [3, 7]>, !prim.tensor<dtype = si64, sizes = [3, 7]>
}

// -----

// Descending integer sorts compare signed, greater first; argsort is the
// permutation alone.
// CHECK-LABEL: func.func @argsort_descending
// CHECK: linalg.generic
// CHECK: arith.cmpi eq
// CHECK: arith.cmpi sgt
// CHECK: scf.for
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @argsort_descending(%x: !prim.tensor<dtype = si64, sizes = [5, 3]>) -> !prim.tensor<dtype = si64, sizes = [5, 3]> {
  %d = prim.Constant {value = 0 : i64} : i64
  %true = prim.Constant {value = true} : i1
  %0 = aten.argsort %x, %d, %true : (!prim.tensor<dtype = si64, sizes = [5, 3]>, i64, i1) -> !prim.tensor<dtype = si64, sizes = [5, 3]>
  return %0 : !prim.tensor<dtype = si64, sizes = [5, 3]>
}

// -----

// topk takes the first k of the descending permutation (largest) and
// gathers the values through them.
// CHECK-LABEL: func.func @topk
// CHECK: arith.cmpf ogt
// CHECK: scf.for
// CHECK: %[[FIRST:.*]] = tensor.extract_slice %{{.*}}[0, 0] [4, 3] [1, 1] : tensor<4x9xi64> to tensor<4x3xi64>
// CHECK: linalg.generic {{.*}} ins(%[[FIRST]] : tensor<4x3xi64>)
// CHECK: -> tensor<4x3xf32>
func.func @topk(%x: !prim.tensor<dtype = f32, sizes = [4, 9]>) -> (!prim.tensor<dtype = f32, sizes = [4, 3]>, !prim.tensor<dtype = si64, sizes = [4, 3]>) {
  %k = prim.Constant {value = 3 : i64} : i64
  %d = prim.Constant {value = -1 : i64} : i64
  %true = prim.Constant {value = true} : i1
  %0:2 = aten.topk %x, %k, %d, %true, %true : (!prim.tensor<dtype = f32, sizes = [4, 9]>, i64, i64, i1, i1) -> (!prim.tensor<dtype = f32, sizes = [4, 3]>, !prim.tensor<dtype = si64, sizes = [4, 3]>)
  return %0#0, %0#1 : !prim.tensor<dtype = f32, sizes = [4, 3]>, !prim.tensor<dtype = si64, sizes = [4, 3]>
}

// -----

func.func @topk_too_many(%x: !prim.tensor<dtype = f32, sizes = [4, 9]>) -> (!prim.tensor<dtype = f32, sizes = [4, ?]>, !prim.tensor<dtype = si64, sizes = [4, ?]>) {
  %k = prim.Constant {value = 10 : i64} : i64
  %d = prim.Constant {value = -1 : i64} : i64
  %true = prim.Constant {value = true} : i1
  // expected-error @+2 {{k = 10 is out of range for a dim of 9 elements}}
  // expected-error @+1 {{failed to legalize operation 'aten.topk'}}
  %0:2 = aten.topk %x, %k, %d, %true, %true : (!prim.tensor<dtype = f32, sizes = [4, 9]>, i64, i64, i1, i1) -> (!prim.tensor<dtype = f32, sizes = [4, ?]>, !prim.tensor<dtype = si64, sizes = [4, ?]>)
  return %0#0, %0#1 : !prim.tensor<dtype = f32, sizes = [4, ?]>, !prim.tensor<dtype = si64, sizes = [4, ?]>
}

// -----

// A slice whose length only the run knows (scores after a threshold) is
// left to the runtime kernel, which sorts in n log n: ranking every pair of
// a detection head's thousands of anchors per class was a third of SSDlite's
// run.
func.func @topk_dynamic_slice(%x: !prim.tensor<dtype = f32, sizes = [?]>) -> (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = si64, sizes = [3]>) {
  %k = prim.Constant {value = 3 : i64} : i64
  %d = prim.Constant {value = 0 : i64} : i64
  %true = prim.Constant {value = true} : i1
  // expected-error @+1 {{failed to legalize operation 'aten.topk'}}
  %0:2 = aten.topk %x, %k, %d, %true, %true : (!prim.tensor<dtype = f32, sizes = [?]>, i64, i64, i1, i1) -> (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = si64, sizes = [3]>)
  return %0#0, %0#1 : !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = si64, sizes = [3]>
}

// -----

// So is a slice longer than 1,024 elements, for argsort as for sort and topk.
func.func @argsort_long_slice(%x: !prim.tensor<dtype = f32, sizes = [2, 1025]>) -> !prim.tensor<dtype = si64, sizes = [2, 1025]> {
  %d = prim.Constant {value = 1 : i64} : i64
  %false = prim.Constant {value = false} : i1
  // expected-error @+1 {{failed to legalize operation 'aten.argsort'}}
  %0 = aten.argsort %x, %d, %false : (!prim.tensor<dtype = f32, sizes = [2, 1025]>, i64, i1) -> !prim.tensor<dtype = si64, sizes = [2, 1025]>
  return %0 : !prim.tensor<dtype = si64, sizes = [2, 1025]>
}

// -----

// 1,024 elements still rank in compiled code (a classifier's top-5 of
// 1,000 logits compiles whole).
// CHECK-LABEL: func.func @topk_longest_ranked
// CHECK: linalg.generic
// CHECK-NOT: aten.topk
func.func @topk_longest_ranked(%x: !prim.tensor<dtype = f32, sizes = [1, 1024]>) -> (!prim.tensor<dtype = f32, sizes = [1, 5]>, !prim.tensor<dtype = si64, sizes = [1, 5]>) {
  %k = prim.Constant {value = 5 : i64} : i64
  %d = prim.Constant {value = 1 : i64} : i64
  %true = prim.Constant {value = true} : i1
  %0:2 = aten.topk %x, %k, %d, %true, %true : (!prim.tensor<dtype = f32, sizes = [1, 1024]>, i64, i64, i1, i1) -> (!prim.tensor<dtype = f32, sizes = [1, 5]>, !prim.tensor<dtype = si64, sizes = [1, 5]>)
  return %0#0, %0#1 : !prim.tensor<dtype = f32, sizes = [1, 5]>, !prim.tensor<dtype = si64, sizes = [1, 5]>
}
