// memory-effects.mlir - what --cse and --canonicalize may and may not do to aten ops, given their memory effects.
// RUN: tsir-opt %s --cse --canonicalize | FileCheck %s

// (1) Pure scalar ops are merged when identical and removed when unused.
// aten.div.int is NoMemoryEffect (not Pure: it may raise), so an unused one
// goes too.
// CHECK-LABEL: func @pure_scalar_ops
// CHECK-SAME: (%[[I:[a-z0-9_]+]]: i64, %[[J:[a-z0-9_]+]]: i64)
// CHECK-NEXT: %[[SUM:[a-z0-9_]+]] = aten.add.int %[[I]], %[[J]] : (i64, i64) -> i64
// CHECK-NEXT: %[[GT:[a-z0-9_]+]] = aten.gt.int %[[SUM]], %[[J]] : (i64, i64) -> i1
// CHECK-NEXT: return %[[SUM]], %[[SUM]], %[[GT]], %[[GT]] : i64, i64, i1, i1
func.func @pure_scalar_ops(%i: i64, %j: i64) -> (i64, i64, i1, i1) {
  %0 = aten.add.int %i, %j : (i64, i64) -> i64
  %1 = aten.add.int %i, %j : (i64, i64) -> i64
  %2 = aten.gt.int %0, %j : (i64, i64) -> i1
  %3 = aten.gt.int %1, %j : (i64, i64) -> i1
  %dead0 = aten.mul.int %i, %j : (i64, i64) -> i64
  %dead1 = aten.__not__ %2 : (i1) -> i1
  %dead2 = aten.div.int %i, %j : (i64, i64) -> f64
  return %0, %1, %2, %3 : i64, i64, i1, i1
}

// (2) In-place ops write their `self`: kept although their results are
// unused, and two identical ones are not merged.
// CHECK-LABEL: func @inplace_kept
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: !prim.tensor, %[[B:[a-z0-9_]+]]: !prim.tensor, %[[I:[a-z0-9_]+]]: i64, %[[L:[a-z0-9_]+]]: !prim.list<!prim.tensor>)
// CHECK-NEXT: %[[FALSE:[a-z0-9_]+]] = prim.Constant {value = false} : i1
// CHECK-NEXT: aten.add_.Tensor %[[A]], %[[B]], %[[I]]
// CHECK-NEXT: aten.add_.Tensor %[[A]], %[[B]], %[[I]]
// CHECK-NEXT: aten.relu_ %[[A]]
// CHECK-NEXT: aten.relu_ %[[A]]
// CHECK-NEXT: aten.append.t %[[L]], %[[A]]
// CHECK-NEXT: aten.append.t %[[L]], %[[A]]
// CHECK-NEXT: aten.copy_ %[[A]], %[[B]], %[[FALSE]]
// CHECK-NEXT: return
func.func @inplace_kept(%a: !prim.tensor, %b: !prim.tensor, %i: i64, %l: !prim.list<!prim.tensor>) {
  %false = prim.Constant {value = false} : i1
  %0 = aten.add_.Tensor %a, %b, %i : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %1 = aten.add_.Tensor %a, %b, %i : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %2 = aten.relu_ %a : (!prim.tensor) -> !prim.tensor
  %3 = aten.relu_ %a : (!prim.tensor) -> !prim.tensor
  %4 = aten.append.t %l, %a : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  %5 = aten.append.t %l, %a : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  %6 = aten.copy_ %a, %b, %false : (!prim.tensor, !prim.tensor, i1) -> !prim.tensor
  return
}

