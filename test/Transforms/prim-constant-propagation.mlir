// RUN: tsir-opt --prim-constant-propagation -split-input-file %s | FileCheck %s
// RUN: tsir-opt --prim-constant-propagation -split-input-file --mlir-print-debuginfo %s | FileCheck %s --check-prefix=LOC

// Int arithmetic as TorchScript computes it: `//` and `%` round toward -inf,
// `/` of ints is a float, int64 wraps around. Inputs left unused go.
// CHECK-LABEL: func.func @int_arith
// CHECK-NEXT: %[[A:.*]] = prim.Constant {value = 5 : i64}
// CHECK-NEXT: %[[B:.*]] = prim.Constant {value = -9 : i64}
// CHECK-NEXT: %[[C:.*]] = prim.Constant {value = -4 : i64}
// CHECK-NEXT: %[[D:.*]] = prim.Constant {value = -1 : i64}
// CHECK-NEXT: %[[E:.*]] = prim.Constant {value = -3.500000e+00 : f64}
// CHECK-NEXT: %[[F:.*]] = prim.Constant {value = -9223372036854775808 : i64}
// CHECK-NEXT: %[[G:.*]] = prim.Constant {value = 2 : i64}
// CHECK-NEXT: %[[H:.*]] = prim.Constant {value = -9223372036854775808 : i64}
// CHECK-NEXT: %[[I:.*]] = prim.Constant {value = -7 : i64}
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %[[F]], %[[G]], %[[H]], %[[I]]
func.func @int_arith() -> (i64, i64, i64, i64, f64, i64, i64, i64, i64) {
  %a = prim.Constant {value = 7 : i64} : i64
  %b = prim.Constant {value = -2 : i64} : i64
  %max = prim.Constant {value = 9223372036854775807 : i64} : i64
  %min = prim.Constant {value = -9223372036854775808 : i64} : i64
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.add.int %a, %b : (i64, i64) -> i64
  %1 = aten.sub.int %b, %a : (i64, i64) -> i64
  %2 = aten.floordiv.int %a, %b : (i64, i64) -> i64
  %3 = aten.remainder.int %a, %b : (i64, i64) -> i64
  %4 = aten.div.int %a, %b : (i64, i64) -> f64
  %5 = aten.add.int %max, %one : (i64, i64) -> i64
  %6 = aten.mul.int %max, %b : (i64, i64) -> i64
  %7 = aten.neg.int %min : (i64) -> i64
  %8 = aten.__xor__.int %a, %b : (i64, i64) -> i64
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i64, i64, i64, i64, f64, i64, i64, i64, i64
}

// -----

// Floats, and ints mixed with floats (computed in double). Float `//` is
// `floor(a / b)` (0.5 // 0.1 is 5.0 in TorchScript, 4.0 in Python); `%`
// takes the divisor's sign. A NaN or infinite result (sqrt of a negative,
// exp(1000)) is not folded: TorchScript's text has no literal for it.
// CHECK-LABEL: func.func @float_arith
// CHECK-NEXT: %[[Y:.*]] = prim.Constant {value = -2.000000e+00 : f64}
// CHECK-NEXT: %[[BIG:.*]] = prim.Constant {value = 1.000000e+03 : f64}
// CHECK-NEXT: prim.Constant {value = -4.000000e+00 : f64}
// CHECK-NEXT: prim.Constant {value = -5.000000e-01 : f64}
// CHECK-NEXT: prim.Constant {value = 5.000000e+00 : f64}
// CHECK-NEXT: prim.Constant {value = 3.500000e+00 : f64}
// CHECK-NEXT: prim.Constant {value = -6.000000e+00 : f64}
// CHECK-NEXT: prim.Constant {value = 2.700000e+01 : f64}
// CHECK-NEXT: aten.sqrt.float %[[Y]]
// CHECK-NEXT: prim.Constant {value = -5.000000e-01 : f64}
// CHECK-NEXT: aten.exp.float %[[BIG]]
// CHECK-NEXT: return
func.func @float_arith() -> (f64, f64, f64, f64, f64, f64, f64, f64, f64) {
  %x = prim.Constant {value = 7.5 : f64} : f64
  %y = prim.Constant {value = -2.0 : f64} : f64
  %big = prim.Constant {value = 1000.0 : f64} : f64
  %p = prim.Constant {value = 0.5 : f64} : f64
  %q = prim.Constant {value = 0.1 : f64} : f64
  %i = prim.Constant {value = 3 : i64} : i64
  %0 = aten.floordiv.float %x, %y : (f64, f64) -> f64
  %1 = aten.remainder.float %x, %y : (f64, f64) -> f64
  %2 = aten.floordiv.float %p, %q : (f64, f64) -> f64
  %3 = aten.add.int_float %i, %p : (i64, f64) -> f64
  %4 = aten.mul.float_int %y, %i : (f64, i64) -> f64
  %5 = aten.pow.int %i, %i : (i64, i64) -> f64
  %6 = aten.sqrt.float %y : (f64) -> f64
  %7 = aten.neg.float %p : (f64) -> f64
  %8 = aten.exp.float %big : (f64) -> f64
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : f64, f64, f64, f64, f64, f64, f64, f64, f64
}

// -----

