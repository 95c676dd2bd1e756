"""elementwise.py - generated end-to-end cases for the Elementwise family:
arithmetic with alpha, rounding modes and type promotion, pointwise math,
activations, comparisons, logic, where/masked_fill/clamp and dtype
conversions, over broadcasting, non-contiguous, 0-d and empty inputs and the
dtypes torch computes them in."""

import torch
import torch.nn.functional as F

from op_case import Case

torch.manual_seed(0)


def randn(*shape):
    return torch.randn(*shape)


def ints(*shape, low=-20, high=20, dtype=torch.int64):
    return torch.randint(low, high, shape, dtype=dtype)


def nonzero_ints(*shape, dtype=torch.int64):
    x = torch.randint(1, 9, shape, dtype=dtype)
    signs = torch.randint(0, 2, shape, dtype=dtype) * 2 - 1
    return x * signs


def positive(*shape):
    return torch.rand(*shape) + 0.1


def with_specials(*shape):
    """Random floats with NaN, +-inf and +-0 among them."""
    x = torch.randn(*shape).flatten()
    x[:6] = torch.tensor([float("nan"), float("inf"), -float("inf"), 0.0,
                          -0.0, 1.0])
    return x.reshape(shape)


# --- Arithmetic ------------------------------------------------------------

def add(a, b):
    return a + b


def add_alpha(a, b):
    return torch.add(a, b, alpha=2.5)


def add_scalar(a):
    return a + 2.5


def add_int_scalar(a):
    return a + 3


def add_runtime_scalar(a, s: float):
    return torch.add(a, s, alpha=2)


def sub(a, b):
    return a - b


def sub_alpha(a, b):
    return torch.sub(a, b, alpha=-0.5)


def sub_scalar(a):
    return a - 1.5


def rsub_scalar(a):
    return 2.0 - a


def rsub_tensor(a, b):
    return torch.rsub(a, b, alpha=3)


def mul(a, b):
    return a * b


def mul_scalar(a):
    return a * -4


def div(a, b):
    return a / b


def div_scalar(a):
    return a / 4


def div_trunc(a, b):
    return torch.div(a, b, rounding_mode="trunc")


def div_floor(a, b):
    return torch.div(a, b, rounding_mode="floor")


def div_floor_scalar(a):
    return torch.div(a, -3, rounding_mode="floor")


def floor_divide(a, b):
    return torch.floor_divide(a, b)


def floordiv_op(a):
    return a // 4


def remainder(a, b):
    return torch.remainder(a, b)


def remainder_scalar(a):
    return a % -3


def fmod(a, b):
    return torch.fmod(a, b)


def fmod_scalar(a):
    return torch.fmod(a, 2.5)


def pow_tensor(a, b):
    return torch.pow(a, b)


def pow_square(a):
    return a ** 2


def pow_cube(a):
    return a ** 3


def pow_half(a):
    return a ** 0.5


def pow_neg_one(a):
    return a ** -1


def pow_general(a):
    return a ** 1.7


def pow_scalar_base(a):
    return torch.pow(2.0, a)


def neg(a):
    return -a


def abs_(a):
    return torch.abs(a)


def reciprocal(a):
    return torch.reciprocal(a)


def square(a):
    return torch.square(a)


def addcmul(a, b, c):
    return torch.addcmul(a, b, c, value=0.5)


def addcdiv(a, b, c):
    return torch.addcdiv(a, b, c, value=-2)


def lerp_scalar(a, b):
    return torch.lerp(a, b, 0.3)


def lerp_tensor(a, b, w):
    return torch.lerp(a, b, w)


def maximum(a, b):
    return torch.maximum(a, b)


def minimum(a, b):
    return torch.minimum(a, b)


def max_other(a, b):
    return torch.max(a, b)


def min_other(a, b):
    return torch.min(a, b)


def atan2(a, b):
    return torch.atan2(a, b)


def chain(x, y):
    return torch.tanh(x * y + 1.0) - torch.sigmoid(y) / 2


