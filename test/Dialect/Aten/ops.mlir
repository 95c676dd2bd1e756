// ops.mlir - custom-syntax round trip of a representative set of typed aten ops.
// RUN: tsir-opt %s | tsir-opt | FileCheck %s

// Every aten op prints as `aten.<name>.<overload> operands : (types) -> results`,
// operands in schema order, keyword-only arguments included.

// CHECK-LABEL: func @tensor_arith
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: !prim.tensor, %[[B:[a-z0-9_]+]]: !prim.tensor<dtype = f32, sizes = [2, 3]>, %[[I:[a-z0-9_]+]]: i64, %[[F:[a-z0-9_]+]]: f64, %[[S:[a-z0-9_]+]]: !prim.str, %[[N:[a-z0-9_]+]]: !prim.none)
func.func @tensor_arith(%a: !prim.tensor, %b: !prim.tensor<dtype = f32, sizes = [2, 3]>,
                        %i: i64, %f: f64, %s: !prim.str, %none: !prim.none) -> !prim.tensor {
  // CHECK: %[[ADD:[a-z0-9_]+]] = aten.add.Tensor %[[A]], %[[B]], %[[I]] : (!prim.tensor, !prim.tensor<dtype = f32, sizes = [2, 3]>, i64) -> !prim.tensor<dtype = f32, sizes = [2, 3]>
  %0 = aten.add.Tensor %a, %b, %i : (!prim.tensor, !prim.tensor<dtype = f32, sizes = [2, 3]>, i64) -> !prim.tensor<dtype = f32, sizes = [2, 3]>
  // CHECK: %[[ADDS:[a-z0-9_]+]] = aten.add.Scalar %[[ADD]], %[[F]], %[[I]] : (!prim.tensor<dtype = f32, sizes = [2, 3]>, f64, i64) -> !prim.tensor
  %1 = aten.add.Scalar %0, %f, %i : (!prim.tensor<dtype = f32, sizes = [2, 3]>, f64, i64) -> !prim.tensor
  // The Scalar alpha of an in-place add may be a float.
  // CHECK: %[[IADD:[a-z0-9_]+]] = aten.add_.Tensor %[[ADDS]], %[[A]], %[[F]] : (!prim.tensor, !prim.tensor, f64) -> !prim.tensor
  %2 = aten.add_.Tensor %1, %a, %f : (!prim.tensor, !prim.tensor, f64) -> !prim.tensor
  // CHECK: %[[SUB:[a-z0-9_]+]] = aten.sub.Tensor %[[IADD]], %[[A]], %[[I]] : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  %3 = aten.sub.Tensor %2, %a, %i : (!prim.tensor, !prim.tensor, i64) -> !prim.tensor
  // CHECK: %[[MUL:[a-z0-9_]+]] = aten.mul.Scalar %[[SUB]], %[[F]] : (!prim.tensor, f64) -> !prim.tensor
  %4 = aten.mul.Scalar %3, %f : (!prim.tensor, f64) -> !prim.tensor
  // CHECK: %[[DIV:[a-z0-9_]+]] = aten.div.Tensor_mode %[[MUL]], %[[A]], %[[S]] : (!prim.tensor, !prim.tensor, !prim.str) -> !prim.tensor
  %5 = aten.div.Tensor_mode %4, %a, %s : (!prim.tensor, !prim.tensor, !prim.str) -> !prim.tensor
  // CHECK: %[[CLAMP:[a-z0-9_]+]] = aten.clamp %[[DIV]], %[[N]], %[[F]] : (!prim.tensor, !prim.none, f64) -> !prim.tensor
  %6 = aten.clamp %5, %none, %f : (!prim.tensor, !prim.none, f64) -> !prim.tensor
  // CHECK: %[[TANH:[a-z0-9_]+]] = aten.tanh %[[CLAMP]] : (!prim.tensor) -> !prim.tensor
  %7 = aten.tanh %6 : (!prim.tensor) -> !prim.tensor
  // CHECK: %[[GT:[a-z0-9_]+]] = aten.gt.Scalar %[[TANH]], %[[I]] : (!prim.tensor, i64) -> !prim.tensor
  %8 = aten.gt.Scalar %7, %i : (!prim.tensor, i64) -> !prim.tensor
  // CHECK: %[[WHERE:[a-z0-9_]+]] = aten.where.self %[[GT]], %[[TANH]], %[[A]] : (!prim.tensor, !prim.tensor, !prim.tensor) -> !prim.tensor
  %9 = aten.where.self %8, %7, %a : (!prim.tensor, !prim.tensor, !prim.tensor) -> !prim.tensor
  // CHECK: %[[RELU:[a-z0-9_]+]] = aten.relu_ %[[WHERE]] : (!prim.tensor) -> !prim.tensor
  %10 = aten.relu_ %9 : (!prim.tensor) -> !prim.tensor
  // CHECK: return %[[RELU]] : !prim.tensor
  return %10 : !prim.tensor
}

