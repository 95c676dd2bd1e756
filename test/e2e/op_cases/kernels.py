"""kernels.py - generated end-to-end cases for runtime kernels the
interpreter calls by name: generic list operators (extend, insert, pop,
_set_item, list, copy, clear, add, slice, mul), `in` on float lists,
string len/indexing/str(), nonzero, and the random ops (compared by
shape and dtype only)."""

from typing import List

import torch

from op_case import Case

torch.manual_seed(0)


def r(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


def list_extend(n: int):
    a = [1, 2]
    a.extend([n, n + 1])
    return torch.tensor(a)


def list_insert(n: int):
    a: List[int] = []
    for i in range(3):
        a.append(i + 1)
    a.insert(1, n)
    a.insert(-1, 7)
    a.insert(100, 9)
    return torch.tensor(a)


def list_pop(n: int):
    a = [1, 2, 3, n]
    x = a.pop()
    y = a.pop(0)
    return torch.tensor(a), x, y


def list_set_item(n: int):
    a: List[int] = []
    for i in range(3):
        a.append(i + 1)
    a[0] = n
    a[-1] = n + 5
    return torch.tensor(a)


def list_copy(n: int):
    a = [1, 2, n]
    b = list(a)
    c = a.copy()
    a.append(4)
    return torch.tensor(b), torch.tensor(c), len(a)


def list_clear(n: int):
    a = [1, 2, n]
    a.clear()
    a.append(n)
    return torch.tensor(a), len(a)


def list_add(n: int):
    a = [1, n]
    b = [3]
    c = a + b
    return torch.tensor(c)


def list_slice(n: int):
    a: List[int] = []
    for i in range(n + 1):
        a.append(i)
    b = a[1:4]
    c = a[::2]
    d = a[-3:]
    e = a[::-1]
    f = a[:-2]
    return len(b), b[0], b[-1], len(c), c[1], len(d), d[0], len(e), e[0], \
        e[-1], len(f), f[-1]


def list_mul(n: int):
    a = [1, n]
    return torch.tensor(a * 3), len(a * 0)


def float_list_contains(v: float):
    a = [1.0, 2.5, 3.0]
    return v in a, 4.0 in a


def str_ops(n: int):
    s = str(n)
    t = str(n > 0)
    return len(s), s[1] == "2", s[-1] == "5", s == "12345", len(t), \
        t[0] == "T", str(n * 0.5) == "6172.5", str(s) == s


def tensor_nonzero(x):
    return torch.nonzero(x > 0), torch.nonzero(x.to(torch.int64))


def tensor_nonzero_1d(x):
    return torch.nonzero(x)


def rand_ops(x):
    return torch.rand(2, 3), torch.randn([4]), \
        torch.rand(2, dtype=torch.float64), torch.rand_like(x), \
        torch.randn_like(x), torch.randn_like(x, dtype=torch.float64)


def randint_ops(n: int):
    return torch.randint(10, [2, 3]), torch.randint(3, n, [4]), \
        torch.randint(0, 2, [2], dtype=torch.int32)


def randperm_ops(n: int):
    p = torch.randperm(n)
    return torch.sort(p)[0], torch.randperm(n, dtype=torch.int32).sum()


def bernoulli_ops(x):
    p = torch.sigmoid(x)
    return torch.bernoulli(p), torch.bernoulli(x, 0.5)


def inplace_random(x):
    y = x.clone()
    y.uniform_(-1.0, 1.0)
    z = x.clone()
    z.normal_(2.0, 0.5)
    return y, z


CASES = [
    Case(list_extend, [3], op="extend.t"),
    Case(list_insert, [5], op="insert.t"),
    Case(list_pop, [4], op="pop.t"),
    Case(list_set_item, [6], op="_set_item.t"),
    Case(list_copy, [3], op="list.t"),
    Case(list_clear, [3], op="clear.t"),
    Case(list_add, [2], op="add.t"),
    Case(list_slice, [5], op="slice.t"),
    Case(list_mul, [2], op="mul.left_t"),
    Case(float_list_contains, [2.5], op="__contains__.float_list"),
    Case(str_ops, [12345], op="str"),
    Case(tensor_nonzero, [r(3, 4)], op="nonzero"),
    Case(tensor_nonzero_1d, [torch.tensor([0.0, 1.0, 0.0, -2.0])],
         op="nonzero"),
    Case(rand_ops, [r(2, 3)], op="rand", check="shape"),
    Case(randint_ops, [8], op="randint", check="shape"),
    Case(randperm_ops, [6], op="randperm"),
    Case(bernoulli_ops, [r(3, 4)], op="bernoulli", check="shape"),
    Case(inplace_random, [r(3, 4)], op="uniform_", check="shape"),
]
