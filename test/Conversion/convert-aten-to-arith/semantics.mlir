// RUN: tsir-opt %s --convert-aten-to-arith --canonicalize -split-input-file | FileCheck %s

// TorchScript's semantics on constant operands, checked through the folds of
// the arith the ops lower to: each value below is what torch 1.13 computes
// (or, where torch raises or traps, what tsir documents instead).

// Python's floor division and modulo round toward negative infinity.
// CHECK-LABEL: func.func @int_division
// CHECK-DAG: %[[M4:.*]] = arith.constant -4 : i64
// CHECK-DAG: %[[P1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[M1:.*]] = arith.constant -1 : i64
// CHECK-DAG: %[[P3:.*]] = arith.constant 3 : i64
// CHECK: return %[[M4]], %[[P1]], %[[M4]], %[[M1]], %[[P3]], %[[M1]]
func.func @int_division() -> (i64, i64, i64, i64, i64, i64) {
  %m7 = prim.Constant {value = -7 : i64} : i64
  %p7 = prim.Constant {value = 7 : i64} : i64
  %p2 = prim.Constant {value = 2 : i64} : i64
  %m2 = prim.Constant {value = -2 : i64} : i64
  %0 = aten.floordiv.int %m7, %p2 : (i64, i64) -> i64
  %1 = aten.remainder.int %m7, %p2 : (i64, i64) -> i64
  %2 = aten.floordiv.int %p7, %m2 : (i64, i64) -> i64
  %3 = aten.remainder.int %p7, %m2 : (i64, i64) -> i64
  %4 = aten.floordiv.int %m7, %m2 : (i64, i64) -> i64
  %5 = aten.remainder.int %m7, %m2 : (i64, i64) -> i64
  return %0, %1, %2, %3, %4, %5 : i64, i64, i64, i64, i64, i64
}

// -----

// A zero divisor (torch raises, or traps on `%`) gives 0; INT64_MIN // -1
// wraps instead of trapping; int arithmetic wraps.
// CHECK-LABEL: func.func @int_edge_cases
// CHECK-DAG: %[[Z:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[MIN:.*]] = arith.constant -9223372036854775808 : i64
// CHECK: return %[[Z]], %[[Z]], %[[MIN]], %[[Z]], %[[MIN]]
func.func @int_edge_cases() -> (i64, i64, i64, i64, i64) {
  %p7 = prim.Constant {value = 7 : i64} : i64
  %z = prim.Constant {value = 0 : i64} : i64
  %m1 = prim.Constant {value = -1 : i64} : i64
  %p1 = prim.Constant {value = 1 : i64} : i64
  %max = prim.Constant {value = 9223372036854775807 : i64} : i64
  %min = prim.Constant {value = -9223372036854775808 : i64} : i64
  %0 = aten.floordiv.int %p7, %z : (i64, i64) -> i64
  %1 = aten.remainder.int %p7, %z : (i64, i64) -> i64
  %2 = aten.floordiv.int %min, %m1 : (i64, i64) -> i64
  %3 = aten.remainder.int %min, %m1 : (i64, i64) -> i64
  %4 = aten.add.int %max, %p1 : (i64, i64) -> i64
  return %0, %1, %2, %3, %4 : i64, i64, i64, i64, i64
}

// -----

