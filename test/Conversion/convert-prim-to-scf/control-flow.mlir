// RUN: tsir-opt %s --convert-prim-to-scf -split-input-file | FileCheck %s

// prim.If -> scf.if on the converted types; a branch yielding a static shape
// into the dynamic result meets it through tensor.cast.
// CHECK-LABEL: func.func @if_cast
// CHECK-DAG: %[[B:.*]] = builtin.unrealized_conversion_cast %arg2 {{.*}} to tensor<?x3xf32>
// CHECK-DAG: %[[A:.*]] = builtin.unrealized_conversion_cast %arg1 {{.*}} to tensor<2x3xf32>
// CHECK: %[[IF:.*]] = scf.if %arg0 -> (tensor<?x3xf32>) {
// CHECK:   %[[CAST:.*]] = tensor.cast %[[A]] : tensor<2x3xf32> to tensor<?x3xf32>
// CHECK:   scf.yield %[[CAST]] : tensor<?x3xf32>
// CHECK: } else {
// CHECK:   scf.yield %[[B]] : tensor<?x3xf32>
// CHECK: }
// CHECK: builtin.unrealized_conversion_cast %[[IF]] : tensor<?x3xf32> to !prim.tensor<dtype = f32, sizes = [?, 3]>
func.func @if_cast(%c: i1, %a: !prim.tensor<dtype = f32, sizes = [2, 3]>, %b: !prim.tensor<dtype = f32, sizes = [?, 3]>) -> !prim.tensor<dtype = f32, sizes = [?, 3]> {
  %0 = prim.If %c -> (!prim.tensor<dtype = f32, sizes = [?, 3]>) {
    prim.Yield %a : !prim.tensor<dtype = f32, sizes = [2, 3]>
  } else {
    prim.Yield %b : !prim.tensor<dtype = f32, sizes = [?, 3]>
  }
  return %0 : !prim.tensor<dtype = f32, sizes = [?, 3]>
}

// -----

// An If without results, nested in another If's branch; scalars and
// non-tensor values (lists) pass through unchanged.
// CHECK-LABEL: func.func @if_nested
// CHECK: %[[OUT:.*]] = scf.if %arg0 -> (!prim.list<i64>) {
// CHECK:   scf.if %arg1 {
// CHECK:     prim.Print
// CHECK:   }
// CHECK:   scf.yield %arg2 : !prim.list<i64>
// CHECK: } else {
// CHECK:   scf.yield %arg2 : !prim.list<i64>
// CHECK: }
// CHECK: return %[[OUT]]
func.func @if_nested(%c: i1, %d: i1, %l: !prim.list<i64>) -> !prim.list<i64> {
  %0 = prim.If %c -> (!prim.list<i64>) {
    prim.If %d {
      prim.Print %l : !prim.list<i64>
      prim.Yield
    } else {
      prim.Yield
    }
    prim.Yield %l : !prim.list<i64>
  } else {
    prim.Yield %l : !prim.list<i64>
  }
  return %0 : !prim.list<i64>
}

// -----

// A for-loop (condition constant true on entry and in the body): scf.for
// over [0, n) with the iteration number as an i64; the constant condition
// is dropped from the yield.
// CHECK-LABEL: func.func @for_loop
// CHECK-SAME: (%[[N:.*]]: i64, %[[X:.*]]: !prim.tensor<dtype = f32, sizes = [4]>)
// CHECK: %[[T:.*]] = builtin.unrealized_conversion_cast %[[X]] {{.*}} to tensor<4xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[LB:.*]] = arith.constant 0 : index
// CHECK: %[[STEP:.*]] = arith.constant 1 : index
// CHECK: %[[UB:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK: %[[FOR:.*]]:2 = scf.for %[[IV:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] iter_args(%[[ACC:.*]] = %[[ZERO]], %[[TT:.*]] = %[[T]]) -> (i64, tensor<4xf32>) {
// CHECK:   %[[I:.*]] = arith.index_cast %[[IV]] : index to i64
// CHECK:   %[[NEXT:.*]] = arith.addi %[[ACC]], %[[I]] : i64
// CHECK:   scf.yield %[[NEXT]], %[[TT]] : i64, tensor<4xf32>
// CHECK: }
// CHECK: %[[R:.*]] = builtin.unrealized_conversion_cast %[[FOR]]#1
// CHECK: return %[[FOR]]#0, %[[R]]
func.func @for_loop(%n: i64, %x: !prim.tensor<dtype = f32, sizes = [4]>) -> (i64, !prim.tensor<dtype = f32, sizes = [4]>) {
  %true = arith.constant true
  %zero = arith.constant 0 : i64
  %0:2 = prim.Loop %n, %true, %zero, %x : i64, !prim.tensor<dtype = f32, sizes = [4]> -> (i64, !prim.tensor<dtype = f32, sizes = [4]>) {
  ^bb0(%i: i64, %acc: i64, %t: !prim.tensor<dtype = f32, sizes = [4]>):
    %1 = arith.addi %acc, %i : i64
    prim.Yield %true, %1, %t : i1, i64, !prim.tensor<dtype = f32, sizes = [4]>
  }
  return %0#0, %0#1 : i64, !prim.tensor<dtype = f32, sizes = [4]>
}

