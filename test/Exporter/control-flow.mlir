// RUN: tsir-translate --export-torchscript %s | FileCheck %s

// prim::If and prim::Loop print their blocks as torch does: `blockN(...)`
// one level deeper than the node, the nodes two levels deeper, and the
// block's return as `-> (...)`. Nodes without outputs print ` = kind(...)`.

// CHECK-LABEL: graph(%a.1 : Tensor,
// CHECK-NEXT:       %c.1 : bool,
// CHECK-NEXT:       %n.1 : int):
// CHECK-NEXT:   %3 : int = prim::Constant[value=1]()
// CHECK-NEXT:   %e : Tensor = prim::If(%c.1) # cases/if.py:9:4
// CHECK-NEXT:     block0():
// CHECK-NEXT:       %e.1 : Tensor = aten::add(%a.1, %a.1, %3) # cases/if.py:10:12
// CHECK-NEXT:       -> (%e.1)
// CHECK-NEXT:     block1():
// CHECK-NEXT:       %e.1.1 : Tensor = aten::mul(%a.1, %a.1)
// CHECK-NEXT:       -> (%e.1.1)
// CHECK-NEXT:   %4 : bool = prim::Constant[value=1]()
// CHECK-NEXT:   %z : Tensor, %k : int = prim::Loop(%n.1, %4, %e, %3) # cases/loop.py:9:4
// CHECK-NEXT:     block0(%i : int, %z.11 : Tensor, %k.3 : int):
// CHECK-NEXT:       %z.5 : Tensor = aten::mul(%z.11, %z.11)
// CHECK-NEXT:       %5 : str = prim::Constant[value="AssertionError: "]()
// CHECK-NEXT:       %6 : bool = aten::gt(%i, %k.3)
// CHECK-NEXT:       prim::If(%6)
// CHECK-NEXT:         block0():
// CHECK-NEXT:           -> ()
// CHECK-NEXT:         block1():
// CHECK-NEXT:           prim::RaiseException(%5) # <string>:5:2
// CHECK-NEXT:           -> ()
// CHECK-NEXT:       -> (%4, %z.5, %i)
// CHECK-NEXT:   return (%z, %k)
func.func @graph(%a: !prim.tensor loc("a.1"), %c: i1 loc("c.1"),
                 %n: i64 loc("n.1")) -> (!prim.tensor, i64) {
  %one = prim.Constant {value = 1 : i64} : i64 loc("3")
  %e = prim.If %c -> (!prim.tensor) {
    %t = aten.add.Tensor %a, %a, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor loc(fused["e.1", "source"("cases/if.py":10:12)])
    prim.Yield %t : !prim.tensor
  } else {
    %f = aten.mul.Tensor %a, %a : (!prim.tensor, !prim.tensor) -> !prim.tensor loc("e.1")
    prim.Yield %f : !prim.tensor
  } loc(fused["e", "source"("cases/if.py":9:4)])
  %true = prim.Constant {value = true} : i1
  %z:2 = prim.Loop %n, %true, %e, %one : !prim.tensor, i64 -> (!prim.tensor, i64) {
  ^bb0(%i: i64 loc("i"), %acc: !prim.tensor loc("z.11"), %k: i64 loc("k.3")):
    %sq = aten.mul.Tensor %acc, %acc : (!prim.tensor, !prim.tensor) -> !prim.tensor loc("z.5")
    %msg = prim.Constant {value = "AssertionError: "} : !prim.str
    %gt = aten.gt.int %i, %k : (i64, i64) -> i1
    prim.If %gt {
      prim.Yield
    } else {
      prim.RaiseException %msg : !prim.str loc(fused["source"("<string>":5:2)])
      prim.Yield
    }
    prim.Yield %true, %sq, %i : i1, !prim.tensor, i64
  } loc(fused["z", "k", "source"("cases/loop.py":9:4)])
  return %z#0, %z#1 : !prim.tensor, i64
}