// `int / int` is true division; float floor division and modulo follow
// Python (the modulo takes the divisor's sign); mixed overloads promote.
// CHECK-LABEL: func.func @float_division
// CHECK-DAG: %[[A:.*]] = arith.constant 3.500000e+00 : f64
// CHECK-DAG: %[[B:.*]] = arith.constant -4.000000e+00 : f64
// CHECK-DAG: %[[C:.*]] = arith.constant 5.000000e-01 : f64
// CHECK-DAG: %[[D:.*]] = arith.constant -5.000000e-01 : f64
// CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[B]]
func.func @float_division() -> (f64, f64, f64, f64, f64) {
  %p7 = prim.Constant {value = 7 : i64} : i64
  %p2 = prim.Constant {value = 2 : i64} : i64
  %fm75 = prim.Constant {value = -7.5 : f64} : f64
  %f75 = prim.Constant {value = 7.5 : f64} : f64
  %f2 = prim.Constant {value = 2.0 : f64} : f64
  %fm2 = prim.Constant {value = -2.0 : f64} : f64
  %0 = aten.div.int %p7, %p2 : (i64, i64) -> f64
  %1 = aten.floordiv.float %fm75, %f2 : (f64, f64) -> f64
  %2 = aten.remainder.float %fm75, %f2 : (f64, f64) -> f64
  %3 = aten.remainder.float %f75, %fm2 : (f64, f64) -> f64
  %4 = aten.floordiv.float_int %fm75, %p2 : (f64, i64) -> f64
  return %0, %1, %2, %3, %4 : f64, f64, f64, f64, f64
}

// -----

// float -> int truncates toward zero; floor/ceil return ints.
// CHECK-LABEL: func.func @float_to_int
// CHECK-DAG: %[[M2:.*]] = arith.constant -2 : i64
// CHECK-DAG: %[[M3:.*]] = arith.constant -3 : i64
// CHECK-DAG: %[[P3:.*]] = arith.constant 3 : i64
// CHECK: return %[[M2]], %[[M3]], %[[M2]], %[[P3]]
func.func @float_to_int() -> (i64, i64, i64, i64) {
  %fm27 = prim.Constant {value = -2.7 : f64} : f64
  %f27 = prim.Constant {value = 2.7 : f64} : f64
  %0 = aten.Int.float %fm27 : (f64) -> i64
  %1 = aten.floor.float %fm27 : (f64) -> i64
  %2 = aten.ceil.float %fm27 : (f64) -> i64
  %3 = aten.ceil.float %f27 : (f64) -> i64
  return %0, %1, %2, %3 : i64, i64, i64, i64
}

// -----

// len(range(lo, hi, step)) for positive, negative and empty ranges, and a
// zero step (torch raises) giving 0.
// CHECK-LABEL: func.func @range_length
// CHECK-DAG: %[[Z:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[P3:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[P4:.*]] = arith.constant 4 : i64
// CHECK: return %[[P3]], %[[P4]], %[[Z]], %[[Z]]
func.func @range_length() -> (i64, i64, i64, i64) {
  %p2 = prim.Constant {value = 2 : i64} : i64
  %p10 = prim.Constant {value = 10 : i64} : i64
  %p3 = prim.Constant {value = 3 : i64} : i64
  %m2 = prim.Constant {value = -2 : i64} : i64
  %z = prim.Constant {value = 0 : i64} : i64
  %0 = aten.__range_length %p2, %p10, %p3 : (i64, i64, i64) -> i64
  %1 = aten.__range_length %p10, %p2, %m2 : (i64, i64, i64) -> i64
  %2 = aten.__range_length %p10, %p2, %p3 : (i64, i64, i64) -> i64
  %3 = aten.__range_length %p2, %p10, %z : (i64, i64, i64) -> i64
  return %0, %1, %2, %3 : i64, i64, i64, i64
}

// -----

// An int compares with a float by value; bools order as 0 < 1; NaN != NaN.
// CHECK-LABEL: func.func @comparisons
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK-DAG: %[[F:.*]] = arith.constant false
// CHECK: return %[[F]], %[[T]], %[[T]], %[[F]], %[[T]], %[[T]]
func.func @comparisons() -> (i1, i1, i1, i1, i1, i1) {
  %m2 = prim.Constant {value = -2 : i64} : i64
  %fm25 = prim.Constant {value = -2.5 : f64} : f64
  %t = prim.Constant {value = true} : i1
  %f = prim.Constant {value = false} : i1
  %nan = prim.Constant {value = 0x7FF8000000000000 : f64} : f64
  %0 = aten.lt.int_float %m2, %fm25 : (i64, f64) -> i1
  %1 = aten.gt.int_float %m2, %fm25 : (i64, f64) -> i1
  %2 = aten.ne.float %nan, %nan : (f64, f64) -> i1
  %3 = aten.eq.float %nan, %nan : (f64, f64) -> i1
  %4 = aten.gt %t, %f : (i1, i1) -> i1
  %5 = aten.__xor__.bool %t, %f : (i1, i1) -> i1
  return %0, %1, %2, %3, %4, %5 : i1, i1, i1, i1, i1, i1
}

