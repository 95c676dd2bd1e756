// RUN: tsir-translate --export-torchscript %s | FileCheck %s
// RUN: tsir-translate --export-torchscript %s | tsir-translate --import-torchscript --mlir-print-debuginfo | tsir-translate --export-torchscript | FileCheck %s

// A prim.UnusedSubgraph beside the graph prints as one of the main graph's
// `with` sections, under its own name. Its number is kept: the subgraph
// nodes are numbered around it (the fusion group takes 1, since 0 is the
// unused section's), and the sections print in number order. An unused
// section whose name another has takes a fresh number, so that the text
// reads back (the second RUN line) and exports the same; one whose name has
// no number prints after the numbered ones. The body's own subgraph
// nodes are numbered from 0 and their sections follow it.

!T = !prim.tensor<dtype = f32, sizes = [2]>

// CHECK-LABEL: graph(%x : Float(2)):
// CHECK-NEXT:   %y : Float(2) = prim::FusionGroup_1(%x)
// CHECK-NEXT:   %z : Float(2) = prim::FusionGroup_3(%y)
// CHECK-NEXT:   return (%z)
// CHECK-NEXT: with prim::FusionGroup_0 = graph(%a : Float(2)):
// CHECK-NEXT:   %b : Float(2) = aten::sigmoid(%a)
// CHECK-NEXT:   return (%b)
// CHECK-NEXT: with prim::FusionGroup_1 = graph(%p : Float(2)):
// CHECK-NEXT:   %q : Float(2) = aten::relu(%p)
// CHECK-NEXT:   return (%q)
// CHECK-NEXT: with prim::DifferentiableGraph_2 = graph(%d : Float(2)):
// CHECK-NEXT:   %e : Float(2) = prim::FusionGroup_0(%d)
// CHECK-NEXT:   return (%e)
// CHECK-NEXT: with prim::FusionGroup_0 = graph(%f : Float(2)):
// CHECK-NEXT:   %g : Float(2) = aten::tanh(%f)
// CHECK-NEXT:   return (%g)
// CHECK-NEXT: with prim::FusionGroup_3 = graph(%p : Float(2)):
// CHECK-NEXT:   %q : Float(2) = aten::neg(%p)
// CHECK-NEXT:   return (%q)
// CHECK-NEXT: with prim::FusionGroup_4 = graph(%i : Float(2)):
// CHECK-NEXT:   return (%i)
// CHECK-NEXT: with my_section = graph(%h : Float(2)):
// CHECK-NEXT:   return (%h)
// CHECK-NOT: with
func.func @graph(%x: !T loc("x")) -> !T {
  %y = prim.FusionGroup(%x) : (!T) -> !T {
  ^bb0(%p: !T loc("p")):
    %q = aten.relu %p : (!T) -> !T loc("q")
    prim.Return %q : !T
  } loc("y")
  %z = prim.FusionGroup(%y) : (!T) -> !T {
  ^bb0(%p: !T loc("p")):
    %q = aten.neg %p : (!T) -> !T loc("q")
    prim.Return %q : !T
  } loc("z")
  return %z : !T
}
prim.UnusedSubgraph "my_section" {
^bb0(%h: !T loc("h")):
  prim.Return %h : !T
}
prim.UnusedSubgraph "prim::FusionGroup_0" {
^bb0(%a: !T loc("a")):
  %b = aten.sigmoid %a : (!T) -> !T loc("b")
  prim.Return %b : !T
}
prim.UnusedSubgraph "prim::DifferentiableGraph_2" {
^bb0(%d: !T loc("d")):
  %e = prim.FusionGroup(%d) : (!T) -> !T {
  ^bb0(%f: !T loc("f")):
    %g = aten.tanh %f : (!T) -> !T loc("g")
    prim.Return %g : !T
  } loc("e")
  prim.Return %e : !T
}
prim.UnusedSubgraph "prim::FusionGroup_0" {
^bb0(%i: !T loc("i")):
  prim.Return %i : !T
}
