// RUN: tsir-opt %s -split-input-file | FileCheck %s
// RUN: tsir-opt %s -split-input-file | tsir-opt -split-input-file | FileCheck %s

// Every TorchScript type round-trips through the prim dialect's syntax.
// CHECK-LABEL: func @types
// CHECK-SAME: : !prim.tensor,
// CHECK-SAME: : !prim.tensor<dtype = f32, sizes = [2, ?], strides = [3, 1], device = "cpu", requires_grad = false>
// CHECK-SAME: : !prim.tensor<dtype = si64, sizes = []>
// CHECK-SAME: : !prim.tensor<dtype = f32, sizes = [3, 20], legacy_noncontiguous = [0]>
// CHECK-SAME: : !prim.str,
// CHECK-SAME: : !prim.none,
// CHECK-SAME: : !prim.device,
// CHECK-SAME: : !prim.number,
// CHECK-SAME: : !prim.function,
// CHECK-SAME: : !prim.generator,
// CHECK-SAME: : !prim.any,
// CHECK-SAME: : !prim.storage,
// CHECK-SAME: : !prim.stream,
// CHECK-SAME: : !prim.capsule,
// CHECK-SAME: : !prim.any_tuple,
// CHECK-SAME: : !prim.any_list,
// CHECK-SAME: : !prim.world,
// CHECK-SAME: : !prim.handle,
// CHECK-SAME: : !prim.list<i64>
// CHECK-SAME: : !prim.list<!prim.list<f64>>
// CHECK-SAME: : !prim.optional<!prim.tensor>
// CHECK-SAME: : !prim.future<i64>
// CHECK-SAME: : !prim.tuple<!prim.tensor, i64>
// CHECK-SAME: : !prim.tuple,
// CHECK-SAME: : !prim.union<i64, !prim.str>
// CHECK-SAME: : !prim.dict<!prim.str, !prim.tensor>
// CHECK-SAME: : !prim.class<"__torch__.m.ResNet">
// CHECK-SAME: : i64,
// CHECK-SAME: : f64,
// CHECK-SAME: : i1,
// CHECK-SAME: : complex<f64>)
func.func @types(
    %t0: !prim.tensor,
    %t1: !prim.tensor<dtype = f32, sizes = [2, ?], strides = [3, 1], device = "cpu", requires_grad = false>,
    %t2: !prim.tensor<dtype = si64, sizes = []>,
    %t3: !prim.tensor<dtype = f32, sizes = [3, 20], legacy_noncontiguous = [0]>,
    %s0: !prim.str, %s1: !prim.none, %s2: !prim.device, %s3: !prim.number, %s4: !prim.function,
    %s5: !prim.generator, %s6: !prim.any, %s7: !prim.storage, %s8: !prim.stream, %s9: !prim.capsule,
    %s10: !prim.any_tuple, %s11: !prim.any_list, %s12: !prim.world, %s13: !prim.handle,
    %c0: !prim.list<i64>, %c1: !prim.list<!prim.list<f64>>, %c2: !prim.optional<!prim.tensor>,
    %c3: !prim.future<i64>, %c4: !prim.tuple<!prim.tensor, i64>, %c5: !prim.tuple,
    %c6: !prim.union<i64, !prim.str>, %c7: !prim.dict<!prim.str, !prim.tensor>,
    %c8: !prim.class<"__torch__.m.ResNet">, %i: i64, %f: f64, %b: i1, %z: complex<f64>) {
  return
}

// -----

