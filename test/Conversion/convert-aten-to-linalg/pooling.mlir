// RUN: tsir-opt %s --convert-aten-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// max_pool2d (kernel 3, stride 2, padding 1): the input padded with -inf,
// an init of -inf, linalg.pooling_nchw_max over a 3x3 window shape.
// CHECK-LABEL: func.func @max_pool2d
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<2x3x9x9xf32>
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[PAD:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[NEGINF]]
// CHECK: } : tensor<2x3x9x9xf32> to tensor<2x3x11x11xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3x5x5xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%[[E]] : tensor<2x3x5x5xf32>)
// CHECK: %[[WIN:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK: %[[POOL:.*]] = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PAD]], %[[WIN]] : tensor<2x3x11x11xf32>, tensor<3x3xf32>) outs(%[[INIT]] : tensor<2x3x5x5xf32>)
// CHECK: builtin.unrealized_conversion_cast %[[POOL]]
func.func @max_pool2d(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 9, 9]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5, 5]> {
  %false = prim.Constant {value = false} : i1
  %k = prim.Constant {value = [3, 3]} : !prim.list<i64>
  %s = prim.Constant {value = [2, 2]} : !prim.list<i64>
  %p = prim.Constant {value = [1, 1]} : !prim.list<i64>
  %d = prim.Constant {value = [1, 1]} : !prim.list<i64>
  %0 = aten.max_pool2d %x, %k, %s, %p, %d, %false : (!prim.tensor<dtype = f32, sizes = [2, 3, 9, 9]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1) -> !prim.tensor<dtype = f32, sizes = [2, 3, 5, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 5, 5]>
}

// -----

// An empty stride means the kernel; ceil_mode keeps a last partial window
// (8 + 1 -> 5 windows of 3 every 2), whose reach (9 + 2) needs one more
// -inf column after the padding; a dynamic batch is read with tensor.dim.
// CHECK-LABEL: func.func @max_pool2d_ceil
// CHECK: tensor.pad %{{.*}} low[0, 0, 1, 0] high[0, 0, 2, 0]
// CHECK: } : tensor<?x2x8x6xf64> to tensor<?x2x11x6xf64>
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 3]> : tensor<2xi64>} {{.*}} -> tensor<?x2x5x2xf64>
func.func @max_pool2d_ceil(%x: !prim.tensor<dtype = f64, sizes = [?, 2, 8, 6]>) -> !prim.tensor<dtype = f64, sizes = [?, 2, 5, 2]> {
  %true = prim.Constant {value = true} : i1
  %k = prim.Constant {value = [3, 3]} : !prim.list<i64>
  %s = prim.Constant {value = [2, 3]} : !prim.list<i64>
  %p = prim.Constant {value = [1, 0]} : !prim.list<i64>
  %d = prim.Constant {value = [1]} : !prim.list<i64>
  %0 = aten.max_pool2d %x, %k, %s, %p, %d, %true : (!prim.tensor<dtype = f64, sizes = [?, 2, 8, 6]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1) -> !prim.tensor<dtype = f64, sizes = [?, 2, 5, 2]>
  return %0 : !prim.tensor<dtype = f64, sizes = [?, 2, 5, 2]>
}

// -----

// With ceil_mode a window that would start in the right padding is dropped:
// 5 + 2 * 1 over kernel 2, stride 2 gives 3 windows, not 4.
// CHECK-LABEL: func.func @max_pool1d_ceil_drop
// CHECK: tensor.pad %{{.*}} low[0, 0, 1] high[0, 0, 0]
// CHECK: linalg.pooling_ncw_max {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins({{.*}} : tensor<1x1x6xf32>, tensor<2xf32>) outs({{.*}} : tensor<1x1x3xf32>)
func.func @max_pool1d_ceil_drop(%x: !prim.tensor<dtype = f32, sizes = [1, 1, 5]>) -> !prim.tensor<dtype = f32, sizes = [1, 1, 3]> {
  %true = prim.Constant {value = true} : i1
  %k = prim.Constant {value = [2]} : !prim.list<i64>
  %s = prim.Constant {value = [2]} : !prim.list<i64>
  %p = prim.Constant {value = [1]} : !prim.list<i64>
  %d = prim.Constant {value = [1]} : !prim.list<i64>
  %0 = aten.max_pool1d %x, %k, %s, %p, %d, %true : (!prim.tensor<dtype = f32, sizes = [1, 1, 5]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1) -> !prim.tensor<dtype = f32, sizes = [1, 1, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 1, 3]>
}

