//===- PrimAttrs.td - Attributes of the prim dialect -------*- tablegen -*-===//
//
// The few attributes TorchScript needs beyond MLIR's builtin ones.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PRIM_ATTRS_TD
#define TSIR_PRIM_ATTRS_TD

include "PrimBase.td"

def Prim_TensorRefAttr : AttrDef<Prim_Dialect, "TensorRef"> {
  let mnemonic = "tensor_ref";
  let summary = "a `<Tensor>` constant whose data was not supplied";
  let description = [{
    Frozen graphs print their weights as `prim::Constant[value=<Tensor>]`.
    Imported with a weights file, such a constant holds the data as a
    `dense_resource`; imported without, it holds this attribute, which keeps
    the graph well formed and exports back as `<Tensor>`.

    The attribute names the weight: the constant's value name without the
    `%` (`#prim.tensor_ref<"self.fc.weight">`, `#prim.tensor_ref<"5">` for
    an unnamed `%5`). Constants are equal when their attributes are, so the
    name is what keeps two weights of the same type from being merged by
    CSE or constant pooling.
  }];
  let parameters = (ins StringRefParameter<"the weight's value name">:$name);
  let assemblyFormat = "`<` $name `>`";
}

#endif // TSIR_PRIM_ATTRS_TD
