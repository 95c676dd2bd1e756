// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// Dropout in inference is its input.
// CHECK-LABEL: func.func @dropout_eval
// CHECK-NOT: linalg.generic
// CHECK: return %arg0
func.func @dropout_eval(%x: !prim.tensor<dtype = f32, sizes = [3, 5]>) -> !prim.tensor<dtype = f32, sizes = [3, 5]> {
  %p = prim.Constant {value = 5.000000e-01 : f64} : f64
  %false = prim.Constant {value = false} : i1
  %0 = aten.dropout %x, %p, %false : (!prim.tensor<dtype = f32, sizes = [3, 5]>, f64, i1) -> !prim.tensor<dtype = f32, sizes = [3, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 5]>
}

// -----

func.func @dropout_train(%x: !prim.tensor<dtype = f32, sizes = [3, 5]>) -> !prim.tensor<dtype = f32, sizes = [3, 5]> {
  %p = prim.Constant {value = 5.000000e-01 : f64} : f64
  %true = prim.Constant {value = true} : i1
  // expected-error @+2 {{dropout in training mode is random and not supported}}
  // expected-error @+1 {{failed to legalize operation 'aten.feature_dropout'}}
  %0 = aten.feature_dropout %x, %p, %true : (!prim.tensor<dtype = f32, sizes = [3, 5]>, f64, i1) -> !prim.tensor<dtype = f32, sizes = [3, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3, 5]>
}

// -----

// The stride of a dim of a contiguous tensor: the product of later sizes.
// CHECK-LABEL: func.func @stride_const
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: %[[A:.*]] = arith.muli %[[ONE]], %{{.*}} : i64
// CHECK: %[[B:.*]] = arith.muli %[[A]], %{{.*}} : i64
// CHECK: return %[[B]] : i64
func.func @stride_const(%x: !prim.tensor<dtype = f32, sizes = [3, 4, 5]>) -> i64 {
  %d = prim.Constant {value = 0 : i64} : i64
  %0 = aten.stride.int %x, %d : (!prim.tensor<dtype = f32, sizes = [3, 4, 5]>, i64) -> i64
  return %0 : i64
}

// -----

// A dim known at run time: each later size counts where dim < its index.
// CHECK-LABEL: func.func @stride_dynamic
// CHECK: arith.cmpi slt, %arg1
// CHECK: arith.select
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: arith.muli
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: %[[S:.*]] = arith.muli
// CHECK: return %[[S]] : i64
func.func @stride_dynamic(%x: !prim.tensor<dtype = f32, sizes = [3, 4, 5]>, %d: i64) -> i64 {
  %0 = aten.stride.int %x, %d : (!prim.tensor<dtype = f32, sizes = [3, 4, 5]>, i64) -> i64
  return %0 : i64
}

// -----

// equal of static shapes reduces an all-equal i1 over every element;
// floats compare ordered, so NaN is not equal to itself.
// CHECK-LABEL: func.func @equal
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]
// CHECK: arith.cmpf oeq
// CHECK: arith.andi
// CHECK: %[[R:.*]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK: return %[[R]] : i1
func.func @equal(%x: !prim.tensor<dtype = f32, sizes = [3, 5]>, %y: !prim.tensor<dtype = f32, sizes = [3, 5]>) -> i1 {
  %0 = aten.equal %x, %y : (!prim.tensor<dtype = f32, sizes = [3, 5]>, !prim.tensor<dtype = f32, sizes = [3, 5]>) -> i1
  return %0 : i1
}

// -----

// Different static shapes are not equal, whatever the elements.
// CHECK-LABEL: func.func @equal_shapes
// CHECK: %[[F:.*]] = arith.constant false
// CHECK-NOT: linalg.generic
// CHECK: return %[[F]] : i1
func.func @equal_shapes(%x: !prim.tensor<dtype = si64, sizes = [2, 3]>, %y: !prim.tensor<dtype = si64, sizes = [3, 2]>) -> i1 {
  %0 = aten.equal %x, %y : (!prim.tensor<dtype = si64, sizes = [2, 3]>, !prim.tensor<dtype = si64, sizes = [3, 2]>) -> i1
  return %0 : i1
}

// -----

// Dynamic shapes are compared at run time before the elements.
// CHECK-LABEL: func.func @equal_dynamic
// CHECK: %[[SAME:.*]] = arith.andi
// CHECK: scf.if %[[SAME]] -> (i1)
// CHECK: arith.cmpi eq
// CHECK: } else {
// CHECK: scf.yield %false
func.func @equal_dynamic(%x: !prim.tensor<dtype = si64, sizes = [?]>, %y: !prim.tensor<dtype = si64, sizes = [?]>) -> i1 {
  %0 = aten.equal %x, %y : (!prim.tensor<dtype = si64, sizes = [?]>, !prim.tensor<dtype = si64, sizes = [?]>) -> i1
  return %0 : i1
}

