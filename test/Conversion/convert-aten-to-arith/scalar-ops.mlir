// RUN: tsir-opt %s --convert-aten-to-arith -split-input-file | FileCheck %s

// Int arithmetic wraps: plain addi/subi/muli. Scalar constants become
// arith.constant.
// CHECK-LABEL: func.func @int_arith
// CHECK-SAME: (%[[A:.*]]: i64, %[[B:.*]]: i64)
// CHECK: %[[C:.*]] = arith.constant 3 : i64
// CHECK: %[[ADD:.*]] = arith.addi %[[A]], %[[B]] : i64
// CHECK: %[[SUB:.*]] = arith.subi %[[ADD]], %[[C]] : i64
// CHECK: %[[MUL:.*]] = arith.muli %[[SUB]], %[[B]] : i64
// CHECK: %[[NEG:.*]] = arith.subi %{{.*}}, %[[MUL]] : i64
// CHECK: return %[[NEG]]
func.func @int_arith(%a: i64, %b: i64) -> i64 {
  %c = prim.Constant {value = 3 : i64} : i64
  %0 = aten.add.int %a, %b : (i64, i64) -> i64
  %1 = aten.sub.int %0, %c : (i64, i64) -> i64
  %2 = aten.mul.int %1, %b : (i64, i64) -> i64
  %3 = aten.neg.int %2 : (i64) -> i64
  return %3 : i64
}

// -----

// Floor division: a truncating divsi/remsi by a divisor made safe (0 and -1
// replaced by 1), stepped down when the remainder's sign differs from the
// divisor's; the zero divisor selects 0.
// CHECK-LABEL: func.func @floordiv_int
// CHECK-SAME: (%[[A:.*]]: i64, %[[B:.*]]: i64)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[M1:.*]] = arith.constant -1 : i64
// CHECK: %[[ISZERO:.*]] = arith.cmpi eq, %[[B]], %[[ZERO]]
// CHECK: %[[ISM1:.*]] = arith.cmpi eq, %[[B]], %[[M1]]
// CHECK: %[[SPECIAL:.*]] = arith.ori %[[ISZERO]], %[[ISM1]]
// CHECK: %[[SAFE:.*]] = arith.select %[[SPECIAL]], %[[ONE]], %[[B]]
// CHECK: %[[Q:.*]] = arith.divsi %[[A]], %[[SAFE]]
// CHECK: %[[R:.*]] = arith.remsi %[[A]], %[[SAFE]]
// CHECK: %[[XOR:.*]] = arith.xori %[[R]], %[[B]]
// CHECK: %[[QM1:.*]] = arith.subi %[[Q]], %[[ONE]]
// CHECK: %[[FLOOR:.*]] = arith.select %{{.*}}, %[[QM1]], %[[Q]]
// CHECK: %[[NEGA:.*]] = arith.subi %[[ZERO]], %[[A]]
// CHECK: %[[W:.*]] = arith.select %[[ISM1]], %[[NEGA]], %[[FLOOR]]
// CHECK: %[[RES:.*]] = arith.select %[[ISZERO]], %[[ZERO]], %[[W]]
// CHECK: return %[[RES]]
func.func @floordiv_int(%a: i64, %b: i64) -> i64 {
  %0 = aten.floordiv.int %a, %b : (i64, i64) -> i64
  return %0 : i64
}

// -----

// torch's int modulo, (b + a % b) % b, on the same safe divisor.
// CHECK-LABEL: func.func @remainder_int
// CHECK-SAME: (%[[A:.*]]: i64, %[[B:.*]]: i64)
// CHECK: %[[SAFE:.*]] = arith.select
// CHECK: %[[R:.*]] = arith.remsi %[[A]], %[[SAFE]]
// CHECK: %[[S:.*]] = arith.addi %[[B]], %[[R]]
// CHECK: %[[M:.*]] = arith.remsi %[[S]], %[[SAFE]]
// CHECK: return %[[M]]
func.func @remainder_int(%a: i64, %b: i64) -> i64 {
  %0 = aten.remainder.int %a, %b : (i64, i64) -> i64
  return %0 : i64
}

