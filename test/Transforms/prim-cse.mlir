// RUN: tsir-opt --prim-cse -split-input-file %s | FileCheck %s
// RUN: tsir-opt --prim-cse -split-input-file --mlir-print-debuginfo %s | FileCheck %s --check-prefix=LOC

// Identical ops merge, tensor-producing ones included (as in TorchScript);
// constants of the same value too, so chains of them merge.
// CHECK-LABEL: func.func @merge_tensor_ops
// CHECK-NEXT: %[[C:.*]] = prim.Constant {value = 1 : i64}
// CHECK-NEXT: %[[A:.*]] = aten.add.Tensor %arg0, %arg1, %[[C]]
// CHECK-NEXT: %[[M:.*]] = aten.mul.Tensor %[[A]], %[[A]]
// CHECK-NEXT: %[[N:.*]] = aten.mul.Tensor %[[M]], %[[M]]
// CHECK-NEXT: return %[[N]]
func.func @merge_tensor_ops(%x: !prim.tensor, %y: !prim.tensor) -> !prim.tensor {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %c1b = prim.Constant {value = 1 : i64} : i64
  %a = aten.add.Tensor %x, %y, %c1 : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %b = aten.add.Tensor %x, %y, %c1b : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %m1 = aten.mul.Tensor %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %m2 = aten.mul.Tensor %b, %a : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %n = aten.mul.Tensor %m1, %m2 : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %n : !prim.tensor
}

// -----

// The op kept is the first, with its location (its TorchScript name).
// LOC-LABEL: func.func @keeps_first_location
// LOC: aten.relu {{.*}} loc(#[[FIRST:[a-z0-9]+]])
// LOC-NOT: aten.relu
// LOC: #[[FIRST]] = loc("a.1")
func.func @keeps_first_location(%x: !prim.tensor) -> !prim.tensor {
  %a = aten.relu %x : (!prim.tensor) -> !prim.tensor loc("a.1")
  %b = aten.relu %x : (!prim.tensor) -> !prim.tensor loc("b.1")
  %m = aten.mul.Tensor %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %m : !prim.tensor
}

// -----

// Different attributes, operands or result types: no merge.
// CHECK-LABEL: func.func @not_equal
// CHECK-COUNT-2: prim.Constant
// CHECK-COUNT-2: aten.add.Scalar
// CHECK-COUNT-2: aten.relu
func.func @not_equal(%x: !prim.tensor) -> (!prim.tensor, !prim.tensor, !prim.tensor<dtype = f32>, !prim.tensor) {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %c2 = prim.Constant {value = 2 : i64} : i64
  %a = aten.add.Scalar %x, %c1, %c1 : (!prim.tensor, i64, i64) -> !prim.tensor
  %b = aten.add.Scalar %x, %c2, %c1 : (!prim.tensor, i64, i64) -> !prim.tensor
  %r1 = aten.relu %x : (!prim.tensor) -> !prim.tensor<dtype = f32>
  %r2 = aten.relu %x : (!prim.tensor) -> !prim.tensor
  return %a, %b, %r1, %r2 : !prim.tensor, !prim.tensor, !prim.tensor<dtype = f32>, !prim.tensor
}

// -----

// Never across a write to an input: `z = x + y; x.add_(1); w = x + y`.
// CHECK-LABEL: func.func @write_to_input
// CHECK: aten.add.Tensor %arg0, %arg1
// CHECK: aten.add_.Scalar %arg0
// CHECK: aten.add.Tensor %arg0, %arg1
func.func @write_to_input(%x: !prim.tensor, %y: !prim.tensor) -> !prim.tensor {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %z = aten.add.Tensor %x, %y, %c1 : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %u = aten.add_.Scalar %x, %c1, %c1 : (!prim.tensor, i64, i64) -> !prim.tensor
  %w = aten.add.Tensor %x, %y, %c1 : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %r = aten.mul.Tensor %z, %w : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %r : !prim.tensor
}

// -----

