// RUN: tsir-opt %s --tsir-cpu-collapse-elementwise-dims -split-input-file | FileCheck %s

// A squeeze-excitation product over 14x14 maps: the trailing H and W
// collapse into one loop of 196 (the scale [1, C, 1, 1] does not read
// them); C cannot join, since the scale reads it.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[SCALE:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, 0, 0)>
// CHECK-LABEL: func.func @excite
// CHECK: %[[X:.*]] = memref.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : memref<1x480x14x14xf32> into memref<1x480x196xf32>
// CHECK: %[[O:.*]] = memref.collapse_shape %arg2 {{\[}}[0], [1], [2, 3]]
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[SCALE]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %arg1 : memref<1x480x196xf32>, memref<1x480x1x1xf32>) outs(%[[O]] : memref<1x480x196xf32>)
// CHECK: arith.mulf
func.func @excite(%x: memref<1x480x14x14xf32>, %s: memref<1x480x1x1xf32>, %o: memref<1x480x14x14xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%x, %s : memref<1x480x14x14xf32>, memref<1x480x1x1xf32>) outs(%o : memref<1x480x14x14xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A ReLU with a scalar operand: every dim collapses into one loop.
// CHECK-LABEL: func.func @relu
// CHECK: memref.collapse_shape %arg0 {{\[}}[0, 1, 2, 3]] : memref<2x8x7x7xf32> into memref<784xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]
func.func @relu(%x: memref<2x8x7x7xf32>, %zero: f32, %o: memref<2x8x7x7xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%x, %zero : memref<2x8x7x7xf32>, f32) outs(%o : memref<2x8x7x7xf32>) {
  ^bb0(%a: f32, %z: f32, %c: f32):
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Rows 18 apart (a view of a depthwise convolution's wide rows) are not
// contiguous: the op keeps its loops.
// CHECK-LABEL: func.func @strided_rows
// CHECK-NOT: memref.collapse_shape
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "parallel"]
func.func @strided_rows(%x: memref<1x8x14x14xf32, strided<[4096, 256, 18, 1]>>, %o: memref<1x8x14x14xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%x : memref<1x8x14x14xf32, strided<[4096, 256, 18, 1]>>) outs(%o : memref<1x8x14x14xf32>) {
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// A transposing copy reads its input in another order: nothing collapses.
// CHECK-LABEL: func.func @transpose
// CHECK-NOT: memref.collapse_shape
func.func @transpose(%x: memref<8x7x7xf32>, %o: memref<8x7x7xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
    ins(%x : memref<8x7x7xf32>) outs(%o : memref<8x7x7xf32>) {
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// A global average pool's sum over 7x7 maps: the reduced H and W
// collapse into one reduced loop of 49 (which
// tsir-cpu-vectorize-reductions can step through in vectors); the
// parallel N and C stay, since a run never mixes the two kinds.
// CHECK-LABEL: func.func @pool_sum
// CHECK: %[[X:.*]] = memref.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : memref<2x512x7x7xf32> into memref<2x512x49xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] : memref<2x512x49xf32>) outs(%arg1 : memref<2x512xf32>)
func.func @pool_sum(%x: memref<2x512x7x7xf32>, %o: memref<2x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
    ins(%x : memref<2x512x7x7xf32>) outs(%o : memref<2x512xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  return
}
