// RUN: tsir-opt %s -split-input-file -verify-diagnostics

func.func @bad_constant() {
  // expected-error @+1 {{value "x" is not a constant of type 'i64'}}
  %0 = prim.Constant {value = "x"} : i64
  return
}

// -----

func.func @bad_list_constant() {
  // expected-error @+1 {{is not a constant of type '!prim.list<i64>'}}
  %0 = prim.Constant {value = [1.5]} : !prim.list<i64>
  return
}

// -----

// expected-error @+1 {{tensor has 2 sizes but 1 strides}}
func.func @bad_tensor(%t: !prim.tensor<sizes = [2, 3], strides = [1]>) {
  return
}

// -----

// expected-error @+1 {{is not a torch scalar type}}
func.func @bad_dtype(%t: !prim.tensor<dtype = i7>) {
  return
}

// -----

func.func @if_arity(%c: i1, %x: !prim.tensor) {
  // expected-error @+1 {{then block yields: 2 values for 1 slots}}
  %r = prim.If %c -> (!prim.tensor) {
    prim.Yield %x, %x : !prim.tensor, !prim.tensor
  } else {
    prim.Yield %x : !prim.tensor
  }
  return
}

// -----

func.func @if_types(%c: i1, %x: !prim.tensor, %i: i64) {
  // expected-error @+1 {{else block yields: value #0 has type 'i64', incompatible with '!prim.tensor'}}
  %r = prim.If %c -> (!prim.tensor) {
    prim.Yield %x : !prim.tensor
  } else {
    prim.Yield %i : i64
  }
  return
}

// -----

func.func @loop_args(%n: i64, %c: i1, %x: !prim.tensor) {
  // expected-error @+1 {{body takes 1 arguments; expected the iteration number and 1 loop-carried values}}
  %z = prim.Loop %n, %c, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64):
    prim.Yield %c, %x : i1, !prim.tensor
  }
  return
}

// -----

func.func @loop_condition(%n: i64, %c: i1, %x: !prim.tensor) {
  // expected-error @+1 {{body must yield the continue condition (i1) first}}
  %z = prim.Loop %n, %c, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor):
    prim.Yield %acc, %c : !prim.tensor, i1
  }
  return
}

// -----

func.func @loop_iteration(%n: i64, %c: i1) {
  // expected-error @+1 {{body's first argument (the iteration) must be i64}}
  prim.Loop %n, %c {
  ^bb0(%i: f64):
    prim.Yield %c : i1
  }
  return
}

// -----

func.func @list_element(%a: !prim.tensor, %i: i64) {
  // expected-error @+1 {{element #1 has type 'i64', not '!prim.tensor'}}
  %l = prim.ListConstruct %a, %i : (!prim.tensor, i64) -> !prim.list<!prim.tensor>
  return
}

// -----

func.func @tuple_unpack(%t: !prim.tuple<i64, i64>) {
  // expected-error @+1 {{elements: 2 values for 3 slots}}
  %a:3 = prim.TupleUnpack %t : (!prim.tuple<i64, i64>) -> (i64, i64, i64)
  return
}

// -----

func.func @dict_pairs(%k: !prim.str) {
  // expected-error @+1 {{takes keys and values in pairs}}
  %d = prim.DictConstruct %k : (!prim.str) -> !prim.dict<!prim.str, i64>
  return
}

// -----

func.func @type_check(%x: !prim.tensor) {
  // expected-error @+1 {{expected one type per input}}
  %r, %ok = prim.TypeCheck %x {types = []} : (!prim.tensor) -> (!prim.tensor, i1)
  return
}

// -----

func.func @fusion_isolated(%x: !prim.tensor, %y: !prim.tensor) {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = prim.FusionGroup(%x) : (!prim.tensor) -> !prim.tensor {
  ^bb0(%a: !prim.tensor):
    // expected-error @+1 {{using value defined outside the region}}
    prim.Return %y : !prim.tensor
  }
  return
}

// -----

// A differentiable graph's body returns at least its results (the
// backward's captured values may follow).
func.func @differentiable_graph_returns_too_few(%x: !prim.tensor) {
  // expected-error @+1 {{subgraph returns: 1 values for 2 results}}
  %r:2 = prim.DifferentiableGraph(%x) : (!prim.tensor) -> (!prim.tensor, !prim.tensor) {
  ^bb0(%a: !prim.tensor):
    prim.Return %a : !prim.tensor
  }
  return
}