// -----

// Float ops, and ints promoted to f64 in the mixed overloads and in the
// int overloads that return floats (div.int, pow.int).
// CHECK-LABEL: func.func @float_arith
// CHECK-SAME: (%[[X:.*]]: f64, %[[N:.*]]: i64)
// CHECK: %[[NF:.*]] = arith.sitofp %[[N]] : i64 to f64
// CHECK: %[[ADD:.*]] = arith.addf %[[X]], %[[NF]] : f64
// CHECK: %[[DIV:.*]] = arith.divf %[[ADD]], %[[X]] : f64
// CHECK: %[[FQ:.*]] = arith.divf %[[DIV]], %[[X]] : f64
// CHECK: %[[FD:.*]] = math.floor %[[FQ]] : f64
// CHECK: %[[R1:.*]] = arith.remf %[[FD]], %[[X]] : f64
// CHECK: %[[R2:.*]] = arith.addf %[[X]], %[[R1]] : f64
// CHECK: %[[REM:.*]] = arith.remf %[[R2]], %[[X]] : f64
// CHECK: %[[A:.*]] = arith.sitofp %[[N]] : i64 to f64
// CHECK: %[[B:.*]] = arith.sitofp %[[N]] : i64 to f64
// CHECK: %[[TD:.*]] = arith.divf %[[A]], %[[B]] : f64
// CHECK: %[[C:.*]] = arith.sitofp %[[N]] : i64 to f64
// CHECK: %[[D:.*]] = arith.sitofp %[[N]] : i64 to f64
// CHECK: %[[POW:.*]] = math.powf %[[C]], %[[D]] : f64
// CHECK: %[[NEG:.*]] = arith.negf %[[REM]] : f64
// CHECK: return %[[NEG]], %[[TD]], %[[POW]]
func.func @float_arith(%x: f64, %n: i64) -> (f64, f64, f64) {
  %0 = aten.add.float_int %x, %n : (f64, i64) -> f64
  %1 = aten.div.float %0, %x : (f64, f64) -> f64
  %2 = aten.floordiv.float %1, %x : (f64, f64) -> f64
  %3 = aten.remainder.float %2, %x : (f64, f64) -> f64
  %4 = aten.div.int %n, %n : (i64, i64) -> f64
  %5 = aten.pow.int %n, %n : (i64, i64) -> f64
  %6 = aten.neg.float %3 : (f64) -> f64
  return %6, %4, %5 : f64, f64, f64
}

// -----

// pow.int_to_int: repeated squaring in an scf.while; a negative exponent
// (torch raises) gives 0.
// CHECK-LABEL: func.func @pow_int_to_int
// CHECK-SAME: (%[[A:.*]]: i64, %[[B:.*]]: i64)
// CHECK: %[[LOOP:.*]]:3 = scf.while (%[[ACC:.*]] = %{{.*}}, %[[SQ:.*]] = %[[A]], %[[E:.*]] = %[[B]])
// CHECK: arith.cmpi sgt, %[[E]]
// CHECK: scf.condition
// CHECK: } do {
// CHECK: arith.muli
// CHECK: arith.shrui
// CHECK: scf.yield
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[B]]
// CHECK: %[[RES:.*]] = arith.select %[[NEG]], %{{.*}}, %[[LOOP]]#0
// CHECK: return %[[RES]]
func.func @pow_int_to_int(%a: i64, %b: i64) -> i64 {
  %0 = aten.pow.int_to_int %a, %b : (i64, i64) -> i64
  return %0 : i64
}

// -----

