"""cases.py - tsir's own end-to-end cases: TorchScript functions and inputs.

Each case is a Python function that torch.jit.script compiles, plus one or
more input sets. The functions are written to exercise the optimizer: work
to merge, constants to fold, branches and loops to simplify or unroll,
in-place ops to make functional, tuples and lists to take apart, and the
cases each pass must leave alone (writes to inputs, views, while loops,
side effects). `torch` is the oracle: the expected outputs are those of the
scripted function itself, run eagerly in the same process.
"""

from typing import List, Optional, Tuple

import torch


def cse_duplicates(x, y):
    a = x + y
    b = x + y
    c = torch.sigmoid(a) * torch.sigmoid(b)
    return c + (x + y)


def cse_across_input_write(x, y):
    z = x + y
    x.add_(1)
    w = x + y
    return z, w


def cse_in_branches(x, y, flag: bool):
    a = x * y
    if flag:
        b = x * y
        return a + b
    return a - x * y


def constant_if(x):
    k = 3
    if k * 2 > 5:
        return x + k
    else:
        return x - k


def scalar_arith(x):
    a = 7
    b = -2
    c = a // b + a % b * 3
    d = float(a) / 2.0 + 0.25
    e = (a > b) and not (b == 0)
    if e:
        return x * c + d
    return x


def string_ops(x):
    s = "re" + "lu"
    if s == "relu":
        return torch.relu(x)
    return x


def optional_input(x, y: Optional[torch.Tensor]):
    if y is None:
        return x * 2
    return x + y


def loop_constant_trips(x):
    for i in range(5):
        x = x * 0.5 + i
    return x


def loop_dynamic_trips(x, n: int):
    acc = torch.zeros_like(x)
    for i in range(n):
        acc = acc + x * i
    return acc


def loop_unused_carry(x, n: int):
    y = x
    z = x
    for _ in range(n):
        y = y + 1
        z = z * 2
    return y


def nested_loops(x):
    for i in range(3):
        for j in range(4):
            x = x + i * j
    return x


def while_loop(x, n: int):
    i = 0
    while i < n:
        x = x * 1.5
        i += 1
    return x


def inplace_on_fresh(x, y):
    z = x.clone()
    z.add_(y)
    z.relu_()
    w = z * 2
    w.mul_(3)
    return w


def inplace_on_view(x):
    z = x.clone()
    v = z.view(-1)
    v.add_(1)
    return z


def inplace_on_input(x, y):
    x.mul_(2)
    return x + y


def list_appends(x, y):
    parts: List[torch.Tensor] = []
    parts.append(x)
    parts.append(y * 2)
    return torch.cat(parts, 0)


def list_append_in_loop(x, n: int):
    parts: List[torch.Tensor] = []
    for i in range(n):
        parts.append(x + i)
    parts.append(x)
    return torch.stack(parts, 0).sum(0), len(parts)


def list_indexing(x):
    sizes = [2, 3, 4]
    return x * sizes[1] + len(sizes)


def tuples(x, y):
    t = (x, y)
    a, b = t
    return a * b + t[0]


def tuple_through_if(x, y, flag: bool):
    if flag:
        t = (x, y)
    else:
        t = (y, x)
    return t[0] - t[1]


def tuple_through_loop(x, n: int):
    t = (x, x * 2)
    for _ in range(n):
        t = (t[1], t[0] + t[1])
    return t[0]


def tuple_output(x):
    return (x + 1, (x * 2, x - 1))


def dropout_eval(x):
    return torch.dropout(x, 0.5, False) + torch.relu(x)


def elementwise_chain(x, y):
    a = torch.sigmoid(x) * torch.tanh(y)
    b = a + 1.0
    c = torch.where(b > 1.2, b, -b)
    return torch.clamp(c * c - 0.5, -1.0, 1.0)


def matmul_and_pointwise(x, w, b):
    h = torch.mm(x, w)
    h = h + b
    h = torch.relu(h) * 2.0 - 1.0
    return torch.mm(h, w.t().t().t())


