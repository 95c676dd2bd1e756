// RUN: tsir-opt %s --tsir-finalize-lowering --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s

// Finalization leaves nothing of prim, not even in locations: a node's
// `#prim.node` becomes the builtin form LLVM's debug info translation
// reads (names, graph position, source comment, scope), on the node and
// on ops nested or fused with it.
// CHECK-LABEL: func.func @graph
// CHECK: arith.addi {{.*}} loc(fused["s.1", "g.txt":3:7, "source"("model.py":7:8), "scope: __module.l1"])
// CHECK: arith.muli {{.*}} loc("g.txt":4:7)
// CHECK: scf.if
// CHECK: arith.subi {{.*}} loc(fused["d", "g.txt":6:9])
// CHECK: } loc(fused[{{.*}}"m.py":2:3{{.*}}"g.txt":9:1{{.*}}])
// CHECK: arith.negf {{.*}} loc("f")
// CHECK-NOT: prim.node
func.func @graph(%a: i64, %c: i1, %f: f64) -> (i64, f64) {
  %s = arith.addi %a, %a : i64 loc(#prim.node<"s.1" at "g.txt":3:7 source "model.py":7:8 scope "__module.l1">)
  %m = arith.muli %s, %s : i64 loc(#prim.node<at "g.txt":4:7>)
  %r = scf.if %c -> (i64) {
    %d = arith.subi %m, %a : i64 loc(#prim.node<"d" at "g.txt":6:9>)
    scf.yield %d : i64
  } else {
    scf.yield %m : i64
  } loc(fused[#prim.node<source "m.py":2:3>, "g.txt":9:1])
  %g = arith.negf %f : f64 loc(#prim.node<"f">)
  return %r, %g : i64, f64
}
