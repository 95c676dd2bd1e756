// RUN: tsir-opt --tsir-forward-attribute-writes -split-input-file %s | FileCheck %s

// RAFT's correlation block: forward stores a list in a submodule's
// attribute and appends to what it reads back, in the body and in a loop.
// Every read becomes the list written (the same object), and the write and
// the object reads go.
// CHECK-LABEL: func.func @pyramid
// CHECK-NOT: prim.GetAttr
// CHECK-NOT: prim.SetAttr
// CHECK: %[[LIST:.*]] = prim.ListConstruct %arg1
// CHECK: aten.append.t %[[LIST]], %arg1
// CHECK: prim.Loop
// CHECK: aten.len.t %[[LIST]]
func.func @pyramid(%self: !prim.class<"Raft">, %x: !prim.tensor, %n: i64) -> i64 {
  %true = prim.Constant {value = true} : i1
  %zero = prim.Constant {value = 0 : i64} : i64
  %block = prim.GetAttr %self {name = "corr_block"} : (!prim.class<"Raft">) -> !prim.class<"Corr">
  %list = prim.ListConstruct %x : (!prim.tensor) -> !prim.list<!prim.tensor>
  prim.SetAttr %block, %list {name = "corr_pyramid"} : !prim.class<"Corr">, !prim.list<!prim.tensor>
  %read = prim.GetAttr %block {name = "corr_pyramid"} : (!prim.class<"Corr">) -> !prim.list<!prim.tensor>
  %appended = aten.append.t %read, %x : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  %count = prim.Loop %n, %true, %zero : i64 -> (i64) {
  ^bb0(%i: i64, %acc: i64):
    %again = prim.GetAttr %self {name = "corr_block"} : (!prim.class<"Raft">) -> !prim.class<"Corr">
    %levels = prim.GetAttr %again {name = "corr_pyramid"} : (!prim.class<"Corr">) -> !prim.list<!prim.tensor>
    %len = aten.len.t %levels : (!prim.list<!prim.tensor>) -> i64
    prim.Yield %true, %len : i1, i64
  }
  return %count : i64
}

// -----

// A read before the write is the state an earlier call left: nothing is
// forwarded, and both stay (the executor reports them).
// CHECK-LABEL: func.func @read_before_write
// CHECK: prim.GetAttr
// CHECK: prim.SetAttr
// CHECK: prim.GetAttr
func.func @read_before_write(%self: !prim.class<"M">, %x: !prim.tensor) -> !prim.tensor {
  %old = prim.GetAttr %self {name = "state"} : (!prim.class<"M">) -> !prim.tensor
  prim.SetAttr %self, %x {name = "state"} : !prim.class<"M">, !prim.tensor
  %new = prim.GetAttr %self {name = "state"} : (!prim.class<"M">) -> !prim.tensor
  %sum = aten.add.Tensor %old, %new, %x : (!prim.tensor, !prim.tensor, !prim.tensor) -> !prim.tensor
  return %sum : !prim.tensor
}

// -----

// A path written twice, or in a branch, stays.
// CHECK-LABEL: func.func @written_in_branch
// CHECK: prim.SetAttr
// CHECK: prim.GetAttr
func.func @written_in_branch(%self: !prim.class<"M">, %x: !prim.tensor, %c: i1) -> !prim.tensor {
  prim.If %c {
    prim.SetAttr %self, %x {name = "state"} : !prim.class<"M">, !prim.tensor
    prim.Yield
  } else {
    prim.Yield
  }
  %new = prim.GetAttr %self {name = "state"} : (!prim.class<"M">) -> !prim.tensor
  return %new : !prim.tensor
}

// -----

// An object the graph creates (the detection transform's ImageList): its
// attributes are read back as the values set, and the object goes.
// CHECK-LABEL: func.func @created_object
// CHECK-NOT: prim::CreateObject
// CHECK-NOT: prim.SetAttr
// CHECK-NOT: prim.GetAttr
// CHECK: %[[SUM:.*]] = aten.add.Tensor %arg0, %arg0
// CHECK: return %[[SUM]], %arg1
func.func @created_object(%x: !prim.tensor, %sizes: !prim.list<i64>) -> (!prim.tensor, !prim.list<i64>) {
  %one = prim.Constant {value = 1 : i64} : i64
  %object = prim.Generic "prim::CreateObject"() : () -> !prim.class<"ImageList">
  prim.SetAttr %object, %x {name = "tensors"} : !prim.class<"ImageList">, !prim.tensor
  prim.SetAttr %object, %sizes {name = "image_sizes"} : !prim.class<"ImageList">, !prim.list<i64>
  %tensors = prim.GetAttr %object {name = "tensors"} : (!prim.class<"ImageList">) -> !prim.tensor
  %sum = aten.add.Tensor %tensors, %x, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %read = prim.GetAttr %object {name = "image_sizes"} : (!prim.class<"ImageList">) -> !prim.list<i64>
  return %sum, %read : !prim.tensor, !prim.list<i64>
}
