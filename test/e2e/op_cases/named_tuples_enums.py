"""named_tuples_enums.py - generated end-to-end cases for graphs with
NamedTuple and Enum types: the named tuples of multi-result ops returned
whole (`torch.sort(x)`, `torch.topk(x, 2)`, typed `NamedTuple(values :
Tensor, indices : Tensor)`), a typing.NamedTuple built, indexed and
returned. torch's frontend folds comparisons of enum members it knows, so
only an enum chosen at run time reaches the graph, and tsir does not run
enums, nor quantized tensors: those cases are expected failures, which
stop with a located error (test/e2e/tsir-run-quantized-enum.test runs
graphs whose enums tsir folds)."""

from enum import Enum
from typing import NamedTuple

import torch

from op_case import Case

torch.manual_seed(0)


class Pair(NamedTuple):
    a: torch.Tensor
    b: int


class Color(Enum):
    RED = 1
    GREEN = 2


def sort_whole(x):
    return torch.sort(x)


def topk_whole(x):
    return torch.topk(x, 2)


def make_pair(x):
    p = Pair(x * 2, 3)
    a, b = p
    return p.a + b, p


def enum_select(x, i: int):
    c = [Color.RED, Color.GREEN][i]
    if c == Color.RED:
        return x + 1
    return x - 1


def quantized(x):
    q = torch.quantize_per_tensor(x, 0.1, 0, torch.qint8)
    return q.dequantize()


CASES = [
    Case(sort_whole, [torch.randn(2, 5)]),
    Case(topk_whole, [torch.randn(7)]),
    Case(make_pair, [torch.randn(3)]),
    Case(enum_select, [torch.randn(4), 1],
         xfail="tsir does not run enums: an enum chosen at run time stays"),
    Case(quantized, [torch.randn(4)],
         xfail="tsir does not run quantized tensors"),
]
