// RUN: tsir-opt %s -split-input-file -verify-diagnostics

func.func @position_without_column(%x: !prim.tensor) -> !prim.tensor {
  // expected-error@+1 {{expected ':'}}
  %y = aten.relu %x : (!prim.tensor) -> !prim.tensor loc(#prim.node<"y" at "g.txt":3>)
  return %y : !prim.tensor
}

// -----

func.func @source_without_file(%x: !prim.tensor) -> !prim.tensor {
  // expected-error@+1 {{a source comment needs a file name}}
  %y = aten.relu %x : (!prim.tensor) -> !prim.tensor loc(#prim.node<"y" source "":1:2>)
  return %y : !prim.tensor
}

// -----

func.func @parts_out_of_order(%x: !prim.tensor) -> !prim.tensor {
  // expected-error@+1 {{expected '>'}}
  %y = aten.relu %x : (!prim.tensor) -> !prim.tensor loc(#prim.node<"y" scope "s" at "g.txt":1:2>)
  return %y : !prim.tensor
}

// -----

func.func @unquoted_name(%x: !prim.tensor) -> !prim.tensor {
  // expected-error@+1 {{expected '>'}}
  %y = aten.relu %x : (!prim.tensor) -> !prim.tensor loc(#prim.node<y>)
  return %y : !prim.tensor
}
