// RUN: tsir-opt --prim-lower-tuples -split-input-file %s | FileCheck %s

// Unpack and index of a construct become its elements; the construct goes.
// A negative index counts from the end.
// CHECK-LABEL: func.func @unpack_and_index
// CHECK-NOT: prim.Tuple
// CHECK: return %arg1, %arg0, %arg1
func.func @unpack_and_index(%x: !prim.tensor, %y: !prim.tensor) -> (!prim.tensor, !prim.tensor, !prim.tensor) {
  %m1 = prim.Constant {value = -1 : i64} : i64
  %t = prim.TupleConstruct %x, %y : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
  %a, %b = prim.TupleUnpack %t : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor)
  %c = prim.TupleIndex %t, %m1 : (!prim.tuple<!prim.tensor, !prim.tensor>, i64) -> !prim.tensor
  return %b, %a, %c : !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// Left alone: an index out of bounds (it raises), an unknown index, a
// tuple that is a graph input; the returned tuple stays.
// CHECK-LABEL: func.func @kept
// CHECK: %[[T:.*]] = prim.TupleConstruct
// CHECK: prim.TupleIndex %[[T]], %{{.*}} :
// CHECK: prim.TupleIndex %[[T]], %arg2 :
// CHECK: prim.TupleUnpack %arg3
// CHECK: return {{.*}}, %[[T]]
func.func @kept(%x: !prim.tensor, %y: !prim.tensor, %i: i64, %in: !prim.tuple<i64, i64>) -> (!prim.tensor, !prim.tensor, i64, !prim.tuple<!prim.tensor, !prim.tensor>) {
  %two = prim.Constant {value = 2 : i64} : i64
  %t = prim.TupleConstruct %x, %y : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
  %a = prim.TupleIndex %t, %two : (!prim.tuple<!prim.tensor, !prim.tensor>, i64) -> !prim.tensor
  %b = prim.TupleIndex %t, %i : (!prim.tuple<!prim.tensor, !prim.tensor>, i64) -> !prim.tensor
  %c, %d = prim.TupleUnpack %in : (!prim.tuple<i64, i64>) -> (i64, i64)
  return %a, %b, %c, %t : !prim.tensor, !prim.tensor, i64, !prim.tuple<!prim.tensor, !prim.tensor>
}

// -----

// A construct outside a block, unpacked inside it; a tuple constant.
// CHECK-LABEL: func.func @across_blocks_and_constants
// CHECK: prim.If
// CHECK-NEXT: prim.Yield %arg0
// CHECK: %[[C:.*]] = prim.Constant {value = 7 : i64} : i64
// CHECK-NEXT: %[[D:.*]] = prim.Constant {value = 2.500000e+00 : f64} : f64
// CHECK-NEXT: return %{{.*}}, %[[C]], %[[D]]
func.func @across_blocks_and_constants(%x: !prim.tensor, %y: !prim.tensor, %c: i1) -> (!prim.tensor, i64, f64) {
  %t = prim.TupleConstruct %x, %y : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
  %r = prim.If %c -> (!prim.tensor) {
    %a, %b = prim.TupleUnpack %t : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor)
    prim.Yield %a : !prim.tensor
  } else {
    prim.Yield %y : !prim.tensor
  }
  %k = prim.Constant {value = [7 : i64, 2.5 : f64]} : !prim.tuple<i64, f64>
  %i, %f = prim.TupleUnpack %k : (!prim.tuple<i64, f64>) -> (i64, f64)
  return %r, %i, %f : !prim.tensor, i64, f64
}

// -----

// An If result built on both branches: one result per element. Its only
// use is an unpack, so no tuple is rebuilt.
// CHECK-LABEL: func.func @if_result
// CHECK: %[[R:.*]]:2 = prim.If %arg2 -> (!prim.tensor, !prim.tensor) {
// CHECK-NEXT: prim.Yield %arg0, %arg1 : !prim.tensor, !prim.tensor
// CHECK-NEXT: } else {
// CHECK-NEXT: prim.Yield %arg1, %arg0 : !prim.tensor, !prim.tensor
// CHECK-NOT: prim.Tuple
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @if_result(%x: !prim.tensor, %y: !prim.tensor, %c: i1) -> (!prim.tensor, !prim.tensor) {
  %t = prim.If %c -> (!prim.tuple<!prim.tensor, !prim.tensor>) {
    %a = prim.TupleConstruct %x, %y : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
    prim.Yield %a : !prim.tuple<!prim.tensor, !prim.tensor>
  } else {
    %b = prim.TupleConstruct %y, %x : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
    prim.Yield %b : !prim.tuple<!prim.tensor, !prim.tensor>
  }
  %p, %q = prim.TupleUnpack %t : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor)
  return %p, %q : !prim.tensor, !prim.tensor
}

