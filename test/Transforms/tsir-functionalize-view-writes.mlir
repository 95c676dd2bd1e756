// RUN: tsir-opt --tsir-functionalize-view-writes -split-input-file %s | FileCheck %s

// Swin v2's qkv bias: a slice of a clone zeroed in place. The zeros are
// scattered back into the clone, which the later reader reads instead.
// CHECK-LABEL: func.func @zeroed_slice
// CHECK: %[[C:.*]] = aten.clone %arg0
// CHECK: %[[V:.*]] = aten.slice.Tensor %[[C]], %[[D:.*]], %[[S:.*]], %[[E:.*]], %[[T:.*]] :
// CHECK: %[[Z:.*]] = aten.zeros_like %[[V]]
// CHECK-NEXT: %[[N:.*]] = aten.slice_scatter %[[C]], %[[Z]], %[[D]], %[[S]], %[[E]], %[[T]] :
// CHECK-NOT: aten.zero_
// CHECK: aten.mul.Tensor %[[N]], %arg1
func.func @zeroed_slice(%b: !prim.tensor, %x: !prim.tensor) -> !prim.tensor {
  %zero = prim.Constant {value = 0 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %two = prim.Constant {value = 2 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %c = aten.clone %b, %none : (!prim.tensor, !prim.none) -> !prim.tensor
  %v = aten.slice.Tensor %c, %zero, %one, %two, %one : (!prim.tensor, i64, i64, i64, i64) -> !prim.tensor
  %w = aten.zero_ %v : (!prim.tensor) -> !prim.tensor
  %y = aten.mul.Tensor %c, %x : (!prim.tensor, !prim.tensor) -> !prim.tensor
  return %y : !prim.tensor
}

// -----

// A row of fresh memory written in place: select_scatter; the write's own
// result is the new row.
// CHECK-LABEL: func.func @filled_row
// CHECK: %[[P:.*]] = aten.mul.Tensor %arg0, %arg1
// CHECK: %[[R:.*]] = aten.select.int %[[P]], %[[D:.*]], %[[I:.*]] :
// CHECK: %[[F:.*]] = aten.full_like %[[R]]
// CHECK-NEXT: %[[N:.*]] = aten.select_scatter %[[P]], %[[F]], %[[D]], %[[I]] :
// CHECK-NEXT: return %[[N]], %[[F]]
func.func @filled_row(%x: !prim.tensor, %y: !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  %zero = prim.Constant {value = 0 : i64} : i64
  %half = prim.Constant {value = 5.000000e-01 : f64} : f64
  %p = aten.mul.Tensor %x, %y : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %r = aten.select.int %p, %zero, %zero : (!prim.tensor, i64, i64) -> !prim.tensor
  %f = aten.fill_.Scalar %r, %half : (!prim.tensor, f64) -> !prim.tensor
  return %p, %f : !prim.tensor, !prim.tensor
}

// -----

// EfficientNet's classifier: dropout_ on a flatten of memory nothing else
// reads. The write is the functional op on the view alone.
// CHECK-LABEL: func.func @dropout_after_flatten
// CHECK: %[[F:.*]] = aten.flatten.using_ints
// CHECK-NEXT: %[[D:.*]] = aten.dropout %[[F]]
// CHECK-NEXT: return %[[D]]
func.func @dropout_after_flatten(%x: !prim.tensor) -> !prim.tensor {
  %one = prim.Constant {value = 1 : i64} : i64
  %last = prim.Constant {value = -1 : i64} : i64
  %p = prim.Constant {value = 2.000000e-01 : f64} : f64
  %true = prim.Constant {value = true} : i1
  %e = aten.exp %x : (!prim.tensor) -> !prim.tensor
  %f = aten.flatten.using_ints %e, %one, %last : (!prim.tensor, i64, i64) -> !prim.tensor
  %d = aten.dropout_ %f, %p, %true : (!prim.tensor, f64, i1) -> !prim.tensor
  return %d : !prim.tensor
}

// -----

// Left as they are: a write into an input's slice (the caller's memory), a
// flatten whose base is read after the write (no scatter for it), and a
// slice of a fresh base another view of which, made before, is read after.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-3: aten.zero_
func.func @kept(%x: !prim.tensor) -> (!prim.tensor, !prim.tensor, !prim.tensor) {
  %zero = prim.Constant {value = 0 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %last = prim.Constant {value = -1 : i64} : i64
  %v = aten.slice.Tensor %x, %zero, %zero, %one, %one : (!prim.tensor, i64, i64, i64, i64) -> !prim.tensor
  %w = aten.zero_ %v : (!prim.tensor) -> !prim.tensor
  %e = aten.exp %x : (!prim.tensor) -> !prim.tensor
  %f = aten.flatten.using_ints %e, %zero, %last : (!prim.tensor, i64, i64) -> !prim.tensor
  %fw = aten.zero_ %f : (!prim.tensor) -> !prim.tensor
  %g = aten.exp %e : (!prim.tensor) -> !prim.tensor
  %t = aten.t %g : (!prim.tensor) -> !prim.tensor
  %s = aten.slice.Tensor %g, %zero, %zero, %one, %one : (!prim.tensor, i64, i64, i64, i64) -> !prim.tensor
  %sw = aten.zero_ %s : (!prim.tensor) -> !prim.tensor
  return %e, %t, %x : !prim.tensor, !prim.tensor, !prim.tensor
}