// CHECK-LABEL: func @scalar_ops
// CHECK-SAME: (%[[I:[a-z0-9_]+]]: i64, %[[J:[a-z0-9_]+]]: i64, %[[X:[a-z0-9_]+]]: f64, %[[S:[a-z0-9_]+]]: !prim.str, %[[T:[a-z0-9_]+]]: !prim.tensor, %[[O:[a-z0-9_]+]]: !prim.optional<!prim.tensor>)
func.func @scalar_ops(%i: i64, %j: i64, %x: f64, %s: !prim.str, %t: !prim.tensor,
                      %o: !prim.optional<!prim.tensor>) -> (i64, f64, f64, i1, i1, i1, i1, i1, i64) {
  // CHECK: %[[SUM:[a-z0-9_]+]] = aten.add.int %[[I]], %[[J]] : (i64, i64) -> i64
  %0 = aten.add.int %i, %j : (i64, i64) -> i64
  // CHECK: %[[FSUM:[a-z0-9_]+]] = aten.add.float %[[X]], %[[X]] : (f64, f64) -> f64
  %1 = aten.add.float %x, %x : (f64, f64) -> f64
  // CHECK: %[[QUOT:[a-z0-9_]+]] = aten.div.int %[[I]], %[[J]] : (i64, i64) -> f64
  %2 = aten.div.int %i, %j : (i64, i64) -> f64
  // CHECK: %[[GT:[a-z0-9_]+]] = aten.gt.int %[[SUM]], %[[J]] : (i64, i64) -> i1
  %3 = aten.gt.int %0, %j : (i64, i64) -> i1
  // CHECK: %[[NOT:[a-z0-9_]+]] = aten.__not__ %[[GT]] : (i1) -> i1
  %4 = aten.__not__ %3 : (i1) -> i1
  // CHECK: %[[EQ:[a-z0-9_]+]] = aten.eq.str %[[S]], %[[S]] : (!prim.str, !prim.str) -> i1
  %5 = aten.eq.str %s, %s : (!prim.str, !prim.str) -> i1
  // `t1 self, t2 obj`: type variables take any type.
  // CHECK: %[[NONE:[a-z0-9_]+]] = prim.Constant {value} : !prim.none
  %none = prim.Constant {value} : !prim.none
  // CHECK: %[[IS:[a-z0-9_]+]] = aten.__is__ %[[O]], %[[NONE]] : (!prim.optional<!prim.tensor>, !prim.none) -> i1
  %6 = aten.__is__ %o, %none : (!prim.optional<!prim.tensor>, !prim.none) -> i1
  // CHECK: %[[ISNOT:[a-z0-9_]+]] = aten.__isnot__ %[[T]], %[[NONE]] : (!prim.tensor, !prim.none) -> i1
  %7 = aten.__isnot__ %t, %none : (!prim.tensor, !prim.none) -> i1
  // CHECK: %[[INT:[a-z0-9_]+]] = aten.Int.Tensor %[[T]] : (!prim.tensor) -> i64
  %8 = aten.Int.Tensor %t : (!prim.tensor) -> i64
  // CHECK: return %[[SUM]], %[[FSUM]], %[[QUOT]], %[[GT]], %[[NOT]], %[[EQ]], %[[IS]], %[[ISNOT]], %[[INT]]
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i64, f64, f64, i1, i1, i1, i1, i1, i64
}

