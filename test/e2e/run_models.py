#!/usr/bin/python3
"""run_models.py - frozen and scripted models, generated with torch at test time.

    run_models.py TSIR_RUN [--model NAME ...] [--keep DIR]

Builds each model with random weights (torchvision for ResNet-18 and
MobileNet v2; no downloads), scripts and freezes it, writes the frozen graph
as text and its tensor constants as a safetensors file (keyed by value name,
as the corpus does), runs it with tsir-run and compares with torch's output.
No weights are shipped: everything is made here.
"""

import argparse
import os
import shutil
import sys
import tempfile

import numpy as np
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import safetensors_io  # noqa: E402
import torch_cases  # noqa: E402
import tsir_run  # noqa: E402


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, stride=2)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = torch.max_pool2d(torch.relu(self.bn(self.conv1(x))), 2)
        x = torch.relu(self.conv2(x))
        x = torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1)
        return self.fc(x)


class MLP(nn.Module):
    def __init__(self, width=256, depth=3):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(width, width) for _ in range(depth))

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return x


class Attention(nn.Module):
    def __init__(self, dim=64, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(self.norm(x)).chunk(3, dim=-1)
        h = self.heads
        q = q.reshape(b, s, h, d // h).transpose(1, 2)
        k = k.reshape(b, s, h, d // h).transpose(1, 2)
        v = v.reshape(b, s, h, d // h).transpose(1, 2)
        att = torch.softmax(q @ k.transpose(-2, -1) / (d // h) ** 0.5, dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, s, d)
        return x + self.out(y)


class LSTMLoop(nn.Module):
    """The seed's simple_lstm: an LSTM cell written in ops, run over time."""

    def __init__(self, inputs=16, hidden=32):
        super().__init__()
        self.w_ih = nn.Parameter(torch.randn(4 * hidden, inputs) * 0.1)
        self.w_hh = nn.Parameter(torch.randn(4 * hidden, hidden) * 0.1)
        self.b = nn.Parameter(torch.randn(4 * hidden) * 0.1)

    def forward(self, xs, h, c):
        for t in range(xs.size(0)):
            gates = torch.mm(xs[t], self.w_ih.t()) + torch.mm(h, self.w_hh.t()) + self.b
            i, f, g, o = gates.chunk(4, 1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
        return h, c


def models():
    import torchvision
    torch.manual_seed(0)
    return {
        "small_cnn": (SmallCNN(), [torch.randn(1, 3, 16, 16)], 1e-4, 1e-4),
        "mlp": (MLP(), [torch.randn(8, 256)], 1e-4, 1e-4),
        "attention": (Attention(), [torch.randn(2, 16, 64)], 1e-4, 1e-4),
        "lstm_loop": (LSTMLoop(), [torch.randn(8, 1, 16), torch.zeros(1, 32),
                                   torch.zeros(1, 32)], 1e-4, 1e-5),
        "resnet18": (torchvision.models.resnet18(), [torch.randn(1, 3, 224, 224)],
                     1e-3, 1e-3),
        "mobilenet_v2": (torchvision.models.mobilenet_v2(),
                         [torch.randn(1, 3, 224, 224)], 1e-3, 1e-3),
    }


def all_nodes(nodes):
    """`nodes` and the nodes of their blocks, at any depth (a loop's body
    holds constants too: RAFT's)."""
    for node in nodes:
        yield node
        for block in node.blocks():
            yield from all_nodes(block.nodes())


def module_state(module, graph):
    """The attributes `graph` (frozen from `module`) reads from `self`
    through chains of prim::GetAttr, by the names tsir reads them:
    `self.a.b`, a list of tensors as `self.a.b[i]`, a bool, int or float as
    a 0-d array."""
    paths = {next(graph.inputs()).unique(): ()}
    state = {}
    for node in all_nodes(graph.nodes()):
        if node.kind() != "prim::GetAttr" or node.input().unique() not in paths:
            continue
        path = paths[node.input().unique()] + (node.s("name"),)
        value = module
        for part in path:
            value = getattr(value, part)
        name = "self." + ".".join(path)
        # A submodule of a frozen module is a torch._C.ScriptModule.
        if isinstance(value, (torch.nn.Module, torch._C.ScriptModule)):
            paths[node.output().unique()] = path
        elif isinstance(value, torch.Tensor):
            state[name] = value.detach().numpy()
        elif isinstance(value, list) and value and all(
                isinstance(v, torch.Tensor) for v in value):
            for i, element in enumerate(value):
                state[f"{name}[{i}]"] = element.detach().numpy()
        elif isinstance(value, (bool, int, float)):
            state[name] = np.array(value)
    return state


def export(model, workdir, trace_inputs=None):
    """Freezes `model`, scripted (or traced on `trace_inputs`); writes
    graph.txt and weights.safetensors."""
    model = model.eval()
    if trace_inputs is None:
        module = torch.jit.script(model)
    else:
        with torch.no_grad():
            module = torch.jit.trace(model, tuple(trace_inputs))
    frozen = torch.jit.freeze(module)
    graph = frozen.graph
    weights = {}
    for node in all_nodes(graph.nodes()):
        if node.kind() != "prim::Constant":
            continue
        kind = node.output().type().kind()
        value = node.output().toIValue()
        # Tracing leaves 0-d tensor constants, printed inline ({4}).
        if kind == "TensorType" and isinstance(value, torch.Tensor):
            weights[node.output().debugName()] = value.detach().numpy()
        # A list of tensors (`[<Tensor>]`): element i is `name[i]`.
        elif kind == "ListType" and value and all(
                isinstance(v, torch.Tensor) for v in value):
            for i, element in enumerate(value):
                weights[f"{node.output().debugName()}[{i}]"] = \
                    element.detach().numpy()
    # Attributes forward writes stay module state through freezing
    # (`prim::GetAttr[name="_has_warned"](%self)`): their values as they
    # are now, under `self.<path>` (a list of tensors as `self.<path>[i]`),
    # where tsir reads them.
    weights.update(module_state(frozen, graph))
    os.makedirs(workdir, exist_ok=True)
    with open(os.path.join(workdir, "graph.txt"), "w") as f:
        f.write(str(graph))
    safetensors_io.write(os.path.join(workdir, "weights.safetensors"), weights)
    return frozen


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tsir_run")
    parser.add_argument("--model", action="append")
    parser.add_argument("--keep")
    parser.add_argument("--bench", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    work = args.keep or tempfile.mkdtemp(prefix="tsir-models-")
    failures = 0
    for name, (model, inputs, rtol, atol) in models().items():
        if args.model and name not in args.model:
            continue
        workdir = os.path.join(work, name)
        frozen = export(model, workdir)
        with torch.no_grad():
            expected = torch_cases.flatten(frozen(*inputs))
        extra = ["--bench", str(args.bench)] if args.bench else []
        code, output = tsir_run.run(
            args.tsir_run, os.path.join(workdir, "graph.txt"),
            [t.numpy() for t in inputs], os.path.join(workdir, "out"),
            weights=os.path.join(workdir, "weights.safetensors"), extra=extra)
        if code != 0:
            failures += 1
            print(f"FAIL {name}: tsir-run exited with {code}: {output.strip()}")
            continue
        problem = tsir_run.compare(expected, os.path.join(workdir, "out"), rtol, atol)
        if problem:
            failures += 1
            print(f"FAIL {name}: {problem}")
        else:
            lines = [l for l in output.splitlines() if l.startswith(("compile:", "bench:"))]
            print(f"PASS {name} ({'; '.join(lines)})")
    print(f"models: {failures} failures")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
