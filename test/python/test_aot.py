# test_aot.py - tsir.compile_model and tsir.load_model: model.so from Python, torch the oracle.
import json
import subprocess

import numpy as np
import pytest

import tsir
from conftest import tool_env, tsir_tool

torch = pytest.importorskip("torch")
nn = torch.nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x, k: float):
        h = torch.relu(self.fc1(x)) * k
        return self.fc2(h), h.sum()


@pytest.fixture(scope="module")
def net():
    torch.manual_seed(0)
    return Net().eval()


@pytest.fixture(scope="module")
def compiled(net, tmp_path_factory):
    """One model, compiled from example inputs (compiling takes seconds)."""
    path = tmp_path_factory.mktemp("aot") / "model.so"
    spec = tsir.compile_model(tsir.from_torch(net), path,
                              example_inputs=[torch.randn(4, 6), 0.5])
    return path, spec


def expected(net, x, k):
    with torch.no_grad():
        return net(torch.as_tensor(x), k)


def test_round_trip_matches_torch(net, compiled):
    path, spec = compiled
    assert spec == "Float(4, 6), float"
    model = tsir.load_model(path)
    assert model.spec == spec and model.device == "cpu"
    assert model.input_names == ["x.1", "k.1"]
    assert model.input_types == ["Float(4, 6)", "float"]
    assert model.num_outputs == 2
    assert json.loads(model.signature)["spec"] == spec
    x = torch.randn(4, 6)
    y, total = model(x, 1.5)  # torch in, torch out
    want_y, want_total = expected(net, x, 1.5)
    assert isinstance(y, torch.Tensor)
    assert torch.allclose(y, want_y, atol=1e-5)
    assert torch.allclose(total, want_total, atol=1e-4)
    y, total = model(x.numpy(), np.float64(2.0))  # numpy in, numpy out
    assert isinstance(y, np.ndarray)
    np.testing.assert_allclose(y, expected(net, x, 2.0)[0].numpy(), atol=1e-5)


def test_model_checks_its_inputs(compiled):
    model = tsir.load_model(compiled[0])
    with pytest.raises(tsir.Error, match="takes 2 inputs"):
        model(np.ones((4, 6), np.float32))
    with pytest.raises(tsir.Error):
        model(np.ones((5, 6), np.float32), 1.0)
    with pytest.raises(tsir.Error):
        model(np.ones((4, 6), np.float64), 1.0)


def test_tsir_run_runs_it(net, compiled, tmp_path):
    tsir_run = tsir_tool("tsir-run")
    x = torch.randn(4, 6)
    np.save(tmp_path / "x.npy", x.numpy())
    subprocess.run([tsir_run, compiled[0], "--input", "x.npy", "--input", "0.25",
                    "--output-dir", "out"],
                   cwd=tmp_path, env=tool_env(), check=True, capture_output=True)
    np.testing.assert_allclose(np.load(tmp_path / "out" / "out0.npy"),
                               expected(net, x, 0.25)[0].numpy(), atol=1e-5)


def test_spec_and_external_weights(net, tmp_path):
    graph = tsir.from_torch(net)
    path = tmp_path / "model.so"
    weights = tmp_path / "weights.safetensors"
    spec = tsir.compile_model(graph, path, spec="Float(2, 6), float",
                              external_weights=weights)
    assert spec == "Float(2, 6), float"
    signature = json.loads(tsir.load_model(path).signature)
    assert signature["weights"]["embedded"] is False
    assert signature["weights"]["file"] == str(weights)
    x = torch.randn(2, 6)
    # The file the model names, and the same file given again.
    for model in [tsir.load_model(path), tsir.load_model(path, weights=weights)]:
        assert torch.allclose(model(x, 1.0)[0], expected(net, x, 1.0)[0], atol=1e-5)
    weights.unlink()
    with pytest.raises(tsir.Error, match="weights"):
        tsir.load_model(path)


def test_compile_errors(net, tmp_path):
    graph = tsir.from_torch(net)
    path = tmp_path / "model.so"
    with pytest.raises(tsir.Error, match="one of them"):
        tsir.compile_model(graph, path)
    with pytest.raises(tsir.Error, match="one of them"):
        tsir.compile_model(graph, path, spec="Float(2, 6), float",
                           example_inputs=[torch.ones(2, 6), 1.0])
    with pytest.raises(tsir.Error):
        tsir.compile_model(graph, path, example_inputs=[torch.ones(2, 5), 1.0])
    with pytest.raises(tsir.Error):
        tsir.compile_model(graph, path, spec="Float(2, 6)")
    with pytest.raises(tsir.Error, match="cpu or cuda"):
        tsir.compile_model(graph, path, spec="Float(2, 6), float", device="tpu")
    with pytest.raises(TypeError):
        tsir.compile_model(net, path, spec="Float(2, 6), float")
    with pytest.raises(tsir.Error, match="cannot load"):
        tsir.load_model(tmp_path / "missing.so")
    assert not path.exists()


def test_outputs_outlive_the_model(net, compiled):
    # The runtime frees outputs through the library's own code: an output
    # kept after its Model is gone must keep the library loaded.
    x = torch.randn(4, 6)
    y, total = tsir.load_model(compiled[0])(x.numpy(), 1.0)
    import gc
    gc.collect()
    np.testing.assert_allclose(y, expected(net, x, 1.0)[0].numpy(), atol=1e-5)
    del y, total
    gc.collect()