// The Scalar overloads lower on ints and floats; a `number` result holds
// what TorchScript computes at run time (int * float is a float).
// CHECK-LABEL: func.func @scalar_overloads
// CHECK: %[[ADD:.*]] = arith.addi %arg0, %arg0 : i64
// CHECK: %[[F:.*]] = arith.sitofp %[[ADD]] : i64 to f64
// CHECK: %[[T:.*]] = arith.fptosi %arg1 : f64 to i64
// CHECK: %[[I:.*]] = arith.select %{{.*}}, %[[T]], %{{.*}} : i64
// CHECK: %[[NF:.*]] = arith.sitofp %arg0 : i64 to f64
// CHECK: %[[MUL:.*]] = arith.mulf %[[NF]], %arg1 : f64
// CHECK: %[[N:.*]] = builtin.unrealized_conversion_cast %[[MUL]] : f64 to !prim.number
// CHECK: return %[[F]], %[[I]], %[[N]]
func.func @scalar_overloads(%n: i64, %x: f64) -> (f64, i64, !prim.number) {
  %0 = aten.add %n, %n : (i64, i64) -> i64
  %1 = aten.Float.Scalar %0 : (i64) -> f64
  %2 = aten.Int.Scalar %x : (f64) -> i64
  %3 = aten.mul %n, %x : (i64, f64) -> !prim.number
  return %1, %2, %3 : f64, i64, !prim.number
}

// -----

// Casts with torch's rules: bool -> int/float zero-extends, int/float ->
// bool is != 0, float -> int truncates, and gives INT64_MIN for NaN, inf
// and values outside int64 (ScalarSemantics.h's floatToInt).
// CHECK-LABEL: func.func @casts
// CHECK-SAME: (%[[N:.*]]: i64, %[[X:.*]]: f64, %[[B:.*]]: i1)
// CHECK: %[[I:.*]] = arith.extui %[[B]] : i1 to i64
// CHECK: %[[F:.*]] = arith.uitofp %[[B]] : i1 to f64
// CHECK: %[[Z:.*]] = arith.constant 0 : i64
// CHECK: %[[NB:.*]] = arith.cmpi ne, %[[N]], %[[Z]] : i64
// CHECK: %[[FZ:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[XB:.*]] = arith.cmpf une, %[[X]], %[[FZ]] : f64
// CHECK: %[[LOW:.*]] = arith.constant -9.2233720368547778E+18 : f64
// CHECK: %[[ABOVE:.*]] = arith.cmpf ogt, %[[X]], %[[LOW]] : f64
// CHECK: %[[HIGH:.*]] = arith.constant 9.2233720368547758E+18 : f64
// CHECK: %[[BELOW:.*]] = arith.cmpf olt, %[[X]], %[[HIGH]] : f64
// CHECK: %[[IN:.*]] = arith.andi %[[ABOVE]], %[[BELOW]] : i1
// CHECK: %[[T:.*]] = arith.fptosi %[[X]] : f64 to i64
// CHECK: %[[MIN:.*]] = arith.constant -9223372036854775808 : i64
// CHECK: %[[XI:.*]] = arith.select %[[IN]], %[[T]], %[[MIN]] : i64
// CHECK: %[[NF:.*]] = arith.sitofp %[[N]] : i64 to f64
// CHECK: return %[[I]], %[[F]], %[[NB]], %[[XB]], %[[XI]], %[[NF]]
func.func @casts(%n: i64, %x: f64, %b: i1) -> (i64, f64, i1, i1, i64, f64) {
  %0 = aten.Int.bool %b : (i1) -> i64
  %1 = aten.Float.bool %b : (i1) -> f64
  %2 = aten.Bool.int %n : (i64) -> i1
  %3 = aten.Bool.float %x : (f64) -> i1
  %4 = aten.Int.float %x : (f64) -> i64
  %5 = aten.Float.int %n : (i64) -> f64
  return %0, %1, %2, %3, %4, %5 : i64, f64, i1, i1, i64, f64
}

// -----

