// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// sum over dims [0, 2] with keepdim: a generic reducing into a zero-filled
// [3], then the reduced dims come back as 1s.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @sum_keepdim
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<3xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<3xf32>)
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["reduction", "parallel", "reduction"]}
// CHECK-SAME: ins(%{{.*}} : tensor<2x3x4xf32>) outs(%[[F]] : tensor<3xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: tensor.expand_shape %[[R]] {{\[\[}}0, 1, 2]] output_shape [1, 3, 1] : tensor<3xf32> into tensor<1x3x1xf32>
func.func @sum_keepdim(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 4]>) -> !prim.tensor<dtype = f32, sizes = [1, 3, 1]> {
  %dims = prim.Constant {value = [0 : i64, 2 : i64]} : !prim.list<i64>
  %true = prim.Constant {value = true} : i1
  %none = prim.Constant {value} : !prim.none
  %0 = aten.sum.dim_IntList %x, %dims, %true, %none : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, !prim.list<i64>, i1, !prim.none) -> !prim.tensor<dtype = f32, sizes = [1, 3, 1]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 3, 1]>
}

// -----

// sum of every element with a dtype: each element is cast to it first.
// CHECK-LABEL: func.func @sum_dtype
// CHECK: iterator_types = ["reduction", "reduction"]
// CHECK: ^bb0(%[[X:.*]]: i32, %[[ACC:.*]]: f64):
// CHECK-NEXT: %[[XF:.*]] = arith.sitofp %[[X]] : i32 to f64
// CHECK-NEXT: arith.addf %[[ACC]], %[[XF]] : f64
// CHECK: -> tensor<f64>
func.func @sum_dtype(%x: !prim.tensor<dtype = si32, sizes = [2, 3]>) -> !prim.tensor<dtype = f64, sizes = []> {
  %double = prim.Constant {value = 7 : i64} : i64
  %0 = aten.sum %x, %double : (!prim.tensor<dtype = si32, sizes = [2, 3]>, i64) -> !prim.tensor<dtype = f64, sizes = []>
  return %0 : !prim.tensor<dtype = f64, sizes = []>
}

// -----

// An f32 sum of 256 or more elements adds up in f64 (added one after
// another in f32 its error grows with its length; torch cascades its
// sums); a shorter one stays in f32.
// CHECK-LABEL: func.func @long_and_short_sums
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-SAME: outs(%{{.*}} : tensor<3xf64>)
// CHECK: arith.extf
// CHECK: arith.addf %{{.*}} : f64
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK-SAME: outs(%{{.*}} : tensor<256xf32>)
// CHECK: arith.addf %{{.*}} : f32
func.func @long_and_short_sums(%x: !prim.tensor<dtype = f32, sizes = [3, 256]>) -> (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [256]>) {
  %zero = prim.Constant {value = 0 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %rows = prim.ListConstruct %one : (i64) -> !prim.list<i64>
  %columns = prim.ListConstruct %zero : (i64) -> !prim.list<i64>
  %false = prim.Constant {value = false} : i1
  %none = prim.Constant {value} : !prim.none
  %0 = aten.sum.dim_IntList %x, %rows, %false, %none : (!prim.tensor<dtype = f32, sizes = [3, 256]>, !prim.list<i64>, i1, !prim.none) -> !prim.tensor<dtype = f32, sizes = [3]>
  %1 = aten.sum.dim_IntList %x, %columns, %false, %none : (!prim.tensor<dtype = f32, sizes = [3, 256]>, !prim.list<i64>, i1, !prim.none) -> !prim.tensor<dtype = f32, sizes = [256]>
  return %0, %1 : !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [256]>
}

// -----

// mean divides the sum by the element count, read with tensor.dim for a
// dynamic dim. A sum of an unknown count of f32 values adds them up in f64
// (getSumAccumulatorType), and the mean is rounded to f32 once.
// CHECK-LABEL: func.func @mean_dynamic
// CHECK: %[[T:.*]] = builtin.unrealized_conversion_cast %arg0
// CHECK: linalg.generic
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.addf %{{.*}} : f64
// CHECK: %[[D:.*]] = tensor.dim %[[T]], %{{.*}} : tensor<?x4xf32>
// CHECK: %[[N:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK: %[[NF:.*]] = arith.sitofp %{{.*}} : i64 to f64
// CHECK: linalg.generic
// CHECK: arith.divf %{{.*}}, %[[NF]] : f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @mean_dynamic(%x: !prim.tensor<dtype = f32, sizes = [?, 4]>) -> !prim.tensor<dtype = f32, sizes = [4]> {
  %zero = prim.Constant {value = 0 : i64} : i64
  %dims = prim.ListConstruct %zero : (i64) -> !prim.list<i64>
  %false = prim.Constant {value = false} : i1
  %none = prim.Constant {value} : !prim.none
  %0 = aten.mean.dim %x, %dims, %false, %none : (!prim.tensor<dtype = f32, sizes = [?, 4]>, !prim.list<i64>, i1, !prim.none) -> !prim.tensor<dtype = f32, sizes = [4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4]>
}