// -----

func.func @differentiable_graph_result_type(%x: !prim.tensor) {
  // expected-error @+1 {{subgraph returns: value #0 has type 'i64', incompatible with '!prim.tensor'}}
  %r = prim.DifferentiableGraph(%x) : (!prim.tensor) -> !prim.tensor {
  ^bb0(%a: !prim.tensor):
    %n = prim.Constant {value = 1 : i64} : i64
    prim.Return %n, %a : i64, !prim.tensor
  }
  return
}

// -----

func.func @yield_parent() {
  // expected-error @+1 {{expects parent op to be one of}}
  prim.Yield
}

// -----

func.func @unused_subgraph_in_graph() {
  // expected-error @+1 {{expects parent op 'builtin.module'}}
  prim.UnusedSubgraph "prim::FusionGroup_0" {
    prim.Return
  }
  return
}

// -----

// expected-error @+1 {{name 'prim::FusionGroup 0' is not a section name of graph text}}
prim.UnusedSubgraph "prim::FusionGroup 0" {
  prim.Return
}

// -----

// expected-error @+1 {{name '' is not a section name}}
prim.UnusedSubgraph "" {
  prim.Return
}

// -----

%y = prim.Constant {value = 1 : i64} : i64
// expected-note @+1 {{required by region isolation constraints}}
prim.UnusedSubgraph "prim::FusionGroup_0" {
  // expected-error @+1 {{using value defined outside the region}}
  prim.Return %y : i64
}

// -----

// expected-error @+1 {{quantized storage type 'si16' is none of torch's}}
func.func @bad_quantized(%t: !prim.tensor<dtype = !prim.quantized<si16>>) {
  return
}

// -----

func.func @enum_member_of_other_enum() {
  // expected-error @+1 {{is not a constant of type '!prim.enum<"__torch__.Color">'}}
  %0 = prim.Constant {value = #prim.enum_member<"__torch__.Fruit", "PEAR">} : !prim.enum<"__torch__.Color">
  return
}

// -----

func.func @quantizer_without_qscheme() {
  // expected-error @+1 {{quantizer parameters without a qscheme}}
  %0 = prim.Constant {value = #prim.quantized_tensor<values = dense<0.1> : tensor<f64>, dtype = !prim.quantized<si8>, scales = dense<0.1> : tensor<f64>, zeroPoints = dense<0> : tensor<si64>>} : !prim.tensor
  return
}

// -----

func.func @per_channel_without_axis() {
  // expected-error @+1 {{per-channel scales and zero points need an axis}}
  %0 = prim.Constant {value = #prim.quantized_tensor<values = dense<[0.1, 0.2]> : tensor<2xf64>, dtype = !prim.quantized<ui8>, qscheme = "per_channel_affine", scales = dense<[0.1, 0.2]> : tensor<2xf64>, zeroPoints = dense<[0, 1]> : tensor<2xsi64>>} : !prim.tensor
  return
}

// -----

func.func @quantized_values_not_f64() {
  // expected-error @+1 {{quantized tensor values are the printed f64 numbers}}
  %0 = prim.Constant {value = #prim.quantized_tensor<values = dense<[1, 2]> : tensor<2xsi8>, dtype = !prim.quantized<si8>>} : !prim.tensor
  return
}

// -----

// A NamedTuple is a tuple, and a tuple of the same types may stand for it
// (either way the other refines it), but two NamedTuples with different
// field names are unrelated.
func.func @named_tuples_with_other_names(%c: i1, %t: !prim.tuple<named a: i64>, %u: !prim.tuple<i64>) {
  %ok = prim.If %c -> (!prim.tuple<named a: i64>) {
    prim.Yield %u : !prim.tuple<i64>
  } else {
    prim.Yield %t : !prim.tuple<named a: i64>
  }
  // expected-error @+1 {{then block yields: value #0 has type '!prim.tuple<named a: i64>', incompatible with '!prim.tuple<named b: i64>'}}
  %r = prim.If %c -> (!prim.tuple<named b: i64>) {
    prim.Yield %t : !prim.tuple<named a: i64>
  } else {
    prim.Yield %t : !prim.tuple<named a: i64>
  }
  return
}
