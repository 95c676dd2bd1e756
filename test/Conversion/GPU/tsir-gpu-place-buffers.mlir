// RUN: tsir-opt %s --tsir-gpu-place-buffers -split-input-file -verify-diagnostics | FileCheck %s

// Inputs are copied to the device once at entry; the temporary lives on
// the device; the result is copied into a fresh host buffer; every device
// buffer is freed before the return.
// CHECK-LABEL: func.func @pointwise
// CHECK-SAME: (%[[A:.*]]: memref<4x?xf32>)
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[N:.*]] = memref.dim %[[A]], %[[C1]]
// CHECK: %[[DA:.*]] = gpu.alloc (%[[N]]) : memref<4x?xf32>
// CHECK: gpu.memcpy %[[DA]], %[[A]]
// CHECK: %[[OUT:.*]] = gpu.alloc (%{{.*}}) : memref<4x?xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[DA]] : memref<4x?xf32>) outs(%[[OUT]] : memref<4x?xf32>)
// CHECK: %[[HOST:.*]] = memref.alloc(%{{.*}}) : memref<4x?xf32>
// CHECK: gpu.memcpy %[[HOST]], %[[OUT]]
// CHECK: gpu.dealloc %[[OUT]]
// CHECK: gpu.dealloc %[[DA]]
// CHECK: return %[[HOST]]
// CHECK-NOT: memref.dealloc
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @pointwise(%a: memref<4x?xf32>) -> memref<4x?xf32> {
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c1 : memref<4x?xf32>
  %out = memref.alloc(%n) : memref<4x?xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x?xf32>) outs(%out : memref<4x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  }
  return %out : memref<4x?xf32>
}

// -----

// A temporary is allocated and freed on the device; a copy between device
// buffers becomes a linalg.copy (a kernel later).
// CHECK-LABEL: func.func @temporary
// CHECK: gpu.memcpy
// CHECK: %[[T:.*]] = gpu.alloc () : memref<8xf32>
// CHECK: linalg.copy ins(%{{.*}} : memref<8xf32>) outs(%[[T]] : memref<8xf32>)
// CHECK: gpu.dealloc %[[T]]
// CHECK-NOT: memref.copy
func.func @temporary(%a: memref<8xf32>) -> memref<8xf32> {
  %t = memref.alloc() : memref<8xf32>
  memref.copy %a, %t : memref<8xf32> to memref<8xf32>
  %r = memref.alloc() : memref<8xf32>
  memref.copy %t, %r : memref<8xf32> to memref<8xf32>
  memref.dealloc %t : memref<8xf32>
  return %r : memref<8xf32>
}

// -----

// Host code that reads a tensor element (aten::item, an `if` on a tensor)
// gets it through a one-thread kernel and a one-element copy; a host store
// becomes a one-thread kernel.
// CHECK-LABEL: func.func @host_access
// CHECK-SAME: (%[[A:.*]]: memref<3xi1>, %[[V:.*]]: i1)
// CHECK: %[[DA:.*]] = gpu.alloc () : memref<3xi1>
// CHECK: gpu.memcpy %[[DA]], %[[A]]
// CHECK: %[[STAGE:.*]] = memref.alloca() : memref<1xi1>
// CHECK: %[[ELT:.*]] = gpu.alloc () : memref<1xi1>
// CHECK: gpu.launch
// CHECK: %[[X:.*]] = memref.load %[[DA]][%{{.*}}] : memref<3xi1>
// CHECK: memref.store %[[X]], %[[ELT]][%{{.*}}] : memref<1xi1>
// CHECK: gpu.terminator
// CHECK: gpu.memcpy %[[STAGE]], %[[ELT]]
// CHECK: gpu.dealloc %[[ELT]]
// CHECK: %[[COND:.*]] = memref.load %[[STAGE]]
// CHECK: scf.if %[[COND]]
// CHECK: gpu.launch
// CHECK: memref.store %[[V]], %[[DA]]
// CHECK: gpu.terminator
func.func @host_access(%a: memref<3xi1>, %v: i1) -> i1 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %x = memref.load %a[%c2] : memref<3xi1>
  scf.if %x {
    memref.store %v, %a[%c0] : memref<3xi1>
  }
  return %x : i1
}

// -----

// A whole-tensor sum is one block of threads that each fold a strided
// share and combine with gpu.all_reduce; thread 0 adds into the output.
// CHECK-LABEL: func.func @full_sum
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %{{.*}}, {{.*}} = %{{.*}}, {{.*}} = %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in ({{.*}} = %[[C256]],
// CHECK: %[[PART:.*]] = scf.for %{{.*}} = %[[TX]] to %{{.*}} step %[[C256]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32)
// CHECK: arith.mulf
// CHECK: arith.addf %[[ACC]]
// CHECK: %[[SUM:.*]] = gpu.all_reduce add %[[PART]] uniform
// CHECK: scf.if
// CHECK: %[[OLD:.*]] = memref.load
// CHECK: arith.addf %[[OLD]], %[[SUM]]
// CHECK-NOT: linalg.generic
func.func @full_sum(%a: memref<16x32xf32>) -> memref<f32> {
  %out = memref.alloc() : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                  iterator_types = ["reduction", "reduction"]}
      ins(%a : memref<16x32xf32>) outs(%out : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %sq = arith.mulf %x, %x : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  }
  return %out : memref<f32>
}