// Math functions compute in f64; round is Python's round-half-to-even.
// CHECK-LABEL: func.func @math
// CHECK-SAME: (%[[N:.*]]: i64, %[[X:.*]]: f64)
// CHECK: %[[NF:.*]] = arith.sitofp %[[N]] : i64 to f64
// CHECK: math.sqrt %[[NF]] : f64
// CHECK: math.exp %[[X]] : f64
// CHECK: math.log %[[X]] : f64
// CHECK: math.roundeven %[[X]] : f64
// CHECK: %[[FL:.*]] = math.floor %[[X]] : f64
// CHECK: arith.fptosi %[[FL]] : f64 to i64
// CHECK: %[[CE:.*]] = math.ceil %[[X]] : f64
// CHECK: arith.fptosi %[[CE]] : f64 to i64
func.func @math(%n: i64, %x: f64) -> (f64, f64, f64, f64, i64, i64) {
  %0 = aten.sqrt.int %n : (i64) -> f64
  %1 = aten.exp.float %x : (f64) -> f64
  %2 = aten.log.float %x : (f64) -> f64
  %3 = aten.round.float %x : (f64) -> f64
  %4 = aten.floor.float %x : (f64) -> i64
  %5 = aten.ceil.float %x : (f64) -> i64
  return %0, %1, %2, %3, %4, %5 : f64, f64, f64, f64, i64, i64
}

// -----

// Comparisons: signed for ints, ordered for floats except `!=` (true for
// NaN), bools widened to order them, compared as i1 for equality.
// CHECK-LABEL: func.func @compare
// CHECK-SAME: (%[[N:.*]]: i64, %[[X:.*]]: f64, %[[B:.*]]: i1, %[[C:.*]]: i1)
// CHECK: arith.cmpi slt, %[[N]], %[[N]] : i64
// CHECK: arith.cmpi sge, %[[N]], %[[N]] : i64
// CHECK: %[[NF:.*]] = arith.sitofp %[[N]] : i64 to f64
// CHECK: arith.cmpf ole, %[[NF]], %[[X]] : f64
// CHECK: arith.cmpf une, %[[X]], %[[X]] : f64
// CHECK: arith.cmpf oeq, %[[X]], %[[X]] : f64
// CHECK: arith.cmpi eq, %[[B]], %[[C]] : i1
// CHECK: %[[BW:.*]] = arith.extui %[[B]] : i1 to i64
// CHECK: %[[CW:.*]] = arith.extui %[[C]] : i1 to i64
// CHECK: arith.cmpi sgt, %[[BW]], %[[CW]] : i64
func.func @compare(%n: i64, %x: f64, %b: i1, %c: i1) -> (i1, i1, i1, i1, i1, i1, i1) {
  %0 = aten.lt.int %n, %n : (i64, i64) -> i1
  %1 = aten.ge.int %n, %n : (i64, i64) -> i1
  %2 = aten.le.int_float %n, %x : (i64, f64) -> i1
  %3 = aten.ne.float %x, %x : (f64, f64) -> i1
  %4 = aten.eq.float %x, %x : (f64, f64) -> i1
  %5 = aten.eq.bool %b, %c : (i1, i1) -> i1
  %6 = aten.gt %b, %c : (i1, i1) -> i1
  return %0, %1, %2, %3, %4, %5, %6 : i1, i1, i1, i1, i1, i1, i1
}

// -----

