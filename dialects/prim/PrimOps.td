//===- PrimOps.td - TorchScript's structural operators -----*- tablegen -*-===//
//
// prim.Constant, the region ops (If, Loop, fusion groups), list/tuple/dict
// construction, objects, calls, and the generic op that keeps any node kind
// tsir has no typed op for.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PRIM_OPS_TD
#define TSIR_PRIM_OPS_TD

include "PrimTypes.td"
include "PrimAttrs.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def Prim_ConstantOp : Prim_Op<"Constant", [ConstantLike, Pure]> {
  let summary = "a TorchScript constant";
  let description = [{
    The value attribute depends on the result type: an `i64`/`f64`/`i1`
    attribute for int/float/bool, a string for `str`, `Device` and
    `Function` (the function's name), `unit` for `None`, an array for lists
    and tuples (nested as printed), a dense elements attribute for a small
    tensor printed inline, a `dense_resource` for a weight loaded from a
    safetensors file, and `#prim.tensor_ref` for a `<Tensor>` without data.

    ```mlir
    %0 = prim.Constant {value = 1 : i64} : i64
    %1 = prim.Constant {value = [0 : i64, 0 : i64]} : !prim.list<i64>
    %2 = prim.Constant {value = unit} : !prim.none
    ```
  }];
  let arguments = (ins AnyAttr:$value);
  let results = (outs AnyType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

def Prim_IfOp : Prim_Op<"If", [
    RecursiveMemoryEffects, NoRegionArguments,
    SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<RegionBranchOpInterface, [
        "getRegionInvocationBounds", "getEntrySuccessorRegions",
        "areTypesCompatible"]>]> {
  let summary = "TorchScript's `prim::If`";
  let description = [{
    Runs `then` if the condition holds, else `else`; each ends in a
    `prim.Yield` of the op's results (a yielded type may be a subtype of the
    result type, as in TorchScript). Both regions are always present.

    ```mlir
    %r = prim.If %c -> (!prim.tensor) {
      prim.Yield %a : !prim.tensor
    } else {
      prim.Yield %b : !prim.tensor
    }
    ```
  }];
  let arguments = (ins I1:$condition);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$thenRegion, SizedRegion<1>:$elseRegion);
  let assemblyFormat = [{
    $condition (`->` `(` type($results)^ `)`)? $thenRegion `else` $elseRegion
    attr-dict
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes, "::mlir::Value":$condition)>
  ];
}

def Prim_LoopOp : Prim_Op<"Loop", [
    RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<RegionBranchOpInterface, [
        "getEntrySuccessorOperands", "areTypesCompatible"]>]> {
  let summary = "TorchScript's `prim::Loop`";
  let description = [{
    TorchScript's one loop: runs the body while `iteration < maxTripCount`
    and the condition holds. The body block takes the iteration number (an
    `i64` counting from 0) and the loop-carried values, and ends in
    `prim.Yield %continue, %carried...`. A `for` loop has a constant-true
    condition; a `while` loop has trip count INT64_MAX.

    ```mlir
    %z = prim.Loop %n, %true, %x : !prim.tensor -> (!prim.tensor) {
    ^bb0(%i: i64, %acc: !prim.tensor):
      ...
      prim.Yield %true, %next : i1, !prim.tensor
    }
    ```
  }];
  let arguments = (ins I64:$maxTripCount, I1:$initialCondition,
                       Variadic<AnyType>:$initArgs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $maxTripCount `,` $initialCondition (`,` $initArgs^ `:` type($initArgs))?
    (`->` `(` type($results)^ `)`)? $body attr-dict
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes, "::mlir::Value":$maxTripCount,
                   "::mlir::Value":$initialCondition, "::mlir::ValueRange":$initArgs)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    ::mlir::BlockArgument getIterationArg() { return getBodyBlock().getArgument(0); }
    ::mlir::Block::BlockArgListType getCarriedArgs() {
      return getBodyBlock().getArguments().drop_front();
    }
  }];
}

