#!/usr/bin/env python3
"""refine_types_oracle.py - tsir-refine-types states only true types.

Differential test with Debian's python3-torch as the oracle. Each case is a
TorchScript graph with concrete inputs: the corpus cases (their graph.txt
and in*.npy) and the scripted functions below, which exercise dtype
promotion, broadcasting, matmul/conv/pooling, reductions, views, lists and
control flow. For each case:

1. the arg spec is built from the inputs (`Float(2, 3)` per tensor, `_` per
   scalar), tsir imports the graph, runs `--tsir-refine-types` with it and
   exports the result, whose text states the refined type of every value;
2. torch runs the graph itself, instrumented so that every tensor value
   (graph inputs, node outputs, block parameters, in every block and every
   loop iteration) is recorded with its name;
3. every recorded tensor must agree with the refined type of the value of
   that name: same dtype where a dtype is stated, same rank and sizes where
   sizes are stated (`?` matches anything).

It also checks the pass refines most values of most cases, so that a pass
which refines nothing cannot pass. Graphs torch's parse_ir cannot read are
made readable where that is mechanical (unused `Function` constants, the
unused `self` of frozen modules, `<Tensor>` weights fed as inputs); the
rest are skipped with a note.

Usage: refine_types_oracle.py TSIR_TRANSLATE TSIR_OPT CORPUS_DIR [-v]
"""

import json
import pathlib
import re
import sys
from typing import List, Optional, Tuple

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "lib"))
import needs_torch  # noqa: E402,F401 (skips the test without torch)
import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch_cases import script_inlined, through_tsir  # noqa: E402

DTYPES = {
    torch.float32: "Float", torch.float64: "Double", torch.float16: "Half",
    torch.bfloat16: "BFloat16", torch.int64: "Long", torch.int32: "Int",
    torch.int16: "Short", torch.int8: "Char", torch.uint8: "Byte",
    torch.bool: "Bool", torch.complex64: "ComplexFloat",
    torch.complex128: "ComplexDouble",
}


# --------------------------------------------------------------------------
# Scripted cases: (name, function, inputs)
# --------------------------------------------------------------------------

def promotion(a, b, i, h, k: int, f: float, flag: bool):
    r1 = a + b            # broadcast [2, 3] with [3]
    r2 = i + f            # int tensor + float scalar -> Float
    r3 = i * k            # stays Long
    r4 = i / i            # true division -> Float
    r5 = h + a.sum()      # Half with a 0-d Float -> Half
    r6 = a > b            # Bool
    r7 = torch.where(r6, i, a)
    r8 = (i > 1) & (i < 5)
    r9 = torch.sigmoid(i) + r4
    r10 = i.double() * 2
    r11 = torch.pow(i, 2.0)
    r12 = torch.div(i, 2, rounding_mode="floor")
    r13 = torch.clamp(i, 0.5)
    r14 = torch.abs(torch.neg(i))
    r15 = torch.maximum(a, i)
    return r1, r2, r3, r5, r7, r8, r9, r10, r11, r12, r13, r14, r15


def linear_algebra(x, w, b, batch, v):
    y = F.linear(x, w, b)
    z = torch.matmul(batch, w.t())
    m = torch.mm(x, w.t())
    bm = torch.bmm(batch, batch.transpose(1, 2))
    mv = torch.matmul(batch, v)
    vm = torch.matmul(v, w.t())
    vv = torch.matmul(v, v)
    a = torch.addmm(b, x, w.t())
    o = torch.outer(v, v)
    return y, z, m, bm, mv, vm, vv, a, o


def cnn(x, w1, w2, wt):
    a = F.conv2d(x, w1, None, 1, 1)
    b = F.conv2d(a, w2, None, 2, 0, 1, 2)
    c = F.max_pool2d(a, 3, 2, 1, ceil_mode=True)
    d = F.avg_pool2d(a, 2)
    e = F.adaptive_avg_pool2d(b, [2, 1])
    f = F.conv_transpose2d(b, wt, None, 2, 1, 1)
    g = F.conv2d(x, w1, None, 1, "same")
    h = F.batch_norm(a, None, None, training=True)
    i = F.pad(a, [1, 2, 3, 4])
    j = F.conv1d(x[0, :, 0], w1[:, :, 0], None, 2)
    k = F.max_pool1d(j, 2)
    n = F.interpolate(d, scale_factor=2.0)
    return a, b, c, d, e, f, g, h, i, j, k, n