// `Scalar` overloads: int with int stays an int, anything with a float is a
// float; a non-constant operand stops the fold.
// CHECK-LABEL: func.func @scalar_overloads
// CHECK-NEXT: %[[A:.*]] = prim.Constant {value = 7 : i64} : !prim.number
// CHECK-NEXT: prim.Constant {value = 9 : i64} : !prim.number
// CHECK-NEXT: prim.Constant {value = 3.000000e+00 : f64} : !prim.number
// CHECK-NEXT: prim.Constant {value = 3.500000e+00 : f64} : f64
// CHECK-NEXT: aten.add %[[A]], %arg0
func.func @scalar_overloads(%n: !prim.number) -> (!prim.number, !prim.number, f64, !prim.number) {
  %a = prim.Constant {value = 7 : i64} : !prim.number
  %b = prim.Constant {value = 2 : i64} : !prim.number
  %f = prim.Constant {value = 2.0 : f64} : !prim.number
  %0 = aten.add %a, %b : (!prim.number, !prim.number) -> !prim.number
  %1 = aten.floordiv %a, %f : (!prim.number, !prim.number) -> !prim.number
  %2 = aten.div %a, %b : (!prim.number, !prim.number) -> f64
  %3 = aten.add %a, %n : (!prim.number, !prim.number) -> !prim.number
  return %0, %1, %2, %3 : !prim.number, !prim.number, f64, !prim.number
}

// -----

// What raises at run time stays for run time: int division and modulo by
// zero, 0.0 ** -1, range() with step 0; so do float results that are inf
// or NaN (no literal holds them). INT64_MIN // -1 wraps to INT64_MIN
// (ScalarSemantics.h), as the compiled code and the interpreter give.
// CHECK-LABEL: func.func @raising_ops_stay
// CHECK: aten.floordiv.int
// CHECK-NEXT: aten.remainder.int
// CHECK-NEXT: aten.div.int
// CHECK-NEXT: aten.div.float
// CHECK-NEXT: aten.remainder.float_int
// CHECK-NEXT: prim.Constant {value = -9223372036854775808 : i64}
// CHECK-NEXT: aten.pow.float_int
// CHECK-NEXT: aten.__range_length
// CHECK-NEXT: return
func.func @raising_ops_stay() -> (i64, i64, f64, f64, f64, i64, f64, i64) {
  %a = prim.Constant {value = 7 : i64} : i64
  %zero = prim.Constant {value = 0 : i64} : i64
  %fzero = prim.Constant {value = 0.0 : f64} : f64
  %m1 = prim.Constant {value = -1 : i64} : i64
  %min = prim.Constant {value = -9223372036854775808 : i64} : i64
  %0 = aten.floordiv.int %a, %zero : (i64, i64) -> i64
  %1 = aten.remainder.int %a, %zero : (i64, i64) -> i64
  %2 = aten.div.int %a, %zero : (i64, i64) -> f64
  %3 = aten.div.float %fzero, %fzero : (f64, f64) -> f64
  %4 = aten.remainder.float_int %fzero, %zero : (f64, i64) -> f64
  %5 = aten.floordiv.int %min, %m1 : (i64, i64) -> i64
  %6 = aten.pow.float_int %fzero, %m1 : (f64, i64) -> f64
  %7 = aten.__range_length %a, %a, %zero : (i64, i64, i64) -> i64
  return %0, %1, %2, %3, %4, %5, %6, %7 : i64, i64, f64, f64, f64, i64, f64, i64
}

// -----

// Comparisons: ints exactly, an int with a float in double (2^53 + 1 equals
// 2^53 then), NaN unequal to itself; bool logic.
// CHECK-LABEL: func.func @compare_and_logic
// CHECK-NEXT: prim.Constant {value = true} : i1
// CHECK-NEXT: prim.Constant {value = true} : i1
// CHECK-NEXT: prim.Constant {value = false} : i1
// CHECK-NEXT: prim.Constant {value = true} : i1
// CHECK-NEXT: prim.Constant {value = false} : i1
// CHECK-NEXT: prim.Constant {value = true} : i1
// CHECK-NEXT: prim.Constant {value = true} : i1
// CHECK-NEXT: prim.Constant {value = false} : i1
// CHECK-NEXT: return
func.func @compare_and_logic() -> (i1, i1, i1, i1, i1, i1, i1, i1) {
  %a = prim.Constant {value = 9007199254740993 : i64} : i64
  %f = prim.Constant {value = 9007199254740992.0 : f64} : f64
  %nan = prim.Constant {value = 0x7FF8000000000000 : f64} : f64
  %t = prim.Constant {value = true} : i1
  %u = prim.Constant {value = false} : i1
  %1 = prim.Constant {value = 1 : i64} : i64
  %2 = prim.Constant {value = 2 : i64} : i64
  %0 = aten.eq.int_float %a, %f : (i64, f64) -> i1
  %3 = aten.lt.int %1, %2 : (i64, i64) -> i1
  %4 = aten.eq.float %nan, %nan : (f64, f64) -> i1
  %5 = aten.ne.float %nan, %nan : (f64, f64) -> i1
  %6 = aten.__and__.bool %t, %u : (i1, i1) -> i1
  %7 = aten.__or__.bool %t, %u : (i1, i1) -> i1
  %8 = aten.__not__ %u : (i1) -> i1
  %9 = aten.eq.bool %t, %u : (i1, i1) -> i1
  return %0, %3, %4, %5, %6, %7, %8, %9 : i1, i1, i1, i1, i1, i1, i1, i1
}

// -----

