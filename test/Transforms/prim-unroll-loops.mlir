// RUN: tsir-opt --prim-unroll-loops -split-input-file %s | FileCheck %s
// RUN: tsir-opt --prim-unroll-loops="max-body-size=3 unroll-factor=2 full-unroll-limit=4" -split-input-file %s | FileCheck %s --check-prefix=SMALL

// A constant trip count below 64 unrolls fully; the iteration number of
// copy k is the constant k and the carried value is threaded through.
// CHECK-LABEL: func.func @full_unroll
// CHECK-NOT: prim.Loop
// CHECK: %[[C0:.*]] = prim.Constant {value = 0 : i64} : i64
// CHECK: %[[A0:.*]] = aten.add.Scalar %arg0, %[[C0]], %{{.*}}
// CHECK: %[[C1:.*]] = prim.Constant {value = 1 : i64} : i64
// CHECK: %[[A1:.*]] = aten.add.Scalar %[[A0]], %[[C1]], %{{.*}}
// CHECK: %[[C2:.*]] = prim.Constant {value = 2 : i64} : i64
// CHECK: %[[A2:.*]] = aten.add.Scalar %[[A1]], %[[C2]], %{{.*}}
// CHECK-NOT: aten.add.Scalar
// CHECK: return %[[A2]]
func.func @full_unroll(%x: !prim.tensor) -> !prim.tensor {
  %t = prim.Constant {value = true} : i1
  %n = prim.Constant {value = 3 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %r = prim.Loop %n, %t, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %a: !prim.tensor):
    %b = aten.add.Scalar %a, %i, %one : (!prim.tensor, i64, i64) -> !prim.tensor
    prim.Yield %t, %b : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// Trip counts 0 and below: the loop goes, its results are its inputs.
// CHECK-LABEL: func.func @zero_and_negative_trips
// CHECK-NOT: prim.Loop
// CHECK-NOT: aten.neg
// CHECK: return %arg0, %arg1
func.func @zero_and_negative_trips(%x: !prim.tensor, %y: !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  %t = prim.Constant {value = true} : i1
  %zero = prim.Constant {value = 0 : i64} : i64
  %minus = prim.Constant {value = -5 : i64} : i64
  %r = prim.Loop %zero, %t, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %a: !prim.tensor):
    %b = aten.neg %a : (!prim.tensor) -> !prim.tensor
    prim.Yield %t, %b : i1, !prim.tensor
  }
  %s = prim.Loop %minus, %t, %y : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %a: !prim.tensor):
    %b = aten.neg %a : (!prim.tensor) -> !prim.tensor
    prim.Yield %t, %b : i1, !prim.tensor
  }
  return %r, %s : !prim.tensor, !prim.tensor
}

// -----

// A non-constant trip count: a main loop of n / 8 iterations with 8 copies
// of the body, then the original loop as the epilogue for n - (n / 8) * 8.
// The count is clamped at 0 first (n * int(n >= 0)), so that a negative n
// runs neither loop. The iteration number is j * 8 + k in copy k of main
// iteration j, and (n / 8) * 8 + i in the epilogue.
// CHECK-LABEL: func.func @partial_unroll
// CHECK-SAME: (%[[X:.*]]: !prim.tensor, %[[N:.*]]: i64)
// CHECK: %[[ZERO:.*]] = prim.Constant {value = 0 : i64} : i64
// CHECK: %[[GE:.*]] = aten.ge.int %[[N]], %[[ZERO]]
// CHECK: %[[FLAG:.*]] = aten.Int.bool %[[GE]]
// CHECK: %[[COUNT:.*]] = aten.mul.int %[[N]], %[[FLAG]]
// CHECK: %[[EIGHT:.*]] = prim.Constant {value = 8 : i64} : i64
// CHECK: %[[MAIN:.*]] = aten.floordiv.int %[[COUNT]], %[[EIGHT]]
// CHECK: %[[DONE:.*]] = aten.mul.int %[[MAIN]], %[[EIGHT]]
// CHECK: %[[REST:.*]] = aten.sub.int %[[COUNT]], %[[DONE]]
// CHECK: %[[R:.*]] = prim.Loop %[[MAIN]], %{{.*}}, %[[X]]
// CHECK-NEXT: ^bb0(%[[J:.*]]: i64, %[[A:.*]]: !prim.tensor):
// CHECK-NEXT: %[[BASE:.*]] = aten.mul.int %[[J]], %[[EIGHT]]
// CHECK-NEXT: %[[B0:.*]] = aten.add.Scalar %[[A]], %[[BASE]]
// CHECK-NEXT: %[[K1:.*]] = prim.Constant {value = 1 : i64}
// CHECK-NEXT: %[[I1:.*]] = aten.add.int %[[BASE]], %[[K1]]
// CHECK-NEXT: %[[B1:.*]] = aten.add.Scalar %[[B0]], %[[I1]]
// CHECK-COUNT-6: aten.add.Scalar
// CHECK-NOT: aten.add.Scalar
// CHECK: prim.Yield
// CHECK: %[[E:.*]] = prim.Loop %[[REST]], %{{.*}}, %[[R]]
// CHECK-NEXT: ^bb0(%[[I:.*]]: i64, %[[EA:.*]]: !prim.tensor):
// CHECK-NEXT: %[[EI:.*]] = aten.add.int %[[DONE]], %[[I]]
// CHECK-NEXT: aten.add.Scalar %[[EA]], %[[EI]]
// CHECK: return %[[E]]
func.func @partial_unroll(%x: !prim.tensor, %n: i64) -> !prim.tensor {
  %t = prim.Constant {value = true} : i1
  %one = prim.Constant {value = 1 : i64} : i64
  %r = prim.Loop %n, %t, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %a: !prim.tensor):
    %b = aten.add.Scalar %a, %i, %one : (!prim.tensor, i64, i64) -> !prim.tensor
    prim.Yield %t, %b : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// The corpus's loop_square: the trip count is a size, never negative, so
