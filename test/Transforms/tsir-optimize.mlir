// The tsir-optimize pipeline: the passes in the profiling executor's order,
// the options that turn unrolling and fusion off, and one graph through it.
// RUN: tsir-opt --tsir-optimize --dump-pass-pipeline %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: tsir-opt '--tsir-optimize=unroll=false fuse=false inline-subgraphs=false' --dump-pass-pipeline %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOOPT
// RUN: tsir-opt --tsir-optimize %s | FileCheck %s
// RUN: tsir-opt '--tsir-optimize=unroll=false fuse=false' %s | FileCheck %s --check-prefix=OFF

// ORDER:      func.func(
// ORDER-NEXT:   prim-inline-subgraphs,
// ORDER-NEXT:   prim-dce,
// ORDER-NEXT:   prim-cse,
// ORDER-NEXT:   prim-constant-propagation,
// ORDER-NEXT:   prim-constant-pooling,
// ORDER-NEXT:   prim-peephole,
// ORDER-NEXT:   prim-lower-tuples,
// ORDER-NEXT:   prim-remove-mutation,
// ORDER-NEXT:   prim-unroll-loops{full-unroll-limit=64 max-body-size=32 unroll-factor=8},
// ORDER-NEXT:   prim-constant-propagation,
// ORDER-NEXT:   prim-constant-pooling,
// ORDER-NEXT:   prim-cse,
// ORDER-NEXT:   prim-dce,
// ORDER-NEXT:   tsir-create-fusion-groups{min-group-size=2}
// ORDER-NEXT: )

// NOOPT:      func.func(
// NOOPT-NEXT:   prim-dce,
// NOOPT-NEXT:   prim-cse,
// NOOPT-NEXT:   prim-constant-propagation,
// NOOPT-NEXT:   prim-constant-pooling,
// NOOPT-NEXT:   prim-peephole,
// NOOPT-NEXT:   prim-lower-tuples,
// NOOPT-NEXT:   prim-remove-mutation,
// NOOPT-NEXT:   prim-dce
// NOOPT-NEXT: )

// Every pass has something to do here: a dead op, a repeated add, a
// constant condition, a tuple, an in-place op on a fresh clone, a loop of
// three iterations, and an elementwise chain to fuse.
// CHECK-LABEL: func.func @graph
// CHECK-SAME:    (%[[X:.*]]: !prim.tensor, %[[Y:.*]]: !prim.tensor)
// CHECK-NOT:     prim.Loop
// CHECK-NOT:     prim.If
// CHECK-NOT:     prim.Tuple
// CHECK-NOT:     aten.add_
// CHECK-NOT:     aten.neg
// CHECK:         %[[SUM:.*]] = aten.add.Tensor %[[X]], %[[Y]]
// CHECK-NOT:     aten.add.Tensor %[[X]], %[[Y]]
// CHECK:         %[[Z:.*]] = aten.clone %[[SUM]]
// CHECK:         %[[G:.*]] = prim.FusionGroup(%[[Z]], %[[SUM]], %[[Y]])
// The functional add that replaced add_, then the three unrolled iterations.
// CHECK-COUNT-4:   aten.add.Tensor
// CHECK-NEXT:      aten.relu
// CHECK-NEXT:      prim.Return
// CHECK:         return %[[G]]

// OFF-LABEL: func.func @graph
// OFF-NOT:     prim.FusionGroup
// OFF-NOT:     prim.If
// OFF-NOT:     aten.add_
// OFF:         prim.Loop
// OFF:         return
func.func @graph(%x: !prim.tensor, %y: !prim.tensor) -> !prim.tensor {
  %one = prim.Constant {value = 1 : i64} : i64
  %three = prim.Constant {value = 3 : i64} : i64
  %true = prim.Constant {value = true} : i1
  %none = prim.Constant {value} : !prim.none
  %dead = aten.neg %x : (!prim.tensor) -> !prim.tensor
  %a = aten.add.Tensor %x, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %b = aten.add.Tensor %x, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %gt = aten.gt.int %three, %one : (i64, i64) -> i1
  %c = prim.If %gt -> (!prim.tensor) {
    prim.Yield %a : !prim.tensor
  } else {
    prim.Yield %b : !prim.tensor
  }
  %t = prim.TupleConstruct %c, %b : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
  %e:2 = prim.TupleUnpack %t : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor)
  %z = aten.clone %e#0, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %w = aten.add_.Tensor %z, %e#1, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %l = prim.Loop %three, %true, %z : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor):
    %next = aten.add.Tensor %acc, %y, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
    prim.Yield %true, %next : i1, !prim.tensor
  }
  %r = aten.relu %l : (!prim.tensor) -> !prim.tensor
  return %r : !prim.tensor
}