// -----

// Integers pool with the lowest integer as padding and init; an unbatched
// input is a batch of one.
// CHECK-LABEL: func.func @max_pool2d_unbatched_i64
// CHECK: %[[X:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] output_shape [1, 3, 4, 4] : tensor<3x4x4xi64> into tensor<1x3x4x4xi64>
// CHECK: %[[LOWEST:.*]] = arith.constant -9223372036854775808 : i64
// CHECK: linalg.fill ins(%[[LOWEST]] : i64)
// CHECK: %[[POOL:.*]] = linalg.pooling_nchw_max {{.*}} ins(%[[X]], %{{.*}} : tensor<1x3x4x4xi64>, tensor<2x2xi64>)
// CHECK: tensor.collapse_shape %[[POOL]] {{\[\[}}0, 1], [2], [3]] : tensor<1x3x2x2xi64> into tensor<3x2x2xi64>
func.func @max_pool2d_unbatched_i64(%x: !prim.tensor<dtype = si64, sizes = [3, 4, 4]>) -> !prim.tensor<dtype = si64, sizes = [3, 2, 2]> {
  %false = prim.Constant {value = false} : i1
  %k = prim.Constant {value = [2, 2]} : !prim.list<i64>
  %s = prim.Constant {value = []} : !prim.list<i64>
  %p = prim.Constant {value = [0, 0]} : !prim.list<i64>
  %d = prim.Constant {value = [1, 1]} : !prim.list<i64>
  %0 = aten.max_pool2d %x, %k, %s, %p, %d, %false : (!prim.tensor<dtype = si64, sizes = [3, 4, 4]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1) -> !prim.tensor<dtype = si64, sizes = [3, 2, 2]>
  return %0 : !prim.tensor<dtype = si64, sizes = [3, 2, 2]>
}

// -----

// avg_pool2d counting the padding: a zero-padded sum pooling divided by one
// constant, the kernel's 9. The last window (rows 5..7) needs no padding
// after the input.
// CHECK-LABEL: func.func @avg_pool2d(
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 0, 0]
// CHECK: tensor.yield %[[ZERO]]
// CHECK: %[[SUM:.*]] = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} {{.*}} -> tensor<1x2x4x4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x2x4x4xf32>)
// CHECK: %[[NINE:.*]] = arith.constant 9.000000e+00 : f32
// CHECK: arith.divf %{{.*}}, %[[NINE]]
func.func @avg_pool2d(%x: !prim.tensor<dtype = f32, sizes = [1, 2, 8, 8]>) -> !prim.tensor<dtype = f32, sizes = [1, 2, 4, 4]> {
  %none = prim.Constant {value} : !prim.none
  %false = prim.Constant {value = false} : i1
  %true = prim.Constant {value = true} : i1
  %k = prim.Constant {value = [3, 3]} : !prim.list<i64>
  %s = prim.Constant {value = [2, 2]} : !prim.list<i64>
  %p = prim.Constant {value = [1, 1]} : !prim.list<i64>
  %0 = aten.avg_pool2d %x, %k, %s, %p, %false, %true, %none : (!prim.tensor<dtype = f32, sizes = [1, 2, 8, 8]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1, i1, !prim.none) -> !prim.tensor<dtype = f32, sizes = [1, 2, 4, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 2, 4, 4]>
}

// -----