def Prim_YieldOp : Prim_Op<"Yield", [
    Pure, Terminator, ParentOneOf<["IfOp", "LoopOp", "GenericOp"]>,
    DeclareOpInterfaceMethods<RegionBranchTerminatorOpInterface>]> {
  let summary = "ends a block of prim.If, prim.Loop or a generic node";
  let description = [{
    TorchScript's block return `-> (%a, %b)`. In a `prim.Loop` body the
    first operand is the condition to continue.
  }];
  let arguments = (ins Variadic<AnyType>:$results);
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

def Prim_ReturnOp : Prim_Op<"Return", [Pure, Terminator, ReturnLike]> {
  let summary = "ends the body of a fusion group or fallback graph";
  let arguments = (ins Variadic<AnyType>:$results);
  let builders = [OpBuilder<(ins), [{ /* nothing to return */ }]>];
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

//===----------------------------------------------------------------------===//
// Subgraph ops: `prim::FusionGroup_0(...)` with `with ... = graph(...)`
//===----------------------------------------------------------------------===//

class Prim_SubgraphOp<string mnemonic, string what>
    : Prim_Op<mnemonic, [IsolatedFromAbove, RecursiveMemoryEffects,
                         SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = what;
  let description = [{
    The node's `with prim::}] # mnemonic # [{_N = graph(...)` subgraph is the
    body; its block arguments are the subgraph's inputs and it ends in
    `prim.Return`. Node attributes (`device=-1`) are kept in `node_attrs`.
  }];
  let arguments = (ins Variadic<AnyType>:$inputs,
                       OptionalAttr<DictionaryAttr>:$node_attrs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $results) $body
  }];
  let hasVerifier = 1;
}

def Prim_FusionGroupOp : Prim_SubgraphOp<"FusionGroup",
    "a group of fused elementwise ops, run as one kernel">;
def Prim_TensorExprGroupOp : Prim_SubgraphOp<"TensorExprGroup",
    "a group fused by the NNC (TensorExpr) fuser">;
def Prim_FallbackGraphOp : Prim_SubgraphOp<"FallbackGraph",
    "the unoptimized graph a guarded fusion falls back to">;

def Prim_DifferentiableGraphOp : Prim_SubgraphOp<"DifferentiableGraph",
    "a subgraph TorchScript's autodiff differentiates as one"> {
  let description = [{
    TorchScript's `prim::DifferentiableGraph_N` (CreateAutodiffSubgraphs,
    or tsir-create-autodiff-subgraphs): the body is the subgraph. Once the
    profiling executor has differentiated it, torch prints its forward
    graph `f` as the section: it returns the node's outputs first, then
    the values the backward captures, so the body may return more values
    than the op has results (the first ones are the results). Running the
    graph inlines the body and drops the captured values.

    ```mlir
    %y = prim.DifferentiableGraph(%x, %w) : (!prim.tensor, !prim.tensor) -> !prim.tensor {
    ^bb0(%a: !prim.tensor, %b: !prim.tensor):
      %m = aten.mm %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
      prim.Return %m, %a : !prim.tensor, !prim.tensor
    }
    ```
  }];
}