// CHECK-LABEL: func @constants
func.func @constants() {
  // CHECK: prim.Constant {value = 1 : i64} : i64
  %0 = prim.Constant {value = 1 : i64} : i64
  // CHECK: prim.Constant {value = -9223372036854775808 : i64} : i64
  %1 = prim.Constant {value = -9223372036854775808 : i64} : i64
  // CHECK: prim.Constant {value = 0x7FF0000000000000 : f64} : f64
  %2 = prim.Constant {value = 0x7FF0000000000000 : f64} : f64
  // CHECK: prim.Constant {value = true} : i1
  %3 = prim.Constant {value = true} : i1
  // CHECK: prim.Constant {value = "none"} : !prim.str
  %4 = prim.Constant {value = "none"} : !prim.str
  // CHECK: prim.Constant {value} : !prim.none
  %5 = prim.Constant {value = unit} : !prim.none
  // CHECK: prim.Constant {value = "cpu"} : !prim.device
  %6 = prim.Constant {value = "cpu"} : !prim.device
  // CHECK: prim.Constant {value = "layer_norm"} : !prim.function
  %7 = prim.Constant {value = "layer_norm"} : !prim.function
  // CHECK: prim.Constant {value = [0, 0]} : !prim.list<i64>
  %8 = prim.Constant {value = [0, 0]} : !prim.list<i64>
  // CHECK: prim.Constant {value = {{\[}}[1, 2], 3]} : !prim.tuple<!prim.tuple<i64, i64>, i64>
  %9 = prim.Constant {value = [[1, 2], 3]} : !prim.tuple<!prim.tuple<i64, i64>, i64>
  // CHECK: prim.Constant {value = dense<[1.000000e-01, 2.000000e-01]> : tensor<2xf32>} : !prim.tensor<dtype = f32, sizes = [2]>
  %10 = prim.Constant {value = dense<[0.1, 0.2]> : tensor<2xf32>} : !prim.tensor<dtype = f32, sizes = [2]>
  // CHECK: prim.Constant {value = #prim.tensor_ref<"self.fc.weight">} : !prim.tensor
  %11 = prim.Constant {value = #prim.tensor_ref<"self.fc.weight">} : !prim.tensor
  return
}

// -----

// CHECK-LABEL: func @control_flow
func.func @control_flow(%c: i1, %n: i64, %x: !prim.tensor) -> !prim.tensor {
  // CHECK: prim.If %{{.*}} -> (!prim.tensor) {
  // CHECK:   prim.Yield %{{.*}} : !prim.tensor<dtype = f32>
  // CHECK: } else {
  %r = prim.If %c -> (!prim.tensor) {
    %a = prim.unchecked_cast %x : (!prim.tensor) -> !prim.tensor<dtype = f32>
    prim.Yield %a : !prim.tensor<dtype = f32>
  } else {
    prim.Yield %x : !prim.tensor
  }
  // CHECK: prim.If %{{.*}} {
  // CHECK-NEXT: } else {
  // CHECK:        prim.RaiseException
  prim.If %c {
  } else {
    %msg = prim.Constant {value = "AssertionError: "} : !prim.str
    prim.RaiseException %msg : !prim.str
  }
  // CHECK: prim.Loop %{{.*}}, %{{.*}}, %{{.*}} : !prim.tensor -> (!prim.tensor) {
  // CHECK: ^bb0(%{{.*}}: i64, %{{.*}}: !prim.tensor):
  // CHECK:   prim.Yield %{{.*}}, %{{.*}} : i1, !prim.tensor
  %z = prim.Loop %n, %c, %r : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor):
    prim.Yield %c, %acc : i1, !prim.tensor
  }
  return %z : !prim.tensor
}

// -----

