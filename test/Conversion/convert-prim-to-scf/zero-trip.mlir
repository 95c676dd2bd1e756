// RUN: tsir-opt %s --convert-prim-to-scf --canonicalize | FileCheck %s

// TorchScript runs a for-loop zero times for a trip count of 0 or below:
// the scf.for folds away and the loop's result is its initial value.
// CHECK-LABEL: func.func @zero_trip_for
// CHECK-NOT: scf.for
// CHECK: %[[SEVEN:.*]] = arith.constant 7 : i64
// CHECK-NOT: scf.for
// CHECK: return %[[SEVEN]], %[[SEVEN]]
func.func @zero_trip_for() -> (i64, i64) {
  %true = arith.constant true
  %m3 = arith.constant -3 : i64
  %zero = arith.constant 0 : i64
  %seven = arith.constant 7 : i64
  %0 = prim.Loop %m3, %true, %seven : i64 -> (i64) {
  ^bb0(%i: i64, %v: i64):
    %1 = arith.addi %v, %i : i64
    prim.Yield %true, %1 : i1, i64
  }
  %2 = prim.Loop %zero, %true, %seven : i64 -> (i64) {
  ^bb0(%i: i64, %v: i64):
    %1 = arith.addi %v, %i : i64
    prim.Yield %true, %1 : i1, i64
  }
  return %0, %2 : i64, i64
}