def reductions(x, i):
    a = x.sum()
    b = x.sum(1, keepdim=True)
    c = x.mean([0, 2])
    d = x.amax(-1)
    v, idx = x.max(1)
    e = x.argmax()
    f = x.argmax(2, keepdim=True)
    g = i.sum(0)
    h = x.std(1)
    j = torch.softmax(x, -1)
    k = torch.log_softmax(x, 1)
    m = i.cumsum(1)
    n = (i > 2).any(1)
    o = torch.logsumexp(x, [1])
    p = x.prod(2, keepdim=True)
    q = i.float().var()
    t, ti = torch.topk(x, 2)
    s, si = torch.sort(x, 1)
    return a, b, c, d, v, idx, e, f, g, h, j, k, m, n, o, p, q, t, ti, s, si


def views(x, y):
    a = x.view(-1, 4)
    b = x.reshape(x.size(0), -1)
    c = torch.flatten(x, 1)
    d = x.permute(2, 0, 1)
    e = x.transpose(0, 2).contiguous()
    f = x.unsqueeze(1).unsqueeze(-1)
    g = f.squeeze(1)
    h = f.squeeze()
    i = y.expand(2, 3, 4)
    j = x[:, 1:]
    k = x[0]
    m = x[:, :, ::2]
    n = x.narrow(2, 1, 2)
    o = y.repeat(2, 1, 3)
    p = x.select(1, -1)
    q = x.t() if x.dim() == 2 else x
    r = y.expand_as(x)
    s = x.view(2, -1).flip([0])
    t = torch.index_select(x, 2, torch.tensor([0, 0, 1]))
    u = x.new_zeros([5, 2])
    return a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u


def lists(x, y):
    a = torch.cat([x, y], 0)
    b = torch.stack([x, x, x], 1)
    c1, c2, c3 = torch.chunk(x, 3, 1)
    s = torch.split(x, 2, 1)
    u = torch.unbind(y, 0)
    d = s[0] + s[-1]
    e = u[1] * 2
    f = torch.cat(list(torch.chunk(x, 2, 0)), 1)
    return a, b, c1, c2, c3, d, e, f


def control_flow(x, n: int, flag: bool):
    if flag:
        y = x + 1
    else:
        y = x.sum(0, keepdim=True)          # [1, 3] vs [2, 3]: [?, 3]
    if flag:
        z = x
    else:
        z = x.view(-1)                      # ranks differ: unranked
    acc = x
    for k in range(n):
        acc = acc * 2 + x                   # stays [2, 3]
    grow = x
    for k in range(n):
        grow = torch.cat([grow, x], 0)      # [?, 3]
    i = 0
    w = x.long()
    while i < n:
        w = w + 1                           # stays Long
        i += 1
    t = (x, y) if flag else (x * 2, y)
    return y, z, acc, grow, w, t


def factories(x, n: int):
    a = torch.zeros(2, 3)
    b = torch.ones([4], dtype=torch.int64)
    c = torch.full([2, 2], 7)
    d = torch.arange(5)
    e = torch.arange(0, 3, 0.5)
    f = torch.zeros_like(x, dtype=torch.float64)
    g = torch.tensor([[1, 2], [3, 4]])
    h = torch.tensor(2.5)
    k = x.to(torch.int32)
    m = x.type_as(b)
    p = torch.eye(3)
    q = torch.empty(n, 2)
    r = torch.rand_like(x)
    s = torch.ones([2], dtype=k.dtype, device=x.device)
    return a, b, c, d, e, f, g, h, k, m, p, q, r, s


def inplace(x, y):
    z = x.clone()
    z.add_(y)
    z.mul_(2)
    w = torch.relu_(z.clone())
    v = torch.zeros(2, 3)
    v.unsqueeze_(0)                         # resized: sizes are not facts
    u = v + 1
    return z, w, u


def nn_misc(x, idx, t):
    a = F.embedding(idx, x)
    b = F.layer_norm(x, [x.size(-1)])
    c = F.gelu(x)
    d = F.dropout(x, 0.5, False)
    e = F.mse_loss(x, t)
    f = F.cross_entropy(x, idx)
    g = F.one_hot(idx, 5)
    h = torch.nonzero(x > 0)
    i = F.leaky_relu(x, 0.1)
    j = torch.masked_fill(x, x > 0, 0.0)
    return a, b, c, d, e, f, g, h, i, j


