#!/usr/bin/python3
"""train_cnn.py - a small CNN trained by tsir, against the same run in PyTorch.

    PYTHONPATH=build/python_packages /usr/bin/python3 \\
        examples/training/train_cnn.py [--steps 100] [--batch 16]

The model (conv, batch norm in training mode, ReLU, conv, batch norm,
ReLU, global average pooling, linear, cross entropy) is written as a
function of its parameters. tsir differentiates it (tsir.grad: forward and
backward compiled, the backward reading the forward's saved buffers) and
compiles the SGD-with-momentum update (tsir.compile); the step runs those
two. PyTorch runs the same function eagerly with torch.optim.SGD, from the
same initial weights on the same synthetic batches. The script prints both
loss curves and fails if they part by more than float32 tolerance.
"""

import argparse
import sys

import numpy as np
import torch
import torch.nn.functional as F

import tsir

CLASSES, CHANNELS, SIZE = 4, 3, 8


def loss_fn(x, target, w1, b1, g1, e1, w2, b2, g2, e2, w3, b3):
    h = F.conv2d(x, w1, b1, padding=1)
    h = F.relu(F.batch_norm(h, None, None, g1, e1, True, 0.1, 1e-5))
    h = F.conv2d(h, w2, b2, stride=2, padding=1)
    h = F.relu(F.batch_norm(h, None, None, g2, e2, True, 0.1, 1e-5))
    h = F.adaptive_avg_pool2d(h, (1, 1)).flatten(1)
    return F.cross_entropy(F.linear(h, w3, b3), target)


def sgd(p, g, v, lr: float, momentum: float):
    v = v * momentum + g
    return p - v * lr, v


NAMES = ["w1", "b1", "g1", "e1", "w2", "b2", "g2", "e2", "w3", "b3"]


def initial_parameters():
    torch.manual_seed(0)
    return [torch.randn(8, CHANNELS, 3, 3) * 0.3, torch.zeros(8),
            torch.ones(8), torch.zeros(8),
            torch.randn(16, 8, 3, 3) * 0.15, torch.zeros(16),
            torch.ones(16), torch.zeros(16),
            torch.randn(CLASSES, 16) * 0.3, torch.zeros(CLASSES)]


def batches(steps, batch):
    """Synthetic images: each class a fixed pattern, plus noise."""
    generator = torch.Generator().manual_seed(1)
    patterns = torch.randn(CLASSES, CHANNELS, SIZE, SIZE, generator=generator)
    for _ in range(steps):
        target = torch.randint(0, CLASSES, (batch,), generator=generator)
        noise = torch.randn(batch, CHANNELS, SIZE, SIZE, generator=generator)
        yield patterns[target] * 0.5 + 1.5 * noise, target


def train_with_torch(steps, batch, lr, momentum):
    parameters = [p.clone().requires_grad_() for p in initial_parameters()]
    optimizer = torch.optim.SGD(parameters, lr=lr, momentum=momentum)
    losses = []
    for x, target in batches(steps, batch):
        optimizer.zero_grad()
        loss = loss_fn(x, target, *parameters)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def train_with_tsir(steps, batch, lr, momentum):
    step = tsir.grad(tsir.from_torch(torch.jit.script(loss_fn)), wrt=NAMES)
    update = tsir.compile(tsir.from_torch(torch.jit.script(sgd)))
    parameters = initial_parameters()
    velocities = [torch.zeros_like(p) for p in parameters]
    losses = []
    for x, target in batches(steps, batch):
        loss, gradients = step(x, target, *parameters)
        for i, name in enumerate(NAMES):
            parameters[i], velocities[i] = update(
                parameters[i], gradients[name], velocities[i], lr, momentum)
        losses.append(float(loss))
    return losses


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--momentum", type=float, default=0.9)
    parser.add_argument("--rtol", type=float, default=1e-3)
    args = parser.parse_args()

    expected = train_with_torch(args.steps, args.batch, args.lr, args.momentum)
    got = train_with_tsir(args.steps, args.batch, args.lr, args.momentum)
    print("step   torch loss   tsir loss    relative difference")
    worst = 0.0
    for i, (want, have) in enumerate(zip(expected, got)):
        difference = abs(have - want) / max(abs(want), 1e-12)
        worst = max(worst, difference)
        if i % 10 == 0 or i == len(expected) - 1:
            print(f"{i:4d}   {want:10.6f}   {have:10.6f}   {difference:.2e}")
    print(f"loss {expected[0]:.4f} -> {expected[-1]:.4f} in {args.steps} "
          f"steps; the largest relative difference {worst:.2e}")
    if worst > args.rtol:
        print(f"FAIL: the loss curves part by more than {args.rtol:g}")
        return 1
    print("the loss curves agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