// there is no clamp; the body does not use the iteration number, so no
// counter arithmetic either.
// CHECK-LABEL: func.func @loop_square
// CHECK: %[[SIZE:.*]] = aten.size.int
// CHECK-NOT: aten.ge.int
// CHECK: %[[MAIN:.*]] = aten.floordiv.int %[[SIZE]], %[[EIGHT:.*]] :
// CHECK: %[[DONE:.*]] = aten.mul.int %[[MAIN]], %[[EIGHT]]
// CHECK: %[[REST:.*]] = aten.sub.int %[[SIZE]], %[[DONE]]
// CHECK: %[[R:.*]] = prim.Loop %[[MAIN]], %{{.*}}, %arg0
// CHECK-COUNT-8: aten.mul.Tensor
// CHECK-NEXT: prim.Yield
// CHECK: %[[E:.*]] = prim.Loop %[[REST]], %{{.*}}, %[[R]]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: aten.mul.Tensor
// CHECK-NEXT: prim.Yield
// CHECK: return %[[E]]
func.func @loop_square(%arg0: !prim.tensor) -> !prim.tensor {
  %0 = prim.Constant {value = true} : i1
  %1 = prim.Constant {value = 0 : i64} : i64
  %2 = aten.size.int %arg0, %1 : (!prim.tensor, i64) -> i64
  %3 = prim.Loop %2, %0, %arg0 : !prim.tensor -> (!prim.tensor) {
  ^bb0(%arg1: i64, %arg2: !prim.tensor):
    %4 = aten.mul.Tensor %arg2, %arg2 : (!prim.tensor, !prim.tensor) -> !prim.tensor
    prim.Yield %0, %4 : i1, !prim.tensor
  }
  return %3 : !prim.tensor
}

// -----

// 64 is not below the full-unroll limit: unrolled by 8 with an epilogue,
// the constant count needing no clamp.
// CHECK-LABEL: func.func @constant_64
// CHECK-NOT: aten.ge.int
// CHECK: %[[MAIN:.*]] = aten.floordiv.int
// CHECK: prim.Loop %[[MAIN]]
// CHECK-COUNT-8: aten.neg
// CHECK: prim.Loop
// CHECK-COUNT-1: aten.neg
// CHECK-NOT: aten.neg
func.func @constant_64(%x: !prim.tensor) -> !prim.tensor {
  %t = prim.Constant {value = true} : i1
  %n = prim.Constant {value = 64 : i64} : i64
  %r = prim.Loop %n, %t, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %a: !prim.tensor):
    %b = aten.neg %a : (!prim.tensor) -> !prim.tensor
    prim.Yield %t, %b : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// Loops that are not for loops stay: a while loop (the body computes its
