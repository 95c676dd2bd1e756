// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// zeros with a runtime size; ones with int64 (dtype 4) in the result type.
// CHECK-LABEL: func.func @zeros_ones(
// CHECK: %[[N:.*]] = arith.index_cast %arg0 : i64 to index
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<2x?xf32>
// CHECK: linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2x?xf32>)
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<3xi64>
// CHECK: linalg.fill ins(%[[ONE]] : i64) outs(%[[E1]] : tensor<3xi64>)
func.func @zeros_ones(%n: i64) -> (!prim.tensor<dtype = f32, sizes = [2, ?]>, !prim.tensor<dtype = si64, sizes = [3]>) {
  %c2 = prim.Constant {value = 2 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %l = prim.ListConstruct %c2, %n : (i64, i64) -> !prim.list<i64>
  %0 = aten.zeros %l, %none, %none, %none, %none : (!prim.list<i64>, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor<dtype = f32, sizes = [2, ?]>
  %s = prim.Constant {value = [3]} : !prim.list<i64>
  %c4 = prim.Constant {value = 4 : i64} : i64
  %1 = aten.ones %s, %c4, %none, %none, %none : (!prim.list<i64>, i64, !prim.none, !prim.none, !prim.none) -> !prim.tensor<dtype = si64, sizes = [3]>
  return %0, %1 : !prim.tensor<dtype = f32, sizes = [2, ?]>, !prim.tensor<dtype = si64, sizes = [3]>
}

// -----

// CHECK-LABEL: func.func @full(
// CHECK: %[[V:.*]] = arith.truncf %arg0 : f64 to f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK: linalg.fill ins(%[[V]] : f32) outs(%[[E]] : tensor<2x2xf32>)
func.func @full(%v: f64) -> !prim.tensor<dtype = f32, sizes = [2, 2]> {
  %none = prim.Constant {value} : !prim.none
  %s = prim.Constant {value = [2, 2]} : !prim.list<i64>
  %0 = aten.full %s, %v, %none, %none, %none, %none : (!prim.list<i64>, f64, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor<dtype = f32, sizes = [2, 2]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 2]>
}

// -----

// CHECK-LABEL: func.func @empty(
// CHECK: %[[N:.*]] = arith.index_cast %arg0 : i64 to index
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK-NOT: linalg.fill
// CHECK: builtin.unrealized_conversion_cast %[[E]]
func.func @empty(%n: i64) -> !prim.tensor<dtype = f32, sizes = [?]> {
  %none = prim.Constant {value} : !prim.none
  %l = prim.ListConstruct %n : (i64) -> !prim.list<i64>
  %0 = aten.empty.memory_format %l, %none, %none, %none, %none, %none : (!prim.list<i64>, !prim.none, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor<dtype = f32, sizes = [?]>
  return %0 : !prim.tensor<dtype = f32, sizes = [?]>
}

// -----

// *_like take the input's sizes and the result's dtype (bool here).
// CHECK-LABEL: func.func @like(
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<?x3xf32>
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[T:.*]] = arith.constant true
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x3xi1>
// CHECK: linalg.fill ins(%[[T]] : i1) outs(%[[E]] : tensor<?x3xi1>)
// CHECK: %[[V:.*]] = arith.sitofp %{{.*}} : i64 to f32
// CHECK: linalg.fill ins(%[[V]] : f32) outs(%{{.*}} : tensor<?x3xf32>)
func.func @like(%x: !prim.tensor<dtype = f32, sizes = [?, 3]>) -> (!prim.tensor<dtype = i1, sizes = [?, 3]>, !prim.tensor<dtype = f32, sizes = [?, 3]>) {
  %none = prim.Constant {value} : !prim.none
  %c11 = prim.Constant {value = 11 : i64} : i64
  %v = prim.Constant {value = 2 : i64} : i64
  %0 = aten.ones_like %x, %c11, %none, %none, %none, %none : (!prim.tensor<dtype = f32, sizes = [?, 3]>, i64, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor<dtype = i1, sizes = [?, 3]>
  %1 = aten.full_like %x, %v, %none, %none, %none, %none, %none : (!prim.tensor<dtype = f32, sizes = [?, 3]>, i64, !prim.none, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor<dtype = f32, sizes = [?, 3]>
  return %0, %1 : !prim.tensor<dtype = i1, sizes = [?, 3]>, !prim.tensor<dtype = f32, sizes = [?, 3]>
}

// -----

// A float fill of an int64 tensor truncates, as torch does.
// CHECK-LABEL: func.func @new_full(
// CHECK: %[[V:.*]] = arith.fptosi %{{.*}} : f64 to i64
// CHECK: linalg.fill ins(%[[V]] : i64) outs(%{{.*}} : tensor<2xi64>)
func.func @new_full(%x: !prim.tensor<dtype = si64, sizes = [5]>) -> !prim.tensor<dtype = si64, sizes = [2]> {
  %none = prim.Constant {value} : !prim.none
  %s = prim.Constant {value = [2]} : !prim.list<i64>
  %v = prim.Constant {value = 2.5 : f64} : f64
  %0 = aten.new_full %x, %s, %v, %none, %none, %none, %none : (!prim.tensor<dtype = si64, sizes = [5]>, !prim.list<i64>, f64, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor<dtype = si64, sizes = [2]>
  return %0 : !prim.tensor<dtype = si64, sizes = [2]>
}

// -----

// fill_.Tensor reads its 0-d value.
// CHECK-LABEL: func.func @fill(
// CHECK: %[[VT:.*]] = builtin.unrealized_conversion_cast %arg1 {{.*}} to tensor<f64>
// CHECK: %[[V:.*]] = tensor.extract %[[VT]][] : tensor<f64>
// CHECK: %[[F:.*]] = arith.truncf %[[V]] : f64 to f32
// CHECK: linalg.fill ins(%[[F]] : f32) outs(%{{.*}} : tensor<3xf32>)
func.func @fill(%x: !prim.tensor<dtype = f32, sizes = [3]>, %v: !prim.tensor<dtype = f64, sizes = []>) -> !prim.tensor<dtype = f32, sizes = [3]> {
  %0 = aten.fill_.Tensor %x, %v : (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f64, sizes = []>) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// A nested list, SSA values and a list constant, in row-major order.
// CHECK-LABEL: func.func @tensor_from_list(
// CHECK: %[[A:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: %[[B:.*]] = arith.truncf %arg0 : f64 to f32
// CHECK: %[[C3:.*]] = arith.constant 3.000000e+00 : f64
// CHECK: %[[C:.*]] = arith.truncf %[[C3]] : f64 to f32
// CHECK: %[[C4:.*]] = arith.constant 4.000000e+00 : f64
// CHECK: %[[D:.*]] = arith.truncf %[[C4]] : f64 to f32
// CHECK: tensor.from_elements %[[A]], %[[B]], %[[C]], %[[D]] : tensor<2x2xf32>
func.func @tensor_from_list(%f: f64) -> !prim.tensor<dtype = f32, sizes = [2, 2]> {
  %none = prim.Constant {value} : !prim.none
  %false = prim.Constant {value = false} : i1
  %a = prim.Constant {value = 1.0 : f64} : f64
  %r0 = prim.ListConstruct %a, %f : (f64, f64) -> !prim.list<f64>
  %r1 = prim.Constant {value = [3.0, 4.0]} : !prim.list<f64>
  %l = prim.ListConstruct %r0, %r1 : (!prim.list<f64>, !prim.list<f64>) -> !prim.list<!prim.list<f64>>
  %0 = aten.tensor %l, %none, %none, %false : (!prim.list<!prim.list<f64>>, !prim.none, !prim.none, i1) -> !prim.tensor<dtype = f32, sizes = [2, 2]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 2]>
}

// -----

// CHECK-LABEL: func.func @scalar_tensor(
// CHECK: %[[V:.*]] = arith.sitofp %arg0 : i64 to f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<f32>
// CHECK: linalg.fill ins(%[[V]] : f32) outs(%[[E]] : tensor<f32>)
func.func @scalar_tensor(%n: i64) -> !prim.tensor<dtype = f32, sizes = []> {
  %none = prim.Constant {value} : !prim.none
  %0 = aten.scalar_tensor %n, %none, %none, %none, %none : (i64, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor<dtype = f32, sizes = []>
  return %0 : !prim.tensor<dtype = f32, sizes = []>
}

// -----

// arange(n): the length is ceil((n - 0) / 1) in double; elements are
// 0 + i * 1 in int64.
// CHECK-LABEL: func.func @arange(
// CHECK: %[[START:.*]] = arith.constant 0 : i64
// CHECK: %[[STEP:.*]] = arith.constant 1 : i64
// CHECK: %[[END:.*]] = arith.sitofp %arg0 : i64 to f64
// CHECK: %[[S:.*]] = arith.sitofp %[[START]] : i64 to f64
// CHECK: %[[SPAN:.*]] = arith.subf %[[END]], %[[S]] : f64
// CHECK: %[[ST:.*]] = arith.sitofp %[[STEP]] : i64 to f64
// CHECK: %[[Q:.*]] = arith.divf %[[SPAN]], %[[ST]] : f64
// CHECK: %[[C:.*]] = math.ceil %[[Q]] : f64
// CHECK: %[[CI:.*]] = arith.fptosi %[[C]] : f64 to i64
// CHECK: %[[LEN:.*]] = arith.index_cast %[[CI]] : i64 to index
// CHECK: %[[E:.*]] = tensor.empty(%[[LEN]]) : tensor<?xi64>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<?xi64>)
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[II:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[M:.*]] = arith.muli %[[II]], %[[STEP]] : i64
// CHECK: %[[R:.*]] = arith.addi %[[START]], %[[M]] : i64
// CHECK: linalg.yield %[[R]] : i64
func.func @arange(%n: i64) -> !prim.tensor<dtype = si64, sizes = [?]> {
  %none = prim.Constant {value} : !prim.none
  %0 = aten.arange %n, %none, %none, %none, %none : (i64, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor<dtype = si64, sizes = [?]>
  return %0 : !prim.tensor<dtype = si64, sizes = [?]>
}

// -----

// A float arange computes in double and rounds each element once.
// CHECK-LABEL: func.func @arange_float(
// CHECK: tensor.empty() : tensor<5xf32>
// CHECK: %[[I:.*]] = arith.sitofp %{{.*}} : i64 to f64
// CHECK: %[[M:.*]] = arith.mulf %[[I]], %{{.*}} : f64
// CHECK: %[[A:.*]] = arith.addf %{{.*}}, %[[M]] : f64
// CHECK: %[[R:.*]] = arith.truncf %[[A]] : f64 to f32
// CHECK: linalg.yield %[[R]] : f32
func.func @arange_float() -> !prim.tensor<dtype = f32, sizes = [5]> {
  %none = prim.Constant {value} : !prim.none
  %a = prim.Constant {value = 0.5 : f64} : f64
  %b = prim.Constant {value = 3.0 : f64} : f64
  %s = prim.Constant {value = 0.5 : f64} : f64
  %0 = aten.arange.start_step %a, %b, %s, %none, %none, %none, %none : (f64, f64, f64, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor<dtype = f32, sizes = [5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [5]>
}

// -----

// linspace: up from start before halfway, down from end after it, and
// start for one step.
// CHECK-LABEL: func.func @linspace(
// CHECK: %[[START:.*]] = arith.sitofp %{{.*}} : i64 to f32
// CHECK: %[[END:.*]] = arith.sitofp %{{.*}} : i64 to f32
// CHECK: %[[SPAN:.*]] = arith.subf %[[END]], %[[START]] : f32
// CHECK: %[[STEP:.*]] = arith.divf %[[SPAN]], %{{.*}} : f32
// CHECK: %[[HALF:.*]] = arith.divsi %{{.*}}, %{{.*}} : i64
// CHECK: %[[ONE:.*]] = arith.cmpi eq
// CHECK: linalg.generic
// CHECK: %[[UP:.*]] = arith.addf %[[START]], %{{.*}} : f32
// CHECK: %[[DOWN:.*]] = arith.subf %[[END]], %{{.*}} : f32
// CHECK: %[[FIRST:.*]] = arith.cmpi slt, %{{.*}}, %[[HALF]] : i64
// CHECK: %[[V:.*]] = arith.select %[[FIRST]], %[[UP]], %[[DOWN]] : f32
// CHECK: arith.select %[[ONE]], %[[START]], %[[V]] : f32
func.func @linspace() -> !prim.tensor<dtype = f32, sizes = [5]> {
  %none = prim.Constant {value} : !prim.none
  %a = prim.Constant {value = 0 : i64} : i64
  %b = prim.Constant {value = 1 : i64} : i64
  %n = prim.Constant {value = 5 : i64} : i64
  %0 = aten.linspace %a, %b, %n, %none, %none, %none, %none : (i64, i64, i64, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor<dtype = f32, sizes = [5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [5]>
}

// -----

// CHECK-LABEL: func.func @eye(
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: tensor.empty() : tensor<3x3xi64>
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: %[[D:.*]] = arith.cmpi eq, %[[I]], %[[J]] : index
// CHECK: arith.select %[[D]], %[[ONE]], %[[ZERO]] : i64
func.func @eye() -> !prim.tensor<dtype = si64, sizes = [3, 3]> {
  %none = prim.Constant {value} : !prim.none
  %n = prim.Constant {value = 3 : i64} : i64
  %c4 = prim.Constant {value = 4 : i64} : i64
  %0 = aten.eye %n, %c4, %none, %none, %none : (i64, i64, !prim.none, !prim.none, !prim.none) -> !prim.tensor<dtype = si64, sizes = [3, 3]>
  return %0 : !prim.tensor<dtype = si64, sizes = [3, 3]>
}

// -----

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @one_hot(
// CHECK: linalg.generic {indexing_maps = [#[[IN]], {{.*}}]{{.*}} ins(%{{.*}} : tensor<4xi64>) outs(%{{.*}} : tensor<4x3xi64>)
// CHECK: ^bb0(%[[V:.*]]: i64, %{{.*}}: i64):
// CHECK: %[[C:.*]] = linalg.index 1 : index
// CHECK: %[[CI:.*]] = arith.index_cast %[[C]] : index to i64
// CHECK: %[[HIT:.*]] = arith.cmpi eq, %[[V]], %[[CI]] : i64
// CHECK: arith.extui %[[HIT]] : i1 to i64
func.func @one_hot(%x: !prim.tensor<dtype = si64, sizes = [4]>) -> !prim.tensor<dtype = si64, sizes = [4, 3]> {
  %c3 = prim.Constant {value = 3 : i64} : i64
  %0 = aten.one_hot %x, %c3 : (!prim.tensor<dtype = si64, sizes = [4]>, i64) -> !prim.tensor<dtype = si64, sizes = [4, 3]>
  return %0 : !prim.tensor<dtype = si64, sizes = [4, 3]>
}

// -----

// num_classes=-1 sizes the result by the data's maximum: refused.
func.func @one_hot_data_dependent(%x: !prim.tensor<dtype = si64, sizes = [4]>) -> !prim.tensor<dtype = si64, sizes = [4, ?]> {
  %m1 = prim.Constant {value = -1 : i64} : i64
  // expected-error @+1 {{failed to legalize operation 'aten.one_hot'}}
  %0 = aten.one_hot %x, %m1 : (!prim.tensor<dtype = si64, sizes = [4]>, i64) -> !prim.tensor<dtype = si64, sizes = [4, ?]>
  return %0 : !prim.tensor<dtype = si64, sizes = [4, ?]>
}

// -----

// Random numbers are not lowered.
func.func @rand() -> !prim.tensor<dtype = f32, sizes = [2]> {
  %none = prim.Constant {value} : !prim.none
  %s = prim.Constant {value = [2]} : !prim.list<i64>
  // expected-error @+1 {{failed to legalize operation 'aten.rand'}}
  %0 = aten.rand %s, %none, %none, %none, %none : (!prim.list<i64>, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor<dtype = f32, sizes = [2]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2]>
}