// (3) A tensor-producing op allocates a fresh tensor, aliasing nothing: two
// identical ones are two tensors (either may later be written in place), so
// they are not merged; an unused one is removed.
// CHECK-LABEL: func @fresh_tensors
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: !prim.tensor, %[[B:[a-z0-9_]+]]: !prim.tensor, %[[I:[a-z0-9_]+]]: i64)
// CHECK-NEXT: %[[X:[a-z0-9_]+]] = aten.add.Tensor %[[A]], %[[B]], %[[I]]
// CHECK-NEXT: %[[Y:[a-z0-9_]+]] = aten.add.Tensor %[[A]], %[[B]], %[[I]]
// CHECK-NEXT: %[[M:[a-z0-9_]+]] = aten.mm %[[A]], %[[B]]
// CHECK-NEXT: %[[N:[a-z0-9_]+]] = aten.mm %[[A]], %[[B]]
// CHECK-NEXT: return %[[X]], %[[Y]], %[[M]], %[[N]]
func.func @fresh_tensors(%a: !prim.tensor, %b: !prim.tensor, %i: i64)
    -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) {
  %0 = aten.add.Tensor %a, %b, %i : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %1 = aten.add.Tensor %a, %b, %i : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %2 = aten.mm %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %3 = aten.mm %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %dead = aten.mul.Tensor %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %0, %1, %2, %3 : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor
}

// The same for fresh lists: prim.ListConstruct and aten.size.
// CHECK-LABEL: func @fresh_lists
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: !prim.tensor)
// CHECK-NEXT: %[[L0:[a-z0-9_]+]] = prim.ListConstruct %[[A]]
// CHECK-NEXT: %[[L1:[a-z0-9_]+]] = prim.ListConstruct %[[A]]
// CHECK-NEXT: %[[S0:[a-z0-9_]+]] = aten.size %[[A]]
// CHECK-NEXT: %[[S1:[a-z0-9_]+]] = aten.size %[[A]]
// CHECK-NEXT: return %[[L0]], %[[L1]], %[[S0]], %[[S1]]
func.func @fresh_lists(%a: !prim.tensor)
    -> (!prim.list<!prim.tensor>, !prim.list<!prim.tensor>, !prim.list<i64>, !prim.list<i64>) {
  %0 = prim.ListConstruct %a : (!prim.tensor) -> !prim.list<!prim.tensor>
  %1 = prim.ListConstruct %a : (!prim.tensor) -> !prim.list<!prim.tensor>
  %2 = aten.size %a : (!prim.tensor) -> !prim.list<i64>
  %3 = aten.size %a : (!prim.tensor) -> !prim.list<i64>
  return %0, %1, %2, %3 : !prim.list<!prim.tensor>, !prim.list<!prim.tensor>, !prim.list<i64>, !prim.list<i64>
}

// (4) Reads (aten.dim, aten.len.t) are merged while nothing writes in
// between, but not across a write (aten.unsqueeze_ on the tensor, aten.append.t
// on the list); an unused read is removed.
// CHECK-LABEL: func @reads_and_writes
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: !prim.tensor, %[[L:[a-z0-9_]+]]: !prim.list<!prim.tensor>)
// CHECK-NEXT: %[[D0:[a-z0-9_]+]] = aten.dim %[[A]]
// CHECK-NEXT: aten.unsqueeze_ %[[A]], %[[D0]]
// CHECK-NEXT: %[[D1:[a-z0-9_]+]] = aten.dim %[[A]]
// CHECK-NEXT: %[[N0:[a-z0-9_]+]] = aten.len.t %[[L]]
// CHECK-NEXT: aten.append.t %[[L]], %[[A]]
// CHECK-NEXT: %[[N1:[a-z0-9_]+]] = aten.len.t %[[L]]
// CHECK-NEXT: return %[[D0]], %[[D0]], %[[D1]], %[[N0]], %[[N0]], %[[N1]]
func.func @reads_and_writes(%a: !prim.tensor, %l: !prim.list<!prim.tensor>) -> (i64, i64, i64, i64, i64, i64) {
  %0 = aten.dim %a : (!prim.tensor) -> i64
  %1 = aten.dim %a : (!prim.tensor) -> i64
  %u = aten.unsqueeze_ %a, %0 : (!prim.tensor, i64) -> !prim.tensor
  %2 = aten.dim %a : (!prim.tensor) -> i64
  %3 = aten.len.t %l : (!prim.list<!prim.tensor>) -> i64
  %4 = aten.len.t %l : (!prim.list<!prim.tensor>) -> i64
  %x = aten.append.t %l, %a : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  %5 = aten.len.t %l : (!prim.list<!prim.tensor>) -> i64
  %dead = aten.len.t %l : (!prim.list<!prim.tensor>) -> i64
  return %0, %1, %2, %3, %4, %5 : i64, i64, i64, i64, i64, i64
}

