// RUN: tsir-opt --prim-inline-subgraphs -split-input-file %s | FileCheck %s
// RUN: tsir-opt --prim-inline-subgraphs -split-input-file --mlir-print-debuginfo %s | FileCheck %s --check-prefix=LOC
// The corpus's fused graphs still verify and export once inlined.
// RUN: tsir-translate --import-torchscript %corpus/formats/torch_2019_fusion_group.txt --mlir-print-debuginfo | tsir-opt --prim-inline-subgraphs --mlir-print-debuginfo | tsir-translate --export-torchscript | FileCheck %s --check-prefix=FUSION2019
// RUN: tsir-translate --import-torchscript %corpus/formats/seed_nnc_guarded_fusion.txt --mlir-print-debuginfo | tsir-opt --prim-inline-subgraphs --mlir-print-debuginfo | tsir-translate --export-torchscript | FileCheck %s --check-prefix=NNC

// FUSION2019-NOT: FusionGroup
// FUSION2019: aten::sigmoid
// FUSION2019: aten::tanh
// FUSION2019: return

// NNC: prim::TypeCheck
// NNC: prim::If
// NNC-NEXT: block0():
// NNC-NEXT: %x.2 : Float(1, 1, 128, 128) = aten::mul(%[[T:[0-9]+]], %[[T]])
// NNC-NEXT: %y.2 : Float(1, 1, 128, 128) = aten::sin(%x.2)
// NNC-NEXT: %z.3 : Float(1, 1, 128, 128) = aten::mul(%y.2, %y.2)
// NNC-NEXT: -> (%z.3)
// NNC-NEXT: block1():
// NNC-NEXT: %[[B:.*]] : Float(1, 1, 128, 128, {{.*}}) = prim::unchecked_cast(%b.1)
// NNC-NEXT: aten::mul(%[[B]], %[[B]])
// NNC-NOT: TensorExprGroup
// NNC-NOT: FallbackGraph

// A fusion group's body replaces it: block arguments become its operands,
// its results the returned values.
// CHECK-LABEL: func.func @fusion_group
// CHECK-SAME: (%[[X:.*]]: !prim.tensor, %[[Y:.*]]: !prim.tensor)
// CHECK-NEXT: %[[C:.*]] = prim.Constant {value = 1 : i64}
// CHECK-NEXT: %[[S:.*]] = aten.add.Tensor %[[X]], %[[Y]], %[[C]]
// CHECK-NEXT: %[[T:.*]] = aten.tanh %[[S]]
// CHECK-NEXT: %[[M:.*]] = aten.mul.Tensor %[[T]], %[[Y]]
// CHECK-NEXT: return %[[M]], %[[S]]
func.func @fusion_group(%x: !prim.tensor, %y: !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  %r:2 = prim.FusionGroup(%x, %y) {node_attrs = {device = -1 : i64}} : (!prim.tensor, !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  ^bb0(%a: !prim.tensor, %b: !prim.tensor):
    %one = prim.Constant {value = 1 : i64} : i64
    %s = aten.add.Tensor %a, %b, %one : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
    %t = aten.tanh %s : (!prim.tensor) -> !prim.tensor
    %m = aten.mul.Tensor %t, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
    prim.Return %m, %s : !prim.tensor, !prim.tensor
  }
  return %r#0, %r#1 : !prim.tensor, !prim.tensor
}

// -----

