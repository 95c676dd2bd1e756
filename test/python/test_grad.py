# test_grad.py - tsir.grad: gradients of graphs and of torch modules'
# parameters, against torch's autograd.
import copy

import numpy as np
import pytest

import tsir

torch = pytest.importorskip("torch")
nn = torch.nn


def mlp():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3)).eval()


def test_parameter_gradients_of_a_module():
    model = mlp()
    f = tsir.grad(tsir.from_torch(model), plan_cache=False)
    x = torch.randn(5, 4)
    seed = torch.randn(5, 3)
    out, grads = f(x, grad_outputs=[seed])
    expected = model(x)
    expected.backward(seed)
    assert isinstance(out, torch.Tensor)
    torch.testing.assert_close(out, expected.detach())
    for name, parameter in model.named_parameters():
        torch.testing.assert_close(grads["self." + name], parameter.grad)


def test_a_loss_needs_no_output_gradient():
    model = mlp()
    x = torch.randn(6, 4)
    target = torch.tensor([0, 1, 2, 1, 0, 2])

    class WithLoss(nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, x, target):
            return nn.functional.cross_entropy(self.model(x), target)

    f = tsir.grad(tsir.from_torch(WithLoss().eval()), wrt=["x"],
                  plan_cache=False)
    assert f.wrt == ["x"]
    xg = x.clone().requires_grad_()
    WithLoss()(xg, target).backward()
    loss, grads = f(x.numpy(), target.numpy())
    assert isinstance(grads["x"], np.ndarray)
    np.testing.assert_allclose(grads["x"], xg.grad.numpy(), rtol=1e-4,
                               atol=1e-6)


def test_a_non_scalar_output_needs_its_gradient():
    f = tsir.grad(tsir.from_torch(mlp()), wrt="all", plan_cache=False)
    with pytest.raises(tsir.Error, match="grad can be implicitly created "
                                         "only for scalar outputs"):
        f(torch.randn(5, 4))
    with pytest.raises(tsir.Error, match=r"Mismatch in shape: grad_output\[0\] "
                                         r"has a shape of torch.Size\(\[2\]\)"):
        f(torch.randn(5, 4), grad_outputs=[torch.ones(2)])


def test_an_unknown_name_is_an_error():
    with pytest.raises(tsir.Error, match="no tensor input or weight named "
                                         "%nope"):
        tsir.grad(tsir.from_torch(mlp()), wrt="nope")


def test_a_small_cnn_in_eval_mode():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4),
                          nn.ReLU(), nn.Conv2d(4, 4, 3, stride=2, groups=2),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                          nn.Linear(4, 2)).eval()
    graph = tsir.from_torch(model)
    f = tsir.grad(graph, plan_cache=False)
    x = torch.randn(2, 3, 8, 8)
    seed = torch.randn(2, 2)
    out, grads = f(x, grad_outputs=[seed])
    xg = x.clone().requires_grad_()
    model(xg).backward(seed)
    torch.testing.assert_close(grads[f.wrt[0]], xg.grad,
                               rtol=1e-4, atol=1e-5)
    # Freezing folds the batch norm into the convolution before it: those
    # two have the fused weights' gradients instead; the others are the
    # parameters'.
    assert "self.0.weight_fused_bn" in grads
    for name in ("3.weight", "3.bias", "6.weight", "6.bias"):
        torch.testing.assert_close(grads["self." + name],
                                   dict(model.named_parameters())[name].grad,
                                   rtol=1e-4, atol=1e-5)


def test_a_module_in_training_mode_trains():
    # Training mode: every parameter is a weight, unfolded, and batch norm
    # normalizes with the batch's statistics. The weights are the
    # parameters' memory: an optimizer's update in place is what the next
    # call computes with.
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4),
                          nn.ReLU(), nn.Dropout(0.0), nn.Flatten(),
                          nn.Linear(4 * 5 * 5, 2)).train()
    f = tsir.grad(tsir.from_torch(model), wrt="parameters", plan_cache=False)
    names = [name for name, _ in model.named_parameters()]
    assert f.wrt == ["self." + name for name in names]
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    x, seed = torch.randn(3, 3, 5, 5), torch.randn(3, 2)
    for _ in range(2):
        out, grads = f(x, grad_outputs=[seed])
        optimizer.zero_grad()
        expected = model(x)
        expected.backward(seed)
        torch.testing.assert_close(out, expected.detach())
        for name, parameter in model.named_parameters():
            torch.testing.assert_close(grads["self." + name], parameter.grad,
                                       rtol=1e-4, atol=1e-5)
        optimizer.step()


class WithLoss(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x, y):
        return nn.functional.cross_entropy(self.model(x), y)