// Never when something writes an operand or a result anywhere in the graph,
// even after both ops.
// CHECK-LABEL: func.func @written_later
// CHECK-COUNT-2: aten.relu %
// CHECK: aten.relu_
func.func @written_later(%x: !prim.tensor) -> !prim.tensor {
  %a = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %b = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %m = aten.mul.Tensor %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %w = aten.relu_ %a : (!prim.tensor) -> !prim.tensor
  return %m : !prim.tensor
}

// -----

// List literals merge when nothing mutates them (and then so do the ops
// using them); a list that is appended to keeps its own literal.
// CHECK-LABEL: func.func @lists
// CHECK: %[[L:.*]] = prim.ListConstruct %arg0, %arg1
// CHECK-NOT: prim.ListConstruct %arg0, %arg1
// CHECK: %[[I:.*]] = prim.ListConstruct %[[C:.*]], %[[C]]
// CHECK: %[[J:.*]] = prim.ListConstruct %[[C]], %[[C]]
// CHECK: aten.append.t %[[J]]
// CHECK: %[[CAT:.*]] = aten.cat %[[L]]
// CHECK-NOT: aten.cat
// CHECK: aten.view %[[CAT]], %[[I]]
// CHECK: aten.view %[[CAT]], %[[J]]
func.func @lists(%x: !prim.tensor, %y: !prim.tensor) -> !prim.tensor {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %a = prim.ListConstruct %x, %y : (!prim.tensor, !prim.tensor) -> !prim.list<!prim.tensor>
  %b = prim.ListConstruct %x, %y : (!prim.tensor, !prim.tensor) -> !prim.list<!prim.tensor>
  %i = prim.ListConstruct %c1, %c1 : (i64, i64) -> !prim.list<i64>
  %j = prim.ListConstruct %c1, %c1 : (i64, i64) -> !prim.list<i64>
  %k = aten.append.t %j, %c1 : (!prim.list<i64>, i64) -> !prim.list<i64>
  %ca = aten.cat %a, %c1 : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %cb = aten.cat %b, %c1 : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %va = aten.view %ca, %i : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  %vb = aten.view %cb, %j : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  %r = aten.mul.Tensor %va, %vb : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %r : !prim.tensor
}

// -----

