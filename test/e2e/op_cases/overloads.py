"""overloads.py - generated end-to-end cases for the typed overloads no
other family reaches: the `number` (Scalar) forms of scalar arithmetic and
comparison that `Tensor.item()` leads to, implicit tensor-to-scalar
conversions, device comparisons, the to() overloads with a device or a
layout, warnings, meshgrid without indexing, std_mean with a correction,
single-argument where, dicts built, written and read, rand/randn with a (None) generator, and, as
hand-written graphs that torch parses and runs itself, the overloads that
scripting never emits (rsub.Tensor, view.dtype, alias, adjoint,
_convolution.deprecated, __interpolate, FloatImplicit, ScalarImplicit,
to.prim_dtype), and in tsir's dialects the two that no text resolves to
(Float.int, pow.int_to_int)."""

import warnings
from typing import Dict

import torch
import torch.nn.functional as F

from op_case import Case

torch.manual_seed(0)


def number_arithmetic(x, y):
    a = x.item()
    b = y.item()
    return (a + b, a - b, a == b, a != b, a <= b, a > b, a >= b, a // b,
            a % b, int(a))


def implicit_conversions(x, n: torch.Tensor):
    # n becomes an int (IntImplicit).
    return x.narrow(0, 0, n)


def devices(x):
    return x.device == torch.device("cpu"), x.device != torch.device("cpu")


def to_overloads(x):
    return (x.to(torch.device("cpu"), torch.float64),
            x.to(dtype=torch.float64, layout=torch.strided,
                 device=torch.device("cpu")))


def warn_and_add(x):
    warnings.warn("tsir passes warnings to the runtime's warn kernel")
    return x + 1


def meshgrid_default(a, b):
    return torch.meshgrid([a, b])


def std_mean_correction(x):
    return torch.std_mean(x, 1, correction=0)


def where_condition(x):
    return torch.where(x > 0)


def dicts(x, n: int):
    d: Dict[str, int] = {"a": 1, "b": n}
    d["c"] = 3
    d["a"] = 5
    weights: Dict[int, torch.Tensor] = {0: x, 1: x * 2}
    return (x * d["a"] + d["b"], "c" in d, "z" in d, weights[1],
            len(d), d.get("b"))


def random_with_generator(x):
    return torch.rand([2, 3], generator=None), torch.randn([4], generator=None)


RSUB_TENSOR = """
graph(%a : Tensor, %b : Tensor):
  %alpha : int = prim::Constant[value=2]()
  %r : Tensor = aten::rsub(%a, %b, %alpha)
  return (%r)
"""

VIEW_DTYPE_ALIAS = """
graph(%x : Tensor):
  %int32 : int = prim::Constant[value=3]()
  %v : Tensor = aten::view(%x, %int32)
  %a : Tensor = aten::alias(%x)
  %t : Tensor = aten::adjoint(%x)
  %r : (Tensor, Tensor, Tensor) = prim::TupleConstruct(%v, %a, %t)
  return (%r)
"""

CONVOLUTION_DEPRECATED = """
graph(%x : Tensor, %w : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %false : bool = prim::Constant[value=0]()
  %true : bool = prim::Constant[value=1]()
  %stride : int[] = prim::ListConstruct(%one, %one)
  %padding : int[] = prim::ListConstruct(%one, %zero)
  %dilation : int[] = prim::ListConstruct(%one, %one)
  %output_padding : int[] = prim::ListConstruct(%zero, %zero)
  %r : Tensor = aten::_convolution(%x, %w, %b, %stride, %padding, %dilation, %false, %output_padding, %one, %false, %false, %true)
  return (%r)
"""

IMPLICIT_SCALARS_TO_PRIM_DTYPE = """
graph(%x : Tensor, %t : Tensor):
  %none : int? = prim::Constant()
  %false : bool = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %f : float = aten::FloatImplicit(%t)
  %s : Scalar = aten::ScalarImplicit(%t)
  %a : Tensor = aten::mul(%x, %f)
  %b : Tensor = aten::add(%x, %s, %one)
  %c : Tensor = aten::to(%x, %none, %false, %false)
  %r : (Tensor, Tensor, Tensor) = prim::TupleConstruct(%a, %b, %c)
  return (%r)
"""