// Without count_include_pad the divisor is each window's count of real
// elements: 2, 3, 3, 3 along both dims here, one small constant per dim.
// CHECK-DAG: #[[ROWS:.*]] = affine_map<(d0, d1, d2, d3) -> (d2)>
// CHECK-DAG: #[[COLS:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @avg_pool2d_exclude_pad
// CHECK: %[[SUM:.*]] = linalg.pooling_nchw_sum
// CHECK: %[[DIVR:.*]] = arith.constant dense<[2.000000e+00, 3.000000e+00, 3.000000e+00, 3.000000e+00]> : tensor<4xf32>
// CHECK: %[[DIVC:.*]] = arith.constant dense<[2.000000e+00, 3.000000e+00, 3.000000e+00, 3.000000e+00]> : tensor<4xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[ROWS]], #[[COLS]], #{{.*}}], {{.*}} ins(%[[SUM]], %[[DIVR]], %[[DIVC]] : tensor<1x2x4x4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK: ^bb0(%[[S:.*]]: f32, %[[R:.*]]: f32, %[[C:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[D:.*]] = arith.mulf %[[R]], %[[C]]
// CHECK: arith.divf %[[S]], %[[D]]
func.func @avg_pool2d_exclude_pad(%x: !prim.tensor<dtype = f32, sizes = [1, 2, 8, 8]>) -> !prim.tensor<dtype = f32, sizes = [1, 2, 4, 4]> {
  %none = prim.Constant {value} : !prim.none
  %false = prim.Constant {value = false} : i1
  %k = prim.Constant {value = [3, 3]} : !prim.list<i64>
  %s = prim.Constant {value = [2, 2]} : !prim.list<i64>
  %p = prim.Constant {value = [1, 1]} : !prim.list<i64>
  %0 = aten.avg_pool2d %x, %k, %s, %p, %false, %false, %none : (!prim.tensor<dtype = f32, sizes = [1, 2, 8, 8]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1, i1, !prim.none) -> !prim.tensor<dtype = f32, sizes = [1, 2, 4, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 2, 4, 4]>
}

// -----

// divisor_override replaces every divisor.
// CHECK-LABEL: func.func @avg_pool2d_divisor_override
// CHECK: linalg.pooling_nchw_sum
// CHECK: arith.constant 3.000000e+00 : f32
// CHECK: arith.divf
func.func @avg_pool2d_divisor_override(%x: !prim.tensor<dtype = f32, sizes = [1, 2, 5, 4]>) -> !prim.tensor<dtype = f32, sizes = [1, 2, 6, 5]> {
  %three = prim.Constant {value = 3 : i64} : i64
  %false = prim.Constant {value = false} : i1
  %true = prim.Constant {value = true} : i1
  %k = prim.Constant {value = [2, 2]} : !prim.list<i64>
  %s = prim.Constant {value = [1, 1]} : !prim.list<i64>
  %p = prim.Constant {value = [1, 1]} : !prim.list<i64>
  %0 = aten.avg_pool2d %x, %k, %s, %p, %false, %true, %three : (!prim.tensor<dtype = f32, sizes = [1, 2, 5, 4]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1, i1, i64) -> !prim.tensor<dtype = f32, sizes = [1, 2, 6, 5]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 2, 6, 5]>
}

// -----

// CHECK-LABEL: func.func @avg_pool1d
// CHECK: linalg.pooling_ncw_sum {dilations = dense<1> : tensor<1xi64>, strides = dense<3> : tensor<1xi64>} {{.*}} -> tensor<2x3x3xf32>
func.func @avg_pool1d(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 10]>) -> !prim.tensor<dtype = f32, sizes = [2, 3, 3]> {
  %false = prim.Constant {value = false} : i1
  %true = prim.Constant {value = true} : i1
  %k = prim.Constant {value = [3]} : !prim.list<i64>
  %s = prim.Constant {value = []} : !prim.list<i64>
  %p = prim.Constant {value = [0]} : !prim.list<i64>
  %0 = aten.avg_pool1d %x, %k, %s, %p, %false, %true : (!prim.tensor<dtype = f32, sizes = [2, 3, 10]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1, i1) -> !prim.tensor<dtype = f32, sizes = [2, 3, 3]>
  return %0 : !prim.tensor<dtype = f32, sizes = [2, 3, 3]>
}

