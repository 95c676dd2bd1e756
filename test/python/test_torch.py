# test_torch.py - tsir.from_torch on scripted, traced and frozen torch code.
from typing import Optional

import numpy as np
import pytest

import tsir

torch = pytest.importorskip("torch")
nn = torch.nn


@torch.jit.script
def clipped_poly(x, y, n: int):
    z = x * y + 1.0
    if bool(z.sum() > 0):
        z = torch.clamp(z, -1.0, 2.0)
    for _ in range(n):
        z = z * 0.5 + y
    return z, z.mean()


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4, 5)

    def forward(self, x):
        # Only a method call, as torchvision's ResNet does: the attribute
        # reads show once the call is inlined.
        return self._forward_impl(x)

    def _forward_impl(self, x):
        x = torch.relu(self.bn(self.conv(x)))
        x = torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1)
        return torch.softmax(self.fc(x), dim=-1)


def small_net():
    torch.manual_seed(0)
    net = SmallNet().eval()
    # Non-trivial batch-norm statistics, so folding them shows.
    net.bn.running_mean.uniform_(-0.5, 0.5)
    net.bn.running_var.uniform_(0.5, 1.5)
    return net


def test_scripted_function():
    graph = tsir.from_torch(clipped_poly)
    assert graph.name == "<torch clipped_poly>"
    assert [v.name for v in graph.inputs] == ["x.1", "y.1", "n.1"]
    assert graph.find_nodes("prim::If") and graph.find_nodes("prim::Loop")
    f = tsir.compile(graph)
    torch.manual_seed(1)
    for shape, n in [((3, 4), 2), ((5,), 0), ((3, 4), 3)]:
        x, y = torch.randn(shape), torch.randn(shape)
        z, mean = f(x, y, n)
        want_z, want_mean = clipped_poly(x, y, n)
        assert torch.allclose(z, want_z, atol=1e-6)
        assert torch.allclose(mean, want_mean, atol=1e-6)
    assert len(f.plans) == 2


def test_traced_function():
    traced = torch.jit.trace(lambda a, b: torch.tanh(a @ b) * 2, (torch.ones(2, 3), torch.ones(3, 4)))
    f = tsir.compile(tsir.from_torch(traced))
    a, b = torch.randn(2, 3), torch.randn(3, 4)
    assert torch.allclose(f(a, b), traced(a, b), atol=1e-6)


def test_frozen_module_has_its_weights():
    net = small_net()
    frozen = torch.jit.freeze(torch.jit.script(net))
    graph = tsir.from_torch(frozen)
    # The frozen graph's tensor constants are the graph's weights, by name.
    tensor_constants = [n.outputs[0].name for n in graph.find_nodes("prim::Constant")
                        if n.outputs[0].type.kind == "TensorType"]
    assert tensor_constants and sorted(graph.weights) == sorted(tensor_constants)
    assert any(name.endswith("weight_fused_bn") for name in graph.weights)
    assert graph.inputs[0].type.kind == "ClassType"  # self, which callers do not pass
    f = tsir.compile(graph)
    assert f.input_names == ["x.1"]
    x = torch.randn(2, 3, 6, 6)
    with torch.no_grad():
        assert torch.allclose(f(x), net(x), atol=1e-5)
    np.testing.assert_allclose(f(x.numpy()), net(x).detach().numpy(), atol=1e-5)


def test_modules_are_scripted_and_frozen_on_the_way():
    net = small_net()
    x = torch.randn(1, 3, 4, 4)
    with torch.no_grad():
        expected = net(x)
    for source in [net, torch.jit.script(net)]:
        graph = tsir.from_torch(source)
        assert not graph.find_nodes("prim::GetAttr")
        assert torch.allclose(tsir.compile(graph)(x), expected, atol=1e-5)


def test_traced_module():
    net = small_net()
    x = torch.randn(1, 3, 5, 5)
    traced = torch.jit.trace(net, x)
    with torch.no_grad():
        assert torch.allclose(tsir.compile(tsir.from_torch(traced))(x), net(x), atol=1e-5)


