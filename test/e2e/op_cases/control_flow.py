"""control_flow.py - generated end-to-end cases for convert-prim-to-scf:
ifs on scalar and tensor-derived conditions, for-loops over ranges with
data-dependent trip counts (zero and negative ones included), while-loops
(one whose condition is false on entry), break and continue, nested loops,
loop-carried tensors, and a loop-carried tensor whose shape grows."""

import torch
from typing import List

from op_case import Case

torch.manual_seed(0)


def if_scalar(x, n: int):
    if n > 0:
        y = x + 1.0
    else:
        y = x * 2.0
    return y


def if_tensor_condition(x):
    if bool(x.sum() > 0):
        return x * 2.0
    return -x


def if_elif_chain(n: int, f: float):
    if n < 0:
        r = -1.0
    elif n == 0:
        r = f
    elif n < 10:
        r = f * n
    else:
        r = f / n
    return r


def if_two_results(x, c: bool):
    if c:
        a, b = x + 1.0, 3
    else:
        a, b = x - 1.0, -4
    return a, b


def for_range(x, n: int):
    for i in range(n):
        x = x + float(i)
    return x


def for_range_scalars(n: int):
    s = 0
    p = 1
    for i in range(n):
        s += i * i
        p = p * 3 % 1000
    return s, p


def for_range_step(a: int, b: int):
    s = 0
    for i in range(a, b, 3):
        s = s * 2 + i
    return s


def while_scalar(n: int):
    # Collatz steps: a data-dependent while with an if inside.
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def while_false_on_entry(n: int):
    k = 0
    while n < 0:
        n += 3
        k += 1
    return n, k


def while_tensor(x, limit: float):
    i = 0
    while float(x.sum()) < limit:
        x = x * 2.0
        i += 1
    return x, i


def loop_break_continue(n: int):
    total = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        if total > 40:
            break
        total += i
    return total


def nested_loops(n: int, m: int):
    total = 0
    for i in range(n):
        for j in range(m):
            total += i * j - j
    return total


def nested_tensor_loops(x, n: int):
    for i in range(n):
        for j in range(i):
            x = x * 0.5 + float(j)
    return x


def loop_carried_matmul(x, w, n: int):
    for _ in range(n):
        x = torch.tanh(torch.mm(x, w))
    return x


def loop_growing_cat(x, n: int):
    for _ in range(n):
        x = torch.cat([x, x * 2.0], 0)
    return x


CASES = [
    Case(if_scalar, [torch.randn(3, 4), 2], name="if_scalar_true"),
    Case(if_scalar, [torch.randn(3, 4), -2], name="if_scalar_false"),
    Case(if_tensor_condition, [torch.rand(2, 3)], name="if_tensor_positive"),
    Case(if_tensor_condition, [-torch.rand(2, 3)], name="if_tensor_negative"),
    Case(if_elif_chain, [-5, 1.5], name="if_elif_negative"),
    Case(if_elif_chain, [0, 1.5], name="if_elif_zero"),
    Case(if_elif_chain, [7, 1.5], name="if_elif_small"),
    Case(if_elif_chain, [30, 1.5], name="if_elif_large"),
    Case(if_two_results, [torch.randn(2, 2), True], name="if_two_results_true"),
    Case(if_two_results, [torch.randn(2, 2), False],
         name="if_two_results_false"),
    Case(for_range, [torch.randn(4), 5], name="for_range"),
    Case(for_range, [torch.randn(4), 0], name="for_range_zero"),
    Case(for_range, [torch.randn(4), -3], name="for_range_negative"),
    Case(for_range_scalars, [12], name="for_range_scalars"),
    Case(for_range_scalars, [0], name="for_range_scalars_zero"),
    Case(for_range_step, [-4, 17], name="for_range_step"),
    Case(for_range_step, [5, 5], name="for_range_step_empty"),
    Case(while_scalar, [27], name="while_collatz"),
    Case(while_scalar, [1], name="while_collatz_zero_trips"),
    Case(while_false_on_entry, [5], name="while_false_on_entry"),
    Case(while_false_on_entry, [-10], name="while_true_on_entry"),
    Case(while_tensor, [torch.rand(4) + 0.1, 20.0], name="while_tensor"),
    Case(while_tensor, [torch.rand(4) + 0.1, -1.0], name="while_tensor_zero"),
    Case(loop_break_continue, [20], name="loop_break_continue"),
    Case(loop_break_continue, [4], name="loop_break_continue_short"),
    Case(nested_loops, [5, 4], name="nested_loops"),
    Case(nested_loops, [3, 0], name="nested_loops_inner_zero"),
    Case(nested_tensor_loops, [torch.randn(2, 3), 4],
         name="nested_tensor_loops"),
    Case(loop_carried_matmul, [torch.randn(3, 3), torch.randn(3, 3) * 0.5, 3],
         name="loop_carried_matmul"),
    Case(loop_growing_cat, [torch.randn(1, 3), 3], name="loop_growing_cat"),
]
