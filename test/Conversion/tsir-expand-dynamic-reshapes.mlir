// An expand_shape that splits one dimension into several dynamic ones
// becomes the reinterpret_cast it stands for (expand-strided-metadata
// crashes on it); one dynamic size per group is left to
// expand-strided-metadata. The second RUN line is the crash this fixes: a
// batched matrix product of Double(0, 0, 0) and Double(0) (executor-fuzzer).
// RUN: tsir-opt %s --tsir-expand-dynamic-reshapes -split-input-file | FileCheck %s
// RUN: tsir-opt %s --tsir-expand-dynamic-reshapes --expand-strided-metadata -split-input-file | FileCheck %s --check-prefix=LOWERED

// CHECK-LABEL: func.func @two_dynamic
// CHECK-SAME: (%[[SRC:.*]]: memref<?xf64>, %[[A:.*]]: index, %[[B:.*]]: index)
// CHECK: %[[BASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[SRC]]
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%[[A]], %[[B]]], strides: [%[[B]], 1]
// CHECK-NOT: memref.expand_shape
// LOWERED-LABEL: func.func @two_dynamic
// LOWERED-NOT: memref.expand_shape
// LOWERED: memref.reinterpret_cast
func.func @two_dynamic(%src: memref<?xf64>, %a: index, %b: index) -> memref<?x?xf64> {
  %0 = memref.expand_shape %src [[0, 1]] output_shape [%a, %b] : memref<?xf64> into memref<?x?xf64>
  return %0 : memref<?x?xf64>
}

// -----

// A strided source with an offset, and a static size among dynamic ones:
// each stride is the source stride times the sizes after it in its group.
// CHECK-LABEL: func.func @strided_source
// CHECK-SAME: (%[[SRC:.*]]: memref<?x5xf32, strided<[?, 2], offset: ?>>, %[[A:.*]]: index, %[[B:.*]]: index)
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[SRC]]
// CHECK: %[[S1:.*]] = arith.muli %[[STRIDES]]#0, %{{.*}} : index
// CHECK: %[[S0:.*]] = arith.muli %[[S1]], %[[B]] : index
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [%[[A]], %[[B]], 4, 5], strides: [%[[S0]], %[[S1]], %[[STRIDES]]#0, 2]
func.func @strided_source(%src: memref<?x5xf32, strided<[?, 2], offset: ?>>, %a: index, %b: index) -> memref<?x?x4x5xf32, strided<[?, ?, ?, 2], offset: ?>> {
  %0 = memref.expand_shape %src [[0, 1, 2], [3]] output_shape [%a, %b, 4, 5] : memref<?x5xf32, strided<[?, 2], offset: ?>> into memref<?x?x4x5xf32, strided<[?, ?, ?, 2], offset: ?>>
  return %0 : memref<?x?x4x5xf32, strided<[?, ?, ?, 2], offset: ?>>
}

// -----

// One dynamic size per group: expand-strided-metadata's to lower.
// CHECK-LABEL: func.func @one_dynamic
// CHECK: memref.expand_shape
// CHECK-NOT: memref.reinterpret_cast
func.func @one_dynamic(%src: memref<?xf32>, %a: index) -> memref<?x4xf32> {
  %0 = memref.expand_shape %src [[0, 1]] output_shape [%a, 4] : memref<?xf32> into memref<?x4xf32>
  return %0 : memref<?x4xf32>
}