// -----

// TorchScript's float floor division is floor(a / b), not Python's exact
// one: 1.0 // 0.1 is 10.0 in TorchScript (9.0 in Python).
// CHECK-LABEL: func.func @float_floordiv_rounding
// CHECK: %[[TEN:.*]] = arith.constant 1.000000e+01 : f64
// CHECK: return %[[TEN]]
func.func @float_floordiv_rounding() -> f64 {
  %one = prim.Constant {value = 1.0 : f64} : f64
  %tenth = prim.Constant {value = 0.1 : f64} : f64
  %0 = aten.floordiv.float %one, %tenth : (f64, f64) -> f64
  return %0 : f64
}

// -----

// Python's min/max as TorchScript runs them (`a < b ? a : b`): a NaN first
// operand loses, a NaN second one wins, -0.0 vs 0.0 gives the second; an
// int meets a float as a float; abs of INT64_MIN wraps to itself.
// CHECK-LABEL: func.func @min_max_abs
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7FF8000000000000 : f64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[NZERO:.*]] = arith.constant -0.000000e+00 : f64
// CHECK-DAG: %[[M3:.*]] = arith.constant -3 : i64
// CHECK-DAG: %[[P2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[P3:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[MIN:.*]] = arith.constant -9223372036854775808 : i64
// CHECK-DAG: %[[FM3:.*]] = arith.constant -3.000000e+00 : f64
// CHECK: return %[[ONE]], %[[NAN]], %[[ONE]], %[[NAN]], %[[ZERO]], %[[M3]], %[[P3]], %[[P2]], %[[MIN]], %[[FM3]], %[[NZERO]]
func.func @min_max_abs() -> (f64, f64, f64, f64, f64, i64, i64, i64, i64, f64, f64) {
  %nan = prim.Constant {value = 0x7FF8000000000000 : f64} : f64
  %one = prim.Constant {value = 1.0 : f64} : f64
  %nz = prim.Constant {value = -0.0 : f64} : f64
  %z = prim.Constant {value = 0.0 : f64} : f64
  %m3 = prim.Constant {value = -3 : i64} : i64
  %p2 = prim.Constant {value = 2 : i64} : i64
  %min = prim.Constant {value = -9223372036854775808 : i64} : i64
  %0 = prim.Generic "prim::min"(%nan, %one) : (f64, f64) -> f64
  %1 = prim.Generic "prim::min"(%one, %nan) : (f64, f64) -> f64
  %2 = prim.Generic "prim::max"(%nan, %one) : (f64, f64) -> f64
  %3 = prim.Generic "prim::max"(%one, %nan) : (f64, f64) -> f64
  %4 = prim.Generic "prim::min"(%nz, %z) : (f64, f64) -> f64
  %5 = prim.Generic "prim::min"(%m3, %p2) : (i64, i64) -> i64
  %6 = prim.Generic "prim::abs"(%m3) : (i64) -> i64
  %7 = prim.Generic "prim::max"(%m3, %p2) : (i64, i64) -> i64
  %8 = prim.Generic "prim::abs"(%min) : (i64) -> i64
  %9 = prim.Generic "prim::min"(%m3, %one) : (i64, f64) -> f64
  %10 = prim.Generic "prim::min"(%z, %nz) : (f64, f64) -> f64
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : f64, f64, f64, f64, f64, i64, i64, i64, i64, f64, f64
}