// -----

// mse_loss with mean: squared differences, summed, divided by the count.
// CHECK-LABEL: func.func @mse_loss_mean
// CHECK: linalg.generic
// CHECK: %[[D:.*]] = arith.subf
// CHECK: arith.mulf %[[D]], %[[D]] : f32
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]
// CHECK: arith.addf
// CHECK: %[[N:.*]] = arith.constant 1.500000e+01 : f32
// CHECK: linalg.generic
// CHECK: arith.divf %{{.*}}, %[[N]] : f32
// CHECK: -> tensor<f32>
func.func @mse_loss_mean(%x: !prim.tensor<dtype = f32, sizes = [3, 5]>, %y: !prim.tensor<dtype = f32, sizes = [3, 5]>) -> !prim.tensor<dtype = f32, sizes = []> {
  %r = prim.Constant {value = 1 : i64} : i64
  %0 = aten.mse_loss %x, %y, %r : (!prim.tensor<dtype = f32, sizes = [3, 5]>, !prim.tensor<dtype = f32, sizes = [3, 5]>, i64) -> !prim.tensor<dtype = f32, sizes = []>
  return %0 : !prim.tensor<dtype = f32, sizes = []>
}

// -----

// nll_loss: the negated log probability at each target, 0 where the target
// is ignore_index (read at class 0 so that the index stays in range); the
// mean divides by the number of targets not ignored. The targets are
// checked first, as torch does: each a class or ignore_index.
// CHECK-LABEL: func.func @nll_loss_mean
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<i1>)
// CHECK: cf.assert %{{.*}}, "Target is out of bounds."
// CHECK: linalg.generic
// CHECK: ^bb0(%[[T:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[IGN:.*]] = arith.cmpi eq, %[[T]], %{{.*}} : i64
// CHECK: %[[SAFE:.*]] = arith.select %[[IGN]], %{{.*}}, %[[T]] : i64
// CHECK: %[[CLASS0:.*]] = arith.index_cast %[[SAFE]] : i64 to index
// CHECK: %[[LOW:.*]] = arith.minsi %[[CLASS0]], %{{.*}} : index
// CHECK: %[[CLASS:.*]] = arith.maxsi %[[LOW]], %{{.*}} : index
// CHECK: %[[P:.*]] = tensor.extract %{{.*}}[%{{.*}}, %[[CLASS]]] : tensor<4x5xf32>
// CHECK: %[[NEG:.*]] = arith.negf %[[P]] : f32
// CHECK: arith.select %[[IGN]], %{{.*}}, %[[NEG]] : f32
// CHECK: -> tensor<4xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]
// CHECK: arith.cmpi ne
// CHECK: arith.uitofp
// CHECK: arith.divf
func.func @nll_loss_mean(%x: !prim.tensor<dtype = f32, sizes = [4, 5]>, %t: !prim.tensor<dtype = si64, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = []> {
  %none = prim.Constant {value} : !prim.none
  %r = prim.Constant {value = 1 : i64} : i64
  %ignore = prim.Constant {value = -100 : i64} : i64
  %0 = aten.nll_loss %x, %t, %none, %r, %ignore : (!prim.tensor<dtype = f32, sizes = [4, 5]>, !prim.tensor<dtype = si64, sizes = [4]>, !prim.none, i64, i64) -> !prim.tensor<dtype = f32, sizes = []>
  return %0 : !prim.tensor<dtype = f32, sizes = []>
}

// -----

// cross_entropy_loss is log_softmax along the class dim, then nll_loss.
// CHECK-LABEL: func.func @cross_entropy_none
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: math.log
// CHECK: tensor.extract %{{.*}} : tensor<2x3x5xf32>
// CHECK: -> tensor<2x5xf32>
func.func @cross_entropy_none(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 5]>, %t: !prim.tensor<dtype = si64, sizes = [2, 5]>) -> !prim.tensor<dtype = f32, sizes = [2, 5]> {
  %none = prim.Constant {value} : !prim.none
  %r = prim.Constant {value = 0 : i64} : i64
  %ignore = prim.Constant {value = -100 : i64} : i64
  %smooth = prim.Constant {value = 0.000000e+00 : f64} : f64
  %0 = aten.cross_entropy_loss %x, %t, %none, %r, %ignore, %smooth : (!prim.tensor<dtype = f32, sizes = [2, 3, 5]>, !prim.tensor<dtype = si64, sizes = [2, 5]>, !prim.none, i64, i64, f64) -> !prim.tensor<dtype = f32, sizes = [2, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 5]>
}

