# test_traversal.py - walking a graph: nodes, blocks, values, types, attributes, dot.
import re

import numpy as np
import pytest

import tsir


@pytest.fixture
def if_select(corpus):
    return tsir.import_graph(corpus / "if_select" / "graph.txt")


@pytest.fixture
def small_cnn(corpus):
    case = corpus / "small_cnn_frozen"
    return tsir.import_graph(case / "graph.txt", weights=case / "weights.safetensors")


def test_nodes_in_order_and_recursively(if_select):
    assert [n.kind for n in if_select.nodes()] == ["prim::Constant", "aten::add", "prim::If"]
    # Each block's nodes right after the node that owns it.
    assert [n.kind for n in if_select.nodes(recurse=True)] == [
        "prim::Constant", "aten::add", "prim::If", "aten::add", "aten::add"]
    assert len(if_select.find_nodes("aten::add")) == 3
    assert if_select.find_nodes("aten::mul") == []


def test_inputs_outputs_and_names(if_select):
    assert [v.name for v in if_select.inputs] == ["a.1", "b.1", "c.1"]
    assert [v.name for v in if_select.outputs] == ["e"]
    add = if_select.nodes()[1]
    assert add.op_name == "aten.add.Tensor"
    assert [v.name for v in add.inputs] == ["a.1", "b.1", "3"]
    assert [v.name for v in add.outputs] == ["d.1"]
    assert add.location.endswith("if_select/graph.txt:5:19")
    assert add.source == "cases/if_select.py:8:8"
    assert add.scope is None
    assert repr(add) == "<tsir.Node %d.1 = aten::add(%a.1, %b.1, %3)>"


def test_blocks(if_select):
    if_node = if_select.nodes()[2]
    then_block, else_block = if_node.blocks
    assert then_block.owner == if_node
    assert then_block.inputs == []
    assert [v.name for v in then_block.outputs] == ["e.1"]
    assert [v.name for v in else_block.outputs] == ["e.3"]
    inner = else_block.nodes()[0]
    assert [v.name for v in inner.inputs] == ["b.1", "d.1", "3"]
    assert inner.owner == if_node
    assert if_node.owner is None
    assert else_block.return_node.kind == "prim::Return"


def test_loop_block_inputs(corpus):
    graph = tsir.import_graph(corpus / "loop_square" / "graph.txt")
    loop = graph.nodes()[-1]
    assert loop.kind == "prim::Loop"
    body = loop.blocks[0]
    assert [(v.name, str(v.type)) for v in body.inputs] == [("i", "int"), ("z.11", "Tensor")]
    assert body.inputs[1].producer is None
    assert [v.name for v in body.outputs] == ["1", "z.5"]


def test_producer_and_uses(if_select):
    constant, add, if_node = if_select.nodes()
    d = add.outputs[0]
    assert d.producer == add
    assert d.index == 0
    then_add = if_node.blocks[0].nodes()[0]
    else_add = if_node.blocks[1].nodes()[0]
    assert d.uses == [(then_add, 0), (then_add, 1), (else_add, 1)]
    assert if_select.inputs[0].producer is None
    assert if_select.inputs[2].uses == [(if_node, 0)]
    # The graph's output is used by the return node.
    (user, index), = if_node.outputs[0].uses
    assert user.kind == "prim::Return" and index == 0
    assert user == if_select.return_node
    assert len(constant.outputs[0].uses) == 3


def test_handles_compare_and_hash(if_select):
    first = if_select.nodes()
    second = if_select.nodes()
    assert first == second
    assert len({*first, *second}) == 3
    values = {v: v.name for v in if_select.inputs}
    assert values[if_select.inputs[1]] == "b.1"
    assert first[0] != first[1]


def test_types(small_cnn):
    by_name = {n.outputs[0].name: n.outputs[0] for n in small_cnn.nodes() if n.outputs}
    weight = by_name["self.fc.weight"].type
    assert str(weight) == "Float(10, 16, strides=[16, 1], requires_grad=0, device=cpu)"
    assert weight.kind == "TensorType"
    assert weight.dtype == "Float"
    assert weight.sizes == [10, 16]
    assert weight.strides == [16, 1]
    assert weight.device == "cpu"
    assert weight.requires_grad is False
    assert "dtype = f32" in weight.mlir
    lst = by_name["118"].type
    assert (str(lst), lst.kind, [str(t) for t in lst.contained]) == ("int[]", "ListType", ["int"])
    assert lst.dtype is None and lst.sizes is None
    assert by_name["116"].type.kind == "IntType"
    assert by_name["92"].type.kind == "StringType"
    assert by_name["self.bn.training"].type.kind == "BoolType"
    self_type = small_cnn.inputs[0].type
    assert self_type.kind == "ClassType" and str(self_type).startswith("__torch__.")
    plain = small_cnn.inputs[1].type
    assert str(plain) == "Tensor" and plain.dtype is None and plain.sizes is None


def test_partly_known_sizes():
    graph = tsir.import_graph("graph(%x : Float(2, *, 3)):\n  return (%x)\n")
    assert graph.inputs[0].type.sizes == [2, None, 3]
    assert graph.inputs[0].type.device is None