def promotion_corners(u8, i8, b, h, d0, l0, c):
    a = u8 + i8                   # Byte with Char: Short
    e = b + 1.5                   # Bool with a float scalar: Float
    f = b + b                     # stays Bool
    g = b * 3                     # Bool with an int scalar: Long
    k = h * d0                    # a 0-d Double does not widen Half
    m = l0 + h                    # a 0-d Long does not either
    n = u8 * l0                   # nor does it widen Byte
    o = c + 1                     # complex stays
    p = torch.abs(c)              # complex abs is real
    q = (u8 > 2).sum()            # Bool sums to Long
    r = u8.any()                  # Byte stays Byte
    s = torch.where(b, 1, 2)      # two int scalars: Long
    t = torch.where(b, 1.0, h)    # Half wins over a float scalar
    w = torch.floor_divide(i8, 2)
    return a, e, f, g, k, m, n, o, p, q, r, s, t, w


def loop_widening(x, n: int):
    grow = x
    for _ in range(n):
        grow = grow.unsqueeze(0)          # rank grows: unranked
    mixed = x.long()
    for _ in range(n):
        mixed = mixed + 0.5               # Long then Float: no dtype
    nested = x
    for i in range(n):
        for j in range(2):
            nested = torch.cat([nested, x], 1)
    k = 0
    halve = x
    while k < n:
        halve = halve[:, 1:]
        k += 1
    return grow, mixed, nested, halve


def indexing(x, idx):
    a = x[1:-1]
    b = x[:, -1]
    c = x[..., 0]
    d = x[None, :, 2:3]
    e = torch.gather(x, 1, idx)
    f, g = torch.split(x, [1, 3], 1)
    h = torch.unbind(x, 1)[2]
    i = x.unflatten(1, [2, 2])
    m = x.movedim(1, 0)
    return a, b, c, d, e, f, g, h, i, m


def _t(*shape, dtype=torch.float32, seed=0):
    generator = torch.Generator().manual_seed(seed)
    if dtype.is_floating_point:
        return torch.randn(*shape, generator=generator).to(dtype)
    return torch.randint(0, 6, shape, generator=generator).to(dtype)


SCRIPTED = [
    ("promotion", promotion,
     (_t(2, 3), _t(3, seed=1), _t(2, 3, dtype=torch.int64),
      _t(2, 3, dtype=torch.float16), 3, 0.5, True)),
    ("linear_algebra", linear_algebra,
     (_t(4, 3), _t(5, 3), _t(5), _t(2, 4, 3), _t(3))),
    ("cnn", cnn, (_t(1, 4, 9, 9), _t(6, 4, 3, 3), _t(8, 3, 3, 3),
                  _t(8, 2, 3, 3))),
    ("reductions", reductions, (_t(3, 4, 5), _t(3, 4, dtype=torch.int64))),
    ("view_ops", views, (_t(2, 3, 4), _t(3, 1))),
    ("lists", lists, (_t(2, 6), _t(3, 6))),
    ("control_flow_true", control_flow, (_t(2, 3), 3, True)),
    ("control_flow_false", control_flow, (_t(2, 3), 2, False)),
    ("factories", factories, (_t(3, 2), 4)),
    ("inplace", inplace, (_t(2, 3), _t(3))),
    ("nn_misc", nn_misc, (_t(4, 5), torch.tensor([1, 0, 3, 2]), _t(4, 5))),
    ("promotion_corners", promotion_corners,
     (_t(3, dtype=torch.uint8), _t(3, dtype=torch.int8),
      _t(3, dtype=torch.bool), _t(3, dtype=torch.float16),
      torch.tensor(2.0, dtype=torch.float64), torch.tensor(3),
      torch.ones(3, dtype=torch.complex64))),
    ("loop_widening", loop_widening, (_t(2, 3), 2)),
    ("indexing", indexing, (_t(4, 4), torch.tensor([[0, 1], [1, 2], [2, 3], [3, 0]]))),
]


# --------------------------------------------------------------------------
# Refined types from tsir's export
# --------------------------------------------------------------------------

def spec_of(inputs):
    """The arg spec of concrete inputs: a tensor type each, `_` for scalars."""
    entries = []
    for value in inputs:
        if isinstance(value, torch.Tensor):
            entries.append(f"{DTYPES[value.dtype]}({', '.join(map(str, value.shape))})")
        else:
            entries.append("_")
    return ", ".join(entries)


