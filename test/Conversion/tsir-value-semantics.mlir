// RUN: tsir-opt %s --tsir-value-semantics -split-input-file -verify-diagnostics | FileCheck %s

// An in-place op on a graph input becomes its functional form; later uses
// read the new value, and the input's final value is an extra result that
// the executor writes back (prim.written_inputs names the argument).
// CHECK-LABEL: func.func @graph
// CHECK-SAME: -> (!prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = f32, sizes = [4]>)
// CHECK-SAME: prim.written_inputs = [0]
// CHECK: %[[ADD:.*]] = aten.add.Tensor %arg0, %arg1
// CHECK: %[[RELU:.*]] = aten.relu %[[ADD]]
// CHECK: %[[MUL:.*]] = aten.mul.Tensor %[[RELU]], %arg1
// CHECK: return %[[MUL]], %[[RELU]]
func.func @graph(%x: !prim.tensor<dtype = f32, sizes = [4]>, %y: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]> {
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.add_.Tensor %x, %y, %one : (!prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = f32, sizes = [4]>, i64) -> !prim.tensor<dtype = f32, sizes = [4]>
  %1 = aten.relu_ %x : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  %2 = aten.mul.Tensor %x, %y : (!prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  return %2 : !prim.tensor<dtype = f32, sizes = [4]>
}

// -----

// A weight (a trailing argument named in prim.weight_names) written in
// place (batch norm's num_batches_tracked += 1 in training mode) is written
// back as an input is: the executor writes it into the weight's memory, a
// torch module's buffer.
// CHECK-LABEL: func.func @graph
// CHECK-SAME: -> (!prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = f32, sizes = []>, !prim.tensor<dtype = f32, sizes = [4]>)
// CHECK-SAME: prim.written_inputs = [1, 0]
// CHECK: %[[COUNT:.*]] = aten.add.Scalar %arg1
// CHECK: %[[X:.*]] = aten.relu %arg0
// CHECK: %[[OUT:.*]] = aten.mul.Tensor %[[X]], %[[COUNT]]
// CHECK: return %[[OUT]], %[[COUNT]], %[[X]] :
func.func @graph(%x: !prim.tensor<dtype = f32, sizes = [4]>, %count: !prim.tensor<dtype = f32, sizes = []>) -> !prim.tensor<dtype = f32, sizes = [4]> attributes {prim.weight_names = ["self.bn.num_batches_tracked"]} {
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.add_.Scalar %count, %one, %one : (!prim.tensor<dtype = f32, sizes = []>, i64, i64) -> !prim.tensor<dtype = f32, sizes = []>
  %1 = aten.relu_ %x : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  %2 = aten.mul.Tensor %x, %count : (!prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = f32, sizes = []>) -> !prim.tensor<dtype = f32, sizes = [4]>
  return %2 : !prim.tensor<dtype = f32, sizes = [4]>
}

// -----

// A graph without in-place ops is left alone.
// CHECK-LABEL: func.func @graph
// CHECK-NOT: prim.written_inputs
func.func @graph(%x: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]> {
  %0 = aten.relu %x : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4]>
}

// -----

// Writing through a select or slice of a value writes the value: the op's
// functional form on the view, scattered back into the base
// (select_scatter); the graph input is written back.
// CHECK-LABEL: func.func @graph
// CHECK-SAME: prim.written_inputs = [0]
// CHECK: %[[ROW:.*]] = aten.select.int %arg0, %[[ZERO:[^,]*]], %[[ZERO]]
// CHECK: %[[RELU:.*]] = aten.relu %[[ROW]]
// CHECK: %[[NEW:.*]] = aten.select_scatter %arg0, %[[RELU]], %[[ZERO]], %[[ZERO]]
// CHECK: return %[[NEW]], %[[NEW]]
func.func @graph(%x: !prim.tensor<dtype = f32, sizes = [2, 4]>) -> !prim.tensor<dtype = f32, sizes = [2, 4]> {
  %zero = prim.Constant {value = 0 : i64} : i64
  %row = aten.select.int %x, %zero, %zero : (!prim.tensor<dtype = f32, sizes = [2, 4]>, i64, i64) -> !prim.tensor<dtype = f32, sizes = [4]>
  %0 = aten.relu_ %row : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  return %x : !prim.tensor<dtype = f32, sizes = [2, 4]>
}

// -----

// copy_ into a graph input from a 0-d tensor (a segment of swin_v2_t's
// mask, `m[a:b, c:d] = count`, whose input is the slice): the source is
// broadcast to the input, which is written back.
// CHECK-LABEL: func.func @graph
// CHECK-SAME: prim.written_inputs = [0]
// CHECK: %[[FILL:.*]] = aten.expand_as %arg1, %arg0
// CHECK: return %[[FILL]]
func.func @graph(%m: !prim.tensor<dtype = f32, sizes = [3, 2]>, %v: !prim.tensor<dtype = f32, sizes = []>) {
  %false = prim.Constant {value = false} : i1
  %0 = aten.copy_ %m, %v, %false : (!prim.tensor<dtype = f32, sizes = [3, 2]>, !prim.tensor<dtype = f32, sizes = []>, i1) -> !prim.tensor<dtype = f32, sizes = [3, 2]>
  return
}

