// RUN: tsir-opt --prim-constant-pooling -split-input-file %s | FileCheck %s
// RUN: tsir-opt --prim-constant-pooling -split-input-file --mlir-print-debuginfo %s | FileCheck %s --check-prefix=LOC

// Constants of the same type and value become one, hoisted to the top of
// the graph in their order; those in If/Loop bodies too.
// CHECK-LABEL: func.func @pool_and_hoist
// CHECK-NEXT: %[[ONE:.*]] = prim.Constant {value = 1 : i64} : i64
// CHECK-NEXT: %[[TRUE:.*]] = prim.Constant {value = true} : i1
// CHECK-NEXT: %[[TWO:.*]] = prim.Constant {value = 2 : i64} : i64
// CHECK-NEXT: %[[HALF:.*]] = prim.Constant {value = 5.000000e-01 : f64} : f64
// CHECK-NEXT: %[[S:.*]] = prim.Constant {value = "s"} : !prim.str
// CHECK-NEXT: %[[NONE:.*]] = prim.Constant {value} : !prim.none
// CHECK-NOT: prim.Constant
// CHECK: aten.add.int %arg0, %[[ONE]]
// CHECK: aten.mul.int %{{.*}}, %[[TWO]]
// CHECK: prim.Loop %arg0, %[[TRUE]]
// CHECK: aten.add.int %{{.*}}, %[[ONE]]
// CHECK: prim.If
// CHECK: prim.Yield %[[HALF]]
// CHECK: prim.Yield %[[HALF]]
// CHECK: prim.Print %[[S]], %[[S]], %[[NONE]]
func.func @pool_and_hoist(%n: i64, %c: i1) -> f64 {
  %one = prim.Constant {value = 1 : i64} : i64
  %a = aten.add.int %n, %one : (i64, i64) -> i64
  %true = prim.Constant {value = true} : i1
  %two = prim.Constant {value = 2 : i64} : i64
  %b = aten.mul.int %a, %two : (i64, i64) -> i64
  %l = prim.Loop %n, %true, %b : i64 -> (i64) {
  ^bb0(%i: i64, %k: i64):
    %one2 = prim.Constant {value = 1 : i64} : i64
    %k2 = aten.add.int %k, %one2 : (i64, i64) -> i64
    %t2 = prim.Constant {value = true} : i1
    prim.Yield %t2, %k2 : i1, i64
  }
  %f = prim.If %c -> (f64) {
    %h = prim.Constant {value = 5.000000e-01 : f64} : f64
    prim.Yield %h : f64
  } else {
    %h2 = prim.Constant {value = 5.000000e-01 : f64} : f64
    prim.Yield %h2 : f64
  }
  %s1 = prim.Constant {value = "s"} : !prim.str
  %s2 = prim.Constant {value = "s"} : !prim.str
  %none = prim.Constant {value} : !prim.none
  prim.Print %s1, %s2, %none : !prim.str, !prim.str, !prim.none
  return %f : f64
}

// -----

// Same value, different type (or the reverse): distinct constants.
// CHECK-LABEL: func.func @types_matter
// CHECK-COUNT-4: prim.Constant
func.func @types_matter() -> (!prim.optional<i64>, i64, f64, f64) {
  %a = prim.Constant {value = 1 : i64} : !prim.optional<i64>
  %b = prim.Constant {value = 1 : i64} : i64
  %c = prim.Constant {value = 1.000000e+00 : f64} : f64
  %d = prim.Constant {value = -0.000000e+00 : f64} : f64
  %e = prim.Constant {value = 1 : i64} : i64
  %f = prim.Constant {value = 1.000000e+00 : f64} : f64
  %g = prim.Constant {value = -0.000000e+00 : f64} : f64
  return %a, %e, %f, %g : !prim.optional<i64>, i64, f64, f64
}

// -----

