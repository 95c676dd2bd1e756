//===- Conversion.td - tsir's conversions to upstream dialects -*- tablegen -*-===//
//
// The conversions from prim/aten to linalg, tensor, arith, math and scf, and
// the passes around them that the lowering pipeline needs (value semantics,
// finalization). Each is one `convert-*`/`tsir-*` flag in tsir-opt with a
// lit test file named after it.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_CONVERSION_TD
#define TSIR_CONVERSION_TD

include "mlir/Pass/PassBase.td"

def TsirValueSemanticsPass
    : Pass<"tsir-value-semantics", "mlir::func::FuncOp"> {
  let summary = "rewrite in-place tensor ops to functional ones, writing "
                "mutated graph inputs back through extra results";
  let description = [{
    Runs after specialization, when the executor guarantees that graph
    inputs do not alias each other. Every in-place aten op (`add_`, `relu_`,
    `copy_`, ...) on a value that is not a view becomes its functional form;
    later uses of the mutated value read the new one. A graph input that is
    written gets its final value returned as an extra result, and the
    function's `prim.written_inputs` attribute lists, per extra result, the input
    it writes back to, so the executor copies it into the caller's tensor as
    PyTorch would have mutated it. Mutation through a view, or of a value
    defined outside the region that mutates it, is an error at the op.
  }];
  let dependentDialects = ["::tsir::aten::AtenDialect"];
}