// -----

// Nested tuples flatten recursively (TorchScript 1.13's LowerAllTuples
// fails on this one); a returned tuple is rebuilt after the If.
// CHECK-LABEL: func.func @nested
// CHECK: %[[R:.*]]:3 = prim.If %arg2 -> (!prim.tensor, !prim.tensor, !prim.tensor) {
// CHECK-NEXT: prim.Yield %arg0, %arg0, %arg1
// CHECK-NEXT: } else {
// CHECK-NEXT: prim.Yield %arg1, %arg0, %arg1
// CHECK: %[[IN:.*]] = prim.TupleConstruct %[[R]]#1, %[[R]]#2
// CHECK-NEXT: %[[OUT:.*]] = prim.TupleConstruct %[[R]]#0, %[[IN]]
// CHECK-NEXT: return %[[R]]#2, %[[OUT]]
func.func @nested(%x: !prim.tensor, %y: !prim.tensor, %c: i1) -> (!prim.tensor, !prim.tuple<!prim.tensor, !prim.tuple<!prim.tensor, !prim.tensor>>) {
  %k = prim.TupleConstruct %x, %y : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
  %t = prim.If %c -> (!prim.tuple<!prim.tensor, !prim.tuple<!prim.tensor, !prim.tensor>>) {
    %a = prim.TupleConstruct %x, %k : (!prim.tensor, !prim.tuple<!prim.tensor, !prim.tensor>) -> !prim.tuple<!prim.tensor, !prim.tuple<!prim.tensor, !prim.tensor>>
    prim.Yield %a : !prim.tuple<!prim.tensor, !prim.tuple<!prim.tensor, !prim.tensor>>
  } else {
    %b = prim.TupleConstruct %y, %k : (!prim.tensor, !prim.tuple<!prim.tensor, !prim.tensor>) -> !prim.tuple<!prim.tensor, !prim.tuple<!prim.tensor, !prim.tensor>>
    prim.Yield %b : !prim.tuple<!prim.tensor, !prim.tuple<!prim.tensor, !prim.tensor>>
  }
  %p, %q = prim.TupleUnpack %t : (!prim.tuple<!prim.tensor, !prim.tuple<!prim.tensor, !prim.tensor>>) -> (!prim.tensor, !prim.tuple<!prim.tensor, !prim.tensor>)
  %e, %f = prim.TupleUnpack %q : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor)
  return %f, %t : !prim.tensor, !prim.tuple<!prim.tensor, !prim.tuple<!prim.tensor, !prim.tensor>>
}

// -----

// An If result not built on one branch (a graph input there): kept.
// CHECK-LABEL: func.func @if_not_explicit
// CHECK: %[[T:.*]] = prim.If %arg2 -> (!prim.tuple<!prim.tensor, !prim.tensor>)
// CHECK: prim.TupleUnpack %[[T]]
func.func @if_not_explicit(%x: !prim.tensor, %in: !prim.tuple<!prim.tensor, !prim.tensor>, %c: i1) -> !prim.tensor {
  %t = prim.If %c -> (!prim.tuple<!prim.tensor, !prim.tensor>) {
    %a = prim.TupleConstruct %x, %x : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
    prim.Yield %a : !prim.tuple<!prim.tensor, !prim.tensor>
  } else {
    prim.Yield %in : !prim.tuple<!prim.tensor, !prim.tensor>
  }
  %p, %q = prim.TupleUnpack %t : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor)
  return %q : !prim.tensor
}

// -----

