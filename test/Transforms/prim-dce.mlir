// RUN: tsir-opt --prim-dce -split-input-file %s | FileCheck %s
// RUN: tsir-opt --prim-dce -split-input-file --mlir-print-debuginfo %s | FileCheck %s --check-prefix=LOC

// Unused pure ops go, chains of them too; unused graph inputs stay.
// CHECK-LABEL: func.func @unused_chain
// CHECK-SAME: (%[[X:.*]]: !prim.tensor, %{{.*}}: i64)
// CHECK-NEXT: %[[R:.*]] = aten.relu %[[X]]
// CHECK-NEXT: return %[[R]]
func.func @unused_chain(%x: !prim.tensor, %unused: i64) -> !prim.tensor {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %r = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %a = aten.mul.Tensor %x, %x : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %b = aten.add.Tensor %a, %a, %c1 : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %s = aten.add.int %c1, %c1 : (i64, i64) -> i64
  return %r : !prim.tensor
}

// -----

// Side effects stay, with what they use: print, raise, SetAttr, calls and
// unknown nodes.
// CHECK-LABEL: func.func @side_effects
// CHECK: %[[R:.*]] = aten.relu
// CHECK: prim.Print %[[R]]
// CHECK: prim.RaiseException
// CHECK: prim.SetAttr
// CHECK: prim.CallFunction
// CHECK: prim.Generic "my_ns::magic"
// CHECK: aten.warn
func.func @side_effects(%x: !prim.tensor, %self: !prim.class<"M">,
                        %fn: !prim.function) {
  %msg = prim.Constant {value = "boom"} : !prim.str
  %r = aten.relu %x : (!prim.tensor) -> !prim.tensor
  prim.Print %r : !prim.tensor
  prim.RaiseException %msg : !prim.str
  prim.SetAttr %self, %x {name = "w"} : !prim.class<"M">, !prim.tensor
  %c = prim.CallFunction %fn, %x : (!prim.function, !prim.tensor) -> !prim.tensor
  %g = prim.Generic "my_ns::magic"(%x) : (!prim.tensor) -> !prim.tensor
  %i = prim.Constant {value = 2 : i64} : i64
  aten.warn %msg, %i : (!prim.str, i64) -> ()
  return
}

// -----

// A write to a graph input is seen by the caller: it stays although its
// result is unused. So does one to a value read out of a container.
// CHECK-LABEL: func.func @writes_to_inputs
// CHECK: aten.add_.Scalar %arg0
// CHECK: %[[E:.*]] = aten.__getitem__.t %arg1
// CHECK: aten.relu_ %[[E]]
func.func @writes_to_inputs(%x: !prim.tensor, %l: !prim.list<!prim.tensor>) {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %w = aten.add_.Scalar %x, %c1, %c1 : (!prim.tensor, i64, i64) -> !prim.tensor
  %e = aten.__getitem__.t %l, %c1 : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %r = aten.relu_ %e : (!prim.tensor) -> !prim.tensor
  return
}

// -----

// A write through a view of a returned value stays, and so does the view.
// CHECK-LABEL: func.func @write_through_view
// CHECK: %[[A:.*]] = aten.relu
// CHECK: %[[V:.*]] = aten.view %[[A]]
// CHECK: aten.add_.Scalar %[[V]]
// CHECK: return %[[A]]
func.func @write_through_view(%x: !prim.tensor) -> !prim.tensor {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %shape = prim.Constant {value = [-1]} : !prim.list<i64>
  %a = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %v = aten.view %a, %shape : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  %w = aten.add_.Scalar %v, %c1, %c1 : (!prim.tensor, i64, i64) -> !prim.tensor
  return %a : !prim.tensor
}

// -----

// Writes are ordered, as in TorchScript: a write to a fresh tensor after
// its last use is dead, and so is one to a tensor nothing uses.
// CHECK-LABEL: func.func @write_after_last_use
// CHECK: %[[A:.*]] = aten.relu
// CHECK-NEXT: %[[B:.*]] = aten.add.Tensor %[[A]], %[[A]]
// CHECK-NEXT: return %[[B]]
func.func @write_after_last_use(%x: !prim.tensor) -> !prim.tensor {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %a = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %b = aten.add.Tensor %a, %a, %c1 : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %w = aten.add_.Scalar %a, %c1, %c1 : (!prim.tensor, i64, i64) -> !prim.tensor
  %f = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %w2 = aten.relu_ %f : (!prim.tensor) -> !prim.tensor
  return %b : !prim.tensor
}