// Conversions: int() truncates, floor/ceil round, round() rounds half to
// even (2.5 to 2.0, -0.4 to -0.0); int() of a float out of int64 range is
// INT64_MIN, as torch gives on x86; floor/ceil of one raise, so stay.
// CHECK-LABEL: func.func @conversions
// CHECK-NEXT: %[[NAN:.*]] = prim.Constant {value = 0x7FF8000000000000 : f64}
// CHECK-NEXT: prim.Constant {value = -2 : i64}
// CHECK-NEXT: prim.Constant {value = -3 : i64}
// CHECK-NEXT: prim.Constant {value = -2 : i64}
// CHECK-NEXT: prim.Constant {value = 2.000000e+00 : f64}
// CHECK-NEXT: prim.Constant {value = -0.000000e+00 : f64}
// CHECK-NEXT: prim.Constant {value = 5.000000e+00 : f64}
// CHECK-NEXT: prim.Constant {value = true} : i1
// CHECK-NEXT: prim.Constant {value = true} : i1
// CHECK-NEXT: prim.Constant {value = 1 : i64}
// CHECK-NEXT: prim.Constant {value = -9223372036854775808 : i64}
// CHECK-NEXT: aten.floor.float %[[NAN]]
func.func @conversions() -> (i64, i64, i64, f64, f64, f64, i1, i1, i64, i64, i64) {
  %neg = prim.Constant {value = -2.7 : f64} : f64
  %half = prim.Constant {value = 2.5 : f64} : f64
  %small = prim.Constant {value = -0.4 : f64} : f64
  %huge = prim.Constant {value = 1.0e30 : f64} : f64
  %nan = prim.Constant {value = 0x7FF8000000000000 : f64} : f64
  %t = prim.Constant {value = true} : i1
  %five = prim.Constant {value = 5 : i64} : i64
  %0 = aten.Int.float %neg : (f64) -> i64
  %1 = aten.floor.float %neg : (f64) -> i64
  %2 = aten.ceil.float %neg : (f64) -> i64
  %3 = aten.round.float %half : (f64) -> f64
  %4 = aten.round.float %small : (f64) -> f64
  %5 = aten.Float.int %five : (i64) -> f64
  %6 = aten.Bool.int %five : (i64) -> i1
  %7 = aten.Bool.float %nan : (f64) -> i1
  %8 = aten.Int.bool %t : (i1) -> i64
  %9 = aten.Int.float %huge : (f64) -> i64
  %10 = aten.floor.float %nan : (f64) -> i64
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i64, i64, i64, f64, f64, f64, i1, i1, i64, i64, i64
}

// -----

// str() prints like TorchScript: integral floats as `1.`, others with 17
// significant digits; lists, tuples, None and bools as IValues print.
// CHECK-LABEL: func.func @str
// CHECK-NEXT: prim.Constant {value = "1."}
// CHECK-NEXT: prim.Constant {value = "0.10000000000000001"}
// CHECK-NEXT: prim.Constant {value = "[1., 2.5]"}
// CHECK-NEXT: prim.Constant {value = "(1,)"}
// CHECK-NEXT: prim.Constant {value = "None"}
// CHECK-NEXT: prim.Constant {value = "True"}
// CHECK-NEXT: prim.Constant {value = "[a, b]"}
// CHECK-NEXT: return
func.func @str() -> (!prim.str, !prim.str, !prim.str, !prim.str, !prim.str, !prim.str, !prim.str) {
  %one = prim.Constant {value = 1.0 : f64} : f64
  %tenth = prim.Constant {value = 0.1 : f64} : f64
  %l = prim.Constant {value = [1.0, 2.5]} : !prim.list<f64>
  %t = prim.Constant {value = [1]} : !prim.tuple<i64>
  %n = prim.Constant {value} : !prim.none
  %b = prim.Constant {value = true} : i1
  %s = prim.Constant {value = ["a", "b"]} : !prim.list<!prim.str>
  %0 = aten.str %one : (f64) -> !prim.str
  %1 = aten.str %tenth : (f64) -> !prim.str
  %2 = aten.str %l : (!prim.list<f64>) -> !prim.str
  %3 = aten.str %t : (!prim.tuple<i64>) -> !prim.str
  %4 = aten.str %n : (!prim.none) -> !prim.str
  %5 = aten.str %b : (i1) -> !prim.str
  %6 = aten.str %s : (!prim.list<!prim.str>) -> !prim.str
  return %0, %1, %2, %3, %4, %5, %6 : !prim.str, !prim.str, !prim.str, !prim.str, !prim.str, !prim.str, !prim.str
}

// -----

// Strings are byte strings (len("héllo") is 6); `+` on strings arrives as a
// generic aten::add. Indexing out of range raises: it stays.
// CHECK-LABEL: func.func @strings
// CHECK-NEXT: %[[S:.*]] = prim.Constant {value = "h\C3\A9llo"}
// CHECK-NEXT: %[[NINE:.*]] = prim.Constant {value = 9 : i64}
// CHECK-NEXT: prim.Constant {value = 6 : i64}
// CHECK-NEXT: prim.Constant {value = "o"}
// CHECK-NEXT: prim.Constant {value = false}
// CHECK-NEXT: prim.Constant {value = "h\C3\A9llox"}
// CHECK-NEXT: aten.__getitem__.str %[[S]], %[[NINE]]
func.func @strings() -> (i64, !prim.str, i1, !prim.str, !prim.str) {
  %s = prim.Constant {value = "h\C3\A9llo"} : !prim.str
  %x = prim.Constant {value = "x"} : !prim.str
  %m1 = prim.Constant {value = -1 : i64} : i64
  %big = prim.Constant {value = 9 : i64} : i64
  %0 = aten.len.str %s : (!prim.str) -> i64
  %1 = aten.__getitem__.str %s, %m1 : (!prim.str, i64) -> !prim.str
  %2 = aten.eq.str %s, %x : (!prim.str, !prim.str) -> i1
  %3 = prim.Generic "aten::add"(%s, %x) : (!prim.str, !prim.str) -> !prim.str
  %4 = aten.__getitem__.str %s, %big : (!prim.str, i64) -> !prim.str
  return %0, %1, %2, %3, %4 : i64, !prim.str, i1, !prim.str, !prim.str
}

// -----

