// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// Inline tensor constants become arith.constant with signless elements; a
// constant whose slot is dynamic is cast into it.
// CHECK-LABEL: func.func @constants
// CHECK: arith.constant dense<3> : tensor<i64>
// CHECK: arith.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf32>
// CHECK: %[[B:.*]] = arith.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK: tensor.cast %[[B]] : tensor<3xi1> to tensor<?xi1>
func.func @constants() -> (!prim.tensor<dtype = si64, sizes = []>, !prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = i1, sizes = [?]>) {
  %0 = prim.Constant {value = dense<3> : tensor<si64>} : !prim.tensor<dtype = si64, sizes = []>
  %1 = prim.Constant {value = dense<[1.5, -2.0]> : tensor<2xf32>} : !prim.tensor<dtype = f32, sizes = [2]>
  %2 = prim.Constant {value = dense<[true, false, true]> : tensor<3xi1>} : !prim.tensor<dtype = i1, sizes = [?]>
  return %0, %1, %2 : !prim.tensor<dtype = si64, sizes = []>, !prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = i1, sizes = [?]>
}

// -----

// A weight loaded from safetensors keeps its blob; only the element type
// loses its sign.
// CHECK-LABEL: func.func @resource
// CHECK: arith.constant dense_resource<w> : tensor<2xi64>
func.func @resource() -> !prim.tensor<dtype = si64, sizes = [2]> {
  %0 = prim.Constant {value = dense_resource<w> : tensor<2xsi64>} : !prim.tensor<dtype = si64, sizes = [2]>
  return %0 : !prim.tensor<dtype = si64, sizes = [2]>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x0800000001000000000000000200000000000000"
    }
  }
#-}

// -----