def raise_on_negative(x, n: int):
    if n < 0:
        raise ValueError("n must be non-negative")
    return x * n


def int_tensor_roundtrip(x, n: int):
    t = torch.tensor(n)
    m = int(t)
    return x + m


def size_arith(x):
    n = x.size(0)
    m = x.dim()
    return x.reshape(n * 2, -1) * m


def expand_noop(x):
    return x.expand_as(x) + x.type_as(x)


def _t(*shape, seed=0, dtype=torch.float32):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g).to(dtype)


# (name, function, list of input tuples)
CASES = [
    ("cse_duplicates", cse_duplicates, [(_t(3, 4), _t(3, 4, seed=1))]),
    ("cse_across_input_write", cse_across_input_write,
     [(_t(5), _t(5, seed=1))]),
    ("cse_in_branches", cse_in_branches,
     [(_t(4), _t(4, seed=1), True), (_t(4), _t(4, seed=1), False)]),
    ("constant_if", constant_if, [(_t(3),)]),
    ("scalar_arith", scalar_arith, [(_t(2, 2),)]),
    ("string_ops", string_ops, [(_t(6),)]),
    ("optional_input", optional_input, [(_t(3), _t(3, seed=1)), (_t(3), None)]),
    ("loop_constant_trips", loop_constant_trips, [(_t(4),)]),
    ("loop_dynamic_trips", loop_dynamic_trips,
     [(_t(3), n) for n in (0, 1, 7, 8, 9, 17, -3)]),
    ("loop_unused_carry", loop_unused_carry, [(_t(2), 3)]),
    ("nested_loops", nested_loops, [(_t(3),)]),
    ("while_loop", while_loop, [(_t(3), 0), (_t(3), 4)]),
    ("inplace_on_fresh", inplace_on_fresh, [(_t(4), _t(4, seed=1))]),
    ("inplace_on_view", inplace_on_view, [(_t(2, 3),)]),
    ("inplace_on_input", inplace_on_input, [(_t(3), _t(3, seed=1))]),
    ("list_appends", list_appends, [(_t(2, 3), _t(1, 3, seed=1))]),
    ("list_append_in_loop", list_append_in_loop, [(_t(3), 0), (_t(3), 4)]),
    ("list_indexing", list_indexing, [(_t(3),)]),
    ("tuples", tuples, [(_t(3), _t(3, seed=1))]),
    ("tuple_through_if", tuple_through_if,
     [(_t(3), _t(3, seed=1), True), (_t(3), _t(3, seed=1), False)]),
    ("tuple_through_loop", tuple_through_loop, [(_t(2), 0), (_t(2), 5)]),
    ("tuple_output", tuple_output, [(_t(2),)]),
    ("dropout_eval", dropout_eval, [(_t(8),)]),
    ("elementwise_chain", elementwise_chain, [(_t(4, 5), _t(4, 5, seed=1))]),
    ("matmul_and_pointwise", matmul_and_pointwise,
     [(_t(3, 3), _t(3, 3, seed=1), _t(3, seed=2))]),
    ("raise_on_negative", raise_on_negative, [(_t(3), 2)]),
    ("int_tensor_roundtrip", int_tensor_roundtrip, [(_t(3), 5)]),
    ("size_arith", size_arith, [(_t(4, 6),)]),
    ("expand_noop", expand_noop, [(_t(2, 3),)]),
]