# --- Pointwise math ---------------------------------------------------------

def exp(a):
    return torch.exp(a)


def log(a):
    return torch.log(a)


def log2(a):
    return torch.log2(a)


def log10(a):
    return torch.log10(a)


def log1p(a):
    return torch.log1p(a)


def expm1(a):
    return torch.expm1(a)


def sqrt(a):
    return torch.sqrt(a)


def rsqrt(a):
    return torch.rsqrt(a)


def sin(a):
    return torch.sin(a)


def cos(a):
    return torch.cos(a)


def atan(a):
    return torch.atan(a)


def tanh(a):
    return torch.tanh(a)


def sigmoid(a):
    return torch.sigmoid(a)


def erf(a):
    return torch.erf(a)


def floor(a):
    return torch.floor(a)


def ceil(a):
    return torch.ceil(a)


def round_(a):
    return torch.round(a)


def round_decimals(a):
    return torch.round(a, decimals=2)


def round_negative_decimals(a):
    return torch.round(a, decimals=-1)


def trunc(a):
    return torch.trunc(a)


def sign(a):
    return torch.sign(a)


def isnan(a):
    return torch.isnan(a)


def isinf(a):
    return torch.isinf(a)


def isfinite(a):
    return torch.isfinite(a)


# --- Activations --------------------------------------------------------------

def relu(a):
    return torch.relu(a)


def relu6(a):
    return F.relu6(a)


def leaky_relu(a):
    return F.leaky_relu(a, 0.2)


def elu(a):
    return F.elu(a, alpha=0.7)


def selu(a):
    return F.selu(a)


def gelu(a):
    return F.gelu(a)


def gelu_tanh(a):
    return F.gelu(a, approximate="tanh")


def silu(a):
    return F.silu(a)


def hardswish(a):
    return F.hardswish(a)


def hardsigmoid(a):
    return F.hardsigmoid(a)


def hardtanh(a):
    return F.hardtanh(a, -0.5, 0.75)


def softplus(a):
    return F.softplus(a, beta=2.0, threshold=3.0)


def log_sigmoid(a):
    return F.logsigmoid(a)


def prelu(a, w):
    return F.prelu(a, w)


def clamp(a):
    return torch.clamp(a, -0.5, 0.5)


def clamp_min_only(a):
    return torch.clamp(a, min=0.1)


def clamp_max_only(a):
    return torch.clamp(a, max=-0.1)


def clamp_tensor(a, lo, hi):
    return torch.clamp(a, lo, hi)


def clamp_tensor_min_only(a, lo):
    return torch.clamp(a, min=lo)


def clamp_min(a):
    return torch.clamp_min(a, 0.25)


def clamp_max(a):
    return torch.clamp_max(a, 0.25)


# --- Comparisons and logic ----------------------------------------------------

def eq(a, b):
    return a == b


def ne(a, b):
    return a != b


def lt(a, b):
    return a < b


def le(a, b):
    return a <= b


def gt(a, b):
    return a > b


def ge(a, b):
    return a >= b


def eq_scalar(a):
    return a == 2


def lt_float_scalar(a):
    return a < 2.5


def gt_scalar(a):
    return a > 0.0


def ge_scalar(a):
    return a >= -1


def le_scalar(a):
    return a <= 0.5


def ne_scalar(a):
    return a != 0


def logical_and(a, b):
    return torch.logical_and(a, b)


def logical_or(a, b):
    return torch.logical_or(a, b)


def logical_xor(a, b):
    return torch.logical_xor(a, b)


def logical_not(a):
    return torch.logical_not(a)


def bitwise_and(a, b):
    return a & b


def bitwise_or(a, b):
    return a | b


def bitwise_xor(a, b):
    return a ^ b


def bitwise_not(a):
    return torch.bitwise_not(a)


# --- Selection ----------------------------------------------------------------

def where(c, a, b):
    return torch.where(c, a, b)


def where_scalar_other(c, a):
    return torch.where(c, a, 0.0)


