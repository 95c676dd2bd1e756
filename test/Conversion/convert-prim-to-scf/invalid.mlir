// RUN: tsir-opt %s --convert-prim-to-scf -split-input-file -verify-diagnostics

// A tensor without a dtype and rank has no builtin form: the If is refused
// at its location, naming the result.
func.func @unrefined_if(%c: i1, %a: !prim.tensor) -> !prim.tensor {
  // expected-error @+2 {{result #0 has type '!prim.tensor', which has no builtin form}}
  // expected-error @+1 {{failed to legalize operation 'prim.If'}}
  %0 = prim.If %c -> (!prim.tensor) {
    prim.Yield %a : !prim.tensor
  } else {
    prim.Yield %a : !prim.tensor
  }
  return %0 : !prim.tensor
}

// -----

func.func @unrefined_loop(%n: i64, %a: !prim.tensor) -> !prim.tensor {
  %true = arith.constant true
  // expected-error @+2 {{loop-carried value #0 has type '!prim.tensor', which has no builtin form}}
  // expected-error @+1 {{failed to legalize operation 'prim.Loop'}}
  %0 = prim.Loop %n, %true, %a : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %t: !prim.tensor):
    prim.Yield %true, %t : i1, !prim.tensor
  }
  return %0 : !prim.tensor
}
