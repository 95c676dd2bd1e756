// RUN: tsir-translate --export-torchscript %s | FileCheck %s

// Subgraph ops print as `prim::FusionGroup_N(...)` with their bodies in
// `with ... = graph(...)` sections, as torch's Graph::print writes them:
// N counts the subgraph nodes of every kind of one graph in print order,
// from 0 in each graph, and a graph's sections follow it, each section
// followed at once by its own (the nested prim::FusionGroup_0 after
// prim::FusionGroup_2). Each section is a namespace of its own.

!F = !prim.tensor<dtype = f32, sizes = [1, 1, 128, 128]>
!G = !prim.tensor<dtype = f32, sizes = [1, 1, 128, 128], strides = [16384, 16384, 128, 1], device = "cpu", requires_grad = false>

// CHECK-LABEL: graph(%a.1 : Tensor,
// CHECK-NEXT:       %b.1 : Tensor):
// CHECK-NEXT:   %25 : Float(1, 1, 128, 128), %26 : bool = prim::TypeCheck[types=[Float(1, 1, 128, 128)]](%b.1)
// CHECK-NEXT:   %27 : Tensor = prim::If(%26)
// CHECK-NEXT:     block0():
// CHECK-NEXT:       %z.3 : Float(1, 1, 128, 128) = prim::TensorExprGroup_0(%25)
// CHECK-NEXT:       -> (%z.3)
// CHECK-NEXT:     block1():
// CHECK-NEXT:       %z.2 : Tensor = prim::FallbackGraph_1(%b.1)
// CHECK-NEXT:       -> (%z.2)
// CHECK-NEXT:   %21 : Tensor, %22 : Tensor = prim::FusionGroup_2[device=-1](%a.1, %27)
// CHECK-NEXT:   %d : Tensor = prim::DifferentiableGraph_3(%21)
// CHECK-NEXT:   return (%d, %22)
// CHECK-NEXT: with prim::TensorExprGroup_0 = graph(%4 : Float(1, 1, 128, 128)):
// CHECK-NEXT:   %x.2 : Float(1, 1, 128, 128) = aten::mul(%4, %4)
// CHECK-NEXT:   return (%x.2)
// CHECK-NEXT: with prim::FallbackGraph_1 = graph(%b.1 : Float(1, 1, 128, 128, strides=[16384, 16384, 128, 1], requires_grad=0, device=cpu)):
// CHECK-NEXT:   %x.2 : Tensor = aten::mul(%b.1, %b.1)
// CHECK-NEXT:   return (%x.2)
// CHECK-NEXT: with prim::FusionGroup_2 = graph(%12 : Tensor,
// CHECK-NEXT:       %13 : Tensor):
// CHECK-NEXT:   %7 : Tensor = prim::FusionGroup_0(%12, %13)
// CHECK-NEXT:   %14 : Tensor = aten::sigmoid(%7)
// CHECK-NEXT:   return (%7, %14)
// CHECK-NEXT: with prim::FusionGroup_0 = graph(%0 : Tensor,
// CHECK-NEXT:       %1 : Tensor):
// CHECK-NEXT:   %2 : int = prim::Constant[value=1]()
// CHECK-NEXT:   %3 : Tensor = aten::add(%0, %1, %2)
// CHECK-NEXT:   return (%3)
// CHECK-NEXT: with prim::DifferentiableGraph_3 = graph(%x : Tensor):
// CHECK-NEXT:   %y : Tensor = aten::neg(%x)
// CHECK-NEXT:   return (%y)
// CHECK-NOT: with
func.func @graph(%a: !prim.tensor loc("a.1"), %b: !prim.tensor loc("b.1"))
    -> (!prim.tensor, !prim.tensor) {
  %checked:2 = prim.TypeCheck %b {types = [!F]} : (!prim.tensor) -> (!F, i1) loc(fused["25", "26"])
  %r = prim.If %checked#1 -> (!prim.tensor) {
    %z = prim.TensorExprGroup(%checked#0) : (!F) -> !F {
    ^bb0(%x: !F loc("4")):
      %m = aten.mul.Tensor %x, %x : (!F, !F) -> !F loc("x.2")
      prim.Return %m : !F
    } loc("z.3")
    prim.Yield %z : !F
  } else {
    %z = prim.FallbackGraph(%b) : (!prim.tensor) -> !prim.tensor {
    ^bb0(%x: !G loc("b.1")):
      %m = aten.mul.Tensor %x, %x : (!G, !G) -> !prim.tensor loc("x.2")
      prim.Return %m : !prim.tensor
    } loc("z.2")
    prim.Yield %z : !prim.tensor
  } loc("27")
  %fg:2 = prim.FusionGroup(%a, %r) {node_attrs = {device = -1 : i64}} : (!prim.tensor, !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  ^bb0(%p: !prim.tensor loc("12"), %q: !prim.tensor loc("13")):
    %inner = prim.FusionGroup(%p, %q) : (!prim.tensor, !prim.tensor) -> !prim.tensor {
    ^bb0(%u: !prim.tensor, %v: !prim.tensor):
      %one = prim.Constant {value = 1 : i64} : i64
      %s = aten.add.Tensor %u, %v, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
      prim.Return %s : !prim.tensor
    } loc("7")
    %sig = aten.sigmoid %inner : (!prim.tensor) -> !prim.tensor
    prim.Return %inner, %sig : !prim.tensor, !prim.tensor
  } loc(fused["21", "22"])
  %d = prim.Generic "prim::DifferentiableGraph_0"(%fg#0) : (!prim.tensor) -> !prim.tensor {
  ^bb0(%x: !prim.tensor loc("x")):
    %y = aten.neg %x : (!prim.tensor) -> !prim.tensor loc("y")
    prim.Yield %y : !prim.tensor
  } loc("d")
  return %d, %fg#1 : !prim.tensor, !prim.tensor
}