// condition), a non-constant initial condition, a constant false one.
// CHECK-LABEL: func.func @not_for_loops
// CHECK-COUNT-3: prim.Loop
// CHECK-NOT: aten.floordiv.int
func.func @not_for_loops(%x: !prim.tensor, %n: i64, %c: i1) -> (i64, !prim.tensor, !prim.tensor) {
  %t = prim.Constant {value = true} : i1
  %f = prim.Constant {value = false} : i1
  %max = prim.Constant {value = 9223372036854775807 : i64} : i64
  %ten = prim.Constant {value = 10 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %w = prim.Loop %max, %t, %n : i64 -> (i64) {
  ^bb0(%i: i64, %k: i64):
    %k2 = aten.add.int %k, %one : (i64, i64) -> i64
    %go = aten.lt.int %k2, %ten : (i64, i64) -> i1
    prim.Yield %go, %k2 : i1, i64
  }
  %r = prim.Loop %ten, %c, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %a: !prim.tensor):
    %b = aten.neg %a : (!prim.tensor) -> !prim.tensor
    prim.Yield %t, %b : i1, !prim.tensor
  }
  %s = prim.Loop %ten, %f, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %a: !prim.tensor):
    %b = aten.neg %a : (!prim.tensor) -> !prim.tensor
    prim.Yield %t, %b : i1, !prim.tensor
  }
  return %w, %r, %s : i64, !prim.tensor, !prim.tensor
}

// -----

// Nested loops: the inner loop is unrolled first, then the outer one is
// measured (4 ops and the yield) and unrolled too.
// CHECK-LABEL: func.func @nested_inner_first
// CHECK-NOT: prim.Loop
// CHECK-COUNT-6: aten.neg
// CHECK-NOT: aten.neg
// CHECK: return
func.func @nested_inner_first(%x: !prim.tensor) -> !prim.tensor {
  %t = prim.Constant {value = true} : i1
  %two = prim.Constant {value = 2 : i64} : i64
  %three = prim.Constant {value = 3 : i64} : i64
  %r = prim.Loop %two, %t, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %a: !prim.tensor):
    %s = prim.Loop %three, %t, %a : !prim.tensor -> (!prim.tensor) {
    ^bb0(%j: i64, %b: !prim.tensor):
      %c = aten.neg %b : (!prim.tensor) -> !prim.tensor
      prim.Yield %t, %c : i1, !prim.tensor
    }
    prim.Yield %t, %s : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// An inner loop with an unknown count becomes a main loop of 8 copies and
// an epilogue, which makes the outer body too big: the outer loop stays.
// CHECK-LABEL: func.func @nested_outer_too_big
// CHECK: prim.Loop %{{.*}}, %{{.*}}, %arg0
// CHECK: aten.floordiv.int
// CHECK: prim.Loop
// CHECK-COUNT-8: aten.neg
// CHECK: prim.Loop
// CHECK: aten.neg
// CHECK-NOT: aten.neg
func.func @nested_outer_too_big(%x: !prim.tensor, %n: i64) -> !prim.tensor {
  %t = prim.Constant {value = true} : i1
  %two = prim.Constant {value = 2 : i64} : i64
  %r = prim.Loop %two, %t, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %a: !prim.tensor):
    %s = prim.Loop %n, %t, %a : !prim.tensor -> (!prim.tensor) {
    ^bb0(%j: i64, %b: !prim.tensor):
      %c = aten.neg %b : (!prim.tensor) -> !prim.tensor
      prim.Yield %t, %c : i1, !prim.tensor
    }
    prim.Yield %t, %s : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// Ops in nested blocks count, and so does each block's yield: 1 + If (1) +
// then (2) + else (1) + yield (1) = 6 ops. The default limit unrolls it; a
// limit of 3 does not.
// CHECK-LABEL: func.func @nested_blocks_count
// CHECK-NOT: prim.Loop
// CHECK-COUNT-2: prim.If
// SMALL-LABEL: func.func @nested_blocks_count
// SMALL: prim.Loop
// SMALL-NOT: aten.floordiv.int
func.func @nested_blocks_count(%x: !prim.tensor, %c: i1) -> !prim.tensor {
  %t = prim.Constant {value = true} : i1
  %two = prim.Constant {value = 2 : i64} : i64
  %r = prim.Loop %two, %t, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %a: !prim.tensor):
    %b = aten.neg %a : (!prim.tensor) -> !prim.tensor
    %d = prim.If %c -> (!prim.tensor) {
      %e = aten.relu %b : (!prim.tensor) -> !prim.tensor
      prim.Yield %e : !prim.tensor
    } else {
      prim.Yield %b : !prim.tensor
    }
    prim.Yield %t, %d : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// The options: two ops and the yield fit a limit of 3; a count of 4 is not