// -----

// label_smoothing outside [0, 1]: torch's message.
func.func @cross_entropy_smoothing(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>, %t: !prim.tensor<dtype = si64, sizes = [2]>) -> !prim.tensor<dtype = f32, sizes = []> {
  %none = prim.Constant {value} : !prim.none
  %r = prim.Constant {value = 1 : i64} : i64
  %ignore = prim.Constant {value = -100 : i64} : i64
  %smooth = prim.Constant {value = 1.500000e+00 : f64} : f64
  // expected-error @+2 {{label_smoothing must be between 0.0 and 1.0. Got: 1.5}}
  // expected-error @+1 {{failed to legalize operation 'aten.cross_entropy_loss'}}
  %0 = aten.cross_entropy_loss %x, %t, %none, %r, %ignore, %smooth : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = si64, sizes = [2]>, !prim.none, i64, i64, f64) -> !prim.tensor<dtype = f32, sizes = []>
  return %0 : !prim.tensor<dtype = f32, sizes = []>
}

// -----

// Class weights of another count than the classes: torch's message.
func.func @nll_loss_weight_size(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>, %t: !prim.tensor<dtype = si64, sizes = [2]>, %w: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = []> {
  %r = prim.Constant {value = 1 : i64} : i64
  %ignore = prim.Constant {value = -100 : i64} : i64
  // expected-error @+2 {{aten.nll_loss: weight tensor should be defined either for all 3 classes or no classes but got weight tensor of shape: [4]}}
  // expected-error @+1 {{failed to legalize operation 'aten.nll_loss'}}
  %0 = aten.nll_loss %x, %t, %w, %r, %ignore : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = si64, sizes = [2]>, !prim.tensor<dtype = f32, sizes = [4]>, i64, i64) -> !prim.tensor<dtype = f32, sizes = []>
  return %0 : !prim.tensor<dtype = f32, sizes = []>
}

// -----

// Class weights: -w[t] * x[n, t], the mean divided by the sum of w[t].
// CHECK-LABEL: func.func @nll_loss_weight
// CHECK: tensor.extract
// CHECK: arith.negf
// CHECK: tensor.extract
// CHECK: arith.mulf
// CHECK: linalg.generic
// CHECK: tensor.extract
// CHECK: arith.mulf
// CHECK: arith.divf
func.func @nll_loss_weight(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>, %t: !prim.tensor<dtype = si64, sizes = [2]>, %w: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = []> {
  %r = prim.Constant {value = 1 : i64} : i64
  %ignore = prim.Constant {value = -100 : i64} : i64
  %0 = aten.nll_loss %x, %t, %w, %r, %ignore : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = si64, sizes = [2]>, !prim.tensor<dtype = f32, sizes = [3]>, i64, i64) -> !prim.tensor<dtype = f32, sizes = []>
  return %0 : !prim.tensor<dtype = f32, sizes = []>
}

// -----

// The stable form of binary_cross_entropy_with_logits:
// (1 - t) x + m + log(exp(-m) + exp(-x - m)), m = max(-x, 0).
// CHECK-LABEL: func.func @bce_with_logits_sum
// CHECK: linalg.generic
// CHECK: %[[NEGX:.*]] = arith.negf %[[X:.*]] : f32
// CHECK: %[[M:.*]] = arith.maximumf %[[NEGX]], %{{.*}} : f32
// CHECK: %[[ONEMT:.*]] = arith.subf %{{.*}}, %[[T:.*]] : f32
// CHECK: arith.mulf %[[ONEMT]], %[[X]] : f32
// CHECK: math.exp
// CHECK: math.exp
// CHECK: math.log
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]
func.func @bce_with_logits_sum(%x: !prim.tensor<dtype = f32, sizes = [2, 7]>, %y: !prim.tensor<dtype = f32, sizes = [2, 7]>) -> !prim.tensor<dtype = f32, sizes = []> {
  %none = prim.Constant {value} : !prim.none
  %r = prim.Constant {value = 2 : i64} : i64
  %0 = aten.binary_cross_entropy_with_logits %x, %y, %none, %none, %r : (!prim.tensor<dtype = f32, sizes = [2, 7]>, !prim.tensor<dtype = f32, sizes = [2, 7]>, !prim.none, !prim.none, i64) -> !prim.tensor<dtype = f32, sizes = []>
  return %0 : !prim.tensor<dtype = f32, sizes = []>
}