// -----

// A copy_ that converts the dtype converts the source to the target's
// dtype (type_as), then broadcasts it.
// CHECK-LABEL: func.func @graph
// CHECK: %[[CAST:.*]] = aten.type_as %arg1, %arg0 : {{.*}} -> !prim.tensor<dtype = f32, sizes = []>
// CHECK: %[[FILL:.*]] = aten.expand_as %[[CAST]], %arg0
// CHECK: return %[[FILL]]
func.func @graph(%m: !prim.tensor<dtype = f32, sizes = [3, 2]>, %v: !prim.tensor<dtype = si64, sizes = []>) {
  %false = prim.Constant {value = false} : i1
  %0 = aten.copy_ %m, %v, %false : (!prim.tensor<dtype = f32, sizes = [3, 2]>, !prim.tensor<dtype = si64, sizes = []>, i1) -> !prim.tensor<dtype = f32, sizes = [3, 2]>
  return
}

// -----

// A copy_ whose source dtype is not known is refused, saying so.
func.func @graph(%m: !prim.tensor<dtype = f32, sizes = [3, 2]>, %v: !prim.tensor) {
  %false = prim.Constant {value = false} : i1
  // expected-error @+1 {{copy_ between tensors whose dtypes are not known is not supported yet}}
  %0 = aten.copy_ %m, %v, %false : (!prim.tensor<dtype = f32, sizes = [3, 2]>, !prim.tensor, i1) -> !prim.tensor<dtype = f32, sizes = [3, 2]>
  return
}

// -----

