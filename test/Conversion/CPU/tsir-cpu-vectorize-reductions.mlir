// RUN: tsir-opt %s --tsir-cpu-vectorize-reductions -split-input-file | FileCheck %s

// A row sum accumulated in f64 (as convert-aten-to-linalg sums long f32
// rows): 16 f64 lanes start at the neutral 0, take 16 elements a step
// (4096 is a whole number of steps: no masked step), are halved pairwise
// down to one and added to the output's old value.
// CHECK-LABEL: func.func @row_sum
// CHECK: %[[C4096:.*]] = arith.constant 4096 : index
// CHECK: scf.for %[[ROW:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<16xf64>
// CHECK:   %[[SUM:.*]] = scf.for %[[K:[a-z0-9_]+]] = %{{.*}} to %[[C4096]] step %{{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %[[ZEROS]]) -> (vector<16xf64>) {
// CHECK:     %[[X:.*]] = vector.load %arg0[%[[ROW]], %[[K]]] : memref<8x4096xf32>, vector<16xf32>
// CHECK:     %[[WIDE:.*]] = arith.extf %[[X]] : vector<16xf32> to vector<16xf64>
// CHECK:     %[[NEXT:.*]] = arith.addf %[[ACC]], %[[WIDE]] : vector<16xf64>
// CHECK:     scf.yield %[[NEXT]]
// CHECK-NOT: vector.maskedload
// CHECK:   %[[OLD:.*]] = memref.load %arg1[%[[ROW]]]
// CHECK:   vector.shuffle %[[SUM]], %[[SUM]] [0, 1, 2, 3, 4, 5, 6, 7]
// CHECK-COUNT-7: vector.shuffle
// CHECK:   %[[LANE:.*]] = vector.extract %{{.*}}[0] : f64 from vector<1xf64>
// CHECK:   %[[TOTAL:.*]] = arith.addf %[[OLD]], %[[LANE]] : f64
// CHECK:   memref.store %[[TOTAL]], %arg1[%[[ROW]]]
// CHECK-NOT: linalg.generic
func.func @row_sum(%x: memref<8x4096xf32>, %out: memref<8xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%x : memref<8x4096xf32>) outs(%out : memref<8xf64>) {
  ^bb0(%in: f32, %acc: f64):
    %wide = arith.extf %in : f32 to f64
    %sum = arith.addf %acc, %wide : f64
    linalg.yield %sum : f64
  }
  return
}

// -----

// Softmax's sum of exp(x - max) over rows of 197 (ViT's tokens): the
// row's max is one scalar, read once before the row's loop and broadcast
// to the lanes; 197 = 6 * 32 + 5, so
// a masked step follows the vector loop, its lanes past the row keeping
// their partial sums.
// CHECK-LABEL: func.func @exp_sum
// CHECK: %[[C192:.*]] = arith.constant 192 : index
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : vector<32xi32>
// CHECK: scf.for %[[ROW:[a-z0-9_]+]] =
// CHECK:   %[[MAX:.*]] = memref.load %arg1[%[[ROW]]]
// CHECK:   %[[MAIN:.*]] = scf.for %[[K:[a-z0-9_]+]] = %{{.*}} to %[[C192]] step %{{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %{{.*}}) -> (vector<32xf32>) {
// CHECK:     vector.load %arg0[%[[ROW]], %[[K]]] : memref<64x197xf32>, vector<32xf32>
// CHECK-NOT: memref.load
// CHECK:     vector.broadcast %[[MAX]] : f32 to vector<32xf32>
// CHECK:     math.exp %{{.*}} : vector<32xf32>
// CHECK:   vector.maskedload %arg0[%[[ROW]], %[[C192]]], %[[MASK]]
// CHECK:   %[[STEP:.*]] = arith.addf %[[MAIN]], %{{.*}} : vector<32xf32>
// CHECK:   arith.select %[[MASK]], %[[STEP]], %[[MAIN]] : vector<32xi1>, vector<32xf32>
func.func @exp_sum(%x: memref<64x197xf32>, %max: memref<64xf32>, %out: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%x, %max : memref<64x197xf32>, memref<64xf32>) outs(%out : memref<64xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    %sum = arith.addf %acc, %e : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// Batch norm's per-channel statistics of an [N, C, L] input: N and L are
// reduced, C is not. The channel loop is outside, N's loop carries the
// lanes, and L's runs in vectors; a dynamic L always has its masked step.
// Two outputs (a row max and a row min) carry a vector each.
// CHECK-LABEL: func.func @channel_extremes
// CHECK: scf.for %[[C:[a-z0-9_]+]] =
// CHECK-DAG: %[[NEG:.*]] = arith.constant dense<0xFF800000> : vector<32xf32>
// CHECK-DAG: %[[POS:.*]] = arith.constant dense<0x7F800000> : vector<32xf32>
// CHECK:   %[[BOTH:.*]]:2 = scf.for %[[N:[a-z0-9_]+]] = {{.*}} iter_args(%{{.*}} = %[[NEG]], %{{.*}} = %[[POS]]) -> (vector<32xf32>, vector<32xf32>) {
// CHECK:     scf.for %[[L:[a-z0-9_]+]] = {{.*}} -> (vector<32xf32>, vector<32xf32>) {
// CHECK:       vector.load %arg0[%[[N]], %[[C]], %[[L]]] : memref<8x64x?xf32>, vector<32xf32>
// CHECK:       arith.maximumf
// CHECK:       arith.minimumf
// CHECK:     vector.maskedload
// CHECK:     scf.yield
// CHECK:   memref.store %{{.*}}, %arg1[%[[C]]]
// CHECK:   memref.store %{{.*}}, %arg2[%[[C]]]
func.func @channel_extremes(%x: memref<8x64x?xf32>, %hi: memref<64xf32>, %lo: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]}
    ins(%x : memref<8x64x?xf32>) outs(%hi, %lo : memref<64xf32>, memref<64xf32>) {
  ^bb0(%in: f32, %a: f32, %b: f32):
    %max = arith.maximumf %a, %in : f32
    %min = arith.minimumf %b, %in : f32
    linalg.yield %max, %min : f32, f32
  }
  return
}

// -----

// Left alone: a short row (under 16), a strided row (a column sum would
// read the reduced dim with a stride), argmax's compare-and-select
// combiner, and a bool row (i1 vectors are bits, not bytes).
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT: vector.
func.func @left_alone(%short: memref<4x7xf32>, %col: memref<4096x8xf32>, %rows: memref<4x64xf32>, %flags: memref<4x64xi1>, %o: memref<4xf32>, %o8: memref<8xf32>, %idx: memref<4xi64>, %any: memref<4xi1>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%short : memref<4x7xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%col : memref<4096x8xf32>) outs(%o8 : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%rows : memref<4x64xf32>) outs(%o, %idx : memref<4xf32>, memref<4xi64>) {
  ^bb0(%in: f32, %best: f32, %at: i64):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i64
    %gt = arith.cmpf ogt, %in, %best : f32
    %v = arith.select %gt, %in, %best : f32
    %i = arith.select %gt, %ki, %at : i64
    linalg.yield %v, %i : f32, i64
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%flags : memref<4x64xi1>) outs(%any : memref<4xi1>) {
  ^bb0(%in: i1, %acc: i1):
    %s = arith.ori %acc, %in : i1
    linalg.yield %s : i1
  }
  return
}
