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
}

class Prim_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Prim_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class Prim_Op<string mnemonic, list<Trait> traits = []>
    : Op<Prim_Dialect, mnemonic, traits>;

#endif // TSIR_PRIM_BASE_TD
