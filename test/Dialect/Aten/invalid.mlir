// invalid.mlir - aten ops the verifier and parser reject, with tsir-opt's exact diagnostics.
// RUN: tsir-opt %s -split-input-file -verify-diagnostics

// Too few operands: keyword-only `alpha` is an operand too.
func.func @missing_alpha(%a: !prim.tensor, %b: !prim.tensor) -> !prim.tensor {
  // expected-error @+1 {{'aten.add.Tensor' op expected 3 operands, but found 2}}
  %0 = aten.add.Tensor %a, %b : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %0 : !prim.tensor
}

// -----

func.func @extra_operand(%a: !prim.tensor) -> !prim.tensor {
  // expected-error @+1 {{'aten.tanh' op requires a single operand}}
  %0 = aten.tanh %a, %a : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %0 : !prim.tensor
}

// -----

func.func @types_do_not_match_operands(%a: !prim.tensor) -> !prim.tensor {
  // expected-error @+1 {{custom op 'aten.relu' number of operands and types do not match: got 1 operands and 2 types}}
  %0 = aten.relu %a : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %0 : !prim.tensor
}

// -----

// An i64 where the schema says Tensor.
func.func @int_for_tensor(%a: !prim.tensor, %i: i64) -> !prim.tensor {
  // expected-error @+1 {{'aten.mm' op operand #1 must be TorchScript tensor, but got 'i64'}}
  %0 = aten.mm %a, %i : (!prim.tensor, i64) -> !prim.tensor
  return %0 : !prim.tensor
}

// -----

// A builtin tensor is not a TorchScript tensor.
func.func @builtin_tensor(%a: tensor<2xf32>) -> !prim.tensor {
  // expected-error @+1 {{'aten.relu' op operand #0 must be TorchScript tensor, but got 'tensor<2xf32>'}}
  %0 = aten.relu %a : (tensor<2xf32>) -> !prim.tensor
  return %0 : !prim.tensor
}

// -----

// An f64 where the schema says int.
func.func @float_for_int(%i: i64, %f: f64) -> i64 {
  // expected-error @+1 {{'aten.add.int' op operand #1 must be 64-bit signless integer, but got 'f64'}}
  %0 = aten.add.int %i, %f : (i64, f64) -> i64
  return %0 : i64
}

// -----

// TorchScript's int is i64 only.
func.func @i32_for_int(%a: i32, %b: i64) -> i64 {
  // expected-error @+1 {{'aten.add.int' op operand #0 must be 64-bit signless integer, but got 'i32'}}
  %0 = aten.add.int %a, %b : (i32, i64) -> i64
  return %0 : i64
}

// -----

// An i64 where the schema says bool (`keepdim`).
func.func @int_for_bool(%a: !prim.tensor, %l: !prim.list<i64>, %i: i64, %n: !prim.none) -> !prim.tensor {
  // expected-error @+1 {{'aten.sum.dim_IntList' op operand #2 must be 1-bit signless integer, but got 'i64'}}
  %0 = aten.sum.dim_IntList %a, %l, %i, %n : (!prim.tensor, !prim.list<i64>, i64, !prim.none) -> !prim.tensor
  return %0 : !prim.tensor
}

// -----

func.func @int_result_for_bool(%i: i64) -> i64 {
  // expected-error @+1 {{'aten.gt.int' op result #0 must be 1-bit signless integer, but got 'i64'}}
  %0 = aten.gt.int %i, %i : (i64, i64) -> i64
  return %0 : i64
}

// -----

func.func @int_result_for_tensor(%a: !prim.tensor) -> i64 {
  // expected-error @+1 {{'aten.tanh' op result #0 must be TorchScript tensor, but got 'i64'}}
  %0 = aten.tanh %a : (!prim.tensor) -> i64
  return %0 : i64
}

// -----

// max.dim returns (values, indices).
func.func @result_count(%a: !prim.tensor, %i: i64, %b: i1) -> !prim.tensor {
  // expected-error @+1 {{'aten.max.dim' op expected 2 results}}
  %0 = aten.max.dim %a, %i, %b : (!prim.tensor, i64, i1) -> !prim.tensor
  return %0 : !prim.tensor
}

// -----

// Only overloads listed in typed_ops.txt are ops.
func.func @unknown_op(%a: !prim.tensor) -> !prim.tensor {
  // expected-error @+1 {{custom op 'aten.frobnicate' is unknown}}
  %0 = aten.frobnicate %a : (!prim.tensor) -> !prim.tensor
  return %0 : !prim.tensor
}