// CHECK-LABEL: func @reductions
// CHECK-SAME: (%[[T:[a-z0-9_]+]]: !prim.tensor, %[[DIMS:[a-z0-9_]+]]: !prim.list<i64>, %[[K:[a-z0-9_]+]]: i1, %[[N:[a-z0-9_]+]]: !prim.none, %[[I:[a-z0-9_]+]]: i64)
func.func @reductions(%t: !prim.tensor, %dims: !prim.list<i64>, %keep: i1, %none: !prim.none, %i: i64)
    -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor) {
  // CHECK: %[[SUM:[a-z0-9_]+]] = aten.sum.dim_IntList %[[T]], %[[DIMS]], %[[K]], %[[N]] : (!prim.tensor, !prim.list<i64>, i1, !prim.none) -> !prim.tensor
  %0 = aten.sum.dim_IntList %t, %dims, %keep, %none : (!prim.tensor, !prim.list<i64>, i1, !prim.none) -> !prim.tensor
  // `int[1]? dim` also takes None.
  // CHECK: %[[MEAN:[a-z0-9_]+]] = aten.mean.dim %[[T]], %[[N]], %[[K]], %[[I]] : (!prim.tensor, !prim.none, i1, i64) -> !prim.tensor
  %1 = aten.mean.dim %t, %none, %keep, %i : (!prim.tensor, !prim.none, i1, i64) -> !prim.tensor
  // Multi-result overloads, (Tensor values, Tensor indices), name their results.
  // CHECK: %[[MAXV:[a-z0-9_]+]], %[[MAXI:[a-z0-9_]+]] = aten.max.dim %[[T]], %[[I]], %[[K]] : (!prim.tensor, i64, i1) -> (!prim.tensor, !prim.tensor)
  %2:2 = aten.max.dim %t, %i, %keep : (!prim.tensor, i64, i1) -> (!prim.tensor, !prim.tensor)
  // CHECK: %[[TOPV:[a-z0-9_]+]], %[[TOPI:[a-z0-9_]+]] = aten.topk %[[T]], %[[I]], %[[I]], %[[K]], %[[K]] : (!prim.tensor, i64, i64, i1, i1) -> (!prim.tensor, !prim.tensor)
  %3:2 = aten.topk %t, %i, %i, %keep, %keep : (!prim.tensor, i64, i64, i1, i1) -> (!prim.tensor, !prim.tensor)
  // CHECK: return %[[SUM]], %[[MEAN]], %[[MAXV]], %[[MAXI]], %[[TOPV]], %[[TOPI]]
  return %0, %1, %2#0, %2#1, %3#0, %3#1
      : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor
}

// CHECK-LABEL: func @linear_algebra
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: !prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, %[[W:[a-z0-9_]+]]: !prim.tensor<dtype = f32, sizes = [4, 3, 3, 3]>, %[[B:[a-z0-9_]+]]: !prim.optional<!prim.tensor>, %[[M:[a-z0-9_]+]]: !prim.tensor, %[[L:[a-z0-9_]+]]: !prim.list<i64>, %[[G:[a-z0-9_]+]]: i64)
func.func @linear_algebra(%x: !prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>,
                          %w: !prim.tensor<dtype = f32, sizes = [4, 3, 3, 3]>,
                          %bias: !prim.optional<!prim.tensor>, %m: !prim.tensor,
                          %ints: !prim.list<i64>, %groups: i64)
    -> (!prim.tensor, !prim.tensor, !prim.tensor<dtype = f32, sizes = [1, 4, 6, 6]>) {
  // CHECK: %[[MM:[a-z0-9_]+]] = aten.mm %[[M]], %[[M]] : (!prim.tensor, !prim.tensor) -> !prim.tensor
  %0 = aten.mm %m, %m : (!prim.tensor, !prim.tensor) -> !prim.tensor
  // CHECK: %[[NONE:[a-z0-9_]+]] = prim.Constant {value} : !prim.none
  %none = prim.Constant {value} : !prim.none
  // CHECK: %[[LIN:[a-z0-9_]+]] = aten.linear %[[MM]], %[[M]], %[[NONE]] : (!prim.tensor, !prim.tensor, !prim.none) -> !prim.tensor
  %1 = aten.linear %0, %m, %none : (!prim.tensor, !prim.tensor, !prim.none) -> !prim.tensor
  // CHECK: %[[CONV:[a-z0-9_]+]] = aten.conv2d %[[X]], %[[W]], %[[B]], %[[L]], %[[L]], %[[L]], %[[G]] : (!prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, !prim.tensor<dtype = f32, sizes = [4, 3, 3, 3]>, !prim.optional<!prim.tensor>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64) -> !prim.tensor<dtype = f32, sizes = [1, 4, 6, 6]>
  %2 = aten.conv2d %x, %w, %bias, %ints, %ints, %ints, %groups
      : (!prim.tensor<dtype = f32, sizes = [1, 3, 8, 8]>, !prim.tensor<dtype = f32, sizes = [4, 3, 3, 3]>,
         !prim.optional<!prim.tensor>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i64)
      -> !prim.tensor<dtype = f32, sizes = [1, 4, 6, 6]>
  // CHECK: return %[[MM]], %[[LIN]], %[[CONV]]
  return %0, %1, %2 : !prim.tensor, !prim.tensor, !prim.tensor<dtype = f32, sizes = [1, 4, 6, 6]>
}