# torch and tsir both resolve `aten::Float(%int)` to Float.Scalar and
# `aten::pow(%int, %int)` to pow.int (a float), so these two overloads are
# reachable only from tsir's own dialects.
FLOAT_INT_POW_INT_TO_INT = """
func.func @graph(%n: i64, %e: i64) -> (f64, i64) {
  %0 = aten.Float.int %n : (i64) -> f64
  %1 = aten.pow.int_to_int %n, %e : (i64, i64) -> i64
  return %0, %1 : f64, i64
}
"""

# A warn node without torch's warn_id attribute: the typed op (scripted
# graphs carry the attribute and stay generic). torch's interpreter needs
# the attribute, so the expected value comes from a reference.
WARN_WITHOUT_ID = """
graph(%x : Tensor):
  %msg : str = prim::Constant[value="careful"]()
  %lvl : int = prim::Constant[value=2]()
  aten::warn(%msg, %lvl)
  %one : int = prim::Constant[value=1]()
  %r : Tensor = aten::add(%x, %one, %one)
  return (%r)
"""

INTERPOLATE = """
graph(%x : Tensor):
  %none : NoneType = prim::Constant()
  %scale : float = prim::Constant[value=2.]()
  %mode : str = prim::Constant[value="nearest"]()
  %false : bool = prim::Constant[value=0]()
  %r : Tensor = aten::__interpolate(%x, %none, %scale, %mode, %none, %none, %false)
  return (%r)
"""


CASES = [
    Case(number_arithmetic, [torch.tensor(7.5), torch.tensor(-2.0)]),
    Case(number_arithmetic, [torch.tensor(7), torch.tensor(-2)],
         name="number_arithmetic_int"),
    Case(implicit_conversions, [torch.randn(5, 2), torch.tensor(3)]),
    Case(devices, [torch.randn(2)]),
    Case(to_overloads, [torch.randn(2, 3)]),
    Case(warn_and_add, [torch.randn(3)]),
    Case(meshgrid_default, [torch.randn(3), torch.randn(2)]),
    Case(std_mean_correction, [torch.randn(3, 4)]),
    Case(where_condition, [torch.randn(3, 4)]),
    Case(random_with_generator, [torch.randn(1)], check="shape"),
    Case(dicts, [torch.randn(3), 7]),
    Case(None, [torch.randn(3, 4), torch.randn(4)], name="rsub_tensor",
         graph=RSUB_TENSOR),
    Case(None, [torch.randn(2, 3)], name="view_dtype_alias_adjoint",
         graph=VIEW_DTYPE_ALIAS),
    Case(None, [torch.randn(1, 2, 5, 5), torch.randn(3, 2, 3, 3),
                torch.randn(3)],
         name="convolution_deprecated", graph=CONVOLUTION_DEPRECATED),
    Case(None, [torch.randn(3), torch.tensor(2.5)],
         name="implicit_scalars_to_prim_dtype",
         graph=IMPLICIT_SCALARS_TO_PRIM_DTYPE),
    Case(None, [torch.randn(3, dtype=torch.float64), torch.tensor(3)],
         name="implicit_scalars_of_int_tensor",
         graph=IMPLICIT_SCALARS_TO_PRIM_DTYPE),
    Case(None, [-3, 3], name="float_int_pow_int_to_int",
         mlir=FLOAT_INT_POW_INT_TO_INT,
         reference=lambda n, e: (float(n), n ** e)),
    Case(None, [torch.randn(4)], name="warn_without_id", graph=WARN_WITHOUT_ID,
         reference=lambda x: x + 1),
    Case(None, [torch.randn(1, 2, 3, 3)], name="interpolate",
         graph=INTERPOLATE,
         reference=lambda x: F.interpolate(x, scale_factor=2.0, mode="nearest")),
]