def where_scalar_self(c, b):
    return torch.where(c, -1.0, b)


def where_scalars(c):
    return torch.where(c, 1.5, -2.5)


def masked_fill(a, m):
    return a.masked_fill(m, -1e9)


def masked_fill_tensor(a, m, v):
    return a.masked_fill(m, v)


def masked_fill_uint8(a, m):
    return a.masked_fill(m.to(torch.bool), 3.0)


# --- dtype conversions --------------------------------------------------------

def to_int(a):
    return a.to(torch.int32)


def to_long(a):
    return a.long()


def to_bool(a):
    return a.to(torch.bool)


def to_float(a):
    return a.float()


def to_double(a):
    return a.to(torch.float64)


def to_half(a):
    return a.half()


def to_uint8(a):
    return a.to(torch.uint8)


def to_same(a):
    return a.to(torch.float32) + 1


def to_other(a, b):
    return a.to(b)


def type_as(a, b):
    return a.type_as(b)


def bf16_roundtrip(a, b):
    return (a.to(torch.bfloat16) * b.to(torch.bfloat16)).float()


def half_math(a, b):
    # torch 1.13 has few Half kernels on CPU; these compute in f32 and round.
    return (torch.abs(a.half()) * b.half() - a.half() / 3).float()


# --- In-place forms (tsir-value-semantics makes them functional) -------------

def inplace_arith(x, y):
    z = x * 1.0
    z.add_(y)
    z.mul_(2.0)
    z.sub_(y, alpha=0.5)
    z.div_(3.0)
    z.add_(1, alpha=2)
    return z


def inplace_math(x):
    z = x + 2.0
    z.sqrt_()
    z.log_()
    z.exp_()
    z.neg_()
    z.abs_()
    z.pow_(2)
    z.tanh_()
    return z


def inplace_activations(x):
    z = x * 3.0
    z.clamp_(-2.0, 2.0)
    z.relu_()
    z.sigmoid_()
    return z


def inplace_input(x, y):
    x.mul_(y)
    return x


def inplace_masked_fill(x, m):
    z = x.clone()
    z.masked_fill_(m, 0.5)
    return z