// A list literal of constants becomes a list constant (`int[] = [1, 2]`),
// and list ops on constant lists fold; `index` of a missing element raises.
// CHECK-LABEL: func.func @lists
// CHECK-NEXT: %[[M1:.*]] = prim.Constant {value = -1 : i64}
// CHECK-NEXT: %[[L:.*]] = prim.Constant {value = [1, 2]} : !prim.list<i64>
// CHECK-NEXT: %[[C:.*]] = prim.Constant {value = [3, 4, 5]} : !prim.list<i64>
// CHECK-NEXT: prim.Constant {value = 3 : i64}
// CHECK-NEXT: prim.Constant {value = 5 : i64}
// CHECK-NEXT: prim.Constant {value = [1, 2, 3, 4, 5]} : !prim.list<i64>
// CHECK-NEXT: prim.Constant {value = [5, 4, 3]} : !prim.list<i64>
// CHECK-NEXT: prim.Constant {value = [1, 2, 1, 2]} : !prim.list<i64>
// CHECK-NEXT: prim.Constant {value = false}
// CHECK-NEXT: prim.Constant {value = 12 : i64}
// CHECK-NEXT: prim.Constant {value = false}
// CHECK-NEXT: aten.index.list_int %[[C]], %[[M1]]
// CHECK-NEXT: return %[[L]],
func.func @lists() -> (!prim.list<i64>, i64, i64, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1, i64, i1, i64) {
  %1 = prim.Constant {value = 1 : i64} : i64
  %2 = prim.Constant {value = 2 : i64} : i64
  %m1 = prim.Constant {value = -1 : i64} : i64
  %none = prim.Constant {value} : !prim.none
  %l = prim.ListConstruct %1, %2 : (i64, i64) -> !prim.list<i64>
  %c = prim.Constant {value = [3, 4, 5]} : !prim.list<i64>
  %0 = aten.len.t %c : (!prim.list<i64>) -> i64
  %3 = aten.__getitem__.t %c, %m1 : (!prim.list<i64>, i64) -> i64
  %4 = aten.add.t %l, %c : (!prim.list<i64>, !prim.list<i64>) -> !prim.list<i64>
  %5 = aten.slice.t %c, %none, %none, %m1 : (!prim.list<i64>, !prim.none, !prim.none, i64) -> !prim.list<i64>
  %6 = aten.mul.left_t %l, %2 : (!prim.list<i64>, i64) -> !prim.list<i64>
  %7 = aten.__contains__.int_list %c, %2 : (!prim.list<i64>, i64) -> i1
  %8 = aten.sum.int %c : (!prim.list<i64>) -> i64
  %9 = aten.eq.int_list %l, %c : (!prim.list<i64>, !prim.list<i64>) -> i1
  %10 = aten.index.list_int %c, %m1 : (!prim.list<i64>, i64) -> i64
  return %l, %0, %3, %4, %5, %6, %7, %8, %9, %10 : !prim.list<i64>, i64, i64, !prim.list<i64>, !prim.list<i64>, !prim.list<i64>, i1, i64, i1, i64
}

// -----

// A list that is appended to may be mutated: neither its literal nor its
// length folds (TorchScript's hasWriters).
// CHECK-LABEL: func.func @mutated_list_stays
// CHECK: %[[L:.*]] = prim.ListConstruct
// CHECK-NEXT: aten.append.t %[[L]]
// CHECK-NEXT: %[[N:.*]] = aten.len.t %[[L]]
// CHECK-NEXT: return %[[N]]
func.func @mutated_list_stays(%x: i64) -> i64 {
  %1 = prim.Constant {value = 1 : i64} : i64
  %2 = prim.Constant {value = 2 : i64} : i64
  %l = prim.ListConstruct %1, %2 : (i64, i64) -> !prim.list<i64>
  %a = aten.append.t %l, %x : (!prim.list<i64>, i64) -> !prim.list<i64>
  %n = aten.len.t %l : (!prim.list<i64>) -> i64
  return %n : i64
}

// -----

// A list of tensors is never made a constant: a constant would not hold the
// tensor objects the graph passes around.
// CHECK-LABEL: func.func @tensor_list_stays
// CHECK: prim.ListConstruct
func.func @tensor_list_stays(%x: !prim.tensor) -> !prim.list<!prim.tensor> {
  %t = prim.Constant {value = dense<1.0> : tensor<2xf32>} : !prim.tensor
  %l = prim.ListConstruct %t, %t : (!prim.tensor, !prim.tensor) -> !prim.list<!prim.tensor>
  return %l : !prim.list<!prim.tensor>
}

// -----

// Side effects and randomness stay, however constant their inputs.
// (aten::format of constants folds, which TorchScript does not do:
// format-folding.txt.)
// CHECK-LABEL: func.func @effects_stay
// CHECK: prim.Print
// CHECK-NEXT: aten.warn
// CHECK-NEXT: aten.randn
// CHECK-NEXT: aten.dropout
// CHECK-NEXT: prim.Constant {value = "hi 2"}
// CHECK-NEXT: prim.Print
func.func @effects_stay(%x: !prim.tensor) -> (!prim.tensor, !prim.tensor) {
  %s = prim.Constant {value = "hi"} : !prim.str
  %2 = prim.Constant {value = 2 : i64} : i64
  %p = prim.Constant {value = 0.5 : f64} : f64
  %t = prim.Constant {value = true} : i1
  %none = prim.Constant {value} : !prim.none
  %size = prim.Constant {value = [2]} : !prim.list<i64>
  prim.Print %s : !prim.str
  aten.warn %s, %2 : (!prim.str, i64) -> ()
  %r = aten.randn %size, %none, %none, %none, %none : (!prim.list<i64>, !prim.none, !prim.none, !prim.none, !prim.none) -> !prim.tensor
  %d = aten.dropout %x, %p, %t : (!prim.tensor, f64, i1) -> !prim.tensor
  %hole = prim.Constant {value = "hi {}"} : !prim.str
  %f = prim.Generic "aten::format"(%hole, %2) : (!prim.str, i64) -> !prim.str
  prim.Print %f : !prim.str
  return %r, %d : !prim.tensor, !prim.tensor
}

// -----

