// RUN: tsir-translate --import-torchscript %S/Inputs/two_weights.txt | tsir-opt --tsir-externalize-weights | FileCheck %s

// Each <Tensor> constant without data becomes a trailing argument, named in
// prim.weight_names, so the runtime binds the weights file's tensors to them.
// CHECK-LABEL: func.func @graph
// CHECK-SAME: (%[[X:.*]]: !prim.tensor, %[[W1:.*]]: !prim.tensor<dtype = f32, sizes = [2, 2]{{.*}}>, %[[W2:.*]]: !prim.tensor<dtype = f32, sizes = [2, 2]{{.*}}>)
// CHECK-SAME: prim.weight_names = ["self.a", "self.b"]
// CHECK-NOT: prim.Constant
// CHECK: aten.mm %[[W1]], %[[W2]]
