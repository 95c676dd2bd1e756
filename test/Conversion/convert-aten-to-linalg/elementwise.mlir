// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// An int tensor plus a float tensor computes in float; [3] broadcasts along
// the trailing dim of [2, 3]. alpha 1 is not multiplied.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[TRAIL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_promote_broadcast
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[TRAIL]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<2x3xi32>, tensor<3xf32>) outs(%[[E]] : tensor<2x3xf32>)
// CHECK: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[AF:.*]] = arith.sitofp %[[A]] : i32 to f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[AF]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
func.func @add_promote_broadcast(%a: !prim.tensor<dtype = si32, sizes = [2, 3]>, %b: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3]> {
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.add.Tensor %a, %b, %one : (!prim.tensor<dtype = si32, sizes = [2, 3]>, !prim.tensor<dtype = f32, sizes = [3]>, i64) -> !prim.tensor<dtype = f32, sizes = [2, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3]>
}

// -----

// A Scalar operand and alpha are cast to the compute type once, outside the
// loop; sub multiplies other by alpha.
// CHECK-LABEL: func.func @sub_scalar_alpha
// CHECK-SAME: %{{.*}}: !prim.tensor<dtype = f32, sizes = [4]>, %[[S:.*]]: f64, %[[ALPHA:.*]]: i64
// CHECK-DAG: %[[SF:.*]] = arith.truncf %[[S]] : f64 to f32
// CHECK-DAG: %[[AF:.*]] = arith.sitofp %[[ALPHA]] : i64 to f32
// CHECK: linalg.generic
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[SF]], %[[AF]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.subf %[[X]], %[[M]] : f32
// CHECK-NEXT: linalg.yield %[[R]]
func.func @sub_scalar_alpha(%a: !prim.tensor<dtype = f32, sizes = [4]>, %s: f64, %alpha: i64) -> !prim.tensor<dtype = f32, sizes = [4]> {
  %0 = aten.sub.Scalar %a, %s, %alpha : (!prim.tensor<dtype = f32, sizes = [4]>, f64, i64) -> !prim.tensor<dtype = f32, sizes = [4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4]>
}

// -----

// rsub swaps the operands: other - alpha * self.
// CHECK-LABEL: func.func @rsub_tensor
// CHECK: ^bb0(%[[X:.*]]: i64, %[[Y:.*]]: i64, %{{.*}}: i64):
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[X]], %{{.*}} : i64
// CHECK-NEXT: arith.subi %[[Y]], %[[M]] : i64
func.func @rsub_tensor(%a: !prim.tensor<dtype = si64, sizes = [3]>, %b: !prim.tensor<dtype = si64, sizes = [3]>) -> !prim.tensor<dtype = si64, sizes = [3]> {
  %three = prim.Constant {value = 3 : i64} : i64
  %0 = aten.rsub.Tensor %a, %b, %three : (!prim.tensor<dtype = si64, sizes = [3]>, !prim.tensor<dtype = si64, sizes = [3]>, i64) -> !prim.tensor<dtype = si64, sizes = [3]>
  return %0 : !prim.tensor<dtype = si64, sizes = [3]>
}

// -----