// below full-unroll-limit=4, so it is unrolled by 2 with an epilogue.
// SMALL-LABEL: func.func @options
// SMALL: %[[TWO:.*]] = prim.Constant {value = 2 : i64}
// SMALL: %[[MAIN:.*]] = aten.floordiv.int %{{.*}}, %[[TWO]]
// SMALL: prim.Loop %[[MAIN]]
// SMALL-COUNT-4: aten.neg
// SMALL: prim.Yield
// SMALL: prim.Loop
// SMALL-NEXT: ^bb0
// SMALL-NEXT: aten.neg
// SMALL-NEXT: aten.neg
// SMALL-NEXT: prim.Yield
// SMALL-NEXT: }
// SMALL-NEXT: return
func.func @options(%x: !prim.tensor) -> !prim.tensor {
  %t = prim.Constant {value = true} : i1
  %n = prim.Constant {value = 4 : i64} : i64
  %r = prim.Loop %n, %t, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %a: !prim.tensor):
    %b = aten.neg %a : (!prim.tensor) -> !prim.tensor
    %c = aten.neg %b : (!prim.tensor) -> !prim.tensor
    prim.Yield %t, %c : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// A carried value of a wider type than what the body yields: the copies
// see the slot's type through an unchecked_cast, and so do the results.
// CHECK-LABEL: func.func @yield_subtype
// CHECK-NOT: prim.Loop
// CHECK: %[[T0:.*]] = aten.neg %arg0
// CHECK: %[[W0:.*]] = prim.unchecked_cast %[[T0]] : (!prim.tensor) -> !prim.tensor<dtype = f32>
// CHECK: %[[T1:.*]] = aten.neg %[[W0]]
// CHECK: %[[W1:.*]] = prim.unchecked_cast %[[T1]] : (!prim.tensor) -> !prim.tensor<dtype = f32>
// CHECK: return %[[W1]]
func.func @yield_subtype(%x: !prim.tensor<dtype = f32>) -> !prim.tensor<dtype = f32> {
  %t = prim.Constant {value = true} : i1
  %two = prim.Constant {value = 2 : i64} : i64
  %r = prim.Loop %two, %t, %x : !prim.tensor<dtype = f32> -> (!prim.tensor<dtype = f32>) {
  ^bb0(%i: i64, %a: !prim.tensor<dtype = f32>):
    %b = aten.neg %a : (!prim.tensor<dtype = f32>) -> !prim.tensor
    prim.Yield %t, %b : i1, !prim.tensor
  }
  return %r : !prim.tensor<dtype = f32>
}

// -----