def read_type(text, start):
    """The type expression at `start`, up to a top-level `,`, `)` or ` =`."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (c in ",\n" or text.startswith(" =", i)):
            break
        i += 1
    return text[start:i].strip()


def stated_types(text):
    """name -> type text of every value the exported graph defines."""
    types = {}
    for match in re.finditer(r"%([\w.]+) : ", text):
        types[match.group(1)] = read_type(text, match.end())
    return types


def parse_tensor_type(text):
    """(dtype or None, sizes or None) of a tensor type; None if not one."""
    match = re.fullmatch(r"(\w+)(?:\((.*)\))?", text, re.S)
    if not match:
        return None
    name, body = match.groups()
    if name == "Tensor" and body is None:
        return (None, None)
    if name not in DTYPES.values():
        return None
    if body is None:
        return (name, None)
    sizes = []
    for part in re.sub(r"\[[^\]]*\]", "", body).split(","):
        part = part.strip()
        if not part or "=" in part:
            continue
        sizes.append(None if part == "*" else int(part))
    return (name, sizes)


def refine(translate, opt, graph_text, spec, weights=None):
    """The exported text of the refined graph, or raises with tsir's error."""
    result = through_tsir(translate, opt, graph_text,
                          f"\"--tsir-refine-types=arg-spec='{spec}'\"",
                          import_options="--mlir-print-debuginfo")
    if result.returncode:
        raise RuntimeError(result.stderr)
    return result.stdout


# --------------------------------------------------------------------------
# Running the graph in torch, recording every tensor
# --------------------------------------------------------------------------

def instrument(graph):
    """Adds two outputs to `graph`: every tensor it computes, in order, and
    the names of their values."""
    tensor_list = torch._C.ListType.ofTensors()
    str_list = torch._C.ListType(torch._C.StringType.get())
    observed = graph.create("prim::ListConstruct")
    observed.output().setType(tensor_list)
    names = graph.create("prim::ListConstruct")
    names.output().setType(str_list)
    names.insertAfter(graph.param_node())
    observed.insertAfter(graph.param_node())

    def record(values, after):
        cursor = after
        for value in values:
            if (not isinstance(value.type(), torch._C.TensorType) or
                    value.node().kind() == "prim::Uninitialized"):
                continue
            name = graph.create("prim::Constant")
            name.s_("value", value.debugName())
            name.output().setType(torch._C.StringType.get())
            append_name = graph.create("aten::append", [names.output(), name.output()])
            append_name.output().setType(str_list)
            append_value = graph.create("aten::append", [observed.output(), value])
            append_value.output().setType(tensor_list)
            for node in (name, append_name, append_value):
                node.insertAfter(cursor)
                cursor = node
        return cursor

    def walk(block):
        nodes = list(block.nodes())
        for node in nodes:
            for inner in node.blocks():
                record(list(inner.inputs()), inner.paramNode())
                walk(inner)
            record(list(node.outputs()), node)

    record(list(graph.inputs()), names)
    walk(graph.block())
    graph.registerOutput(observed.output())
    graph.registerOutput(names.output())
    graph.makeMultiOutputIntoTuple()


def text_names(graph, text):
    """torch's debug name -> the name the text gives each value. parse_ir
    renumbers node outputs, so values are matched by position: both the
    text and this walk list definitions in program order."""
    values = list(graph.inputs())

    def walk(block):
        for node in block.nodes():
            values.extend(node.outputs())
            for inner in node.blocks():
                values.extend(inner.inputs())
                walk(inner)

    walk(graph.block())
    names = [m.group(1) for m in re.finditer(r"%([\w.]+) : ", text)]
    if len(names) != len(values):
        return None
    return {value.debugName(): name for value, name in zip(values, names)}


def observe(graph, inputs):
    """(debug name, tensor) for every tensor value the run computes."""
    instrument(graph)
    function = torch._C._create_function_from_graph("observed", graph)
    with torch.jit.optimized_execution(False):
        outputs = function(*inputs)
    return list(zip(outputs[-1], outputs[-2]))


# --------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------

