# test_weights.py - tsir.save_weights: graphs', modules' and dicts' weights as safetensors.
import json
import struct
import subprocess

import numpy as np
import pytest

import tsir
from conftest import tool_env, tsir_tool

torch = pytest.importorskip("torch")
nn = torch.nn


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)
        self.register_buffer("scale", torch.linspace(0.5, 1.5, 3))

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x))) * self.scale


ELEMENT_SIZES = {"F64": 8, "I64": 8, "F32": 4, "I32": 4, "F16": 2, "BF16": 2,
                 "I16": 2, "I8": 1, "U8": 1, "BOOL": 1}


def plus_one(x):
    return x + 1


def mlp():
    torch.manual_seed(0)
    return Mlp().eval()


def frozen(net):
    return torch.jit.freeze(torch.jit.script(net))


def frozen_on_disk(directory, weights):
    """A seeded Mlp, frozen, as the command-line tools read it: its graph
    in `directory`/graph.txt, its weights in `directory`/`weights`.
    Returns (the eager module, the frozen one)."""
    net = mlp()
    module = frozen(net)
    (directory / "graph.txt").write_text(str(module.inlined_graph))
    tsir.save_weights(directory / weights, module)
    return net, module


def read_safetensors(path):
    """The file as the format defines it, read independently of tsir: the
    header and each tensor's raw bytes."""
    data = path.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    body = data[8 + length:]
    raw = {name: body[entry["data_offsets"][0]:entry["data_offsets"][1]]
           for name, entry in header.items() if name != "__metadata__"}
    return header, raw


def test_frozen_module_text_runs_with_its_file(tmp_path):
    net = mlp()
    module = frozen(net)
    path = tmp_path / "weights.safetensors"
    names = tsir.save_weights(path, module)
    torch_graph = module.inlined_graph  # a fresh graph per access: keep one
    text = str(torch_graph)
    # Exactly the tensor constants the printed graph names.
    assert sorted(names) == sorted(
        n.output().debugName() for n in torch_graph.findAllNodes("prim::Constant")
        if n.output().type().kind() == "TensorType")
    graph = tsir.import_graph(text, weights=path)
    x = torch.randn(4, 6)
    with torch.no_grad():
        assert torch.allclose(tsir.compile(graph)(x), net(x), atol=1e-6)


def test_unfrozen_module_is_frozen_with_the_same_names(tmp_path):
    net = mlp()
    path = tmp_path / "weights.safetensors"
    tsir.save_weights(path, net)  # scripted and frozen on the way
    graph = tsir.import_graph(str(frozen(net).inlined_graph), weights=path)
    x = torch.randn(2, 6)
    with torch.no_grad():
        assert torch.allclose(tsir.compile(graph)(x), net(x), atol=1e-6)


def test_training_mode_module_saves_its_state_by_qualified_name(tmp_path):
    net = Mlp().train()
    names = tsir.save_weights(tmp_path / "weights.safetensors", net)
    assert sorted(names) == sorted(["self.fc1.weight", "self.fc1.bias",
                                    "self.fc2.weight", "self.fc2.bias",
                                    "self.scale"])


def test_tsir_run_reads_the_file(tmp_path):
    tsir_run = tsir_tool("tsir-run")
    net, _ = frozen_on_disk(tmp_path, "weights.safetensors")
    x = torch.randn(3, 6)
    np.save(tmp_path / "x.npy", x.numpy())
    subprocess.run([tsir_run, "graph.txt", "--weights", "weights.safetensors",
                    "--input", "x.npy", "--output-dir", "out", "--quiet"],
                   cwd=tmp_path, env=tool_env(), check=True, capture_output=True)
    with torch.no_grad():
        np.testing.assert_allclose(np.load(tmp_path / "out" / "out0.npy"),
                                   net(x).numpy(), atol=1e-6)


def test_graph_weights_go_under_their_exported_names(tmp_path):
    net = mlp()
    graph = tsir.from_torch(net)
    path = tmp_path / "weights.safetensors"
    assert sorted(tsir.save_weights(path, graph)) == sorted(graph.weights)
    header, raw = read_safetensors(path)
    for name, array in graph.weights.items():
        assert header[name]["dtype"] == "F32"
        assert header[name]["shape"] == list(array.shape)
        assert raw[name] == np.ascontiguousarray(array).tobytes()
    again = tsir.import_graph(graph.to_torchscript(), weights=path)
    x = torch.randn(5, 6)
    with torch.no_grad():
        assert torch.allclose(tsir.compile(again)(x), net(x), atol=1e-6)