// -----

// A write before a use of the written value stays.
// CHECK-LABEL: func.func @write_before_use
// CHECK: %[[A:.*]] = aten.relu
// CHECK-NEXT: aten.add_.Scalar %[[A]]
// CHECK-NEXT: %[[B:.*]] = aten.add.Tensor %[[A]], %[[A]]
func.func @write_before_use(%x: !prim.tensor) -> !prim.tensor {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %a = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %w = aten.add_.Scalar %a, %c1, %c1 : (!prim.tensor, i64, i64) -> !prim.tensor
  %b = aten.add.Tensor %a, %a, %c1 : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  return %b : !prim.tensor
}

// -----

// As in TorchScript, side-effecting ops are marked before the backward walk:
// the write after `print(a)` stays.
// CHECK-LABEL: func.func @print_then_write
// CHECK: prim.Print
// CHECK-NEXT: aten.add_.Scalar
func.func @print_then_write(%x: !prim.tensor) {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %a = aten.relu %x : (!prim.tensor) -> !prim.tensor
  prim.Print %a : !prim.tensor
  %w = aten.add_.Scalar %a, %c1, %c1 : (!prim.tensor, i64, i64) -> !prim.tensor
  return
}

// -----

// A fresh list that only gets appended to is dead.
// CHECK-LABEL: func.func @dead_list
// CHECK-NEXT: return
func.func @dead_list(%x: !prim.tensor) {
  %l = prim.ListConstruct %x : (!prim.tensor) -> !prim.list<!prim.tensor>
  %a = aten.append.t %l, %x : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  return
}

// -----

// If: unused results go with what computes them in the branches; dead ops
// inside the branches go; the results used stay.
// CHECK-LABEL: func.func @if_results
// CHECK: %[[R:.*]] = prim.If %{{.*}} -> (!prim.tensor) {
// CHECK-NEXT:   %[[T:.*]] = aten.relu
// CHECK-NEXT:   prim.Yield %[[T]] : !prim.tensor
// CHECK-NEXT: } else {
// CHECK-NEXT:   prim.Yield %arg0 : !prim.tensor
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]
func.func @if_results(%x: !prim.tensor, %c: i1) -> !prim.tensor {
  %r:2 = prim.If %c -> (!prim.tensor, !prim.tensor) {
    %t = aten.relu %x : (!prim.tensor) -> !prim.tensor
    %u = aten.tanh %x : (!prim.tensor) -> !prim.tensor
    %dead = aten.sin %x : (!prim.tensor) -> !prim.tensor
    prim.Yield %t, %u : !prim.tensor, !prim.tensor
  } else {
    %s = aten.sigmoid %x : (!prim.tensor) -> !prim.tensor
    prim.Yield %x, %s : !prim.tensor, !prim.tensor
  }
  return %r#0 : !prim.tensor
}

// -----

// An If nothing uses goes whole; one holding a side effect stays, without
// its results.
// CHECK-LABEL: func.func @if_dead_or_effectful
// CHECK-NOT: aten.tanh
// CHECK: prim.If %arg1 {
// CHECK-NEXT: prim.Print
// CHECK-NEXT: } else {
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @if_dead_or_effectful(%x: !prim.tensor, %c: i1) {
  %dead = prim.If %c -> (!prim.tensor) {
    %t = aten.tanh %x : (!prim.tensor) -> !prim.tensor
    prim.Yield %t : !prim.tensor
  } else {
    prim.Yield %x : !prim.tensor
  }
  %kept = prim.If %c -> (!prim.tensor) {
    prim.Print %x : !prim.tensor
    %t = aten.tanh %x : (!prim.tensor) -> !prim.tensor
    prim.Yield %t : !prim.tensor
  } else {
    prim.Yield %x : !prim.tensor
  }
  return
}

// -----

