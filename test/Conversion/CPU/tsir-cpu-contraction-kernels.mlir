// RUN: tsir-opt %s --tsir-cpu-contraction-kernels=min-work=0 -split-input-file | FileCheck %s
// RUN: not tsir-opt %s --tsir-cpu-contraction-kernels=block-cols=100 2>&1 | FileCheck %s --check-prefix=OPTIONS

// OPTIONS: block-cols a multiple of broadcast-vectors * vector-width

// A matmul of dynamic sizes: blocks of 64 x 256 outputs are the iterations
// of an scf.forall; each packs its rows of B into panels of 32 columns, and
// the micro-kernel keeps 8 x 2 vectors of C in registers across k. Edges:
// one-row tiles in m, masked tiles in n.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.matmul
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (%{{.*}}, %{{.*}})
// CHECK: %[[PACKED:.*]] = memref.alloc() : memref<8x256x32xf32>
// CHECK: vector.maskedload %{{.*}} : memref<?x?xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK: vector.store %{{.*}}, %[[PACKED]]
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK: vector.load %[[PACKED]]
// CHECK-COUNT-16: vector.fma
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>) {
// CHECK: vector.maskedstore
// CHECK: memref.dealloc %[[PACKED]]
func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// nn.Linear's product (B indexed [n, k]) on a batch of 16 rows: the dot
// kernel, 4 x 4 outputs each a 16-wide partial sum over k, reduced once;
// k = 100 is not a multiple of 16, so a masked step ends each sum.
// CHECK-LABEL: func.func @linear
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (1, 1)
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-COUNT-16: vector.fma
// CHECK: vector.maskedload %{{.*}} : memref<30x100xf32>
// CHECK: vector.reduction <add>
// CHECK-NOT: linalg.matmul
func.func @linear(%a: memref<16x100xf32>, %w: memref<30x100xf32>, %c: memref<16x30xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %w : memref<16x100xf32>, memref<30x100xf32>) outs(%c : memref<16x30xf32>)
  return
}

// -----

// A wider weight (40 columns, more than a tile of 32) read by 64 rows: B
// is packed transposed (16 rows of the weight, 16 elements along k each,
// masked past n = 40 and past k = 100, transposed by 4 rounds of 16
// shuffles into 16 rows of the panel), and the broadcast kernel runs on
// the panel: no dot kernel, no reduction.
// CHECK-LABEL: func.func @linear_many_rows
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (1, 1)
// CHECK: vector.maskedload %{{.*}} : memref<40x100xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK-COUNT-64: vector.shuffle
// CHECK: vector.store %{{.*}} : memref<8x256x32xf32>, vector<16xf32>
// CHECK: vector.broadcast
// CHECK: vector.fma
// CHECK-NOT: vector.reduction
func.func @linear_many_rows(%a: memref<64x100xf32>, %w: memref<40x100xf32>, %c: memref<64x40xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %w : memref<64x100xf32>, memref<40x100xf32>) outs(%c : memref<64x40xf32>)
  return
}

// -----

// A weight gradient's correlation: 64 rows but only 9 columns (the 3x3
// window positions), fewer than a register tile's 32: the dot kernel,
// not 9 of 32 lanes of the broadcast kernel.
// CHECK-LABEL: func.func @few_columns
// CHECK: vector.reduction <add>
// CHECK-NOT: vector.shuffle
func.func @few_columns(%dy: memref<64x3136xf32>, %cols: memref<9x3136xf32>, %dw: memref<64x9xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
    ins(%dy, %cols : memref<64x3136xf32>, memref<9x3136xf32>) outs(%dw : memref<64x9xf32>)
  return
}

// -----

// Rows per block: up to 256 while the product still has four blocks or
// more (512 x 1024: 2 x 4 blocks), down to 64 when it would not (256 x
// 196: 4 x 1 blocks, not 1 x 1), so that threads share it.
// CHECK-LABEL: func.func @rows_per_block
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 4)
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (4, 1)
func.func @rows_per_block(%a: memref<512x64xf32>, %b: memref<64x1024xf32>, %c: memref<512x1024xf32>,
                          %a2: memref<256x64xf32>, %b2: memref<64x196xf32>, %c2: memref<256x196xf32>) {
  linalg.matmul ins(%a, %b : memref<512x64xf32>, memref<64x1024xf32>) outs(%c : memref<512x1024xf32>)
  linalg.matmul ins(%a2, %b2 : memref<256x64xf32>, memref<64x196xf32>) outs(%c2 : memref<256x196xf32>)
  return
}

// -----

// The batch dimension is one more dimension of the forall.
// CHECK-LABEL: func.func @batch_matmul
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (3, 1, 1)
// CHECK-NOT: linalg.batch_matmul
func.func @batch_matmul(%a: memref<3x17x9xf32>, %b: memref<3x9x40xf32>, %c: memref<3x17x40xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<3x17x9xf32>, memref<3x9x40xf32>) outs(%c : memref<3x17x40xf32>)
  return
}

// -----

// Left to convert-linalg-to-loops: f64, a body with casts, and an output
// whose n dimension is not contiguous.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: scf.forall
// CHECK: linalg.matmul ins(%{{.*}} : memref<4x4xf64>
// CHECK: linalg.matmul ins(%{{.*}} : memref<4x4xf16>
// CHECK: linalg.matmul ins(%{{.*}} : memref<4x4xf32>, memref<4x4xf32>) outs(%{{.*}} : memref<4x4xf32, strided<[1, 4]>>)
func.func @untouched(%d: memref<4x4xf64>, %h: memref<4x4xf16>, %f: memref<4x4xf32>,
                     %ft: memref<4x4xf32, strided<[1, 4]>>, %out: memref<4x4xf32>) {
  linalg.matmul ins(%d, %d : memref<4x4xf64>, memref<4x4xf64>) outs(%d : memref<4x4xf64>)
  linalg.matmul ins(%h, %h : memref<4x4xf16>, memref<4x4xf16>) outs(%out : memref<4x4xf32>)
  linalg.matmul ins(%f, %f : memref<4x4xf32>, memref<4x4xf32>) outs(%ft : memref<4x4xf32, strided<[1, 4]>>)
  return
}