// -----

// A loop-carried tensor whose slot is less static than its initial value
// (its shape may change from one iteration to the next): the initial value
// and the yielded one are cast into the slot, and the for-loop is an
// scf.while counting to n, since canonicalization would fold the initial
// cast into an scf.for and assume the initial shape throughout.
// CHECK-LABEL: func.func @for_dynamic_slot
// CHECK: %[[INIT:.*]] = tensor.cast %{{.*}} : tensor<2xf32> to tensor<?xf32>
// CHECK: scf.while (%[[I:.*]] = %{{.*}}, %[[ARG:.*]] = %[[INIT]], %[[GO:.*]] = %{{.*}}) : (i64, tensor<?xf32>, i1) -> (i64, tensor<?xf32>) {
// CHECK:   arith.cmpi slt, %[[I]], %arg0 : i64
// CHECK: } do {
// CHECK:   %[[C:.*]] = tensor.cast %{{.*}} : tensor<3xf32> to tensor<?xf32>
// CHECK:   scf.yield %{{.*}}, %[[C]], %{{.*}} : i64, tensor<?xf32>, i1
func.func @for_dynamic_slot(%n: i64, %x: !prim.tensor<dtype = f32, sizes = [2]>, %y: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [?]> {
  %true = arith.constant true
  %0 = prim.Loop %n, %true, %x : !prim.tensor<dtype = f32, sizes = [2]> -> (!prim.tensor<dtype = f32, sizes = [?]>) {
  ^bb0(%i: i64, %t: !prim.tensor<dtype = f32, sizes = [?]>):
    prim.Yield %true, %y : i1, !prim.tensor<dtype = f32, sizes = [3]>
  }
  return %0 : !prim.tensor<dtype = f32, sizes = [?]>
}

// -----

// A Python while-loop (trip count INT64_MAX, iteration number unused):
// scf.while carrying (carried..., condition), the condition tested before
// the first iteration.
// CHECK-LABEL: func.func @while_loop
// CHECK-SAME: (%[[X:.*]]: f64, %[[C:.*]]: i1)
// CHECK: %[[W:.*]] = scf.while (%[[V:.*]] = %[[X]], %[[GO:.*]] = %[[C]]) : (f64, i1) -> f64 {
// CHECK:   scf.condition(%[[GO]]) %[[V]] : f64
// CHECK: } do {
// CHECK: ^bb0(%[[V2:.*]]: f64):
// CHECK:   %[[M:.*]] = arith.mulf %[[V2]], %{{.*}} : f64
// CHECK:   %[[LT:.*]] = arith.cmpf olt, %[[M]], %{{.*}} : f64
// CHECK:   scf.yield %[[M]], %[[LT]] : f64, i1
// CHECK: }
// CHECK: return %[[W]]
func.func @while_loop(%x: f64, %c: i1) -> f64 {
  %max = arith.constant 9223372036854775807 : i64
  %two = arith.constant 2.0 : f64
  %lim = arith.constant 100.0 : f64
  %0 = prim.Loop %max, %c, %x : f64 -> (f64) {
  ^bb0(%i: i64, %v: f64):
    %1 = arith.mulf %v, %two : f64
    %2 = arith.cmpf olt, %1, %lim : f64
    prim.Yield %2, %1 : i1, f64
  }
  return %0 : f64
}

// -----

// A loop with both a trip count and a condition: it runs while
// `i < n && condition`, counting i in the while.
// CHECK-LABEL: func.func @counted_while
// CHECK-SAME: (%[[N:.*]]: i64, %[[C:.*]]: i1)
// CHECK: %[[INIT:.*]] = arith.constant 0 : i64
// CHECK: %[[I0:.*]] = arith.constant 0 : i64
// CHECK: %[[W:.*]]:2 = scf.while (%[[I:.*]] = %[[I0]], %[[V:.*]] = %[[INIT]], %[[GO:.*]] = %[[C]]) : (i64, i64, i1) -> (i64, i64) {
// CHECK:   %[[LT:.*]] = arith.cmpi slt, %[[I]], %[[N]] : i64
// CHECK:   %[[AND:.*]] = arith.andi %[[LT]], %[[GO]] : i1
// CHECK:   scf.condition(%[[AND]]) %[[I]], %[[V]] : i64, i64
// CHECK: } do {
// CHECK: ^bb0(%[[I2:.*]]: i64, %[[V2:.*]]: i64):
// CHECK:   %[[SUM:.*]] = arith.addi %[[V2]], %[[I2]] : i64
// CHECK:   %[[COND:.*]] = arith.cmpi slt, %[[SUM]], %[[N]] : i64
// CHECK:   %[[ONE:.*]] = arith.constant 1 : i64
// CHECK:   %[[NEXT:.*]] = arith.addi %[[I2]], %[[ONE]] : i64
// CHECK:   scf.yield %[[NEXT]], %[[SUM]], %[[COND]] : i64, i64, i1
// CHECK: }
// CHECK: return %[[W]]#1
func.func @counted_while(%n: i64, %c: i1) -> i64 {
  %zero = arith.constant 0 : i64
  %0 = prim.Loop %n, %c, %zero : i64 -> (i64) {
  ^bb0(%i: i64, %v: i64):
    %1 = arith.addi %v, %i : i64
    %2 = arith.cmpi slt, %1, %n : i64
    prim.Yield %2, %1 : i1, i64
  }
  return %0 : i64
}

// -----

// A while-loop whose body reads the iteration number keeps the count even
// with trip count INT64_MAX.
// CHECK-LABEL: func.func @while_reads_iteration
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %arg0) : (i64, i64, i1) -> (i64, i64)
// CHECK: arith.cmpi slt
// CHECK: arith.andi
func.func @while_reads_iteration(%c: i1) -> i64 {
  %max = arith.constant 9223372036854775807 : i64
  %zero = arith.constant 0 : i64
  %0 = prim.Loop %max, %c, %zero : i64 -> (i64) {
  ^bb0(%i: i64, %v: i64):
    %1 = arith.addi %v, %i : i64
    %2 = arith.cmpi slt, %i, %max : i64
    prim.Yield %2, %1 : i1, i64
  }
  return %0 : i64
}

// -----

// Nested loops: a for-loop inside a while-loop's body, each lowered with
// its own semantics.
// CHECK-LABEL: func.func @nested
// CHECK: scf.while
// CHECK: } do {
// CHECK:   scf.for
// CHECK:     arith.addi
// CHECK:     scf.yield
// CHECK:   }
// CHECK:   scf.yield
func.func @nested(%n: i64, %c: i1) -> i64 {
  %max = arith.constant 9223372036854775807 : i64
  %true = arith.constant true
  %zero = arith.constant 0 : i64
  %0 = prim.Loop %max, %c, %zero : i64 -> (i64) {
  ^bb0(%i: i64, %v: i64):
    %1 = prim.Loop %n, %true, %v : i64 -> (i64) {
    ^bb1(%j: i64, %w: i64):
      %2 = arith.addi %w, %j : i64
      prim.Yield %true, %2 : i1, i64
    }
    %3 = arith.cmpi slt, %1, %n : i64
    prim.Yield %3, %1 : i1, i64
  }
  return %0 : i64
}
