# test_import.py - tsir.import_graph: text, files, MLIR, weights, located errors.
import re

import numpy as np
import pytest

import tsir

SIMPLE = """graph(%x.1 : Tensor,
      %n : int):
  %y.1 : Tensor = aten::mul(%x.1, %n)
  return (%y.1)
"""


def test_import_text():
    graph = tsir.import_graph(SIMPLE)
    assert isinstance(graph, tsir.Graph)
    assert graph.name == "<string>"
    assert [v.name for v in graph.inputs] == ["x.1", "n"]
    assert [n.kind for n in graph.nodes()] == ["aten::mul"]
    # str() is the MLIR of the module.
    assert "func.func @graph" in str(graph)
    assert "aten.mul." in str(graph)  # an overload of aten::mul


def test_import_path_str_and_pathlib(corpus):
    path = corpus / "if_select" / "graph.txt"
    by_str = tsir.import_graph(str(path))
    by_path = tsir.import_graph(path)
    assert by_str.name == str(path)
    assert by_str.to_torchscript() == by_path.to_torchscript()
    assert [v.name for v in by_path.inputs] == ["a.1", "b.1", "c.1"]


def test_import_mlir_text_and_file(corpus, tmp_path):
    graph = tsir.import_graph(corpus / "lstm_cell" / "graph.txt")
    mlir = graph.to_mlir(debug_info=True)
    from_text = tsir.import_graph(mlir)
    assert from_text.to_torchscript() == graph.to_torchscript()
    path = tmp_path / "lstm.mlir"
    path.write_text(mlir)
    from_file = tsir.import_graph(path)
    assert from_file.to_torchscript() == graph.to_torchscript()
    # Without locations the names are gone but the graph is the same.
    plain = tsir.import_graph(graph.to_mlir())
    assert len(plain.nodes(recurse=True)) == len(graph.nodes(recurse=True))


def test_error_in_text_names_line_and_column():
    text = "graph(%x : Tensor):\n  %y : Tensor = aten::relu(%z)\n  return (%y)\n"
    with pytest.raises(tsir.Error) as info:
        tsir.import_graph(text)
    assert re.match(r"<string>:2:\d+: error: use of undefined value '%z'", str(info.value))
    with pytest.raises(tsir.Error, match=r"^model\.txt:2:\d+: error"):
        tsir.import_graph(text, name="model.txt")


def test_error_in_file_names_the_file(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("graph(%x : Tensor):\n  %1 : int = prim::Constant[value=1]()\n"
                    "  %y : Tensor = aten::add(%x, %x %1)\n  return (%y)\n")
    with pytest.raises(tsir.Error) as info:
        tsir.import_graph(path)
    assert str(info.value).startswith(f"{path}:3:")
    assert "error:" in str(info.value)


def test_error_in_mlir_names_line():
    with pytest.raises(tsir.Error, match=r"^<string>:2:\d+: error"):
        tsir.import_graph("module {\n  func.func @graph( {\n}\n")
    with pytest.raises(tsir.Error, match="no func.func @graph"):
        tsir.import_graph("module {\n  func.func @other() { return }\n}\n")


def test_missing_file():
    with pytest.raises(tsir.Error, match="cannot read /no/such/graph.txt"):
        tsir.import_graph("/no/such/graph.txt")


def test_wrong_argument_types():
    with pytest.raises(TypeError):
        tsir.import_graph(42)
    with pytest.raises(TypeError):
        tsir.import_graph(SIMPLE, weights=[1, 2])


def test_weights_from_safetensors_and_dict(corpus):
    case = corpus / "small_cnn_frozen"
    from_file = tsir.import_graph(case / "graph.txt", weights=case / "weights.safetensors")
    weights = from_file.weights
    assert "self.fc.weight" in weights and weights["self.fc.weight"].shape == (10, 16)
    from_dict = tsir.import_graph(case / "graph.txt", weights=dict(weights))
    assert sorted(from_dict.weights) == sorted(weights)
    for name, array in weights.items():
        np.testing.assert_array_equal(from_dict.weights[name], array)


def test_missing_weight_is_located(corpus):
    case = corpus / "small_cnn_frozen"
    weights = tsir.import_graph(case / "graph.txt",
                                weights=case / "weights.safetensors").weights
    del weights["self.fc.weight"]
    with pytest.raises(tsir.Error) as info:
        tsir.import_graph(case / "graph.txt", weights=weights)
    message = str(info.value)
    assert re.match(rf"{re.escape(str(case / 'graph.txt'))}:\d+:\d+: error: "
                    r"weight 'self.fc.weight' is not among the weights given", message)


def test_weight_of_wrong_shape_is_located(corpus):
    case = corpus / "small_cnn_frozen"
    weights = tsir.import_graph(case / "graph.txt",
                                weights=case / "weights.safetensors").weights
    weights["self.fc.weight"] = np.zeros((16, 10), np.float32)
    with pytest.raises(tsir.Error, match=r"graph.txt:\d+:\d+: error: weight "
                       r"'self.fc.weight' is Float\[16, 10\], which does not fit"):
        tsir.import_graph(case / "graph.txt", weights=weights)


def test_bad_weights_file(tmp_path):
    path = tmp_path / "w.safetensors"
    path.write_bytes(b"\x05\x00\x00\x00\x00\x00\x00\x00{nope")
    with pytest.raises(tsir.Error):
        tsir.import_graph(SIMPLE, weights=path)
