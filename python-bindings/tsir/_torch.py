# _torch.py - PyTorch interop: tensors in and out, and tsir.from_torch.
"""torch is optional: nothing here imports it unless the caller hands over
something of torch's (then torch is already imported) or calls from_torch.

Tensors cross without copies: a CPU tensor's `numpy()` view shares its
memory, and tsir's outputs come back through `torch.from_numpy`. numpy has
no bfloat16, so bfloat16 tensors go through DLPack instead."""

import sys

import numpy as np

from ._tsir import Error


def is_tensor(value):
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.Tensor)


def native_tensor(value):
    """What the native module takes for a tensor: a numpy array over the
    same memory, or a DLPack capsule for bfloat16."""
    if not is_tensor(value):
        # A capsule is already what the native module takes (a bfloat16
        # tensor converted once, as from_torch's weights are).
        if isinstance(value, np.ndarray) or _is_capsule(value):
            return value
        return np.asarray(value)
    import torch
    if value.device.type != "cpu":
        raise Error(f"tsir runs on the CPU; the tensor is on {value.device}: "
                    "move it with .cpu()")
    value = value.detach()
    if value.is_conj():
        value = value.resolve_conj()
    if value.is_neg():
        value = value.resolve_neg()
    if value.dtype == torch.bfloat16:
        return torch.utils.dlpack.to_dlpack(value)
    try:
        return value.numpy()
    except TypeError as error:
        raise TypeError(f"cannot pass a {value.dtype} tensor to tsir: {error}") from None


def _is_capsule(value):
    return type(value).__name__ == "PyCapsule"


def to_torch(value):
    """An output as torch: arrays and DLPack capsules become tensors over
    the same memory; lists, tuples and dicts are converted inside."""
    import torch
    if isinstance(value, np.ndarray):
        return torch.from_numpy(value)
    if _is_capsule(value):
        return torch.utils.dlpack.from_dlpack(value)
    if isinstance(value, list):
        return [to_torch(element) for element in value]
    if isinstance(value, tuple):
        return tuple(to_torch(element) for element in value)
    if isinstance(value, dict):
        return {key: to_torch(element) for key, element in value.items()}
    return value


def tensor_constants(graph):
    """Every tensor-typed prim::Constant of a torch graph, blocks included,
    by value name: a frozen module's weights (`<Tensor>`), and the small
    tensors torch prints inline with only four significant digits; element
    i of a constant list of tensors (`[<Tensor>, ...]`, nn.LSTM's
    parameters) is `name[i]`, as tsir's importer reads it."""
    import torch
    constants = {}

    def walk(nodes):
        for node in nodes:
            if node.kind() == "prim::Constant" and node.outputsSize() == 1:
                output = node.output()
                if isinstance(output.type(), torch._C.TensorType):
                    value = output.toIValue()
                    if isinstance(value, torch.Tensor):
                        constants[output.debugName()] = native_tensor(value)
                elif isinstance(output.type(), torch._C.ListType):
                    value = output.toIValue()
                    if value and all(isinstance(v, torch.Tensor) for v in value):
                        for i, element in enumerate(value):
                            constants[f"{output.debugName()}[{i}]"] = \
                                native_tensor(element)
            for block in node.blocks():
                walk(block.nodes())

    walk(graph.nodes())
    return constants


def module_state(module, graph):
    """The attributes of `module` that its frozen `graph` still reads from
    `self` through chains of prim::GetAttr (freezing keeps an attribute
    forward assigns: SSD's `_has_warned`, the anchor generator's
    `cell_anchors`), as tsir's executor takes them: by `self.a.b`, a list
    of tensors as `self.a.b[i]`, bools, ints and floats as 0-d arrays."""
    import torch
    inputs = list(graph.inputs())
    if not inputs or not isinstance(module, torch.nn.Module):
        return {}
    paths = {inputs[0].unique(): ()}
    state = {}

    def walk(nodes):
        for node in nodes:
            if node.kind() == "prim::GetAttr" and \
                    node.input().unique() in paths:
                path = paths[node.input().unique()] + (node.s("name"),)
                value = module
                for part in path:
                    value = getattr(value, part, None)
                name = "self." + ".".join(path)
                # A submodule of a frozen module is a torch._C.ScriptModule.
                if isinstance(value, (torch.nn.Module, torch._C.ScriptModule)):
                    paths[node.output().unique()] = path
                elif isinstance(value, torch.Tensor):
                    state[name] = native_tensor(value)
                elif isinstance(value, list) and value and all(
                        isinstance(v, torch.Tensor) for v in value):
                    for i, element in enumerate(value):
                        state[f"{name}[{i}]"] = native_tensor(element)
                elif isinstance(value, (bool, int, float)):
                    state[name] = np.array(value)
            for block in node.blocks():
                walk(block.nodes())

    walk(graph.nodes())
    return state


