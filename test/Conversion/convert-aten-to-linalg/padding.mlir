// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// Negative pads crop with an extract_slice; positive ones pad with the
// value, cast to the element type.
// CHECK-LABEL: func.func @constant_pad_nd_crop
// CHECK: %[[FILL:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %{{.*}}[0, 1, 0] [3, 3, 5] [1, 1, 1] : tensor<3x4x5xf32> to tensor<3x3x5xf32>
// CHECK: tensor.pad %[[SLICE]] low[0, 0, 1] high[0, 1, 2]
// CHECK: tensor.yield %[[FILL]] : f32
// CHECK: } : tensor<3x3x5xf32> to tensor<3x4x8xf32>
func.func @constant_pad_nd_crop(%x: !prim.tensor<dtype = f32, sizes = [3, 4, 5]>) -> !prim.tensor<dtype = f32, sizes = [3, 4, 8]> {
  %v = prim.Constant {value = 5.000000e-01 : f64} : f64
  %pad = prim.Constant {value = [1, 2, -1, 1]} : !prim.list<i64>
  %0 = aten.constant_pad_nd %x, %pad, %v : (!prim.tensor<dtype = f32, sizes = [3, 4, 5]>, !prim.list<i64>, f64) -> !prim.tensor<dtype = f32, sizes = [3, 4, 8]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 4, 8]>
}

// -----

// pad's constant mode with value None pads with 0 of the dtype.
// CHECK-LABEL: func.func @pad_constant_none
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: tensor.pad %{{.*}} low[0, 2] high[0, 1]
// CHECK: tensor.yield %[[ZERO]] : i64
func.func @pad_constant_none(%x: !prim.tensor<dtype = si64, sizes = [3, 4]>) -> !prim.tensor<dtype = si64, sizes = [3, 7]> {
  %none = prim.Constant {value} : !prim.none
  %mode = prim.Constant {value = "constant"} : !prim.str
  %pad = prim.Constant {value = [2, 1]} : !prim.list<i64>
  %0 = aten.pad %x, %pad, %mode, %none : (!prim.tensor<dtype = si64, sizes = [3, 4]>, !prim.list<i64>, !prim.str, !prim.none) -> !prim.tensor<dtype = si64, sizes = [3, 7]>
  return %0 : !prim.tensor<dtype = si64, sizes = [3, 7]>
}

// -----

// Reflection: i = o - low, then |i|, then min(i, 2 (n - 1) - i).
// CHECK-LABEL: func.func @pad_reflect
// CHECK: linalg.generic
// CHECK: %[[O:.*]] = linalg.index 2 : index
// CHECK: %[[I:.*]] = arith.subi %[[O]], %[[LOW:.*]] : index
// CHECK: %[[LAST:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK: %[[NEG:.*]] = arith.subi %{{.*}}, %[[I]] : index
// CHECK: %[[ABS:.*]] = arith.maxsi %[[I]], %[[NEG]] : index
// CHECK: %[[TWICE:.*]] = arith.addi %[[LAST]], %[[LAST]] : index
// CHECK: %[[MIRROR:.*]] = arith.subi %[[TWICE]], %[[ABS]] : index
// CHECK: %[[IDX:.*]] = arith.minsi %[[ABS]], %[[MIRROR]] : index
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}, %[[IDX]]] : tensor<3x4x5xf32>
// CHECK: -> tensor<3x4x8xf32>
func.func @pad_reflect(%x: !prim.tensor<dtype = f32, sizes = [3, 4, 5]>) -> !prim.tensor<dtype = f32, sizes = [3, 4, 8]> {
  %none = prim.Constant {value} : !prim.none
  %mode = prim.Constant {value = "reflect"} : !prim.str
  %pad = prim.Constant {value = [2, 1]} : !prim.list<i64>
  %0 = aten.pad %x, %pad, %mode, %none : (!prim.tensor<dtype = f32, sizes = [3, 4, 5]>, !prim.list<i64>, !prim.str, !prim.none) -> !prim.tensor<dtype = f32, sizes = [3, 4, 8]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 4, 8]>
}

// -----

// Replication clamps the index into [0, n - 1].
// CHECK-LABEL: func.func @pad_replicate
// CHECK: linalg.generic
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: tensor.extract
// CHECK: -> tensor<2x6x4xf32>
func.func @pad_replicate(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 4]>) -> !prim.tensor<dtype = f32, sizes = [2, 6, 4]> {
  %none = prim.Constant {value} : !prim.none
  %mode = prim.Constant {value = "replicate"} : !prim.str
  %pad = prim.Constant {value = [0, 0, 1, 2]} : !prim.list<i64>
  %0 = aten.pad %x, %pad, %mode, %none : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, !prim.list<i64>, !prim.str, !prim.none) -> !prim.tensor<dtype = f32, sizes = [2, 6, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 6, 4]>
}