// A loop-carried tuple built before the loop and in the body: one carried
// value per element; the returned tuple is rebuilt after the loop.
// CHECK-LABEL: func.func @loop_carried
// CHECK: %[[L:.*]]:2 = prim.Loop %arg2, %{{.*}}, %arg1, %arg0 : !prim.tensor, !prim.tensor -> (!prim.tensor, !prim.tensor) {
// CHECK-NEXT: ^bb0(%{{.*}}: i64, %[[U:.*]]: !prim.tensor, %[[V:.*]]: !prim.tensor):
// CHECK-NEXT: %[[W:.*]] = aten.add.Tensor %[[U]], %[[V]]
// CHECK-NEXT: prim.Yield %{{.*}}, %[[W]], %[[U]] : i1, !prim.tensor, !prim.tensor
// CHECK: %[[T:.*]] = prim.TupleConstruct %[[L]]#0, %[[L]]#1
// CHECK-NEXT: return %[[L]]#1, %[[T]]
func.func @loop_carried(%x: !prim.tensor, %y: !prim.tensor, %n: i64) -> (!prim.tensor, !prim.tuple<!prim.tensor, !prim.tensor>) {
  %true = prim.Constant {value = true} : i1
  %one = prim.Constant {value = 1 : i64} : i64
  %z = prim.TupleConstruct %y, %x : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
  %r = prim.Loop %n, %true, %z : !prim.tuple<!prim.tensor, !prim.tensor> -> (!prim.tuple<!prim.tensor, !prim.tensor>) {
  ^bb0(%i: i64, %acc: !prim.tuple<!prim.tensor, !prim.tensor>):
    %u, %v = prim.TupleUnpack %acc : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor)
    %w = aten.add.Tensor %u, %v, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
    %nt = prim.TupleConstruct %w, %u : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
    prim.Yield %true, %nt : i1, !prim.tuple<!prim.tensor, !prim.tensor>
  }
  %e = prim.TupleIndex %r, %one : (!prim.tuple<!prim.tensor, !prim.tensor>, i64) -> !prim.tensor
  return %e, %r : !prim.tensor, !prim.tuple<!prim.tensor, !prim.tensor>
}

// -----

// The body yields either the carried tuple itself or a new one, through
// an If: both flatten (the If once the loop has).
// CHECK-LABEL: func.func @loop_through_if
// CHECK: %[[L:.*]]:2 = prim.Loop %arg2, %{{.*}}, %arg0, %arg1 : !prim.tensor, !prim.tensor -> (!prim.tensor, !prim.tensor) {
// CHECK-NEXT: ^bb0(%{{.*}}: i64, %[[U:.*]]: !prim.tensor, %[[V:.*]]: !prim.tensor):
// CHECK-NEXT: %[[R:.*]]:2 = prim.If %arg3 -> (!prim.tensor, !prim.tensor) {
// CHECK-NEXT: prim.Yield %[[U]], %[[V]]
// CHECK-NEXT: } else {
// CHECK-NEXT: prim.Yield %[[V]], %[[U]]
// CHECK-NEXT: }
// CHECK-NEXT: prim.Yield %{{.*}}, %[[R]]#0, %[[R]]#1
// CHECK-NOT: prim.Tuple
// CHECK: return %[[L]]#0
func.func @loop_through_if(%x: !prim.tensor, %y: !prim.tensor, %n: i64, %c: i1) -> !prim.tensor {
  %true = prim.Constant {value = true} : i1
  %z = prim.TupleConstruct %x, %y : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
  %r = prim.Loop %n, %true, %z : !prim.tuple<!prim.tensor, !prim.tensor> -> (!prim.tuple<!prim.tensor, !prim.tensor>) {
  ^bb0(%i: i64, %acc: !prim.tuple<!prim.tensor, !prim.tensor>):
    %s = prim.If %c -> (!prim.tuple<!prim.tensor, !prim.tensor>) {
      prim.Yield %acc : !prim.tuple<!prim.tensor, !prim.tensor>
    } else {
      %u, %v = prim.TupleUnpack %acc : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor)
      %swapped = prim.TupleConstruct %v, %u : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
      prim.Yield %swapped : !prim.tuple<!prim.tensor, !prim.tensor>
    }
    prim.Yield %true, %s : i1, !prim.tuple<!prim.tensor, !prim.tensor>
  }
  %e, %f = prim.TupleUnpack %r : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor)
  return %e : !prim.tensor
}

// -----