// -----

// ResNet's global average: a 7x7 sum pooling divided by 49.
// CHECK-LABEL: func.func @adaptive_avg_pool2d_global
// CHECK-NOT: tensor.pad
// CHECK: linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<7> : tensor<2xi64>} ins({{.*}} : tensor<1x512x7x7xf32>, tensor<7x7xf32>) outs({{.*}} : tensor<1x512x1x1xf32>)
// CHECK: arith.constant 4.900000e+01 : f32
// CHECK: arith.divf
func.func @adaptive_avg_pool2d_global(%x: !prim.tensor<dtype = f32, sizes = [1, 512, 7, 7]>) -> !prim.tensor<dtype = f32, sizes = [1, 512, 1, 1]> {
  %size = prim.Constant {value = [1, 1]} : !prim.list<i64>
  %0 = aten.adaptive_avg_pool2d %x, %size : (!prim.tensor<dtype = f32, sizes = [1, 512, 7, 7]>, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [1, 512, 1, 1]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 512, 1, 1]>
}

// -----

// Uneven windows (7 rows into 3): a generic over the output whose body loops
// over [y * 7 / 3, (y * 7 + 9) / 3) x [x * 10 / 4, (x * 10 + 13) / 4) and
// divides by the window's size.
// CHECK-LABEL: func.func @adaptive_avg_pool2d_uneven
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %arg0 {{.*}} to tensor<1x3x7x10xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{.*}} : tensor<1x3x3x4xf32>)
// CHECK: %[[Y:.*]] = linalg.index 2 : index
// CHECK: %[[Y7:.*]] = arith.muli %[[Y]], %c7
// CHECK: %[[Y0:.*]] = arith.divui %[[Y7]], %c3
// CHECK: %[[Y9:.*]] = arith.addi %[[Y7]], %c9
// CHECK: %[[Y1:.*]] = arith.divui %[[Y9]], %c3
// CHECK: scf.for %[[H:.*]] = %[[Y0]] to %[[Y1]]
// CHECK: scf.for %[[W:.*]] = %{{.*}} to %{{.*}}
// CHECK: %[[E:.*]] = tensor.extract %[[X]][%{{.*}}, %{{.*}}, %[[H]], %[[W]]]
// CHECK: arith.addf %{{.*}}, %[[E]]
// CHECK: arith.sitofp
// CHECK: arith.divf
func.func @adaptive_avg_pool2d_uneven(%x: !prim.tensor<dtype = f32, sizes = [1, 3, 7, 10]>) -> !prim.tensor<dtype = f32, sizes = [1, 3, 3, 4]> {
  %size = prim.Constant {value = [3, 4]} : !prim.list<i64>
  %0 = aten.adaptive_avg_pool2d %x, %size : (!prim.tensor<dtype = f32, sizes = [1, 3, 7, 10]>, !prim.list<i64>) -> !prim.tensor<dtype = f32, sizes = [1, 3, 3, 4]>
  return %0 : !prim.tensor<dtype = f32, sizes = [1, 3, 3, 4]>
}

// -----

