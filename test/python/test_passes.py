# test_passes.py - optimize, run_pass, to_torchscript round trips, copy.
import numpy as np
import pytest

import tsir

REDUNDANT = """graph(%x : Tensor):
  %1 : int = prim::Constant[value=1]()
  %a : Tensor = aten::mul(%x, %x)
  %b : Tensor = aten::mul(%x, %x)
  %dead : Tensor = aten::sin(%x)
  %c : Tensor = aten::add(%a, %b, %1)
  return (%c)
"""


def kinds(graph, recurse=False):
    return [n.kind for n in graph.nodes(recurse=recurse)]


def test_run_pass_by_name():
    graph = tsir.import_graph(REDUNDANT)
    graph.run_pass("prim-cse")
    assert kinds(graph).count("aten::mul") == 1
    assert "aten::sin" in kinds(graph)
    graph.run_pass("prim-dce")
    assert kinds(graph) == ["prim::Constant", "aten::mul", "aten::add"]
    add = graph.nodes()[2]
    assert add.inputs[0] == add.inputs[1]


def test_run_pass_pipelines():
    for pipeline in ["prim-cse,prim-dce", "func.func(prim-cse, prim-dce)",
                     "builtin.module(func.func(prim-cse),prim-dce)",
                     "prim-cse, tsir-optimize{fuse=false}, canonicalize"]:
        graph = tsir.import_graph(REDUNDANT)
        graph.run_pass(pipeline)
        assert kinds(graph).count("aten::mul") == 1, pipeline
        assert "aten::sin" not in kinds(graph) or pipeline.endswith("canonicalize"), pipeline


def test_run_pass_errors_leave_the_graph_alone(corpus):
    graph = tsir.import_graph(corpus / "if_select" / "graph.txt")
    before = graph.to_mlir(debug_info=True)
    with pytest.raises(tsir.Error, match="'no-such-pass' does not refer to a registered pass"):
        graph.run_pass("no-such-pass")
    with pytest.raises(tsir.Error, match="no such option"):
        graph.run_pass("prim-cse{bogus=1}")
    # A pass that fails on this graph reports where, and changes nothing.
    with pytest.raises(tsir.Error, match=r"graph.txt:1:1: error: arg-spec has 1 entry "
                       r"but @graph takes 3 inputs"):
        graph.run_pass("tsir-refine-types{arg-spec='Float(2, 3)'}")
    assert graph.to_mlir(debug_info=True) == before
    graph.run_pass("tsir-refine-types{arg-spec='Float(2, 3), Float(2, 3), _'}")
    assert str(graph.inputs[0].type) == "Float(2, 3)"
    assert str(graph.nodes()[1].outputs[0].type) == "Float(2, 3)"


def test_optimize_and_its_options(corpus):
    graph = tsir.import_graph(corpus / "pointwise_chain" / "graph.txt")
    unfused = graph.copy()
    unfused.optimize(fuse=False)
    assert "prim::FusionGroup" not in kinds(unfused)
    assert kinds(unfused).count("aten::mul") == 2
    graph.optimize()
    assert kinds(graph) == ["prim::FusionGroup"]
    assert "with prim::FusionGroup_0 = graph(" in graph.to_torchscript()
    with pytest.raises(tsir.Error, match="bogus"):
        graph.optimize(bogus=True)


def test_optimize_unroll_option(corpus):
    path = corpus / "loop_square" / "graph.txt"
    kept = tsir.import_graph(path)
    kept.optimize(unroll=False, fuse=False)
    unrolled = tsir.import_graph(path)
    unrolled.optimize(fuse=False)
    assert len(kept.find_nodes("prim::Loop")) == 1
    # A trip count not known: unrolled by 8 with an epilogue loop.
    assert len(unrolled.find_nodes("prim::Loop")) == 2
    squares = [n for n in unrolled.find_nodes("aten::mul")
               if n.outputs[0].type.kind == "TensorType"]
    assert len(squares) == 9
    # inline_subgraphs is spelled inline-subgraphs in the pipeline.
    kept.optimize(inline_subgraphs=False)


def test_copy_is_independent():
    graph = tsir.import_graph(REDUNDANT)
    copy = graph.copy()
    copy.optimize()
    assert kinds(graph).count("aten::mul") == 2
    assert kinds(copy) != kinds(graph)
    assert [v.name for v in copy.inputs] == ["x"]


def test_export_round_trip(corpus):
    for name in ["lstm_cell", "while_loop", "list_ops", "small_cnn_frozen"]:
        graph = tsir.import_graph(corpus / name / "graph.txt")
        text = graph.to_torchscript()
        again = tsir.import_graph(text)
        assert again.to_torchscript() == text, name
        assert again.to_mlir() == graph.to_mlir(), name


def test_optimized_export_runs_in_torch(corpus):
    """torch is the oracle: the optimized graph, exported, computes what
    the case recorded."""
    torch = pytest.importorskip("torch")
    from conftest import Case
    case = Case("lstm_cell")
    graph = tsir.import_graph(case.graph_path)
    graph.optimize(fuse=False)
    function = torch._C._create_function_from_graph(
        "f", torch._C.parse_ir(graph.to_torchscript()))
    inputs = [torch.from_numpy(a) for a in case.inputs()]
    outputs = function(*inputs)
    for actual, expected in zip(outputs, case.expected()):
        assert case.close(actual.numpy(), expected)


def test_export_failure_is_an_error(corpus):
    graph = tsir.import_graph(corpus / "pointwise_chain" / "graph.txt")
    graph.run_pass("tsir-refine-types{arg-spec='Float(4), Float(4)'}")
    graph.run_pass("tsir-lower-to-linalg")
    with pytest.raises(tsir.Error, match="cannot export"):
        graph.to_torchscript()
    # Lowered graphs can still be walked: kinds fall back to MLIR op names.
    assert any(kind.startswith("linalg.") for kind in kinds(graph, recurse=True))


def test_lowered_to_llvm_graph_is_no_longer_walkable(corpus):
    graph = tsir.import_graph(corpus / "pointwise_chain" / "graph.txt")
    graph.run_pass("tsir-refine-types{arg-spec='Float(4), Float(4)'}")
    graph.run_pass("tsir-lower-to-llvm")
    assert "llvm.func @graph" in str(graph)
    with pytest.raises(tsir.Error, match="no func.func @graph"):
        graph.nodes()
    with pytest.raises(tsir.Error, match="no func.func @graph"):
        tsir.compile(graph)