def test_training_mode_reads_the_state_unfolded():
    torch.manual_seed(0)
    net = SmallNet().train()
    graph = tsir.from_torch(torch.jit.script(net))
    # Every parameter and buffer is a weight by its qualified name, and
    # batch norm uses the batch's statistics, as the module does.
    assert set(graph.weights) >= {"self." + n for n, _ in net.named_parameters()}
    assert "self.bn.running_mean" in graph.weights
    assert graph.parameter_names == ["self." + n for n, _ in net.named_parameters()]
    x = torch.randn(3, 3, 5, 5)
    expected = net(x).detach()
    torch.testing.assert_close(tsir.compile(graph, plan_cache=False)(x), expected)


class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return x * 2


def test_training_mode_and_bad_objects():
    with pytest.raises(tsir.Error, match="sets self attribute 'calls'.*"
                                         r"\.eval\(\)"):
        tsir.from_torch(Counter().train())
    with pytest.raises(TypeError):
        tsir.from_torch(42)


class SelfAttention(nn.Module):
    """nn.MultiheadAttention as a model calls it, without the weights."""

    def __init__(self):
        super().__init__()
        self.attention = nn.MultiheadAttention(16, 4, batch_first=True)

    def forward(self, x):
        return self.attention(x, x, x, need_weights=False)[0]


@pytest.mark.parametrize("make", [
    SelfAttention,
    lambda: nn.TransformerEncoderLayer(16, 4, 32, batch_first=True),
    lambda: nn.TransformerEncoderLayer(16, 4, 32, batch_first=True,
                                       norm_first=True, activation="gelu"),
])
def test_transformer_layers_take_their_fast_path(make):
    # In eval mode these call ATen's fused `_native_multi_head_attention`
    # and `_transformer_encoder_layer_fwd`, behind tests of autocast,
    # nested tensors, devices and `query is key` that tsir answers when it
    # specializes the graph; the fused ops decompose into what they do.
    torch.manual_seed(0)
    module = make().eval()
    x = torch.randn(2, 5, 16)
    f = tsir.compile(tsir.from_torch(module))
    # The encoder layer's masks are Optional inputs that default to None:
    # omitted, as calling the module omits them.
    with torch.no_grad():
        expected = module(x)
    np.testing.assert_allclose(f(x).numpy(), expected.numpy(),
                               rtol=1e-4, atol=1e-5)


def test_omitted_arguments_take_the_forward_defaults():
    class Scaled(nn.Module):
        def forward(self, x, scale: float = 2.0, bias: Optional[torch.Tensor] = None):
            y = x * scale
            if bias is not None:
                y = y + bias
            return y

    f = tsir.compile(tsir.from_torch(Scaled().eval()))
    x = torch.ones(2, 3)
    np.testing.assert_allclose(f(x).numpy(), np.full((2, 3), 2.0))
    np.testing.assert_allclose(f(x, 3.0, x).numpy(), np.full((2, 3), 4.0))
    with pytest.raises(tsir.Error, match=r"forward\(x, scale=2.0, bias=None\) "
                                         r"missing 1 required argument\(s\): x"):
        f()


def test_overloaded_forward_picks_the_tensor_overload():
    """nn.LSTM's forward is overloaded (scripted as forward__0, taking a
    Tensor, and forward__1, a PackedSequence): from_torch freezes and takes
    the Tensor one, with its defaults. Before, it failed with an
    AttributeError ('inlined_graph')."""
    from tsir._torch import scripted_graph
    lstm = torch.nn.LSTM(4, 8).eval()
    graph, name, defaults = scripted_graph(lstm)
    assert name == "LSTM"
    assert not graph.findAllNodes("prim::GetAttr")
    assert [n for n, _ in defaults] == ["input", "hx"]
    assert defaults[1][1] is None


def _flat(values):
    if isinstance(values, (tuple, list)):
        return [v for value in values for v in _flat(value)]
    return [np.asarray(values)]