class Oracle:
    def __init__(self, translate, opt, verbose):
        self.translate, self.opt, self.verbose = translate, opt, verbose
        self.cases = self.failures = self.facts = 0

    def check(self, name, graph_text, graph, torch_text, inputs,
              spec_inputs=None):
        """`graph_text` goes to tsir; torch runs `graph`, printed as
        `torch_text` (the same graph, maybe rewritten for parse_ir)."""
        spec = spec_of(spec_inputs if spec_inputs is not None else inputs)
        try:
            refined = refine(self.translate, self.opt, graph_text, spec)
        except RuntimeError as error:
            print(f"FAIL {name}: tsir failed:\n{error}")
            self.failures += 1
            return
        types = stated_types(refined)
        names = text_names(graph, torch_text)
        if names is None:
            print(f"skip {name}: cannot match torch's values to the text's")
            return
        observations = [(names[debug], tensor)
                        for debug, tensor in observe(graph, inputs)]
        wrong, refined_values, seen = [], set(), set()
        for value, tensor in observations:
            seen.add(value)
            stated = types.get(value)
            parsed = parse_tensor_type(stated) if stated else None
            if parsed is None:
                continue
            dtype, sizes = parsed
            if dtype is not None or sizes is not None:
                refined_values.add(value)
            real_dtype = DTYPES[tensor.dtype]
            if dtype is not None and dtype != real_dtype:
                wrong.append(f"%{value}: stated {stated}, ran as {real_dtype}{list(tensor.shape)}")
            elif sizes is not None and (
                    len(sizes) != tensor.dim() or
                    any(s is not None and s != r for s, r in zip(sizes, tensor.shape))):
                wrong.append(f"%{value}: stated {stated}, ran as {real_dtype}{list(tensor.shape)}")
        self.cases += 1
        self.facts += len(refined_values)
        share = len(refined_values) / max(len(seen), 1)
        if wrong:
            self.failures += 1
            print(f"FAIL {name}: {len(wrong)} refined types contradict the run")
            for line in wrong:
                print("  " + line)
            if self.verbose:
                print(refined)
            return
        if share < 0.5:
            self.failures += 1
            print(f"FAIL {name}: only {len(refined_values)} of {len(seen)} tensor values refined")
            if self.verbose:
                print(refined)
            return
        print(f"OK {name}: {len(refined_values)} of {len(seen)} tensor values refined, all agree with the run")
        if self.verbose:
            print(refined)


# --------------------------------------------------------------------------
# Corpus cases
# --------------------------------------------------------------------------

def load_safetensors(path):
    """name -> tensor of a safetensors file (little-endian, row-major)."""
    data = path.read_bytes()
    length = int.from_bytes(data[:8], "little")
    header = json.loads(data[8:8 + length])
    kinds = {"F32": np.float32, "F64": np.float64, "F16": np.float16,
             "I64": np.int64, "I32": np.int32, "I16": np.int16, "I8": np.int8,
             "U8": np.uint8, "BOOL": np.bool_}
    tensors = {}
    for key, entry in header.items():
        if key == "__metadata__":
            continue
        begin, end = entry["data_offsets"]
        array = np.frombuffer(data[8 + length + begin:8 + length + end],
                              dtype=kinds[entry["dtype"]])
        tensors[key] = torch.from_numpy(array.reshape(entry["shape"]).copy())
    return tensors


def give_outputs_to_zero_output_nodes(text):
    """parse_ir cannot read the zero-output nodes torch prints (` = kind(...)`).
    Warnings and raises (never reached in a run that succeeded) are dropped;
    `prim::If`/`prim::Loop` get a dummy int output (a loop carries it)."""
    lines = text.split("\n")
    body = next(i for i, line in enumerate(lines) if line.rstrip().endswith("):")) + 1
    out, dummies = [], 0
    i = 0
    while i < len(lines):
        line = lines[i]
        match = re.match(r"( *)= (prim::RaiseException|aten::warn|prim::If|prim::Loop)\b(.*)", line)
        if not match:
            out.append(line)
            i += 1
            continue
        spaces, kind, rest = match.groups()
        # torch prints the empty output list, then ` = `: one space more.
        indent = spaces[:-1]
        if kind in ("prim::RaiseException", "aten::warn"):
            i += 1
            continue
        name = f"__dummy{dummies}"
        dummies += 1
        if kind == "prim::Loop":  # carry the dummy through the loop
            rest = re.sub(r"\)", ", %__zero)", rest, count=1)
        out.append(f"{indent}%{name} : int = {kind}{rest}")
        i += 1
        # This node's blocks: headers two spaces in, returns four spaces in.
        while i < len(lines) and (len(lines[i]) - len(lines[i].lstrip())) > len(indent):
            inner = lines[i]
            depth = len(inner) - len(inner.lstrip())
            if kind == "prim::Loop" and depth == len(indent) + 2 and inner.lstrip().startswith("block"):
                inner = inner.replace("):", f", %{name}.c : int):", 1)
            elif depth == len(indent) + 4 and inner.lstrip().startswith("-> ("):
                carried = f"%{name}.c" if kind == "prim::Loop" else "%__zero"
                inner = (inner.replace("-> ()", f"-> ({carried})") if "-> ()" in inner
                         else inner.rstrip()[:-1] + f", {carried})")
            elif re.match(r" *= (prim::RaiseException|aten::warn)\b", inner):
                i += 1
                continue
            elif re.match(r" *= (prim::If|prim::Loop)\b", inner):
                return None  # nested zero-output control flow: not handled
            out.append(inner)
            i += 1
    if dummies:
        out.insert(body, "  %__zero : int = prim::Constant[value=0]()")
    return "\n".join(out)