// A write inside an If to a value used after it stays.
// CHECK-LABEL: func.func @if_write
// CHECK: %[[A:.*]] = aten.relu
// CHECK: prim.If
// CHECK-NEXT: aten.add_.Scalar %[[A]]
// CHECK: return %[[A]]
func.func @if_write(%x: !prim.tensor, %c: i1) -> !prim.tensor {
  %c1 = prim.Constant {value = 1 : i64} : i64
  %a = aten.relu %x : (!prim.tensor) -> !prim.tensor
  prim.If %c {
    %w = aten.add_.Scalar %a, %c1, %c1 : (!prim.tensor, i64, i64) -> !prim.tensor
    prim.Yield
  } else {
    prim.Yield
  }
  return %a : !prim.tensor
}

// -----

// Loop: a carried value whose result is unused and whose body argument only
// feeds its own next value is dead (with its init operand); the others stay.
// CHECK-LABEL: func.func @loop_carried
// CHECK-NOT: aten.add.int
// CHECK: %[[L:.*]] = prim.Loop %arg1, %{{.*}}, %arg0 : !prim.tensor -> (!prim.tensor) {
// CHECK-NEXT: ^bb0(%{{.*}}: i64, %[[ACC:.*]]: !prim.tensor):
// CHECK-NEXT:   %[[N:.*]] = aten.mul.Tensor %[[ACC]], %[[ACC]]
// CHECK-NEXT:   prim.Yield %{{.*}}, %[[N]] : i1, !prim.tensor
// CHECK-NEXT: }
// CHECK-NEXT: return %[[L]]
func.func @loop_carried(%x: !prim.tensor, %n: i64) -> !prim.tensor {
  %true = prim.Constant {value = true} : i1
  %k0 = prim.Constant {value = 0 : i64} : i64
  %c1 = prim.Constant {value = 1 : i64} : i64
  %r:2 = prim.Loop %n, %true, %k0, %x : i64, !prim.tensor -> (i64, !prim.tensor) {
  ^bb0(%i: i64, %k: i64, %acc: !prim.tensor):
    %k2 = aten.add.int %k, %c1 : (i64, i64) -> i64
    %next = aten.mul.Tensor %acc, %acc : (!prim.tensor, !prim.tensor) -> !prim.tensor
    prim.Yield %true, %k2, %next : i1, i64, !prim.tensor
  }
  return %r#1 : !prim.tensor
}

// -----

// A carried value whose result is unused stays when its body argument feeds
// something live (here another carried value, across iterations).
// CHECK-LABEL: func.func @loop_carried_feeds_live
// CHECK: prim.Loop %arg1, %{{.*}}, %{{.*}}, %arg0 : i64, !prim.tensor -> (i64, !prim.tensor)
// CHECK: aten.add.int
// CHECK: aten.mul.Scalar
func.func @loop_carried_feeds_live(%x: !prim.tensor, %n: i64) -> !prim.tensor {
  %true = prim.Constant {value = true} : i1
  %k0 = prim.Constant {value = 0 : i64} : i64
  %c1 = prim.Constant {value = 1 : i64} : i64
  %r:2 = prim.Loop %n, %true, %k0, %x : i64, !prim.tensor -> (i64, !prim.tensor) {
  ^bb0(%i: i64, %k: i64, %acc: !prim.tensor):
    %k2 = aten.add.int %k, %c1 : (i64, i64) -> i64
    %next = aten.mul.Scalar %acc, %k : (!prim.tensor, i64) -> !prim.tensor
    prim.Yield %true, %k2, %next : i1, i64, !prim.tensor
  }
  return %r#1 : !prim.tensor
}

// -----

// A loop whose results are unused and that does nothing visible goes whole;
// one that prints stays, without its dead carried value, and the condition
// of a while loop stays with it.
// CHECK-LABEL: func.func @loop_dead_or_effectful
// CHECK-NOT: aten.tanh
// CHECK: prim.Loop %arg1, %{{.*}} {
// CHECK-NEXT: ^bb0(%[[I:.*]]: i64):
// CHECK-NEXT:   prim.Print %[[I]]
// CHECK-NEXT:   %[[C:.*]] = aten.lt.int %[[I]]
// CHECK-NEXT:   prim.Yield %[[C]] : i1
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @loop_dead_or_effectful(%x: !prim.tensor, %n: i64) {
  %true = prim.Constant {value = true} : i1
  %c3 = prim.Constant {value = 3 : i64} : i64
  %dead = prim.Loop %n, %true, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor):
    %t = aten.tanh %acc : (!prim.tensor) -> !prim.tensor
    prim.Yield %true, %t : i1, !prim.tensor
  }
  %kept = prim.Loop %n, %true, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor):
    prim.Print %i : i64
    %t = aten.tanh %acc : (!prim.tensor) -> !prim.tensor
    %more = aten.lt.int %i, %c3 : (i64, i64) -> i1
    prim.Yield %more, %t : i1, !prim.tensor
  }
  return
}