// The constant kept is the first, with its location (its TorchScript name).
// LOC-LABEL: func.func @keeps_first_location
// LOC: prim.Constant {{.*}} loc(#[[FIRST:[a-z0-9]+]])
// LOC-NOT: prim.Constant
// LOC: #[[FIRST]] = loc("first")
func.func @keeps_first_location(%n: i64) -> i64 {
  %a = prim.Constant {value = 3 : i64} : i64 loc("first")
  %b = prim.Constant {value = 3 : i64} : i64 loc("second")
  %r = aten.add.int %a, %b : (i64, i64) -> i64
  return %r : i64
}

// -----

// Unwritten list constants merge; a list constant something appends to
// keeps its own object, in place.
// CHECK-LABEL: func.func @written_list
// CHECK-NEXT: %[[L:.*]] = prim.Constant {value = [1, 2]}
// CHECK-NEXT: %[[N:.*]] = prim.Constant {value = 3 : i64}
// CHECK-NEXT: %[[W:.*]] = prim.Constant {value = [1, 2]}
// CHECK-NEXT: aten.append.t %[[W]], %[[N]]
// CHECK-NEXT: aten.view %arg0, %[[L]]
// CHECK-NEXT: aten.view %arg0, %[[L]]
func.func @written_list(%x: !prim.tensor) -> !prim.tensor {
  %l1 = prim.Constant {value = [1, 2]} : !prim.list<i64>
  %w = prim.Constant {value = [1, 2]} : !prim.list<i64>
  %n = prim.Constant {value = 3 : i64} : i64
  %app = aten.append.t %w, %n : (!prim.list<i64>, i64) -> !prim.list<i64>
  %l2 = prim.Constant {value = [1, 2]} : !prim.list<i64>
  %v1 = aten.view %x, %l1 : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  %v2 = aten.view %x, %l2 : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  %r = aten.mul.Tensor %v1, %v2 : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %r : !prim.tensor
}

// -----

// Tensor constants: merged when nobody writes them; one written in place
// stays its own, where it was.
// CHECK-LABEL: func.func @tensor_constants
// CHECK-NEXT: %[[T:.*]] = prim.Constant {value = dense<1.000000e+00> : tensor<2xf32>}
// CHECK-NEXT: %[[C:.*]] = prim.Constant {value = 1 : i64}
// CHECK-NEXT: aten.add.Tensor %[[T]], %[[T]]
// CHECK-NEXT: %[[U:.*]] = prim.Constant {value = dense<1.000000e+00> : tensor<2xf32>}
// CHECK-NEXT: aten.add_.Scalar %[[U]]
func.func @tensor_constants() -> !prim.tensor {
  %a = prim.Constant {value = dense<1.0> : tensor<2xf32>} : !prim.tensor<dtype = f32, sizes = [2]>
  %b = prim.Constant {value = dense<1.0> : tensor<2xf32>} : !prim.tensor<dtype = f32, sizes = [2]>
  %c1 = prim.Constant {value = 1 : i64} : i64
  %s = aten.add.Tensor %a, %b, %c1 : (!prim.tensor<dtype = f32, sizes = [2]>, !prim.tensor<dtype = f32, sizes = [2]>, i64) -> !prim.tensor
  %u = prim.Constant {value = dense<1.0> : tensor<2xf32>} : !prim.tensor<dtype = f32, sizes = [2]>
  %w = aten.add_.Scalar %u, %c1, %c1 : (!prim.tensor<dtype = f32, sizes = [2]>, i64, i64) -> !prim.tensor<dtype = f32, sizes = [2]>
  %r = aten.mul.Tensor %s, %w : (!prim.tensor, !prim.tensor<dtype = f32, sizes = [2]>) -> !prim.tensor
  return %r : !prim.tensor
}

// -----

