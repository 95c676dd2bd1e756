// RUN: tsir-translate --export-torchscript %s | FileCheck %s

// Value names come from the locations; a name used twice is made unique
// (`x.1` -> `x.1.1`), values without one get fresh numbers after the
// largest numeric name, and the source comment and scope print after the
// node as torch prints them.

// CHECK-LABEL: graph(%x.1 : Tensor,
// CHECK-NEXT:       %3 : Tensor,
// CHECK-NEXT:       %6 : int):
// CHECK-NEXT:   %c.1 : Tensor = aten::add(%x.1, %3, %6) # cases/x.py:8:8
// CHECK-NEXT:   %7 : int = prim::Constant[value=1]()
// CHECK-NEXT:   %x.1.2 : Tensor = aten::mul(%c.1, %c.1), scope: __module.l1 # f.py:1:2
// CHECK-NEXT:   %x.1.1 : Tensor = aten::mul(%x.1.2, %c.1)
// CHECK-NEXT:   %bad_name_ : Tensor = aten::add(%x.1.1, %x.1.2, %7), scope: __module.l2
// CHECK-NEXT:   %5 : Tensor = aten::neg(%bad_name_)
// CHECK-NEXT:   %8 : Tensor = aten::neg(%5)
// CHECK-NEXT:   %parts : Tensor[] = prim::ListConstruct(%5, %8)
// CHECK-NEXT:   %a : Tensor, %9 : Tensor = prim::ListUnpack(%parts)
// CHECK-NEXT:   return (%a, %9)
func.func @graph(%x: !prim.tensor loc("x.1"), %y: !prim.tensor loc("3"),
                 %alpha: i64) -> (!prim.tensor, !prim.tensor) {
  %c = aten.add.Tensor %x, %y, %alpha : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor loc(fused["c.1", "graph.txt":3:3, "source"("cases/x.py":8:8)])
  %one = prim.Constant {value = 1 : i64} : i64
  %d = aten.mul.Tensor %c, %c : (!prim.tensor, !prim.tensor) -> !prim.tensor loc(fused["x.1", "scope: __module.l1", "source"("f.py":1:2)])
  %e = aten.mul.Tensor %d, %c : (!prim.tensor, !prim.tensor) -> !prim.tensor loc("x.1.1")
  %f = aten.add.Tensor %e, %d, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor loc(fused["bad name!", "scope: __module.l2"])
  %g = aten.neg %f : (!prim.tensor) -> !prim.tensor loc("5")
  %h = aten.neg %g : (!prim.tensor) -> !prim.tensor loc("5")
  %l = prim.ListConstruct %g, %h : (!prim.tensor, !prim.tensor) -> !prim.list<!prim.tensor> loc("parts")
  %a:2 = prim.ListUnpack %l : (!prim.list<!prim.tensor>) -> (!prim.tensor, !prim.tensor) loc("a")
  return %a#0, %a#1 : !prim.tensor, !prim.tensor
}
