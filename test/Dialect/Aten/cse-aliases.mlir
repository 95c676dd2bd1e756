// cse-aliases.mlir - --cse never merges ops that return a new alias or a new list, whose results are then mutated.
// RUN: tsir-opt %s --cse --canonicalize | FileCheck %s

// Each call returns a distinct object (schema results `Tensor(a)` /
// `Tensor(a)[]`) that a later in-place op may change alone; torch's own CSE
// (torch._C._jit_pass_cse) keeps both, and so must MLIR's: such results are
// declared allocated.

// aten::to(..., copy=True) (or to a different dtype) returns a fresh tensor:
// eager gives y1 = [1, 2, 3], y2 = [0, 1, 2]; after CSE, y2 is y1.
// CHECK-LABEL: func @to_copy_then_inplace
// CHECK: %[[Y1:[a-z0-9_]+]] = aten.to.dtype
// CHECK: %[[Y2:[a-z0-9_]+]] = aten.to.dtype
// CHECK: aten.add_.Tensor %[[Y1]]
// CHECK: return %[[Y2]]
func.func @to_copy_then_inplace(%x: !prim.tensor, %b: !prim.tensor, %dt: i64, %n: !prim.none) -> !prim.tensor {
  %false = prim.Constant {value = false} : i1
  %true = prim.Constant {value = true} : i1
  %one = prim.Constant {value = 1 : i64} : i64
  %y1 = aten.to.dtype %x, %dt, %false, %true, %n : (!prim.tensor, i64, i1, i1, !prim.none) -> !prim.tensor
  %y2 = aten.to.dtype %x, %dt, %false, %true, %n : (!prim.tensor, i64, i1, i1, !prim.none) -> !prim.tensor
  %w = aten.add_.Tensor %y1, %b, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  return %y2 : !prim.tensor
}

// aten::chunk returns a new list (of views): appending to one must not grow
// the other. Eager: len(c0) == 3, len(c1) == 2.
// CHECK-LABEL: func @chunk_then_append
// CHECK: %[[C0:[a-z0-9_]+]] = aten.chunk
// CHECK: %[[C1:[a-z0-9_]+]] = aten.chunk
// CHECK: aten.append.t %[[C0]]
// CHECK: aten.len.t %[[C1]]
func.func @chunk_then_append(%a: !prim.tensor, %b: !prim.tensor, %i: i64) -> i64 {
  %c0 = aten.chunk %a, %i, %i : (!prim.tensor, i64, i64) -> !prim.list<!prim.tensor>
  %c1 = aten.chunk %a, %i, %i : (!prim.tensor, i64, i64) -> !prim.list<!prim.tensor>
  %x = aten.append.t %c0, %b : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  %n = aten.len.t %c1 : (!prim.list<!prim.tensor>) -> i64
  return %n : i64
}

// Two views of one tensor share its data but not their sizes: unsqueeze_ on
// one leaves the other's dim() alone. Eager: v0.dim() == 2, v1.dim() == 1.
// CHECK-LABEL: func @view_then_unsqueeze_
// CHECK: %[[V0:[a-z0-9_]+]] = aten.view
// CHECK: %[[V1:[a-z0-9_]+]] = aten.view
// CHECK: aten.unsqueeze_ %[[V0]]
// CHECK: aten.dim %[[V1]]
func.func @view_then_unsqueeze_(%a: !prim.tensor, %s: !prim.list<i64>, %i: i64) -> i64 {
  %v0 = aten.view %a, %s : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  %v1 = aten.view %a, %s : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  %u = aten.unsqueeze_ %v0, %i : (!prim.tensor, i64) -> !prim.tensor
  %d = aten.dim %v1 : (!prim.tensor) -> i64
  return %d : i64
}
