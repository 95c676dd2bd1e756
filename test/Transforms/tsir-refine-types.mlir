// tsir-refine-types: dtype and shape propagation. The file holds several
// inputs, split by split-file: the rules (no arg-spec), a graph specialized
// by arg-spec, and the arg-spec errors.

// RUN: split-file %s %t
// RUN: tsir-opt --tsir-refine-types -split-input-file %t/rules.mlir | FileCheck %s
// RUN: tsir-opt "--tsir-refine-types=arg-spec='Float(2, 3), Float(3, 4, strides=[4, 1], requires_grad=0, device=cpu), _'" %t/spec.mlir | FileCheck %s --check-prefix=SPEC
// RUN: tsir-opt --tsir-refine-types=arg-spec=_,_,_ %t/spec.mlir | FileCheck %s --check-prefix=KEEP
// RUN: tsir-opt "--tsir-refine-types=arg-spec='Float(2, 3)'" %t/bad-count.mlir -verify-diagnostics
// RUN: tsir-opt "--tsir-refine-types=arg-spec='Flot(2), _'" %t/bad-type.mlir -verify-diagnostics
// RUN: tsir-opt "--tsir-refine-types=arg-spec='int, _'" %t/not-tensor.mlir -verify-diagnostics
// RUN: tsir-opt "--tsir-refine-types=arg-spec='Float(2), Long(3)'" %t/scalar-input.mlir -verify-diagnostics
// RUN: tsir-opt "--tsir-refine-types=arg-spec='Float(2, _'" %t/unbalanced.mlir -verify-diagnostics
// RUN: tsir-opt "--tsir-refine-types=arg-spec='Float(2, strides=[1, 1]), _'" %t/bad-strides.mlir -verify-diagnostics
// RUN: tsir-opt "--tsir-refine-types=arg-spec='Float(3), (Float(2, 3), Float(2, 4))'" %t/tuple.mlir | FileCheck %s --check-prefix=TUPLE
// RUN: not tsir-opt "--tsir-refine-types=arg-spec='Float(3), (Float(2, 3), Float(2, 4), Float(1))'" %t/tuple.mlir 2>&1 | FileCheck %s --check-prefix=BADTUPLE

//--- rules.mlir

// A shape error proven in a branch that may not be taken raises when it is
// reached, as in torch; the rest of that branch is dead. The same error
// where it always runs stays a compile-time error (shape-errors.test).
// CHECK-LABEL: func.func @error_in_a_branch
// CHECK: prim.If
// CHECK: aten.mm {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 4]>
// CHECK: } else {
// CHECK-NEXT: %[[MESSAGE:.*]] = prim.Constant {value = "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"} : !prim.str
// CHECK-NEXT: prim.RaiseException %[[MESSAGE]] : !prim.str
// CHECK-NEXT: %[[STANDIN:.*]] = prim.Uninitialized : !prim.tensor<dtype = f32, sizes = [2, 3]>
// CHECK-NEXT: prim.Yield %[[STANDIN]]
func.func @error_in_a_branch(%c: i1, %a: !prim.tensor<dtype = f32, sizes = [2, 3]>, %b: !prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor {
  %0 = prim.If %c -> (!prim.tensor) {
    %1 = aten.mm %a, %b : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [3, 4]>) -> !prim.tensor
    prim.Yield %1 : !prim.tensor
  } else {
    %2 = aten.mm %a, %a : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor
    %3 = aten.relu %2 : (!prim.tensor) -> !prim.tensor
    prim.Yield %3 : !prim.tensor
  }
  return %0 : !prim.tensor
}

// Elementwise: numpy broadcasting, at::result_type promotion.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: -> (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 1]>, !prim.tensor<dtype = si64, sizes = [2, 1]>, !prim.tensor<dtype = f32, sizes = [2, 1]>, !prim.tensor<dtype = f32, sizes = [2, 1]>, !prim.tensor<dtype = i1, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 1]>)
// CHECK: aten.add.Tensor {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 3]>
// CHECK: aten.add.Scalar {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 1]>
// CHECK: aten.mul.Scalar {{.*}} -> !prim.tensor<dtype = si64, sizes = [2, 1]>
// CHECK: aten.mul.Tensor {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 1]>
// CHECK: aten.div.Tensor {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 1]>
// CHECK: aten.lt.Tensor {{.*}} -> !prim.tensor<dtype = i1, sizes = [2, 3]>
// CHECK: aten.sigmoid {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 1]>
func.func @elementwise(%a: !prim.tensor<dtype = f32, sizes = [2, 3]>, %b: !prim.tensor<dtype = f32, sizes = [3]>, %i: !prim.tensor<dtype = si64, sizes = [2, 1]>, %s: !prim.tensor<dtype = f32, sizes = []>, %f: f64, %k: i64) -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) {
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.add.Tensor %a, %b, %one : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [3]>, i64) -> !prim.tensor
  %1 = aten.add.Scalar %i, %f, %one : (!prim.tensor<dtype = si64, sizes = [2, 1]>, f64, i64) -> !prim.tensor
  %2 = aten.mul.Scalar %i, %k : (!prim.tensor<dtype = si64, sizes = [2, 1]>, i64) -> !prim.tensor
  %3 = aten.mul.Tensor %i, %s : (!prim.tensor<dtype = si64, sizes = [2, 1]>, !prim.tensor<dtype = f32, sizes = []>) -> !prim.tensor
  %4 = aten.div.Tensor %i, %i : (!prim.tensor<dtype = si64, sizes = [2, 1]>, !prim.tensor<dtype = si64, sizes = [2, 1]>) -> !prim.tensor
  %5 = aten.lt.Tensor %a, %i : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = si64, sizes = [2, 1]>) -> !prim.tensor
  %6 = aten.sigmoid %i : (!prim.tensor<dtype = si64, sizes = [2, 1]>) -> !prim.tensor
  return %0, %1, %2, %3, %4, %5, %6 : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// A tensor of unknown rank may be 0-d or not: its dtype decides only when
// both cases agree.
// CHECK-LABEL: func.func @unknown_rank_promotion
// CHECK: aten.add.Tensor {{.*}} -> !prim.tensor<dtype = f32>{{$}}
// CHECK: aten.add.Tensor {{.*}} -> !prim.tensor{{$}}
func.func @unknown_rank_promotion(%h: !prim.tensor<dtype = f16>, %f: !prim.tensor<dtype = f32>, %a: !prim.tensor<dtype = f32, sizes = [2]>, %b: !prim.tensor<dtype = f16, sizes = [2]>) -> (!prim.tensor, !prim.tensor) {
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.add.Tensor %h, %a, %one : (!prim.tensor<dtype = f16>, !prim.tensor<dtype = f32, sizes = [2]>, i64) -> !prim.tensor
  %1 = aten.add.Tensor %f, %b, %one : (!prim.tensor<dtype = f32>, !prim.tensor<dtype = f16, sizes = [2]>, i64) -> !prim.tensor
  return %0, %1 : !prim.tensor, !prim.tensor
}

