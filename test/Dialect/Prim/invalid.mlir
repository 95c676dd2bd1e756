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