def TsirApproximateMathPass
    : Pass<"tsir-approximate-math", "mlir::func::FuncOp"> {
  let summary = "replace f32 transcendental math ops by polynomial "
                "approximations the loop vectorizer can vectorize";
  let description = [{
    `math.tanh`, `math.exp`, `math.expm1`, `math.log`, `math.log1p`,
    `math.log2` and `math.erf` on f32 (and vectors of f32) become MLIR's
    polynomial approximations: plain arithmetic, accurate to a few ulp over
    the whole range, where the libm calls they would otherwise become stop
    LLVM from vectorizing the loop around them. Other types and functions
    keep their libm calls.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def ConvertAtenToLinalgPass
    : Pass<"convert-aten-to-linalg", "mlir::func::FuncOp"> {
  let summary = "lower aten tensor ops to linalg, tensor, arith and math";
  let description = [{
    Every aten op with a tensor operand or result, and `prim.NumToTensor`
    and tensor-valued `prim.Constant`s, becomes linalg (named ops where they
    exist, `linalg.generic` for elementwise ops and reductions) on builtin
    tensors. Tensor types must carry a dtype and a rank (run
    `tsir-refine-types` with an arg spec first); unknown sizes become
    dynamic dims. An op that cannot be lowered is an error at its location.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::bufferization::BufferizationDialect", "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect"
  ];
}

def ConvertAtenToArithPass
    : Pass<"convert-aten-to-arith", "mlir::func::FuncOp"> {
  let summary = "lower scalar int/float/bool aten ops and constants to arith";
  let description = [{
    TorchScript's scalar arithmetic (`aten.add.int`, `aten.floordiv.int`,
    `aten.lt.float`, `aten.Float.int`, ...) and scalar `prim.Constant`s
    become arith/math with TorchScript's semantics: floor division and
    modulo round toward negative infinity, int arithmetic wraps, float to
    int truncates.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def ConvertPrimToSCFPass : Pass<"convert-prim-to-scf", "mlir::func::FuncOp"> {
  let summary = "lower prim.If and prim.Loop to scf";
  let description = [{
    `prim.If` becomes `scf.if`. `prim.Loop` becomes `scf.for` when its
    condition is constant true everywhere (a for-loop) and `scf.while`
    otherwise, with TorchScript's semantics: the body runs while the
    iteration count is below the trip count and the condition holds.
  }];
  let dependentDialects = [
    "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def TsirFinalizeLoweringPass
    : Pass<"tsir-finalize-lowering", "mlir::ModuleOp"> {
  let summary = "convert the graph's signature to builtin types and check "
                "that nothing of prim/aten is left";
  let description = [{
    Flattens tuple results depth-first, converts the function's argument
    and result types to builtin tensors and scalars, drops `None` inputs,
    removes the casts the partial conversions left between them, and
    reports every prim/aten op still alive as an error naming the op and its
    place in the graph. Node locations (`#prim.node`) become their builtin
    form, which LLVM's debug info translation reads.
  }];
  let dependentDialects = [
    "::mlir::func::FuncDialect", "::mlir::tensor::TensorDialect"
  ];
}

def TsirGPUPlaceBuffersPass
    : Pass<"tsir-gpu-place-buffers", "mlir::func::FuncOp"> {
  let summary = "keep a bufferized graph's buffers on the GPU: copy inputs "
                "in at entry, results out at exit, and run the host's "
                "memory accesses as kernels";
  let description = [{
    Runs on a public function after bufferization and deallocation
    (convert-bufferization-to-memref), before the loops are mapped to the
    GPU. The calling convention stays the CPU one: host memrefs in, fresh
    `malloc`ed host memrefs out. Inside:

    - each memref argument and each `memref.get_global` is copied once to a
      `gpu.alloc`ed buffer at entry, freed with `gpu.dealloc` at the return;
    - every other `memref.alloc`/`memref.dealloc` of a tensor buffer becomes
      `gpu.alloc`/`gpu.dealloc`;
    - each returned memref is copied into a fresh host `memref.alloc` and
      its device buffer freed;
    - `memref.copy` becomes a `linalg.copy` (a kernel later);
    - a reduction whose combiner is one arith op of `gpu.all_reduce`'s
      kinds, to one element or to few (at most 4096) elements of many (at
      least 32), becomes a `gpu.launch` with a block per output element
      (up to `block-size` threads) that strides over its elements and
      combines with `gpu.all_reduce`; other reductions stay a thread per
      output element;
    - any other linalg op without parallel loops (a 0-d op) runs in a
      one-thread `gpu.launch`;
    - a host-side `memref.load` of a tensor element becomes a one-thread
      kernel that stages the element, a `gpu.memcpy` to the host, and a
      host load; a host-side `memref.store` becomes a one-thread kernel.

    The small host buffers of the deallocation helper (passed to a
    `func.call`) stay on the host. Private functions (that helper) are left
    alone.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "the most threads of a block that runs a reduction">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect"
  ];
}

def TsirGPUMapParallelLoopsPass
    : Pass<"tsir-gpu-map-parallel-loops", "mlir::func::FuncOp"> {
  let summary = "map each outermost scf.parallel to a 1-d grid of blocks "
                "of threads";
  let description = [{
    Each `scf.parallel` outside a `gpu.launch` and outside another
    `scf.parallel` (one per linalg op after
    convert-linalg-to-parallel-loops) has its dimensions collapsed into
    one, is tiled by `block-size` with a bounds guard, and gets the mapping
    attributes that convert-parallel-loops-to-gpu reads: tiles to
    `block_x`, the iterations of a tile to `thread_x`, nested parallel
    loops run sequentially in their thread. An empty loop still launches
    one block (whose guard does nothing): CUDA rejects a grid of zero
    blocks.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "threads per block">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect", "::mlir::affine::AffineDialect"
  ];
}

def TsirHoistLoopInvariantsPass
    : Pass<"tsir-hoist-loop-invariants", "mlir::func::FuncOp"> {
  let summary = "move what a loop body computes from values defined "
                "outside it before the loop, on tensors";
  let description = [{
    TorchScript loops recompute whatever their body computes, even from
    values that do not change: an LSTM step's `w.t()` of a weight passed
    in transposes it on every step. MLIR's loop-invariant code motion
    moves such ops out (those without memory effects that are
    speculatable: an integer division stays in a loop that may not run),
    with two rules for tensors that the upstream pass lacks:

    - A `tensor.empty` is not moved by itself: it only gives a shape, and
      outside the loop, an op in the loop that writes into it would make
      bufferization copy it every iteration. An op that is moved takes its
      own copy of the empty tensors it writes into.
    - An op whose result a destination-style op in the loop writes into
      (a `linalg.fill` that is a product's accumulator) stays: each
      iteration would copy it instead.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def TsirFuseElementwisePass
    : Pass<"tsir-fuse-elementwise", "mlir::func::FuncOp"> {
  let summary = "fuse elementwise producers into the linalg ops that read "
                "each of their elements once";
  let description = [{
    MLIR's elementwise fusion and reshape propagation on tensors (the
    patterns of linalg-fuse-elementwise-ops), with one more rule: a
    producer fuses into a consumer with reductions only where the consumer
    reads it through a permutation of all its loops. A matrix product reads
    each element of an input once per column or row of the other, so a ReLU
    before it stays a loop of its own and the product stays a contraction
    the CPU's GEMM kernels match. Pointwise chains, broadcasts and the
    producers of plain reductions fuse as before.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
}

def TsirConvToMatmulPass : Pass<"tsir-conv-to-matmul", "mlir::func::FuncOp"> {
  let summary = "1-d, 2-d and 3-d convolutions as an im2col copy and a "
                "matrix product";
  let description = [{
    Runs on tensors, before bufferization, for the CPU. Every
    `linalg.conv_2d_nchw_fchw` of static shape and one float type becomes
    `out[n, f, oh*ow] += weight[f, c*kh*kw] * columns[n, c*kh*kw, oh*ow]`
    (`conv_1d_ncw_fcw` and `conv_3d_ncdhw_fcdhw` alike, with one kernel
    and output dim fewer or more):
    a linalg.generic copies the input's windows into `columns` (innermost
    loop along ow, so it vectorizes), and the product is a contraction
    generic that tsir-cpu-contraction-kernels turns into its GEMM kernel.
    A 1x1 convolution of stride 1 uses the input itself. A grouped
    `linalg.conv_2d_ngchw_gfchw` is the same product with the group as a
    batch dimension; depthwise ones (one input channel per group) are
    left to tsir-cpu-depthwise-conv-rows. A convolution whose columns
    would exceed `column-budget` bytes is first tiled (scf.for) over its
    batch and leading output dims, each tile a convolution whose columns
    fit, so that the copy stays in cache and its buffer is reused.
  }];
  let options = [
    Option<"columnBudget", "column-budget", "int64_t", "4 << 20",
           "the most bytes of im2col columns built at once">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::scf::SCFDialect"];
}

def TsirCPUDepthwiseConvRowsPass
    : Pass<"tsir-cpu-depthwise-conv-rows", "mlir::func::FuncOp"> {
  let summary = "depthwise convolutions along the flattened rows of their "
                "input";
  let description = [{
    Runs on tensors, before bufferization, for the CPU. A
    `linalg.conv_2d_ngchw_gfchw` with one input channel per group and
    static shapes becomes, with the input's rows flattened (`pitch` its
    width, divided by the stride),
    `wide[n, g, f, j] += weight[g, f, kh, kw] * phases[n, g, a, b, j + offset]`
    where output (oh, ow) is j = oh*pitch + ow and tap (kh, kw) reads phase
    (a, b) = (kh*dh mod sh, kw*dw mod sw) at a fixed offset. The loop over
    j, innermost, is as long as the whole feature map, so it vectorizes
    where one 7- or 14-wide output row does not. A strided convolution
    first splits its input into sh*sw phases (a copy), so that every tap
    reads at unit stride. The pitch - OW extra columns of each wide row are
    sliced away; j runs to a multiple of `vector-width`, the input gaining
    the zero rows that reads. A bias broadcast is rebuilt at the wide
    shape; any other initial value is padded.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "elements per vector: the wide rows' length is a multiple">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def TsirCPUWindowLoopOrderPass
    : Pass<"tsir-cpu-window-loop-order", "mlir::func::FuncOp"> {
  let summary = "move the window loops of pooling and grouped convolutions "
                "outside the output's innermost dimension";
  let description = [{
    Every linalg op that slides a window (an operand indexed by a parallel
    plus a reduction dimension, as `oh * s + kh`) and is not a contraction
    becomes a linalg.generic whose loops are: the parallel dimensions but
    the output's innermost one, the reductions, then the output's innermost
    dimension. convert-linalg-to-loops nests loops in that order, so the
    innermost loop walks a row of the output and of the input, which LLVM
    vectorizes, instead of a 3-wide window. Plain reductions (no window)
    keep their order. A global window (every parallel dim that slides a
    window has extent 1: an average pool over the whole input) becomes a
    plain reduction instead: its inputs read the window dims alone.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def TsirCPUCollapseElementwiseDimsPass
    : Pass<"tsir-cpu-collapse-elementwise-dims", "mlir::func::FuncOp"> {
  let summary = "elementwise ops on buffers over as few loop dims as "
                "their operands' layouts allow";
  let description = [{
    Runs on buffers, for the CPU. Every `linalg.generic` without
    `linalg.index` has its longest run of trailing loop dims of one
    iterator type (parallel, or reduced) collapsed into one, where each
    operand either indexes those
    dims as its own last dims, in order, over memory contiguous across
    them (viewed through `memref.collapse_shape`), or does not read them
    (a broadcast). The innermost loop LLVM vectorizes then covers H*W (or
    more) elements instead of a 7- or 14-wide row.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TsirCPUVectorizeReductionsPass
    : Pass<"tsir-cpu-vectorize-reductions", "mlir::func::FuncOp"> {
  let summary = "reductions along a contiguous innermost dim on buffers as "
                "vector loops with partial results in registers";
  let description = [{
    Runs on buffers, for the CPU, before convert-linalg-to-loops. Every
    `linalg.generic` whose innermost loop is a reduction of 16 or more
    elements (or of a dynamic count), read at unit stride by each input
    that reads it, with an elementwise body and one arith combiner per
    output (add, mul, max, min, and, or, xor), becomes scf.for loops over
    its parallel dims and its outer reduced dims; each output point keeps
    W partial results in registers, steps the innermost dim W elements at
    a time (the last step masked), combines the lanes pairwise and then
    with the output's old value. W is 32 lanes, 16 when the body holds a
    64-bit type. Other generics are left as they are.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def TsirCPUVectorizeWindowsPass
    : Pass<"tsir-cpu-vectorize-windows", "mlir::func::FuncOp"> {
  let summary = "window reductions along a contiguous output row on buffers "
                "as vector loops with the accumulators in registers";
  let description = [{
    Runs on buffers, for the CPU, before convert-linalg-to-loops. Every
    `linalg.generic` whose innermost loop is a parallel row of 16 or more
    elements (or of a dynamic count) inside one or more reduced loops (a
    depthwise convolution along its flattened rows, a stride-1 window),
    with an elementwise body, whose outputs index the row as their last,
    unit-stride dim and whose inputs read it there as the row plus an
    offset that does not depend on it (or not at all), becomes scf.for
    loops over its other parallel dims and over the row in steps of W
    lanes (the last step masked). Each step loads W outputs, applies every
    iteration of the reduced loops to them in registers, in the generic's
    order, and stores them once. W is 64 lanes, 32 when the body holds a
    64-bit type. Other generics are left as they are.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def TsirCPUContractionKernelsPass
    : Pass<"tsir-cpu-contraction-kernels", "mlir::ModuleOp"> {
  let summary = "matrix products on buffers as register-blocked vector "
                "loops (the CPU's GEMM micro-kernels)";
  let description = [{
    Runs after bufferization. Every linalg op that is a multiply-add
    contraction of f32 buffers with one m, one n and one k dimension (any
    other parallel dimensions are looped around it) becomes explicit loops
    in the vector dialect:

    - B indexed [.., k, n] with n contiguous (matmul, batch_matmul, the
      product a convolution becomes): a `broadcast-rows` x
      (`broadcast-vectors` * `vector-width`) tile of C stays in registers
      across k; each k step loads the vectors of B and broadcasts elements
      of A into FMAs. k is blocked by `block-depth` so the panel of B stays
      in cache.
    - B indexed [.., n, k] with k contiguous (nn.Linear's weight), 64
      rows of C or more and a register tile of columns or more (static):
      the broadcast kernel, B's panel packed
      transposed (`vector-width` rows of B at a time, transposed in
      registers by shuffles).
    - B indexed [.., n, k] with fewer rows or columns, or dynamic ones: a
      `dot-rows` x `dot-cols` tile of C, each element a `vector-width`-wide
      partial sum over k reduced at the end.

    Each kernel is a private function (`tsir_cpu_kernel*`, not inlined) that
    the op becomes a call of; products of the same types and maps share one.
    Blocks of `block-rows` x `block-cols` outputs are the iterations of an
    `scf.forall`: independent work that can run on separate threads. A
    product of static size whose blocks would be fewer than four has its
    rows per block halved (down to 64) until they are not. Edges
    in n are masked, edges in m run a one-row kernel, so every size works,
    dynamic ones too. Other ops (other element types, a strided innermost
    dimension, casts in the body) and small products (`min-work`) are left
    for convert-linalg-to-loops.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "f32 lanes of a vector register (16 for AVX-512)">,
    Option<"broadcastRows", "broadcast-rows", "int64_t", /*default=*/"8",
           "rows of C in the broadcast kernel's register tile">,
    Option<"broadcastVectors", "broadcast-vectors", "int64_t",
           /*default=*/"2",
           "vectors per row of C in the broadcast kernel's register tile">,
    Option<"dotRows", "dot-rows", "int64_t", /*default=*/"4",
           "rows of C in the dot kernel's register tile">,
    Option<"dotCols", "dot-cols", "int64_t", /*default=*/"4",
           "columns of C in the dot kernel's register tile">,
    Option<"blockRows", "block-rows", "int64_t", /*default=*/"256",
           "the most rows of C per parallel block">,
    Option<"blockCols", "block-cols", "int64_t", /*default=*/"256",
           "columns of C per parallel block">,
    Option<"blockDepth", "block-depth", "int64_t", /*default=*/"256",
           "k per block of the broadcast kernel">,
    Option<"minWork", "min-work", "int64_t", /*default=*/"32768",
           "products of fewer multiply-adds (static sizes) are left to "
           "convert-linalg-to-loops, whose small static loops LLVM unrolls">,
  ];
  let dependentDialects = [
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::func::FuncDialect"
  ];
}

def TsirOutlineLoopNestsPass
    : Pass<"tsir-outline-loop-nests", "mlir::ModuleOp"> {
  let summary = "each outermost sequential loop nest of a graph function "
                "as a private function of its own, identical nests shared";
  let description = [{
    Runs on the CPU pipeline after convert-linalg-to-loops. In every public
    function, each `scf.for` or `scf.forall` that is not inside another loop
    becomes a call of a private function (`tsir_loop_nest*`, never inlined)
    that holds the nest: the values it uses from outside are the function's
    arguments, except constants, which are cloned in so the bounds stay
    known. Nests that come out identical (the same blocks of a network at
    the same sizes) share one function; for an `scf.forall`, which becomes
    an OpenMP parallel region, that also shares the region's outlined body.

    Why: otherwise every loop that is not a parallel region or a GEMM
    kernel stays in the graph function, which for MobileNet v3 is a third
    of the module's IR in one function. LLVM's code generation of one
    function is serial and superlinear in its size; many small functions
    compile faster, and on several threads (tsir-compile's partitions).
    Swin-T's twelve blocks made 250 parallel regions, most of them copies:
    shared, its optimized LLVM IR went from 20 MB to 9 MB.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def TsirParallelizeLoopsPass
    : Pass<"tsir-parallelize-loops", "mlir::func::FuncOp"> {
  let summary = "cut each large linalg op on buffers into an scf.forall of "
                "chunks along its outer parallel dimensions";
  let description = [{
    Runs on the CPU pipeline's buffers (after bufferization and
    deallocation, before convert-linalg-to-loops). A linalg op with pure
    buffer semantics that is not already inside an `scf.forall` or
    `scf.parallel`, and whose iteration space (all loops, reductions
    included) has at least `min-iterations` points, or a dynamic size, is
    tiled with `scf::tileUsingSCF` into an `scf.forall` over chunks: about
    one chunk per `chunk-iterations` points of work, at least 2 and at most
    `max-chunks` (an op with a dynamic size gets `max-chunks`). The chunks
    are cut from the outermost parallel loop; a loop of extent 1 is
    skipped, and when the outermost useful parallel loop is shorter than
    the number of chunks it is split into single iterations and the next
    parallel loop takes the rest, so a batch-1 convolution is cut along its
    channels. Reduction loops are never split: each output element is
    computed by one chunk, in the same order as without chunks, so results
    do not depend on the number of threads. Ops with no parallel loop of
    extent > 1 (a reduction to one element) stay whole.

    The chunks are fixed at compile time, independent of the thread count:
    the forall becomes an OpenMP worksharing loop (scf-forall-to-parallel,
    convert-scf-to-openmp), and the OpenMP runtime hands its chunks to as
    many threads as run (`--threads`).
  }];
  let options = [
    Option<"minIterations", "min-iterations", "int64_t", /*default=*/"32768",
           "the fewest iteration points an op must have to be cut">,
    Option<"chunkIterations", "chunk-iterations", "int64_t",
           /*default=*/"16384",
           "the iteration points of work per chunk to aim for">,
    Option<"maxChunks", "max-chunks", "int64_t", /*default=*/"64",
           "the most chunks an op is cut into">,
  ];
  let dependentDialects = [
    "::mlir::scf::SCFDialect", "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::linalg::LinalgDialect"
  ];
}

def TsirSerializeNestedParallelLoopsPass
    : Pass<"tsir-serialize-nested-parallel-loops", "mlir::func::FuncOp"> {
  let summary = "turn each scf.parallel nested in another scf.parallel into "
                "sequential scf.for loops";
  let description = [{
    convert-scf-to-openmp makes every `scf.parallel` an `omp.parallel`
    region; one nested in another would fork a team of threads in every
    iteration of the outer loop. Only the outermost parallel loops stay
    parallel: every `scf.parallel` inside another one (at any depth)
    becomes a nest of `scf.for` loops. A nested loop with `scf.reduce`
    results is an error (tsir makes none).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def TsirExpandDynamicReshapesPass
    : Pass<"tsir-expand-dynamic-reshapes", "mlir::ModuleOp"> {
  let summary = "rewrite each memref.expand_shape that splits a dimension "
                "into several dynamic ones as a memref.reinterpret_cast";
  let description = [{
    Upstream's `expand-strided-metadata` assumes at most one dynamic size
    per reassociation group of a `memref.expand_shape` and crashes on any
    other (LLVM 22). A batched matrix product whose batch sizes are known
    only at run time makes one (`memref<?xf64> into memref<?x?xf64>`).
    This pass rewrites exactly those ops as the view they are: a
    `memref.reinterpret_cast` of the source's base buffer, with the op's
    output sizes and, in each group, row-major strides scaled by the
    source dimension's stride. Both lowering pipelines run it right before
    `expand-strided-metadata`, on the whole module (GPU kernels included).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"
  ];
}

def TsirLowerRuntimeChecksPass
    : Pass<"tsir-lower-runtime-checks", "mlir::ModuleOp"> {
  let summary = "turn each cf.assert into an error the caller of the "
                "compiled graph gets, in torch's words at the graph's node";
  let description = [{
    The lowering checks at run time what only the data decides, as torch
    does: an index tensor's elements within the indexed dim (gather,
    index_select, embedding, scatter, advanced indexing, nll_loss's
    targets). Each check is a `cf.assert` with torch's message. Upstream
    lowers `cf.assert` to a print and `abort()`, which would end the user's
    process. This pass makes each one a call of the runtime's
    `tsirRaiseError` (runtime/include/tsir-runtime/AbiCall.h) with the
    message, prefixed with the node's place as the executor reports
    compile errors (`model.py:7:8: error: ...`); the code goes on (the
    lowering clamps what it reads and writes to bounds) and the call of the
    graph then fails with that message.

    With `report=false` the checks are dropped instead: the GPU pipeline,
    whose host cannot read the device's memory (out-of-range indices on the
    GPU read and write clamped, unreported; docs/gpu.md).
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"true",
           "call tsirRaiseError on a failed check (false: drop the checks)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

#endif // TSIR_CONVERSION_TD
