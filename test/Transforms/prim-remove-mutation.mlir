// RUN: tsir-opt --prim-remove-mutation -split-input-file %s | FileCheck %s

// The corpus's inplace_ops: a clone, then add_ and relu_ on it. Both become
// functional, and every later use sees the newest value.
// CHECK-LABEL: func.func @inplace_ops
// CHECK: %[[Z:.*]] = aten.clone %arg0
// CHECK-NEXT: %[[A:.*]] = aten.add.Tensor %[[Z]], %arg1, %{{.*}} :
// CHECK-NEXT: %[[R:.*]] = aten.relu %[[A]] :
// CHECK-NEXT: %[[M:.*]] = aten.mul.Scalar %[[R]], %{{.*}} :
// CHECK-NEXT: return %[[M]]
func.func @inplace_ops(%arg0: !prim.tensor, %arg1: !prim.tensor) -> !prim.tensor {
  %0 = prim.Constant {value = 1 : i64} : i64
  %1 = prim.Constant {value} : !prim.none
  %2 = prim.Constant {value = 3.000000e+00 : f64} : f64
  %3 = aten.clone %arg0, %1 : (!prim.tensor, !prim.none) -> !prim.tensor
  %4 = aten.add_.Tensor %3, %arg1, %0 : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %5 = aten.relu_ %3 : (!prim.tensor) -> !prim.tensor
  %6 = aten.mul.Scalar %3, %2 : (!prim.tensor, f64) -> !prim.tensor
  return %6 : !prim.tensor
}

// -----