// -----

// Unknown facts stay unknown: an unranked input gives an unranked result;
// an input without dtype gives no dtype.
// CHECK-LABEL: func.func @unknown_inputs
// CHECK: aten.relu {{.*}} -> !prim.tensor<dtype = f32>{{$}}
// CHECK: aten.sum.dim_IntList {{.*}} -> !prim.tensor<dtype = f32>{{$}}
// CHECK: aten.tanh {{.*}} -> !prim.tensor<sizes = [4, 5]>{{$}}
func.func @unknown_inputs(%x: !prim.tensor<dtype = f32>, %y: !prim.tensor<sizes = [4, 5]>) -> (!prim.tensor, !prim.tensor, !prim.tensor) {
  %none = prim.Constant {value} : !prim.none
  %false = prim.Constant {value = false} : i1
  %dims = prim.Constant {value = [1 : i64]} : !prim.list<i64>
  %0 = aten.relu %x : (!prim.tensor<dtype = f32>) -> !prim.tensor
  %1 = aten.sum.dim_IntList %x, %dims, %false, %none : (!prim.tensor<dtype = f32>, !prim.list<i64>, i1, !prim.none) -> !prim.tensor
  %2 = aten.tanh %y : (!prim.tensor<sizes = [4, 5]>) -> !prim.tensor
  return %0, %1, %2 : !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// Ops without a rule keep their types, refined or not.
// CHECK-LABEL: func.func @no_rule
// CHECK-SAME: -> (!prim.tensor, !prim.tensor<dtype = f64>)
// CHECK: prim.Generic "my_ns::magic"({{.*}}) -> !prim.tensor{{$}}
// CHECK: prim.Generic "my_ns::magic"({{.*}}) -> !prim.tensor<dtype = f64>{{$}}
func.func @no_rule(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> (!prim.tensor, !prim.tensor<dtype = f64>) {
  %0 = prim.Generic "my_ns::magic"(%x) : (!prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor
  %1 = prim.Generic "my_ns::magic"(%x) : (!prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor<dtype = f64>
  return %0, %1 : !prim.tensor, !prim.tensor<dtype = f64>
}

// -----

// matmul and friends.
// CHECK-LABEL: func.func @matmul
// CHECK: aten.matmul {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 5]>
// CHECK: aten.t {{.*}} -> !prim.tensor<dtype = f32, sizes = [3, 4]>
// CHECK: aten.matmul {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 5, 4]>
// CHECK: aten.mm {{.*}} -> !prim.tensor<dtype = f32, sizes = [4, 4]>
// CHECK: aten.linear {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 5, 4]>
// CHECK: aten.addmm {{.*}} -> !prim.tensor<dtype = f32, sizes = [4, 4]>
// CHECK: aten.matmul {{.*}} -> !prim.tensor<dtype = f32, sizes = []>
func.func @matmul(%b: !prim.tensor<dtype = f32, sizes = [2, 5, 3]>, %v: !prim.tensor<dtype = f32, sizes = [3]>, %m: !prim.tensor<dtype = f32, sizes = [4, 3]>, %bias: !prim.tensor<dtype = f32, sizes = [4]>) -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) {
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.matmul %b, %v : (!prim.tensor<dtype = f32, sizes = [2, 5, 3]>, !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor
  %mt = aten.t %m : (!prim.tensor<dtype = f32, sizes = [4, 3]>) -> !prim.tensor
  %1 = aten.matmul %b, %mt : (!prim.tensor<dtype = f32, sizes = [2, 5, 3]>, !prim.tensor) -> !prim.tensor
  %2 = aten.mm %m, %mt : (!prim.tensor<dtype = f32, sizes = [4, 3]>, !prim.tensor) -> !prim.tensor
  %3 = aten.linear %b, %m, %bias : (!prim.tensor<dtype = f32, sizes = [2, 5, 3]>, !prim.tensor<dtype = f32, sizes = [4, 3]>, !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor
  %4 = aten.addmm %bias, %m, %mt, %one, %one : (!prim.tensor<dtype = f32, sizes = [4]>, !prim.tensor<dtype = f32, sizes = [4, 3]>, !prim.tensor, i64, i64) -> !prim.tensor
  %5 = aten.matmul %v, %v : (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor
  return %0, %1, %2, %3, %4, %5 : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// Convolutions and pooling, with aten's output-size formulas.
// CHECK-LABEL: func.func @conv_pool
// CHECK: aten.conv2d {{.*}} -> !prim.tensor<dtype = f32, sizes = [1, 4, 4, 4]>
// CHECK: aten._convolution {{.*}} -> !prim.tensor<dtype = f32, sizes = [1, 2, 8, 8]>
// CHECK: aten.max_pool2d {{.*}} -> !prim.tensor<dtype = f32, sizes = [1, 3, 4, 4]>
// CHECK: aten.avg_pool2d {{.*}} -> !prim.tensor<dtype = f32, sizes = [1, 3, 4, 4]>
// CHECK: aten.adaptive_avg_pool2d {{.*}} -> !prim.tensor<dtype = f32, sizes = [1, 3, 2, 1]>
func.func @conv_pool(%x: !prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, %w: !prim.tensor<dtype = f32, sizes = [4, 3, 3, 3]>, %wt: !prim.tensor<dtype = f32, sizes = [4, 2, 3, 3]>) -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) {
  %none = prim.Constant {value} : !prim.none
  %one = prim.Constant {value = 1 : i64} : i64
  %true = prim.Constant {value = true} : i1
  %false = prim.Constant {value = false} : i1
  %s2 = prim.Constant {value = [2 : i64, 2 : i64]} : !prim.list<i64>
  %p1 = prim.Constant {value = [1 : i64, 1 : i64]} : !prim.list<i64>
  %p0 = prim.Constant {value = [0 : i64, 0 : i64]} : !prim.list<i64>
  %empty = prim.Constant {value = []} : !prim.list<i64>
  %0 = aten.conv2d %x, %w, %none, %s2, %p1, %p1, %one : (!prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, !prim.tensor<dtype = f32, sizes = [4, 3, 3, 3]>, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64) -> !prim.tensor
  %1 = aten._convolution %0, %wt, %none, %s2, %p1, %p1, %true, %p1, %one, %false, %false, %false, %false : (!prim.tensor, !prim.tensor<dtype = f32, sizes = [4, 2, 3, 3]>, !prim.none, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1, !prim.list<i64>, i64, i1, i1, i1, i1) -> !prim.tensor
  %2 = aten.max_pool2d %x, %s2, %empty, %p0, %p1, %true : (!prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1) -> !prim.tensor
  %k3 = prim.Constant {value = [3 : i64, 3 : i64]} : !prim.list<i64>
  %3 = aten.avg_pool2d %x, %k3, %s2, %p0, %true, %true, %none : (!prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1, i1, !prim.none) -> !prim.tensor
  %out = prim.Constant {value = [2 : i64, 1 : i64]} : !prim.list<i64>
  %4 = aten.adaptive_avg_pool2d %x, %out : (!prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, !prim.list<i64>) -> !prim.tensor
  return %0, %1, %2, %3, %4 : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// Reductions: dim lists, keepdim, integer accumulation, indices.
// CHECK-LABEL: func.func @reductions
// CHECK: aten.sum.dim_IntList {{.*}} -> !prim.tensor<dtype = f32, sizes = [1, 3, 1]>
// CHECK: aten.sum {{.*}} -> !prim.tensor<dtype = si64, sizes = []>
// CHECK: aten.mean.dim {{.*}} -> !prim.tensor<dtype = f32, sizes = []>
// CHECK: aten.max.dim {{.*}} -> (!prim.tensor<dtype = f32, sizes = [2, 4]>, !prim.tensor<dtype = si64, sizes = [2, 4]>)
// CHECK: aten.softmax.int {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 3, 4]>
// CHECK: aten.amax {{.*}} -> !prim.tensor<dtype = f32, sizes = [3]>
func.func @reductions(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 4]>, %i: !prim.tensor<dtype = si32, sizes = [5]>) -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) {
  %none = prim.Constant {value} : !prim.none
  %true = prim.Constant {value = true} : i1
  %false = prim.Constant {value = false} : i1
  %one = prim.Constant {value = 1 : i64} : i64
  %dims = prim.Constant {value = [-1 : i64, 0 : i64]} : !prim.list<i64>
  %0 = aten.sum.dim_IntList %x, %dims, %true, %none : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, !prim.list<i64>, i1, !prim.none) -> !prim.tensor
  %1 = aten.sum %i, %none : (!prim.tensor<dtype = si32, sizes = [5]>, !prim.none) -> !prim.tensor
  %2 = aten.mean.dim %x, %none, %false, %none : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, !prim.none, i1, !prim.none) -> !prim.tensor
  %3:2 = aten.max.dim %x, %one, %false : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, i64, i1) -> (!prim.tensor, !prim.tensor)
  %4 = aten.softmax.int %x, %one, %none : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, i64, !prim.none) -> !prim.tensor
  %5 = aten.amax %x, %dims, %false : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, !prim.list<i64>, i1) -> !prim.tensor
  return %0, %1, %2, %3#0, %3#1, %4, %5 : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// Views: -1 inferred, sizes read off `size`, squeeze of unknown sizes.
// CHECK-LABEL: func.func @views
// CHECK: aten.view {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 12]>
// CHECK: aten.flatten.using_ints {{.*}} -> !prim.tensor<dtype = f32, sizes = [6, 4]>
// CHECK: aten.permute {{.*}} -> !prim.tensor<dtype = f32, sizes = [4, 2, 3]>
// CHECK: aten.unsqueeze {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 3, 4, 1]>
// CHECK: aten.squeeze.dim {{.*}} -> !prim.tensor<dtype = f32, sizes = [?]>
// CHECK: aten.squeeze.dim {{.*}} -> !prim.tensor<dtype = f32>{{$}}
// CHECK: aten.expand {{.*}} -> !prim.tensor<dtype = f32, sizes = [5, ?, 3]>
// CHECK: aten.slice.Tensor {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 3, 3]>
func.func @views(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 4]>, %y: !prim.tensor<dtype = f32, sizes = [?, 1]>) -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) {
  %zero = prim.Constant {value = 0 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %m1 = prim.Constant {value = -1 : i64} : i64
  %false = prim.Constant {value = false} : i1
  %n = aten.size.int %x, %zero : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, i64) -> i64
  %shape = prim.ListConstruct %n, %m1 : (i64, i64) -> !prim.list<i64>
  %0 = aten.view %x, %shape : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, !prim.list<i64>) -> !prim.tensor
  %1 = aten.flatten.using_ints %x, %zero, %one : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, i64, i64) -> !prim.tensor
  %perm = prim.Constant {value = [2 : i64, 0 : i64, 1 : i64]} : !prim.list<i64>
  %2 = aten.permute %x, %perm : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, !prim.list<i64>) -> !prim.tensor
  %3 = aten.unsqueeze %x, %m1 : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, i64) -> !prim.tensor
  %4 = aten.squeeze.dim %y, %one : (!prim.tensor<dtype = f32, sizes = [?, 1]>, i64) -> !prim.tensor
  %5 = aten.squeeze.dim %y, %zero : (!prim.tensor<dtype = f32, sizes = [?, 1]>, i64) -> !prim.tensor
  %big = prim.Constant {value = [5 : i64, -1 : i64, 3 : i64]} : !prim.list<i64>
  %6 = aten.expand %y, %big, %false : (!prim.tensor<dtype = f32, sizes = [?, 1]>, !prim.list<i64>, i1) -> !prim.tensor
  %none_end = prim.Constant {value} : !prim.none
  %7 = aten.slice.Tensor %x, %m1, %one, %none_end, %one : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, i64, i64, !prim.none, i64) -> !prim.tensor
  return %0, %1, %2, %3, %4, %5, %6, %7 : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// Lists: the pieces of chunk/unbind, cat and stack of list literals.