def Prim_UnusedSubgraphOp : Prim_Op<"UnusedSubgraph", [
    IsolatedFromAbove, HasParent<"::mlir::ModuleOp">,
    SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = "a `with` section that no node of the graph uses";
  let description = [{
    A used `with prim::FusionGroup_0 = graph(...)` section becomes the body
    of the subgraph op that names it. A section that no node names (one a
    pass left behind, or written by hand) has no such op; it is kept here,
    beside the module's `func.func @graph`, so that it exports back in its
    place. `name` is the section's name as written; the exporter prints the
    section with it and numbers the graph's other sections around it. The
    body is never run: compiling the graph drops it.

    ```mlir
    prim.UnusedSubgraph "prim::FusionGroup_1" {
    ^bb0(%a: !prim.tensor):
      %b = aten.sigmoid %a : (!prim.tensor) -> !prim.tensor
      prim.Return %b : !prim.tensor
    }
    ```

    It declares no memory effects, so that nothing erases it as dead.
  }];
  let arguments = (ins StrAttr:$name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$name attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

def Prim_TypeCheckOp : Prim_Op<"TypeCheck", [Pure]> {
  let summary = "checks tensors against profiled types (a fusion guard)";
  let description = [{
    Returns each input refined to the type in `types`, then an `i1` that
    says whether every input matched.
  }];
  let arguments = (ins Variadic<Prim_TensorType>:$inputs, TypeArrayAttr:$types);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Lists, tuples, dicts
//===----------------------------------------------------------------------===//

def Prim_ListConstructOp : Prim_Op<"ListConstruct", []> {
  let summary = "builds a new list from its operands";
  let description = [{
    Lists are mutable in TorchScript, so each construct allocates a distinct
    list: it must not be merged with an identical one.
  }];
  let arguments = (ins Variadic<AnyType>:$elements);
  let results = (outs Res<Prim_ListType, "", [MemAlloc]>:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Prim_ListUnpackOp : Prim_Op<"ListUnpack", []> {
  let summary = "splits a list into as many values as the op has results";
  let arguments = (ins Arg<Prim_ListType, "", [MemRead]>:$list);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Prim_TupleConstructOp : Prim_Op<"TupleConstruct", [Pure]> {
  let summary = "builds a tuple (tuples are immutable)";
  let arguments = (ins Variadic<AnyType>:$elements);
  let results = (outs AnyType:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Prim_TupleUnpackOp : Prim_Op<"TupleUnpack", [Pure]> {
  let summary = "splits a tuple into its elements";
  let arguments = (ins AnyType:$tuple);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Prim_TupleIndexOp : Prim_Op<"TupleIndex", [Pure]> {
  let summary = "one element of a tuple";
  let arguments = (ins AnyType:$tuple, I64:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Prim_DictConstructOp : Prim_Op<"DictConstruct", []> {
  let summary = "builds a new dict from key, value, key, value, ...";
  let arguments = (ins Variadic<AnyType>:$keysAndValues);
  let results = (outs Res<Prim_DictType, "", [MemAlloc]>:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Objects, calls, effects
//===----------------------------------------------------------------------===//

def Prim_GetAttrOp : Prim_Op<"GetAttr", []> {
  let summary = "reads an attribute of an object (`%self.fc`)";
  let arguments = (ins Arg<AnyType, "", [MemRead]>:$object, StrAttr:$name);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$object attr-dict `:` functional-type(operands, results)";
}

def Prim_SetAttrOp : Prim_Op<"SetAttr", []> {
  let summary = "writes an attribute of an object";
  let arguments = (ins Arg<AnyType, "", [MemWrite]>:$object, AnyType:$value,
                       StrAttr:$name);
  let assemblyFormat = "operands attr-dict `:` type(operands)";
}

def Prim_CallFunctionOp : Prim_Op<"CallFunction", []> {
  let summary = "calls a first-class function value (may do anything)";
  let arguments = (ins AnyType:$callee, Variadic<AnyType>:$arguments);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Prim_CallMethodOp : Prim_Op<"CallMethod", []> {
  let summary = "calls a method of an object (may do anything)";
  let arguments = (ins StrAttr:$name, AnyType:$object, Variadic<AnyType>:$arguments);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Prim_RaiseExceptionOp : Prim_Op<"RaiseException", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "raises an exception with a message (and class name)";
  let arguments = (ins Variadic<AnyType>:$arguments);
  let assemblyFormat = "operands attr-dict `:` type(operands)";
}

def Prim_PrintOp : Prim_Op<"Print", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "prints its operands";
  let arguments = (ins Variadic<AnyType>:$arguments);
  let assemblyFormat = "operands attr-dict `:` type(operands)";
}

def Prim_UninitializedOp : Prim_Op<"Uninitialized", [Pure]> {
  let summary = "a placeholder value on a path that raises or never uses it";
  let results = (outs AnyType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Prim_UncheckedCastOp : Prim_Op<"unchecked_cast", [Pure]> {
  let summary = "refines a value's type without a check (e.g. `int?` to `int`)";
  let arguments = (ins AnyType:$input);
  let results = (outs AnyType:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Prim_NumToTensorOp : Prim_Op<"NumToTensor", []> {
  let summary = "wraps a scalar into a new 0-d tensor";
  let arguments = (ins AnyType:$number);
  let results = (outs Res<Prim_TensorType, "", [MemAlloc]>:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Prim_DeviceOp : Prim_Op<"device", [Pure]> {
  let summary = "the device of a tensor";
  let arguments = (ins Prim_TensorType:$tensor);
  let results = (outs Prim_DeviceType:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Prim_DtypeOp : Prim_Op<"dtype", [Pure]> {
  let summary = "the dtype of a tensor, as TorchScript's ScalarType int";
  let arguments = (ins Prim_TensorType:$tensor);
  let results = (outs I64:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// The generic node
//===----------------------------------------------------------------------===//

def Prim_GenericOp : Prim_Op<"Generic", []> {
  let summary = "any node kind tsir has no typed op for";
  let description = [{
    Keeps a node whole: its `kind` (`aten::foo`, `my_ns::magic`,
    `^PythonOp`, `prim::TensorToBool`), its attributes (`node_attrs`), its
    operands and results, and its blocks, one region each, ending in
    `prim.Yield`. It declares no memory effects, so every pass treats it as
    possibly reading and writing anything.

    ```mlir
    %r = prim.Generic "my_ns::magic"(%x) : (!prim.tensor) -> !prim.tensor
    ```
  }];
  let arguments = (ins StrAttr:$kind, Variadic<AnyType>:$inputs,
                       OptionalAttr<DictionaryAttr>:$node_attrs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region VariadicRegion<SizedRegion<1>>:$blocks);
  let assemblyFormat = [{
    $kind `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    ($blocks^)?
  }];
}

#endif // TSIR_PRIM_OPS_TD