def scripted_graph(obj, freeze=True):
    """The inlined torch graph of a TorchScript function or module (see
    from_torch for what is scripted and frozen), the name it goes by, and
    its forward's argument defaults (_defaults)."""
    import torch

    if not isinstance(obj, (torch.jit.ScriptModule, torch.jit.ScriptFunction)):
        if not callable(obj):
            raise TypeError(f"tsir takes a torch function or module, not {type(obj).__name__}")
        obj = torch.jit.script(obj)
    if isinstance(obj, torch.jit.ScriptModule):
        name = obj.original_name
        method = _forward_method(obj)
        if freeze and not _is_frozen(obj, method) and obj.training:
            return (_state_as_constants(obj, method, name), name,
                    _defaults(obj, method))
        if freeze and not _is_frozen(obj, method):
            # Freezing keeps `forward`; an overload is kept by name.
            obj = torch.jit.freeze(
                obj, preserved_attrs=[] if method == "forward" else [method])
        return _method_graph(obj, method), name, _defaults(obj, method)
    return obj.inlined_graph, obj.name, _defaults(obj)


def _state_as_constants(module, method, name):
    """The graph of a module in training mode, which torch.jit.freeze
    refuses: each `self` attribute it reads (prim::GetAttr chains, blocks
    included) becomes a constant of the attribute's present value. Tensors
    (parameters and buffers) keep their qualified names (`self.bn1.weight`)
    and become the graph's weights, unfolded (no batch norm is fused into
    a convolution), so that gradients come per parameter; flags such as
    `training` become plain constants, so the graph's `if self.training`
    folds. Writes to the module's buffers do not reach the module (the
    running statistics of batch norm stay as they are)."""
    import torch
    graph = _method_graph(module, method)
    nodes = list(graph.nodes())
    if not nodes:
        return graph
    top = nodes[0]
    self_value = next(graph.inputs())
    paths = {self_value.unique(): ()}
    reads = []
    # One weight per tensor, however many reads reach it (both branches of
    # an `if`, a tied weight, a module registered twice), named as
    # named_parameters/named_buffers name it: two weights over one
    # parameter would split its gradient between them.
    def key(tensor):
        return (tensor.data_ptr(), tuple(tensor.shape), tuple(tensor.stride()),
                tensor.dtype)
    canonical = {}
    for prefix_name, tensor in list(module.named_buffers()) + list(
            module.named_parameters()):
        canonical.setdefault(key(tensor), prefix_name)
    made = {}

    def constant(value, path):
        if isinstance(value, torch.Tensor):
            tensor_key = key(value)
            if tensor_key in made:
                return made[tensor_key]
            node = graph.create("prim::Constant")
            node.t_("value", value.detach())
            node.output().inferTypeFrom(value.detach())
            node.insertBefore(top)
            node.output().setDebugName(
                "self." + canonical.get(tensor_key, ".".join(path)))
            made[tensor_key] = node.output()
            return node.output()
        if (isinstance(value, (list, tuple)) and value
                and all(isinstance(v, torch.Tensor) for v in value)):
            # nn.LSTM's _flat_weights: a list (or tuple) of parameters,
            # each a weight of its own.
            elements = [constant(v, path + (str(i),))
                        for i, v in enumerate(value)]
            tensor = torch._C.TensorType.get()
            if isinstance(value, list):
                node = graph.create("prim::ListConstruct", elements)
                node.output().setType(torch._C.ListType(tensor))
            else:
                node = graph.create("prim::TupleConstruct", elements)
                node.output().setType(
                    torch._C.TupleType([tensor] * len(elements)))
            node.insertBefore(top)
            return node.output()
        try:
            result = graph.insertConstant(value)
        except RuntimeError:
            raise Error(f"{name} in training mode reads self.{'.'.join(path)}, "
                        f"a {type(value).__name__}, which tsir cannot hold as a "
                        "constant: call .eval() first") from None
        result.node().moveBefore(top)
        return result

    def walk(block_nodes):
        for node in block_nodes:
            kind = node.kind()
            if kind == "prim::SetAttr":
                raise Error(f"{name} in training mode sets self attribute "
                            f"'{node.s('name')}' in its forward, which tsir "
                            "does not run: call .eval() first")
            if kind == "prim::GetAttr" and node.input().unique() in paths:
                path = paths[node.input().unique()] + (node.s("name"),)
                value = module
                for part in path:
                    value = getattr(value, part)
                reads.append(node)
                if isinstance(value, (torch.nn.Module, torch.jit.ScriptModule)):
                    paths[node.output().unique()] = path
                else:
                    node.output().replaceAllUsesWith(constant(value, path))
            for block in node.blocks():
                walk(block.nodes())

    walk(nodes)
    for node in reversed(reads):
        if not node.output().uses():
            node.destroy()
    return graph