// CHECK-LABEL: func @containers
func.func @containers(%a: !prim.tensor, %b: !prim.tensor, %i: i64, %k: !prim.str) {
  // CHECK: prim.ListConstruct %{{.*}}, %{{.*}} : (!prim.tensor, !prim.tensor) -> !prim.list<!prim.tensor>
  %l = prim.ListConstruct %a, %b : (!prim.tensor, !prim.tensor) -> !prim.list<!prim.tensor>
  // CHECK: prim.ListUnpack
  %x, %y = prim.ListUnpack %l : (!prim.list<!prim.tensor>) -> (!prim.tensor, !prim.tensor)
  // CHECK: prim.TupleConstruct
  %t = prim.TupleConstruct %a, %i : (!prim.tensor, i64) -> !prim.tuple<!prim.tensor, i64>
  // CHECK: prim.TupleUnpack
  %u:2 = prim.TupleUnpack %t : (!prim.tuple<!prim.tensor, i64>) -> (!prim.tensor, i64)
  // CHECK: prim.TupleIndex
  %e = prim.TupleIndex %t, %i : (!prim.tuple<!prim.tensor, i64>, i64) -> !prim.tensor
  // CHECK: prim.DictConstruct
  %d = prim.DictConstruct %k, %a : (!prim.str, !prim.tensor) -> !prim.dict<!prim.str, !prim.tensor>
  // CHECK: prim.NumToTensor
  %n = prim.NumToTensor %i : (i64) -> !prim.tensor
  // CHECK: prim.device
  %dev = prim.device %a : (!prim.tensor) -> !prim.device
  // CHECK: prim.dtype
  %dt = prim.dtype %a : (!prim.tensor) -> i64
  // CHECK: prim.Uninitialized : !prim.tensor
  %un = prim.Uninitialized : !prim.tensor
  // CHECK: prim.Print
  prim.Print %k, %a : !prim.str, !prim.tensor
  return
}

// -----

// CHECK-LABEL: func @objects
func.func @objects(%self: !prim.class<"__torch__.M">, %x: !prim.tensor, %f: !prim.function) {
  // CHECK: prim.GetAttr %{{.*}} {name = "fc"}
  %fc = prim.GetAttr %self {name = "fc"} : (!prim.class<"__torch__.M">) -> !prim.class<"__torch__.Linear">
  // CHECK: prim.SetAttr %{{.*}}, %{{.*}} {name = "w"}
  prim.SetAttr %self, %x {name = "w"} : !prim.class<"__torch__.M">, !prim.tensor
  // CHECK: prim.CallMethod
  %y = prim.CallMethod %fc, %x {name = "forward"} : (!prim.class<"__torch__.Linear">, !prim.tensor) -> !prim.tensor
  // CHECK: prim.CallFunction
  %z = prim.CallFunction %f, %x : (!prim.function, !prim.tensor) -> !prim.tensor
  return
}

// -----