def test_constant_attributes(small_cnn):
    attributes = {n.outputs[0].name: n.attributes for n in small_cnn.nodes()
                  if n.kind == "prim::Constant"}
    assert attributes["116"] == {"value": 2}
    assert attributes["92"] == {"value": "AssertionError: "}
    assert attributes["121"] == {"value": [0, 0]}
    assert attributes["6"] == {}  # None: prim::Constant()
    assert attributes["self.bn.training"] == {"value": False}
    # A <Tensor> constant gives its attached weight.
    np.testing.assert_array_equal(attributes["self.fc.weight"]["value"],
                                  small_cnn.weights["self.fc.weight"])
    # A small tensor torch printed inline gives its printed digits.
    inline = attributes["self.fc.bias"]["value"]
    assert inline.shape == (10,) and inline.dtype == np.float32
    np.testing.assert_allclose(inline, small_cnn.weights["self.fc.bias"], atol=1e-4)


def test_generic_node_attributes():
    graph = tsir.import_graph(
        "graph(%x : Tensor):\n"
        "  %y : Tensor = my_ns::magic[alpha=2, names=[\"a\", \"b\"]](%x)\n"
        "  return (%y)\n")
    node, = graph.nodes()
    assert node.kind == "my_ns::magic"
    assert node.attributes == {"alpha": 2, "names": ["a", "b"]}


def test_stale_handles_raise(corpus):
    graph = tsir.import_graph(corpus / "pointwise_chain" / "graph.txt")
    node = graph.nodes()[1]
    value = graph.inputs[0]
    graph.optimize()
    with pytest.raises(tsir.Error, match="walk the graph again"):
        node.kind
    with pytest.raises(tsir.Error, match="walk the graph again"):
        value.uses
    # Fresh handles work.
    assert [n.kind for n in graph.nodes()] == ["prim::FusionGroup"]


def test_subgraph_node(corpus):
    graph = tsir.import_graph(corpus / "pointwise_chain" / "graph.txt")
    graph.optimize()
    group, = graph.nodes()
    body, = group.blocks
    assert [v.name for v in body.inputs] == ["a.1", "b.1"]
    assert [n.kind for n in body.nodes()] == [
        "prim::Constant", "aten::add", "aten::mul", "aten::mul", "aten::tanh",
        "aten::add", "aten::add"]
    assert len(graph.nodes(recurse=True)) == 8


def test_to_dot(if_select):
    dot = if_select.to_dot()
    assert dot.startswith("digraph ") and dot.rstrip().endswith("}")
    node_lines = re.findall(r"^\s*(n\d+) \[", dot, re.M)
    # Every node and every return node is a box or an oval.
    assert len(node_lines) == len(if_select.nodes(recurse=True)) + 3
    edges = re.findall(r"^\s*(\w+) -> (\w+) \[label=\"%([^\"]+)\"\]", dot, re.M)
    operands = sum(len(n.inputs) for n in if_select.nodes(recurse=True))
    returns = len(if_select.outputs) + 2  # the graph's and each branch's
    assert len(edges) == operands + returns
    assert ("graph_in2", "n2", "c.1") in edges  # %c.1 feeds the prim::If
    assert dot.count("subgraph cluster_") == 2
    assert '[label="aten::add"]' in dot


CONSTANTS = '''graph(%x : Tensor):
  %l : int[] = prim::Constant[value=[2, 3]]()
  %t : (int, str) = prim::Constant[value=(1, "a")]()
  %s : str = prim::Constant[value="say \\"hi\\""]()
  %n : NoneType = prim::Constant()
  %d : Device = prim::Constant[value="cpu"]()
  %b : bool = prim::Constant[value=1]()
  %f : float = prim::Constant[value=0.10000000000000001]()
  %fl : float[] = prim::Constant[value=[1., 2.5]]()
  %c : Tensor = prim::Constant[value= 1.5  2 [ CPUFloatType{2} ]]()
  %w : Float(3, 4, strides=[4, 1], requires_grad=0, device=cpu) = prim::Constant[value=<Tensor>]()
  %long : int[] = prim::Constant[value=[100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114]]()
  %y : Tensor = aten::view(%x, %l)
  return (%y, %t, %s, %n, %d, %b, %f, %fl, %c, %w, %long)
'''


def constant_labels(graph):
    """The value line of each constant's box, dot's escapes undone."""
    dot = graph.to_dot()
    labels = re.findall(r'label="prim::Constant\\n((?:[^"\\]|\\.)*)"', dot)
    return [re.sub(r"\\(.)", r"\1", label) for label in labels]


def test_to_dot_shows_every_constant_value():
    assert constant_labels(tsir.import_graph(CONSTANTS)) == [
        "[2, 3]", '(1, "a")', r'"say \"hi\""', "None", '"cpu"', "True", "0.1",
        "[1., 2.5]", "[1.5, 2.] Float(2)", "w Float(3, 4)",
        "[100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 1...",
    ]


def test_to_dot_shows_weights_by_name_and_type(small_cnn):
    labels = constant_labels(small_cnn)
    assert "self.fc.weight Float(10, 16)" in labels
    assert "[0, 0]" in labels  # int[] constants
    # Tensors printed inline: the first values and the type; with more
    # than 8 elements the type only.
    assert "[0.0358, -0.1807, -0.0186, 0...] Float(8)" in labels
    assert "Float(10)" in labels