// -----

// A write at the bottom of a loop body to a value read at its top is live:
// the next iteration reads it (TorchScript marks loops until nothing
// changes).
// CHECK-LABEL: func.func @loop_write_read_next_iteration
// CHECK: %[[A:.*]] = aten.relu
// CHECK: prim.Loop
// CHECK: aten.add.Tensor %{{.*}}, %[[A]]
// CHECK-NEXT: aten.add_.Scalar %[[A]]
func.func @loop_write_read_next_iteration(%x: !prim.tensor, %n: i64) -> !prim.tensor {
  %true = prim.Constant {value = true} : i1
  %c1 = prim.Constant {value = 1 : i64} : i64
  %a = aten.relu %x : (!prim.tensor) -> !prim.tensor
  %tot = prim.Loop %n, %true, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor):
    %next = aten.add.Tensor %acc, %a, %c1 : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
    %w = aten.add_.Scalar %a, %c1, %c1 : (!prim.tensor, i64, i64) -> !prim.tensor
    prim.Yield %true, %next : i1, !prim.tensor
  }
  return %tot : !prim.tensor
}

// -----

// Nested blocks: dead code in an If inside a loop goes, a dead carried value
// of an inner loop goes, the live chain stays.
// CHECK-LABEL: func.func @nested
// CHECK: prim.Loop %arg1, %{{.*}}, %arg0 : !prim.tensor -> (!prim.tensor) {
// CHECK: prim.If %arg2 -> (!prim.tensor) {
// CHECK-NEXT: aten.relu
// CHECK-NEXT: prim.Yield
// CHECK-NEXT: } else {
// CHECK-NEXT: prim.Yield
// CHECK-NEXT: }
// CHECK-NOT: aten.sin
// CHECK-NOT: aten.add.int
// CHECK: return
func.func @nested(%x: !prim.tensor, %n: i64, %c: i1) -> !prim.tensor {
  %true = prim.Constant {value = true} : i1
  %k0 = prim.Constant {value = 0 : i64} : i64
  %c1 = prim.Constant {value = 1 : i64} : i64
  %r = prim.Loop %n, %true, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor):
    %y:2 = prim.If %c -> (!prim.tensor, !prim.tensor) {
      %t = aten.relu %acc : (!prim.tensor) -> !prim.tensor
      %s = aten.sin %acc : (!prim.tensor) -> !prim.tensor
      prim.Yield %t, %s : !prim.tensor, !prim.tensor
    } else {
      prim.Yield %acc, %acc : !prim.tensor, !prim.tensor
    }
    %inner = prim.Loop %n, %true, %k0 : i64 -> (i64) {
    ^bb1(%j: i64, %k: i64):
      %k2 = aten.add.int %k, %c1 : (i64, i64) -> i64
      prim.Yield %true, %k2 : i1, i64
    }
    prim.Yield %true, %y#0 : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// The names of the results kept stay in the location.
// LOC-LABEL: func.func @names
// LOC: prim.If
// LOC: } loc(#[[LOC:.*]])
// LOC: #[[LOC]] = #prim.node<"b.1" at "g.txt":3:4>
func.func @names(%x: !prim.tensor, %c: i1) -> !prim.tensor {
  %r:2 = prim.If %c -> (!prim.tensor, !prim.tensor) {
    prim.Yield %x, %x : !prim.tensor, !prim.tensor
  } else {
    prim.Yield %x, %x : !prim.tensor, !prim.tensor
  } loc(fused["a.1", "b.1", "g.txt":3:4])
  return %r#1 : !prim.tensor
}