@pytest.mark.parametrize("make", [
    lambda: nn.LSTM(4, 5, num_layers=2),
    lambda: nn.LSTM(4, 5, bidirectional=True, batch_first=True, bias=False),
    lambda: nn.GRU(4, 5, bidirectional=True, batch_first=True),
    lambda: nn.RNN(4, 5, nonlinearity="relu", num_layers=2),
    lambda: nn.LSTM(4, 5, num_layers=2, proj_size=3, bidirectional=True),
])
def test_recurrent_layers_run(make):
    """The frozen list of the layer's parameters prints as `[<Tensors>]`,
    without a count (it failed to import before): its elements are the
    weights `self._flat_weights[i]`. aten::lstm/gru/rnn_relu then unroll
    into their cells."""
    torch.manual_seed(0)
    module = make().eval()
    x = torch.randn(3, 6, 4)
    f = tsir.compile(tsir.from_torch(module))
    with torch.no_grad():
        expected = _flat(module(x))
    actual = _flat(f(x))
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        np.testing.assert_allclose(a, e, rtol=1e-4, atol=1e-5)


def test_lstm_state_tuple_is_refined():
    """An LSTM's (h0, c0) is a tuple input: the plan is specialized to its
    elements' shapes (it stayed unrefined before, and aten::lstm could not
    unroll), and another shape compiles another plan."""
    torch.manual_seed(0)
    module = nn.LSTM(2, 3, num_layers=2, proj_size=2).eval()
    f = tsir.compile(tsir.from_torch(module))
    for batch in (1, 4):
        x = torch.randn(5, batch, 2)
        state = (torch.randn(2, batch, 2), torch.randn(2, batch, 3))
        with torch.no_grad():
            expected = _flat(module(x, state))
        for a, e in zip(_flat(f(x, state)), expected):
            np.testing.assert_allclose(a, e, rtol=1e-4, atol=1e-5)
    cell = nn.LSTMCell(4, 5).eval()
    g = tsir.compile(tsir.from_torch(cell))
    x, state = torch.randn(4), (torch.randn(5), torch.randn(5))
    with torch.no_grad():
        expected = _flat(cell(x, state))
    for a, e in zip(_flat(g(x, state)), expected):
        np.testing.assert_allclose(a, e, rtol=1e-4, atol=1e-5)


def test_tensor_list_constant_needs_its_weights():
    """Without weights, `[<Tensors>]` has no elements to read: the error
    says which names the weights must have."""
    from tsir._torch import scripted_graph
    graph, _, _ = scripted_graph(torch.nn.GRU(4, 8).eval())
    with pytest.raises(tsir.Error, match=r"prints as \[<Tensors>\].*"
                                         r"'self._flat_weights\[0\]'"):
        tsir.import_graph(str(graph))


class WarnOnceNms(nn.Module):
    """What SSD does around its head: module state that forward sets (a
    warn-once flag, which freezing keeps) and torchvision's nms."""

    def __init__(self):
        super().__init__()
        self._has_warned = False

    def forward(self, boxes, scores):
        keep = torch.ops.torchvision.nms(boxes, scores, 0.5)
        if not self._has_warned:
            self._has_warned = True
            return keep, 1
        return keep, 0


def torchvision_ops_library():
    import pathlib
    return pathlib.Path(tsir.__file__).resolve().parents[2] / "lib" / \
        "libtsir_torchvision_ops.so"


def test_module_state_and_torchvision_ops():
    pytest.importorskip("torchvision")
    library = torchvision_ops_library()
    if not library.exists():
        pytest.skip(f"no {library}")
    tsir.load_ops(str(library))
    tsir.load_ops(str(library))  # a second load does nothing
    torch.manual_seed(0)
    corner = torch.rand(30, 2) * 20
    boxes = torch.cat([corner, corner + torch.rand(30, 2) * 10], dim=1)
    scores = torch.rand(30)
    module = WarnOnceNms().eval()
    f = tsir.compile(tsir.from_torch(module))
    expected = torch.ops.torchvision.nms(boxes, scores, 0.5).numpy()
    keep, first = f(boxes, scores)
    np.testing.assert_array_equal(keep, expected)
    # The flag is module state: the first call set it.
    assert (first, f(boxes, scores)[1]) == (1, 0)


def test_load_ops_errors():
    with pytest.raises(tsir.Error, match="no_such_library.so"):
        tsir.load_ops("/nonexistent/no_such_library.so")
