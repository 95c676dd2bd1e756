//===- Passes.td - TorchScript's graph passes --------------*- tablegen -*-===//
//
// TorchScript's optimizer passes rebuilt on the prim and aten dialects. Each
// keeps TorchScript's semantics, including where TorchScript refuses to
// optimize (side effects, possibly mutated inputs, aliasing). The passes run
// on the function that holds a graph; tsir-optimize runs them in the order of
// TorchScript's profiling executor.
//
//===----------------------------------------------------------------------===//

#ifndef TSIR_PASSES_TD
#define TSIR_PASSES_TD

include "mlir/Pass/PassBase.td"

def PrimInlineSubgraphsPass : Pass<"prim-inline-subgraphs", "mlir::func::FuncOp"> {
  let summary = "inline fusion-group and fallback subgraphs into the graph";
  let description = [{
    Replaces `prim.FusionGroup`, `prim.TensorExprGroup`,
    `prim.FallbackGraph` and `prim.DifferentiableGraph` ops with the ops of
    their bodies, as TorchScript's
    inliner does before re-optimizing, so that the other passes see one flat
    graph (imported fused graphs get re-fused by tsir's own fuser).
  }];
}

def TsirFoldProfilingGuardsPass
    : Pass<"tsir-fold-profiling-guards", "mlir::func::FuncOp"> {
  let summary = "fold the profiling executor's guards once types are known";
  let description = [{
    `prim.TypeCheck` becomes true when every input's refined dtype and
    sizes (and device, where both say) are the profiled ones, false when
    one differs, and stays while they are unknown; a
    `prim::RequiresGradCheck` becomes true (tsir differentiates in its own
    executors, not through autograd's flags). The checked values become
    the inputs, cast to the profiled types. Both branches of the guarded
    `prim.If` compute the same values; the fold picks one.
  }];
}

def TsirForwardAttributeWritesPass
    : Pass<"tsir-forward-attribute-writes", "mlir::func::FuncOp"> {
  let summary = "read back module attributes that forward writes itself";
  let description = [{
    A module attribute that forward writes (`prim.SetAttr`) and reads back
    (`prim.GetAttr`) in the same call, as RAFT's correlation block builds
    its pyramid in `self.corr_pyramid`: each read of an attribute path
    after the one write in the graph's body that makes it becomes the
    value written, and the write goes. The module's state after the call
    is not kept (tsir holds no module object). Reads before the write,
    paths written twice or inside control flow, stay as they are.
  }];
}

def PrimDCEPass : Pass<"prim-dce", "mlir::func::FuncOp"> {
  let summary = "dead code elimination with TorchScript's alias rules";
  let description = [{
    Removes ops whose results are unused, unless they have side effects
    (print, raise, SetAttr, calls, unknown nodes) or write a value that
    something live may alias. Removes unused `prim.If` results and unused
    loop-carried values of `prim.Loop`.
  }];
}

def PrimCSEPass : Pass<"prim-cse", "mlir::func::FuncOp"> {
  let summary = "common subexpression elimination with TorchScript's alias rules";
  let description = [{
    Merges identical ops, tensor- and list-producing ones included, as
    TorchScript does. Never merges ops with side effects, nondeterministic
    ops, ops with regions, or ops any of whose operands or results may be
    written anywhere in the graph; never makes two graph outputs alias.
    Values of enclosing blocks are visible inside `prim.If`/`prim.Loop`
    bodies.
  }];
}

def PrimConstantPropagationPass
    : Pass<"prim-constant-propagation", "mlir::func::FuncOp"> {
  let summary = "fold constant ops and simplify control flow";
  let description = [{
    Folds scalar int/float/bool/str ops and list ops on constant lists, and
    `size`/`dim`/`dtype`/`device`/`len` where types make them known; inlines
    `prim.If` with a constant condition, deletes loops that never run, and
    drops loop-carried values that never change and `If` results that are
    the same value on both branches. Never folds an op whose inputs may be
    mutated.
  }];
}

def PrimConstantPoolingPass : Pass<"prim-constant-pooling", "mlir::func::FuncOp"> {
  let summary = "deduplicate constants and hoist them to the top of the graph";
}

def PrimPeepholePass : Pass<"prim-peephole", "mlir::func::FuncOp"> {
  let summary = "TorchScript's peephole optimizations";
  let description = [{
    `x.t().t()` to `x`, no-op `expand`/`type_as`, `NumToTensor`/`Int`
    pairs, `is None` on non-optional values, `unwrap_optional`, `len` and
    `__getitem__` of never-mutated `ListConstruct`s, and tuple
    construct/unpack pairs.
  }];
}

def PrimLowerTuplesPass : Pass<"prim-lower-tuples", "mlir::func::FuncOp"> {
  let summary = "remove tuple construct/unpack/index, also across If/Loop";
}

def PrimRemoveMutationPass : Pass<"prim-remove-mutation", "mlir::func::FuncOp"> {
  let summary = "rewrite in-place ops on fresh, unaliased values to functional ones";
  let description = [{
    `add_` to `add`, `relu_` to `relu`, ... where the written value is fresh
    and unaliased, and `append`s on a fresh, never-aliased list folded into
    its `ListConstruct`, as TorchScript's RemoveMutation does.
  }];
}

def TsirFunctionalizeViewWritesPass
    : Pass<"tsir-functionalize-view-writes", "mlir::func::FuncOp"> {
  let summary = "make in-place writes through a view of fresh memory functional";
  let description = [{
    After prim-remove-mutation: an in-place op on a view whose base is
    fresh memory of the same block becomes the functional op, on the view
    alone where nothing else reads the base (`flatten` then `dropout_`),
    else scattered back into the base (`x[a:b].zero_()` becomes
    `slice_scatter(x, zeros_like(x[a:b]), ...)`, a select `select_scatter`)
    with the base's later readers reading the result. Not a TorchScript
    pass; the gradient pipeline runs it, so that tsir-differentiate sees
    the write.
  }];
}

def PrimUnrollLoopsPass : Pass<"prim-unroll-loops", "mlir::func::FuncOp"> {
  let summary = "unroll for-like loops with small bodies";
  let description = [{
    For loops (constant-true conditions) with bodies of at most
    `max-body-size` ops: a constant trip count below `full-unroll-limit`
    unrolls fully, any other by `unroll-factor` with an epilogue loop.
  }];
  let options = [
    Option<"maxBodySize", "max-body-size", "unsigned", "32",
           "largest body (ops, nested blocks counted) that is unrolled">,
    Option<"unrollFactor", "unroll-factor", "unsigned", "8",
           "copies of the body per iteration of a partially unrolled loop">,
    Option<"fullUnrollLimit", "full-unroll-limit", "unsigned", "64",
           "constant trip counts below this unroll fully">,
  ];
}

def TsirRefineTypesPass : Pass<"tsir-refine-types", "mlir::func::FuncOp"> {
  let summary = "propagate dtypes and shapes through the graph";
  let description = [{
    Starts from the graph's input types, or from `arg-spec` when given: one
    TorchScript tensor type per input, comma-separated (`Float(2, 3)`,
    `Long(4)`; `_` keeps an input's type; `None` says an Optional input is
    None, so its `is None` tests fold), and propagates dtypes and sizes
    through elementwise broadcasting, matmul, conv, pooling, reductions,
    views, cat/stack/slice/select and control flow. What is not known stays
    unrefined. Then it reports, in torch's words, the shape mistakes the
    refined types prove (RefineTypesChecks.cpp).

    MLIR's option parser splits at spaces, so a spec with spaces is quoted:
    `--tsir-refine-types="arg-spec='Float(2, 3), Long(4), _'"`, or written
    without them: `arg-spec=Float(2,3),Long(4),_`.
  }];
  let options = [
    Option<"argSpec", "arg-spec", "std::string", "\"\"",
           "the input types to specialize to, e.g. \"Float(2, 3), Long(4)\"">,
  ];
}

def TsirCreateFusionGroupsPass
    : Pass<"tsir-create-fusion-groups", "mlir::func::FuncOp"> {
  let summary = "group fusible elementwise ops into prim.FusionGroup";
  let description = [{
    Groups chains of at least `min-group-size` fusible elementwise ops
    (TensorExpr's set) into one `prim.FusionGroup`, respecting data
    dependencies and aliasing; matmuls and convolutions stay outside.
  }];
  let options = [
    Option<"minGroupSize", "min-group-size", "unsigned", "2",
           "fewest ops a fusion group holds">,
  ];
}

def TsirCreateAutodiffSubgraphsPass
    : Pass<"tsir-create-autodiff-subgraphs", "mlir::func::FuncOp"> {
  let summary = "group differentiable ops into prim.DifferentiableGraph (TorchScript's CreateAutodiffSubgraphs)";
  let description = [{
    Each maximal run of ops of one block that autodiff differentiates (a
    formula, decomposition or `nondifferentiable` line in derivatives.txt,
    a graph in decompositions.txt, the list ops tsir-differentiate handles
    itself, a prim.If of such ops) becomes a `prim.DifferentiableGraph`,
    printed as torch prints `prim::DifferentiableGraph_N`. Runs of fewer
    than `threshold` ops (constants not counted) stay; the blocks of ops
    left out are partitioned on their own. Constants a subgraph reads are
    cloned into it. Unlike TorchScript, ops are never moved to lengthen a
    run.
  }];
  let options = [
    Option<"threshold", "threshold", "unsigned", "2",
           "the fewest ops (constants not counted) a subgraph is made of">,
  ];
}

def TsirDifferentiatePass : Pass<"tsir-differentiate", "mlir::ModuleOp"> {
  let summary = "reverse-mode differentiation of a graph (TorchScript's symbolic autodiff)";
  let description = [{
    Differentiates `func.func @graph` with respect to `wrt`: graph inputs
    and weights (`prim::Constant[value=<Tensor>]`) by value name, or `all`
    (every tensor input and weight). The result is TorchScript's
    `Gradient` made explicit:

    - `@graph` is the forward: its results are the original outputs, then
      the values the backward needs (the captured values), and it carries
      `prim.gradient = #prim.gradient<...>` naming its backward and the
      number of each kind of result;
    - `@graph_backward` takes the captured values, then one gradient per
      tensor output of the original graph (tuples flattened), and returns
      the gradient of each `wrt` value, in order (zeros where an output
      does not depend on it).

    Each op's derivative is a formula read from
    `passes/autodiff/derivatives.txt`, written in TorchScript's graph
    text. Constants and weights are rematerialized in the backward rather
    than captured. An op on the path from a `wrt` value to an output
    without a formula, control flow on that path, and in-place ops there
    are errors at the op (run `prim-remove-mutation` first).
  }];
  let options = [
    ListOption<"wrt", "wrt", "std::string",
               "the input and weight names to differentiate with respect "
               "to, or `all`">,
  ];
  let dependentDialects = ["::tsir::aten::AtenDialect",
                           "::tsir::prim::PrimDialect"];
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

def TsirExternalizeWeightsPass
    : Pass<"tsir-externalize-weights", "mlir::func::FuncOp"> {
  let summary = "turn weight constants without data into function arguments";
  let description = [{
    A frozen graph's `<Tensor>` constants (`#prim.tensor_ref`) become
    trailing arguments of the graph, and the function's `prim.weight_names`
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

def TsirRefineUntilStablePass
    : Pass<"tsir-refine-until-stable", "mlir::func::FuncOp"> {
  let summary = "refine types and fold again until a round changes nothing";
  let description = [{
    A folded branch refines the types after it, which can fold the next
    one: torch.nn's attention tests each layer's input for its fast path
    (`x.is_cuda`, `str(x.device)`), and what one layer returns is known only
    once its own test folded. One round runs tsir-refine-types,
    tsir-decompose, prim-peephole, prim-constant-propagation and prim-dce;
    rounds repeat until one leaves the function as it was, at most
    `max-rounds` times (a bound against pathological graphs). The last step
    of tsir-specialize.
  }];
  let options = [
    Option<"maxRounds", "max-rounds", "unsigned", "32",
           "the most rounds to run">
  ];
}

#endif // TSIR_PASSES_TD