def test_weights_held_in_mlir_are_saved_by_value_name(tmp_path):
    # tsir-translate imports the weights into the module (dense_resource).
    translate = tsir_tool("tsir-translate")
    net, module = frozen_on_disk(tmp_path, "w.safetensors")
    mlir = subprocess.run(
        [translate, "--import-torchscript", "graph.txt", "--weights", "w.safetensors",
         "--mlir-print-debuginfo"],
        cwd=tmp_path, env=tool_env(), check=True, capture_output=True, text=True).stdout
    graph = tsir.import_graph(mlir)
    assert not graph.weights  # none attached: they are in the module
    path = tmp_path / "again.safetensors"
    assert sorted(tsir.save_weights(path, graph)) == sorted(tsir.save_weights(tmp_path / "x", module))
    again = tsir.import_graph(graph.to_torchscript(), weights=path)
    x = torch.randn(2, 6)
    with torch.no_grad():
        assert torch.allclose(tsir.compile(again)(x), net(x), atol=1e-6)


def test_bfloat16_graph_weights_keep_their_dtype(tmp_path):
    net = mlp().to(torch.bfloat16)
    graph = tsir.from_torch(net)
    path = tmp_path / "weights.safetensors"
    tsir.save_weights(path, graph)
    header, raw = read_safetensors(path)
    weight = net.fc1.weight.detach()
    assert header["self.fc1.weight"]["dtype"] == "BF16"
    assert raw["self.fc1.weight"] == weight.view(torch.int16).numpy().tobytes()


def test_dict_of_every_dtype(tmp_path):
    weights = {
        "f32": np.arange(6, dtype=np.float32).reshape(2, 3),
        "f64": np.linspace(0, 1, 4),
        "f16": np.ones(3, np.float16),
        "i64": np.array([-1, 2**40], np.int64),
        "i32": np.arange(3, dtype=np.int32),
        "i16": np.array([-7], np.int16),
        "i8": np.array([-128, 127], np.int8),
        "u8": np.array([255], np.uint8),
        "bool": np.array([True, False]),
        "transposed": np.arange(6, dtype=np.float32).reshape(2, 3).T,
        "scalar": np.float32(2.5) * np.ones((), np.float32),
        "bf16": torch.tensor([1.5, -2.0], dtype=torch.bfloat16),
        "torch": torch.randn(2, 2, requires_grad=True),
    }
    path = tmp_path / "weights.safetensors"
    assert tsir.save_weights(str(path), weights) == list(weights)
    header, raw = read_safetensors(path)
    dtypes = {name: entry["dtype"] for name, entry in header.items()}
    assert dtypes == {"f32": "F32", "f64": "F64", "f16": "F16", "i64": "I64",
                      "i32": "I32", "i16": "I16", "i8": "I8", "u8": "U8",
                      "bool": "BOOL", "transposed": "F32", "scalar": "F32",
                      "bf16": "BF16", "torch": "F32"}
    assert header["transposed"]["shape"] == [3, 2]
    assert header["scalar"]["shape"] == []
    # Data aligned for mapping: every tensor starts at a multiple of its
    # element size, the data section at a multiple of 8.
    assert (8 + struct.unpack("<Q", path.read_bytes()[:8])[0]) % 8 == 0
    for name, entry in header.items():
        assert entry["data_offsets"][0] % ELEMENT_SIZES[entry["dtype"]] == 0, name
    for name, value in weights.items():
        if name == "bf16":
            expected = value.view(torch.int16).numpy().tobytes()
        elif name == "torch":
            expected = value.detach().numpy().tobytes()
        else:
            expected = np.ascontiguousarray(value).tobytes()
        assert raw[name] == expected, name


def test_errors(tmp_path):
    path = tmp_path / "weights.safetensors"
    with pytest.raises(tsir.Error, match="cannot save weight 'c'.*complex"):
        tsir.save_weights(path, {"c": torch.ones(2, dtype=torch.complex64)})
    with pytest.raises(tsir.Error, match="cannot save weight 'u'.*uint16"):
        tsir.save_weights(path, {"u": np.ones(2, np.uint16)})
    with pytest.raises(tsir.Error, match="no weights"):
        tsir.save_weights(path, {})
    with pytest.raises(tsir.Error, match="no weights"):
        tsir.save_weights(path, tsir.import_graph(
            "graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x)\n  return (%y)\n"))
    with pytest.raises(tsir.Error, match=r"no weights"):
        tsir.save_weights(path, torch.jit.script(plus_one))
    with pytest.raises(tsir.Error, match="reserved"):
        tsir.save_weights(path, {"__metadata__": np.ones(1)})
    with pytest.raises(tsir.Error, match="cannot"):
        tsir.save_weights(tmp_path / "no" / "such" / "dir.safetensors", {"a": np.ones(1)})
    with pytest.raises(TypeError):
        tsir.save_weights(path, 42)
    with pytest.raises(TypeError):
        tsir.save_weights(path, {1: np.ones(1)})
    assert not path.exists()
