// RUN: tsir-opt %s --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s
// RUN: tsir-opt %s --mlir-print-debuginfo | tsir-opt --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s
// RUN: tsir-opt %s --emit-bytecode | tsir-opt --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s
// RUN: tsir-translate --export-torchscript %s | FileCheck %s --check-prefix=TS

// `#prim.node` holds a node's output names, its place in the graph text,
// its source comment and its scope, each part optional; it prints, parses
// back (text and bytecode) and exports as the names and the comment.

// CHECK-LABEL: func.func @graph
// CHECK: aten.relu {{.*}} loc(#prim.node<"y.1" at "g.txt":3:7 source "model.py":7:8 scope "__module.l1">)
// CHECK: prim.TupleUnpack {{.*}} loc(#prim.node<"a", "b" at "g.txt":4:10>)
// CHECK: aten.neg {{.*}} loc(#prim.node<source "C:\\m.py":1:2>)
// CHECK: aten.neg {{.*}} loc(#prim.node<"n" scope "s">)
// CHECK: aten.neg {{.*}} loc(#prim.node<>)
// TS:      %y.1 : Tensor = aten::relu(%0), scope: __module.l1 # model.py:7:8
// TS-NEXT: %a : Tensor, %b : Tensor = prim::TupleUnpack(%1)
// TS-NEXT: %2 : Tensor = aten::neg(%a) # C:\m.py:1:2
// TS-NEXT: %n : Tensor = aten::neg(%b), scope: s
// TS-NEXT: %3 : Tensor = aten::neg(%n){{$}}
func.func @graph(%x: !prim.tensor, %t: !prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) {
  %y = aten.relu %x : (!prim.tensor) -> !prim.tensor loc(#prim.node<"y.1" at "g.txt":3:7 source "model.py":7:8 scope "__module.l1">)
  %a:2 = prim.TupleUnpack %t : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor) loc(#prim.node<"a", "b" at "g.txt":4:10>)
  %c = aten.neg %a#0 : (!prim.tensor) -> !prim.tensor loc(#prim.node<source "C:\\m.py":1:2>)
  %n = aten.neg %a#1 : (!prim.tensor) -> !prim.tensor loc(#prim.node<"n" scope "s">)
  %e = aten.neg %n : (!prim.tensor) -> !prim.tensor loc(#prim.node<>)
  return %y, %c, %n, %e : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor
}
