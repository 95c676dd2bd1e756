// RUN: tsir-translate --export-torchscript %s | FileCheck %s

// Node kinds without a typed op print their kind verbatim with their
// attributes and blocks; typed prim ops print as `prim::<Name>` with the
// attribute or method name they carry.

// CHECK-LABEL: graph(%self : __torch__.M,
// CHECK-NEXT:       %x.1 : Float(3, 20)):
// CHECK-NEXT:   %fc : __torch__.Linear = prim::GetAttr[name="fc"](%self)
// CHECK-NEXT:   %y : Tensor = prim::CallMethod[name="forward"](%fc, %x.1)
// CHECK-NEXT:   prim::SetAttr[name="last"](%self, %y)
// CHECK-NEXT:   %e : Float(3!, 80) = aten::expand[implicit=0, size=[3, 80]](%x.1)
// CHECK-NEXT:   %s : Float(3, 80) = aten::addmm[alpha={1}, beta={0.5}](%e, %x.1, %x.1)
// CHECK-NEXT:   %m : Tensor = my_ns::magic[flag=True, name="q\"uote", scale=0.25, t= 1 2 [ CPULongType{2} ], ty=int[], w=<Tensor>](%s)
// CHECK-NEXT:   aten::warn[warn_id=0](%m)
// CHECK-NEXT:   %r : Tensor = ^MyPythonOp()(%m)
// CHECK-NEXT:   %w : Tensor = prim::With(%r)
// CHECK-NEXT:     block0(%in : Tensor):
// CHECK-NEXT:       %o : Tensor = aten::relu(%in)
// CHECK-NEXT:       -> (%o)
// CHECK-NEXT:     block1():
// CHECK-NEXT:       -> ()
// CHECK-NEXT:   %i.1 : int? = prim::Constant()
// CHECK-NEXT:   %u : int = prim::unchecked_cast(%i.1)
// CHECK-NEXT:   return (%w, %u)
func.func @graph(%self: !prim.class<"__torch__.M"> loc("self"),
                 %x: !prim.tensor<dtype = f32, sizes = [3, 20]> loc("x.1"))
    -> (!prim.tensor, i64) {
  %fc = prim.GetAttr %self {name = "fc"} : (!prim.class<"__torch__.M">) -> !prim.class<"__torch__.Linear"> loc("fc")
  %y = prim.CallMethod %fc, %x {name = "forward"} : (!prim.class<"__torch__.Linear">, !prim.tensor<dtype = f32, sizes = [3, 20]>) -> !prim.tensor loc("y")
  prim.SetAttr %self, %y {name = "last"} : !prim.class<"__torch__.M">, !prim.tensor
  %e = prim.Generic "aten::expand"(%x) {node_attrs = {size = [3, 80], implicit = 0 : i64}} : (!prim.tensor<dtype = f32, sizes = [3, 20]>) -> !prim.tensor<dtype = f32, sizes = [3, 80], legacy_noncontiguous = [0]> loc("e")
  %s = prim.Generic "aten::addmm"(%e, %x, %x) {node_attrs = {alpha = dense<1> : tensor<si64>, beta = dense<0.5> : tensor<f64>}} : (!prim.tensor<dtype = f32, sizes = [3, 80], legacy_noncontiguous = [0]>, !prim.tensor<dtype = f32, sizes = [3, 20]>, !prim.tensor<dtype = f32, sizes = [3, 20]>) -> !prim.tensor<dtype = f32, sizes = [3, 80]> loc("s")
  %m = prim.Generic "my_ns::magic"(%s) {node_attrs = {flag = true, name = "q\"uote", scale = 0.25 : f64, t = dense<[1, 2]> : tensor<2xsi64>, ty = !prim.list<i64>, w = #prim.tensor_ref<"m">}} : (!prim.tensor<dtype = f32, sizes = [3, 80]>) -> !prim.tensor loc("m")
  prim.Generic "aten::warn"(%m) {node_attrs = {warn_id = 0 : i64}} : (!prim.tensor) -> ()
  %r = prim.Generic "^MyPythonOp()"(%m) : (!prim.tensor) -> !prim.tensor loc("r")
  %w = prim.Generic "prim::With"(%r) : (!prim.tensor) -> !prim.tensor {
  ^bb0(%in: !prim.tensor loc("in")):
    %o = aten.relu %in : (!prim.tensor) -> !prim.tensor loc("o")
    prim.Yield %o : !prim.tensor
  }, {
    prim.Yield
  } loc("w")
  %i = prim.Constant {value = unit} : !prim.optional<i64> loc("i.1")
  %u = prim.unchecked_cast %i : (!prim.optional<i64>) -> i64 loc("u")
  return %w, %u : !prim.tensor, i64
}