// adaptive_max_pool2d yields the maximum and its flat index h * W + w;
// a NaN wins, the first maximum is kept.
// CHECK-LABEL: func.func @adaptive_max_pool2d
// CHECK: linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<2x3x3x4xf32>, tensor<2x3x3x4xi64>)
// CHECK: %[[R:.*]]:2 = scf.for
// CHECK: scf.for
// CHECK: %[[E:.*]] = tensor.extract
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[E]]
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[E]], %[[E]]
// CHECK: %[[TAKE:.*]] = arith.ori %[[GT]], %[[NAN]]
// CHECK: arith.muli %{{.*}}, %c10
// CHECK: arith.index_cast %{{.*}} : index to i64
// CHECK: arith.select %[[TAKE]]
// CHECK: arith.select %[[TAKE]]
// CHECK: linalg.yield %[[R]]#0, %[[R]]#1 : f32, i64
func.func @adaptive_max_pool2d(%x: !prim.tensor<dtype = f32, sizes = [2, 3, 7, 10]>) -> (!prim.tensor<dtype = f32, sizes = [2, 3, 3, 4]>, !prim.tensor<dtype = si64, sizes = [2, 3, 3, 4]>) {
  %size = prim.Constant {value = [3, 4]} : !prim.list<i64>
  %0:2 = aten.adaptive_max_pool2d %x, %size : (!prim.tensor<dtype = f32, sizes = [2, 3, 7, 10]>, !prim.list<i64>) -> (!prim.tensor<dtype = f32, sizes = [2, 3, 3, 4]>, !prim.tensor<dtype = si64, sizes = [2, 3, 3, 4]>)
  return %0#0, %0#1 : !prim.tensor<dtype = f32, sizes = [2, 3, 3, 4]>, !prim.tensor<dtype = si64, sizes = [2, 3, 3, 4]>
}

// -----

// A kernel size only known at run time is refused.
func.func @max_pool2d_runtime_kernel(%x: !prim.tensor<dtype = f32, sizes = [1, 1, 4, 4]>, %n: i64) -> !prim.tensor<dtype = f32> {
  %false = prim.Constant {value = false} : i1
  %k = prim.ListConstruct %n, %n : (i64, i64) -> !prim.list<i64>
  %s = prim.Constant {value = []} : !prim.list<i64>
  %p = prim.Constant {value = [0, 0]} : !prim.list<i64>
  %d = prim.Constant {value = [1, 1]} : !prim.list<i64>
  // expected-error @+1 {{failed to legalize operation 'aten.max_pool2d'}}
  %0 = aten.max_pool2d %x, %k, %s, %p, %d, %false : (!prim.tensor<dtype = f32, sizes = [1, 1, 4, 4]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1) -> !prim.tensor<dtype = f32>
  return %0 : !prim.tensor<dtype = f32>
}

// -----

// torch refuses padding over half the kernel; so does the lowering.
func.func @max_pool2d_too_much_padding(%x: !prim.tensor<dtype = f32, sizes = [1, 1, 4, 4]>) -> !prim.tensor<dtype = f32> {
  %false = prim.Constant {value = false} : i1
  %k = prim.Constant {value = [2, 2]} : !prim.list<i64>
  %s = prim.Constant {value = []} : !prim.list<i64>
  %p = prim.Constant {value = [2, 2]} : !prim.list<i64>
  %d = prim.Constant {value = [1, 1]} : !prim.list<i64>
  // expected-error @+1 {{failed to legalize operation 'aten.max_pool2d'}}
  %0 = aten.max_pool2d %x, %k, %s, %p, %d, %false : (!prim.tensor<dtype = f32, sizes = [1, 1, 4, 4]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1) -> !prim.tensor<dtype = f32>
  return %0 : !prim.tensor<dtype = f32>
}

// -----

// Averages of integer tensors are not lowered.
func.func @avg_pool1d_i64(%x: !prim.tensor<dtype = si64, sizes = [1, 1, 4]>) -> !prim.tensor<dtype = si64, sizes = [1, 1, 2]> {
  %false = prim.Constant {value = false} : i1
  %k = prim.Constant {value = [2]} : !prim.list<i64>
  %s = prim.Constant {value = []} : !prim.list<i64>
  %p = prim.Constant {value = [0]} : !prim.list<i64>
  // expected-error @+1 {{failed to legalize operation 'aten.avg_pool1d'}}
  %0 = aten.avg_pool1d %x, %k, %s, %p, %false, %false : (!prim.tensor<dtype = si64, sizes = [1, 1, 4]>, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1, i1) -> !prim.tensor<dtype = si64, sizes = [1, 1, 2]>
  return %0 : !prim.tensor<dtype = si64, sizes = [1, 1, 2]>
}