// A write nested in a prim.If (RecursiveMemoryEffects) also separates two
// reads, and so does a call, whose effects are unknown.
// CHECK-LABEL: func @writes_in_regions_and_calls
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: !prim.tensor, %[[C:[a-z0-9_]+]]: i1, %[[F:[a-z0-9_]+]]: !prim.function)
// CHECK-NEXT: %[[D0:[a-z0-9_]+]] = aten.dim %[[A]]
// CHECK-NEXT: prim.If %[[C]]
// CHECK-NEXT: aten.relu_ %[[A]]
// CHECK: %[[D1:[a-z0-9_]+]] = aten.dim %[[A]]
// CHECK-NEXT: prim.CallFunction %[[F]], %[[A]]
// CHECK-NEXT: %[[D2:[a-z0-9_]+]] = aten.dim %[[A]]
// CHECK-NEXT: return %[[D0]], %[[D1]], %[[D2]]
func.func @writes_in_regions_and_calls(%a: !prim.tensor, %c: i1, %f: !prim.function) -> (i64, i64, i64) {
  %0 = aten.dim %a : (!prim.tensor) -> i64
  prim.If %c {
    %r = aten.relu_ %a : (!prim.tensor) -> !prim.tensor
    prim.Yield
  } else {
    prim.Yield
  }
  %1 = aten.dim %a : (!prim.tensor) -> i64
  prim.CallFunction %f, %a : (!prim.function, !prim.tensor) -> ()
  %2 = aten.dim %a : (!prim.tensor) -> i64
  return %0, %1, %2 : i64, i64, i64
}

// (5) Random ops read and advance the generator's state: never merged, and
// kept even when unused. So is dropout (random in training mode).
// CHECK-LABEL: func @random_ops
// CHECK-SAME: (%[[S:[a-z0-9_]+]]: !prim.list<i64>, %[[N:[a-z0-9_]+]]: !prim.none, %[[T:[a-z0-9_]+]]: !prim.tensor, %[[P:[a-z0-9_]+]]: f64, %[[B:[a-z0-9_]+]]: i1)
// CHECK-NEXT: %[[R0:[a-z0-9_]+]] = aten.rand %[[S]], %[[N]], %[[N]], %[[N]], %[[N]]
// CHECK-NEXT: %[[R1:[a-z0-9_]+]] = aten.rand %[[S]], %[[N]], %[[N]], %[[N]], %[[N]]
// CHECK-NEXT: aten.randn %[[S]], %[[N]], %[[N]], %[[N]], %[[N]]
// CHECK-NEXT: aten.randn %[[S]], %[[N]], %[[N]], %[[N]], %[[N]]
// CHECK-NEXT: aten.rand_like %[[T]], %[[N]], %[[N]], %[[N]], %[[N]], %[[N]]
// CHECK-NEXT: aten.dropout %[[T]], %[[P]], %[[B]]
// CHECK-NEXT: return %[[R0]], %[[R1]]
func.func @random_ops(%s: !prim.list<i64>, %n: !prim.none, %t: !prim.tensor, %p: f64, %train: i1)
    -> (!prim.tensor, !prim.tensor) {
  %0 = aten.rand %s, %n, %n, %n, %n : (!prim.list<i64>, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  %1 = aten.rand %s, %n, %n, %n, %n : (!prim.list<i64>, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  %2 = aten.randn %s, %n, %n, %n, %n : (!prim.list<i64>, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  %3 = aten.randn %s, %n, %n, %n, %n : (!prim.list<i64>, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  %4 = aten.rand_like %t, %n, %n, %n, %n, %n
      : (!prim.tensor, !prim.none, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  %5 = aten.dropout %t, %p, %train : (!prim.tensor, f64, i1) -> !prim.tensor
  return %0, %1 : !prim.tensor, !prim.tensor
}