// A weight printed as `<Tensor>` without data cannot run.
func.func @weight_without_data() -> !prim.tensor<dtype = f32, sizes = [2, 3]> {
  // expected-error @+2 {{weight 'fc.weight' has no data}}
  // expected-error @+1 {{failed to legalize operation 'prim.Constant'}}
  %0 = prim.Constant {value = #prim.tensor_ref<"fc.weight">} : !prim.tensor<dtype = f32, sizes = [2, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3]>
}

// -----

// A tensor placeholder (a value a `break` leaves undefined) of a static
// type is an uninitialized tensor of that type.
// CHECK-LABEL: func.func @uninitialized
// CHECK: tensor.empty() : tensor<2x3xf32>
func.func @uninitialized() -> !prim.tensor<dtype = f32, sizes = [2, 3]> {
  %0 = prim.Uninitialized : !prim.tensor<dtype = f32, sizes = [2, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3]>
}

// -----

// NumToTensor: a 0-d tensor of the result's dtype.
// CHECK-LABEL: func.func @num_to_tensor
// CHECK-SAME: (%[[N:.*]]: i64, %[[X:.*]]: f64, %[[B:.*]]: i1)
// CHECK: tensor.from_elements %[[N]] : tensor<i64>
// CHECK: tensor.from_elements %[[X]] : tensor<f64>
// CHECK: %[[F:.*]] = arith.uitofp %[[B]] : i1 to f32
// CHECK: tensor.from_elements %[[F]] : tensor<f32>
func.func @num_to_tensor(%n: i64, %x: f64, %b: i1) -> (!prim.tensor<dtype = si64, sizes = []>, !prim.tensor<dtype = f64, sizes = []>, !prim.tensor<dtype = f32, sizes = []>) {
  %0 = prim.NumToTensor %n : (i64) -> !prim.tensor<dtype = si64, sizes = []>
  %1 = prim.NumToTensor %x : (f64) -> !prim.tensor<dtype = f64, sizes = []>
  %2 = prim.NumToTensor %b : (i1) -> !prim.tensor<dtype = f32, sizes = []>
  return %0, %1, %2 : !prim.tensor<dtype = si64, sizes = []>, !prim.tensor<dtype = f64, sizes = []>, !prim.tensor<dtype = f32, sizes = []>
}

// -----

// One-element tensors to scalars with torch's casts: float -> int
// truncates, -> bool is != 0, an unsigned byte zero-extends.
// CHECK-LABEL: func.func @to_scalar
// CHECK-DAG: %[[U:.*]] = builtin.unrealized_conversion_cast %arg1 {{.*}} to tensor<1x1xi8>
// CHECK-DAG: %[[T:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<f32>
// CHECK: %[[E0:.*]] = tensor.extract %[[T]][] : tensor<f32>
// CHECK: %[[I:.*]] = arith.fptosi %[[E0]] : f32 to i64
// CHECK: %[[E1:.*]] = tensor.extract %[[T]][] : tensor<f32>
// CHECK: %[[F:.*]] = arith.extf %[[E1]] : f32 to f64
// CHECK: %[[E2:.*]] = tensor.extract %[[T]][] : tensor<f32>
// CHECK: %[[B:.*]] = arith.cmpf une, %[[E2]], %{{.*}} : f32
// CHECK: %[[E3:.*]] = tensor.extract %[[U]][%[[Z:.*]], %[[Z]]] : tensor<1x1xi8>
// CHECK: %[[UI:.*]] = arith.extui %[[E3]] : i8 to i64
// CHECK: %[[E4:.*]] = tensor.extract %[[U]]
// CHECK: %[[UF:.*]] = arith.uitofp %[[E4]] : i8 to f64
// CHECK: return %[[I]], %[[F]], %[[B]], %[[UI]], %[[UF]]
func.func @to_scalar(%t: !prim.tensor<dtype = f32, sizes = []>, %u: !prim.tensor<dtype = ui8, sizes = [1, 1]>) -> (i64, f64, i1, i64, f64) {
  %0 = aten.Int.Tensor %t : (!prim.tensor<dtype = f32, sizes = []>) -> i64
  %1 = aten.Float.Tensor %t : (!prim.tensor<dtype = f32, sizes = []>) -> f64
  %2 = aten.Bool.Tensor %t : (!prim.tensor<dtype = f32, sizes = []>) -> i1
  %3 = aten.item %u : (!prim.tensor<dtype = ui8, sizes = [1, 1]>) -> i64
  %4 = aten.FloatImplicit %u : (!prim.tensor<dtype = ui8, sizes = [1, 1]>) -> f64
  return %0, %1, %2, %3, %4 : i64, f64, i1, i64, f64
}

// -----

func.func @to_scalar_too_many(%t: !prim.tensor<dtype = f32, sizes = [3]>) -> f64 {
  // expected-error @+2 {{needs a tensor of one element, not one of 3}}
  // expected-error @+1 {{failed to legalize operation 'aten.Float.Tensor'}}
  %0 = aten.Float.Tensor %t : (!prim.tensor<dtype = f32, sizes = [3]>) -> f64
  return %0 : f64
}

// -----

// item() returns a Scalar: it holds the tensor's value as a float (or int,
// or bool, by dtype), cast to `number` for the users that need one.
// CHECK-LABEL: func.func @item_number
// CHECK: %[[E:.*]] = tensor.extract %{{.*}}[] : tensor<f32>
// CHECK: %[[F:.*]] = arith.extf %[[E]] : f32 to f64
// CHECK: %[[N:.*]] = builtin.unrealized_conversion_cast %[[F]] : f64 to !prim.number
// CHECK: %[[I:.*]] = tensor.extract %{{.*}}[] : tensor<i64>
// CHECK: %[[M:.*]] = builtin.unrealized_conversion_cast %[[I]] : i64 to !prim.number
// CHECK: return %[[N]], %[[M]]
func.func @item_number(%t: !prim.tensor<dtype = f32, sizes = []>, %u: !prim.tensor<dtype = si64, sizes = []>) -> (!prim.number, !prim.number) {
  %0 = aten.item %t : (!prim.tensor<dtype = f32, sizes = []>) -> !prim.number
  %1 = aten.ScalarImplicit %u : (!prim.tensor<dtype = si64, sizes = []>) -> !prim.number
  return %0, %1 : !prim.number, !prim.number
}

// -----

// Shape queries: static sizes fold to constants, a dynamic one reads
// tensor.dim, a run-time dim is normalized Python-style (d < 0: d + rank).
// CHECK-LABEL: func.func @shape
// CHECK-SAME: (%{{.*}}: !prim.tensor<dtype = f32, sizes = [2, ?, 4]>, %[[D:.*]]: i64)
// CHECK: %[[T:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<2x?x4xf32>
// CHECK: %[[LAST:.*]] = arith.constant 4 : i64
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[DIM1:.*]] = tensor.dim %[[T]], %[[C1]]
// CHECK: %[[SIZE1:.*]] = arith.index_cast %[[DIM1]] : index to i64
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[D]], %{{.*}} : i64
// CHECK: %[[RANK:.*]] = arith.constant 3 : i64
// CHECK: %[[WRAP:.*]] = arith.addi %[[D]], %[[RANK]] : i64
// CHECK: %[[NORM:.*]] = arith.select %[[NEG]], %[[WRAP]], %[[D]] : i64
// CHECK: %[[IDX:.*]] = arith.index_cast %[[NORM]] : i64 to index
// CHECK: %[[DIMD:.*]] = tensor.dim %[[T]], %[[IDX]]
// CHECK: %[[SIZED:.*]] = arith.index_cast %[[DIMD]] : index to i64
// CHECK: %[[NDIM:.*]] = arith.constant 3 : i64
// CHECK: %[[P:.*]] = arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: %[[NUMEL:.*]] = arith.muli %[[P]], %{{.*}} : i64
// CHECK: %[[LEN:.*]] = arith.constant 2 : i64
// CHECK: %[[FP:.*]] = arith.constant true
// CHECK: %[[DT:.*]] = arith.constant 6 : i64
// CHECK: return %[[LAST]], %[[SIZE1]], %[[SIZED]], %[[NDIM]], %[[NUMEL]], %[[LEN]], %[[FP]], %[[DT]]
func.func @shape(%t: !prim.tensor<dtype = f32, sizes = [2, ?, 4]>, %d: i64) -> (i64, i64, i64, i64, i64, i64, i1, i64) {
  %m1 = prim.Constant {value = -1 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.size.int %t, %m1 : (!prim.tensor<dtype = f32, sizes = [2, ?, 4]>, i64) -> i64
  %1 = aten.size.int %t, %one : (!prim.tensor<dtype = f32, sizes = [2, ?, 4]>, i64) -> i64
  %2 = aten.size.int %t, %d : (!prim.tensor<dtype = f32, sizes = [2, ?, 4]>, i64) -> i64
  %3 = aten.dim %t : (!prim.tensor<dtype = f32, sizes = [2, ?, 4]>) -> i64
  %4 = aten.numel %t : (!prim.tensor<dtype = f32, sizes = [2, ?, 4]>) -> i64
  %5 = aten.len.Tensor %t : (!prim.tensor<dtype = f32, sizes = [2, ?, 4]>) -> i64
  %6 = aten.is_floating_point %t : (!prim.tensor<dtype = f32, sizes = [2, ?, 4]>) -> i1
  %7 = prim.dtype %t : (!prim.tensor<dtype = f32, sizes = [2, ?, 4]>) -> i64
  return %0, %1, %2, %3, %4, %5, %6, %7 : i64, i64, i64, i64, i64, i64, i1, i64
}

// -----

func.func @size_out_of_range(%t: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> i64 {
  %two = prim.Constant {value = 2 : i64} : i64
  // expected-error @+2 {{dim 2 is out of range for a tensor of rank 2}}
  // expected-error @+1 {{failed to legalize operation 'aten.size.int'}}
  %0 = aten.size.int %t, %two : (!prim.tensor<dtype = f32, sizes = [2, 3]>, i64) -> i64
  return %0 : i64
}

// -----

// size() of a static tensor is a constant int list.
// CHECK-LABEL: func.func @size_list
// CHECK: %[[L:.*]] = prim.Constant {value = [2, 3]} : !prim.list<i64>
// CHECK: return %[[L]]
func.func @size_list(%t: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.list<i64> {
  %0 = aten.size %t : (!prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.list<i64>
  return %0 : !prim.list<i64>
}

// -----

func.func @size_list_dynamic(%t: !prim.tensor<dtype = f32, sizes = [?, 3]>) -> !prim.list<i64> {
  // expected-error @+2 {{size() of 'tensor<?x3xf32>' needs its sizes at compile time}}
  // expected-error @+1 {{failed to legalize operation 'aten.size'}}
  %0 = aten.size %t : (!prim.tensor<dtype = f32, sizes = [?, 3]>) -> !prim.list<i64>
  return %0 : !prim.list<i64>
}

// -----

// A tensor is never None.
// CHECK-LABEL: func.func @is_none
// CHECK-DAG: %[[F:.*]] = arith.constant false
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK: return %[[F]], %[[T]]
func.func @is_none(%t: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> (i1, i1) {
  %none = prim.Constant {value} : !prim.none
  %0 = aten.__is__ %t, %none : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.none) -> i1
  %1 = aten.__isnot__ %t, %none : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.none) -> i1
  return %0, %1 : i1, i1
}
