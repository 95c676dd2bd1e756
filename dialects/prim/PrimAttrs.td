//===- PrimAttrs.td - Attributes of the prim dialect -------*- tablegen -*-===//
//
// The few attributes TorchScript needs beyond MLIR's builtin ones: weights
// without data, enum members and inline quantized tensors.
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

// Value names as one parameter: the storage owns the characters, not only
// the array of StringRefs.
def Prim_NameListParameter
    : ArrayRefParameter<"::llvm::StringRef", "result names"> {
  let allocator = [{
    ::llvm::SmallVector<::llvm::StringRef, 2> owned;
    for (::llvm::StringRef name : $_self)
      owned.push_back($_allocator.copyInto(name));
    $_dst = $_allocator.copyInto(::llvm::ArrayRef<::llvm::StringRef>(owned));
  }];
}

// A string the storage owns, kept as a StringRef: StringRefParameter keeps
// a std::string, an allocation per long string and a destructor per
// attribute.
class Prim_OwnedStringParameter<string desc>
    : AttrOrTypeParameter<"::llvm::StringRef", desc> {
  let allocator = [{$_dst = $_allocator.copyInto($_self);}];
  let defaultValue = "\"\"";
}

def Prim_NodeLoc : LocationAttrDef<Prim_Dialect, "NodeLoc"> {
  let mnemonic = "node";
  let summary = "where a TorchScript node came from, and its output names";
  let description = [{
    What a node carries besides its operation: the names of its outputs
    (`%x.1`), its place in the graph text, the source comment torch prints
    after it (`# model.py:7:8`) and its `scope:`.

    ```mlir
    loc(#prim.node<"x.1", "y" at "graph.txt":12:3 source "model.py":7:8
                   scope "__module.l1">)
    ```

    One attribute per node, where builtin locations need about seven
    (a `NameLoc` and a `StringAttr` per name, a `FileLineColLoc` and a
    `NameLoc` for the comment, a `FusedLoc` around them), each uniqued in
    the context: the importer's largest cost. The position stays a
    `FileLineColLoc` parameter, the only one, so that diagnostics, which
    look for the first `FileLineColLoc` inside a location, point at the
    graph text. `tsir/Dialect/Prim/NodeLocation.h` builds and reads it.
  }];
  let parameters = (ins
    OptionalParameter<"::mlir::FileLineColLoc", "in the graph text">:$position,
    Prim_NameListParameter:$names,
    Prim_OwnedStringParameter<"the source comment's file">:$sourceFile,
    DefaultValuedParameter<"unsigned", "0">:$sourceLine,
    DefaultValuedParameter<"unsigned", "0">:$sourceColumn,
    Prim_OwnedStringParameter<"the node's scope">:$scope);
  let hasCustomAssemblyFormat = 1;
}

def Prim_GradientAttr : AttrDef<Prim_Dialect, "Gradient"> {
  let mnemonic = "gradient";
  let summary = "TorchScript's `Gradient`: how a forward graph and its backward fit";
  let description = [{
    What tsir-differentiate leaves on the forward `func.func` (as the
    discardable attribute `prim.gradient`), the contract that TorchScript's
    `Gradient` struct (torch/csrc/jit/runtime/autodiff.h) keeps beside a
    `prim::DifferentiableGraph`:

    - `backward`: the backward function, in the same module;
    - `outputs`: the forward's first results, the original graph's outputs;
    - `captured`: the results after them, the values the backward takes
      first (TorchScript's captured inputs and outputs, in one list);
    - `grad_outputs`: the backward's arguments after the captured ones, one
      gradient per tensor output (the vjp inputs);
    - `wrt`: the names of the values whose gradients the backward returns,
      one result each, in order.

    ```
    #prim.gradient<backward = @graph_backward, outputs = 1, captured = 2,
                   grad_outputs = 1, wrt = ["x", "self.fc.weight"]>
    ```

    The dialect's verifier checks the two functions against it.
  }];
  let parameters = (ins "::mlir::FlatSymbolRefAttr":$backward,
                        "int64_t":$outputs, "int64_t":$captured,
                        "int64_t":$grad_outputs, "::mlir::ArrayAttr":$wrt);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Prim_EnumMemberAttr : AttrDef<Prim_Dialect, "EnumMember"> {
  let mnemonic = "enum_member";
  let summary = "a member of a TorchScript enum, such as `__torch__.Color.RED`";
  let description = [{
    The value of an enum constant, `prim::Constant[value=__torch__.Color.RED]`:
    the enum's qualified name and the member's name,
    `#prim.enum_member<"__torch__.Color", "RED">`. torch prints no more of
    it (not the member's value), so that is all a graph can hold.
  }];
  let parameters = (ins StringRefParameter<"the enum's qualified name">:$enumName,
                        StringRefParameter<"the member's name">:$memberName);
  let assemblyFormat = "`<` $enumName `,` $memberName `>`";
}

def Prim_QuantizedTensorAttr : AttrDef<Prim_Dialect, "QuantizedTensor"> {
  let mnemonic = "quantized_tensor";
  let summary = "a small quantized tensor that torch printed inline";
  let description = [{
    torch's tracer prints a small quantized tensor constant with its
    dequantized values and its quantizer:
    ` 0.1000  0.2000 [ QuantizedCPUQInt8Type{2}, qscheme: per_tensor_affine,
    scale: 0.1000, zero_point: 0 ]`. The attribute keeps exactly that:

    - `values`: the printed (dequantized) values, an f64 elements attribute
      of the tensor's shape;
    - `dtype`: the quantized dtype (`!prim.quantized<si8>` for QInt8);
    - `qscheme`: `per_tensor_affine`, `per_channel_affine`,
      `per_channel_affine_float_qparams`, ...; absent when torch printed a
      one-element tensor as a boxed scalar (`{0.3}`), which drops the
      quantizer;
    - `scales`, `zeroPoints`: 0-d f64 and si64 for a per-tensor quantizer
      (`scale:`, `zero_point:`); 1-d for a per-channel one (`scales:`,
      `zero_points:`), with the element types torch printed (Double and
      Long, or Float for float qparams);
    - `axis`: the channel axis of a per-channel quantizer.

    torch rounds what it prints (four decimals), so these are the printed
    numbers, not the stored integers; running such a constant needs its
    data from elsewhere.
  }];
  let parameters = (ins
    "::mlir::DenseElementsAttr":$values,
    "::mlir::Type":$dtype,
    OptionalParameter<"::mlir::StringAttr">:$qscheme,
    OptionalParameter<"::mlir::DenseElementsAttr">:$scales,
    OptionalParameter<"::mlir::DenseElementsAttr">:$zeroPoints,
    OptionalParameter<"::mlir::IntegerAttr">:$axis
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // TSIR_PRIM_ATTRS_TD
