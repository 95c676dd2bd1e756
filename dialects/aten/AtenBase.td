//===- AtenBase.td - The aten dialect and its base op class -*- tablegen -*-===//
//
// Every aten op is one overload of a FunctionSchema from torch's registry.
// The typed ops are generated from dialects/aten/schemas.txt (see
// gen_aten_ops.py); this file holds what they share.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_ATEN_BASE_TD
#define TSIR_ATEN_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "PrimTypes.td"

def Aten_Dialect : Dialect {
  let name = "aten";
  let summary = "TorchScript's aten operators, one op per schema overload";
  let description = [{
    Op names keep TorchScript's spelling: `aten::add.Tensor` is
    `aten.add.Tensor`, `aten::mm` is `aten.mm`. Operands follow the schema's
    arguments in order (keyword-only ones included, as TorchScript graphs
    always pass every argument); results follow its returns.
  }];
  let cppNamespace = "::tsir::aten";
  let dependentDialects = ["::tsir::prim::PrimDialect"];
}

// Operand and result constraints the generator maps schema types onto.
// Anything not listed here (number, lists, optionals, type variables, ...)
// is AnyType: TorchScript's subtyping is checked by the importer's overload
// resolution, not by the op verifier.
def Aten_Tensor : Type<CPred<"::llvm::isa<::tsir::prim::TensorType>($_self)">,
                       "TorchScript tensor", "::tsir::prim::TensorType">;
def Aten_Int : AnyTypeOf<[I64]>;
def Aten_Float : AnyTypeOf<[F64]>;
def Aten_Bool : AnyTypeOf<[I1]>;

// Op families, named per op in typed_ops.txt (FAMILIES in gen_aten_ops.py).
// Passes ask `op->hasTrait<aten::OpTrait::X>()`; the C++ side is in
// include/tsir/Dialect/Aten/AtenTraits.h.
class Aten_Family<string name> : NativeOpTrait<name> {
  let cppNamespace = "::tsir::aten::OpTrait";
}
// Torch 1.13's TensorExpr fuser set: what tsir-create-fusion-groups fuses.
def Aten_TensorExprFusible : Aten_Family<"TensorExprFusible">;
// The result's shape is the broadcast of the first 1, 2 or 3 operands and
// its dtype their promotion (at::result_type), refined by at most one of
// the promotion kinds below: tsir-refine-types' rule for the op.
def Aten_ElementwiseUnary : Aten_Family<"ElementwiseUnary">;
def Aten_ElementwiseBinary : Aten_Family<"ElementwiseBinary">;
def Aten_ElementwiseTernary : Aten_Family<"ElementwiseTernary">;
// torch's ELEMENTWISE_TYPE_PROMOTION_KIND: INT_TO_FLOAT, ALWAYS_BOOL,
// COMPLEX_TO_FLOAT; and float_power's float64.
def Aten_PromoteIntToFloat : Aten_Family<"PromoteIntToFloat">;
def Aten_PromoteAlwaysBool : Aten_Family<"PromoteAlwaysBool">;
def Aten_PromoteComplexToReal : Aten_Family<"PromoteComplexToReal">;
def Aten_PromoteToDouble : Aten_Family<"PromoteToDouble">;
// A reduction over its `dim` operand (none: every dim) with its `keepdim`
// (none: false), or an op along its `dim` that keeps the shape; the dtype
// is the input's, or its `dtype` operand's, refined by one of aten's
// accumulation kinds: integer_to_long (sum, cumsum), always_bool (any,
// all; Byte stays Byte), complex_to_real (std, norm), int_to_float
// (logsumexp), to_long (argmax).
def Aten_Reduction : Aten_Family<"Reduction">;
def Aten_AlongDim : Aten_Family<"AlongDim">;
def Aten_PromoteIntegerToLong : Aten_Family<"PromoteIntegerToLong">;
def Aten_PromoteToLong : Aten_Family<"PromoteToLong">;
// What tsir's interpreter runs itself between compiled segments, through
// the runtime kernel of the op's name (lib/compiler/NativeOpKinds.h):
// TorchScript's operators on ints, floats and bools and the equality of
// their lists, strings and devices (register_prim_ops); a tensor's sizes,
// rank and element count; and the views the runtime makes on a tensor,
// sharing its storage (`Tensor(a) self -> Tensor(a)`).
def Aten_ScalarOperator : Aten_Family<"ScalarOperator">;
def Aten_TensorQuery : Aten_Family<"TensorQuery">;
def Aten_StorageView : Aten_Family<"StorageView">;

class Aten_Op<string mnemonic, list<Trait> traits = []>
    : Op<Aten_Dialect, mnemonic, traits> {
  // One printed form for every aten op, so the generated file holds no
  // per-op parse/print code.
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

#endif // TSIR_ATEN_BASE_TD
