"""export_bias_table.py OUT_DIR - Swin v2's relative position bias in
small: a computed table indexed by a Long buffer. Frozen, the index is an
element of a constant list of tensors (`Tensor?[] =
prim::Constant[value=[<Tensor>]]`), whose type the graph text does not
give; the weights file does. Writes graph.txt, weights.safetensors, x.npy
and torch's output, expected.npy."""

import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "e2e"))
from run_models import export  # noqa: E402


class BiasTable(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("index", torch.randint(0, 9, (4, 4)))

    def forward(self, x):
        table = torch.sigmoid(x.reshape(-1, 2)[:9])
        bias = table[self.index]
        return x + bias.permute(2, 0, 1)


torch.manual_seed(0)
out = sys.argv[1]
frozen = export(BiasTable(), out)
x = torch.randn(2, 4, 4)
np.save(os.path.join(out, "x.npy"), x.numpy())
with torch.no_grad():
    np.save(os.path.join(out, "expected.npy"), frozen(x).numpy())