// Bool logic and int bitwise ops.
// CHECK-LABEL: func.func @logic
// CHECK-SAME: (%[[B:.*]]: i1, %[[C:.*]]: i1, %[[N:.*]]: i64)
// CHECK: %[[AND:.*]] = arith.andi %[[B]], %[[C]] : i1
// CHECK: %[[OR:.*]] = arith.ori %[[AND]], %[[C]] : i1
// CHECK: %[[XOR:.*]] = arith.xori %[[OR]], %[[B]] : i1
// CHECK: %[[T:.*]] = arith.constant true
// CHECK: %[[NOT:.*]] = arith.xori %[[XOR]], %[[T]] : i1
// CHECK: %[[IAND:.*]] = arith.andi %[[N]], %[[N]] : i64
// CHECK: %[[IOR:.*]] = arith.ori %[[IAND]], %[[N]] : i64
// CHECK: %[[IXOR:.*]] = arith.xori %[[IOR]], %[[N]] : i64
// CHECK: return %[[NOT]], %[[IXOR]]
func.func @logic(%b: i1, %c: i1, %n: i64) -> (i1, i64) {
  %0 = aten.__and__.bool %b, %c : (i1, i1) -> i1
  %1 = aten.__or__.bool %0, %c : (i1, i1) -> i1
  %2 = aten.__xor__.bool %1, %b : (i1, i1) -> i1
  %3 = aten.__not__ %2 : (i1) -> i1
  %4 = aten.__and__.int %n, %n : (i64, i64) -> i64
  %5 = aten.__or__.int %4, %n : (i64, i64) -> i64
  %6 = aten.__xor__.int %5, %n : (i64, i64) -> i64
  return %3, %6 : i1, i64
}

// -----

// `is` / `is not`: decided by the types against None (an int is never
// None, None is None), by value on two scalars of one type, false for an
// int against a float; left alone on an Optional, whose value decides it.
// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%[[N:.*]]: i64, %[[M:.*]]: i64, %[[X:.*]]: f64, %[[O:.*]]: !prim.optional<i64>)
// CHECK-DAG: %[[F:.*]] = arith.constant false
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK-DAG: %[[EQ:.*]] = arith.cmpi eq, %[[N]], %[[M]] : i64
// CHECK-DAG: %[[NE:.*]] = arith.cmpi ne, %[[N]], %[[M]] : i64
// CHECK-DAG: %[[F2:.*]] = arith.constant false
// CHECK-DAG: %[[OPT:.*]] = aten.__is__ %[[O]], %[[NONE:.*]] : (!prim.optional<i64>, !prim.none) -> i1
// CHECK: return %[[F]], %[[T]], %[[EQ]], %[[NE]], %[[F2]], %[[OPT]]
func.func @identity(%n: i64, %m: i64, %x: f64, %o: !prim.optional<i64>) -> (i1, i1, i1, i1, i1, i1) {
  %none = prim.Constant {value} : !prim.none
  %0 = aten.__is__ %n, %none : (i64, !prim.none) -> i1
  %1 = aten.__is__ %none, %none : (!prim.none, !prim.none) -> i1
  %2 = aten.__is__ %n, %m : (i64, i64) -> i1
  %3 = aten.__isnot__ %n, %m : (i64, i64) -> i1
  %4 = aten.__is__ %n, %x : (i64, f64) -> i1
  %5 = aten.__is__ %o, %none : (!prim.optional<i64>, !prim.none) -> i1
  return %0, %1, %2, %3, %4, %5 : i1, i1, i1, i1, i1, i1
}

// -----

// The loop helpers of `for i in range(start, stop, step)`.
// CHECK-LABEL: func.func @derive_index
// CHECK-SAME: (%[[I:.*]]: i64, %[[S:.*]]: i64, %[[T:.*]]: i64)
// CHECK: %[[M:.*]] = arith.muli %[[I]], %[[T]] : i64
// CHECK: %[[R:.*]] = arith.addi %[[S]], %[[M]] : i64
// CHECK: return %[[R]]
func.func @derive_index(%i: i64, %start: i64, %step: i64) -> i64 {
  %0 = aten.__derive_index %i, %start, %step : (i64, i64, i64) -> i64
  return %0 : i64
}

// -----

