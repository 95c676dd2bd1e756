// RUN: tsir-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// The signature of a compiled graph is five prim attributes on the
// function, declared by the dialect (PrimBase.td) and checked by its
// verifier.
// CHECK-LABEL: func.func @graph
// CHECK-SAME: prim.argument_positions = [0, 2]
// CHECK-SAME: prim.argument_types = [i64, !prim.tensor, !prim.tensor]
// CHECK-SAME: prim.result_types = [!prim.tensor]
// CHECK-SAME: prim.weight_names = ["self.w"]
// CHECK-SAME: prim.written_inputs = [1]
func.func @graph() attributes {
    prim.weight_names = ["self.w"],
    prim.argument_types = [i64, !prim.tensor, !prim.tensor],
    prim.written_inputs = [1],
    prim.argument_positions = [0, 2],
    prim.result_types = [!prim.tensor]} {
  return
}

// -----

// expected-error@+1 {{'func.func' op attribute 'prim.weight_names' must be an array of weight names}}
func.func @number_as_name() attributes {prim.weight_names = [1]} {
  return
}

// -----

// expected-error@+1 {{'func.func' op attribute 'prim.written_inputs' must be an array of argument positions (i64, >= 0)}}
func.func @negative_position() attributes {prim.written_inputs = [-1]} {
  return
}

// -----

// expected-error@+1 {{'func.func' op attribute 'prim.result_types' must be an array of types}}
func.func @not_types() attributes {prim.result_types = ["f32"]} {
  return
}

// -----

// expected-error@+1 {{'func.func' op unknown prim attribute 'prim.inputs'}}
func.func @misspelt() attributes {prim.inputs = [0]} {
  return
}