// The functional op is the in-place name without `_`, same overload; a
// chain through the in-place results themselves works too.
// CHECK-LABEL: func.func @chain
// CHECK: %[[S:.*]] = aten.sigmoid %{{.*}} :
// CHECK-NEXT: %[[D:.*]] = aten.div.Tensor %[[S]], %arg1 :
// CHECK-NEXT: %[[C:.*]] = aten.clamp %[[D]], %{{.*}}, %{{.*}} :
// CHECK-NEXT: %[[T:.*]] = aten.tanh %[[C]] :
// CHECK-NEXT: %[[M:.*]] = aten.mul_.Tensor %[[T]], %[[T]] :
// CHECK-NEXT: return %[[M]], %[[T]]
func.func @chain(%x: !prim.tensor, %y: !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  %one = prim.Constant {value = 1 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %z = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %a = aten.sigmoid_ %z : (!prim.tensor) -> !prim.tensor
  %b = aten.div_.Tensor %a, %y : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %c = aten.clamp_ %z, %none, %one : (!prim.tensor, !prim.none, i64) -> !prim.tensor
  %d = aten.tanh_ %c : (!prim.tensor) -> !prim.tensor
  // Writes its first operand, which it also reads as the second: stays.
  %e = aten.mul_.Tensor %d, %z : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %e, %z : !prim.tensor, !prim.tensor
}

// -----

// Another use of the value between its creation and the mutation: the
// mutation stays (that use must see the old contents).
// CHECK-LABEL: func.func @use_before_mutation
// CHECK: aten.mul.Tensor
// CHECK: aten.add_.Tensor
func.func @use_before_mutation(%x: !prim.tensor, %y: !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  %one = prim.Constant {value = 1 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %z = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %w = aten.mul.Tensor %z, %y : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %a = aten.add_.Tensor %z, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  return %a, %w : !prim.tensor, !prim.tensor
}

// -----

// Views, lists and If blocks after the mutation just use the new value.
// CHECK-LABEL: func.func @uses_after_mutation
// CHECK: %[[Z:.*]] = aten.clone
// CHECK-NEXT: %[[A:.*]] = aten.add.Tensor %[[Z]], %arg1
// CHECK-NEXT: %[[V:.*]] = aten.view %[[A]], %{{.*}} :
// CHECK-NEXT: %[[L:.*]] = prim.ListConstruct %[[A]] :
// CHECK-NEXT: %[[R:.*]] = prim.If %arg2
// CHECK-NEXT: aten.mul.Tensor %[[A]], %arg1
// CHECK: } else {
// CHECK-NEXT: prim.Yield %[[A]]
// CHECK: return %[[V]], %[[L]], %[[R]]
func.func @uses_after_mutation(%x: !prim.tensor, %y: !prim.tensor, %c: i1) -> (!prim.tensor, !prim.list<!prim.tensor>, !prim.tensor) {
  %one = prim.Constant {value = 1 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %shape = prim.ListConstruct %one : (i64) -> !prim.list<i64>
  %z = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %a = aten.add_.Tensor %z, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %v = aten.view %z, %shape : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  %l = prim.ListConstruct %z : (!prim.tensor) -> !prim.list<!prim.tensor>
  %r = prim.If %c -> (!prim.tensor) {
    %q = aten.mul.Tensor %z, %y : (!prim.tensor, !prim.tensor) -> !prim.tensor
    prim.Yield %q : !prim.tensor
  } else {
    prim.Yield %z : !prim.tensor
  }
  return %v, %l, %r : !prim.tensor, !prim.list<!prim.tensor>, !prim.tensor
}

// -----

// A list holding the value before the mutation sees the write: it stays.
// CHECK-LABEL: func.func @list_before_mutation
// CHECK: prim.ListConstruct
// CHECK: aten.add_.Tensor
func.func @list_before_mutation(%x: !prim.tensor, %y: !prim.tensor) -> !prim.list<!prim.tensor> {
  %one = prim.Constant {value = 1 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %z = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %l = prim.ListConstruct %z : (!prim.tensor) -> !prim.list<!prim.tensor>
  %a = aten.add_.Tensor %z, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  return %l : !prim.list<!prim.tensor>
}

// -----

// A graph input, a view, an element loaded from a list: not fresh, kept.
// CHECK-LABEL: func.func @not_fresh
// CHECK: aten.add_.Tensor %arg0
// CHECK: %[[V:.*]] = aten.view
// CHECK: aten.add_.Tensor %[[V]]
// CHECK: %[[E:.*]] = aten.__getitem__.t
// CHECK: aten.add_.Tensor %[[E]]
func.func @not_fresh(%x: !prim.tensor, %y: !prim.tensor, %xs: !prim.list<!prim.tensor>) -> (!prim.tensor, !prim.tensor, !prim.tensor) {
  %zero = prim.Constant {value = 0 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %a = aten.add_.Tensor %x, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %shape = prim.ListConstruct %one : (i64) -> !prim.list<i64>
  %z = aten.clone %y, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %v = aten.view %z, %shape : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  %b = aten.add_.Tensor %v, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %l = aten.list.t %xs : (!prim.list<!prim.tensor>) -> !prim.list<!prim.tensor>
  %e = aten.__getitem__.t %l, %zero : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %c = aten.add_.Tensor %e, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  return %a, %z, %c : !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// Fresh values that are not aten results: NumToTensor, a tensor constant.
// CHECK-LABEL: func.func @fresh_prim_values
// CHECK: %[[N:.*]] = prim.NumToTensor
// CHECK-NEXT: aten.add.Tensor %[[N]]
// CHECK: %[[C:.*]] = prim.Constant {value = dense<2>
// CHECK-NEXT: aten.mul.Tensor %[[C]]
// CHECK-NOT: _.Tensor
func.func @fresh_prim_values(%y: !prim.tensor, %n: i64) -> (!prim.tensor, !prim.tensor) {
  %one = prim.Constant {value = 1 : i64} : i64
  %t = prim.NumToTensor %n : (i64) -> !prim.tensor
  %a = aten.add_.Tensor %t, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %c = prim.Constant {value = dense<2> : tensor<si64>} : !prim.tensor
  %b = aten.mul_.Tensor %c, %y : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %a, %b : !prim.tensor, !prim.tensor
}

// -----

// A mutation in a loop body of a value made outside the loop runs many
// times on the same memory: kept. Made inside the body, it goes.
// CHECK-LABEL: func.func @loops
// CHECK: prim.Loop
// CHECK: aten.add_.Tensor
// CHECK: prim.Loop
// CHECK: %[[Z:.*]] = aten.clone
// CHECK-NEXT: %[[A:.*]] = aten.add.Tensor %[[Z]]
// CHECK-NEXT: prim.Yield %{{.*}}, %[[A]]
func.func @loops(%x: !prim.tensor, %y: !prim.tensor, %n: i64) -> (!prim.tensor, !prim.tensor) {
  %one = prim.Constant {value = 1 : i64} : i64
  %t = prim.Constant {value = true} : i1
  %none = prim.Constant {value} : !prim.none
  %z = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  prim.Loop %n, %t {
  ^bb0(%i: i64):
    %a = aten.add_.Tensor %z, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
    prim.Yield %t : i1
  }
  %r = prim.Loop %n, %t, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor):
    %w = aten.clone %acc, %none : (!prim.tensor, !prim.none) -> !prim.tensor
    %a = aten.add_.Tensor %w, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
    prim.Yield %t, %w : i1, !prim.tensor
  }
  return %z, %r : !prim.tensor, !prim.tensor
}

// -----

// Creation and mutation must be one step: not across a side effect.
// CHECK-LABEL: func.func @side_effect_between
// CHECK: prim.Print
// CHECK: aten.add_.Tensor
// CHECK: prim.Generic "my::op"
// CHECK: aten.relu_
func.func @side_effect_between(%x: !prim.tensor, %y: !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  %one = prim.Constant {value = 1 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %z = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  prim.Print %y : !prim.tensor
  %a = aten.add_.Tensor %z, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %w = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %g = prim.Generic "my::op"(%y) : (!prim.tensor) -> !prim.tensor
  %b = aten.relu_ %w : (!prim.tensor) -> !prim.tensor
  return %a, %b : !prim.tensor, !prim.tensor
}

// -----

// A write between creation and mutation to what the creation read: fine
// if the mutation does not touch it (the write could move past the
// mutation), kept if it does. Graph inputs may alias each other, so a
// write to %x touches %y too.
// CHECK-LABEL: func.func @write_between
// CHECK: %[[Z:.*]] = aten.clone %arg0
// CHECK-NEXT: aten.mul_.Scalar %arg0
// CHECK-NEXT: aten.add.Scalar %[[Z]]
// CHECK: %[[W:.*]] = aten.clone %arg0
// CHECK-NEXT: aten.mul_.Scalar %arg0
// CHECK-NEXT: aten.add_.Tensor %[[W]], %arg1
func.func @write_between(%x: !prim.tensor, %y: !prim.tensor) -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) {
  %one = prim.Constant {value = 1 : i64} : i64
  %two = prim.Constant {value = 2.0 : f64} : f64
  %none = prim.Constant {value} : !prim.none
  %z = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %m = aten.mul_.Scalar %x, %two : (!prim.tensor, f64) -> !prim.tensor
  %a = aten.add_.Scalar %z, %one, %one : (!prim.tensor, i64, i64) -> !prim.tensor
  %w = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %n = aten.mul_.Scalar %x, %two : (!prim.tensor, f64) -> !prim.tensor
  %b = aten.add_.Tensor %w, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  return %a, %m, %b, %n : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// TorchScript's special cases: zero_ becomes zeros_like, fill_.Scalar
// full_like with the tensor's dtype. normal_ would need ops tsir has no
// typed op for: it stays.
// CHECK-LABEL: func.func @special_ops
// CHECK: %[[F:.*]] = aten.clone
// CHECK-NEXT: %[[DT:.*]] = prim.dtype %[[F]]
// CHECK-COUNT-4: prim.Constant {value} : !prim.none
// CHECK-NEXT: %[[FULL:.*]] = aten.full_like %[[F]], %{{.*}}, %[[DT]],
// CHECK: %[[Z:.*]] = aten.clone
// CHECK-COUNT-5: prim.Constant {value} : !prim.none
// CHECK-NEXT: %[[ZEROS:.*]] = aten.zeros_like %[[Z]],
// CHECK: %[[N:.*]] = aten.normal_
// CHECK: return %[[FULL]], %[[ZEROS]], %[[N]]
func.func @special_ops(%x: !prim.tensor) -> (!prim.tensor, !prim.tensor, !prim.tensor) {
  %one = prim.Constant {value = 1 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %f0 = prim.Constant {value = 0.0 : f64} : f64
  %f1 = prim.Constant {value = 1.0 : f64} : f64
  %a = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %a2 = aten.fill_.Scalar %a, %one : (!prim.tensor, i64) -> !prim.tensor
  %b = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %b2 = aten.zero_ %b : (!prim.tensor) -> !prim.tensor
  %c = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %c2 = aten.normal_ %c, %f0, %f1, %none : (!prim.tensor, f64, f64, !prim.none) -> !prim.tensor
  return %a2, %b2, %c2 : !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// An If result whose two yielded values are fresh and used only there.
// CHECK-LABEL: func.func @if_result
// CHECK: %[[R:.*]] = prim.If
// CHECK: %[[A:.*]] = aten.add.Tensor %[[R]], %arg1
// CHECK: return %[[A]]
func.func @if_result(%x: !prim.tensor, %y: !prim.tensor, %c: i1) -> !prim.tensor {
  %one = prim.Constant {value = 1 : i64} : i64
  %r = prim.If %c -> (!prim.tensor) {
    %q = aten.mul.Tensor %x, %y : (!prim.tensor, !prim.tensor) -> !prim.tensor
    prim.Yield %q : !prim.tensor
  } else {
    %p = aten.add.Tensor %x, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
    prim.Yield %p : !prim.tensor
  }
  %a = aten.add_.Tensor %r, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  return %a : !prim.tensor
}

// -----

// Kept: a yielded value with another use, a yielded graph input.
// CHECK-LABEL: func.func @if_result_kept
// CHECK: aten.add_.Tensor
// CHECK: aten.add_.Tensor
func.func @if_result_kept(%x: !prim.tensor, %y: !prim.tensor, %c: i1) -> (!prim.tensor, !prim.tensor) {
  %one = prim.Constant {value = 1 : i64} : i64
  %r = prim.If %c -> (!prim.tensor) {
    %q = aten.mul.Tensor %x, %y : (!prim.tensor, !prim.tensor) -> !prim.tensor
    %q2 = aten.neg %q : (!prim.tensor) -> !prim.tensor
    prim.Yield %q : !prim.tensor
  } else {
    %p = aten.add.Tensor %x, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
    prim.Yield %p : !prim.tensor
  }
  %a = aten.add_.Tensor %r, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %s = prim.If %c -> (!prim.tensor) {
    prim.Yield %x : !prim.tensor
  } else {
    %p = aten.add.Tensor %x, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
    prim.Yield %p : !prim.tensor
  }
  %b = aten.add_.Tensor %s, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  return %a, %b : !prim.tensor, !prim.tensor
}

// -----

// A shape check that can only raise may stand between, unless it reads
// the value: a raise ends the graph, and no one sees the fresh value
// before the mutation (F.batch_norm's check in training mode, before
// ResNet's `out += identity`). TorchScript keeps these mutations.
// CHECK-LABEL: func.func @raise_between
// CHECK: aten.add.Tensor
// CHECK: aten.relu_
// CHECK-LABEL: func.func @raise_reads_value
// CHECK: aten.add_.Tensor
func.func @raise_between(%x: !prim.tensor, %y: !prim.tensor, %c: i1) -> (!prim.tensor, !prim.tensor) {
  %one = prim.Constant {value = 1 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %z = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  prim.If %c {
    %message = prim.Constant {value = "Expected more than 1 value per channel"} : !prim.str
    prim.RaiseException %message : !prim.str
    prim.Yield
  } else {
    prim.Yield
  }
  %a = aten.add_.Tensor %z, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %w = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  prim.Print %y : !prim.tensor
  %b = aten.relu_ %w : (!prim.tensor) -> !prim.tensor
  return %a, %b : !prim.tensor, !prim.tensor
}
func.func @raise_reads_value(%x: !prim.tensor, %y: !prim.tensor) -> !prim.tensor {
  %one = prim.Constant {value = 1 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %z = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %n = aten.dim %z : (!prim.tensor) -> i64
  %bad = aten.eq.int %n, %one : (i64, i64) -> i1
  prim.If %bad {
    %message = prim.Constant {value = "wrong rank"} : !prim.str
    prim.RaiseException %message : !prim.str
    prim.Yield
  } else {
    prim.Yield
  }
  %a = aten.add_.Tensor %z, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  return %a : !prim.tensor
}

// -----

// A value made and mutated inside an If block.
// CHECK-LABEL: func.func @inside_if
// CHECK: prim.If
// CHECK-NEXT: %[[Q:.*]] = aten.clone
// CHECK-NEXT: %[[R:.*]] = aten.relu %[[Q]]
// CHECK-NEXT: prim.Yield %[[R]]
func.func @inside_if(%x: !prim.tensor, %c: i1) -> !prim.tensor {
  %none = prim.Constant {value} : !prim.none
  %r = prim.If %c -> (!prim.tensor) {
    %q = aten.clone %x, %none : (!prim.tensor, !prim.none) -> !prim.tensor
    %q2 = aten.relu_ %q : (!prim.tensor) -> !prim.tensor
    prim.Yield %q : !prim.tensor
  } else {
    prim.Yield %x : !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// Appends right after a list literal fold into it; the literal moves down
// past the element's definition. After a read of the list, they stay.
// CHECK-LABEL: func.func @append
// CHECK-NEXT: %[[M:.*]] = aten.mul.Tensor %arg0, %arg1
// CHECK-NEXT: %[[L:.*]] = prim.ListConstruct %arg0, %[[M]], %arg1 :
// CHECK: aten.cat %[[L]]
// CHECK-NEXT: aten.append.t %[[L]], %arg1
func.func @append(%x: !prim.tensor, %y: !prim.tensor) -> (!prim.tensor, !prim.list<!prim.tensor>) {
  %l = prim.ListConstruct %x : (!prim.tensor) -> !prim.list<!prim.tensor>
  %m = aten.mul.Tensor %x, %y : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %a = aten.append.t %l, %m : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  %b = aten.append.t %a, %y : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  %zero = prim.Constant {value = 0 : i64} : i64
  %r = aten.cat %l, %zero : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %c = aten.append.t %l, %y : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  return %r, %l : !prim.tensor, !prim.list<!prim.tensor>
}

// -----

// insert at a constant index (negative: from the end, clamped) and
// _set_item at a constant index inside the list fold too; _set_item out of
// range (it raises) and insert at an unknown index stay.
// CHECK-LABEL: func.func @insert_set_item
// CHECK: %[[ADD:.*]] = aten.add.Scalar
// CHECK-NEXT: %[[L:.*]] = prim.ListConstruct %arg1, %arg1, %[[ADD]] :
// CHECK-NEXT: aten._set_item.t %[[L]]
// CHECK-NEXT: aten.insert.t %[[L]], %arg2
func.func @insert_set_item(%x: !prim.tensor, %y: !prim.tensor, %i: i64) -> !prim.list<!prim.tensor> {
  %m5 = prim.Constant {value = -5 : i64} : i64
  %m1 = prim.Constant {value = -1 : i64} : i64
  %zero = prim.Constant {value = 0 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %five = prim.Constant {value = 5 : i64} : i64
  %l = prim.ListConstruct %x : (!prim.tensor) -> !prim.list<!prim.tensor>
  aten.insert.t %l, %zero, %y : (!prim.list<!prim.tensor>, i64, !prim.tensor) -> ()
  %a = aten.add.Scalar %x, %one, %one : (!prim.tensor, i64, i64) -> !prim.tensor
  %s = aten._set_item.t %l, %m1, %a : (!prim.list<!prim.tensor>, i64, !prim.tensor) -> !prim.list<!prim.tensor>
  aten.insert.t %l, %m5, %y : (!prim.list<!prim.tensor>, i64, !prim.tensor) -> ()
  %t = aten._set_item.t %l, %five, %y : (!prim.list<!prim.tensor>, i64, !prim.tensor) -> !prim.list<!prim.tensor>
  aten.insert.t %l, %i, %y : (!prim.list<!prim.tensor>, i64, !prim.tensor) -> ()
  return %l : !prim.list<!prim.tensor>
}

// -----

// The corpus's list_ops: the append runs in a loop on a list made outside
// it, so it stays; so does an append after another use of the list when
// the list leaves the graph.
// CHECK-LABEL: func.func @list_ops
// CHECK: %[[L:.*]] = prim.ListConstruct  :
// CHECK: prim.Loop
// CHECK: aten.append.t %[[L]]
// CHECK: %[[K:.*]] = prim.ListConstruct %arg0 :
// CHECK-NEXT: aten.len.t %[[K]]
// CHECK-NEXT: aten.append.t %[[K]]
func.func @list_ops(%arg0: !prim.tensor) -> (!prim.tuple<!prim.tensor, i64>, i64, !prim.list<!prim.tensor>) {
  %0 = prim.Constant {value = true} : i1
  %1 = prim.Constant {value = 0 : i64} : i64
  %2 = prim.Constant {value = 2.000000e+00 : f64} : f64
  %3 = aten.unbind.int %arg0, %1 : (!prim.tensor, i64) -> !prim.list<!prim.tensor>
  %4 = prim.ListConstruct  : () -> !prim.list<!prim.tensor>
  %5 = aten.len.t %3 : (!prim.list<!prim.tensor>) -> i64
  prim.Loop %5, %0 {
  ^bb0(%arg1: i64):
    %9 = aten.__getitem__.t %3, %arg1 : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
    %10 = aten.mul.Scalar %9, %2 : (!prim.tensor, f64) -> !prim.tensor
    %11 = aten.append.t %4, %10 : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
    prim.Yield %0 : i1
  }
  %6 = aten.stack %4, %1 : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %7 = aten.len.t %4 : (!prim.list<!prim.tensor>) -> i64
  %8 = prim.TupleConstruct %6, %7 : (!prim.tensor, i64) -> !prim.tuple<!prim.tensor, i64>
  %k = prim.ListConstruct %arg0 : (!prim.tensor) -> !prim.list<!prim.tensor>
  %n = aten.len.t %k : (!prim.list<!prim.tensor>) -> i64
  %e = aten.append.t %k, %arg0 : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  return %8, %n, %k : !prim.tuple<!prim.tensor, i64>, i64, !prim.list<!prim.tensor>
}

// -----

// DenseNet's blocks: a list literal its block only appends to and reads
// (`features.append(layer(cat(features)))`). Each read gets a literal of
// the elements appended before it, and the appends go. A list that is
// also read where it could escape (here, passed to an op that keeps it)
// stays as it is.
// CHECK-LABEL: func.func @dense_block
// CHECK: %[[L0:.*]] = prim.ListConstruct %arg0 :
// CHECK-NEXT: %[[C0:.*]] = aten.cat %[[L0]]
// CHECK-NEXT: %[[R0:.*]] = aten.relu %[[C0]]
// CHECK-NEXT: %[[L1:.*]] = prim.ListConstruct %arg0, %[[R0]] :
// CHECK-NEXT: %[[C1:.*]] = aten.cat %[[L1]]
// CHECK-NEXT: %[[R1:.*]] = aten.relu %[[C1]]
// CHECK-NEXT: %[[L2:.*]] = prim.ListConstruct %arg0, %[[R0]], %[[R1]] :
// CHECK-NEXT: %[[N:.*]] = aten.len.t %[[L2]]
// CHECK-NEXT: %[[C2:.*]] = aten.cat %[[L2]]
// CHECK-NOT: aten.append.t
// CHECK: return %[[C2]], %[[N]]
func.func @dense_block(%arg0: !prim.tensor) -> (!prim.tensor, i64) {
  %dim = prim.Constant {value = 1 : i64} : i64
  %l = prim.ListConstruct %arg0 : (!prim.tensor) -> !prim.list<!prim.tensor>
  %c0 = aten.cat %l, %dim : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %r0 = aten.relu %c0 : (!prim.tensor) -> !prim.tensor
  %a0 = aten.append.t %l, %r0 : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  %c1 = aten.cat %l, %dim : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %r1 = aten.relu %c1 : (!prim.tensor) -> !prim.tensor
  %a1 = aten.append.t %l, %r1 : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  %n = aten.len.t %l : (!prim.list<!prim.tensor>) -> i64
  %c2 = aten.cat %l, %dim : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  return %c2, %n : !prim.tensor, i64
}

// RAFT's correlation pyramid: appended to in the graph's body, read in a
// loop after the appends. The loop reads a literal of every element.
// CHECK-LABEL: func.func @pyramid_read_in_loop
// CHECK-NOT: aten.append.t
// CHECK: %[[ALL:.*]] = prim.ListConstruct %arg0, %[[HALF:.*]], %[[QUARTER:.*]] :
// CHECK-NEXT: prim.Loop
// CHECK: aten.__getitem__.t %[[ALL]]
// CHECK: aten.len.t %[[ALL]]
func.func @pyramid_read_in_loop(%arg0: !prim.tensor, %n: i64) -> !prim.tensor {
  %true = prim.Constant {value = true} : i1
  %l = prim.ListConstruct %arg0 : (!prim.tensor) -> !prim.list<!prim.tensor>
  %half = aten.relu %arg0 : (!prim.tensor) -> !prim.tensor
  %a0 = aten.append.t %l, %half : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  %quarter = aten.relu %half : (!prim.tensor) -> !prim.tensor
  %a1 = aten.append.t %l, %quarter : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  %r = prim.Loop %n, %true, %arg0 : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor):
    %level = aten.__getitem__.t %l, %i : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
    %count = aten.len.t %l : (!prim.list<!prim.tensor>) -> i64
    %next = aten.add.Tensor %acc, %level, %count : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
    prim.Yield %true, %next : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// An append in the loop changes the list from one iteration to the
// next: the list stays.
// CHECK-LABEL: func.func @append_in_loop
// CHECK: %[[L:.*]] = prim.ListConstruct %arg0 :
// CHECK: aten.append.t %[[L]]
func.func @append_in_loop(%arg0: !prim.tensor, %n: i64) -> i64 {
  %true = prim.Constant {value = true} : i1
  %zero = prim.Constant {value = 0 : i64} : i64
  %l = prim.ListConstruct %arg0 : (!prim.tensor) -> !prim.list<!prim.tensor>
  %r = prim.Loop %n, %true, %zero : i64 -> (i64) {
  ^bb0(%i: i64, %acc: i64):
    %a = aten.append.t %l, %arg0 : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
    %count = aten.len.t %l : (!prim.list<!prim.tensor>) -> i64
    prim.Yield %true, %count : i1, i64
  }
  return %r : i64
}

// CHECK-LABEL: func.func @escaping_list
// CHECK: %[[L:.*]] = prim.ListConstruct %arg0 :
// CHECK-NEXT: aten.cat %[[L]]
// CHECK-NEXT: aten.append.t %[[L]]
// CHECK-NEXT: return %{{.*}}, %[[L]]
func.func @escaping_list(%arg0: !prim.tensor) -> (!prim.tensor, !prim.list<!prim.tensor>) {
  %dim = prim.Constant {value = 1 : i64} : i64
  %l = prim.ListConstruct %arg0 : (!prim.tensor) -> !prim.list<!prim.tensor>
  %c0 = aten.cat %l, %dim : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %a0 = aten.append.t %l, %c0 : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  return %c0, %l : !prim.tensor, !prim.list<!prim.tensor>
}

// A copy (`l.copy()`, `list(l)`, `l + m`, `l[a:b]`) is a fresh list of the
// elements the list has when it is made: the appends before it fold into
// the literal it copies, and the list itself goes.
// CHECK-LABEL: func.func @copied_list
// CHECK: %[[C:.*]] = aten.cat
// CHECK-NEXT: %[[L:.*]] = prim.ListConstruct %arg0, %[[C]] :
// CHECK-NEXT: aten.copy.t %[[L]]
// CHECK-NOT: aten.append.t
func.func @copied_list(%arg0: !prim.tensor) -> (!prim.tensor, !prim.list<!prim.tensor>) {
  %dim = prim.Constant {value = 1 : i64} : i64
  %l = prim.ListConstruct %arg0 : (!prim.tensor) -> !prim.list<!prim.tensor>
  %c0 = aten.cat %l, %dim : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %a0 = aten.append.t %l, %c0 : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  %k = aten.copy.t %l : (!prim.list<!prim.tensor>) -> !prim.list<!prim.tensor>
  return %c0, %k : !prim.tensor, !prim.list<!prim.tensor>
}

// Writes of constant elements fold the same way (`images[i] = image` in an
// unrolled loop): each read sees the elements written before it.
// CHECK-LABEL: func.func @written_elements
// CHECK: %[[R:.*]] = aten.relu
// CHECK-NEXT: %[[L:.*]] = prim.ListConstruct %[[R]], %arg1 :
// CHECK-NEXT: aten.__getitem__.t %[[L]]
// CHECK-NOT: aten._set_item.t
func.func @written_elements(%arg0: !prim.tensor, %arg1: !prim.tensor) -> !prim.tensor {
  %zero = prim.Constant {value = 0 : i64} : i64
  %minus1 = prim.Constant {value = -1 : i64} : i64
  %l = prim.ListConstruct %arg0, %arg1 : (!prim.tensor, !prim.tensor) -> !prim.list<!prim.tensor>
  %first = aten.__getitem__.t %l, %zero : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %r = aten.relu %first : (!prim.tensor) -> !prim.tensor
  %w = aten._set_item.t %l, %zero, %r : (!prim.list<!prim.tensor>, i64, !prim.tensor) -> !prim.list<!prim.tensor>
  %last = aten.__getitem__.t %l, %minus1 : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  return %last : !prim.tensor
}

// -----

// A copy of a constant list that is written becomes a literal the write
// folds into (Swin's `shift_size = shift_size.copy(); shift_size[0] = 0`);
// a copy nothing writes stays a copy.
// CHECK-LABEL: func.func @copied_constant
// CHECK-DAG: %[[ZERO:.*]] = prim.Constant {value = 0 : i64} : i64
// CHECK-DAG: %[[ONE:.*]] = prim.Constant {value = 1 : i64} : i64
// CHECK: %[[L:.*]] = prim.ListConstruct %[[ZERO]], %[[ONE]] :
// CHECK-NOT: aten._set_item.t
// CHECK: %[[K:.*]] = aten.copy.t
// CHECK: return %[[L]], %[[K]]
func.func @copied_constant() -> (!prim.list<i64>, !prim.list<i64>) {
  %c = prim.Constant {value = [3, 1]} : !prim.list<i64>
  %zero = prim.Constant {value = 0 : i64} : i64
  %l = aten.copy.t %c : (!prim.list<i64>) -> !prim.list<i64>
  %s = aten._set_item.t %l, %zero, %zero : (!prim.list<i64>, i64, i64) -> !prim.list<i64>
  %k = aten.copy.t %c : (!prim.list<i64>) -> !prim.list<i64>
  return %l, %k : !prim.list<i64>, !prim.list<i64>
}

// -----

// torchvision's FPN with extra levels: `results.extend([p6, p7])` and
// `names.extend(["p6", "p7"])` on lists its block otherwise appends to
// and reads. An extend by a literal (or a constant) is its elements'
// appends; the reads get literals of every element, so the feature maps'
// count is known and the loops over them unroll.
// CHECK-LABEL: func.func @fpn_extend
// CHECK-NOT: aten.extend.t
// CHECK-DAG: %[[P6:.*]] = prim.Constant {value = "p6"} : !prim.str
// CHECK-DAG: %[[P7:.*]] = prim.Constant {value = "p7"} : !prim.str
// CHECK-DAG: %[[FEATURES:.*]] = prim.ListConstruct %arg0, %arg1, %arg2 :
// CHECK-DAG: %[[NAMES:.*]] = prim.ListConstruct %{{.*}}, %[[P6]], %[[P7]] :
// CHECK-DAG: aten.len.t %[[FEATURES]]
// CHECK-DAG: aten.len.t %[[NAMES]]
func.func @fpn_extend(%arg0: !prim.tensor, %arg1: !prim.tensor, %arg2: !prim.tensor) -> (i64, i64) {
  %zero = prim.Constant {value = "0"} : !prim.str
  %extra = prim.Constant {value = ["p6", "p7"]} : !prim.list<!prim.str>
  %results = prim.ListConstruct %arg0 : (!prim.tensor) -> !prim.list<!prim.tensor>
  %names = prim.ListConstruct %zero : (!prim.str) -> !prim.list<!prim.str>
  %more = prim.ListConstruct %arg1, %arg2 : (!prim.tensor, !prim.tensor) -> !prim.list<!prim.tensor>
  aten.extend.t %results, %more : (!prim.list<!prim.tensor>, !prim.list<!prim.tensor>) -> ()
  aten.extend.t %names, %extra : (!prim.list<!prim.str>, !prim.list<!prim.str>) -> ()
  %n = aten.len.t %results : (!prim.list<!prim.tensor>) -> i64
  %m = aten.len.t %names : (!prim.list<!prim.str>) -> i64
  return %n, %m : i64, i64
}

// An extend by a list that something else also reads (or writes) stays:
// its elements at the extend are not the literal's.
// CHECK-LABEL: func.func @extend_by_shared_list
// CHECK: aten.extend.t
func.func @extend_by_shared_list(%arg0: !prim.tensor) -> (i64, i64) {
  %results = prim.ListConstruct %arg0 : (!prim.tensor) -> !prim.list<!prim.tensor>
  %more = prim.ListConstruct %arg0 : (!prim.tensor) -> !prim.list<!prim.tensor>
  %a = aten.append.t %more, %arg0 : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  aten.extend.t %results, %more : (!prim.list<!prim.tensor>, !prim.list<!prim.tensor>) -> ()
  %n = aten.len.t %results : (!prim.list<!prim.tensor>) -> i64
  %m = aten.len.t %more : (!prim.list<!prim.tensor>) -> i64
  return %n, %m : i64, i64
}