// Generic kinds known to be pure fold (`a < b ? a : b`: a NaN loses as the
// first operand); any other kind is opaque.
// CHECK-LABEL: func.func @generic_min_max
// CHECK-NEXT: %[[ONE:.*]] = prim.Constant {value = 1 : i64}
// CHECK-NEXT: prim.Constant {value = 1.000000e+00 : f64}
// CHECK-NEXT: prim.Constant {value = 1.500000e+00 : f64}
// CHECK-NEXT: prim.Generic "my::magic"(%[[ONE]])
// CHECK-NEXT: prim.Constant {value = 1 : i64}
// CHECK-NEXT: return
func.func @generic_min_max() -> (f64, i64, f64, i64) {
  %1 = prim.Constant {value = 1 : i64} : i64
  %nan = prim.Constant {value = 0x7FF8000000000000 : f64} : f64
  %f = prim.Constant {value = 1.5 : f64} : f64
  %0 = prim.Generic "prim::min"(%1, %f) : (i64, f64) -> f64
  %2 = prim.Generic "prim::max"(%nan, %f) : (f64, f64) -> f64
  %3 = prim.Generic "my::magic"(%1) : (i64) -> i64
  %4 = prim.Generic "prim::min"(%1, %1) : (i64, i64) -> i64
  return %0, %4, %2, %3 : f64, i64, f64, i64
}

// -----