def test_a_training_loop_with_a_torch_optimizer():
    # examples/training/README.md's loop: tsir's gradients into a torch
    # optimizer, against the same loop in PyTorch.
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8),
                          nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                          nn.Linear(8, 4))
    twin = copy.deepcopy(model)
    step = tsir.grad(tsir.from_torch(WithLoss(model).train()),
                     wrt="parameters", plan_cache=False)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    reference = torch.optim.SGD(twin.parameters(), lr=0.1, momentum=0.9)
    for _ in range(4):
        x, y = torch.randn(6, 3, 8, 8), torch.randint(0, 4, (6,))
        loss, grads = step(x, y)
        for name, parameter in model.named_parameters():
            parameter.grad = grads["self.model." + name]
        optimizer.step()
        reference.zero_grad()
        expected = nn.functional.cross_entropy(twin(x), y)
        expected.backward()
        reference.step()
        torch.testing.assert_close(loss, expected.detach(), rtol=1e-5,
                                   atol=1e-6)
    # The batch norm's running statistics and batch count, which tsir's
    # forward updated in the module's own buffers, as torch's did.
    for (name, buffer), (_, expected) in zip(model.named_buffers(),
                                             twin.named_buffers()):
        torch.testing.assert_close(buffer, expected, msg=name)


@pytest.mark.parametrize("momentum", [0.1, None])
def test_running_statistics_in_training_mode(momentum):
    # A training-mode graph run, not differentiated, updates them too;
    # momentum=None is the cumulative average over num_batches_tracked.
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4, momentum=momentum),
                          nn.Flatten(), nn.Linear(4 * 4 * 4, 3),
                          nn.BatchNorm1d(3, momentum=momentum)).train()
    twin = copy.deepcopy(model)
    run = tsir.compile(tsir.from_torch(model), plan_cache=False)
    for _ in range(3):
        x = torch.randn(5, 3, 6, 6)
        torch.testing.assert_close(run(x), twin(x).detach())
    for (name, buffer), (_, expected) in zip(model.named_buffers(),
                                             twin.named_buffers()):
        torch.testing.assert_close(buffer, expected, msg=name)
    assert int(model[1].num_batches_tracked) == 3


class ReadsTwice(nn.Module):
    """Reads self.lin.weight in both branches of an `if` on a flag and once
    after it, and holds one Linear under two names (a tied layer)."""

    def __init__(self, scaled: bool):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.tied = self.lin
        self.scaled = scaled

    def forward(self, x):
        if self.scaled:
            y = nn.functional.linear(x, self.lin.weight * 2)
        else:
            y = nn.functional.linear(x, self.lin.weight)
        return self.tied(torch.tanh(y)).sum()


@pytest.mark.parametrize("scaled", [False, True])
def test_every_read_of_a_parameter_adds_to_its_gradient(scaled):
    torch.manual_seed(0)
    model = ReadsTwice(scaled).train()
    graph = tsir.from_torch(model)
    # One weight per parameter, by named_parameters' name: two weights over
    # one parameter would split its gradient between them.
    assert sorted(graph.parameter_names) == ["self.lin.bias", "self.lin.weight"]
    f = tsir.grad(graph, wrt="parameters", plan_cache=False)
    x = torch.randn(3, 4)
    loss, grads = f(x)
    model(x).backward()
    torch.testing.assert_close(loss, model(x).detach())
    for name, parameter in model.named_parameters():
        torch.testing.assert_close(grads["self." + name], parameter.grad)


def branch_on_data(x, w, b):
    if bool(x.sum() > 0):
        y = nn.functional.linear(x, w)
    else:
        y = nn.functional.linear(x, w * 2)
    return nn.functional.linear(torch.tanh(y), w, b).sum()


@pytest.mark.parametrize("offset", [0.1, -1.1])
def test_a_data_dependent_branch_exporting_a_new_shape(offset):
    # The forward exports `w * 2` (4x4) from the else branch; in the then
    # branch its stand-in is the 3x4 product. The backward is specialized
    # with that stand-in, and its else branch would multiply 3x4 by 3x4:
    # proven wrong, but never taken, so it raises only if reached.
    f = tsir.grad(tsir.from_torch(branch_on_data), plan_cache=False)
    x = torch.rand(3, 4) + offset
    w, b = torch.randn(4, 4), torch.randn(4)
    loss, grads = f(x, w, b)
    inputs = [t.clone().requires_grad_() for t in (x, w, b)]
    expected = branch_on_data(*inputs)
    expected.backward()
    torch.testing.assert_close(loss, expected.detach())
    for name, tensor in zip(["x.1", "w.1", "b.1"], inputs):
        torch.testing.assert_close(grads[name], tensor.grad)


