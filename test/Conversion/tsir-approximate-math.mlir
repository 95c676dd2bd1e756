// RUN: tsir-opt %s --tsir-approximate-math -split-input-file | FileCheck %s

// f32 tanh and exp become arithmetic (no call the loop vectorizer must
// stop at); f64 and the functions left out (sin) stay as they are.
// CHECK-LABEL: func.func @approximated
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp {{.*}} : f32
// CHECK: arith.mulf
// CHECK: math.tanh %{{.*}} : f64
// CHECK: math.sin %{{.*}} : f32
func.func @approximated(%x: f32, %y: f64) -> (f32, f32, f64, f32) {
  %0 = math.tanh %x : f32
  %1 = math.exp %x : f32
  %2 = math.tanh %y : f64
  %3 = math.sin %x : f32
  return %0, %1, %2, %3 : f32, f32, f64, f32
}

// -----

// Vectors of f32 are approximated too.
// CHECK-LABEL: func.func @vector
// CHECK-NOT: math.log
func.func @vector(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.log %x : vector<8xf32>
  return %0 : vector<8xf32>
}