// -----

// amax starts from -inf and propagates NaN (arith.maximumf); on integers it
// starts from the lowest value.
// CHECK-LABEL: func.func @amax
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: arith.maximumf
// CHECK: arith.constant -9223372036854775808 : i64
// CHECK: arith.maxsi
func.func @amax(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>, %i: !prim.tensor<dtype = si64, sizes = [2, 3]>) -> (!prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = si64, sizes = [2]>) {
  %one = prim.Constant {value = 1 : i64} : i64
  %dims = prim.ListConstruct %one : (i64) -> !prim.list<i64>
  %false = prim.Constant {value = false} : i1
  %0 = aten.amax %x, %dims, %false : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.list<i64>, i1) -> !prim.tensor<dtype = f32, sizes = [2]>
  %1 = aten.amax %i, %dims, %false : (!prim.tensor<dtype = si64, sizes = [2, 3]>, !prim.list<i64>, i1) -> !prim.tensor<dtype = si64, sizes = [2]>
  return %0, %1 : !prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = si64, sizes = [2]>
}

// -----

// max.dim reduces into (values, indices) at once: a strictly greater value
// or the first NaN takes the lead, so ties keep the first index.
// CHECK-LABEL: func.func @max_dim
// CHECK: %[[R:.*]]:2 = linalg.generic
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xi64>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[BEST:.*]]: f32, %[[IDX:.*]]: i64):
// CHECK: %[[POS:.*]] = linalg.index 1 : index
// CHECK: %[[I:.*]] = arith.index_cast %[[POS]] : index to i64
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[BEST]] : f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK: %[[ORD:.*]] = arith.cmpf ord, %[[BEST]], %[[BEST]] : f32
// CHECK: %[[FIRST:.*]] = arith.andi %[[NAN]], %[[ORD]] : i1
// CHECK: %[[TAKE:.*]] = arith.ori %[[GT]], %[[FIRST]] : i1
// CHECK: %[[V:.*]] = arith.select %[[TAKE]], %[[X]], %[[BEST]] : f32
// CHECK: %[[J:.*]] = arith.select %[[TAKE]], %[[I]], %[[IDX]] : i64
// CHECK: linalg.yield %[[V]], %[[J]] : f32, i64
func.func @max_dim(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> (!prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = si64, sizes = [2]>) {
  %one = prim.Constant {value = 1 : i64} : i64
  %false = prim.Constant {value = false} : i1
  %values, %indices = aten.max.dim %x, %one, %false : (!prim.tensor<dtype = f32, sizes = [2, 3]>, i64, i1) -> (!prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = si64, sizes = [2]>)
  return %values, %indices : !prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = si64, sizes = [2]>
}

// -----

// argmax with dim None runs over the flattened input.
// CHECK-LABEL: func.func @argmax_flat
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["reduction"]
// CHECK: linalg.index 0
func.func @argmax_flat(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor<dtype = si64, sizes = []> {
  %none = prim.Constant {value} : !prim.none
  %false = prim.Constant {value = false} : i1
  %0 = aten.argmax %x, %none, %false : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.none, i1) -> !prim.tensor<dtype = si64, sizes = []>
  return %0 : !prim.tensor<dtype = si64, sizes = []>
}

// -----

// any tests each element for non-zero and ors it in; a uint8 input gives a
// uint8 result, as in torch.
// CHECK-LABEL: func.func @any_dim
// CHECK: ^bb0(%[[X:.*]]: i8, %[[ACC:.*]]: i1):
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i8
// CHECK-NEXT: %[[B:.*]] = arith.cmpi ne, %[[X]], %[[Z]] : i8
// CHECK-NEXT: arith.ori %[[ACC]], %[[B]] : i1
// CHECK: arith.extui %{{.*}} : i1 to i8
func.func @any_dim(%x: !prim.tensor<dtype = ui8, sizes = [2, 3]>) -> !prim.tensor<dtype = ui8, sizes = [2]> {
  %one = prim.Constant {value = 1 : i64} : i64
  %false = prim.Constant {value = false} : i1
  %0 = aten.any.dim %x, %one, %false : (!prim.tensor<dtype = ui8, sizes = [2, 3]>, i64, i1) -> !prim.tensor<dtype = ui8, sizes = [2]>
  return %0 : !prim.tensor<dtype = ui8, sizes = [2]>
}

// -----

// var: a mean, the sum of squared deviations from it, divided by
// max(N - 1, 0) when unbiased; std takes the square root.
// CHECK-LABEL: func.func @std_unbiased
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: ^bb0(%[[X:.*]]: f32, %[[MEAN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[X]], %[[MEAN]] : f32
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[D]], %[[D]] : f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[SQ]] : f32
// CHECK: %[[N:.*]] = arith.subf %{{.*}}, %{{.*}} : f32
// CHECK: %[[DIV:.*]] = arith.maximumf %[[N]], %{{.*}} : f32
// CHECK: arith.divf %{{.*}}, %[[DIV]] : f32
// CHECK: math.sqrt
func.func @std_unbiased(%x: !prim.tensor<dtype = f32, sizes = [4, 5]>) -> !prim.tensor<dtype = f32, sizes = []> {
  %true = prim.Constant {value = true} : i1
  %0 = aten.std %x, %true : (!prim.tensor<dtype = f32, sizes = [4, 5]>, i1) -> !prim.tensor<dtype = f32, sizes = []>
  return %0 : !prim.tensor<dtype = f32, sizes = []>
}

// -----

// logsumexp subtracts the max, or 0 where the max is infinite.
// CHECK-LABEL: func.func @logsumexp
// CHECK: arith.maximumf
// CHECK: %[[A:.*]] = math.absf
// CHECK: %[[INF:.*]] = arith.cmpf oeq, %[[A]], %{{.*}} : f32
// CHECK: arith.select %[[INF]]
// CHECK: math.exp
// CHECK: math.log
func.func @logsumexp(%x: !prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [3]> {
  %one = prim.Constant {value = 1 : i64} : i64
  %dims = prim.ListConstruct %one : (i64) -> !prim.list<i64>
  %false = prim.Constant {value = false} : i1
  %0 = aten.logsumexp %x, %dims, %false : (!prim.tensor<dtype = f32, sizes = [3, 4]>, !prim.list<i64>, i1) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// cumsum walks its dim, adding each slice to a running sum updated in place.
// CHECK-LABEL: func.func @cumsum
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OUT:.*]] = %{{.*}}, %[[PARTIAL:.*]] = %{{.*}}) -> (tensor<3x5xi64>, tensor<3xi64>)
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %{{.*}}[0, %[[I]]] [3, 1] [1, 1] : tensor<3x5xi64> to tensor<3xi64>
// CHECK: %[[NEXT:.*]] = linalg.generic {{.*}} ins(%[[SLICE]] : tensor<3xi64>) outs(%[[PARTIAL]] : tensor<3xi64>)
// CHECK: arith.addi
// CHECK: %[[STORED:.*]] = tensor.insert_slice %[[NEXT]] into %[[OUT]][0, %[[I]]] [3, 1] [1, 1]
// CHECK: scf.yield %[[STORED]], %[[NEXT]]
func.func @cumsum(%x: !prim.tensor<dtype = si32, sizes = [3, 5]>) -> !prim.tensor<dtype = si64, sizes = [3, 5]> {
  %one = prim.Constant {value = 1 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %0 = aten.cumsum %x, %one, %none : (!prim.tensor<dtype = si32, sizes = [3, 5]>, i64, !prim.none) -> !prim.tensor<dtype = si64, sizes = [3, 5]>
  return %0 : !prim.tensor<dtype = si64, sizes = [3, 5]>
}

// -----

// softmax: max along the dim, the sum of exp(x - max), then
// exp(x - max) / sum with both broadcast back along the dim.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @softmax
// CHECK: %[[MAX:.*]] = linalg.generic
// CHECK: arith.maximumf
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK: math.exp
// CHECK-DAG: %[[MAX1:.*]] = tensor.expand_shape %[[MAX]] {{\[\[}}0, 1]] output_shape [2, 1]
// CHECK-DAG: %[[SUM1:.*]] = tensor.expand_shape %[[SUM]] {{\[\[}}0, 1]] output_shape [2, 1]
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[COL]], #[[ID]]]
// CHECK-SAME: ins(%{{.*}}, %[[MAX1]], %[[SUM1]] :
// CHECK: ^bb0(%[[X:.*]]: f32, %[[M:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[X]], %[[M]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT: arith.divf %[[E]], %[[S]] : f32
func.func @softmax(%x: !prim.tensor<dtype = f32, sizes = [2, 5]>) -> !prim.tensor<dtype = f32, sizes = [2, 5]> {
  %minus1 = prim.Constant {value = -1 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %0 = aten.softmax.int %x, %minus1, %none : (!prim.tensor<dtype = f32, sizes = [2, 5]>, i64, !prim.none) -> !prim.tensor<dtype = f32, sizes = [2, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 5]>
}

// -----

// log_softmax with a dtype computes in it: x - max - log(sum).
// CHECK-LABEL: func.func @log_softmax_dtype
// CHECK: ^bb0(%[[X:.*]]: f32, %[[M:.*]]: f64, %[[S:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT: %[[XD:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[XD]], %[[M]] : f64
// CHECK-NEXT: %[[L:.*]] = math.log %[[S]] : f64
// CHECK-NEXT: arith.subf %[[D]], %[[L]] : f64
func.func @log_softmax_dtype(%x: !prim.tensor<dtype = f32, sizes = [2, 5]>) -> !prim.tensor<dtype = f64, sizes = [2, 5]> {
  %one = prim.Constant {value = 1 : i64} : i64
  %double = prim.Constant {value = 7 : i64} : i64
  %0 = aten.log_softmax.int %x, %one, %double : (!prim.tensor<dtype = f32, sizes = [2, 5]>, i64, i64) -> !prim.tensor<dtype = f64, sizes = [2, 5]>
  return %0 : !prim.tensor<dtype = f64, sizes = [2, 5]>
}

// -----

func.func @dim_not_constant(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>, %d: i64) -> !prim.tensor<dtype = f32, sizes = [2]> {
  %dims = prim.ListConstruct %d : (i64) -> !prim.list<i64>
  %false = prim.Constant {value = false} : i1
  %none = prim.Constant {value} : !prim.none
  // expected-error @+1 {{failed to legalize operation 'aten.sum.dim_IntList'}}
  %0 = aten.sum.dim_IntList %x, %dims, %false, %none : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.list<i64>, i1, !prim.none) -> !prim.tensor<dtype = f32, sizes = [2]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2]>
}

// -----

func.func @softmax_dim_out_of_range(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3]> {
  %two = prim.Constant {value = 2 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  // expected-error @+1 {{failed to legalize operation 'aten.softmax.int'}}
  %0 = aten.softmax.int %x, %two, %none : (!prim.tensor<dtype = f32, sizes = [2, 3]>, i64, !prim.none) -> !prim.tensor<dtype = f32, sizes = [2, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3]>
}

// -----

func.func @mean_of_integers(%x: !prim.tensor<dtype = si64, sizes = [2, 3]>) -> !prim.tensor<dtype = si64, sizes = []> {
  %none = prim.Constant {value} : !prim.none
  // expected-error @+1 {{failed to legalize operation 'aten.mean'}}
  %0 = aten.mean %x, %none : (!prim.tensor<dtype = si64, sizes = [2, 3]>, !prim.none) -> !prim.tensor<dtype = si64, sizes = []>
  return %0 : !prim.tensor<dtype = si64, sizes = []>
}