// Tensor metadata comes from the refined type: dim, sizes, len, numel,
// dtype (ScalarType number, Float is 6), device, is_floating_point. Unknown
// sizes stay.
// CHECK-LABEL: func.func @metadata
// CHECK-NEXT: %[[M1:.*]] = prim.Constant {value = -1 : i64}
// CHECK-NEXT: prim.Constant {value = 2 : i64}
// CHECK-NEXT: prim.Constant {value = [2, 3]} : !prim.list<i64>
// CHECK-NEXT: prim.Constant {value = 3 : i64}
// CHECK-NEXT: prim.Constant {value = 4 : i64}
// CHECK-NEXT: prim.Constant {value = 6 : i64}
// CHECK-NEXT: prim.Constant {value = 6 : i64}
// CHECK-NEXT: prim.Constant {value = "cpu"} : !prim.device
// CHECK-NEXT: prim.Constant {value = true}
// CHECK-NEXT: prim.Constant {value = false}
// CHECK-NEXT: prim.Constant {value = 4 : i64}
// CHECK-NEXT: aten.size.int %arg1, %[[M1]]
// CHECK-NEXT: aten.size %arg1
func.func @metadata(%x: !prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">, %y: !prim.tensor<dtype = si64, sizes = [4, ?]>) -> (i64, !prim.list<i64>, i64, i64, i64, i64, !prim.device, i1, i1, i64, i64, !prim.list<i64>) {
  %m1 = prim.Constant {value = -1 : i64} : i64
  %0 = aten.dim %x : (!prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">) -> i64
  %1 = aten.size %x : (!prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">) -> !prim.list<i64>
  %2 = aten.size.int %x, %m1 : (!prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">, i64) -> i64
  %3 = aten.len.Tensor %y : (!prim.tensor<dtype = si64, sizes = [4, ?]>) -> i64
  %4 = aten.numel %x : (!prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">) -> i64
  %5 = prim.dtype %x : (!prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">) -> i64
  %6 = prim.device %x : (!prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">) -> !prim.device
  %7 = aten.is_floating_point %x : (!prim.tensor<dtype = f32, sizes = [2, 3], device = "cpu">) -> i1
  %8 = aten.is_floating_point %y : (!prim.tensor<dtype = si64, sizes = [4, ?]>) -> i1
  %9 = prim.dtype %y : (!prim.tensor<dtype = si64, sizes = [4, ?]>) -> i64
  %10 = aten.size.int %y, %m1 : (!prim.tensor<dtype = si64, sizes = [4, ?]>, i64) -> i64
  %11 = aten.size %y : (!prim.tensor<dtype = si64, sizes = [4, ?]>) -> !prim.list<i64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : i64, !prim.list<i64>, i64, i64, i64, i64, !prim.device, i1, i1, i64, i64, !prim.list<i64>
}

// -----

// unsqueeze_ changes the shape in place: the sizes of a written tensor are
// not read from its type. Its dtype still is (in-place ops keep it).
// CHECK-LABEL: func.func @mutated_tensor_shape_stays
// CHECK: aten.unsqueeze_ %arg0
// CHECK-NEXT: %[[D:.*]] = aten.dim %arg0
// CHECK-NEXT: %[[T:.*]] = prim.Constant {value = 6 : i64}
// CHECK-NEXT: return %[[D]], %[[T]]
func.func @mutated_tensor_shape_stays(%x: !prim.tensor<dtype = f32, sizes = [2, 3]>) -> (i64, i64) {
  %0 = prim.Constant {value = 0 : i64} : i64
  %u = aten.unsqueeze_ %x, %0 : (!prim.tensor<dtype = f32, sizes = [2, 3]>, i64) -> !prim.tensor
  %d = aten.dim %x : (!prim.tensor<dtype = f32, sizes = [2, 3]>) -> i64
  %t = prim.dtype %x : (!prim.tensor<dtype = f32, sizes = [2, 3]>) -> i64
  return %d, %t : i64, i64
}

// -----

// `is None` on constants; a value that may be None stays, and so does
// unwrapping a None (it raises). A None cast to `int?` is a None of `int?`.
// CHECK-LABEL: func.func @is_none
// CHECK-NEXT: %[[NONE:.*]] = prim.Constant {value} : !prim.none
// CHECK-NEXT: prim.Constant {value = true}
// CHECK-NEXT: prim.Constant {value = true}
// CHECK-NEXT: aten.__is__ %arg0, %[[NONE]]
// CHECK-NEXT: prim.Constant {value} : !prim.optional<i64>
// CHECK-NEXT: aten._unwrap_optional %[[NONE]]
func.func @is_none(%o: !prim.optional<i64>) -> (i1, i1, i1, !prim.optional<i64>, i64) {
  %none = prim.Constant {value} : !prim.none
  %one = prim.Constant {value = 1 : i64} : i64
  %0 = aten.__is__ %none, %none : (!prim.none, !prim.none) -> i1
  %1 = aten.__isnot__ %one, %none : (i64, !prim.none) -> i1
  %2 = aten.__is__ %o, %none : (!prim.optional<i64>, !prim.none) -> i1
  %3 = prim.unchecked_cast %none : (!prim.none) -> !prim.optional<i64>
  %4 = aten._unwrap_optional %none : (!prim.none) -> i64
  return %0, %1, %2, %3, %4 : i1, i1, i1, !prim.optional<i64>, i64
}

// -----

// Constant tuples are taken apart. A tuple literal is not built, nor a bool
// or empty list: torch's graph parser reads no such constant back.
// CHECK-LABEL: func.func @tuples
// CHECK-NEXT: %[[ONE:.*]] = prim.Constant {value = 1 : i64} : i64
// CHECK-NEXT: %[[T:.*]] = prim.Constant {value = true} : i1
// CHECK-NEXT: %[[TUPLE:.*]] = prim.TupleConstruct %[[ONE]], %[[T]]
// CHECK-NEXT: %[[BOOLS:.*]] = prim.ListConstruct %[[T]], %[[T]]
// CHECK-NEXT: %[[EMPTY:.*]] = prim.ListConstruct  : () -> !prim.list<i64>
// CHECK-NEXT: %[[S:.*]] = prim.Constant {value = "a"} : !prim.str
// CHECK-NEXT: %[[I:.*]] = prim.Constant {value = 1 : i64} : i64
// CHECK-NEXT: return %[[TUPLE]], %[[BOOLS]], %[[EMPTY]], %[[S]], %[[I]]
func.func @tuples() -> (!prim.tuple<i64, i1>, !prim.list<i1>, !prim.list<i64>, !prim.str, i64) {
  %1 = prim.Constant {value = 1 : i64} : i64
  %t = prim.Constant {value = true} : i1
  %m1 = prim.Constant {value = -1 : i64} : i64
  %c = prim.Constant {value = [1, "a"]} : !prim.tuple<i64, !prim.str>
  %tuple = prim.TupleConstruct %1, %t : (i64, i1) -> !prim.tuple<i64, i1>
  %bools = prim.ListConstruct %t, %t : (i1, i1) -> !prim.list<i1>
  %empty = prim.ListConstruct : () -> !prim.list<i64>
  %0 = prim.TupleIndex %c, %m1 : (!prim.tuple<i64, !prim.str>, i64) -> !prim.str
  %2:2 = prim.TupleUnpack %c : (!prim.tuple<i64, !prim.str>) -> (i64, !prim.str)
  return %tuple, %bools, %empty, %0, %2#0 : !prim.tuple<i64, i1>, !prim.list<i1>, !prim.list<i64>, !prim.str, i64
}

// -----

// The range helpers of for-loops.
// CHECK-LABEL: func.func @range_length
// CHECK-NEXT: prim.Constant {value = 4 : i64}
// CHECK-NEXT: prim.Constant {value = 4 : i64}
// CHECK-NEXT: prim.Constant {value = 1 : i64}
// CHECK-NEXT: return
func.func @range_length() -> (i64, i64, i64) {
  %0 = prim.Constant {value = 0 : i64} : i64
  %10 = prim.Constant {value = 10 : i64} : i64
  %3 = prim.Constant {value = 3 : i64} : i64
  %m3 = prim.Constant {value = -3 : i64} : i64
  %a = aten.__range_length %0, %10, %3 : (i64, i64, i64) -> i64
  %b = aten.__range_length %10, %0, %m3 : (i64, i64, i64) -> i64
  %c = aten.__derive_index %3, %10, %m3 : (i64, i64, i64) -> i64
  return %a, %b, %c : i64, i64, i64
}

// -----

// A folded constant takes the folded op's location (its TorchScript name).
// LOC-LABEL: func.func @keeps_location
// LOC: prim.Constant {value = 3 : i64} : i64 loc(#[[SUM:[a-z0-9]+]])
// LOC: #[[SUM]] = loc("sum.1")
func.func @keeps_location() -> i64 {
  %1 = prim.Constant {value = 1 : i64} : i64
  %2 = prim.Constant {value = 2 : i64} : i64
  %s = aten.add.int %1, %2 : (i64, i64) -> i64 loc("sum.1")
  return %s : i64
}

// -----

// An If on a constant is replaced by the taken branch, side effects
// included; what folds once inlined folds too (2 * 2).
// CHECK-LABEL: func.func @inline_if
// CHECK-NEXT: %[[S:.*]] = prim.Constant {value = "else"}
// CHECK-NEXT: prim.Print %[[S]]
// CHECK-NEXT: %[[Y:.*]] = aten.relu %arg0
// CHECK-NEXT: %[[M:.*]] = prim.Constant {value = 4 : i64}
// CHECK-NEXT: return %[[M]], %[[Y]]
func.func @inline_if(%x: !prim.tensor) -> (i64, !prim.tensor) {
  %1 = prim.Constant {value = 1 : i64} : i64
  %2 = prim.Constant {value = 2 : i64} : i64
  %c = aten.gt.int %1, %2 : (i64, i64) -> i1
  %r:2 = prim.If %c -> (i64, !prim.tensor) {
    %s = prim.Constant {value = "then"} : !prim.str
    prim.Print %s : !prim.str
    prim.Yield %1, %x : i64, !prim.tensor
  } else {
    %s = prim.Constant {value = "else"} : !prim.str
    prim.Print %s : !prim.str
    %y = aten.relu %x : (!prim.tensor) -> !prim.tensor
    prim.Yield %2, %y : i64, !prim.tensor
  }
  %m = aten.mul.int %r#0, %2 : (i64, i64) -> i64
  return %m, %r#1 : i64, !prim.tensor
}

// -----

// The taken branch yields `None` for an `int?` result: the return needs the
// result's type, which a cast gives; the cast of a constant then folds to a
// None of `int?`.
// CHECK-LABEL: func.func @inline_if_subtype
// CHECK-NEXT: %[[N:.*]] = prim.Constant {value} : !prim.optional<i64>
// CHECK-NEXT: return %[[N]]
func.func @inline_if_subtype() -> !prim.optional<i64> {
  %t = prim.Constant {value = true} : i1
  %r = prim.If %t -> (!prim.optional<i64>) {
    %none = prim.Constant {value} : !prim.none
    prim.Yield %none : !prim.none
  } else {
    %1 = prim.Constant {value = 1 : i64} : i64
    prim.Yield %1 : i64
  }
  return %r : !prim.optional<i64>
}

// -----

// A refined tensor replaces a plain result directly in aten ops, through a
// cast where the exact type matters.
// CHECK-LABEL: func.func @inline_if_refined
// CHECK-NEXT: %[[C:.*]] = prim.unchecked_cast %arg0 : (!prim.tensor<dtype = f32>) -> !prim.tensor
// CHECK-NEXT: %[[N:.*]] = aten.neg %arg0
// CHECK-NEXT: return %[[N]], %[[C]]
func.func @inline_if_refined(%x: !prim.tensor<dtype = f32>) -> (!prim.tensor, !prim.tensor) {
  %f = prim.Constant {value = false} : i1
  %r = prim.If %f -> (!prim.tensor) {
    %y = aten.relu %x : (!prim.tensor<dtype = f32>) -> !prim.tensor
    prim.Yield %y : !prim.tensor
  } else {
    prim.Yield %x : !prim.tensor<dtype = f32>
  }
  %n = aten.neg %r : (!prim.tensor) -> !prim.tensor
  return %n, %r : !prim.tensor, !prim.tensor
}

// -----

// An If on a value that is not constant stays; a result yielded as the same
// value, or as equal constants, on both branches leaves it. A result that
// differs stays.
// CHECK-LABEL: func.func @if_results
// CHECK-NEXT: %[[ONE:.*]] = prim.Constant {value = 1 : i64}
// CHECK-NEXT: %[[TWO:.*]] = prim.Constant {value = 2 : i64}
// CHECK-NEXT: %[[R:.*]] = prim.If %arg0 -> (i64) {
// CHECK-NEXT:   prim.Yield %[[ONE]] : i64
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[N:.*]] = aten.neg.int %arg1
// CHECK-NEXT:   prim.Yield %[[N]] : i64
// CHECK-NEXT: }
// CHECK-NEXT: return %arg1, %[[TWO]], %[[R]]
func.func @if_results(%c: i1, %a: i64) -> (i64, i64, i64) {
  %1 = prim.Constant {value = 1 : i64} : i64
  %r:3 = prim.If %c -> (i64, i64, i64) {
    %k = prim.Constant {value = 2 : i64} : i64
    prim.Yield %a, %k, %1 : i64, i64, i64
  } else {
    %k = prim.Constant {value = 2 : i64} : i64
    %n = aten.neg.int %a : (i64) -> i64
    prim.Yield %a, %k, %n : i64, i64, i64
  }
  return %r#0, %r#1, %r#2 : i64, i64, i64
}

// -----

// A loop that never runs (no trips, or a false first condition) is its
// initial values, whatever its body does.
// CHECK-LABEL: func.func @dead_loops
// CHECK-NEXT: %[[ONE:.*]] = prim.Constant {value = 1 : i64}
// CHECK-NEXT: return %arg0, %[[ONE]]
func.func @dead_loops(%x: !prim.tensor, %n: i64) -> (!prim.tensor, i64) {
  %t = prim.Constant {value = true} : i1
  %f = prim.Constant {value = false} : i1
  %0 = prim.Constant {value = 0 : i64} : i64
  %1 = prim.Constant {value = 1 : i64} : i64
  %a = prim.Loop %0, %t, %x : !prim.tensor -> (!prim.tensor) {
  ^bb0(%i: i64, %v: !prim.tensor):
    %s = prim.Constant {value = "never"} : !prim.str
    prim.Print %s : !prim.str
    %w = aten.relu %v : (!prim.tensor) -> !prim.tensor
    prim.Yield %t, %w : i1, !prim.tensor
  }
  %b = prim.Loop %n, %f, %1 : i64 -> (i64) {
  ^bb0(%i: i64, %v: i64):
    %w = aten.add.int %v, %1 : (i64, i64) -> i64
    prim.Yield %t, %w : i1, i64
  }
  return %a, %b : !prim.tensor, i64
}

// -----

// Loops that may run stay: a non-constant condition, a positive trip count;
// so do their loop-carried values that change.
// CHECK-LABEL: func.func @live_loops
// CHECK: prim.Loop %arg0, %arg1, %{{.*}} : i64 -> (i64)
// CHECK: aten.add.int
// CHECK: prim.Loop %{{.*}}, %{{.*}}, %{{.*}} : i64 -> (i64)
// CHECK: aten.mul.int
func.func @live_loops(%n: i64, %c: i1) -> (i64, i64) {
  %t = prim.Constant {value = true} : i1
  %1 = prim.Constant {value = 1 : i64} : i64
  %a = prim.Loop %n, %c, %1 : i64 -> (i64) {
  ^bb0(%i: i64, %v: i64):
    %w = aten.add.int %v, %1 : (i64, i64) -> i64
    prim.Yield %t, %w : i1, i64
  }
  %b = prim.Loop %1, %t, %1 : i64 -> (i64) {
  ^bb0(%i: i64, %v: i64):
    %w = aten.mul.int %v, %i : (i64, i64) -> i64
    prim.Yield %t, %w : i1, i64
  }
  return %a, %b : i64, i64
}

// -----

// A loop-carried value yielded back unchanged (its block argument, or the
// initial value itself) is its initial value, in the body and after the
// loop, where it then folds (2 * 2, 2 + 1); the value that changes stays.
// CHECK-LABEL: func.func @loop_invariant
// CHECK-NEXT: %[[T:.*]] = prim.Constant {value = true}
// CHECK-NEXT: %[[ONE:.*]] = prim.Constant {value = 1 : i64}
// CHECK-NEXT: %[[R:.*]] = prim.Loop %arg0, %[[T]], %[[ONE]] : i64 -> (i64) {
// CHECK-NEXT: ^bb0(%{{.*}}: i64, %[[ACC:.*]]: i64):
// CHECK-NEXT:   %[[FOUR:.*]] = prim.Constant {value = 4 : i64}
// CHECK-NEXT:   %[[NEXT:.*]] = aten.add.int %[[ACC]], %[[FOUR]]
// CHECK-NEXT:   prim.Yield %[[T]], %[[NEXT]] : i1, i64
// CHECK-NEXT: }
// CHECK-NEXT: %[[D:.*]] = prim.Constant {value = 3 : i64}
// CHECK-NEXT: return %[[D]], %[[R]], %arg1
func.func @loop_invariant(%n: i64, %x: !prim.tensor) -> (i64, i64, !prim.tensor) {
  %t = prim.Constant {value = true} : i1
  %1 = prim.Constant {value = 1 : i64} : i64
  %2 = prim.Constant {value = 2 : i64} : i64
  %r:3 = prim.Loop %n, %t, %2, %1, %x : i64, i64, !prim.tensor -> (i64, i64, !prim.tensor) {
  ^bb0(%i: i64, %k: i64, %acc: i64, %same: !prim.tensor):
    %k2 = aten.mul.int %k, %k : (i64, i64) -> i64
    %acc2 = aten.add.int %acc, %k2 : (i64, i64) -> i64
    prim.Yield %t, %k, %acc2, %x : i1, i64, i64, !prim.tensor
  }
  %d = aten.add.int %r#0, %1 : (i64, i64) -> i64
  return %d, %r#1, %r#2 : i64, i64, !prim.tensor
}

// -----

// Folding reaches into If branches.
// CHECK-LABEL: func.func @nested
// CHECK: prim.If %arg0
// CHECK-NEXT: prim.Constant {value = 2 : i64}
// CHECK: } else {
// CHECK-NEXT: prim.Constant {value = -1 : i64}
func.func @nested(%c: i1) -> i64 {
  %1 = prim.Constant {value = 1 : i64} : i64
  %r = prim.If %c -> (i64) {
    %a = aten.add.int %1, %1 : (i64, i64) -> i64
    prim.Yield %a : i64
  } else {
    %b = aten.neg.int %1 : (i64) -> i64
    prim.Yield %b : i64
  }
  return %r : i64
}

// -----

// An If that loses results keeps the names of the others (a node's location
// lists its outputs' names); a constant replacing a result takes its name.
// LOC-LABEL: func.func @keeps_result_names
// LOC: prim.Constant {value = 2 : i64} : i64 loc(#[[K:[a-z0-9]+]])
// LOC: prim.If
// LOC: aten.relu
// LOC: } loc(#[[B:[a-z0-9]+]])
// LOC-DAG: #[[K]] = #prim.node<"k.1">
// LOC-DAG: #[[B]] = #prim.node<"b.1">
func.func @keeps_result_names(%c: i1, %x: !prim.tensor) -> (i64, !prim.tensor, i64) {
  %1 = prim.Constant {value = 1 : i64} : i64
  %r:3 = prim.If %c -> (i64, !prim.tensor, i64) {
    %k = prim.Constant {value = 2 : i64} : i64
    prim.Yield %1, %x, %k : i64, !prim.tensor, i64
  } else {
    %y = aten.relu %x : (!prim.tensor) -> !prim.tensor
    %k = prim.Constant {value = 2 : i64} : i64
    prim.Yield %1, %y, %k : i64, !prim.tensor, i64
  } loc(fused["a.1", "b.1", "k.1"])
  return %r#0, %r#1, %r#2 : i64, !prim.tensor, i64
}

// -----

// Enum members compare and name themselves; a member's value is not in the
// graph, so EnumValue stays.
// CHECK-LABEL: func.func @enums
// CHECK-DAG: %[[FALSE:.*]] = prim.Constant {value = false} : i1
// CHECK-DAG: %[[TRUE:.*]] = prim.Constant {value = true} : i1
// CHECK-DAG: %[[NAME:.*]] = prim.Constant {value = "RED"} : !prim.str
// CHECK-DAG: %[[VALUE:.*]] = prim.Generic "prim::EnumValue"
// CHECK: return %[[FALSE]], %[[TRUE]], %[[NAME]], %[[VALUE]]
func.func @enums() -> (i1, i1, !prim.str, i64) {
  %red = prim.Constant {value = #prim.enum_member<"__torch__.Color", "RED">} : !prim.enum<"__torch__.Color">
  %green = prim.Constant {value = #prim.enum_member<"__torch__.Color", "GREEN">} : !prim.enum<"__torch__.Color">
  %eq = aten.eq.enum %red, %green : (!prim.enum<"__torch__.Color">, !prim.enum<"__torch__.Color">) -> i1
  %ne = aten.ne.enum %red, %green : (!prim.enum<"__torch__.Color">, !prim.enum<"__torch__.Color">) -> i1
  %name = prim.Generic "prim::EnumName"(%red) : (!prim.enum<"__torch__.Color">) -> !prim.str
  %value = prim.Generic "prim::EnumValue"(%red) : (!prim.enum<"__torch__.Color">) -> i64
  return %eq, %ne, %name, %value : i1, i1, !prim.str, i64
}