// 31 ops and the yield, constants not counted: 32 ops, unrolled (TorchScript's limit).
// CHECK-LABEL: func.func @size_limit
// CHECK-NOT: prim.Loop
// CHECK-COUNT-62: aten.neg
func.func @size_limit(%x: !prim.tensor) -> !prim.tensor {
  %t = prim.Constant {value = true} : i1
  %n = prim.Constant {value = 2 : i64} : i64
  %r = prim.Loop %n, %t, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %a: !prim.tensor):
    %k0 = prim.Constant {value = 10 : i64} : i64
    %k1 = prim.Constant {value = 11 : i64} : i64
    %k2 = prim.Constant {value = 12 : i64} : i64
    %b0 = aten.neg %a : (!prim.tensor) -> !prim.tensor
    %b1 = aten.neg %b0 : (!prim.tensor) -> !prim.tensor
    %b2 = aten.neg %b1 : (!prim.tensor) -> !prim.tensor
    %b3 = aten.neg %b2 : (!prim.tensor) -> !prim.tensor
    %b4 = aten.neg %b3 : (!prim.tensor) -> !prim.tensor
    %b5 = aten.neg %b4 : (!prim.tensor) -> !prim.tensor
    %b6 = aten.neg %b5 : (!prim.tensor) -> !prim.tensor
    %b7 = aten.neg %b6 : (!prim.tensor) -> !prim.tensor
    %b8 = aten.neg %b7 : (!prim.tensor) -> !prim.tensor
    %b9 = aten.neg %b8 : (!prim.tensor) -> !prim.tensor
    %b10 = aten.neg %b9 : (!prim.tensor) -> !prim.tensor
    %b11 = aten.neg %b10 : (!prim.tensor) -> !prim.tensor
    %b12 = aten.neg %b11 : (!prim.tensor) -> !prim.tensor
    %b13 = aten.neg %b12 : (!prim.tensor) -> !prim.tensor
    %b14 = aten.neg %b13 : (!prim.tensor) -> !prim.tensor
    %b15 = aten.neg %b14 : (!prim.tensor) -> !prim.tensor
    %b16 = aten.neg %b15 : (!prim.tensor) -> !prim.tensor
    %b17 = aten.neg %b16 : (!prim.tensor) -> !prim.tensor
    %b18 = aten.neg %b17 : (!prim.tensor) -> !prim.tensor
    %b19 = aten.neg %b18 : (!prim.tensor) -> !prim.tensor
    %b20 = aten.neg %b19 : (!prim.tensor) -> !prim.tensor
    %b21 = aten.neg %b20 : (!prim.tensor) -> !prim.tensor
    %b22 = aten.neg %b21 : (!prim.tensor) -> !prim.tensor
    %b23 = aten.neg %b22 : (!prim.tensor) -> !prim.tensor
    %b24 = aten.neg %b23 : (!prim.tensor) -> !prim.tensor
    %b25 = aten.neg %b24 : (!prim.tensor) -> !prim.tensor
    %b26 = aten.neg %b25 : (!prim.tensor) -> !prim.tensor
    %b27 = aten.neg %b26 : (!prim.tensor) -> !prim.tensor
    %b28 = aten.neg %b27 : (!prim.tensor) -> !prim.tensor
    %b29 = aten.neg %b28 : (!prim.tensor) -> !prim.tensor
    %b30 = aten.neg %b29 : (!prim.tensor) -> !prim.tensor
    prim.Yield %t, %b30 : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// 32 ops and the yield: 33 ops, too big: kept (TorchScript's limit).
// CHECK-LABEL: func.func @size_over
// CHECK: prim.Loop
// CHECK-COUNT-32: aten.neg
// CHECK-NOT: aten.neg
func.func @size_over(%x: !prim.tensor) -> !prim.tensor {
  %t = prim.Constant {value = true} : i1
  %n = prim.Constant {value = 2 : i64} : i64
  %r = prim.Loop %n, %t, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %a: !prim.tensor):
    %b0 = aten.neg %a : (!prim.tensor) -> !prim.tensor
    %b1 = aten.neg %b0 : (!prim.tensor) -> !prim.tensor
    %b2 = aten.neg %b1 : (!prim.tensor) -> !prim.tensor
    %b3 = aten.neg %b2 : (!prim.tensor) -> !prim.tensor
    %b4 = aten.neg %b3 : (!prim.tensor) -> !prim.tensor
    %b5 = aten.neg %b4 : (!prim.tensor) -> !prim.tensor
    %b6 = aten.neg %b5 : (!prim.tensor) -> !prim.tensor
    %b7 = aten.neg %b6 : (!prim.tensor) -> !prim.tensor
    %b8 = aten.neg %b7 : (!prim.tensor) -> !prim.tensor
    %b9 = aten.neg %b8 : (!prim.tensor) -> !prim.tensor
    %b10 = aten.neg %b9 : (!prim.tensor) -> !prim.tensor
    %b11 = aten.neg %b10 : (!prim.tensor) -> !prim.tensor
    %b12 = aten.neg %b11 : (!prim.tensor) -> !prim.tensor
    %b13 = aten.neg %b12 : (!prim.tensor) -> !prim.tensor
    %b14 = aten.neg %b13 : (!prim.tensor) -> !prim.tensor
    %b15 = aten.neg %b14 : (!prim.tensor) -> !prim.tensor
    %b16 = aten.neg %b15 : (!prim.tensor) -> !prim.tensor
    %b17 = aten.neg %b16 : (!prim.tensor) -> !prim.tensor
    %b18 = aten.neg %b17 : (!prim.tensor) -> !prim.tensor
    %b19 = aten.neg %b18 : (!prim.tensor) -> !prim.tensor
    %b20 = aten.neg %b19 : (!prim.tensor) -> !prim.tensor
    %b21 = aten.neg %b20 : (!prim.tensor) -> !prim.tensor
    %b22 = aten.neg %b21 : (!prim.tensor) -> !prim.tensor
    %b23 = aten.neg %b22 : (!prim.tensor) -> !prim.tensor
    %b24 = aten.neg %b23 : (!prim.tensor) -> !prim.tensor
    %b25 = aten.neg %b24 : (!prim.tensor) -> !prim.tensor
    %b26 = aten.neg %b25 : (!prim.tensor) -> !prim.tensor
    %b27 = aten.neg %b26 : (!prim.tensor) -> !prim.tensor
    %b28 = aten.neg %b27 : (!prim.tensor) -> !prim.tensor
    %b29 = aten.neg %b28 : (!prim.tensor) -> !prim.tensor
    %b30 = aten.neg %b29 : (!prim.tensor) -> !prim.tensor
    %b31 = aten.neg %b30 : (!prim.tensor) -> !prim.tensor
    prim.Yield %t, %b31 : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// A loop over a list literal of tensors (`for level in pyramid`, RAFT)
