// RUN: tsir-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// #prim.gradient on a forward graph: the forward returns its outputs and
// then the captured values, and the backward takes the captured values
// and then the output gradients, returning one gradient per wrt name.
// CHECK-LABEL: func.func @graph
// CHECK-SAME: prim.gradient = #prim.gradient<backward = @graph_backward, outputs = 1, captured = 1, grad_outputs = 1, wrt = ["x"]>
func.func @graph(%x: !prim.tensor) -> (!prim.tensor, !prim.tensor) attributes {
    prim.gradient = #prim.gradient<backward = @graph_backward, outputs = 1,
                                   captured = 1, grad_outputs = 1, wrt = ["x"]>} {
  %y = aten.exp %x : (!prim.tensor) -> !prim.tensor
  return %y, %y : !prim.tensor, !prim.tensor
}
func.func @graph_backward(%saved: !prim.tensor, %g: !prim.tensor) -> !prim.tensor {
  %gx = aten.mul.Tensor %g, %saved : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %gx : !prim.tensor
}

// -----

// expected-error@+1 {{prim.gradient: the forward returns 1 values, not 1 outputs and 1 captured values}}
func.func @graph(%x: !prim.tensor) -> !prim.tensor attributes {
    prim.gradient = #prim.gradient<backward = @graph_backward, outputs = 1,
                                   captured = 1, grad_outputs = 1, wrt = ["x"]>} {
  return %x : !prim.tensor
}
func.func @graph_backward(%saved: !prim.tensor, %g: !prim.tensor) -> !prim.tensor {
  return %g : !prim.tensor
}

// -----

// expected-error@+1 {{prim.gradient: no backward function missing}}
func.func @graph(%x: !prim.tensor) -> !prim.tensor attributes {
    prim.gradient = #prim.gradient<backward = @missing, outputs = 1,
                                   captured = 0, grad_outputs = 1, wrt = ["x"]>} {
  return %x : !prim.tensor
}

// -----

// expected-error@+1 {{prim.gradient: the backward takes 1 arguments, not 0 captured values and 2 output gradients}}
func.func @graph(%x: !prim.tensor) -> !prim.tensor attributes {
    prim.gradient = #prim.gradient<backward = @graph_backward, outputs = 1,
                                   captured = 0, grad_outputs = 2, wrt = ["x"]>} {
  return %x : !prim.tensor
}
func.func @graph_backward(%g: !prim.tensor) -> !prim.tensor {
  return %g : !prim.tensor
}

// -----

// expected-error@+1 {{prim.gradient: the backward returns 1 gradients for 2 wrt names}}
func.func @graph(%x: !prim.tensor) -> !prim.tensor attributes {
    prim.gradient = #prim.gradient<backward = @graph_backward, outputs = 1,
                                   captured = 0, grad_outputs = 1, wrt = ["x", "y"]>} {
  return %x : !prim.tensor
}
func.func @graph_backward(%g: !prim.tensor) -> !prim.tensor {
  return %g : !prim.tensor
}

// -----

// expected-error@+1 {{prim.gradient: captured value 0 has another type in the backward}}
func.func @graph(%x: !prim.tensor) -> (!prim.tensor, i64) attributes {
    prim.gradient = #prim.gradient<backward = @graph_backward, outputs = 1,
                                   captured = 1, grad_outputs = 1, wrt = ["x"]>} {
  %c = prim.Constant {value = 1 : i64} : i64
  return %x, %c : !prim.tensor, i64
}
func.func @graph_backward(%saved: !prim.tensor, %g: !prim.tensor) -> !prim.tensor {
  return %g : !prim.tensor
}

// -----

// expected-error@+1 {{attribute 'prim.gradient' must be a #prim.gradient}}
func.func @graph() attributes {prim.gradient = 1} {
  return
}