// CHECK-LABEL: func @views
// CHECK-SAME: (%[[T:[a-z0-9_]+]]: !prim.tensor, %[[SHAPE:[a-z0-9_]+]]: !prim.list<i64>, %[[I:[a-z0-9_]+]]: i64, %[[J:[a-z0-9_]+]]: i64, %[[N:[a-z0-9_]+]]: !prim.none)
func.func @views(%t: !prim.tensor, %shape: !prim.list<i64>, %i: i64, %j: i64, %none: !prim.none)
    -> (!prim.tensor, !prim.list<!prim.tensor>) {
  // CHECK: %[[VIEW:[a-z0-9_]+]] = aten.view %[[T]], %[[SHAPE]] : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  %0 = aten.view %t, %shape : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  // CHECK: %[[RESHAPE:[a-z0-9_]+]] = aten.reshape %[[VIEW]], %[[SHAPE]] : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  %1 = aten.reshape %0, %shape : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  // CHECK: %[[PERM:[a-z0-9_]+]] = aten.permute %[[RESHAPE]], %[[SHAPE]] : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  %2 = aten.permute %1, %shape : (!prim.tensor, !prim.list<i64>) -> !prim.tensor
  // CHECK: %[[TR:[a-z0-9_]+]] = aten.transpose.int %[[PERM]], %[[I]], %[[J]] : (!prim.tensor, i64, i64) -> !prim.tensor
  %3 = aten.transpose.int %2, %i, %j : (!prim.tensor, i64, i64) -> !prim.tensor
  // CHECK: %[[FLAT:[a-z0-9_]+]] = aten.flatten.using_ints %[[TR]], %[[I]], %[[J]] : (!prim.tensor, i64, i64) -> !prim.tensor
  %4 = aten.flatten.using_ints %3, %i, %j : (!prim.tensor, i64, i64) -> !prim.tensor
  // `int? start, int? end`: None or an int.
  // CHECK: %[[SLICE:[a-z0-9_]+]] = aten.slice.Tensor %[[FLAT]], %[[I]], %[[N]], %[[J]], %[[I]] : (!prim.tensor, i64, !prim.none, i64, i64) -> !prim.tensor
  %5 = aten.slice.Tensor %4, %i, %none, %j, %i : (!prim.tensor, i64, !prim.none, i64, i64) -> !prim.tensor
  // CHECK: %[[UNSQ:[a-z0-9_]+]] = aten.unsqueeze %[[SLICE]], %[[I]] : (!prim.tensor, i64) -> !prim.tensor
  %6 = aten.unsqueeze %5, %i : (!prim.tensor, i64) -> !prim.tensor
  // CHECK: %[[CHUNKS:[a-z0-9_]+]] = aten.chunk %[[UNSQ]], %[[I]], %[[J]] : (!prim.tensor, i64, i64) -> !prim.list<!prim.tensor>
  %7 = aten.chunk %6, %i, %j : (!prim.tensor, i64, i64) -> !prim.list<!prim.tensor>
  // CHECK: return %[[UNSQ]], %[[CHUNKS]]
  return %6, %7 : !prim.tensor, !prim.list<!prim.tensor>
}

// CHECK-LABEL: func @list_ops
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: !prim.tensor, %[[B:[a-z0-9_]+]]: !prim.tensor, %[[I:[a-z0-9_]+]]: i64)
func.func @list_ops(%a: !prim.tensor, %b: !prim.tensor, %i: i64) -> (!prim.tensor, i64, !prim.tensor, !prim.list<i64>) {
  // CHECK: %[[L:[a-z0-9_]+]] = prim.ListConstruct %[[A]] : (!prim.tensor) -> !prim.list<!prim.tensor>
  %l = prim.ListConstruct %a : (!prim.tensor) -> !prim.list<!prim.tensor>
  // CHECK: %[[L2:[a-z0-9_]+]] = aten.append.t %[[L]], %[[B]] : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  %0 = aten.append.t %l, %b : (!prim.list<!prim.tensor>, !prim.tensor) -> !prim.list<!prim.tensor>
  // CHECK: %[[ELT:[a-z0-9_]+]] = aten.__getitem__.t %[[L2]], %[[I]] : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %1 = aten.__getitem__.t %0, %i : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  // CHECK: %[[LEN:[a-z0-9_]+]] = aten.len.t %[[L]] : (!prim.list<!prim.tensor>) -> i64
  %2 = aten.len.t %l : (!prim.list<!prim.tensor>) -> i64
  // CHECK: %[[CAT:[a-z0-9_]+]] = aten.cat %[[L]], %[[I]] : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  %3 = aten.cat %l, %i : (!prim.list<!prim.tensor>, i64) -> !prim.tensor
  // CHECK: %[[SIZE:[a-z0-9_]+]] = aten.size %[[CAT]] : (!prim.tensor) -> !prim.list<i64>
  %4 = aten.size %3 : (!prim.tensor) -> !prim.list<i64>
  // CHECK: return %[[ELT]], %[[LEN]], %[[CAT]], %[[SIZE]]
  return %1, %2, %3, %4 : !prim.tensor, i64, !prim.tensor, !prim.list<i64>
}