def torch_readable(text, case):
    """The graph text rewritten so that parse_ir reads it, and the extra
    inputs (weights) that rewriting added; None if that is not mechanical."""
    lines = text.split("\n")
    # Unused `Function` constants (torch prints them, parse_ir rejects them).
    kept = []
    for line in lines:
        match = re.match(r"\s*%([\w.]+) : Function = prim::Constant", line)
        if match and len(re.findall(f"%{re.escape(match.group(1))}\\b(?!\\.)", text)) == 1:
            continue
        kept.append(line)
    text = "\n".join(kept)
    # Tensor constants (`<Tensor>` or printed inline) become inputs fed
    # from the weights file.
    extra = []
    weights = case / "weights.safetensors"
    if weights.exists():
        for name, value in load_safetensors(weights).items():
            line = r"\n\s*%" + re.escape(name) + r" : [^\n]*= prim::Constant\[[^\n]*"
            if re.search(line, text):
                text = re.sub(line, "", text)
                extra.append((name, value))
    if "<Tensor>" in text:
        return None
    # A class-typed self that nothing reads.
    match = re.match(r"graph\(%self : [\w.]+,\s*", text)
    if match:
        if len(re.findall(r"%self\b(?!\.)", text)) != 1:
            return None
        text = "graph(" + text[match.end():]
    if extra:
        params = "".join(f"%{name} : Tensor,\n      " for name, _ in extra)
        text = text.replace("graph(", "graph(" + params, 1)
    text = give_outputs_to_zero_output_nodes(text)
    if text is None:
        return None
    try:
        torch._C.parse_ir(text)
    except Exception as error:
        return None
    return text, [value for _, value in extra]


def corpus_cases(corpus):
    for case in sorted(p.parent for p in corpus.glob("*/meta.json")):
        meta = json.loads((case / "meta.json").read_text())
        if "parse-only" in meta.get("tags", []):
            continue
        inputs = []
        for i, kind in enumerate(meta["input_types"]):
            array = np.load(case / f"in{i}.npy")
            inputs.append({"int": int, "float": float, "bool": bool}.get(
                kind, lambda a: torch.from_numpy(np.array(a)))(array))
        yield case, meta, inputs


def main():
    translate, opt, corpus = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    oracle = Oracle(translate, opt, "-v" in sys.argv)

    for case, meta, inputs in corpus_cases(corpus):
        text = (case / "graph.txt").read_text()
        readable = torch_readable(text, case)
        if readable is None:
            print(f"skip {case.name}: torch's parse_ir cannot read it")
            continue
        torch_text, weights = readable
        # tsir sees the original; `self` (if any) takes `_`.
        spec_inputs = list(inputs)
        if re.match(r"graph\(%self : ", text):
            spec_inputs.insert(0, None)
        oracle.check(case.name, text, torch._C.parse_ir(torch_text), torch_text,
                     weights + inputs, spec_inputs)

    for name, function, inputs in SCRIPTED:
        _, graph = script_inlined(function)
        oracle.check(name, str(graph), graph, str(graph), list(inputs))

    print(f"{oracle.cases - oracle.failures} of {oracle.cases} cases agree with torch, "
          f"{oracle.facts} refined values checked, {oracle.failures} failures")
    return 1 if oracle.failures or oracle.cases == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