// -----

// Few long rows (softmax's and layer_norm's statistics): a block per row,
// 256 threads striding over its 1024 elements. Short rows, or many rows,
// stay a thread per row (a linalg op, mapped to loops later).
// CHECK-LABEL: func.func @row_max
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[ROWS:.*]] = arith.muli %{{.*}}, %[[C8]] : index
// CHECK: %[[GRID:.*]] = arith.maxui %[[ROWS]], %{{.*}} : index
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in ({{.*}} = %[[GRID]], {{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in ({{.*}} = %[[C256]],
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[BX]], %[[ROWS]]
// CHECK: scf.if %[[IN]]
// CHECK: %[[ROW:.*]] = arith.remui %[[BX]], %[[C8]]
// CHECK: scf.for %{{.*}} = %[[TX]] to %{{.*}} step %[[C256]] iter_args(%{{.*}} = %{{.*}}) -> (f32)
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x1024xf32>
// CHECK: arith.maximumf
// CHECK: %[[MAX:.*]] = gpu.all_reduce maximumf
// CHECK: %[[OUT:.*]] = affine.apply {{.*}}(%[[ROW]], %{{.*}})
// CHECK: memref.load %{{.*}}[%[[OUT]]] : memref<8xf32>
// CHECK: arith.maximumf %[[MAX]], %{{.*}}
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[OUT]]] : memref<8xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : memref<8x10xf32>)
// CHECK-NOT: gpu.all_reduce
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_max(%a: memref<8x1024xf32>, %b: memref<8x10xf32>) -> (memref<8xf32>, memref<8xf32>) {
  %m = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<8x1024xf32>) outs(%m : memref<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  }
  %n = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%b : memref<8x10xf32>) outs(%n : memref<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  }
  return %m, %n : memref<8xf32>, memref<8xf32>
}

// -----

// An op without parallel loops that is not a plain reduction (here a 0-d
// fill) runs in a one-thread kernel.
// CHECK-LABEL: func.func @scalar_op
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[C1]], {{.*}} = %[[C1]], {{.*}} = %[[C1]]) threads({{.*}}) in ({{.*}} = %[[C1]], {{.*}} = %[[C1]], {{.*}} = %[[C1]])
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: gpu.terminator
func.func @scalar_op(%v: f32) -> memref<f32> {
  %out = memref.alloc() : memref<f32>
  linalg.fill ins(%v : f32) outs(%out : memref<f32>)
  return %out : memref<f32>
}

// -----

// Constants are host globals: each is copied to the device once.
// CHECK-LABEL: func.func @global
// CHECK: %[[G:.*]] = memref.get_global @weights
// CHECK: %[[DG:.*]] = gpu.alloc () : memref<2xf32>
// CHECK: gpu.memcpy %[[DG]], %[[G]]
// CHECK-NOT: memref.get_global
// CHECK: linalg.copy ins(%[[DG]]
// CHECK: linalg.copy ins(%[[DG]]
// CHECK: gpu.dealloc %[[DG]]
memref.global "private" constant @weights : memref<2xf32> = dense<[1.0, 2.0]>
func.func @global(%c: i1) -> memref<2xf32> {
  %out = memref.alloc() : memref<2xf32>
  scf.if %c {
    %g = memref.get_global @weights : memref<2xf32>
    memref.copy %g, %out : memref<2xf32> to memref<2xf32>
  } else {
    %g = memref.get_global @weights : memref<2xf32>
    memref.copy %g, %out : memref<2xf32> to memref<2xf32>
  }
  return %out : memref<2xf32>
}

// -----

// The deallocation helper's pointer and flag buffers stay on the host; the
// tensor buffers it frees are device buffers.
// CHECK-LABEL: func.func @dealloc_helper_buffers
// CHECK: %[[PTRS:.*]] = memref.alloc() : memref<2xindex>
// CHECK: memref.store %{{.*}}, %[[PTRS]]
// CHECK: call @helper
// CHECK: memref.dealloc %[[PTRS]]
// CHECK: gpu.dealloc %{{.*}} : memref<4xf32>
func.func private @helper(memref<?xindex>)
func.func @dealloc_helper_buffers(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %ptrs = memref.alloc() : memref<2xindex>
  %p = memref.extract_aligned_pointer_as_index %a : memref<4xf32> -> index
  memref.store %p, %ptrs[%c0] : memref<2xindex>
  %cast = memref.cast %ptrs : memref<2xindex> to memref<?xindex>
  call @helper(%cast) : (memref<?xindex>) -> ()
  memref.dealloc %ptrs : memref<2xindex>
  return
}

// -----

func.func @stack_buffer() -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{a stack-allocated tensor buffer cannot live on the GPU}}
  %a = memref.alloca() : memref<4xf32>
  %x = memref.load %a[%c0] : memref<4xf32>
  return %x : f32
}