// Never ops with side effects.
// CHECK-LABEL: func.func @side_effects
// CHECK-COUNT-2: prim.Print
// CHECK-COUNT-2: prim.Generic "my_ns::magic"
// CHECK-COUNT-2: prim.CallFunction
func.func @side_effects(%x: !prim.tensor, %fn: !prim.function) -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) {
  prim.Print %x : !prim.tensor
  prim.Print %x : !prim.tensor
  %g1 = prim.Generic "my_ns::magic"(%x) : (!prim.tensor) -> !prim.tensor
  %g2 = prim.Generic "my_ns::magic"(%x) : (!prim.tensor) -> !prim.tensor
  %c1 = prim.CallFunction %fn, %x : (!prim.function, !prim.tensor) -> !prim.tensor
  %c2 = prim.CallFunction %fn, %x : (!prim.function, !prim.tensor) -> !prim.tensor
  return %g1, %g2, %c1, %c2 : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// Never nondeterministic ops: rand, dropout in training. Dropout with
// train=False is the identity, and merges.
// CHECK-LABEL: func.func @nondeterministic
// CHECK-COUNT-2: aten.rand
// CHECK-COUNT-2: aten.dropout %arg0, %{{.*}}, %[[T:[a-z0-9]+]]
// CHECK-COUNT-1: aten.dropout %arg0, %{{.*}}, %[[F:[a-z0-9]+]]
// CHECK-NOT: aten.dropout
func.func @nondeterministic(%x: !prim.tensor) -> !prim.tensor {
  %none = prim.Constant {value} : !prim.none
  %shape = prim.Constant {value = [2]} : !prim.list<i64>
  %p = prim.Constant {value = 5.000000e-01 : f64} : f64
  %t = prim.Constant {value = true} : i1
  %f = prim.Constant {value = false} : i1
  %r1 = aten.rand %shape, %none, %none, %none, %none : (!prim.list<i64>, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  %r2 = aten.rand %shape, %none, %none, %none, %none : (!prim.list<i64>, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  %d1 = aten.dropout %x, %p, %t : (!prim.tensor, f64, i1) -> !prim.tensor
  %d2 = aten.dropout %x, %p, %t : (!prim.tensor, f64, i1) -> !prim.tensor
  %e1 = aten.dropout %x, %p, %f : (!prim.tensor, f64, i1) -> !prim.tensor
  %e2 = aten.dropout %x, %p, %f : (!prim.tensor, f64, i1) -> !prim.tensor
  %l = prim.ListConstruct %r1, %r2, %d1, %d2, %e1, %e2 : (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) -> !prim.list<!prim.tensor>
  %zero = prim.Constant {value = 0 : i64} : i64
  %s = aten.cat %l, %zero : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  return %s : !prim.tensor
}

// -----

// Never ops with regions: two identical Ifs stay two.
// CHECK-LABEL: func.func @regions
// CHECK-COUNT-2: prim.If
func.func @regions(%x: !prim.tensor, %c: i1) -> !prim.tensor {
  %a = prim.If %c -> (!prim.tensor) {
    prim.Yield %x : !prim.tensor
  } else {
    prim.Yield %x : !prim.tensor
  }
  %b = prim.If %c -> (!prim.tensor) {
    prim.Yield %x : !prim.tensor
  } else {
    prim.Yield %x : !prim.tensor
  }
  %m = aten.mul.Tensor %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %m : !prim.tensor
}

// -----

// Never two ops whose results may both be graph outputs: the caller could
// mutate one and see the other change. Immutable results merge.
// CHECK-LABEL: func.func @graph_outputs
// CHECK-COUNT-2: aten.relu
// CHECK: aten.add.int
// CHECK-NOT: aten.add.int
func.func @graph_outputs(%x: !prim.tensor, %i: i64) -> (!prim.tensor, !prim.tensor, i64, i64) {
  %a = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %b = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %j = aten.add.int %i, %i : (i64, i64) -> i64
  %k = aten.add.int %i, %i : (i64, i64) -> i64
  return %a, %b, %j, %k : !prim.tensor, !prim.tensor, i64, i64
}

// -----

// Also when the outputs are reached through a tuple.
// CHECK-LABEL: func.func @graph_outputs_in_tuple
// CHECK-COUNT-2: aten.relu
func.func @graph_outputs_in_tuple(%x: !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor> {
  %a = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %b = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %t = prim.TupleConstruct %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
  return %t : !prim.tuple<!prim.tensor, !prim.tensor>
}

// -----

// One of the two returned is fine: no new aliasing among outputs.
// CHECK-LABEL: func.func @one_output
// CHECK-NEXT: %[[A:.*]] = aten.relu
// CHECK-NEXT: return %[[A]], %arg0
func.func @one_output(%x: !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  %a = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %b = aten.relu %x : (!prim.tensor) -> !prim.tensor
  return %b, %x : !prim.tensor, !prim.tensor
}

// -----

// Scopes: an op in a body is replaced by one of the enclosing block before
// it; ops of sibling blocks stay apart, and an op after the If is not
// replaced by one inside it.
// CHECK-LABEL: func.func @scopes
// CHECK: %[[A:.*]] = aten.relu %arg0
// CHECK-NEXT: prim.If %arg1 -> (!prim.tensor, !prim.tensor) {
// CHECK-NEXT:   %[[T1:.*]] = aten.tanh %arg0
// CHECK-NEXT:   prim.Yield %[[A]], %[[T1]]
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[T2:.*]] = aten.tanh %arg0
// CHECK-NEXT:   prim.Yield %[[A]], %[[T2]]
// CHECK-NEXT: }
// CHECK-NEXT: aten.tanh %arg0
func.func @scopes(%x: !prim.tensor, %c: i1) -> !prim.tensor {
  %a = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %r:2 = prim.If %c -> (!prim.tensor, !prim.tensor) {
    %b = aten.relu %x : (!prim.tensor) -> !prim.tensor
    %t = aten.tanh %x : (!prim.tensor) -> !prim.tensor
    prim.Yield %b, %t : !prim.tensor, !prim.tensor
  } else {
    %t2 = aten.tanh %x : (!prim.tensor) -> !prim.tensor
    prim.Yield %a, %t2 : !prim.tensor, !prim.tensor
  }
  %t3 = aten.tanh %x : (!prim.tensor) -> !prim.tensor
  %s = aten.mul.Tensor %r#0, %r#1 : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %s2 = aten.mul.Tensor %s, %t3 : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %s2 : !prim.tensor
}

// -----

// Loop bodies see the enclosing block too, through nested blocks; repeats
// inside the body merge.
// CHECK-LABEL: func.func @loop_scopes
// CHECK: %[[A:.*]] = aten.relu %arg0
// CHECK: prim.Loop
// CHECK-NEXT: ^bb0(%{{.*}}: i64, %[[ACC:.*]]: !prim.tensor):
// CHECK-NEXT:   prim.If %arg2 -> (!prim.tensor) {
// CHECK-NEXT:     %[[M:.*]] = aten.mul.Tensor %[[ACC]], %[[A]]
// CHECK-NEXT:     prim.Yield %[[M]]
// CHECK:        %[[S:.*]] = aten.sin %[[ACC]]
// CHECK-NEXT:   aten.mul.Tensor %[[S]], %[[S]]
func.func @loop_scopes(%x: !prim.tensor, %n: i64, %c: i1) -> !prim.tensor {
  %true = prim.Constant {value = true} : i1
  %a = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %r = prim.Loop %n, %true, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor):
    %y = prim.If %c -> (!prim.tensor) {
      %b = aten.relu %x : (!prim.tensor) -> !prim.tensor
      %m = aten.mul.Tensor %acc, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
      prim.Yield %m : !prim.tensor
    } else {
      prim.Yield %acc : !prim.tensor
    }
    %s1 = aten.sin %acc : (!prim.tensor) -> !prim.tensor
    %s2 = aten.sin %acc : (!prim.tensor) -> !prim.tensor
    %p = aten.mul.Tensor %s1, %s2 : (!prim.tensor, !prim.tensor) -> !prim.tensor
    %q = aten.mul.Tensor %p, %y : (!prim.tensor, !prim.tensor) -> !prim.tensor
    prim.Yield %true, %q : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// An op in a body is not replaced by an enclosing one when both escape (here
// both reach the graph outputs).
// CHECK-LABEL: func.func @enclosing_both_escape
// CHECK: aten.relu %arg0
// CHECK: prim.If
// CHECK-NEXT: aten.relu %arg0
func.func @enclosing_both_escape(%x: !prim.tensor, %c: i1) -> (!prim.tensor, !prim.tensor) {
  %a = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %r = prim.If %c -> (!prim.tensor) {
    %b = aten.relu %x : (!prim.tensor) -> !prim.tensor
    prim.Yield %b : !prim.tensor
  } else {
    prim.Yield %x : !prim.tensor
  }
  return %a, %r : !prim.tensor, !prim.tensor
}

// -----

// Object attributes read twice merge when nothing in the graph writes
// wildcard memory, and stay apart when something does.
// CHECK-LABEL: func.func @getattr_unwritten
// CHECK-COUNT-1: prim.GetAttr
// CHECK-LABEL: func.func @getattr_written
// CHECK-COUNT-2: prim.GetAttr
func.func @getattr_unwritten(%self: !prim.class<"M">) -> !prim.tensor {
  %a = prim.GetAttr %self {name = "w"} : (!prim.class<"M">) -> !prim.tensor
  %b = prim.GetAttr %self {name = "w"} : (!prim.class<"M">) -> !prim.tensor
  %m = aten.mul.Tensor %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %m : !prim.tensor
}
func.func @getattr_written(%self: !prim.class<"M">, %x: !prim.tensor) -> !prim.tensor {
  %a = prim.GetAttr %self {name = "w"} : (!prim.class<"M">) -> !prim.tensor
  prim.SetAttr %self, %x {name = "w"} : !prim.class<"M">, !prim.tensor
  %b = prim.GetAttr %self {name = "w"} : (!prim.class<"M">) -> !prim.tensor
  %m = aten.mul.Tensor %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %m : !prim.tensor
}

// -----

// Weights without data (#prim.tensor_ref) are equal only when they name the
// same weight: two of one type but different names stay two.
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