CASES = [
    # add/sub/rsub/mul/div, promotion and broadcasting
    Case(add, [randn(3, 4), randn(3, 4)]),
    Case(add, [randn(2, 3, 4), randn(4)], name="add_broadcast_trailing"),
    Case(add, [randn(3, 1), randn(1, 4)], name="add_broadcast_outer"),
    Case(add, [randn(4, 3).t(), randn(3, 4)], name="add_noncontiguous"),
    Case(add, [torch.tensor(1.5), randn(2, 3)], name="add_0d"),
    Case(add, [randn(0, 3), randn(3)], name="add_empty"),
    Case(add, [ints(3, 4), randn(3, 4)], name="add_int_float"),
    Case(add, [ints(3, 4, dtype=torch.int32), ints(3, 4)], name="add_int32_int64"),
    Case(add, [torch.tensor([True, False, True]), torch.tensor([True, True, False])],
         name="add_bool"),
    Case(add, [ints(5, low=0, high=255, dtype=torch.uint8),
               ints(5, low=0, high=255, dtype=torch.uint8)], name="add_uint8_wraps"),
    Case(add, [ints(4, dtype=torch.int8), ints(4, low=0, high=200, dtype=torch.uint8)],
         name="add_int8_uint8"),
    Case(add, [randn(3, 4).double(), randn(3, 4)], name="add_double_float"),
    Case(add, [randn(3, 4).half(), randn(3, 4).half()], name="add_half",
         rtol=1e-3, atol=1e-3),
    Case(add_alpha, [randn(3, 4), randn(3, 4)]),
    Case(add_alpha, [ints(3, 4), randn(3, 4)], name="add_alpha_int_float"),
    Case(add_scalar, [randn(2, 5)]),
    Case(add_scalar, [ints(2, 5)], name="add_float_scalar_to_int"),
    Case(add_int_scalar, [ints(2, 5, dtype=torch.int32)]),
    Case(add_runtime_scalar, [randn(3), 0.75]),
    Case(sub, [randn(3, 4), randn(4)]),
    Case(sub_alpha, [randn(3, 4), randn(3, 4)]),
    Case(sub_scalar, [ints(6)]),
    Case(rsub_scalar, [randn(2, 2)]),
    Case(rsub_tensor, [ints(3), ints(3)]),
    Case(mul, [randn(2, 3), randn(2, 3)]),
    Case(mul, [torch.tensor([True, False, True]), torch.tensor([True, True, False])],
         name="mul_bool"),
    Case(mul, [ints(4, 3), ints(3)], name="mul_int"),
    Case(mul_scalar, [randn(5)]),
    Case(div, [randn(3, 4), randn(3, 4)]),
    Case(div, [ints(3, 4), nonzero_ints(3, 4)], name="div_int_true_division"),
    Case(div, [randn(3), torch.tensor([0.0, -0.0, 1.0])], name="div_by_zero_float"),
    Case(div_scalar, [ints(6)], name="div_int_by_int_scalar"),
    Case(div_trunc, [randn(3, 4) * 10, randn(3, 4)]),
    Case(div_trunc, [ints(4, 5), nonzero_ints(4, 5)], name="div_trunc_int"),
    Case(div_floor, [randn(3, 4) * 10, randn(3, 4)]),
    Case(div_floor, [ints(4, 5), nonzero_ints(4, 5)], name="div_floor_int"),
    Case(div_floor, [torch.tensor([7.0, -7.0, 7.0, -7.0, 0.0, 1.0]),
                     torch.tensor([2.0, 2.0, -2.0, -2.0, 3.0, 0.0])],
         name="div_floor_float_signs"),
    Case(div_floor_scalar, [ints(8)]),
    Case(floor_divide, [ints(4, 5), nonzero_ints(4, 5)]),
    Case(floor_divide, [randn(4, 5) * 10, randn(4, 5)], name="floor_divide_float"),
    Case(floordiv_op, [ints(9)]),
    Case(remainder, [ints(4, 5), nonzero_ints(4, 5)]),
    Case(remainder, [randn(4, 5) * 10, randn(4, 5)], name="remainder_float"),
    Case(remainder_scalar, [ints(9)]),
    Case(remainder_scalar, [randn(9) * 5], name="remainder_scalar_float"),
    Case(fmod, [ints(4, 5), nonzero_ints(4, 5)]),
    Case(fmod, [randn(4, 5) * 10, randn(4, 5)], name="fmod_float"),
    Case(fmod_scalar, [randn(7) * 10]),
    Case(pow_tensor, [positive(3, 4), randn(3, 4)]),
    Case(pow_tensor, [ints(6, low=-3, high=4), ints(6, low=0, high=5)], name="pow_int"),
    Case(pow_square, [randn(3, 4)]),
    Case(pow_square, [ints(5)], name="pow_square_int"),
    Case(pow_cube, [randn(5)]),
    Case(pow_half, [positive(5)]),
    Case(pow_neg_one, [positive(5)]),
    Case(pow_general, [positive(5)]),
    Case(pow_scalar_base, [randn(5)]),
    Case(neg, [randn(3, 3)]),
    Case(neg, [ints(4)], name="neg_int"),
    Case(abs_, [randn(3, 3)]),
    Case(abs_, [ints(4, dtype=torch.int16)], name="abs_int16"),
    Case(reciprocal, [positive(4)]),
    Case(reciprocal, [nonzero_ints(4)], name="reciprocal_int"),
    Case(square, [randn(4)]),
    Case(addcmul, [randn(3, 4), randn(3, 4), randn(4)]),
    Case(addcdiv, [randn(3, 4), randn(3, 4), positive(3, 4)]),
    Case(lerp_scalar, [randn(3, 4), randn(3, 4)]),
    Case(lerp_tensor, [randn(3, 4), randn(3, 4), torch.rand(3, 4)]),
    Case(maximum, [with_specials(8), randn(8)]),
    Case(maximum, [ints(8), ints(8)], name="maximum_int"),
    Case(minimum, [with_specials(8), randn(8)]),
    Case(minimum, [ints(8, low=0, high=255, dtype=torch.uint8),
                   ints(8, low=0, high=255, dtype=torch.uint8)], name="minimum_uint8"),
    Case(max_other, [randn(3, 4), randn(4)]),
    Case(min_other, [randn(3, 4), randn(4)]),
    Case(atan2, [randn(3, 4), randn(3, 4)]),
    Case(chain, [randn(8, 16), randn(16)]),
    # pointwise math
    Case(exp, [randn(3, 4)]),
    Case(exp, [ints(4, low=-5, high=5)], name="exp_int"),
    Case(log, [positive(3, 4)]),
    Case(log2, [positive(5)]),
    Case(log10, [positive(5)]),
    Case(log1p, [positive(5)]),
    Case(expm1, [randn(5) * 1e-3]),
    Case(sqrt, [positive(5)]),
    Case(rsqrt, [positive(5)]),
    Case(sin, [randn(5)]),
    Case(cos, [randn(5)]),
    Case(atan, [randn(5)]),
    Case(tanh, [randn(3, 4)]),
    Case(neg, [randn(4, 3).half()], name="neg_half"),
    Case(sigmoid, [randn(3, 4) * 10]),
    Case(sigmoid, [torch.tensor(0.3)], name="sigmoid_0d"),
    Case(erf, [randn(3, 4)]),
    Case(floor, [randn(5) * 3]),
    Case(floor, [ints(5)], name="floor_int"),
    Case(ceil, [randn(5) * 3]),
    Case(round_, [torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5, 1.4, -2.6])]),
    Case(round_decimals, [randn(6) * 10]),
    Case(round_negative_decimals, [randn(6) * 100]),
    Case(trunc, [randn(5) * 3]),
    Case(sign, [with_specials(8)]),
    Case(sign, [ints(8)], name="sign_int"),
    Case(isnan, [with_specials(8)]),
    Case(isinf, [with_specials(8)]),
    Case(isfinite, [with_specials(8)]),
    Case(isnan, [ints(4)], name="isnan_int"),
    # activations
    Case(relu, [with_specials(4, 3)]),
    Case(relu, [ints(6)], name="relu_int"),
    Case(relu6, [randn(10) * 5]),
    Case(leaky_relu, [randn(3, 4)]),
    Case(elu, [randn(3, 4)]),
    Case(selu, [randn(3, 4)]),
    Case(gelu, [randn(3, 4) * 3]),
    Case(gelu_tanh, [randn(3, 4) * 3]),
    Case(silu, [randn(3, 4) * 3]),
    Case(hardswish, [randn(3, 4) * 4]),
    Case(hardsigmoid, [randn(3, 4) * 4]),
    Case(hardtanh, [randn(3, 4)]),
    Case(softplus, [randn(3, 4) * 3]),
    Case(log_sigmoid, [randn(3, 4) * 10]),
    Case(prelu, [randn(2, 3, 4, 4), torch.rand(3)]),
    Case(prelu, [randn(2, 3), torch.rand(1)], name="prelu_single_weight"),
    Case(clamp, [with_specials(8)]),
    Case(clamp, [ints(8)], name="clamp_int"),
    Case(clamp_min_only, [randn(8)]),
    Case(clamp_max_only, [randn(8)]),
    Case(clamp_tensor, [randn(3, 4), randn(4) - 1, randn(3, 1) + 1]),
    Case(clamp_tensor_min_only, [with_specials(8), randn(8)]),
    Case(clamp_tensor, [ints(3, 4), ints(4), ints(3, 1) + 5], name="clamp_tensor_int"),
    Case(clamp_min, [randn(8)]),
    Case(clamp_max, [randn(8)]),
    # comparisons and logic
    Case(eq, [ints(4, 5, low=0, high=3), ints(5, low=0, high=3)]),
    Case(ne, [with_specials(8), with_specials(8)]),
    Case(lt, [randn(3, 4), randn(3, 4)]),
    Case(le, [ints(3, 4), randn(3, 4)], name="le_int_float"),
    Case(gt, [randn(3, 4), randn(4)]),
    Case(ge, [ints(6, low=0, high=255, dtype=torch.uint8),
              ints(6, low=-128, high=127, dtype=torch.int8)], name="ge_uint8_int8"),
    Case(lt, [torch.tensor([True, False, False]), torch.tensor([True, True, False])],
         name="lt_bool"),
    Case(eq_scalar, [ints(8, low=0, high=4)]),
    Case(lt_float_scalar, [ints(8, low=0, high=5)]),
    Case(gt_scalar, [with_specials(8)]),
    Case(ge_scalar, [randn(8)]),
    Case(le_scalar, [randn(8)]),
    Case(ne_scalar, [ints(8, low=0, high=3, dtype=torch.uint8)]),
    Case(logical_and, [randn(4) > 0, randn(4)]),
    Case(logical_or, [ints(6, low=0, high=2), with_specials(6)]),
    Case(logical_xor, [randn(5) > 0, randn(5) > 0]),
    Case(logical_not, [with_specials(6)]),
    Case(bitwise_and, [ints(6), ints(6)]),
    Case(bitwise_or, [randn(6) > 0, randn(6) > 0]),
    Case(bitwise_xor, [ints(6, dtype=torch.int32), ints(6, dtype=torch.int32)]),
    Case(bitwise_not, [ints(6)]),
    Case(bitwise_not, [randn(6) > 0], name="bitwise_not_bool"),
    # selection
    Case(where, [randn(3, 4) > 0, randn(3, 4), randn(4)]),
    Case(where, [randn(3, 1) > 0, ints(3, 4), randn(4)], name="where_promote"),
    Case(where_scalar_other, [randn(3, 4) > 0, randn(3, 4)]),
    Case(where_scalar_self, [randn(3, 4) > 0, randn(3, 4)]),
    Case(where_scalars, [randn(2, 3) > 0]),
    Case(masked_fill, [randn(2, 4, 4), torch.ones(4, 4).triu(1).bool()]),
    Case(masked_fill_tensor, [randn(3, 4), randn(3, 4) > 0, torch.tensor(7.0)]),
    Case(masked_fill_uint8, [randn(3, 4), ints(3, 4, low=0, high=2, dtype=torch.uint8)]),
    # dtype conversions
    Case(to_int, [randn(3, 4) * 10]),
    Case(to_long, [randn(3, 4) * 10]),
    Case(to_bool, [with_specials(8)]),
    Case(to_float, [ints(3, 4)]),
    Case(to_float, [ints(6, low=0, high=255, dtype=torch.uint8)], name="to_float_uint8"),
    Case(to_float, [randn(4) > 0], name="to_float_bool"),
    Case(to_double, [randn(3)]),
    Case(to_half, [randn(3)]),
    Case(to_uint8, [torch.rand(6) * 250]),
    Case(to_same, [randn(3)]),
    Case(to_other, [randn(3) * 10, ints(3)]),
    Case(type_as, [ints(3), randn(3)]),
    Case(bf16_roundtrip, [randn(3, 4), randn(3, 4)], rtol=1e-2, atol=1e-2),
    Case(half_math, [randn(3, 4), randn(4)], rtol=1e-3, atol=1e-3),
    # in-place forms
    Case(inplace_arith, [randn(3, 4), randn(4)]),
    Case(inplace_math, [randn(3, 4)]),
    Case(inplace_activations, [randn(3, 4)]),
    Case(inplace_input, [randn(3, 4), randn(3, 4)]),
    Case(inplace_masked_fill, [randn(3, 4), randn(3, 4) > 0]),
]
