// The pipeline's output translates to LLVM IR: the kernels become a
// global (a fatbin by default; PTX with format=isa, JIT-compiled by the
// driver at load), loaded by a global constructor, and gpu.launch_func
// becomes MLIR's standard mgpu* calls, which the tsir runtime provides.
// RUN: tsir-opt %s --tsir-lower-to-nvvm=format=isa | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefixes=CHECK,ISA

// CHECK: @graph_kernel_binary = internal constant
// CHECK: @llvm.global_ctors = {{.*}} @graph_kernel_load
// CHECK-LABEL: define { ptr, ptr, i64, [1 x i64], [1 x i64] } @graph(
// CHECK: %[[S:.*]] = call ptr @mgpuStreamCreate()
// CHECK: %[[D:.*]] = call ptr @mgpuMemAlloc(i64 4096, ptr %[[S]], i8 0)
// CHECK: call void @mgpuMemcpy(ptr %[[D]], ptr %1, i64 4096, ptr %[[S]])
// CHECK: %[[F:.*]] = call ptr @mgpuModuleGetFunction(
// CHECK: call void @mgpuLaunchKernel(ptr %[[F]], i64 4, i64 1, i64 1, i64 256, i64 1, i64 1, i32 0, ptr %[[S]],
// CHECK: call void @mgpuStreamSynchronize(ptr %[[S]])
// CHECK: %[[H:.*]] = call ptr @malloc(i64 4096)
// CHECK: call void @mgpuMemcpy(ptr %[[H]],
// CHECK: call void @mgpuMemFree(
// CHECK: call void @mgpuStreamSynchronize(
// CHECK: ret
// CHECK-LABEL: define void @_mlir_ciface_graph(
// CHECK-LABEL: define internal void @graph_kernel_load()
// ISA: call ptr @mgpuModuleLoadJIT(ptr @graph_kernel_binary,
#id = affine_map<(d0) -> (d0)>
func.func @graph(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<1024xf32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.erf %x : f32
    linalg.yield %t : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}
