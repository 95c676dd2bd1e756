// The CPU pipeline runs large ops on OpenMP threads: the forall of chunks
// that tsir-parallelize-loops makes becomes omp.parallel + omp.wsloop, one
// region per op, none nested, each in a function of its own
// (tsir-outline-loop-nests); small ops stay plain loops. In LLVM IR the
// region is an outlined function forked by __kmpc_fork_call, its chunks
// handed out by the static worksharing schedule.
// RUN: tsir-opt %s --tsir-lower-to-llvm -split-input-file | FileCheck %s
// RUN: tsir-opt %s --tsir-lower-to-llvm="parallel=false" -split-input-file | FileCheck %s --check-prefix=SERIAL
// RUN: tsir-opt %s --tsir-lower-to-llvm -split-input-file | mlir-translate --mlir-to-llvmir -split-input-file | FileCheck %s --check-prefix=IR

// A 1M-element pointwise chain (one loop nest after fusion) in 64 chunks.
// CHECK-LABEL: llvm.func @graph(
// CHECK: llvm.call @[[REGION:tsir_loop_nest[_0-9]*]](
// CHECK-NOT: omp.parallel
// CHECK: llvm.return
// CHECK: llvm.func @[[REGION]](
// CHECK: omp.parallel {
// CHECK-NOT: omp.parallel
// CHECK: omp.wsloop {
// CHECK: omp.loop_nest (%{{.*}}) : i64 = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK: llvm.fadd
// CHECK: omp.yield
// CHECK: omp.terminator
// CHECK-NOT: omp.parallel
// CHECK: llvm.return
// SERIAL-LABEL: llvm.func @graph(
// SERIAL-NOT: omp.
// SERIAL: llvm.return
// IR-LABEL: define { ptr, ptr, i64, [2 x i64], [2 x i64] } @graph(
// IR: call void @[[REGION:tsir_loop_nest[_0-9]*]](
// IR: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(
// IR: define internal void @[[REGION]]..omp_par(
// IR: call void @__kmpc_for_static_init_8u(
// IR: call void @__kmpc_for_static_fini(
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @graph(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %e = tensor.empty() : tensor<1024x1024xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%e : tensor<1024x1024xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<1024x1024xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<1024x1024xf32>) outs(%e : tensor<1024x1024xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<1024x1024xf32>
  return %1 : tensor<1024x1024xf32>
}

// -----

// A small op has no OpenMP region and calls nothing of the OpenMP runtime.
// CHECK-LABEL: llvm.func @graph(
// CHECK-NOT: omp.
// CHECK: llvm.return
// IR-LABEL: define { ptr, ptr, i64, [1 x i64], [1 x i64] } @graph(
// IR-NOT: __kmpc
// IR: ret
#id1 = affine_map<(d0) -> (d0)>
func.func @graph(%a: tensor<1000xf32>) -> tensor<1000xf32> {
  %e = tensor.empty() : tensor<1000xf32>
  %0 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%a : tensor<1000xf32>) outs(%e : tensor<1000xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<1000xf32>
  return %0 : tensor<1000xf32>
}

// -----

// A forall that another pass made (tiles of a contraction) becomes the
// OpenMP region, and the large op inside it is not cut again: one
// omp.parallel, the inner loops sequential in their thread.
// CHECK-LABEL: llvm.func @graph(
// CHECK: omp.parallel {
// CHECK: omp.loop_nest (%{{.*}}) : i64 = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NOT: omp.parallel
// CHECK-NOT: omp.wsloop
// CHECK: omp.yield
// CHECK-NOT: omp.parallel
// CHECK: llvm.return
func.func @graph(%a: tensor<4x262144xf32>) -> tensor<4x262144xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %a) -> (tensor<4x262144xf32>) {
    %row = tensor.extract_slice %o[%i, 0] [1, 262144] [1, 1] : tensor<4x262144xf32> to tensor<262144xf32>
    %c = arith.constant 2.0 : f32
    %f = linalg.fill ins(%c : f32) outs(%row : tensor<262144xf32>) -> tensor<262144xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%i, 0] [1, 262144] [1, 1] : tensor<262144xf32> into tensor<4x262144xf32>
    }
  }
  return %r : tensor<4x262144xf32>
}
