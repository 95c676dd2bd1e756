// RUN: tsir-translate --export-torchscript %s --split-input-file --verify-diagnostics

// What TorchScript cannot express is an error on the op that holds it.

func.func @graph(%x: i64) -> i64 {
  // expected-error @+1 {{cannot export 'builtin.unrealized_conversion_cast' to TorchScript: the 'builtin' dialect has no TorchScript equivalent}}
  %y = builtin.unrealized_conversion_cast %x : i64 to i64
  return %y : i64
}

// -----

// expected-error @+1 {{cannot export block argument #0 of type 'tensor<2xf32>': TorchScript has no such type}}
func.func @graph(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

func.func @graph() -> !prim.tensor {
  // expected-error @+1 {{cannot export constant}}
  %c = prim.Constant {value = dense<[(1.0, 0.0), (2.0, 0.0)]> : tensor<2xcomplex<f32>>} : !prim.tensor
  return %c : !prim.tensor
}

// -----

// A quantized tensor without its quantizer prints only as torch's boxed
// one-element form.
func.func @graph() -> !prim.tensor {
  // expected-error @+1 {{cannot export constant}}
  %c = prim.Constant {value = #prim.quantized_tensor<values = dense<[0.1, 0.2]> : tensor<2xf64>, dtype = !prim.quantized<si8>>} : !prim.tensor
  return %c : !prim.tensor
}

// -----

// expected-error @+1 {{expected exactly one func.func to export as a TorchScript graph, found 2}}
module {
  func.func @a() {
    return
  }
  func.func @b() {
    return
  }
}

// -----

// expected-error @+1 {{expected exactly one func.func to export as a TorchScript graph, found 0}}
module {
}