// unrolls fully whatever the size of its body: each copy reads its own
// element, whose shape may differ. Here the body is over SMALL's limit of
// 3 ops; the same body over an int list is not unrolled.
// SMALL-LABEL: func.func @walks_tensor_literal
// SMALL-NOT: prim.Loop
// SMALL: return
func.func @walks_tensor_literal(%a: !prim.tensor, %b: !prim.tensor) -> !prim.tensor {
  %true = prim.Constant {value = true} : i1
  %two = prim.Constant {value = 2 : i64} : i64
  %levels = prim.ListConstruct %a, %b : (!prim.tensor, !prim.tensor) -> !prim.list<!prim.tensor>
  %r = prim.Loop %two, %true, %a : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor):
    %level = aten.__getitem__.t %levels, %i : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
    %s = aten.sigmoid %level : (!prim.tensor) -> !prim.tensor
    %t = aten.tanh %s : (!prim.tensor) -> !prim.tensor
    %u = aten.relu %t : (!prim.tensor) -> !prim.tensor
    %next = aten.mul.Tensor %acc, %u : (!prim.tensor, !prim.tensor) -> !prim.tensor
    prim.Yield %true, %next : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// The same walked top down, by an index a `range` with a start and a step
// derives (`for i in range(len(x) - 1, -1, -1)`, torchvision's FPN).
// SMALL-LABEL: func.func @walks_tensor_literal_by_derived_index
// SMALL-NOT: prim.Loop
// SMALL: return
func.func @walks_tensor_literal_by_derived_index(%a: !prim.tensor, %b: !prim.tensor) -> !prim.tensor {
  %true = prim.Constant {value = true} : i1
  %two = prim.Constant {value = 2 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %minus1 = prim.Constant {value = -1 : i64} : i64
  %levels = prim.ListConstruct %a, %b : (!prim.tensor, !prim.tensor) -> !prim.list<!prim.tensor>
  %r = prim.Loop %two, %true, %a : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor):
    %index = aten.__derive_index %i, %one, %minus1 : (i64, i64, i64) -> i64
    %level = aten.__getitem__.t %levels, %index : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
    %s = aten.sigmoid %level : (!prim.tensor) -> !prim.tensor
    %t = aten.tanh %s : (!prim.tensor) -> !prim.tensor
    %u = aten.relu %t : (!prim.tensor) -> !prim.tensor
    %next = aten.mul.Tensor %acc, %u : (!prim.tensor, !prim.tensor) -> !prim.tensor
    prim.Yield %true, %next : i1, !prim.tensor
  }
  return %r : !prim.tensor
}

// SMALL-LABEL: func.func @walks_int_literal
// SMALL: prim.Loop
func.func @walks_int_literal(%a: !prim.tensor) -> !prim.tensor {
  %true = prim.Constant {value = true} : i1
  %two = prim.Constant {value = 2 : i64} : i64
  %c1 = prim.Constant {value = 1 : i64} : i64
  %sizes = prim.ListConstruct %c1, %two : (i64, i64) -> !prim.list<i64>
  %r = prim.Loop %two, %true, %a : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor):
    %size = aten.__getitem__.t %sizes, %i : (!prim.list<i64>, i64) -> i64
    %s = aten.sigmoid %acc : (!prim.tensor) -> !prim.tensor
    %t = aten.tanh %s : (!prim.tensor) -> !prim.tensor
    %u = aten.relu %t : (!prim.tensor) -> !prim.tensor
    %next = aten.mul.Scalar %u, %size : (!prim.tensor, i64) -> !prim.tensor
    prim.Yield %true, %next : i1, !prim.tensor
  }
  return %r : !prim.tensor
}
