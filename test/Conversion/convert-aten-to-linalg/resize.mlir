// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// Nearest: each output row/column reads floor(dst * scale), scale being
// 1/scale_factor in f32, clamped to the last input index.
// CHECK-LABEL: func.func @nearest_scale
// CHECK: linalg.generic
// CHECK: %[[H:.*]] = linalg.index 2 : index
// CHECK: %[[HI:.*]] = arith.index_cast %[[H]] : index to i64
// CHECK: %[[HF:.*]] = arith.sitofp %[[HI]] : i64 to f32
// CHECK: %[[HS:.*]] = arith.mulf %{{.*}}, %[[HF]] : f32
// CHECK: math.floor %[[HS]] : f32
// CHECK: arith.fptosi
// CHECK: arith.minsi
// CHECK: tensor.extract %{{.*}} : tensor<1x2x3x5xf32>
// CHECK: -> tensor<1x2x6x10xf32>
func.func @nearest_scale(%x: !prim.tensor<dtype = f32, sizes = [1, 2, 3, 5]>) -> !prim.tensor<dtype = f32, sizes = [1, 2, 6, 10]> {
  %none = prim.Constant {value} : !prim.none
  %s = prim.Constant {value = 2.000000e+00 : f64} : f64
  %scales = prim.ListConstruct %s, %s : (f64, f64) -> !prim.list<f64>
  %0 = aten.upsample_nearest2d.vec %x, %none, %scales : (!prim.tensor<dtype = f32, sizes = [1, 2, 3, 5]>, !prim.none, !prim.list<f64>) -> !prim.tensor<dtype = f32, sizes = [1, 2, 6, 10]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 2, 6, 10]>
}

// -----

// Bilinear without align_corners: src = max((dst + 0.5) * scale - 0.5, 0),
// two neighbours per dim weighted by the fraction. Upsampling along H, it
// runs in two passes: each input row resized along W ([1, 2, 3, 9]), then
// each output row the weighted sum of two of those rows.
// CHECK-LABEL: func.func @bilinear
// CHECK: %[[ROWS:.*]] = linalg.generic
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK: arith.subf
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: math.floor
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK-COUNT-2: tensor.extract %{{.*}} : tensor<1x2x3x5xf32>
// CHECK: -> tensor<1x2x3x9xf32>
// CHECK: linalg.generic
// CHECK: math.floor
// CHECK: tensor.extract %[[ROWS]]
// CHECK: tensor.extract %[[ROWS]]
// CHECK: -> tensor<1x2x7x9xf32>
func.func @bilinear(%x: !prim.tensor<dtype = f32, sizes = [1, 2, 3, 5]>) -> !prim.tensor<dtype = f32, sizes = [1, 2, 7, 9]> {
  %none = prim.Constant {value} : !prim.none
  %false = prim.Constant {value = false} : i1
  %size = prim.Constant {value = [7, 9]} : !prim.list<i64>
  %0 = aten.upsample_bilinear2d.vec %x, %size, %false, %none : (!prim.tensor<dtype = f32, sizes = [1, 2, 3, 5]>, !prim.list<i64>, i1, !prim.none) -> !prim.tensor<dtype = f32, sizes = [1, 2, 7, 9]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 2, 7, 9]>
}

// -----

// align_corners: src = dst * (in - 1) / (out - 1), no half-pixel shift.
// CHECK-LABEL: func.func @bilinear_align
// CHECK: linalg.generic
// CHECK-DAG: arith.constant 4.000000e-01 : f32
// CHECK-DAG: arith.constant 5.000000e-01 : f32
// CHECK-NOT: arith.cmpf olt
// CHECK: math.floor
// CHECK: -> tensor<1x1x6x9xf32>
func.func @bilinear_align(%x: !prim.tensor<dtype = f32, sizes = [1, 1, 3, 5]>) -> !prim.tensor<dtype = f32, sizes = [1, 1, 6, 9]> {
  %none = prim.Constant {value} : !prim.none
  %true = prim.Constant {value = true} : i1
  %size = prim.Constant {value = [6, 9]} : !prim.list<i64>
  %0 = aten.upsample_bilinear2d.vec %x, %size, %true, %none : (!prim.tensor<dtype = f32, sizes = [1, 1, 3, 5]>, !prim.list<i64>, i1, !prim.none) -> !prim.tensor<dtype = f32, sizes = [1, 1, 6, 9]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 1, 6, 9]>
}

// -----

func.func @nearest_3d(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 5]>) -> !prim.tensor<dtype = f32, sizes = [2, 6, 10]> {
  %none = prim.Constant {value} : !prim.none
  %size = prim.Constant {value = [6, 10]} : !prim.list<i64>
  // expected-error @+2 {{2-d upsampling needs an NCHW input, not one of rank 3}}
  // expected-error @+1 {{failed to legalize operation 'aten.upsample_nearest2d.vec'}}
  %0 = aten.upsample_nearest2d.vec %x, %size, %none : (!prim.tensor<dtype = f32, sizes = [2, 3, 5]>, !prim.list<i64>, !prim.none) -> !prim.tensor<dtype = f32, sizes = [2, 6, 10]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 6, 10]>
}

// -----

func.func @interpolate_bicubic(%x: !prim.tensor<dtype = f32, sizes = [1, 1, 3, 5]>) -> !prim.tensor<dtype = f32, sizes = [1, 1, 6, 10]> {
  %none = prim.Constant {value} : !prim.none
  %false = prim.Constant {value = false} : i1
  %mode = prim.Constant {value = "bicubic"} : !prim.str
  %s = prim.Constant {value = 2.000000e+00 : f64} : f64
  // expected-error @+2 {{__interpolate is lowered only in modes 'nearest' and 'bilinear' without antialias, with constant arguments}}
  // expected-error @+1 {{failed to legalize operation 'aten.__interpolate'}}
  %0 = aten.__interpolate %x, %none, %s, %mode, %none, %none, %false : (!prim.tensor<dtype = f32, sizes = [1, 1, 3, 5]>, !prim.none, f64, !prim.str, !prim.none, !prim.none, i1) -> !prim.tensor<dtype = f32, sizes = [1, 1, 6, 10]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 1, 6, 10]>
}

// -----

// __interpolate with a constant scale factor lowers like the .vec ops.
// CHECK-LABEL: func.func @interpolate_nearest
// CHECK: linalg.generic
// CHECK: math.floor
// CHECK: -> tensor<1x1x6x10xf32>
func.func @interpolate_nearest(%x: !prim.tensor<dtype = f32, sizes = [1, 1, 3, 5]>) -> !prim.tensor<dtype = f32, sizes = [1, 1, 6, 10]> {
  %none = prim.Constant {value} : !prim.none
  %false = prim.Constant {value = false} : i1
  %mode = prim.Constant {value = "nearest"} : !prim.str
  %s = prim.Constant {value = 2.000000e+00 : f64} : f64
  %0 = aten.__interpolate %x, %none, %s, %mode, %none, %none, %false : (!prim.tensor<dtype = f32, sizes = [1, 1, 3, 5]>, !prim.none, f64, !prim.str, !prim.none, !prim.none, i1) -> !prim.tensor<dtype = f32, sizes = [1, 1, 6, 10]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 1, 6, 10]>
}
