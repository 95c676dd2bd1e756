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
    function's `tsir.writeback` attribute lists, per extra result, the input
    it writes back to, so the executor copies it into the caller's tensor as
    PyTorch would have mutated it. Mutation through a view, or of a value
    defined outside the region that mutates it, is an error at the op.
  }];
  let dependentDialects = ["::tsir::aten::AtenDialect"];
}

def TsirDecomposePass : Pass<"tsir-decompose", "mlir::func::FuncOp"> {
  let summary = "rewrite composite aten ops into the aten ops that lower";
  let description = [{
    Runs after type refinement, on prim/aten. Composite ops whose meaning is
    another aten op with other arguments become that op: `mT`, `mH`,
    `adjoint` and `matrix_H` are transposes, `numpy_T` and
    `movedim.intlist` permutes, `ravel` and `atleast_{1,2,3}d` reshapes,
    `broadcast_to` an expand, `flipud`/`fliplr` flips. Ops of several
    results become one op per result: `var_mean`/`std_mean`, `aminmax`, and
    `broadcast_tensors`/`meshgrid` over list literals. Splits whose pieces
    the refined sizes decide (`chunk`, `split`, `unbind`) become list
    literals of slices. Each replacement keeps the replaced op's refined
    type, so nothing needs refining again.
  }];
  let dependentDialects = ["::tsir::aten::AtenDialect",
                           "::tsir::prim::PrimDialect"];
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

def TsirExternalizeWeightsPass
    : Pass<"tsir-externalize-weights", "mlir::func::FuncOp"> {
  let summary = "turn weight constants without data into function arguments";
  let description = [{
    A frozen graph's `<Tensor>` constants (`#prim.tensor_ref`) become
    trailing arguments of the graph, and the function's `tsir.weights`
    attribute lists their names in order, so the runtime binds them from
    the weights file instead of the JIT copying megabytes of constants into
    the compiled code. Each constant must have a refined dtype and shape.

    `names` lists further constants to bind from the weights file: torch
    prints small tensors inline with four significant digits, and a frozen
    graph's weights file holds their exact values (keyed by value name).
  }];
  let options = [
    ListOption<"names", "names", "std::string",
               "inline tensor constants (by value name) to bind as weights">
  ];
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
    "::mlir::bufferization::BufferizationDialect", "::mlir::scf::SCFDialect"
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

#endif // TSIR_CONVERSION_TD
