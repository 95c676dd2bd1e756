// The GPU pipeline on small linalg-on-tensors graphs, down to the LLVM
// dialect with the kernels' PTX embedded (format=isa needs no ptxas). HOST
// checks the host side: the CPU calling convention, device buffers, copies
// only at the inputs and results, launches; PTX checks the kernels.
// RUN: tsir-opt %s --tsir-lower-to-nvvm=format=isa -split-input-file | FileCheck %s --check-prefix=HOST
// RUN: tsir-opt %s --tsir-lower-to-nvvm=format=isa -split-input-file | %extract_ptx | FileCheck %s --check-prefix=PTX

// A pointwise chain (add, mul, tanh) is one kernel of 256-thread blocks.
// HOST-LABEL: llvm.func @graph(
// HOST: %[[S:.*]] = llvm.call @mgpuStreamCreate()
// HOST: %[[A:.*]] = llvm.call @mgpuMemAlloc(
// HOST: llvm.call @mgpuMemcpy(%[[A]], %arg1,
// HOST: %[[B:.*]] = llvm.call @mgpuMemAlloc(
// HOST: llvm.call @mgpuMemcpy(%[[B]], %arg8,
// HOST: %[[OUT:.*]] = llvm.call @mgpuMemAlloc(
// HOST: gpu.launch_func <%[[S]] : !llvm.ptr> @graph_kernel::@graph_kernel
// HOST-NOT: gpu.launch_func
// HOST: llvm.call @mgpuStreamSynchronize(%[[S]])
// HOST: %[[HOST:.*]] = llvm.call @malloc(
// HOST: llvm.call @mgpuMemcpy(%[[HOST]], %[[OUT]],
// HOST: llvm.call @mgpuMemFree(%[[OUT]],
// HOST: llvm.call @mgpuMemFree(%[[A]],
// HOST: llvm.call @mgpuMemFree(%[[B]],
// HOST: llvm.call @mgpuStreamSynchronize
// HOST: llvm.return
// HOST: llvm.func @_mlir_ciface_graph({{.*}}) attributes {llvm.emit_c_interface
// HOST: gpu.binary @graph_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// HOST-SAME: assembly =
// PTX-LABEL: // ptx.py module 0
// PTX: .version 8.0
// PTX: .target sm_90
// PTX: .entry graph_kernel(
// PTX: .maxntid 256, 1, 1
// PTX: mov.u32 {{.*}}, %ctaid.x;
// PTX: mov.u32 {{.*}}, %tid.x;
// PTX: setp.gt.u32 {{.*}}, 1199;
// PTX: ld.global.b32
// PTX: ld.global.b32
// PTX: add.rn.f32
// PTX: mul.rn.f32
// PTX: st.global.b32
// PTX-NOT: .entry
// Pointwise chain.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @graph(%a: tensor<4x300xf32>, %b: tensor<4x300xf32>) -> tensor<4x300xf32> {
  %e = tensor.empty() : tensor<4x300xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x300xf32>, tensor<4x300xf32>) outs(%e : tensor<4x300xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x300xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x300xf32>) outs(%e : tensor<4x300xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %x : f32
    %t = math.tanh %m : f32
    linalg.yield %t : f32
  } -> tensor<4x300xf32>
  return %1 : tensor<4x300xf32>
}

// -----

// A matmul: a fill kernel, then one thread per output element, looping
// over k.
// HOST-LABEL: llvm.func @graph(
// HOST-COUNT-2: gpu.launch_func
// HOST-NOT: gpu.launch_func
// HOST: llvm.return
// PTX-LABEL: // ptx.py module 1
// PTX: .entry graph_kernel(
// PTX-LABEL: // ptx.py module 2
// PTX: .entry graph_kernel{{.*}}(
// PTX: ld.global.b32
// PTX: ld.global.b32
// PTX: mul.rn.f32
// PTX: add.rn.f32
// PTX: bra
func.func @graph(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %m : tensor<8x32xf32>
}

// -----

// Softmax over rows: the row max and sum are one thread per row, the
// pointwise parts one thread per element.
// HOST-LABEL: llvm.func @graph(
// HOST-COUNT-6: gpu.launch_func
// HOST-NOT: gpu.launch_func
// HOST: llvm.return
// PTX-LABEL: // ptx.py module 4
// PTX: max.NaN.f32
// PTX-LABEL: // ptx.py module 5
// PTX: {{ex2.approx|__nv_expf}}
// PTX-LABEL: // ptx.py module 7
// PTX: add.rn.f32
// PTX-LABEL: // ptx.py module 8
// PTX: div.rn.f32
// Softmax over rows.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @graph(%a: tensor<8x10xf32>) -> tensor<8x10xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<8x10xf32>) outs(%mi : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<8x10xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %max : tensor<8x10xf32>, tensor<8xf32>) outs(%e : tensor<8x10xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<8x10xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<8x10xf32>) outs(%si : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%ex, %sum : tensor<8x10xf32>, tensor<8xf32>) outs(%e : tensor<8x10xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %d = arith.divf %x, %s : f32
    linalg.yield %d : f32
  } -> tensor<8x10xf32>
  return %sm : tensor<8x10xf32>
}