// -----

// Circular padding wraps modulo the size, kept non-negative.
// CHECK-LABEL: func.func @pad_circular
// CHECK: linalg.generic
// CHECK: arith.remsi
// CHECK: arith.addi
// CHECK: arith.remsi
// CHECK: tensor.extract
// CHECK: -> tensor<2x3x11xf32>
func.func @pad_circular(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 5]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 11]> {
  %none = prim.Constant {value} : !prim.none
  %mode = prim.Constant {value = "circular"} : !prim.str
  %pad = prim.Constant {value = [2, 4]} : !prim.list<i64>
  %0 = aten.pad %x, %pad, %mode, %none : (!prim.tensor<dtype = f32, sizes = [2, 3, 5]>, !prim.list<i64>, !prim.str, !prim.none) -> !prim.tensor<dtype = f32, sizes = [2, 3, 11]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 11]>
}

// -----

// A reflection as wide as the dim would read outside the input.
func.func @pad_reflect_too_wide(%x: !prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [3, 8]> {
  %none = prim.Constant {value} : !prim.none
  %mode = prim.Constant {value = "reflect"} : !prim.str
  %pad = prim.Constant {value = [4, 0]} : !prim.list<i64>
  // expected-error @+2 {{pad of 4 on a dim of 4 elements is out of range in mode 'reflect'}}
  // expected-error @+1 {{failed to legalize operation 'aten.pad'}}
  %0 = aten.pad %x, %pad, %mode, %none : (!prim.tensor<dtype = f32, sizes = [3, 4]>, !prim.list<i64>, !prim.str, !prim.none) -> !prim.tensor<dtype = f32, sizes = [3, 8]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 8]>
}

// -----

func.func @pad_unknown_mode(%x: !prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor<dtype = f32, sizes = [3, 5]> {
  %none = prim.Constant {value} : !prim.none
  %mode = prim.Constant {value = "wrap"} : !prim.str
  %pad = prim.Constant {value = [1, 0]} : !prim.list<i64>
  // expected-error @+2 {{pad mode 'wrap' is not one of constant, reflect, replicate or circular}}
  // expected-error @+1 {{failed to legalize operation 'aten.pad'}}
  %0 = aten.pad %x, %pad, %mode, %none : (!prim.tensor<dtype = f32, sizes = [3, 4]>, !prim.list<i64>, !prim.str, !prim.none) -> !prim.tensor<dtype = f32, sizes = [3, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 5]>
}

// -----

// tril keeps col - row <= diagonal of the last two dims.
// CHECK-LABEL: func.func @tril
// CHECK-SAME: %{{.*}}: !prim.tensor<dtype = f32, sizes = [2, 4, 5]>, %[[D:.*]]: i64
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<2x4x5xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[R:.*]] = linalg.index 1 : index
// CHECK: %[[C:.*]] = linalg.index 2 : index
// CHECK: %[[RI:.*]] = arith.index_cast %[[R]] : index to i64
// CHECK: %[[CI:.*]] = arith.index_cast %[[C]] : index to i64
// CHECK: %[[OFF:.*]] = arith.subi %[[CI]], %[[RI]] : i64
// CHECK: %[[KEEP:.*]] = arith.cmpi sle, %[[OFF]], %[[D]] : i64
// CHECK: arith.select %[[KEEP]], %[[IN]], %{{.*}} : f32
func.func @tril(%x: !prim.tensor<dtype = f32, sizes = [2, 4, 5]>, %d: i64) -> !prim.tensor<dtype = f32, sizes = [2, 4, 5]> {
  %0 = aten.tril %x, %d : (!prim.tensor<dtype = f32, sizes = [2, 4, 5]>, i64) -> !prim.tensor<dtype = f32, sizes = [2, 4, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 4, 5]>
}

// -----

// CHECK-LABEL: func.func @triu
// CHECK: arith.cmpi sge
// CHECK: arith.select
func.func @triu(%x: !prim.tensor<dtype = si64, sizes = [4, 4]>) -> !prim.tensor<dtype = si64, sizes = [4, 4]> {
  %d = prim.Constant {value = -1 : i64} : i64
  %0 = aten.triu %x, %d : (!prim.tensor<dtype = si64, sizes = [4, 4]>, i64) -> !prim.tensor<dtype = si64, sizes = [4, 4]>
  return %0 : !prim.tensor<dtype = si64, sizes = [4, 4]>
}