// CHECK-LABEL: func @creation
// CHECK-SAME: (%[[SHAPE:[a-z0-9_]+]]: !prim.list<i64>, %[[DT:[a-z0-9_]+]]: i64, %[[DEV:[a-z0-9_]+]]: !prim.device, %[[N:[a-z0-9_]+]]: !prim.none, %[[F:[a-z0-9_]+]]: f64, %[[T:[a-z0-9_]+]]: !prim.tensor, %[[B:[a-z0-9_]+]]: i1)
func.func @creation(%shape: !prim.list<i64>, %dtype: i64, %dev: !prim.device, %none: !prim.none,
                    %f: f64, %t: !prim.tensor, %false: i1)
    -> (!prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor,
        !prim.tensor<dtype = f16>) {
  // CHECK: %[[Z:[a-z0-9_]+]] = aten.zeros %[[SHAPE]], %[[DT]], %[[N]], %[[DEV]], %[[N]] : (!prim.list<i64>, i64, !prim.none, !prim.device, !prim.none) -> !prim.tensor
  %0 = aten.zeros %shape, %dtype, %none, %dev, %none : (!prim.list<i64>, i64, !prim.none, !prim.device, !prim.none) -> !prim.tensor
  // CHECK: %[[O:[a-z0-9_]+]] = aten.ones %[[SHAPE]], %[[N]], %[[N]], %[[N]], %[[N]] : (!prim.list<i64>, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  %1 = aten.ones %shape, %none, %none, %none, %none : (!prim.list<i64>, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  // CHECK: %[[FULL:[a-z0-9_]+]] = aten.full %[[SHAPE]], %[[F]], %[[N]], %[[N]], %[[N]], %[[N]] : (!prim.list<i64>, f64, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  %2 = aten.full %shape, %f, %none, %none, %none, %none : (!prim.list<i64>, f64, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  // CHECK: %[[AR:[a-z0-9_]+]] = aten.arange.start_step %[[DT]], %[[F]], %[[DT]], %[[N]], %[[N]], %[[N]], %[[N]] : (i64, f64, i64, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  %3 = aten.arange.start_step %dtype, %f, %dtype, %none, %none, %none, %none : (i64, f64, i64, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  // CHECK: %[[ZL:[a-z0-9_]+]] = aten.zeros_like %[[T]], %[[N]], %[[N]], %[[N]], %[[N]], %[[N]] : (!prim.tensor, !prim.none, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  %4 = aten.zeros_like %t, %none, %none, %none, %none, %none : (!prim.tensor, !prim.none, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  // CHECK: %[[R:[a-z0-9_]+]] = aten.rand %[[SHAPE]], %[[N]], %[[N]], %[[N]], %[[N]] : (!prim.list<i64>, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  %5 = aten.rand %shape, %none, %none, %none, %none : (!prim.list<i64>, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  // CHECK: %[[TO:[a-z0-9_]+]] = aten.to.dtype %[[R]], %[[DT]], %[[B]], %[[B]], %[[N]] : (!prim.tensor, i64, i1, i1, !prim.none) -> !prim.tensor<dtype = f16>
  %6 = aten.to.dtype %5, %dtype, %false, %false, %none : (!prim.tensor, i64, i1, i1, !prim.none) -> !prim.tensor<dtype = f16>
  // CHECK: return %[[Z]], %[[O]], %[[FULL]], %[[AR]], %[[ZL]], %[[R]], %[[TO]]
  return %0, %1, %2, %3, %4, %5, %6
      : !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor, !prim.tensor<dtype = f16>
}
