//===- PrimBase.td - The prim dialect and its base classes -*- tablegen -*-===//
//
// The prim dialect holds TorchScript's type system and its structural ops
// (constants, control flow, lists, tuples, objects, fusion groups).
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PRIM_BASE_TD
#define TSIR_PRIM_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Prim_Dialect : Dialect {
  let name = "prim";
  let summary = "TorchScript's type system and structural operators";
  let description = [{
    Op names keep TorchScript's spelling (`prim.Constant`, `prim.If`,
    `prim.Loop`, `prim.ListConstruct`), so the importer and the exporter map
    nodes one to one. TorchScript's scalars are builtin types: `int` is `i64`,
    `float` is `f64`, `bool` is `i1`, `complex` is `complex<f64>`; every other
    TorchScript type is a `prim` type.
  }];
  let cppNamespace = "::tsir::prim";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
  // The signature of a graph function as the compiler sees it, attached to
  // `func.func @graph` by the passes that decide it and read by the code
  // that calls the compiled function (lib/compiler/Plan.cpp):
  // - weight_names: the weights tsir-externalize-weights turned into the
  //   trailing arguments, in order;
  // - argument_types: the TorchScript types of every argument (weights
  //   included) before lowering made them builtin;
  // - written_inputs: the inputs the graph writes in place, one per
  //   trailing result holding the new value (tsir-value-semantics);
  // - argument_positions: for each argument of the lowered function, its
  //   position among the graph's arguments (tsir-finalize-lowering drops
  //   the ones compiled code does not take);
  // - result_types: the TorchScript types of the lowered function's
  //   results;
  // A forward graph also carries `prim.gradient`, a #prim.gradient (written
  // by tsir-differentiate): not among these, as the generated helpers would
  // name the attribute class before PrimAttrs.h.inc declares it.
  let discardableAttrs = (ins
    "::mlir::ArrayAttr":$weight_names,
    "::mlir::ArrayAttr":$argument_types,
    "::mlir::ArrayAttr":$written_inputs,
    "::mlir::ArrayAttr":$argument_positions,
    "::mlir::ArrayAttr":$result_types
  );
  let hasOperationAttrVerify = 1;
}

class Prim_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Prim_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class Prim_Op<string mnemonic, list<Trait> traits = []>
    : Op<Prim_Dialect, mnemonic, traits>;

#endif // TSIR_PRIM_BASE_TD