// CHECK-LABEL: func @fusion
func.func @fusion(%x: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor {
  // CHECK: prim.TypeCheck %{{.*}} {types = [!prim.tensor<dtype = f32, sizes = [4]>]}
  %r, %ok = prim.TypeCheck %x {types = [!prim.tensor<dtype = f32, sizes = [4]>]} : (!prim.tensor<dtype = f32, sizes = [4]>) -> (!prim.tensor<dtype = f32, sizes = [4]>, i1)
  // CHECK: prim.FusionGroup(%{{.*}}) {node_attrs = {device = -1 : i64}}
  // CHECK: prim.Return
  %y = prim.FusionGroup(%r) {node_attrs = {device = -1 : i64}} : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor {
  ^bb0(%a: !prim.tensor<dtype = f32, sizes = [4]>):
    %m = prim.Generic "aten::mul"(%a, %a) : (!prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor
    prim.Return %m : !prim.tensor
  }
  // CHECK: prim.Generic "my_ns::magic"(%{{.*}}) {node_attrs = {alpha = 1 : i64}}
  %g = prim.Generic "my_ns::magic"(%y) {node_attrs = {alpha = 1 : i64}} : (!prim.tensor) -> !prim.tensor
  // CHECK: prim.Generic "prim::MyIf"(%{{.*}}) : (i1) -> i64 {
  %c = prim.Constant {value = true} : i1
  %h = prim.Generic "prim::MyIf"(%c) : (i1) -> i64 {
    %one = prim.Constant {value = 1 : i64} : i64
    prim.Yield %one : i64
  }
  return %g : !prim.tensor
}

// -----

// A `with` section that no node uses, beside the graph.
// CHECK-LABEL: func @graph
func.func @graph(%x: !prim.tensor) -> !prim.tensor {
  return %x : !prim.tensor
}
// CHECK: prim.UnusedSubgraph "prim::FusionGroup_1" {
// CHECK-NEXT: ^bb0(%[[A:.*]]: !prim.tensor<dtype = f32, sizes = [4]>):
// CHECK-NEXT:   %[[N:.*]] = aten.neg %[[A]]
// CHECK-NEXT:   prim.Return %[[N]] : !prim.tensor
// CHECK-NEXT: }
prim.UnusedSubgraph "prim::FusionGroup_1" {
^bb0(%a: !prim.tensor<dtype = f32, sizes = [4]>):
  %n = aten.neg %a : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor
  prim.Return %n : !prim.tensor
}

// -----

// Quantized dtypes, enums and named tuples, with their constants.
// CHECK-LABEL: func @quantized_enum_named_tuple
// CHECK-SAME: %{{.*}}: !prim.tensor<dtype = !prim.quantized<si8>, sizes = [2]>
// CHECK-SAME: %{{.*}}: !prim.tensor<dtype = !prim.quantized<ui4>>
// CHECK-SAME: %{{.*}}: !prim.tuple<named a: !prim.tensor, "two words": i64 = "3">
// CHECK-SAME: %{{.*}}: !prim.tuple<named>
// CHECK-SAME: %{{.*}}: !prim.any_enum
// CHECK-SAME: %{{.*}}: !prim.qscheme
func.func @quantized_enum_named_tuple(
    %q: !prim.tensor<dtype = !prim.quantized<si8>, sizes = [2]>,
    %p: !prim.tensor<dtype = !prim.quantized<ui4>>,
    %t: !prim.tuple<named a: !prim.tensor, "two words": i64 = "3">,
    %e: !prim.tuple<named>, %any: !prim.any_enum, %s: !prim.qscheme) {
  // CHECK: prim.Constant {value = #prim.enum_member<"__torch__.Color", "RED">} : !prim.enum<"__torch__.Color">
  %red = prim.Constant {value = #prim.enum_member<"__torch__.Color", "RED">} : !prim.enum<"__torch__.Color">
  // CHECK: prim.Constant {value = #prim.quantized_tensor<values = dense<[1.000000e-01, 2.000000e-01]> : tensor<2xf64>, dtype = !prim.quantized<si8>, qscheme = "per_tensor_affine", scales = dense<1.000000e-01> : tensor<f64>, zeroPoints = dense<0> : tensor<si64>>}
  %c = prim.Constant {value = #prim.quantized_tensor<values = dense<[0.1, 0.2]> : tensor<2xf64>, dtype = !prim.quantized<si8>, qscheme = "per_tensor_affine", scales = dense<0.1> : tensor<f64>, zeroPoints = dense<0> : tensor<si64>>} : !prim.tensor<dtype = !prim.quantized<si8>, sizes = [2]>
  // A NamedTuple is a tuple: it is built and taken apart like one.
  // CHECK: prim.TupleUnpack %{{.*}} : (!prim.tuple<named a: !prim.tensor, "two words": i64 = "3">) -> (!prim.tensor, i64)
  %a, %b = prim.TupleUnpack %t : (!prim.tuple<named a: !prim.tensor, "two words": i64 = "3">) -> (!prim.tensor, i64)
  // CHECK: prim.TupleConstruct %{{.*}}, %{{.*}} : (!prim.tensor, i64) -> !prim.tuple<named a: !prim.tensor, "two words": i64 = "3">
  %u = prim.TupleConstruct %a, %b : (!prim.tensor, i64) -> !prim.tuple<named a: !prim.tensor, "two words": i64 = "3">
  return
}
