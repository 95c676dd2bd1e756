#!/usr/bin/python3
"""run_grad_models.py - models in training mode: tsir.grad's parameter
gradients against torch.autograd.

    PYTHONPATH=build/python_packages run_grad_models.py [--model NAME ...]

Each model is built here with random weights (torchvision's ResNet-18,
no download), left in training mode (batch norm on the batch's
statistics) and given to tsir.from_torch, which keeps every parameter as
a weight; tsir.grad differentiates the output, seeded with a random
gradient, with respect to all of them. Dropout is at p=0 so that both
sides compute the same function. Prints one line per model and a total.
"""

import argparse
import copy
import sys

import torch
import torch.nn as nn

import tsir


def mlp():
    return nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Dropout(0.0),
                         nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 10)), (8, 32)


def small_cnn():
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, stride=2, groups=2),
        nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(32, 10)), (4, 3, 16, 16)


def resnet18():
    import torchvision
    return torchvision.models.resnet18(num_classes=10), (2, 3, 64, 64)


MODELS = {"mlp": mlp, "small_cnn": small_cnn, "resnet18": resnet18}


def gradients(model, x, seed):
    """torch's output and parameter gradients of `model` at `x`."""
    model.zero_grad()
    output = model(x)
    output.backward(seed)
    return output.detach(), {name: p.grad.clone()
                             for name, p in model.named_parameters()}


def check(name):
    """Compares tsir's float32 gradients and torch's with float64 ones
    (torch in double): tsir must be about as accurate as torch's own
    float32. A direct comparison of the two float32 results would not
    do: batch norm over a few values (ResNet's last layers at 2x2) makes
    both differ from the exact gradient by percents."""
    torch.manual_seed(0)
    model, shape = MODELS[name]()
    model.train()
    x = torch.randn(*shape)
    f = tsir.grad(tsir.from_torch(model), wrt="parameters", plan_cache=False)
    with torch.no_grad():
        seed = torch.randn_like(model(x))
    _, torch32 = gradients(model, x, seed)
    exact_output, exact = gradients(copy.deepcopy(model).double(), x.double(),
                                    seed.double())
    out, grads = f(x, grad_outputs=[seed])
    problems = []
    if not torch.allclose(out.double(), exact_output, rtol=1e-4, atol=1e-4):
        problems.append("output differs by "
                        f"{(out.double() - exact_output).abs().max().item():.3g}")
    # A convolution's bias before batch norm has an exact gradient of 0
    # (the normalization removes it): sizes below a thousandth of the
    # largest gradient count as that.
    largest = max(g.abs().max().item() for g in exact.values())
    worst = 0.0
    for parameter_name, reference in exact.items():
        got = grads.get("self." + parameter_name)
        if got is None:
            problems.append(f"no gradient for {parameter_name}")
            continue
        scale = max(reference.abs().max().item(), 1e-3 * largest)
        error = (got.double() - reference).abs().max().item() / scale
        torch_error = (torch32[parameter_name].double() -
                       reference).abs().max().item() / scale
        worst = max(worst, error)
        if error > 4 * torch_error + 1e-4:
            problems.append(f"{parameter_name}: relative error {error:.3g} "
                            f"(torch's float32: {torch_error:.3g})")
    if problems:
        print(f"FAIL {name}: " + "; ".join(problems))
        return False
    print(f"ok {name}: {len(exact)} parameters, worst relative error "
          f"{worst:.2g} against float64")
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", choices=sorted(MODELS))
    args = parser.parse_args()
    failures = 0
    for name in args.model or MODELS:
        try:
            failures += not check(name)
        except Exception as error:  # a compile error names the model
            print(f"FAIL {name}: {type(error).__name__}: {error}")
            failures += 1
    print(f"grad models: {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