// Loop-carried tuples that are not built explicitly stay: one whose
// initial value is a graph input, one the body gets from an opaque op.
// CHECK-LABEL: func.func @loop_not_explicit
// CHECK: prim.Loop %arg2, %{{.*}}, %arg1 : !prim.tuple<!prim.tensor, !prim.tensor>
// CHECK: prim.Loop %arg2, %{{.*}}, %{{.*}} : !prim.tuple<!prim.tensor, !prim.tensor>
// CHECK: prim.Generic "my::make_pair"
func.func @loop_not_explicit(%x: !prim.tensor, %in: !prim.tuple<!prim.tensor, !prim.tensor>, %n: i64) -> (!prim.tuple<!prim.tensor, !prim.tensor>, !prim.tuple<!prim.tensor, !prim.tensor>) {
  %true = prim.Constant {value = true} : i1
  %r = prim.Loop %n, %true, %in : !prim.tuple<!prim.tensor, !prim.tensor> -> (!prim.tuple<!prim.tensor, !prim.tensor>) {
  ^bb0(%i: i64, %acc: !prim.tuple<!prim.tensor, !prim.tensor>):
    %u, %v = prim.TupleUnpack %acc : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor)
    %nt = prim.TupleConstruct %v, %u : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
    prim.Yield %true, %nt : i1, !prim.tuple<!prim.tensor, !prim.tensor>
  }
  %z = prim.TupleConstruct %x, %x : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
  %s = prim.Loop %n, %true, %z : !prim.tuple<!prim.tensor, !prim.tensor> -> (!prim.tuple<!prim.tensor, !prim.tensor>) {
  ^bb0(%i: i64, %acc: !prim.tuple<!prim.tensor, !prim.tensor>):
    %nt = prim.Generic "my::make_pair"(%acc) : (!prim.tuple<!prim.tensor, !prim.tensor>) -> !prim.tuple<!prim.tensor, !prim.tensor>
    prim.Yield %true, %nt : i1, !prim.tuple<!prim.tensor, !prim.tensor>
  }
  return %r, %s : !prim.tuple<!prim.tensor, !prim.tensor>, !prim.tuple<!prim.tensor, !prim.tensor>
}

// -----

// A tuple carried through nested loops; the other carried value stays.
// CHECK-LABEL: func.func @nested_loops
// CHECK: prim.Loop %arg1, %{{.*}}, %arg0, %arg0, %arg0 : !prim.tensor, !prim.tensor, !prim.tensor
// CHECK: prim.Loop %arg1, %{{.*}}, %{{.*}}, %{{.*}} : !prim.tensor, !prim.tensor
// CHECK-NOT: prim.Tuple
// CHECK: return
func.func @nested_loops(%x: !prim.tensor, %n: i64) -> !prim.tensor {
  %true = prim.Constant {value = true} : i1
  %one = prim.Constant {value = 1 : i64} : i64
  %z = prim.TupleConstruct %x, %x : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
  %r, %k = prim.Loop %n, %true, %z, %x : !prim.tuple<!prim.tensor, !prim.tensor>, !prim.tensor -> (!prim.tuple<!prim.tensor, !prim.tensor>, !prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tuple<!prim.tensor, !prim.tensor>, %other: !prim.tensor):
    %s = prim.Loop %n, %true, %acc : !prim.tuple<!prim.tensor, !prim.tensor> -> (!prim.tuple<!prim.tensor, !prim.tensor>) {
    ^bb0(%j: i64, %in: !prim.tuple<!prim.tensor, !prim.tensor>):
      %u, %v = prim.TupleUnpack %in : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor)
      %w = aten.add.Tensor %u, %v, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
      %nt = prim.TupleConstruct %v, %w : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
      prim.Yield %true, %nt : i1, !prim.tuple<!prim.tensor, !prim.tensor>
    }
    %o = aten.neg %other : (!prim.tensor) -> !prim.tensor
    prim.Yield %true, %s, %o : i1, !prim.tuple<!prim.tensor, !prim.tensor>, !prim.tensor
  }
  %a, %b = prim.TupleUnpack %r : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor)
  %sum = aten.add.Tensor %b, %k, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  return %sum : !prim.tensor
}

// -----

// A NamedTuple is a tuple: its construct, unpack and index lower the same.
// CHECK-LABEL: func.func @named_tuple
// CHECK-NOT: prim.Tuple
// CHECK: return %arg1, %arg0
func.func @named_tuple(%x: !prim.tensor, %k: i64) -> (i64, !prim.tensor) {
  %zero = prim.Constant {value = 0 : i64} : i64
  %t = prim.TupleConstruct %x, %k : (!prim.tensor, i64) -> !prim.tuple<named a: !prim.tensor, b: i64 = "3">
  %a, %b = prim.TupleUnpack %t : (!prim.tuple<named a: !prim.tensor, b: i64 = "3">) -> (!prim.tensor, i64)
  %c = prim.TupleIndex %t, %zero : (!prim.tuple<named a: !prim.tensor, b: i64 = "3">, i64) -> !prim.tensor
  return %b, %c : i64, !prim.tensor
}
