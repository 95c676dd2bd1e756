//===- ProbeOps.td - The example's own dialect -------------*- tablegen -*-===//
//
// One op that marks a TorchScript tensor for inspection. Its operand and
// result are tsir's !prim.tensor, declared with the installed PrimTypes.td.
//
//===----------------------------------------------------------------------===//

#ifndef PROBE_OPS_TD
#define PROBE_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "PrimTypes.td"

def Probe_Dialect : Dialect {
  let name = "probe";
  let summary = "An embedder's dialect, mixed with tsir's prim and aten";
  let cppNamespace = "::probe";
}

def Probe_TapOp : Op<Probe_Dialect, "tap", [AllTypesMatch<["value", "result"]>]> {
  let summary = "passes a tensor through, marking it for inspection";
  let arguments = (ins Prim_TensorType:$value, StrAttr:$label);
  let results = (outs Prim_TensorType:$result);
  let assemblyFormat = "$value $label attr-dict `:` qualified(type($value))";
}

#endif // PROBE_OPS_TD