// A `number` whose int/float an earlier conversion knows (item() of a
// float tensor) is computed on as that float; a Scalar overload's `number`
// result holds what its operands promote to, for later Scalar ops and, cast
// back, for other users.
// CHECK-LABEL: func.func @known_numbers
// CHECK-SAME: (%[[X:.*]]: f64, %[[N:.*]]: i64)
// CHECK: %[[NF:.*]] = arith.sitofp %[[N]] : i64 to f64
// CHECK: %[[MUL:.*]] = arith.mulf %[[X]], %[[NF]] : f64
// CHECK: %[[NUM:.*]] = builtin.unrealized_conversion_cast %[[MUL]] : f64 to !prim.number
// CHECK: %[[T:.*]] = arith.fptosi %[[X]] : f64 to i64
// CHECK: %[[I:.*]] = arith.select %{{.*}}, %[[T]], %{{.*}} : i64
// CHECK: %[[LT:.*]] = arith.cmpf olt, %[[MUL]], %[[X]] : f64
// CHECK: %[[SUM:.*]] = arith.addi %[[N]], %[[N]] : i64
// CHECK: %[[Q:.*]] = arith.sitofp %[[SUM]] : i64 to f64
// CHECK: return %[[NUM]], %[[I]], %[[LT]], %[[Q]]
func.func @known_numbers(%x: f64, %n: i64) -> (!prim.number, i64, i1, f64) {
  %num = builtin.unrealized_conversion_cast %x : f64 to !prim.number
  %0 = aten.mul %num, %n : (!prim.number, i64) -> !prim.number
  %1 = aten.Int.Scalar %num : (!prim.number) -> i64
  %2 = aten.lt %0, %x : (!prim.number, f64) -> i1
  %3 = aten.add %n, %n : (i64, i64) -> !prim.number
  %4 = aten.Float.Scalar %3 : (!prim.number) -> f64
  return %0, %1, %2, %4 : !prim.number, i64, i1, f64
}

// -----

// A `number` nothing knows (a graph input typed Scalar) is left alone.
// CHECK-LABEL: func.func @unknown_number
// CHECK: aten.Float.Scalar %arg0 : (!prim.number) -> f64
func.func @unknown_number(%s: !prim.number) -> f64 {
  %0 = aten.Float.Scalar %s : (!prim.number) -> f64
  return %0 : f64
}

// -----

// The placeholders a `break` leaves for values it never defines: any value
// does, 0 is deterministic.
// CHECK-LABEL: func.func @uninitialized
// CHECK-DAG: %[[I:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[B:.*]] = arith.constant false
// CHECK-DAG: %[[F:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: return %[[I]], %[[B]], %[[F]]
func.func @uninitialized() -> (i64, i1, f64) {
  %0 = prim.Uninitialized : i64
  %1 = prim.Uninitialized : i1
  %2 = prim.Uninitialized : f64
  return %0, %1, %2 : i64, i1, f64
}

// -----

// Python's abs/min/max, kept as prim.Generic nodes: abs of a float is
// math.absf, min/max select with TorchScript's `a < b ? a : b`.
// CHECK-LABEL: func.func @abs_min_max
// CHECK-SAME: (%[[N:.*]]: i64, %[[X:.*]]: f64)
// CHECK: math.absf %[[X]] : f64
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[N]], %{{.*}} : i64
// CHECK: %[[NEGATED:.*]] = arith.subi %{{.*}}, %[[N]] : i64
// CHECK: arith.select %[[NEG]], %[[NEGATED]], %[[N]] : i64
// CHECK: %[[NF:.*]] = arith.sitofp %[[N]] : i64 to f64
// CHECK: %[[LT:.*]] = arith.cmpf olt, %[[NF]], %[[X]] : f64
// CHECK: arith.select %[[LT]], %[[NF]], %[[X]] : f64
// CHECK: %[[GT:.*]] = arith.cmpi sgt, %[[N]], %[[N]] : i64
// CHECK: arith.select %[[GT]], %[[N]], %[[N]] : i64
func.func @abs_min_max(%n: i64, %x: f64) -> (f64, i64, f64, i64) {
  %0 = prim.Generic "prim::abs"(%x) : (f64) -> f64
  %1 = prim.Generic "prim::abs"(%n) : (i64) -> i64
  %2 = prim.Generic "prim::min"(%n, %x) : (i64, f64) -> f64
  %3 = prim.Generic "prim::max"(%n, %n) : (i64, i64) -> i64
  return %0, %1, %2, %3 : f64, i64, f64, i64
}