// Two tensor constants that are both graph outputs stay two: the caller
// could mutate one.
// CHECK-LABEL: func.func @tensor_outputs
// CHECK-COUNT-2: prim.Constant {value = dense<2.000000e+00>
func.func @tensor_outputs() -> (!prim.tensor<dtype = f32, sizes = [1]>, !prim.tensor<dtype = f32, sizes = [1]>) {
  %a = prim.Constant {value = dense<2.0> : tensor<1xf32>} : !prim.tensor<dtype = f32, sizes = [1]>
  %b = prim.Constant {value = dense<2.0> : tensor<1xf32>} : !prim.tensor<dtype = f32, sizes = [1]>
  return %a, %b : !prim.tensor<dtype = f32, sizes = [1]>, !prim.tensor<dtype = f32, sizes = [1]>
}

// -----

// Constants inside fusion groups belong to their own graph and stay.
// CHECK-LABEL: func.func @fusion_group
// CHECK: prim.FusionGroup
// CHECK-NEXT: ^bb0
// CHECK-NEXT: prim.Constant {value = 1 : i64}
func.func @fusion_group(%x: !prim.tensor) -> !prim.tensor {
  %c = prim.Constant {value = 1 : i64} : i64
  %r = prim.FusionGroup(%x) : (!prim.tensor) -> !prim.tensor {
  ^bb0(%a: !prim.tensor):
    %one = prim.Constant {value = 1 : i64} : i64
    %s = aten.add.Tensor %a, %a, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
    prim.Return %s : !prim.tensor
  }
  %t = aten.add.Tensor %r, %r, %c : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  return %t : !prim.tensor
}

// -----

// Weights without data (#prim.tensor_ref) pool only when they name the same
// weight: two of one type but different names stay two.
// CHECK-LABEL: func.func @distinct_tensor_refs
// CHECK-NEXT: %[[A:.*]] = prim.Constant {value = #prim.tensor_ref<"self.fc1.weight">}
// CHECK-NEXT: %[[B:.*]] = prim.Constant {value = #prim.tensor_ref<"self.fc2.weight">}
// CHECK-NEXT: %[[M:.*]] = aten.mm %[[A]], %[[B]]
// CHECK-NEXT: return %[[M]]
func.func @distinct_tensor_refs() -> !prim.tensor {
  %a = prim.Constant {value = #prim.tensor_ref<"self.fc1.weight">} : !prim.tensor<dtype = f32, sizes = [2, 2]>
  %b = prim.Constant {value = #prim.tensor_ref<"self.fc2.weight">} : !prim.tensor<dtype = f32, sizes = [2, 2]>
  %m = aten.mm %a, %b : (!prim.tensor<dtype = f32, sizes = [2, 2]>, !prim.tensor<dtype = f32, sizes = [2, 2]>) -> !prim.tensor
  return %m : !prim.tensor
}

// -----

// Equal enum members are one constant (enums are immutable, so sharing
// one is safe even where it escapes); another member keeps its own.
// CHECK-LABEL: func.func @enums
// CHECK-NEXT: %[[RED:.*]] = prim.Constant {value = #prim.enum_member<"__torch__.Color", "RED">}
// CHECK-NEXT: %[[GREEN:.*]] = prim.Constant {value = #prim.enum_member<"__torch__.Color", "GREEN">}
// CHECK-NOT: prim.Constant
// CHECK: return %[[RED]], %[[GREEN]], %[[RED]]
func.func @enums() -> (!prim.enum<"__torch__.Color">, !prim.enum<"__torch__.Color">, !prim.enum<"__torch__.Color">) {
  %a = prim.Constant {value = #prim.enum_member<"__torch__.Color", "RED">} : !prim.enum<"__torch__.Color">
  %b = prim.Constant {value = #prim.enum_member<"__torch__.Color", "GREEN">} : !prim.enum<"__torch__.Color">
  %c = prim.Constant {value = #prim.enum_member<"__torch__.Color", "RED">} : !prim.enum<"__torch__.Color">
  return %a, %b, %c : !prim.enum<"__torch__.Color">, !prim.enum<"__torch__.Color">, !prim.enum<"__torch__.Color">
}