// -----

// The sum of a whole tensor: one block of 256 threads, each summing a
// strided share, combined by warp shuffles and shared memory.
// HOST-LABEL: llvm.func @graph(
// HOST: gpu.launch_func
// HOST: gpu.launch_func {{.*}} threads in (%{{.*}}, %{{.*}}, %{{.*}})
// PTX-LABEL: // ptx.py module 10
// PTX: .maxntid 256, 1, 1
// PTX: .shared
// PTX: shfl.sync.bfly.b32
// PTX: bar.sync
// Sum of a whole tensor.
func.func @graph(%a: tensor<64x64xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%a : tensor<64x64xf32>) outs(%f : tensor<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// A host loop launches its kernel each iteration; the loop-carried
// buffer stays on the device.
// HOST-LABEL: llvm.func @graph(
// HOST: llvm.call @mgpuMemAlloc(
// HOST: llvm.call @mgpuMemcpy(
// HOST: ^bb{{[0-9]+}}(
// HOST: llvm.icmp "slt"
// HOST: llvm.cond_br
// HOST: gpu.launch_func
// HOST: llvm.br ^bb
// HOST: llvm.call @malloc(
// HOST: llvm.call @mgpuMemcpy(
// HOST: llvm.return
// A loop on the host whose body is a kernel: z = z * z, n times.
#id = affine_map<(d0) -> (d0)>
func.func @graph(%z: tensor<128xf32>, %n: i64) -> tensor<128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ub = arith.index_cast %n : i64 to index
  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %z) -> (tensor<128xf32>) {
    %e = tensor.empty() : tensor<128xf32>
    %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%acc : tensor<128xf32>) outs(%e : tensor<128xf32>) {
    ^bb0(%x: f32, %o: f32):
      %m = arith.mulf %x, %x : f32
      linalg.yield %m : f32
    } -> tensor<128xf32>
    scf.yield %sq : tensor<128xf32>
  }
  return %r : tensor<128xf32>
}

// -----

// A tensor element read by the host (aten::item, an `if` on a tensor) is
// staged by a one-thread kernel and copied to the host stack.
// HOST-LABEL: llvm.func @graph(
// HOST: %[[STAGE:.*]] = llvm.alloca {{.*}} x i1
// HOST: gpu.launch_func
// HOST: llvm.call @mgpuMemcpy(%[[STAGE]],
// HOST: llvm.call @mgpuStreamSynchronize
// HOST: %[[COND:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i1
// HOST: llvm.cond_br %[[COND]]
// aten::item: a host scalar read from a tensor decides a branch.
#id = affine_map<(d0) -> (d0)>
func.func @graph(%a: tensor<16xf32>, %flag: tensor<i1>) -> (tensor<16xf32>, f32) {
  %c3 = arith.constant 3 : index
  %cond = tensor.extract %flag[] : tensor<i1>
  %x = tensor.extract %a[%c3] : tensor<16xf32>
  %r = scf.if %cond -> (tensor<16xf32>) {
    %e = tensor.empty() : tensor<16xf32>
    %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) {
    ^bb0(%v: f32, %o: f32):
      %m = arith.negf %v : f32
      linalg.yield %m : f32
    } -> tensor<16xf32>
    scf.yield %n : tensor<16xf32>
  } else {
    scf.yield %a : tensor<16xf32>
  }
  return %r, %x : tensor<16xf32>, f32
}

// -----

// Wrong options are errors that name the option.
// RUN: not tsir-opt %s --tsir-lower-to-nvvm=format=wasm -split-input-file 2>&1 | FileCheck %s --check-prefix=BADFORMAT
// BADFORMAT: error: tsir-lower-to-nvvm: format must be fatbin, bin or isa, not 'wasm'
// RUN: not tsir-opt %s --tsir-lower-to-nvvm=gpu-arch=gfx90a -split-input-file 2>&1 | FileCheck %s --check-prefix=BADARCH
// BADARCH: error: tsir-lower-to-nvvm: gpu-arch must name an NVIDIA chip (sm_90, ...), not 'gfx90a'
func.func @graph(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