// A differentiated subgraph's forward returns the backward's captured
// values after its results: inlined, they are dropped.
// CHECK-LABEL: func.func @differentiable_graph
// CHECK-NEXT: %[[M:.*]] = aten.mm %arg0, %arg1
// CHECK-NEXT: %[[R:.*]] = aten.relu %[[M]]
// CHECK-NEXT: return %[[R]]
func.func @differentiable_graph(%x: !prim.tensor, %w: !prim.tensor) -> !prim.tensor {
  %r = prim.DifferentiableGraph(%x, %w) : (!prim.tensor, !prim.tensor) -> !prim.tensor {
  ^bb0(%a: !prim.tensor, %b: !prim.tensor):
    %m = aten.mm %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
    %y = aten.relu %m : (!prim.tensor) -> !prim.tensor
    prim.Return %y, %a, %m : !prim.tensor, !prim.tensor, !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// The results' names go to the ops that now compute them, each result of
// a multi-result op its own.
// LOC-LABEL: func.func @names
// LOC: aten.tanh {{.*}} loc(#[[TANH:[a-z0-9]+]])
// LOC: aten.sin {{.*}} loc(#[[SIN:[a-z0-9]+]])
// LOC: prim.TupleUnpack {{.*}} loc(#[[UNPACK:[a-z0-9]+]])
// LOC-DAG: #[[TANH]] = #prim.node<"out.1" at "g.txt":9:3>
// LOC-DAG: #[[SIN]] = #prim.node<"out.2" at "g.txt":10:3>
// LOC-DAG: #[[UNPACK]] = #prim.node<"out.4", "out.3" at "g.txt":11:3>
func.func @names(%x: !prim.tensor) -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) {
  %r:4 = prim.TensorExprGroup(%x) : (!prim.tensor) -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) {
  ^bb0(%a: !prim.tensor):
    %t = aten.tanh %a : (!prim.tensor) -> !prim.tensor loc(fused["t.1", "g.txt":9:3])
    %s = aten.sin %a : (!prim.tensor) -> !prim.tensor loc(fused["s.1", "g.txt":10:3])
    %tup = prim.TupleConstruct %t, %s : (!prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor>
    %u:2 = prim.TupleUnpack %tup : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor) loc(fused["u.1", "u.2", "g.txt":11:3])
    prim.Return %t, %s, %u#1, %u#0 : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor
  } loc(fused["out.1", "out.2", "out.3", "out.4", "g.txt":3:3])
  return %r#0, %r#1, %r#2, %r#3 : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// The guarded fusion of the profiling executor: the fallback graph takes
// the profiled type of an unrefined tensor, which a prim.unchecked_cast now
// states; a value returned with another type than the result's is cast
// back, so that the function's return still matches its signature.
// CHECK-LABEL: func.func @guarded
// CHECK: %[[TC:.*]]:2 = prim.TypeCheck %arg0
// CHECK-NEXT: prim.If %[[TC]]#1 -> (!prim.tensor) {
// CHECK-NEXT:   %[[A:.*]] = aten.sin %[[TC]]#0 : (!prim.tensor<dtype = f32, sizes = [2]>) -> !prim.tensor<dtype = f32, sizes = [2]>
// CHECK-NEXT:   prim.Yield %[[A]]
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[CAST:.*]] = prim.unchecked_cast %arg0 : (!prim.tensor) -> !prim.tensor<dtype = f32, sizes = [2]>
// CHECK-NEXT:   %[[B:.*]] = aten.sin %[[CAST]]
// CHECK-NEXT:   prim.Yield %[[B]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = aten.cos %arg0 : (!prim.tensor) -> !prim.tensor<dtype = f32>
// CHECK-NEXT: %[[BACK:.*]] = prim.unchecked_cast %[[R]] : (!prim.tensor<dtype = f32>) -> !prim.tensor
// CHECK-NEXT: return %{{.*}}, %[[BACK]]
func.func @guarded(%x: !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  %t:2 = prim.TypeCheck %x {types = [!prim.tensor<dtype = f32, sizes = [2]>]} : (!prim.tensor) -> (!prim.tensor<dtype = f32, sizes = [2]>, i1)
  %r = prim.If %t#1 -> (!prim.tensor) {
    %z = prim.TensorExprGroup(%t#0) : (!prim.tensor<dtype = f32, sizes = [2]>) -> !prim.tensor<dtype = f32, sizes = [2]> {
    ^bb0(%a: !prim.tensor<dtype = f32, sizes = [2]>):
      %s = aten.sin %a : (!prim.tensor<dtype = f32, sizes = [2]>) -> !prim.tensor<dtype = f32, sizes = [2]>
      prim.Return %s : !prim.tensor<dtype = f32, sizes = [2]>
    }
    prim.Yield %z : !prim.tensor<dtype = f32, sizes = [2]>
  } else {
    %z = prim.FallbackGraph(%x) : (!prim.tensor) -> !prim.tensor {
    ^bb0(%b: !prim.tensor<dtype = f32, sizes = [2]>):
      %s = aten.sin %b : (!prim.tensor<dtype = f32, sizes = [2]>) -> !prim.tensor
      prim.Return %s : !prim.tensor
    }
    prim.Yield %z : !prim.tensor
  }
  %w = prim.FallbackGraph(%x) : (!prim.tensor) -> !prim.tensor {
  ^bb0(%c: !prim.tensor):
    %k = aten.cos %c : (!prim.tensor) -> !prim.tensor<dtype = f32>
    prim.Return %k : !prim.tensor<dtype = f32>
  }
  return %r, %w : !prim.tensor, !prim.tensor
}

// -----

// A body that passes an input through: the result is the operand. Nested
// subgraphs are inlined too, inner first.
// CHECK-LABEL: func.func @passthrough_and_nested
// CHECK-NEXT: %[[R:.*]] = aten.relu %arg0
// CHECK-NEXT: return %arg0, %[[R]]
func.func @passthrough_and_nested(%x: !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  %r:2 = prim.FusionGroup(%x) : (!prim.tensor) -> (!prim.tensor, !prim.tensor) {
  ^bb0(%a: !prim.tensor):
    %in = prim.FusionGroup(%a) : (!prim.tensor) -> !prim.tensor {
    ^bb1(%b: !prim.tensor):
      %c = aten.relu %b : (!prim.tensor) -> !prim.tensor
      prim.Return %c : !prim.tensor
    }
    prim.Return %a, %in : !prim.tensor, !prim.tensor
  }
  return %r#0, %r#1 : !prim.tensor, !prim.tensor
}

// -----

// Other region ops stay as they are.
// CHECK-LABEL: func.func @other_regions
// CHECK: prim.Generic "prim::With"
// CHECK: prim.If
func.func @other_regions(%x: !prim.tensor, %c: i1) -> !prim.tensor {
  prim.Generic "prim::With"(%x) : (!prim.tensor) -> () {
    %y = aten.relu %x : (!prim.tensor) -> !prim.tensor
    prim.Yield
  }
  %r = prim.If %c -> (!prim.tensor) {
    prim.Yield %x : !prim.tensor
  } else {
    prim.Yield %x : !prim.tensor
  }
  return %r : !prim.tensor
}