// CHECK-LABEL: func.func @lists
// CHECK: prim.ListUnpack {{.*}} -> (!prim.tensor<dtype = f32, sizes = [2, 2]>, !prim.tensor<dtype = f32, sizes = [2, 2]>, !prim.tensor<dtype = f32, sizes = [2, 1]>)
// CHECK: aten.__getitem__.t {{.*}} -> !prim.tensor<dtype = f32, sizes = [5]>
// CHECK: aten.cat {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 10]>
// CHECK: aten.stack {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 2, 5]>
func.func @lists(%x: !prim.tensor<dtype = f32, sizes = [2, 5]>) -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) {
  %zero = prim.Constant {value = 0 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %three = prim.Constant {value = 3 : i64} : i64
  %chunks = aten.chunk %x, %three, %one : (!prim.tensor<dtype = f32, sizes = [2, 5]>, i64, i64) -> !prim.list<!prim.tensor>
  %a, %b, %c = prim.ListUnpack %chunks : (!prim.list<!prim.tensor>) -> (!prim.tensor, !prim.tensor, !prim.tensor)
  %rows = aten.unbind.int %x, %zero : (!prim.tensor<dtype = f32, sizes = [2, 5]>, i64) -> !prim.list<!prim.tensor>
  %r = aten.__getitem__.t %rows, %one : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %list = prim.ListConstruct %x, %x : (!prim.tensor<dtype = f32, sizes = [2, 5]>, !prim.tensor<dtype = f32, sizes = [2, 5]>) -> !prim.list<!prim.tensor>
  %cat = aten.cat %list, %one : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %stack = aten.stack %list, %one : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  return %a, %c, %r, %cat, %stack, %b : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// A list that is written (append) may hold anything: no facts.
// CHECK-LABEL: func.func @written_list
// CHECK: aten.cat {{.*}} -> !prim.tensor{{$}}
func.func @written_list(%x: !prim.tensor<dtype = f32, sizes = [2, 5]>, %y: !prim.tensor) -> !prim.tensor {
  %zero = prim.Constant {value = 0 : i64} : i64
  %list = prim.ListConstruct %x : (!prim.tensor<dtype = f32, sizes = [2, 5]>) -> !prim.list<!prim.tensor>
  %0 = aten.append.t %list, %y : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  %cat = aten.cat %list, %zero : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  return %cat : !prim.tensor
}

// -----

// prim.If: the join of both branches (sizes that differ become ?, ranks
// that differ leave only the dtype).
// CHECK-LABEL: func.func @if_join
// CHECK: prim.If %{{.*}} -> (!prim.tensor<dtype = f32, sizes = [?, 3]>, !prim.tensor<dtype = f32>, !prim.tensor<dtype = f32, sizes = [2, 3]>)
// CHECK: prim.Yield {{.*}} : !prim.tensor<dtype = f32, sizes = [1, 3]>, !prim.tensor<dtype = f32, sizes = [6]>, !prim.tensor<dtype = f32, sizes = [2, 3]>
func.func @if_join(%c: i1, %x: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> (!prim.tensor, !prim.tensor, !prim.tensor) {
  %zero = prim.Constant {value = 0 : i64} : i64
  %true = prim.Constant {value = true} : i1
  %none = prim.Constant {value} : !prim.none
  %dims = prim.Constant {value = [0 : i64]} : !prim.list<i64>
  %flat = prim.Constant {value = [-1 : i64]} : !prim.list<i64>
  %0, %1, %2 = prim.If %c -> (!prim.tensor, !prim.tensor, !prim.tensor) {
    prim.Yield %x, %x, %x : !prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 3]>
  } else {
    %s = aten.sum.dim_IntList %x, %dims, %true, %none : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.list<i64>, i1, !prim.none) -> !prim.tensor
    %v = aten.view %x, %flat : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.list<i64>) -> !prim.tensor
    prim.Yield %s, %v, %x : !prim.tensor, !prim.tensor, !prim.tensor<dtype = f32, sizes = [2, 3]>
  }
  return %0, %1, %2 : !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// prim.Loop: carried types iterate to a fixpoint; what changes is widened.
// CHECK-LABEL: func.func @loops
// CHECK: prim.Loop {{.*}} -> (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [?, 3]>)
// CHECK-NEXT: ^bb0(%{{.*}}: i64, %{{.*}}: !prim.tensor<dtype = f32, sizes = [2, 3]>, %{{.*}}: !prim.tensor<dtype = f32, sizes = [?, 3]>):
// CHECK: aten.cat {{.*}} -> !prim.tensor<dtype = f32, sizes = [?, 3]>
func.func @loops(%n: i64, %x: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> (!prim.tensor, !prim.tensor) {
  %true = prim.Constant {value = true} : i1
  %zero = prim.Constant {value = 0 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %0:2 = prim.Loop %n, %true, %x, %x : !prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 3]> -> (!prim.tensor, !prim.tensor) {
  ^bb0(%i: i64, %acc: !prim.tensor, %grow: !prim.tensor):
    %next = aten.add.Tensor %acc, %x, %one : (!prim.tensor, !prim.tensor<dtype = f32, sizes = [2, 3]>, i64) -> !prim.tensor
    %list = prim.ListConstruct %grow, %x : (!prim.tensor, !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.list<!prim.tensor>
    %bigger = aten.cat %list, %zero : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
    prim.Yield %true, %next, %bigger : i1, !prim.tensor, !prim.tensor
  }
  return %0#0, %0#1 : !prim.tensor, !prim.tensor
}

// -----

// Facts from an earlier walk of a loop body do not survive a later one: the
// chunks are [2, 2] in the first walk only.
// CHECK-LABEL: func.func @loop_lists
// CHECK: prim.ListUnpack {{.*}} -> (!prim.tensor<dtype = f32, sizes = [2, ?]>, !prim.tensor<dtype = f32, sizes = [2, ?]>)
// CHECK: aten.cat {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, ?]>
func.func @loop_lists(%n: i64, %x: !prim.tensor<dtype = f32, sizes = [2, 4]>) -> !prim.tensor {
  %true = prim.Constant {value = true} : i1
  %one = prim.Constant {value = 1 : i64} : i64
  %two = prim.Constant {value = 2 : i64} : i64
  %0 = prim.Loop %n, %true, %x : !prim.tensor<dtype = f32, sizes = [2, 4]> -> (!prim.tensor) {
  ^bb0(%i: i64, %c: !prim.tensor):
    %chunks = aten.chunk %c, %two, %one : (!prim.tensor, i64, i64) -> !prim.list<!prim.tensor>
    %a, %b = prim.ListUnpack %chunks : (!prim.list<!prim.tensor>) -> (!prim.tensor, !prim.tensor)
    %list = prim.ListConstruct %a, %b, %a : (!prim.tensor, !prim.tensor, !prim.tensor) -> !prim.list<!prim.tensor>
    %cat = aten.cat %list, %one : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
    prim.Yield %true, %cat : i1, !prim.tensor
  }
  return %0 : !prim.tensor
}

// -----

// In-place ops return their operand's type; a resize makes every alias of
// the resized tensor lose its sizes (its dtype stays).
// CHECK-LABEL: func.func @inplace
// CHECK: aten.add_.Tensor {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 3]>
// CHECK: aten.clone {{.*}} -> !prim.tensor<dtype = f32>{{$}}
// CHECK: aten.unsqueeze_ {{.*}} -> !prim.tensor<dtype = f32>{{$}}
func.func @inplace(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>, %y: !prim.tensor<dtype = f32, sizes = [3]>) -> (!prim.tensor, !prim.tensor, !prim.tensor) {
  %one = prim.Constant {value = 1 : i64} : i64
  %zero = prim.Constant {value = 0 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %a = aten.clone %x, %none : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.none) -> !prim.tensor
  %b = aten.add_.Tensor %a, %y, %one : (!prim.tensor, !prim.tensor<dtype = f32, sizes = [3]>, i64) -> !prim.tensor
  %c = aten.clone %x, %none : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.none) -> !prim.tensor
  %d = aten.unsqueeze_ %c, %zero : (!prim.tensor, i64) -> !prim.tensor
  return %b, %c, %d : !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// Tuples carry their elements' types; NumToTensor and factories.
// CHECK-LABEL: func.func @tuples_and_factories
// CHECK: prim.TupleUnpack {{.*}} -> (!prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">, !prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">)
// CHECK: prim.NumToTensor {{.*}} -> !prim.tensor<dtype = si64, sizes = [], device = "cpu">
// CHECK: prim.NumToTensor {{.*}} -> !prim.tensor<dtype = f64, sizes = [], device = "cpu">
// CHECK: aten.zeros {{.*}} -> !prim.tensor<dtype = f32, sizes = [4, 2], device = "cpu">
// CHECK: aten.relu {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">
// CHECK: return {{.*}} : !prim.tuple<!prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">, !prim.tensor<dtype = si64, sizes = [], device = "cpu">, !prim.tensor<dtype = f64, sizes = [], device = "cpu">, !prim.tensor<dtype = f32, sizes = [4, 2], device = "cpu">>
func.func @tuples_and_factories(%x: !prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">, %k: i64, %f: f64) -> !prim.tuple<!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor> {
  %none = prim.Constant {value} : !prim.none
  %shape = prim.Constant {value = [4 : i64, 2 : i64]} : !prim.list<i64>
  %t = prim.TupleConstruct %x, %x : (!prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">, !prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">) -> !prim.tuple<!prim.tensor, !prim.tensor>
  %a, %b = prim.TupleUnpack %t : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor)
  %n = prim.NumToTensor %k : (i64) -> !prim.tensor
  %m = prim.NumToTensor %f : (f64) -> !prim.tensor
  %z = aten.zeros %shape, %none, %none, %none, %none : (!prim.list<i64>, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  %r = aten.relu %a : (!prim.tensor) -> !prim.tensor
  %out = prim.TupleConstruct %r, %n, %m, %z : (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) -> !prim.tuple<!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor>
  return %out : !prim.tuple<!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor>
}

// -----

// A NamedTuple is refined like a tuple and keeps its field names and
// defaults; an If joining two of them keeps them too.
// CHECK-LABEL: func.func @named_tuples
// CHECK: prim.TupleConstruct {{.*}} -> !prim.tuple<named a: !prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">, b: i64 = "3">
// CHECK: prim.If {{.*}} -> (!prim.tuple<named a: !prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">, b: i64 = "3">)
// CHECK: prim.TupleUnpack {{.*}} -> (!prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">, i64)
// CHECK: aten.relu {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">
func.func @named_tuples(%x: !prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">, %k: i64, %c: i1) -> (!prim.tuple<named a: !prim.tensor, b: i64 = "3">, !prim.tensor) {
  %t = prim.TupleConstruct %x, %k : (!prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">, i64) -> !prim.tuple<named a: !prim.tensor, b: i64 = "3">
  %u = prim.If %c -> (!prim.tuple<named a: !prim.tensor, b: i64 = "3">) {
    prim.Yield %t : !prim.tuple<named a: !prim.tensor, b: i64 = "3">
  } else {
    prim.Yield %t : !prim.tuple<named a: !prim.tensor, b: i64 = "3">
  }
  %a, %b = prim.TupleUnpack %u : (!prim.tuple<named a: !prim.tensor, b: i64 = "3">) -> (!prim.tensor, i64)
  %r = aten.relu %a : (!prim.tensor) -> !prim.tensor
  return %u, %r : !prim.tuple<named a: !prim.tensor, b: i64 = "3">, !prim.tensor
}

// -----

// `dtype=x.dtype, device=x.device` arguments follow x.
// CHECK-LABEL: func.func @dtype_of
// CHECK: aten.zeros {{.*}} -> !prim.tensor<dtype = si32, sizes = [2], device = "cuda:1">
func.func @dtype_of(%x: !prim.tensor<dtype = si32, sizes = [3], device = "cuda:1">) -> !prim.tensor {
  %none = prim.Constant {value} : !prim.none
  %shape = prim.Constant {value = [2 : i64]} : !prim.list<i64>
  %d = prim.dtype %x : (!prim.tensor<dtype = si32, sizes = [3], device = "cuda:1">) -> i64
  %dev = prim.device %x : (!prim.tensor<dtype = si32, sizes = [3], device = "cuda:1">) -> !prim.device
  %0 = aten.zeros %shape, %d, %none, %dev, %none : (!prim.list<i64>, i64, !prim.none, !prim.device, !prim.none) -> !prim.tensor
  return %0 : !prim.tensor
}

// -----

// What the graph already states is kept where the rules know less (sizes
// here), and overridden where it contradicts them (the stale Long); strides
// and requires_grad survive while the sizes hold.
// CHECK-LABEL: func.func @declared
// CHECK: aten.relu {{.*}} -> !prim.tensor<dtype = f32, sizes = [4, 4]>
// CHECK: aten.relu {{.*}} -> !prim.tensor<dtype = f32, sizes = [2]>
// CHECK: aten.neg {{.*}} -> !prim.tensor<dtype = f32, sizes = [2], strides = [1], requires_grad = false>
func.func @declared(%x: !prim.tensor<dtype = f32>, %y: !prim.tensor<dtype = f32, sizes = [2]>) -> (!prim.tensor<dtype = f32, sizes = [4, 4]>, !prim.tensor<dtype = si64, sizes = [3]>, !prim.tensor<sizes = [2], strides = [1], requires_grad = false>) {
  %0 = aten.relu %x : (!prim.tensor<dtype = f32>) -> !prim.tensor<dtype = f32, sizes = [4, 4]>
  %1 = aten.relu %y : (!prim.tensor<dtype = f32, sizes = [2]>) -> !prim.tensor<dtype = si64, sizes = [3]>
  %2 = aten.neg %y : (!prim.tensor<dtype = f32, sizes = [2]>) -> !prim.tensor<sizes = [2], strides = [1], requires_grad = false>
  return %0, %1, %2 : !prim.tensor<dtype = f32, sizes = [4, 4]>, !prim.tensor<dtype = si64, sizes = [3]>, !prim.tensor<sizes = [2], strides = [1], requires_grad = false>
}

// -----

// Fusion groups and other subgraphs: the body sees the operands' types and
// the results follow what the body returns.
// CHECK-LABEL: func.func @subgraph
// CHECK: prim.FusionGroup({{.*}}) -> !prim.tensor<dtype = f32, sizes = [4]>
// CHECK-NEXT: ^bb0(%{{.*}}: !prim.tensor<dtype = f32, sizes = [4]>):
// CHECK-NEXT: aten.sigmoid {{.*}} -> !prim.tensor<dtype = f32, sizes = [4]>
func.func @subgraph(%x: !prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor {
  %r = prim.FusionGroup(%x) : (!prim.tensor<dtype = f32, sizes = [4]>) -> !prim.tensor {
  ^bb0(%p: !prim.tensor):
    %s = aten.sigmoid %p : (!prim.tensor) -> !prim.tensor
    prim.Return %s : !prim.tensor
  }
  return %r : !prim.tensor
}

// -----

// An optional joined from a tensor and None keeps the tensor's refinement,
// which unchecked_cast passes on.
// CHECK-LABEL: func.func @optional
// CHECK: prim.If %{{.*}} -> (!prim.optional<!prim.tensor<dtype = f32, sizes = [3]>>)
// CHECK: prim.unchecked_cast {{.*}} -> !prim.tensor<dtype = f32, sizes = [3]>
func.func @optional(%c: i1, %x: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor {
  %none = prim.Constant {value} : !prim.none
  %o = prim.If %c -> (!prim.optional<!prim.tensor>) {
    prim.Yield %x : !prim.tensor<dtype = f32, sizes = [3]>
  } else {
    prim.Yield %none : !prim.none
  }
  %t = prim.unchecked_cast %o : (!prim.optional<!prim.tensor>) -> !prim.tensor
  return %t : !prim.tensor
}

// -----

// Ops inside a generic node's blocks are refined; the node's own results,
// which nothing describes, are not.
// CHECK-LABEL: func.func @generic_blocks
// CHECK: prim.Generic "prim::DifferentiableGraph_0"({{.*}}) -> !prim.tensor {
// CHECK: aten.neg {{.*}} -> !prim.tensor<dtype = f32, sizes = [2]>
func.func @generic_blocks(%x: !prim.tensor<dtype = f32, sizes = [2]>) -> !prim.tensor {
  %d = prim.Generic "prim::DifferentiableGraph_0"(%x) : (!prim.tensor<dtype = f32, sizes = [2]>) -> !prim.tensor {
  ^bb0(%a: !prim.tensor):
    %y = aten.neg %x : (!prim.tensor<dtype = f32, sizes = [2]>) -> !prim.tensor
    prim.Yield %y : !prim.tensor
  }
  return %d : !prim.tensor
}

// -----

// A graph input that is resized loses its sizes, as in TorchScript.
// CHECK-LABEL: func.func @resized_input
// CHECK-SAME: (%{{.*}}: !prim.tensor<dtype = f32>) -> !prim.tensor<dtype = f32>
// CHECK: aten.relu {{.*}} -> !prim.tensor<dtype = f32>{{$}}
func.func @resized_input(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor {
  %zero = prim.Constant {value = 0 : i64} : i64
  %y = aten.relu %x : (!prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor
  %z = aten.unsqueeze_ %x, %zero : (!prim.tensor<dtype = f32, sizes = [2, 3]>, i64) -> !prim.tensor
  return %y : !prim.tensor
}

// -----

// einsum: the promoted dtype; the explicit output, or the labels used once
// in sorted order; repeated labels take a diagonal; size-1 dims broadcast;
// the ellipsis dims broadcast and lead an implicit output. A malformed
// equation or a rank that does not match keeps only the dtype.
// CHECK-LABEL: func.func @einsum
// CHECK: aten.einsum {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 3, 5]>
// CHECK: aten.einsum {{.*}} -> !prim.tensor<dtype = f64, sizes = [3, 3]>
// CHECK: aten.einsum {{.*}} -> !prim.tensor<dtype = f32, sizes = []>
// CHECK: aten.einsum {{.*}} -> !prim.tensor<dtype = f32, sizes = [3]>
// CHECK: aten.einsum {{.*}} -> !prim.tensor<dtype = f32, sizes = [3, 4]>
// CHECK: aten.einsum {{.*}} -> !prim.tensor<dtype = f32, sizes = [7, 2, 3, 5]>
// CHECK: aten.einsum {{.*}} -> !prim.tensor<dtype = f32, sizes = [?, 5]>
// CHECK: aten.einsum {{.*}} -> !prim.tensor<dtype = f32>{{$}}
// CHECK: aten.einsum {{.*}} -> !prim.tensor<dtype = f32>{{$}}
func.func @einsum(%a: !prim.tensor<dtype = f32, sizes = [2, 3, 4]>, %b: !prim.tensor<dtype = f32, sizes = [2, 4, 5]>, %m: !prim.tensor<dtype = f32, sizes = [3, 3]>, %d: !prim.tensor<dtype = f64, sizes = [3, 3]>, %c: !prim.tensor<dtype = f32, sizes = [3, 1]>, %r: !prim.tensor<dtype = f32, sizes = [1, 4]>, %e: !prim.tensor<dtype = f32, sizes = [7, 1, 4, 5]>, %u: !prim.tensor<dtype = f32, sizes = [?, 4]>, %v: !prim.tensor<dtype = f32, sizes = [4, 5]>) -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) {
  %none = prim.Constant {value} : !prim.none
  %bmm = prim.Constant {value = "bij, bjk -> bik"} : !prim.str
  %implicit = prim.Constant {value = "ji,jk"} : !prim.str
  %trace = prim.Constant {value = "ii"} : !prim.str
  %diag = prim.Constant {value = "ii->i"} : !prim.str
  %bcast = prim.Constant {value = "ij,ij->ij"} : !prim.str
  %ellipsis = prim.Constant {value = "...ij,...jk"} : !prim.str
  %mm = prim.Constant {value = "ij,jk->ik"} : !prim.str
  %bad = prim.Constant {value = "ij,jk->iz"} : !prim.str
  %ab = prim.ListConstruct %a, %b : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, !prim.tensor<dtype = f32, sizes = [2, 4, 5]>) -> !prim.list<!prim.tensor>
  %md = prim.ListConstruct %m, %d : (!prim.tensor<dtype = f32, sizes = [3, 3]>, !prim.tensor<dtype = f64, sizes = [3, 3]>) -> !prim.list<!prim.tensor>
  %mlist = prim.ListConstruct %m : (!prim.tensor<dtype = f32, sizes = [3, 3]>) -> !prim.list<!prim.tensor>
  %cr = prim.ListConstruct %c, %r : (!prim.tensor<dtype = f32, sizes = [3, 1]>, !prim.tensor<dtype = f32, sizes = [1, 4]>) -> !prim.list<!prim.tensor>
  %ae = prim.ListConstruct %a, %e : (!prim.tensor<dtype = f32, sizes = [2, 3, 4]>, !prim.tensor<dtype = f32, sizes = [7, 1, 4, 5]>) -> !prim.list<!prim.tensor>
  %uv = prim.ListConstruct %u, %v : (!prim.tensor<dtype = f32, sizes = [?, 4]>, !prim.tensor<dtype = f32, sizes = [4, 5]>) -> !prim.list<!prim.tensor>
  %0 = aten.einsum %bmm, %ab, %none : (!prim.str, !prim.list<!prim.tensor>, !prim.none) -> !prim.tensor
  %1 = aten.einsum %implicit, %md, %none : (!prim.str, !prim.list<!prim.tensor>, !prim.none) -> !prim.tensor
  %2 = aten.einsum %trace, %mlist, %none : (!prim.str, !prim.list<!prim.tensor>, !prim.none) -> !prim.tensor
  %3 = aten.einsum %diag, %mlist, %none : (!prim.str, !prim.list<!prim.tensor>, !prim.none) -> !prim.tensor
  %4 = aten.einsum %bcast, %cr, %none : (!prim.str, !prim.list<!prim.tensor>, !prim.none) -> !prim.tensor
  %5 = aten.einsum %ellipsis, %ae, %none : (!prim.str, !prim.list<!prim.tensor>, !prim.none) -> !prim.tensor
  %6 = aten.einsum %mm, %uv, %none : (!prim.str, !prim.list<!prim.tensor>, !prim.none) -> !prim.tensor
  %7 = aten.einsum %bad, %uv, %none : (!prim.str, !prim.list<!prim.tensor>, !prim.none) -> !prim.tensor
  %8 = aten.einsum %mm, %ab, %none : (!prim.str, !prim.list<!prim.tensor>, !prim.none) -> !prim.tensor
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor
}

// -----

// index.Tensor: the index tensors broadcast to B, which replaces adjacent
// indexed dims in place and goes first when a kept dim separates them;
// a boolean mask and an unknown index dtype leave the sizes unknown.
// index_put keeps self's type; item stays a Scalar.
// CHECK-LABEL: func.func @advanced_indexing
// CHECK: aten.index.Tensor {{.*}} -> !prim.tensor<dtype = f32, sizes = [3, 1, 2, 5]>
// CHECK: aten.index.Tensor {{.*}} -> !prim.tensor<dtype = f32, sizes = [4, 3, 2]>
// CHECK: aten.index.Tensor {{.*}} -> !prim.tensor<dtype = f32, sizes = [3, 2, 2]>
// CHECK: aten.index.Tensor {{.*}} -> !prim.tensor<dtype = f32>{{$}}
// CHECK: aten.index.Tensor {{.*}} -> !prim.tensor<dtype = f32>{{$}}
// CHECK: aten.index_put {{.*}} -> !prim.tensor<dtype = f32, sizes = [4, 2, 5]>
// CHECK: aten.index_put_ {{.*}} -> !prim.tensor<dtype = f32, sizes = [4, 2, 5]>
// CHECK: aten.item {{.*}} -> !prim.number
// CHECK: aten.ScalarImplicit {{.*}} -> !prim.number
func.func @advanced_indexing(%x: !prim.tensor<dtype = f32, sizes = [4, 2, 5]>, %i: !prim.tensor<dtype = si64, sizes = [3, 1]>, %j: !prim.tensor<dtype = si64, sizes = [2]>, %mask: !prim.tensor<dtype = i1, sizes = [4]>, %k: !prim.tensor, %v: !prim.tensor<dtype = f32, sizes = []>) -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.number, !prim.number) {
  %none = prim.Constant {value} : !prim.none
  %false = prim.Constant {value = false} : i1
  %first = prim.ListConstruct %i : (!prim.tensor<dtype = si64, sizes = [3, 1]>) -> !prim.list<!prim.optional<!prim.tensor>>
  %adjacent = prim.ListConstruct %none, %i, %j : (!prim.none, !prim.tensor<dtype = si64, sizes = [3, 1]>, !prim.tensor<dtype = si64, sizes = [2]>) -> !prim.list<!prim.optional<!prim.tensor>>
  %split = prim.ListConstruct %i, %none, %j : (!prim.tensor<dtype = si64, sizes = [3, 1]>, !prim.none, !prim.tensor<dtype = si64, sizes = [2]>) -> !prim.list<!prim.optional<!prim.tensor>>
  %masked = prim.ListConstruct %mask : (!prim.tensor<dtype = i1, sizes = [4]>) -> !prim.list<!prim.optional<!prim.tensor>>
  %unknown = prim.ListConstruct %k : (!prim.tensor) -> !prim.list<!prim.optional<!prim.tensor>>
  %0 = aten.index.Tensor %x, %first : (!prim.tensor<dtype = f32, sizes = [4, 2, 5]>, !prim.list<!prim.optional<!prim.tensor>>) -> !prim.tensor
  %1 = aten.index.Tensor %x, %adjacent : (!prim.tensor<dtype = f32, sizes = [4, 2, 5]>, !prim.list<!prim.optional<!prim.tensor>>) -> !prim.tensor
  %2 = aten.index.Tensor %x, %split : (!prim.tensor<dtype = f32, sizes = [4, 2, 5]>, !prim.list<!prim.optional<!prim.tensor>>) -> !prim.tensor
  %3 = aten.index.Tensor %x, %masked : (!prim.tensor<dtype = f32, sizes = [4, 2, 5]>, !prim.list<!prim.optional<!prim.tensor>>) -> !prim.tensor
  %4 = aten.index.Tensor %x, %unknown : (!prim.tensor<dtype = f32, sizes = [4, 2, 5]>, !prim.list<!prim.optional<!prim.tensor>>) -> !prim.tensor
  %5 = aten.index_put %x, %first, %v, %false : (!prim.tensor<dtype = f32, sizes = [4, 2, 5]>, !prim.list<!prim.optional<!prim.tensor>>, !prim.tensor<dtype = f32, sizes = []>, i1) -> !prim.tensor
  %y = aten.clone %x, %none : (!prim.tensor<dtype = f32, sizes = [4, 2, 5]>, !prim.none) -> !prim.tensor
  %6 = aten.index_put_ %y, %first, %v, %false : (!prim.tensor, !prim.list<!prim.optional<!prim.tensor>>, !prim.tensor<dtype = f32, sizes = []>, i1) -> !prim.tensor
  %7 = aten.item %v : (!prim.tensor<dtype = f32, sizes = []>) -> !prim.number
  %8 = aten.ScalarImplicit %v : (!prim.tensor<dtype = f32, sizes = []>) -> !prim.number
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.number, !prim.number
}

// -----

// `n, c, h, w = x.shape` feeding a reshape: the unpacked sizes are known
// while refining, so the reshape refines in the same pass (MaxViT's blocks
// chain this; waiting for folding between rounds left them unrefined).
// CHECK-LABEL: func.func @unpacked_sizes
// CHECK: aten.reshape {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 3, 2, 5]>
func.func @unpacked_sizes(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 10]>) -> !prim.tensor {
  %two = prim.Constant {value = 2 : i64} : i64
  %five = prim.Constant {value = 5 : i64} : i64
  %sizes = aten.size %x : (!prim.tensor<dtype = f32, sizes = [2, 3, 10]>) -> !prim.list<i64>
  %n, %c, %w = prim.ListUnpack %sizes : (!prim.list<i64>) -> (i64, i64, i64)
  %shape = prim.ListConstruct %n, %c, %two, %five : (i64, i64, i64, i64) -> !prim.list<i64>
  %y = aten.reshape %x, %shape : (!prim.tensor<dtype = f32, sizes = [2, 3, 10]>, !prim.list<i64>) -> !prim.tensor
  return %y : !prim.tensor
}

// -----

// An `out=` overload writing a None cast to a tensor (F.normalize's and
// torch.norm's `out=None`, on the branch their `is None` test rules out)
// resizes nothing else: the input keeps its sizes. The generic op is read
// as its schema says (it writes `out` only), and the cast of None is no
// alias of anything.
// CHECK-LABEL: func.func @out_none
// CHECK: aten.relu {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 3]>
func.func @out_none(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> (!prim.tensor, !prim.tensor) {
  %none = prim.Constant {value} : !prim.none
  %out = prim.unchecked_cast %none : (!prim.none) -> !prim.tensor
  %d = prim.Generic "aten::div"(%x, %x, %out) {tsir.overload = "out"} : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor) -> !prim.tensor
  %r = aten.relu %x : (!prim.tensor<dtype = f32, sizes = [2, 3]>) -> !prim.tensor
  return %d, %r : !prim.tensor, !prim.tensor
}

// -----

// `sizes[:1] + [n, k] + sizes[2:]` of known sizes (the pooling
// decompositions' window shapes): the list is known while refining.
// CHECK-LABEL: func.func @sliced_sizes
// CHECK: aten.reshape {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 5, 2, 4]>
func.func @sliced_sizes(%x: !prim.tensor<dtype = f32, sizes = [2, 10, 4]>) -> !prim.tensor {
  %none = prim.Constant {value} : !prim.none
  %zero = prim.Constant {value = 0 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %two = prim.Constant {value = 2 : i64} : i64
  %five = prim.Constant {value = 5 : i64} : i64
  %sizes = aten.size %x : (!prim.tensor<dtype = f32, sizes = [2, 10, 4]>) -> !prim.list<i64>
  %before = aten.slice.t %sizes, %zero, %one, %one : (!prim.list<i64>, i64, i64, i64) -> !prim.list<i64>
  %after = aten.slice.t %sizes, %two, %none, %one : (!prim.list<i64>, i64, !prim.none, i64) -> !prim.list<i64>
  %middle = prim.ListConstruct %five, %two : (i64, i64) -> !prim.list<i64>
  %head = aten.add.t %before, %middle : (!prim.list<i64>, !prim.list<i64>) -> !prim.list<i64>
  %shape = aten.add.t %head, %after : (!prim.list<i64>, !prim.list<i64>) -> !prim.list<i64>
  %y = aten.reshape %x, %shape : (!prim.tensor<dtype = f32, sizes = [2, 10, 4]>, !prim.list<i64>) -> !prim.tensor
  return %y : !prim.tensor
}

//--- spec.mlir

// arg-spec sets the inputs' types (`_` keeps one) and the function type
// follows; a scalar input takes `_`. The device is not a fact: only one
// input states it.
// SPEC-LABEL: func.func @graph
// SPEC-SAME: (%{{.*}}: !prim.tensor<dtype = f32, sizes = [2, 3]>, %{{.*}}: !prim.tensor<dtype = f32, sizes = [3, 4], strides = [4, 1], device = "cpu", requires_grad = false>, %{{.*}}: i64) -> !prim.tensor<dtype = f32, sizes = [2, 4]> {
// SPEC: aten.matmul {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 4]>{{$}}
// SPEC: aten.mul.Scalar {{.*}} -> !prim.tensor<dtype = f32, sizes = [2, 4]>{{$}}
// KEEP-LABEL: func.func @graph
// KEEP-SAME: (%{{.*}}: !prim.tensor, %{{.*}}: !prim.tensor, %{{.*}}: i64) -> !prim.tensor
// KEEP: aten.mul.Scalar {{.*}} -> !prim.tensor{{$}}
func.func @graph(%x: !prim.tensor, %w: !prim.tensor, %n: i64) -> !prim.tensor {
  %0 = aten.matmul %x, %w : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %1 = aten.mul.Scalar %0, %n : (!prim.tensor, i64) -> !prim.tensor
  return %1 : !prim.tensor
}

//--- bad-count.mlir

// expected-error@+1 {{arg-spec has 1 entry but @graph takes 2 inputs; give one per input ('_' keeps an input's type)}}
func.func @graph(%x: !prim.tensor, %n: i64) -> !prim.tensor {
  return %x : !prim.tensor
}

//--- bad-type.mlir

// expected-error@+1 {{arg-spec entry #0 ('Flot(2)') is not a TorchScript type: unknown type 'Flot' (at column 1)}}
func.func @graph(%x: !prim.tensor, %n: i64) -> !prim.tensor {
  return %x : !prim.tensor
}

//--- not-tensor.mlir

// expected-error@+1 {{arg-spec entry #0 ('int') is not a tensor type, a tuple of them or None; write '_' to keep a scalar input}}
func.func @graph(%x: !prim.tensor, %n: i64) -> !prim.tensor {
  return %x : !prim.tensor
}

//--- scalar-input.mlir

// expected-error@+1 {{arg-spec entry #1 ('Long(3)') is a tensor type, but input #1 has type 'i64'; write '_' for it}}
func.func @graph(%x: !prim.tensor, %n: i64) -> !prim.tensor {
  return %x : !prim.tensor
}

//--- unbalanced.mlir

// expected-error@+1 {{arg-spec has unbalanced parentheses or brackets: 'Float(2, _'}}
func.func @graph(%x: !prim.tensor, %n: i64) -> !prim.tensor {
  return %x : !prim.tensor
}

//--- bad-strides.mlir

// expected-error@+1 {{arg-spec entry #0 ('Float(2, strides=[1, 1])') is not a TorchScript type: tensor has 1 sizes but 2 strides}}
func.func @graph(%x: !prim.tensor, %n: i64) -> !prim.tensor {
  return %x : !prim.tensor
}

//--- tuple.mlir

// A tuple of tensors (nn.LSTM's state (h0, c0)) refines an optional tuple
// input element by element; its `is None` test folds.
// TUPLE-LABEL: func.func @graph
// TUPLE-SAME: %{{.*}}: !prim.tuple<!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 4]>>
// TUPLE: prim.TupleUnpack {{.*}} -> (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [2, 4]>)
// BADTUPLE: arg-spec entry #1 is a tuple of 3 tensors, but input #1 has type '!prim.optional<!prim.tuple<!prim.tensor, !prim.tensor>>'; write '_' for it
func.func @graph(%x: !prim.tensor, %hx: !prim.optional<!prim.tuple<!prim.tensor, !prim.tensor>>) -> !prim.tensor {
  %state = prim.unchecked_cast %hx : (!prim.optional<!prim.tuple<!prim.tensor, !prim.tensor>>) -> !prim.tuple<!prim.tensor, !prim.tensor>
  %hc:2 = prim.TupleUnpack %state : (!prim.tuple<!prim.tensor, !prim.tensor>) -> (!prim.tensor, !prim.tensor)
  return %hc#0 : !prim.tensor
}