// int / int is true division in float.
// CHECK-LABEL: func.func @div_int_int
// CHECK: ^bb0(%[[A:.*]]: i64, %[[B:.*]]: i64, %{{.*}}: f32):
// CHECK-DAG: %[[AF:.*]] = arith.sitofp %[[A]] : i64 to f32
// CHECK-DAG: %[[BF:.*]] = arith.sitofp %[[B]] : i64 to f32
// CHECK: arith.divf %[[AF]], %[[BF]] : f32
func.func @div_int_int(%a: !prim.tensor<dtype = si64, sizes = [3]>, %b: !prim.tensor<dtype = si64, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]> {
  %0 = aten.div.Tensor %a, %b : (!prim.tensor<dtype = si64, sizes = [3]>, !prim.tensor<dtype = si64, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// Integer floor division never divides by 0 or -1 (both trap); it patches
// those lanes and rounds toward -inf.
// CHECK-LABEL: func.func @div_floor_int
// CHECK: ^bb0(%[[A:.*]]: i64, %[[B:.*]]: i64, %{{.*}}: i64):
// CHECK-DAG: %[[Z:.*]] = arith.cmpi eq, %[[B]], %{{.*}} : i64
// CHECK-DAG: %[[M1:.*]] = arith.cmpi eq, %[[B]], %{{.*}} : i64
// CHECK: %[[BAD:.*]] = arith.ori
// CHECK: %[[SAFE:.*]] = arith.select %[[BAD]], %{{.*}}, %[[B]] : i64
// CHECK: arith.divsi %[[A]], %[[SAFE]] : i64
// CHECK: arith.remsi %[[A]], %{{.*}} : i64
// CHECK: arith.xori
// CHECK: arith.subi
// CHECK: linalg.yield
func.func @div_floor_int(%a: !prim.tensor<dtype = si64, sizes = [3]>, %b: !prim.tensor<dtype = si64, sizes = [3]>) -> !prim.tensor<dtype = si64, sizes = [3]> {
  %mode = prim.Constant {value = "floor"} : !prim.str
  %0 = aten.div.Tensor_mode %a, %b, %mode : (!prim.tensor<dtype = si64, sizes = [3]>, !prim.tensor<dtype = si64, sizes = [3]>, !prim.str) -> !prim.tensor<dtype = si64, sizes = [3]>
  return %0 : !prim.tensor<dtype = si64, sizes = [3]>
}

// -----

// CHECK-LABEL: func.func @div_trunc_float
// CHECK: %[[Q:.*]] = arith.divf
// CHECK-NEXT: %[[T:.*]] = math.trunc %[[Q]] : f32
// CHECK-NEXT: linalg.yield %[[T]]
func.func @div_trunc_float(%a: !prim.tensor<dtype = f32, sizes = [3]>, %b: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]> {
  %mode = prim.Constant {value = "trunc"} : !prim.str
  %0 = aten.div.Tensor_mode %a, %b, %mode : (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>, !prim.str) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// Python's remainder takes the divisor's sign.
// CHECK-LABEL: func.func @remainder_float
// CHECK: %[[MOD:.*]] = arith.remf %[[A:.*]], %[[B:.*]] : f32
// CHECK: %[[NZ:.*]] = arith.cmpf une, %[[MOD]]
// CHECK: %[[FIX:.*]] = arith.andi %[[NZ]]
// CHECK: %[[ADJ:.*]] = arith.addf %[[MOD]], %{{.*}} : f32
// CHECK: arith.select %[[FIX]], %[[ADJ]], %[[MOD]] : f32
func.func @remainder_float(%a: !prim.tensor<dtype = f32, sizes = [3]>, %b: f64) -> !prim.tensor<dtype = f32, sizes = [3]> {
  %0 = aten.remainder.Scalar %a, %b : (!prim.tensor<dtype = f32, sizes = [3]>, f64) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// pow by a constant 2 is a multiplication, as in torch's kernel; an integer
// power of an integer is a loop.
// CHECK-LABEL: func.func @pow_forms
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[SQ]]
// CHECK: ^bb0(%{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64):
// CHECK: scf.while
// CHECK: arith.shrui
// CHECK: math.powf %{{.*}}, %{{.*}} : f32
func.func @pow_forms(%a: !prim.tensor<dtype = f32, sizes = [3]>, %i: !prim.tensor<dtype = si64, sizes = [3]>, %e: !prim.tensor<dtype = f32, sizes = [3]>) -> (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = si64, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>) {
  %two = prim.Constant {value = 2 : i64} : i64
  %0 = aten.pow.Tensor_Scalar %a, %two : (!prim.tensor<dtype = f32, sizes = [3]>, i64) -> !prim.tensor<dtype = f32, sizes = [3]>
  %1 = aten.pow.Tensor_Tensor %i, %i : (!prim.tensor<dtype = si64, sizes = [3]>, !prim.tensor<dtype = si64, sizes = [3]>) -> !prim.tensor<dtype = si64, sizes = [3]>
  %2 = aten.pow.Tensor_Tensor %a, %e : (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0, %1, %2 : !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = si64, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// Bool arithmetic runs in i8 and is cast back with != 0 (true + true is
// true).
// CHECK-LABEL: func.func @add_bool
// CHECK: ^bb0(%[[A:.*]]: i1, %[[B:.*]]: i1, %{{.*}}: i1):
// CHECK-DAG: %[[AI:.*]] = arith.extui %[[A]] : i1 to i8
// CHECK-DAG: %[[BI:.*]] = arith.extui %[[B]] : i1 to i8
// CHECK: %[[S:.*]] = arith.addi %[[AI]], %[[BI]] : i8
// CHECK: %[[R:.*]] = arith.cmpi ne, %[[S]], %{{.*}} : i8
// CHECK: linalg.yield %[[R]] : i1
func.func @add_bool(%a: !prim.tensor<dtype = i1, sizes = [3]>, %b: !prim.tensor<dtype = i1, sizes = [3]>) -> !prim.tensor<dtype = i1, sizes = [3]> {
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.add.Tensor %a, %b, %one : (!prim.tensor<dtype = i1, sizes = [3]>, !prim.tensor<dtype = i1, sizes = [3]>, i64) -> !prim.tensor<dtype = i1, sizes = [3]>
  return %0 : !prim.tensor<dtype = i1, sizes = [3]>
}

// -----

// Half computes in f32 and rounds once.
// CHECK-LABEL: func.func @mul_half
// CHECK: ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16, %{{.*}}: f16):
// CHECK-DAG: %[[AF:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-DAG: %[[BF:.*]] = arith.extf %[[B]] : f16 to f32
// CHECK: %[[P:.*]] = arith.mulf %[[AF]], %[[BF]] : f32
// CHECK: %[[R:.*]] = arith.truncf %[[P]] : f32 to f16
// CHECK: linalg.yield %[[R]] : f16
func.func @mul_half(%a: !prim.tensor<dtype = f16, sizes = [3]>, %b: !prim.tensor<dtype = f16, sizes = [3]>) -> !prim.tensor<dtype = f16, sizes = [3]> {
  %0 = aten.mul.Tensor %a, %b : (!prim.tensor<dtype = f16, sizes = [3]>, !prim.tensor<dtype = f16, sizes = [3]>) -> !prim.tensor<dtype = f16, sizes = [3]>
  return %0 : !prim.tensor<dtype = f16, sizes = [3]>
}

// -----

// Unsigned bytes widen with extui when promoted with signed ones.
// CHECK-LABEL: func.func @add_uint8_int8
// CHECK: ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %{{.*}}: i16):
// CHECK-DAG: arith.extui %[[A]] : i8 to i16
// CHECK-DAG: arith.extsi %[[B]] : i8 to i16
func.func @add_uint8_int8(%a: !prim.tensor<dtype = ui8, sizes = [3]>, %b: !prim.tensor<dtype = si8, sizes = [3]>) -> !prim.tensor<dtype = si16, sizes = [3]> {
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.add.Tensor %a, %b, %one : (!prim.tensor<dtype = ui8, sizes = [3]>, !prim.tensor<dtype = si8, sizes = [3]>, i64) -> !prim.tensor<dtype = si16, sizes = [3]>
  return %0 : !prim.tensor<dtype = si16, sizes = [3]>
}

// -----

// A 0-d operand is read at () for every element, a size-1 dim at 0, a
// missing leading dim not at all.
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @addcmul_0d_and_ones
// CHECK: linalg.generic {indexing_maps = [#[[SCALAR]], #[[COL]], #[[ROW]], #{{.*}}]
// CHECK-SAME: outs(%{{.*}} : tensor<4x5xf32>)
func.func @addcmul_0d_and_ones(%a: !prim.tensor<dtype = f32, sizes = []>, %b: !prim.tensor<dtype = f32, sizes = [4, 1]>, %c: !prim.tensor<dtype = f32, sizes = [5]>) -> !prim.tensor<dtype = f32, sizes = [4, 5]> {
  %half = prim.Constant {value = 5.000000e-01 : f64} : f64
  %0 = aten.addcmul %a, %b, %c, %half : (!prim.tensor<dtype = f32, sizes = []>, !prim.tensor<dtype = f32, sizes = [4, 1]>, !prim.tensor<dtype = f32, sizes = [5]>, f64) -> !prim.tensor<dtype = f32, sizes = [4, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [4, 5]>
}

// -----

// Dynamic result dims are read from the first operand that is not 1 there.
// CHECK-LABEL: func.func @mul_dynamic
// CHECK: %[[T:.*]] = builtin.unrealized_conversion_cast %arg0
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = tensor.dim %[[T]], %[[C0]] : tensor<?x3xf32>
// CHECK: tensor.empty(%[[D]]) : tensor<?x3xf32>
func.func @mul_dynamic(%a: !prim.tensor<dtype = f32, sizes = [?, 3]>, %b: !prim.tensor<dtype = f32, sizes = [1, 3]>) -> !prim.tensor<dtype = f32, sizes = [?, 3]> {
  %0 = aten.mul.Tensor %a, %b : (!prim.tensor<dtype = f32, sizes = [?, 3]>, !prim.tensor<dtype = f32, sizes = [1, 3]>) -> !prim.tensor<dtype = f32, sizes = [?, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [?, 3]>
}

// -----

// The float functions of an int tensor compute in the float result dtype;
// round is half-to-even; sigmoid is 1 / (1 + exp(-x)).
// CHECK-LABEL: func.func @unary_math
// CHECK: arith.sitofp %{{.*}} : i64 to f32
// CHECK-NEXT: math.exp %{{.*}} : f32
// CHECK: math.roundeven %{{.*}} : f32
// CHECK: %[[N:.*]] = arith.negf %{{.*}} : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[N]] : f32
// CHECK-NEXT: %[[D:.*]] = arith.addf %{{.*}}, %[[E]] : f32
// CHECK-NEXT: arith.divf %{{.*}}, %[[D]] : f32
// CHECK: math.erf %{{.*}} : f32
func.func @unary_math(%i: !prim.tensor<dtype = si64, sizes = [3]>, %x: !prim.tensor<dtype = f32, sizes = [3]>) -> (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>) {
  %0 = aten.exp %i : (!prim.tensor<dtype = si64, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]>
  %1 = aten.round %x : (!prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]>
  %2 = aten.sigmoid %x : (!prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]>
  %3 = aten.erf %x : (!prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0, %1, %2, %3 : !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// isnan is x != x; isfinite is |x| != inf, ordered (false for NaN).
// CHECK-LABEL: func.func @float_classes
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: i1):
// CHECK-NEXT: arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK: %[[A:.*]] = math.absf
// CHECK-NEXT: arith.cmpf one, %[[A]], %{{.*}} : f32
func.func @float_classes(%x: !prim.tensor<dtype = f32, sizes = [3]>) -> (!prim.tensor<dtype = i1, sizes = [3]>, !prim.tensor<dtype = i1, sizes = [3]>) {
  %0 = aten.isnan %x : (!prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = i1, sizes = [3]>
  %1 = aten.isfinite %x : (!prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = i1, sizes = [3]>
  return %0, %1 : !prim.tensor<dtype = i1, sizes = [3]>, !prim.tensor<dtype = i1, sizes = [3]>
}

// -----

// relu is x < 0 ? 0 : x, so that NaN stays NaN.
// CHECK-LABEL: func.func @relu
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[NEG:.*]] = arith.cmpf olt, %[[X]], %[[ZERO:.*]] : f32
// CHECK-NEXT: arith.select %[[NEG]], %[[ZERO]], %[[X]] : f32
func.func @relu(%x: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]> {
  %0 = aten.relu %x : (!prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// gelu's erf form and its tanh approximation.
// CHECK-LABEL: func.func @gelu
// CHECK: math.erf
// CHECK: math.tanh
func.func @gelu(%x: !prim.tensor<dtype = f32, sizes = [3]>) -> (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>) {
  %none = prim.Constant {value = "none"} : !prim.str
  %tanh = prim.Constant {value = "tanh"} : !prim.str
  %0 = aten.gelu %x, %none : (!prim.tensor<dtype = f32, sizes = [3]>, !prim.str) -> !prim.tensor<dtype = f32, sizes = [3]>
  %1 = aten.gelu %x, %tanh : (!prim.tensor<dtype = f32, sizes = [3]>, !prim.str) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0, %1 : !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// clamp with a None min only applies max: std::min(x, max).
// CHECK-LABEL: func.func @clamp_max_only
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[GT:.*]] = arith.cmpf olt, %[[MAX:.*]], %[[X]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[GT]], %[[MAX]], %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[R]]
func.func @clamp_max_only(%x: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]> {
  %none = prim.Constant {value} : !prim.none
  %max = prim.Constant {value = 5.000000e-01 : f64} : f64
  %0 = aten.clamp %x, %none, %max : (!prim.tensor<dtype = f32, sizes = [3]>, !prim.none, f64) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// prelu's per-channel weight [C] is viewed as [C, 1, 1] to meet dim 1.
// CHECK-LABEL: func.func @prelu
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>)
func.func @prelu(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 4, 4]>, %w: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 4, 4]> {
  %0 = aten.prelu %x, %w : (!prim.tensor<dtype = f32, sizes = [2, 3, 4, 4]>, !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 4, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 4, 4]>
}

// -----

// Comparisons compute in the promoted dtype of their operands (an int
// tensor against a float Scalar compares in f32) and produce i1.
// CHECK-LABEL: func.func @gt_int_float_scalar
// CHECK-SAME: %{{.*}}: !prim.tensor<dtype = si64, sizes = [3]>, %[[S:.*]]: f64
// CHECK: %[[SF:.*]] = arith.truncf %[[S]] : f64 to f32
// CHECK: ^bb0(%[[X:.*]]: i64, %{{.*}}: i1):
// CHECK-NEXT: %[[XF:.*]] = arith.sitofp %[[X]] : i64 to f32
// CHECK-NEXT: %[[R:.*]] = arith.cmpf ogt, %[[XF]], %[[SF]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : i1
func.func @gt_int_float_scalar(%x: !prim.tensor<dtype = si64, sizes = [3]>, %s: f64) -> !prim.tensor<dtype = i1, sizes = [3]> {
  %0 = aten.gt.Scalar %x, %s : (!prim.tensor<dtype = si64, sizes = [3]>, f64) -> !prim.tensor<dtype = i1, sizes = [3]>
  return %0 : !prim.tensor<dtype = i1, sizes = [3]>
}

// -----

// ne holds for NaN; bool and unsigned compare unsigned.
// CHECK-LABEL: func.func @compare_kinds
// CHECK: arith.cmpf une
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : i1
// CHECK: arith.cmpi uge, %{{.*}}, %{{.*}} : i8
func.func @compare_kinds(%x: !prim.tensor<dtype = f32, sizes = [3]>, %b: !prim.tensor<dtype = i1, sizes = [3]>, %u: !prim.tensor<dtype = ui8, sizes = [3]>) -> (!prim.tensor<dtype = i1, sizes = [3]>, !prim.tensor<dtype = i1, sizes = [3]>, !prim.tensor<dtype = i1, sizes = [3]>) {
  %0 = aten.ne.Tensor %x, %x : (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = i1, sizes = [3]>
  %1 = aten.lt.Tensor %b, %b : (!prim.tensor<dtype = i1, sizes = [3]>, !prim.tensor<dtype = i1, sizes = [3]>) -> !prim.tensor<dtype = i1, sizes = [3]>
  %2 = aten.ge.Tensor %u, %u : (!prim.tensor<dtype = ui8, sizes = [3]>, !prim.tensor<dtype = ui8, sizes = [3]>) -> !prim.tensor<dtype = i1, sizes = [3]>
  return %0, %1, %2 : !prim.tensor<dtype = i1, sizes = [3]>, !prim.tensor<dtype = i1, sizes = [3]>, !prim.tensor<dtype = i1, sizes = [3]>
}

// -----

// logical ops test their operands for non-zero first.
// CHECK-LABEL: func.func @logical_and
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: i64, %{{.*}}: i1):
// CHECK-DAG: %[[XB:.*]] = arith.cmpf une, %[[X]], %{{.*}} : f32
// CHECK-DAG: %[[YB:.*]] = arith.cmpi ne, %[[Y]], %{{.*}} : i64
// CHECK: arith.andi %[[XB]], %[[YB]] : i1
func.func @logical_and(%x: !prim.tensor<dtype = f32, sizes = [3]>, %y: !prim.tensor<dtype = si64, sizes = [3]>) -> !prim.tensor<dtype = i1, sizes = [3]> {
  %0 = aten.logical_and %x, %y : (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = si64, sizes = [3]>) -> !prim.tensor<dtype = i1, sizes = [3]>
  return %0 : !prim.tensor<dtype = i1, sizes = [3]>
}

// -----

// where selects in the promoted result dtype; a uint8 condition is tested
// for non-zero.
// CHECK-LABEL: func.func @where_uint8_condition
// CHECK: ^bb0(%[[C:.*]]: i8, %[[A:.*]]: i64, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-DAG: %[[CB:.*]] = arith.cmpi ne, %[[C]], %{{.*}} : i8
// CHECK-DAG: %[[AF:.*]] = arith.sitofp %[[A]] : i64 to f32
// CHECK: arith.select %[[CB]], %[[AF]], %[[B]] : f32
func.func @where_uint8_condition(%c: !prim.tensor<dtype = ui8, sizes = [3]>, %a: !prim.tensor<dtype = si64, sizes = [3]>, %b: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]> {
  %0 = aten.where.self %c, %a, %b : (!prim.tensor<dtype = ui8, sizes = [3]>, !prim.tensor<dtype = si64, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// CHECK-LABEL: func.func @masked_fill
// CHECK: ^bb0(%[[M:.*]]: i1, %[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.select %[[M]], %{{.*}}, %[[X]] : f32
func.func @masked_fill(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>, %m: !prim.tensor<dtype = i1, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [2, 3]> {
  %v = prim.Constant {value = -1.000000e+09 : f64} : f64
  %0 = aten.masked_fill.Scalar %x, %m, %v : (!prim.tensor<dtype = f32, sizes = [2, 3]>, !prim.tensor<dtype = i1, sizes = [3]>, f64) -> !prim.tensor<dtype = f32, sizes = [2, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3]>
}

// -----

// to.dtype casts with torch's rules (uint8 is zero-extended); to the same
// dtype it is the input itself.
// CHECK-LABEL: func.func @to_dtype
// CHECK: %[[W:.*]] = arith.fptosi %{{.*}} : f32 to i64
// CHECK-NEXT: arith.trunci %[[W]] : i64 to i32
// CHECK: arith.uitofp %{{.*}} : i8 to f32
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @to_dtype(%x: !prim.tensor<dtype = f32, sizes = [3]>, %u: !prim.tensor<dtype = ui8, sizes = [3]>) -> (!prim.tensor<dtype = si32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>) {
  %int = prim.Constant {value = 3 : i64} : i64
  %float = prim.Constant {value = 6 : i64} : i64
  %false = prim.Constant {value = false} : i1
  %none = prim.Constant {value} : !prim.none
  %0 = aten.to.dtype %x, %int, %false, %false, %none : (!prim.tensor<dtype = f32, sizes = [3]>, i64, i1, i1, !prim.none) -> !prim.tensor<dtype = si32, sizes = [3]>
  %1 = aten.to.dtype %u, %float, %false, %false, %none : (!prim.tensor<dtype = ui8, sizes = [3]>, i64, i1, i1, !prim.none) -> !prim.tensor<dtype = f32, sizes = [3]>
  %2 = aten.to.dtype %x, %float, %false, %false, %none : (!prim.tensor<dtype = f32, sizes = [3]>, i64, i1, i1, !prim.none) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0, %1, %2 : !prim.tensor<dtype = si32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

// A float to a narrow integer goes through i64 and wraps, rather than
// producing poison for values outside the narrow range.
// CHECK-LABEL: func.func @to_uint8
// CHECK: %[[W:.*]] = arith.fptosi %{{.*}} : f32 to i64
// CHECK-NEXT: arith.trunci %[[W]] : i64 to i8
func.func @to_uint8(%x: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = ui8, sizes = [3]> {
  %byte = prim.Constant {value = 0 : i64} : i64
  %false = prim.Constant {value = false} : i1
  %none = prim.Constant {value} : !prim.none
  %0 = aten.to.dtype %x, %byte, %false, %false, %none : (!prim.tensor<dtype = f32, sizes = [3]>, i64, i1, i1, !prim.none) -> !prim.tensor<dtype = ui8, sizes = [3]>
  return %0 : !prim.tensor<dtype = ui8, sizes = [3]>
}

// -----

// What the patterns refuse is left for the conversion to report.
func.func @unknown_dtype(%x: !prim.tensor<sizes = [3]>) -> !prim.tensor<sizes = [3]> {
  // expected-error @+1 {{failed to legalize operation 'aten.tanh'}}
  %0 = aten.tanh %x : (!prim.tensor<sizes = [3]>) -> !prim.tensor<sizes = [3]>
  return %0 : !prim.tensor<sizes = [3]>
}

// -----

func.func @rounding_mode_not_constant(%x: !prim.tensor<dtype = f32, sizes = [3]>, %mode: !prim.str) -> !prim.tensor<dtype = f32, sizes = [3]> {
  // expected-error @+1 {{failed to legalize operation 'aten.div.Tensor_mode'}}
  %0 = aten.div.Tensor_mode %x, %x, %mode : (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>, !prim.str) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

func.func @gelu_unknown_approximation(%x: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]> {
  %sigmoid = prim.Constant {value = "sigmoid"} : !prim.str
  // expected-error @+1 {{failed to legalize operation 'aten.gelu'}}
  %0 = aten.gelu %x, %sigmoid : (!prim.tensor<dtype = f32, sizes = [3]>, !prim.str) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3]>
}

// -----

func.func @bitwise_float(%x: !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]> {
  // expected-error @+1 {{failed to legalize operation 'aten.__and__.Tensor'}}
  %0 = aten.__and__.Tensor %x, %x : (!prim.tensor<dtype = f32, sizes = [3]>, !prim.tensor<dtype = f32, sizes = [3]>) -> !prim.tensor<dtype = f32, sizes = [3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [3]>
}