def _forward_method(module):
    """The method a call of `module` runs: `forward`, or, for an overloaded
    forward (nn.LSTM's takes a Tensor or a PackedSequence, scripted as
    forward__0 and forward__1), the overload whose input is a Tensor."""
    import torch
    names = module._c._method_names()
    if "forward" in names:
        return "forward"
    overloads = sorted(n for n in names if n.startswith("forward__"))
    for overload in overloads:
        arguments = module._c._get_method(overload).schema.arguments[1:]
        if arguments and isinstance(arguments[0].type, torch._C.TensorType):
            return overload
    return overloads[0] if overloads else "forward"


def _method_graph(module, method):
    """The graph of `module`'s `method` with the methods it calls inlined."""
    import torch
    if method == "forward":
        return module.inlined_graph
    graph = module._c._get_method(method).graph.copy()
    torch._C._jit_pass_inline(graph)
    return graph


def _defaults(obj, method="forward"):
    """The defaults of the caller's arguments of `obj`'s forward (its
    `method`; of the function itself for a ScriptFunction), by position:
    None where an argument has none. A module's `self` is not among them."""
    import torch
    try:
        schema = obj._c._get_method(method).schema if isinstance(
            obj, torch.jit.ScriptModule) else obj.schema
    except (AttributeError, RuntimeError):  # overloaded forward, ...
        return []
    arguments = list(schema.arguments)
    if isinstance(obj, torch.jit.ScriptModule):
        arguments = arguments[1:]
    return [(arg.name, arg.default_value) if arg.has_default_value()
            else (arg.name, _NO_DEFAULT) for arg in arguments]


# What _defaults says of an argument the caller must give.
_NO_DEFAULT = object()


def from_torch(obj, *, freeze=True):
    """A tsir.Graph from a TorchScript function or module, weights attached.

    obj: a scripted or traced function or module (torch.jit.script,
    torch.jit.trace, torch.jit.freeze), or a plain function or nn.Module,
    which is scripted first. A module that is not frozen yet is frozen
    (torch.jit.freeze) unless freeze=False: a frozen graph holds its
    parameters as constants, which become the graph's weights. A module in
    training mode is not frozen but has its attributes read once: its
    parameters and buffers become weights by their qualified names
    (`self.bn1.weight`), unfolded, for tsir.grad; batch norm uses the
    batch's statistics and dropout drops, as the module does in training
    mode. The graph's `parameter_names` lists the weights that are the
    module's parameters. No file is written.
    """
    from ._graph import import_graph

    torch_graph, name, defaults = scripted_graph(obj, freeze)
    weights = tensor_constants(torch_graph)
    weights.update(module_state(obj, torch_graph))
    graph = import_graph(str(torch_graph), weights or None, name=f"<torch {name}>")
    # tsir.compile's Function fills omitted trailing arguments from these,
    # as calling the module does.
    graph.argument_defaults = defaults
    # tsir.grad's wrt="parameters".
    graph.parameter_names = _parameter_names(obj, weights)
    return graph


def _parameter_names(obj, weights):
    """The weights that are `obj`'s parameters (requiring grad), by the
    names from_torch gives them; empty for a function or a frozen module."""
    import torch
    if not isinstance(obj, torch.nn.Module):
        return []
    return [f"self.{name}" for name, parameter in obj.named_parameters()
            if parameter.requires_grad and f"self.{name}" in weights]


def _is_frozen(module, method="forward"):
    """A frozen module's forward (its `method`), with the methods it calls
    inlined, reads no attributes of `self`."""
    return not _method_graph(module, method).findAllNodes("prim::GetAttr")