// copy_ through two slices (`m[0:2, 1:3] = v`, v 0-d): the source is
// broadcast to the view, then slice_scatter into each base in turn.
// CHECK-LABEL: func.func @graph
// CHECK: %[[ROWS:.*]] = aten.slice.Tensor %arg0
// CHECK: %[[BLOCK:.*]] = aten.slice.Tensor %[[ROWS]]
// CHECK: %[[FILL:.*]] = aten.expand_as %arg1, %[[BLOCK]]
// CHECK: %[[NEWROWS:.*]] = aten.slice_scatter %[[ROWS]], %[[FILL]]
// CHECK: %[[NEW:.*]] = aten.slice_scatter %arg0, %[[NEWROWS]]
// CHECK: return %[[NEW]], %[[NEW]]
func.func @graph(%m: !prim.tensor<dtype = f32, sizes = [4, 4]>, %v: !prim.tensor<dtype = f32, sizes = []>) -> !prim.tensor<dtype = f32, sizes = [4, 4]> {
  %zero = prim.Constant {value = 0 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %two = prim.Constant {value = 2 : i64} : i64
  %three = prim.Constant {value = 3 : i64} : i64
  %false = prim.Constant {value = false} : i1
  %rows = aten.slice.Tensor %m, %zero, %zero, %two, %one : (!prim.tensor<dtype = f32, sizes = [4, 4]>, i64, i64, i64, i64) -> !prim.tensor<dtype = f32, sizes = [2, 4]>
  %block = aten.slice.Tensor %rows, %one, %one, %three, %one : (!prim.tensor<dtype = f32, sizes = [2, 4]>, i64, i64, i64, i64) -> !prim.tensor<dtype = f32, sizes = [2, 2]>
  %0 = aten.copy_ %block, %v, %false : (!prim.tensor<dtype = f32, sizes = [2, 2]>, !prim.tensor<dtype = f32, sizes = []>, i1) -> !prim.tensor<dtype = f32, sizes = [2, 2]>
  return %m : !prim.tensor<dtype = f32, sizes = [4, 4]>
}

// -----

// TorchScript's `m[a:b, c:d] = count` reads the view's dtype and device to
// make the tensor it copies in (swin_v2_t's attention mask): those reads
// do not see the elements, so the write still goes through the slices.
// CHECK-LABEL: func.func @graph
// CHECK: %[[ROWS:.*]] = aten.slice.Tensor %arg0
// CHECK: %[[BLOCK:.*]] = aten.slice.Tensor %[[ROWS]]
// CHECK: %[[DTYPE:.*]] = prim.dtype %[[BLOCK]]
// CHECK: %[[DEVICE:.*]] = prim.device %[[BLOCK]]
// CHECK: %[[COUNT:.*]] = aten.tensor.int %{{.*}}, %[[DTYPE]], %[[DEVICE]]
// CHECK: %[[FILL:.*]] = aten.expand_as %[[COUNT]], %[[BLOCK]]
// CHECK: %[[NEWROWS:.*]] = aten.slice_scatter %[[ROWS]], %[[FILL]]
// CHECK: %[[NEW:.*]] = aten.slice_scatter %arg0, %[[NEWROWS]]
// CHECK: return %[[NEW]], %[[NEW]]
func.func @graph(%m: !prim.tensor<dtype = f32, sizes = [4, 4]>) -> !prim.tensor<dtype = f32, sizes = [4, 4]> {
  %zero = prim.Constant {value = 0 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %two = prim.Constant {value = 2 : i64} : i64
  %three = prim.Constant {value = 3 : i64} : i64
  %false = prim.Constant {value = false} : i1
  %rows = aten.slice.Tensor %m, %zero, %zero, %two, %one : (!prim.tensor<dtype = f32, sizes = [4, 4]>, i64, i64, i64, i64) -> !prim.tensor<dtype = f32, sizes = [2, 4]>
  %block = aten.slice.Tensor %rows, %one, %one, %three, %one : (!prim.tensor<dtype = f32, sizes = [2, 4]>, i64, i64, i64, i64) -> !prim.tensor<dtype = f32, sizes = [2, 2]>
  %dtype = prim.dtype %block : (!prim.tensor<dtype = f32, sizes = [2, 2]>) -> i64
  %device = prim.device %block : (!prim.tensor<dtype = f32, sizes = [2, 2]>) -> !prim.device
  %count = aten.tensor.int %three, %dtype, %device, %false : (i64, i64, !prim.device, i1) -> !prim.tensor<dtype = f32, sizes = []>
  %0 = aten.copy_ %block, %count, %false : (!prim.tensor<dtype = f32, sizes = [2, 2]>, !prim.tensor<dtype = f32, sizes = []>, i1) -> !prim.tensor<dtype = f32, sizes = [2, 2]>
  return %m : !prim.tensor<dtype = f32, sizes = [4, 4]>
}

// -----

// Writing through a view without a functional write-back (a transpose)
// would have to be replayed on its base: refused.
func.func @graph(%x: !prim.tensor<dtype = f32, sizes = [2, 4]>) -> !prim.tensor<dtype = f32, sizes = [2, 4]> {
  %t = aten.t %x : (!prim.tensor<dtype = f32, sizes = [2, 4]>) -> !prim.tensor<dtype = f32, sizes = [4, 2]>
  // expected-error @+1 {{in-place aten.relu_ writes through a view (aten.t), which is not supported yet}}
  %0 = aten.relu_ %t : (!prim.tensor<dtype = f32, sizes = [4, 2]>) -> !prim.tensor<dtype = f32, sizes = [4, 2]>
  return %x : !prim.tensor<dtype = f32, sizes = [2, 4]>
}

// -----

// Another view of the base taken before the write and read after it would
// have to see the write: refused.
func.func @graph(%x: !prim.tensor<dtype = f32, sizes = [2, 4]>) -> !prim.tensor<dtype = f32, sizes = [4]> {
  %zero = prim.Constant {value = 0 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %other = aten.select.int %x, %zero, %one : (!prim.tensor<dtype = f32, sizes = [2, 4]>, i64, i64) -> !prim.tensor<dtype = f32, sizes = [4]>
  %row = aten.select.int %x, %zero, %zero : (!prim.tensor<dtype = f32, sizes = [2, 4]>, i64, i64) -> !prim.tensor<dtype = f32, sizes = [4]>
  // expected-error @+1 {{in-place aten.relu_ writes through a view (aten.select.int): another view of its base is read after it, which is not supported yet}}
  %0 = aten.relu_ %row : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  %1 = aten.neg %other : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  return %1 : !prim.tensor<dtype = f32, sizes = [4]>
}

// -----

// A mutation inside a loop of a value from outside it is refused.
func.func @graph(%x: !prim.tensor<dtype = f32, sizes = [4]>, %n: i64) -> !prim.tensor<dtype = f32, sizes = [4]> {
  %true = prim.Constant {value = true} : i1
  prim.Loop %n, %true {
  ^bb0(%i: i64):
    // expected-error @+1 {{in-place aten.relu_ writes a value defined outside its block}}
    %0 = aten.relu_ %x : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
    prim.Yield %true : i1
  }
  return %x : !prim.tensor<dtype = f32, sizes = [4]>
}

// -----

// The functional form takes the same argument types: pow_.Scalar (Tensor
// self, Scalar exponent) is pow.Tensor_Scalar, not pow.Scalar (Scalar self,
// Tensor exponent); zero_ and fill_ become zeros_like and full_like, as in
// TorchScript.
// CHECK-LABEL: func.func @graph
// CHECK: aten.pow.Tensor_Scalar %arg0
// CHECK: aten.zeros_like
// CHECK: aten.full_like
func.func @graph(%x: !prim.tensor<dtype = f32, sizes = [4]>, %y: !prim.tensor<dtype = f32, sizes = [4]>, %z: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]> {
  %two = prim.Constant {value = 2 : i64} : i64
  %0 = aten.pow_.Scalar %x, %two : (!prim.tensor<dtype = f32, sizes = [4]>, i64) -> !prim.tensor<dtype = f32, sizes = [4]>
  %1 = aten.zero_ %y : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor<dtype = f32, sizes = [4]>
  %f = prim.Constant {value = 3.0 : f64} : f64
  %2 = aten.fill_.Scalar %z, %f : (!prim.tensor<dtype = f32, sizes = [4]>, f64) -> !prim.tensor<dtype = f32, sizes = [4]>
  return %x : !prim.tensor<dtype = f32, sizes = [4]>
}