def double(x):
    return x * 2


def test_parameters_need_a_module():
    graph = tsir.from_torch(double)
    with pytest.raises(ValueError, match="wrt='parameters' needs"):
        tsir.grad(graph, wrt="parameters")


def test_last_stats_of_both_plans():
    f = tsir.grad(tsir.from_torch(mlp()), plan_cache=False)
    f(torch.randn(2, 4), grad_outputs=[torch.ones(2, 3)])
    stats = f.last_stats
    assert stats["forward"]["compiled"] and stats["backward"]["compiled"]
    assert f.saved_bytes > 0
    f(torch.randn(2, 4), grad_outputs=[torch.ones(2, 3)])
    assert not f.last_stats["forward"]["compiled"]
    assert not f.last_stats["backward"]["compiled"]


def test_attention_differentiates_once_specialized():
    # MultiheadAttention chooses its path with nested ifs on the inputs'
    # ranks and flags, which fold only once the inputs' sizes are known:
    # the graph is differentiated per input spec, specialized first.
    torch.manual_seed(0)
    model = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0,
                                       batch_first=True).train()
    f = tsir.grad(tsir.from_torch(model), wrt="parameters", plan_cache=False)
    assert f.last_stats == {}
    for batch in (2, 3):
        x = torch.randn(batch, 3, 8)
        seed = torch.randn(batch, 3, 8)
        out, grads = f(x, None, None, grad_outputs=[seed])
        model.zero_grad()
        expected = model(x)
        expected.backward(seed)
        torch.testing.assert_close(out, expected.detach())
        assert sorted(grads) == sorted(
            "self." + name for name, _ in model.named_parameters())
        for name, parameter in model.named_parameters():
            torch.testing.assert_close(grads["self." + name], parameter.grad,
                                       rtol=1e-4, atol=1e-5)
    assert f.last_stats["backward"]["compiled"]


def flatten_tensors(value):
    if isinstance(value, torch.Tensor):
        return [value]
    return [t for element in value for t in flatten_tensors(element)]


@pytest.mark.parametrize("make", [
    lambda: nn.LSTM(4, 5, batch_first=True),
    lambda: nn.LSTM(4, 5, num_layers=2, bidirectional=True),
    lambda: nn.GRU(4, 5, num_layers=2),
    lambda: nn.RNN(4, 5),
], ids=["lstm", "lstm-2-layers-bidirectional", "gru-2-layers", "rnn"])
def test_recurrent_layers_in_training_mode(make):
    # Their parameters reach the graph as a list (`self._flat_weights`),
    # one weight each; the layer is decomposed into its time steps once
    # the sequence length is known, and differentiated then.
    torch.manual_seed(0)
    model = make().train()
    f = tsir.grad(tsir.from_torch(model), wrt="parameters", plan_cache=False)
    x = torch.randn(2, 3, 4)
    expected = flatten_tensors(model(x))
    seeds = [torch.randn_like(t) for t in expected]
    outputs, grads = f(x, None, grad_outputs=seeds)
    for got, want in zip(flatten_tensors(outputs), expected):
        torch.testing.assert_close(got, want.detach())
    model.zero_grad()
    torch.autograd.backward(expected, seeds)
    assert sorted(grads) == sorted(
        "self." + name for name, _ in model.named_parameters())
    for name, parameter in model.named_parameters():
        torch.testing.assert_close(grads["self." + name], parameter.grad,
                                   rtol=1e-4, atol=1e-5)


def test_an_op_defined_by_a_decomposition_needs_no_formula():
    # addmv and cosine_similarity have no formula in derivatives.txt: their
    # graphs in decompositions.txt take their places, and those ops have.
    class Defined(nn.Module):
        def forward(self, bias, matrix, vector, other):
            product = torch.addmv(bias, matrix, vector, beta=0.5, alpha=2.0)
            similar = nn.functional.cosine_similarity(matrix, other, dim=1)
            return (product * similar).sum()

    inputs = [torch.randn(3), torch.randn(3, 4), torch.randn(4),
              torch.randn(3, 4)]
    f = tsir.grad(tsir.from_torch(Defined()), wrt="all", plan_cache=False)
    _, grads = f(*[t.numpy() for t in inputs])
    leaves = [t.clone().requires_grad_() for t in inputs]
    Defined()(*leaves).backward()
    # f.wrt names the inputs in order, as torch's graph does (`bias.1`).
    for name, leaf in zip(f.wrt, leaves):
        np.testing.assert_allclose(grads[name], leaf.grad.numpy(), rtol=1e-4,
                                   atol=1e-5)