# Graphs written as TorchScript text: what the script frontend would already
# have cleaned up (it folds immutable constants and removes dead code before
# printing), so that the optimizer gets to do it. Inputs as above; the
# oracle is torch running the text itself.
IR_CASES = [
    ("ir_scalar_folding", """graph(%x : Tensor):
  %one : int = prim::Constant[value=1]()
  %three : int = prim::Constant[value=3]()
  %minus7 : int = prim::Constant[value=-7]()
  %half : float = prim::Constant[value=0.5]()
  %a : int = aten::mul(%three, %three)
  %b : int = aten::floordiv(%minus7, %three)
  %c : int = aten::remainder(%minus7, %three)
  %d : float = aten::mul(%half, %three)
  %e : bool = aten::gt(%a, %b)
  %s : str = prim::Constant[value="ab"]()
  %t : str = prim::Constant[value="ab"]()
  %f : bool = aten::eq(%s, %t)
  %g : bool = aten::__and__(%e, %f)
  %r : Tensor = prim::If(%g)
    block0():
      %r1 : Tensor = aten::mul(%x, %a)
      %r2 : Tensor = aten::add(%r1, %b, %one)
      %r3 : Tensor = aten::add(%r2, %c, %one)
      %r4 : Tensor = aten::mul(%r3, %d)
      -> (%r4)
    block1():
      -> (%x)
  return (%r)
""", [(_t(3),)]),
    ("ir_dead_code", """graph(%x : Tensor, %n : int):
  %true : bool = prim::Constant[value=1]()
  %one : int = prim::Constant[value=1]()
  %unused : Tensor = aten::mul(%x, %x)
  %y : Tensor, %z : Tensor = prim::Loop(%n, %true, %x, %x)
    block0(%i : int, %y.1 : Tensor, %z.1 : Tensor):
      %y.2 : Tensor = aten::add(%y.1, %x, %one)
      %z.2 : Tensor = aten::mul(%z.1, %x)
      -> (%true, %y.2, %z.2)
  %c : bool = aten::gt(%n, %one)
  %p : Tensor, %q : Tensor = prim::If(%c)
    block0():
      %p1 : Tensor = aten::neg(%y)
      -> (%p1, %y)
    block1():
      -> (%y, %y)
  return (%p)
""", [(_t(3), 0), (_t(3), 2), (_t(3), 5)]),
    ("ir_cse_and_pooling", """graph(%x : Tensor, %y : Tensor, %flag : bool):
  %one : int = prim::Constant[value=1]()
  %a : Tensor = aten::add(%x, %y, %one)
  %one.2 : int = prim::Constant[value=1]()
  %b : Tensor = aten::add(%x, %y, %one.2)
  %r : Tensor = prim::If(%flag)
    block0():
      %one.3 : int = prim::Constant[value=1]()
      %c : Tensor = aten::add(%x, %y, %one.3)
      %d : Tensor = aten::mul(%c, %b)
      -> (%d)
    block1():
      %e : Tensor = aten::mul(%a, %b)
      -> (%e)
  %s : Tensor = aten::add(%r, %a, %one)
  return (%s)
""", [(_t(4), _t(4, seed=1), True), (_t(4), _t(4, seed=1), False)]),
    ("ir_loop_invariant_carry", """graph(%x : Tensor, %n : int):
  %true : bool = prim::Constant[value=1]()
  %one : int = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %a : Tensor, %b : Tensor = prim::Loop(%n, %true, %x, %x)
    block0(%i : int, %a.1 : Tensor, %b.1 : Tensor):
      %a.2 : Tensor = aten::add(%a.1, %b.1, %one)
      -> (%true, %a.2, %b.1)
  %never : Tensor = prim::Loop(%zero, %true, %x)
    block0(%j : int, %c.1 : Tensor):
      %c.2 : Tensor = aten::mul(%c.1, %c.1)
      -> (%true, %c.2)
  %out : Tensor = aten::add(%a, %never, %one)
  return (%out)
""", [(_t(3), 0), (_t(3), 3)]),
    ("ir_sizes_from_types", """graph(%x : Float(2, 3)):
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %n : int = aten::size(%x, %zero)
  %m : int = aten::size(%x, %one)
  %d : int = aten::dim(%x)
  %k : int = aten::mul(%n, %m)
  %k2 : int = aten::add(%k, %d)
  %y : Tensor = aten::mul(%x, %k2)
  return (%y)
""", [(_t(2, 3),)]),
]
